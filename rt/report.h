/*===- report.h - the in-memory report model ----------------------*- C -*-===*\
|*
|* One model of an ompdp report. The runtime fills it from the event log at
|* exit; the driver fills it from a saved JSON report. Every output format
|* (text, JSON) is rendered from this model and nothing else, so the formats
|* cannot disagree. All strings are owned by the report (malloc'd copies).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REPORT_H
#define OMPDP_REPORT_H

#include "ompdp/format.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A source location. Any string may be NULL when unknown; line/column 0
 * means unknown. */
typedef struct ompdp_loc {
  char *function;
  char *file;
  uint32_t line;
  uint32_t column;
} ompdp_loc_t;

typedef struct ompdp_finding {
  ompdp_finding_kind_t kind;
  uint64_t count;         /* avoidable operations (Table 1 semantics) */
  uint64_t bytes;         /* bytes moved by the avoidable operations */
  uint64_t time_ns;       /* summed duration of the avoidable operations */
  uint64_t time_saved_ns; /* union of their intervals */
  int *devices;           /* device numbers involved, ascending */
  size_t num_devices;
  ompdp_loc_t loc;        /* where the avoidable operations are issued */
  ompdp_loc_t related;    /* the operation they repeat/undo, if any */
  char *variable;         /* NULL until the compiler plugin provides it */
  char *clause;           /* NULL until the compiler plugin provides it */
  char *suggestion;       /* the fix, in words */
  /* Duplicate transfers only: repeats that re-send the same host buffer
   * versus other host buffers that happen to hold the same bytes. */
  uint64_t same_buffer;
  uint64_t other_buffer;
} ompdp_finding_t;

typedef struct ompdp_report {
  int version;
  /* program */
  char **argv;
  size_t argc;
  int has_exit_status;
  int exit_status;  /* as the shell reports it: 128+N for signal N */
  uint64_t wall_time_ns;
  /* summary: counts by kind, Table 1 semantics */
  uint64_t counts[OMPDP_FK_COUNT];
  uint64_t time_saved_ns; /* union over every finding */
  double predicted_speedup;
  /* what was observed */
  uint64_t num_transfers;
  uint64_t num_allocs;
  uint64_t num_kernels;
  uint64_t bytes_transferred;
  uint64_t transfer_time_ns;
  uint64_t hash_collisions; /* only with the verify_hashes option */
  int partial;              /* 1 if the report is known to be incomplete */
  char **warnings;          /* things the reader must know (lost callbacks...) */
  size_t num_warnings;
  ompdp_finding_t *findings;
  size_t num_findings;
} ompdp_report_t;

/* Lifetime. */
void ompdp_report_init(ompdp_report_t *r);
void ompdp_report_free(ompdp_report_t *r);
/* Frees what a finding or location owns and zeroes it. */
void ompdp_finding_free(ompdp_finding_t *f);
void ompdp_loc_free(ompdp_loc_t *l);
/* Appends a zeroed finding and returns it, or NULL when out of memory. */
ompdp_finding_t *ompdp_report_add_finding(ompdp_report_t *r, ompdp_finding_kind_t k);
int ompdp_report_add_warning(ompdp_report_t *r, const char *msg);
/* Sorts findings by kind, then time saved (descending), then location. */
void ompdp_report_sort(ompdp_report_t *r);
/* Recomputes predicted_speedup from wall_time_ns and time_saved_ns. */
void ompdp_report_update_speedup(ompdp_report_t *r);

/* Names from OmpdpFormat.inc. */
const char *ompdp_finding_kind_json(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_summary_key(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_title(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_explanation(ompdp_finding_kind_t k);
/* Returns OMPDP_FK_COUNT when the name is unknown. */
ompdp_finding_kind_t ompdp_finding_kind_from_json(const char *name);

/* Rendering. Return 0, or -1 with errno set when the stream fails. */
int ompdp_report_write_text(const ompdp_report_t *r, FILE *out);
int ompdp_report_write_json(const ompdp_report_t *r, FILE *out);

/* Reading a JSON report. Returns 0, or -1 after writing a one-line reason
 * (without the "ompdp: " prefix) into err. */
int ompdp_report_read_json(const char *text, size_t len, ompdp_report_t *r,
                           char *err, size_t errlen);
int ompdp_report_read_json_file(const char *path, ompdp_report_t *r,
                                char *err, size_t errlen);

/* strdup that accepts NULL. */
char *ompdp_strdup(const char *s);

#endif /* OMPDP_REPORT_H */
