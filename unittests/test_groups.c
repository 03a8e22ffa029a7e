/*===- test_groups.c - what a group of findings saves together -----*- C -*-===*\
|*
|* ompdp_report_groups (report/timeline.c), behind the HTML page's group
|* headers: findings of one variable and construct are one group, and the
|* group saves the union of the avoidable operations of its findings that
|* save (fix, advice), as the run's total counts it:
|*   - two findings of the same operations save them once, not twice;
|*   - a finding whose verdict is no saving adds nothing;
|*   - a finding alone saves what it says, timeline or not;
|*   - where the timeline does not hold every operation of the findings,
|*     a range: at least the larger finding, at most the known union plus
|*     what the missing operations can add (never more than the sum);
|*   - other variables or locations are other groups.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "report.h"
#include "timeline.h"

#include <stdlib.h>
#include <string.h>

static ompdp_finding_t *add(ompdp_report_t *r, ompdp_finding_kind_t k, const char *var,
                            uint32_t line, uint64_t count, uint64_t saved, ompdp_verdict_t v) {
  ompdp_finding_t *f = ompdp_report_add_finding(r, k);
  f->variable = ompdp_strdup(var);
  f->loc.file = ompdp_strdup("a.c");
  f->loc.line = line;
  f->loc.column = 1;
  f->count = count;
  f->time_saved_ns = saved;
  f->verdict = v;
  f->timeline_id = (uint32_t)(r->num_findings - 1);
  return f;
}

/* An operation [start, start + dur) linked to the findings in ids (-1 ends). */
static void op(ompdp_timeline_t *t, uint64_t start, uint64_t dur, const int *ids) {
  ompdp_tl_op_t *o = &t->ops[t->num_ops];
  memset(o, 0, sizeof(*o));
  o->seq = t->num_ops++;
  o->type = OMPDP_TL_H2D;
  o->start_ns = start;
  o->dur_ns = dur;
  o->first_link = t->num_links;
  for (; *ids >= 0; ++ids)
    t->links[t->num_links++] = (ompdp_tl_link_t){(uint32_t)*ids, 0};
  o->num_links = t->num_links - o->first_link;
}

/* The group of finding position i. */
static const ompdp_finding_group_t *group_of(const ompdp_finding_group_t *g, size_t ng,
                                             const size_t *order, size_t i) {
  for (size_t k = 0; k < ng; ++k)
    for (size_t j = g[k].first; j < g[k].first + g[k].n; ++j)
      if (order[j] == i)
        return &g[k];
  return NULL;
}

int main(void) {
  ompdp_report_t r;
  ompdp_report_init(&r);
  /* x at line 5: a duplicate and a zero transfer of the same two copies,
   * and a necessary round trip of a third. */
  add(&r, OMPDP_FK_DUPLICATE_TRANSFER, "x", 5, 2, 100, OMPDP_V_ADVICE);
  add(&r, OMPDP_FK_ZERO_TRANSFER, "x", 5, 2, 100, OMPDP_V_FIX);
  add(&r, OMPDP_FK_ROUND_TRIP, "x", 5, 1, 50, OMPDP_V_NECESSARY);
  /* y at line 9: 3 allocations of which the timeline holds one, and an
   * unused allocation of its own. */
  add(&r, OMPDP_FK_REPEATED_ALLOC, "y", 9, 3, 60, OMPDP_V_ADVICE);
  add(&r, OMPDP_FK_UNUSED_ALLOC, "y", 9, 1, 30, OMPDP_V_ADVICE);
  /* x again, at another line: another group. */
  add(&r, OMPDP_FK_ROUND_TRIP, "x", 12, 1, 7, OMPDP_V_FIX);
  ompdp_timeline_t *t = calloc(1, sizeof(*t));
  t->ops = calloc(8, sizeof(*t->ops));
  t->links = calloc(16, sizeof(*t->links));
  op(t, 0, 50, (const int[]){0, 1, -1});
  op(t, 100, 50, (const int[]){0, 1, -1});
  op(t, 200, 50, (const int[]){2, -1});
  op(t, 300, 20, (const int[]){3, -1});
  op(t, 330, 30, (const int[]){4, -1});
  op(t, 400, 7, (const int[]){5, -1});
  r.timeline = t;

  ompdp_finding_group_t *g;
  size_t ng, *order;
  CHECK(ompdp_report_groups(&r, &g, &ng, &order) == 0);
  CHECK_EQ_U64(ng, 3);
  const ompdp_finding_group_t *gx = group_of(g, ng, order, 0), *gy = group_of(g, ng, order, 3),
                              *gz = group_of(g, ng, order, 5);
  CHECK(gx && gx == group_of(g, ng, order, 1) && gx == group_of(g, ng, order, 2) && gx->n == 3);
  CHECK(gx && gx->saved_ns == 100 && gx->saved_max_ns == 100);
  CHECK(gy && gy == group_of(g, ng, order, 4) && gy->n == 2);
  CHECK(gy && gy->saved_ns == 60 && gy->saved_max_ns == 90);
  CHECK(gz && gz != gx && gz->n == 1 && gz->saved_ns == 7 && gz->saved_max_ns == 7);
  /* Findings keep their report order within a group. */
  CHECK(gx && order[gx->first] == 0 && order[gx->first + 1] == 1 && order[gx->first + 2] == 2);
  free(g);
  free(order);

  /* The timeline holds every allocation of y: exact, the union. */
  r.findings[3].count = 1;
  r.findings[3].time_saved_ns = 20;
  CHECK(ompdp_report_groups(&r, &g, &ng, &order) == 0);
  gy = group_of(g, ng, order, 3);
  CHECK(gy && gy->saved_ns == 50 && gy->saved_max_ns == 50);
  free(g);
  free(order);

  /* No timeline: a finding alone is exact; several, a range from the
   * larger to their sum. */
  r.timeline = NULL;
  CHECK(ompdp_report_groups(&r, &g, &ng, &order) == 0);
  gx = group_of(g, ng, order, 0);
  gz = group_of(g, ng, order, 5);
  CHECK(gx && gx->saved_ns == 100 && gx->saved_max_ns == 200);
  CHECK(gz && gz->saved_ns == 7 && gz->saved_max_ns == 7);
  free(g);
  free(order);
  r.timeline = t;
  ompdp_report_free(&r);

  ompdp_report_init(&r);
  CHECK(ompdp_report_groups(&r, &g, &ng, &order) == 0 && ng == 0 && !g && !order);
  ompdp_report_free(&r);
  return CHECK_DONE();
}
