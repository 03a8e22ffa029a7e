/*===- journal.h - the runtime's side of the journal ----------------*- C -*-===*\
|*
|* The stream consumer saves the analysis so far, at most every journal_ms,
|* into <report>.journal (journal.c), in the format of
|* report/journal_format.h; the report written at exit removes it.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_JOURNAL_H
#define OMPDP_JOURNAL_H

#include "journal_format.h"
#include "report.h"

struct ompdp_op;
typedef void (*ompdp_journal_attribute_fn)(const struct ompdp_op *op, ompdp_loc_t *loc,
                                           ompdp_finding_t *site);
/* Finds this process's journal path; under attributes the operations of
 * snapshots. Returns 0, or -1 when there is no journal (the report goes to
 * stderr), after which save and remove do nothing. */
int ompdp_journal_init(int start_pid, ompdp_journal_attribute_fn under);
/* under's answer for op, kept, so that later flushes read no DWARF for the
 * sites they have seen (an attribute function for ompdp_engine_snapshot). */
void ompdp_journal_attribute(const struct ompdp_op *op, ompdp_loc_t *loc,
                             ompdp_finding_t *site);
/* Saves snapshot (the report so far, `events` events) as the journal, whole
 * or not at all. On the stream consumer thread, under its lock. */
void ompdp_journal_save(const ompdp_report_t *snapshot, uint64_t events);
/* Removes the journal: the real report is written. */
void ompdp_journal_remove(void);

#endif /* OMPDP_JOURNAL_H */
