/*===- rewrite_routine.c - moving omp_target_alloc/free out of a loop --*- C -*-===*\
|*
|* A loop that calls omp_target_alloc and omp_target_free for the same
|* pointer in every iteration, with the same size and device each time,
|* allocates the same memory again and again: the allocation goes before the
|* loop and the free after it (docs/fixes.md, "hoist_alloc"). The rewrite is
|* made only when the compiler and the run prove it keeps the program's
|* meaning:
|*   - both calls are whole statements directly in the braces of the loop's
|*     body, with lines of their own, the allocation first, the loop a
|*     statement with lines of its own (the moved lines go right before and
|*     after it);
|*   - neither call's arguments change in the loop (the pointer aside), and
|*     no other statement of the loop stores to the pointer or takes its
|*     address: every iteration's memory is the same allocation's;
|*   - no jump leaves the loop (the free after it would be skipped) and the
|*     run saw one size only.
|* A declaration (`double *d = omp_target_alloc(...)`) moves whole: the free
|* after the loop then still sees `d`. Otherwise the finding says why not.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"
#include "rewrite_safety.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* The omp_target_free site that frees what the allocation at `al` (region
 * records al) allocates: a free of the same variable in the same loop body,
 * after it. 0 when there is none; -1 with *why when there is one that
 * cannot move. */
static int find_free(const ompdp_rw_plan_t *c, const ompdp_region_info_t *al,
                     ompdp_region_info_t *fr, const ompdp_rw_site_t **site, const char **why) {
  const ompdp_plan_t *p = c->facts;
  for (size_t i = 0; i < p->num_sites; ++i) {
    const ompdp_rw_site_t *s = &p->sites[i];
    /* Its deletes are a site of item -1: it allocated nothing. */
    if (s->item > 0 || !s->deletes || ompdp_plan_describe(p, s->region, 0, fr) ||
        fr->construct != OMPDP_CK_TARGET_FREE || strcmp(fr->variable, al->variable) ||
        strcmp(fr->file, al->file) || fr->loop_line != al->loop_line ||
        fr->loop_column != al->loop_column)
      continue;
    *site = s;
    if (fr->block != al->block || !fr->in_loop_body || fr->block_index <= al->block_index) {
      *why = "the `omp_target_free` is not a statement of the loop's body after the "
             "allocation";
      return -1;
    }
    if (!fr->args_invariant) {
      *why = "the loop may change the device `omp_target_free` names";
      return -1;
    }
    if (!fr->stmt_own_lines || !fr->stmt_length || !fr->stmt_text[0]) {
      *why = "the `omp_target_free` shares its lines with other code";
      return -1;
    }
    return 1;
  }
  return 0;
}

/* Why the allocation at `al` cannot move before its loop, or NULL. */
static const char *alloc_unmovable(const ompdp_region_info_t *al, const ompdp_rw_site_t *s) {
  if (al->loop_kind == OMPDP_LK_NONE || !al->loop_line || !al->loop_column)
    return "the allocation is in no loop";
  if (!al->variable[0])
    return "the allocation's result is not assigned to a variable";
  if (!al->in_loop_body || !al->stmt_length || !al->stmt_text[0])
    return "the allocation is not a statement of the loop's body";
  if (!al->stmt_own_lines)
    return "the allocation shares its lines with other code";
  if (!al->args_invariant)
    return "the loop may change the size or the device of the allocation";
  if (al->access_flags & OMPDP_IA_BASE_STORED)
    return "the loop also stores to the pointer elsewhere (or its address is taken), so "
           "an iteration's memory may still be in use";
  if (al->num_exits)
    return "a jump leaves the loop, and the free after it would not run";
  if (!al->loop_own_lines || !al->loop_stmt_end_line)
    return "the loop shares its lines with other code";
  if (al->loop_column > 256 || al->stmt_column > 256)
    return "the code is indented too far";
  if (s->sizes_differ)
    return "the run saw allocations of different sizes";
  return NULL;
}

/* The edits: the allocation's and the free's statements leave the loop
 * (their whole lines), the first goes on a line before the loop, the second
 * on a line after it, indented as the loop is. */
