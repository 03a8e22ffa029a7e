/*===- journal.h - the journal that survives SIGKILL ----------------*- C -*-===*\
|*
|* A process that dies by SIGKILL, _exit() or the OOM killer writes no
|* report. While it runs, the stream consumer saves the analysis so far, at
|* most every journal_ms, into <report>.journal (rt/journal.c); the report
|* written at exit removes it. `ompdp run` and `ompdp report` turn a journal
|* that is left into a report marked partial (journal_format.c).
|*
|* The format, written and read only here: one header line, then exactly
|* `bytes` bytes of a JSON report (docs/report-format.md):
|*
|*   ompdp-journal 1 flushed_at_ns=N events=N bytes=N xxh64=16HEX\n
|*
|* flushed_at_ns is CLOCK_REALTIME at the flush, events the number of events
|* the analysis had consumed, xxh64 the XXH64 (seed 0) of the JSON. A reader
|* checks every field, the exact length and the checksum before it parses
|* the JSON, so a truncated, corrupt or foreign file is one clear error.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_JOURNAL_H
#define OMPDP_JOURNAL_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>

#define OMPDP_JOURNAL_MAGIC "ompdp-journal"
#define OMPDP_JOURNAL_VERSION 1
/* The JSON is a report: the report reader's limit, plus the header. */
#define OMPDP_JOURNAL_MAX_JSON ((size_t)256 << 20)
#define OMPDP_JOURNAL_MAX_HEADER 160

/* 1 if data starts like a journal (whatever follows). */
int ompdp_journal_is(const char *data, size_t len);

/* The journal of report r: header and JSON in one malloc'd buffer. Returns
 * 0, or -1 when out of memory. */
int ompdp_journal_encode(const ompdp_report_t *r, uint64_t flushed_at_ns, uint64_t events,
                         char **out, size_t *len);

/* Reads a journal into r, marked partial and recovered with reason (why
 * there was no report; NULL: a generic one). Returns 0, or -1 after a
 * one-line reason in err. */
int ompdp_journal_read(const char *data, size_t len, const char *reason, ompdp_report_t *r,
                       char *err, size_t errlen);

/* Reads a file that holds a JSON report or a journal (told apart by the
 * journal's magic); reason as for ompdp_journal_read. */
int ompdp_report_or_journal_read_file(const char *path, const char *reason, ompdp_report_t *r,
                                      char *err, size_t errlen);

/*--- runtime side (journal.c) ---------------------------------------------===*/

struct ompdp_op;
typedef void (*ompdp_journal_attribute_fn)(const struct ompdp_op *op, ompdp_loc_t *loc,
                                           char **variable, char **clause);
/* Finds this process's journal path; under attributes the operations of
 * snapshots. Returns 0, or -1 when there is no journal (the report goes to
 * stderr), after which save and remove do nothing. */
int ompdp_journal_init(int start_pid, ompdp_journal_attribute_fn under);
/* under's answer for op, kept, so that later flushes read no DWARF for the
 * sites they have seen (an attribute function for ompdp_engine_snapshot). */
void ompdp_journal_attribute(const struct ompdp_op *op, ompdp_loc_t *loc, char **variable,
                             char **clause);
/* Saves snapshot (the report so far, `events` events) as the journal, whole
 * or not at all. On the stream consumer thread, under its lock. */
void ompdp_journal_save(const ompdp_report_t *snapshot, uint64_t events);
/* Removes the journal: the real report is written. */
void ompdp_journal_remove(void);

#endif /* OMPDP_JOURNAL_H */
