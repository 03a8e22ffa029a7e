/*===- report_merge.h - one report from the reports of many ranks --*- C -*-===*\
|*
|* `ompdp merge` (driver/merge.c) folds the per-rank reports of one MPI run
|* into one report, one rank at a time, so that memory grows with the
|* distinct findings and the ranks, not with the reports read:
|*
|*   ompdp_merger_t *m = ompdp_merger_create();
|*   for each report: ompdp_merger_add(m, &report, its name, err, errlen);
|*   ompdp_merger_finish(m, &merged, err, errlen);
|*   ompdp_merger_destroy(m);
|*
|* What the merged report holds (docs/report-format.md, Merged reports):
|* a finding of one construct and map item (or, without the compiler's
|* region IDs, one location and variable) on several ranks is one finding,
|* with the counts, bytes and times summed, the devices of all of them, and
|* a spread (which ranks, min/median/max per rank); its text, location and
|* related operation are the lowest rank's. Identical rewrites (the same
|* edits) are one, with their savings summed. The summary and what was
|* observed are sums; the wall time is the slowest rank's, and the
|* predicted speedup is that of the job: the slowest rank's wall time over
|* the longest any rank would take with its fixes. Warnings say which ranks
|* gave them; missing and partial ranks are said too.
|*
|* Refused, each with one line: reports of different programs, builds or
|* runs (the executable, its build ID, the launcher's job id, the job's
|* size), two reports of one rank, a report without a rank among several,
|* and a report that is already merged.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REPORT_MERGE_H
#define OMPDP_REPORT_MERGE_H

#include "process.h"
#include "report.h"

#include <stddef.h>

typedef struct ompdp_merger ompdp_merger_t;

/* NULL when out of memory. */
ompdp_merger_t *ompdp_merger_create(void);
void ompdp_merger_destroy(ompdp_merger_t *m);

/* Folds one rank's report into m, taking over what r owns (r is left
 * empty, still to be freed); name (its file) is what messages and the
 * merged report call it. Returns 0, or -1 after a one-line reason in err:
 * then r is untouched and m is as it was, except after running out of
 * memory. */
int ompdp_merger_add(ompdp_merger_t *m, ompdp_report_t *r, const char *name, char *err,
                     size_t errlen);

/* The merged report, into out (initialised here). Returns 0, or -1 after a
 * one-line reason in err (no report added, out of memory). m is spent. */
int ompdp_merger_finish(ompdp_merger_t *m, ompdp_report_t *out, char *err, size_t errlen);

/* How many ranks added so far were missing or partial is known only at
 * finish: this says, in one line for a person, what the merged report out
 * holds ("merged 3 of 4 ranks; missing: 3; partial: 2"). Returns 0 when
 * every rank is there and complete (nothing written). */
int ompdp_merge_summary_line(const ompdp_report_t *out, char *buf, size_t size);

#endif /* OMPDP_REPORT_MERGE_H */
