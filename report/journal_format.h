/*===- journal_format.h - the journal that survives SIGKILL ---------*- C -*-===*\
|*
|* A process that dies by SIGKILL, _exit() or the OOM killer writes no
|* report. While it runs, the stream consumer saves the analysis so far, at
|* most every journal_ms, into <report>.journal (rt/journal.c); the report
|* written at exit removes it. `ompdp run` and `ompdp report` turn a journal
|* that is left into a report marked partial (report/journal_format.c).
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
#ifndef OMPDP_JOURNAL_FORMAT_H
#define OMPDP_JOURNAL_FORMAT_H

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
/* What ompdp_report_or_journal_read_file and its variants read a file's
 * bytes with (the whole file, at most a journal's size). */
typedef int (*ompdp_report_bytes_reader_fn)(const char *buf, size_t len, const char *reason,
                                            ompdp_report_t *r, char *err, size_t errlen);
/* The file at path read by read: 0, or -1 after a reason that names the
 * file in err. */
int ompdp_report_read_path(const char *path, ompdp_report_bytes_reader_fn read,
                           const char *reason, ompdp_report_t *r, char *err, size_t errlen);

#endif /* OMPDP_JOURNAL_FORMAT_H */