static int hoist_edits(ompdp_rewrite_t *rw, const ompdp_region_info_t *al,
                       const ompdp_region_info_t *fr, const char **why) {
  char indent[257];
  memset(indent, ' ', al->loop_column - 1);
  indent[al->loop_column - 1] = '\0';
  ompdp_strbuf_t before = {0}, after = {0};
  ompdp_sb_printf(&before, "%s%s\n", indent, al->stmt_text);
  ompdp_sb_printf(&after, "%s%s\n", indent, fr->stmt_text);
  char *b = ompdp_sb_take(&before), *a = ompdp_sb_take(&after);
  int rc = -1;
  if (!b || !a)
    *why = OMPDP_RW_OOM;
  else
    rc = ompdp_rw_add_edit(rw, al, al->loop_line, 1, al->loop_line, 1, "", b, why) ||
                 ompdp_rw_add_edit(rw, al, al->stmt_line, 1, al->stmt_end_line + 1, 1,
                                   al->stmt_text, "", why) ||
                 ompdp_rw_add_edit(rw, fr, fr->stmt_line, 1, fr->stmt_end_line + 1, 1,
                                   fr->stmt_text, "", why) ||
                 ompdp_rw_add_edit(rw, al, al->loop_stmt_end_line + 1, 1,
                                   al->loop_stmt_end_line + 1, 1, "", a, why) ||
                 ompdp_rw_normalize_edits(rw)
             ? -1
             : 0;
  free(b);
  free(a);
  return rc;
}

/* One repeated allocation at an omp_target_alloc call: the rewrite, or the
 * reason there is none. 0 planned, -1 not, -2 out of memory. */
static int plan_hoist(const ompdp_rw_plan_t *c, ompdp_finding_t *f) {
  uint32_t si = ompdp_rw_site_find(c, f->rt_region, f->item);
  ompdp_region_info_t al, fr;
  if (!si || f->item != 0 || ompdp_plan_describe(c->facts, f->rt_region, 0, &al) ||
      al.construct != OMPDP_CK_TARGET_ALLOC)
    return -1;
  const ompdp_rw_site_t *s = &c->facts->sites[si - 1], *fs = NULL;
  const char *why = alloc_unmovable(&al, s);
  int found = why ? -1 : find_free(c, &al, &fr, &fs, &why);
  if (!found)
    why = "no `omp_target_free` of the same pointer in the loop was seen";
  if (why)
    return ompdp_rw_advise(f, why) ? -2 : -1;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_HOIST_ALLOC);
  if (!rw)
    return -2;
  int rc = hoist_edits(rw, &al, &fr, &why);
  uint64_t n = s->allocs > 1 ? s->allocs - 1 : 0;
  ompdp_strbuf_t d = {0};
  ompdp_sb_printf(&d,
                  "move `%s` before the loop at %s:%" PRIu32 " and `omp_target_free(...)` "
                  "at %s:%" PRIu32 " after it: one allocation instead of one per iteration",
                  al.directive, ompdp_rw_basename(al.file), al.loop_line,
                  ompdp_rw_basename(fr.file), fr.line);
  ompdp_strbuf_t a = {0};
  ompdp_sb_puts(&a, "the loop runs its body at least once or allocating once more is harmless, "
                    "and nothing relies on each iteration's memory being new");
  /* All but the first allocation, all but the last free. */
  ompdp_oc_t rm = {{0}};
  uint64_t dur_alloc = s->dur_alloc - s->dur_alloc_first;
  uint64_t dur_free = fs->dur_delete > fs->dur_delete_last ? fs->dur_delete - fs->dur_delete_last : 0;
  ompdp_oc_add(rm, OMPDP_OC_ALLOC, n, n * s->alloc_bytes, dur_alloc);
  ompdp_oc_add(rm, OMPDP_OC_DELETE, n, n * s->alloc_bytes, dur_free);
  int frc = ompdp_rw_finish(f, rc, 0, n, 0, ompdp_rw_to_ns(c, dur_alloc + dur_free), &d, &a);
  if (frc && rc && why && ompdp_rw_advise(f, why))
    return -2;
  return ompdp_rw_with_ops(c, f, frc, (const uint64_t(*)[3])rm, NULL);
}

int ompdp_rw_hoist_allocs(const ompdp_rw_plan_t *c, ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    const ompdp_detection_kind_t *k = ompdp_detection_kind(f->kind);
    if (!k || !(k->rewrites & 1u << OMPDP_RK_HOIST_ALLOC) || !f->call || f->num_rewrites ||
        !f->rt_region)
      continue;
    if (plan_hoist(c, f) == -2)
      return -1;
  }
  return 0;
}
