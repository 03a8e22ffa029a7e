/*===- rewrite.h - concrete source rewrites for findings -----------*- C -*-===*\
|*
|* Turns a finding into exact text edits at exact source ranges, from what
|* the compiler recorded about the construct (region_view.h) and what the run
|* saw happen to the buffer (the event log). Four layers, a file each
|* (rewrite_impl.h):
|*
|*   clause text       rewrite_clause.c: clauses as the compiler wrote them;
|*   text primitives   rewrite_text.c: ompdp_rw_remove_item,
|*                     ompdp_rw_set_map_type, ompdp_rw_keep_resident...:
|*                     pure functions of region records, unit-tested
|*                     (unittests/test_rewrite*.c);
|*   facts             rewrite_facts.c: what the run did to each map item;
|*   policy            rewrite_policy.c, rewrite_keep.c:
|*                     ompdp_rewrite_report decides, per finding, which
|*                     rewrite is safe and what it saves (docs/fixes.md),
|*                     by the rule its kind has in the table of detections.
|*
|* Every edit carries the original text it expects (the clause, the item,
|* the loop keyword...), so that `ompdp fix` and the compiler plugin can
|* refuse a file that changed since the program was built.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REWRITE_H
#define OMPDP_REWRITE_H

#include "engine.h"
#include "region_view.h"
#include "report.h"

/* A construct as the compiler recorded it: one record per map item, in item
 * order (ompdp_regions_describe(region, j) for j < num_items). */
typedef struct ompdp_rw_region {
  const ompdp_region_info_t *items;
  uint32_t num_items;
} ompdp_rw_region_t;

/*--- text primitives --------------------------------------------------------
 * Each appends edits to rw and returns 0, or returns -1 with *why set to a
 * static reason (the edits already appended are then meaningless: the
 * caller drops the rewrite). */

/* Removes item k from its clause: the item and its comma when the clause
 * lists others, else the clause, else (for a directive that needs a map or
 * motion clause) the whole directive line. */
int ompdp_rw_remove_item(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg,
                         uint32_t k, const char **why);

/* Maps item k with map type `type` (to, from, tofrom, alloc),
 * adding the `always` modifier when always is set and keeping the others:
 * the clause is rewritten when k is its only item, else k moves into a new
 * clause after it; an implicit item gets an explicit clause at the end of
 * the directive. */
int ompdp_rw_set_map_type(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg,
                          uint32_t k, ompdp_map_type_t type, int always,
                          const char **why);

/* One item's new map type (always as ompdp_rw_set_map_type takes it). */
typedef struct ompdp_rw_map_change {
  uint32_t item;
  ompdp_map_type_t type;
  int always;
} ompdp_rw_map_change_t;

/* Maps ch[0..n).item, explicit items of one clause, each with its new map
 * type: the clause is written once, its other items kept in it, one clause
 * after it for each new map type (with or without `always`). */
int ompdp_rw_set_map_types(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg,
                           const ompdp_rw_map_change_t *ch, size_t n, const char **why);

/* Whether explicit items a and b are in the same clause. */
int ompdp_rw_same_clause(const ompdp_region_info_t *a, const ompdp_region_info_t *b);

/* Passes items ks[0..nk), whole variables, as `firstprivate(...)`: an
 * implicit item (nk 1) gets the clause at the end of the directive; the
 * explicit ones, all of one clause, leave it for a `firstprivate` clause
 * in its place, after what remains of it. */
int ompdp_rw_firstprivate_items(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg,
                                const uint32_t *ks, size_t nk, const char **why);

/* Inserts `#pragma omp target data map(<types[0]>: <items[0]>) ...` on its
 * own line before the innermost loop around the constructs of items[0..n)
 * (one loop for all), with the loop's indentation. */
int ompdp_rw_keep_resident(ompdp_rewrite_t *rw, const ompdp_region_info_t *const *items,
                           const ompdp_map_type_t *types, size_t n, const char **why);

/* Inserts `#pragma omp target update <to|from>(expr)` on a line of its own
 * at the start of line `line`, indented to column `column` (1-based, at
 * most 512), in the file of `at`. */
int ompdp_rw_update_line(ompdp_rewrite_t *rw, const ompdp_region_info_t *at, uint32_t line,
                         uint32_t column, int to, const char *expr, const char **why);

/* For each host statement that uses `it` (its host_accesses): inserts
 * `#pragma omp target update from(<it>)` on a line of its own before it
 * when with_from is set, and `#pragma omp target update to(<it>)` after it
 * when it writes the item. */
int ompdp_rw_host_updates(ompdp_rewrite_t *rw, const ompdp_region_info_t *it, int with_from,
                          const char **why);

/*--- policy -----------------------------------------------------------------*/

/* What the run did to each buffer and each map item of each construct, as
 * far as the rewrites need it: aggregates only, so memory grows with the
 * number of buffers and constructs, not of events. Fed while the events
 * stream by (or from a saved array), in analysis order. The runtime's part
 * of the planner: it hands them on as the report's plan. */
typedef struct ompdp_rw_facts ompdp_rw_facts_t;

ompdp_rw_facts_t *ompdp_rw_facts_create(int host_device);
/* One complete event (the expanded view; times in any unit, the plan's
 * tick_mult converts them). Returns 0, or -1 when out of memory (the facts
 * then give no rewrites). */
int ompdp_rw_facts_feed(ompdp_rw_facts_t *f, const ompdp_event_t *e);
void ompdp_rw_facts_destroy(ompdp_rw_facts_t *f);

/* The planner's input for the findings of r, into *plan (report.h): the
 * sites the planner may read for them, their buffers, and the records of
 * the regions they name, copied through describe (the runtime's region
 * tables); with context (may be NULL), the call each site's construct ran
 * in, whose records are copied too; times convert as time * tick_mult >>
 * 32 (tick_mult 0: they are nanoseconds). Returns 0; 1 when the facts give
 * no rewrites (too many buffers to follow: *plan stays empty); -1 when out
 * of memory. */
int ompdp_rw_facts_to_plan(const ompdp_rw_facts_t *f, const ompdp_report_t *r,
                           ompdp_describe_fn describe, ompdp_context_fn context,
                           uint64_t tick_mult, ompdp_plan_t *plan);

/* Adds rewrites to every finding of r whose site (rt_region, item) its plan
 * describes and makes safe to rewrite (rules: docs/fixes.md), then drops
 * the plan. Findings it cannot rewrite keep their words-only suggestion; a
 * report without a plan is left as it is. Then every finding gets its
 * verdict (verdict.h), from the plan when there is one. Returns 0, or -1
 * when out of memory. */
int ompdp_rewrite_report(ompdp_report_t *r);

/* The same for events held in an array (analysis order, times in ns): the
 * facts, the plan, the rewrites. */
int ompdp_rewrite_report_events(ompdp_report_t *r, const ompdp_event_t *ev, size_t n,
                                int host_device, ompdp_describe_fn describe);

#endif /* OMPDP_REWRITE_H */
