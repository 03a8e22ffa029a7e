/*===- rewrite_safety.h - rewrites that cannot break a program ----*- C -*-===*\
|*
|* The checks a rewrite passes before the planner offers it, where the
|* planner alone cannot see that it is safe, and the words it leaves in a
|* finding when it offers none (docs/fixes.md, "A rewrite never breaks a
|* program"):
|*
|*   jumps       a `target data` region before a loop must not be left by a
|*               jump (`return`, `goto`, `throw`, ... in the loop: the
|*               region table's exit records). Where every jump is a
|*               statement that a directive can go before, the unstructured
|*               form is used: `target enter data` before the loop, `target
|*               exit data` after it and before each jump out;
|*   assumptions `tofrom` -> `from` only when the compiler proved that the
|*               region writes every element before reading any, or the run
|*               confirms it for a single value and contradicts it nowhere;
|*   advice      a finding the planner gives no rewrite says why: each
|*               refusal is recorded (ompdp_rw_advise), and the verdicts
|*               put it in the suggestion of an advice that ends without a
|*               rewrite (ompdp_finding_add_no_rewrite).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REWRITE_SAFETY_H
#define OMPDP_REWRITE_SAFETY_H

#include "region_view.h"
#include "report.h"
#include "strbuf.h"

#include <stddef.h>
#include <stdint.h>

/*--- jumps out of the loop a keep-resident rewrite wraps ------------------*/

/* How a rewrite may keep data on the device across the loop around `it`:
 * 0 with a `target data` region before it (nothing jumps out of the loop);
 * 1 with `target enter data` before it and `target exit data` after it and
 * before each jump out (every jump can get one); -1 not at all, with the
 * reason appended to why ("the loop at f.c:6 ..."). */
int ompdp_rw_loop_wrap(const ompdp_region_info_t *it, ompdp_strbuf_t *why);

/* The unstructured form for the items[0..n) of one loop, mapped with
 * types[i] ("to", "from", "tofrom", "alloc" as for `target data`): the
 * loop's keyword gets `#pragma omp target enter data` on a line before it
 * (and then prologue, lines of code that run once the data is allocated,
 * when not NULL), the line after the loop and each jump out get `#pragma
 * omp target exit data` (a jump that does not stand on lines of its own
 * becomes a block: `{`, the directive, the jump, `}`). Returns 0, or -1
 * with *why set. */
int ompdp_rw_keep_unstructured(ompdp_rewrite_t *rw, const ompdp_region_info_t *const *items,
                               const ompdp_map_type_t *types, size_t n, const char *prologue,
                               const char **why);

/* The words for that rewrite, appended to d: "`#pragma omp target enter
 * data map(...)` before it and `#pragma omp target exit data map(...)`
 * after it and before the `return` at line 11 ...". */
void ompdp_rw_describe_unstructured(ompdp_strbuf_t *d, const ompdp_region_info_t *const *items,
                                    const char *const *names, const ompdp_map_type_t *types,
                                    size_t n);

/*--- tofrom -> from --------------------------------------------------------*/

/* What the run saw of one site whose item is mapped tofrom (the planner's
 * facts): executions of the construct, copies back, and how many of them
 * were hashed and brought back the bytes the device had received. */
typedef struct ompdp_rw_from_run {
  uint64_t executions;   /* allocations of the item at the site */
  uint64_t d2h;          /* copies back */
  uint64_t d2h_same;     /* ... that returned what went in (hashed) */
  uint64_t d2h_unhashed; /* ... whose bytes (or the device's) are unknown */
  uint64_t alloc_bytes;  /* size of the item's buffer */
} ompdp_rw_from_run_t;

/* Whether `map(from: x)` may replace `map(tofrom: x)` for item it, which
 * the region table says the region only writes: 1 when the compiler proved
 * that the region writes every element before any read (OMPDP_IA_WRITES_ALL);
 * 2 when the run confirms it (a single scalar element, every copy back
 * hashed and different from what went in) and the assumption it rests on
 * is appended to assume; 0 when neither, with the words-only advice (the
 * assumption stated, and what in the run contradicts it) appended to why. */
int ompdp_rw_from_allowed(const ompdp_region_info_t *it, const char *name,
                          const ompdp_rw_from_run_t *run, ompdp_strbuf_t *assume,
                          ompdp_strbuf_t *why);

/*--- the compile, for `ompdp fix` to check its edits ------------------------*/

/* Adds to r the compile of the file of every finding's construct that has a
 * rewrite (the region table's CompileDir and CompileArgs), so that `ompdp
 * fix --apply` can recompile what it changes. describe is
 * ompdp_regions_describe or a test's. Returns 0, or -1 when out of memory. */
int ompdp_rw_compile_commands(ompdp_report_t *r, const ompdp_plan_t *plan);

/*--- advice ----------------------------------------------------------------*/

/* Records why the planner made no rewrite for f (f->no_rewrite; a reason
 * already there is not said twice). Nothing is shown yet: a later rule may
 * still rewrite the finding. The verdicts (verdict.c) say it in the words
 * of an advice that ends without a rewrite. Returns 0, or -1 when out of
 * memory. */
int ompdp_rw_advise(ompdp_finding_t *f, const char *why);

#endif /* OMPDP_REWRITE_SAFETY_H */
