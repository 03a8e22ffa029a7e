/*===- report_views.h - reports to look at, and reports compared --*- C -*-===*\
|*
|* What the driver renders from a report beside text, JSON and SARIF (the
|* library ompdp-report-views, which uses jansson and which the runtime does
|* not link):
|*   - an HTML page, one self-contained file (report_html.c);
|*   - a Chrome trace-event file for Perfetto and chrome://tracing
|*     (report_trace.c);
|*   - the difference of two reports of the same program, before and after
|*     a fix (report_diff.c).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REPORT_VIEWS_H
#define OMPDP_REPORT_VIEWS_H

#include "report.h"
#include "report_formats.h"

#include <stdio.h>

/* r in format f, any of report_formats.inc (report_render.c). Returns 0,
 * or -1 with errno set. */
int ompdp_report_render(const ompdp_report_t *r, ompdp_report_format_t f, FILE *out);

/* The page: summary, findings grouped by variable and construct with their
 * rewrites as diffs of the source lines (read from the files the edits
 * name, relative paths from the current directory, when they still match),
 * and the timeline of each device. Returns 0, or -1 with errno set. */
int ompdp_report_write_html(const ompdp_report_t *r, FILE *out);

/* Chrome trace-event JSON (the "JSON Object Format": traceEvents plus
 * metadata), one process per device with a thread per kind of operation,
 * one per host thread, findings as a process of their own and flows from
 * each repeated or undone operation to its repeat. Returns 0, or -1 with
 * errno set. */
int ompdp_report_write_trace(const ompdp_report_t *r, FILE *out);

/* Before and after: findings are matched by kind and site (region and map
 * item when the compiler named them, else file, line, column and function),
 * then those left by kind, variable and file (a fix that puts a construct
 * around another moves the finding that stays to it: "moved");
 * totals compared are the observed transfers, bytes, allocations, kernels,
 * transfer time and the time the fixes would save. */
typedef struct ompdp_diff_row {
  const ompdp_finding_t *before, *after; /* NULL: new / gone */
  int moved; /* matched by kind, variable and file only: the fix moved its site */
} ompdp_diff_row_t;

typedef struct ompdp_diff {
  const ompdp_report_t *before, *after;
  const char *before_name, *after_name; /* for the output (set by the caller) */
  ompdp_diff_row_t *rows; /* gone first, then changed and unchanged, then new */
  size_t num_rows;
  size_t gone, added, grew, shrank, same, moved;
  /* 1 when the waste grew: a finding is new, or one has more avoidable
   * operations (or as many, with more bytes), or the avoidable operations
   * of all findings together grew. Times alone never count: they vary from
   * run to run. */
  int waste_grew;
  /* The peak of device memory (report/memory.h) of each device (and rank)
   * of either report: before and after (0 where a report has none). */
  struct ompdp_diff_peak {
    int32_t device;
    int rank; /* -1: not a merged report's */
    uint64_t before, after;
  } *peaks;
  size_t num_peaks;
  /* 1 when some device's peak grew: a CI gate as waste_grew is (allocations
   * are the same from run to run of the same input). */
  int peak_grew;
} ompdp_diff_t;

/* Returns 0, or -1 when out of memory. */
int ompdp_diff_compute(const ompdp_report_t *before, const ompdp_report_t *after,
                       ompdp_diff_t *d);
void ompdp_diff_free(ompdp_diff_t *d);
int ompdp_diff_write_text(const ompdp_diff_t *d, FILE *out);
int ompdp_diff_write_json(const ompdp_diff_t *d, FILE *out);

#endif /* OMPDP_REPORT_VIEWS_H */
