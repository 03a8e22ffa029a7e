/*===- rewrite_keep.c - keeping data resident ------------------------*- C -*-===*\
|*
|* The rule for duplicate transfers, round trips and repeated allocations
|* (OMPDP_RR_KEEP_RESIDENT in the table of detections): the item stays on
|* the device across the loop around its construct (one `target data` per
|* loop, for every item the loop's findings name), or across constructs in
|* a row of one block (`{` and `}` around them), when the facts show that
|* nothing in between can see the difference; what the host needs in
|* between comes back through `map(always, from:)` or `target update`s at
|* the host statements that use it, whichever moves less (docs/fixes.md).
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"
#include "rewrite_safety.h" /* jumps, advice */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The site index + 1 of a finding that keeping data resident fixes, or 0. */
static uint32_t keep_site(const ompdp_rw_plan_t *c, const ompdp_finding_t *f) {
  if (ompdp_rw_rule(f) != OMPDP_RR_KEEP_RESIDENT || !f->rt_region || f->item < 0)
    return 0;
  return ompdp_rw_site_find(c, f->rt_region, f->item);
}

/* Whether braces around statements first .. last of one block would be
 * split: a jump or a label between them (a `target data` block must not be
 * left or entered by one), or the two in different branches of a
 * preprocessor conditional (one brace compiled out without the other). 0,
 * or -1 with the reason, naming them as what ("constructs", "calls"). */
int ompdp_rw_row_split(const ompdp_region_info_t *first, const ompdp_region_info_t *last,
                       const char *what, ompdp_strbuf_t *why) {
  if (first->block_jumps != last->block_jumps) {
    ompdp_sb_printf(why,
                    "a jump (`return`, `goto`, `break`, `continue`, `throw`) or a label lies "
                    "between the %s at %s:%" PRIu32 " and %" PRIu32 ", and a `target data` "
                    "block around them must not be left or entered by one",
                    what, ompdp_rw_basename(first->file), first->line, last->line);
    return -1;
  }
  if (first->block_branch != last->block_branch) {
    ompdp_sb_printf(why,
                    "the %s at %s:%" PRIu32 " and %" PRIu32 " are in different branches of a "
                    "preprocessor conditional (`#if`, `#else`, `#endif`), which could compile "
                    "out one brace of a block around them without the other",
                    what, ompdp_rw_basename(first->file), first->line, last->line);
    return -1;
  }
  return 0;
}

/* Duplicate transfers, round trips and repeated allocations of an item of
 * a target (or target data) construct inside a loop: keep it on the device
 * across the loop. A plan says how, for one site; the plans of one loop
 * become one rewrite (one `target data` with a map per item). */
typedef struct keep_plan {
  uint32_t site;
  ompdp_rw_items_t ri; /* owned */
  const ompdp_region_info_t *it;
  ompdp_map_type_t outer;
  int inner_from;
  /* The target update variant: the host's statements in the loop that
   * use the item get `target update from` before (reads, when the device
   * changes it) and `target update to` after (writes). */
  int update;
  uint32_t num_from, num_to; /* updates inserted, per iteration (at most) */
  int lower_bound;           /* some run only under a condition */
  uint64_t transfers, allocs, bytes, time;
  ompdp_oc_t rm, add; /* by class, for the cost model */
  int dev;
  size_t group;
  /* Every copy in was zeros: the outer map allocates (alloc, or from for
   * tofrom) and fill_text (malloc'd), a fill on the device, runs once
   * before the loop instead of the first copy. */
  int fill;
  char *fill_text;
} keep_plan_t;

/* What the compiler says the host does with the item in the loop: the
 * number of statements that read (or write: a partial write needs the
 * device's values first) and that write it. 0 when each runs once per
 * iteration, 1 when some run at most once (under a condition, or in a body
 * that can leave the iteration after the construct): the counts are then
 * upper bounds. -1 when some use is not a statement a directive can go
 * around, or may run more than once per iteration, so that updates there
 * cannot be placed or counted. */
static int host_uses(const ompdp_region_info_t *it, uint32_t *uses, uint32_t *writes) {
  int bound = 0;
  *uses = *writes = 0;
  for (uint32_t k = 0; k < it->num_host_accesses; ++k) {
    const ompdp_host_access_t *a = &it->host_accesses[k];
    if (!(a->Flags & OMPDP_HA_STATEMENT) ||
        !(a->Flags & (OMPDP_HA_EVERY_TIME | OMPDP_HA_AT_MOST_ONCE)) || !a->Line || !a->Column ||
        a->Column > 512 || !a->EndLine)
      return -1;
    if (!(a->Flags & OMPDP_HA_EVERY_TIME))
      bound = 1;
    ++*uses;
    if (a->Access == OMPDP_ACCESS_WRITE || a->Access == OMPDP_ACCESS_READ_WRITE)
      ++*writes;
  }
  return bound;
}

/* A plan whose first copy in (the outer map's) would send zeros, as every
 * copy in of the run did: the outer map allocates instead and a fill on
 * the device writes the zeros once, before the loop (the unstructured
 * form: the fill runs after `target enter data`, which needs the loop on
 * lines of its own). Not where the item has no fill facts, host code
 * stores computed values into it (the zeros are this run's), the construct
 * other clauses a fill would have to follow, or the copies another size. */
static void consider_fill(const ompdp_rw_site_t *s, keep_plan_t *p) {
  const ompdp_region_info_t *it = p->it;
  if ((p->outer != OMPDP_MT_TO && p->outer != OMPDP_MT_TOFROM) || !s->h2d ||
      (it->fill_flags & OMPDP_FILL_HOST_VALUES) ||
      s->h2d_zero != s->h2d || !it->loop_own_lines || !it->loop_stmt_end_line ||
      it->loop_column < 1 || it->loop_column > 512 || !it->fill_elem_size ||
      s->alloc_bytes % it->fill_elem_size ||
      ((it->fill_flags & OMPDP_FILL_WHOLE) &&
       s->alloc_bytes != (uint64_t)it->fill_count * it->fill_elem_size))
    return;
  char dev[256];
  ompdp_strbuf_t b = {0};
  if (ompdp_rw_device_clause(it, dev, sizeof(dev)) ||
      ompdp_rw_put_fill(&b, it, it->loop_column - 1, dev) || !(p->fill_text = ompdp_sb_take(&b))) {
    free(b.d);
    return;
  }
  p->fill = 1;
  p->outer = p->outer == OMPDP_MT_TO ? OMPDP_MT_ALLOC : OMPDP_MT_FROM;
  /* The first copy in goes too. */
  p->transfers += 1;
  p->bytes += s->bytes_h2d_first;
  p->time += s->dur_h2d_first;
  if (p->update) {
    /* It was counted among the copies the update way adds. */
    p->add[OMPDP_OC_H2D][0] -= p->add[OMPDP_OC_H2D][0] ? 1 : 0;
    p->add[OMPDP_OC_H2D][1] -= p->add[OMPDP_OC_H2D][1] >= s->alloc_bytes ? s->alloc_bytes : 0;
    p->add[OMPDP_OC_H2D][2] -= p->add[OMPDP_OC_H2D][2] >= s->dur_h2d_first ? s->dur_h2d_first : 0;
  } else {
    ompdp_oc_add(p->rm, OMPDP_OC_H2D, 1, s->bytes_h2d_first, s->dur_h2d_first);
  }
}

/* 0 and a plan, or -1 when keeping the item resident is not safe or not
 * possible, with *why the reason (NULL where the words of the verdicts say
 * it better: a construct in no loop, which the rows of constructs and the
 * callers' advice cover; a `target update`). Two ways to keep the host's
 * view of the item: the construct copies it back every iteration
 * (`map(always, from: x)`), or the copies move to the host statements that
 * use it (`target update`); the one that moves less is taken. */
static int make_keep_plan(const ompdp_rw_plan_t *c, uint32_t si, keep_plan_t *p,
                          const char **why) {
  const ompdp_rw_site_t *s = &c->facts->sites[si];
  memset(p, 0, sizeof(*p));
  *why = NULL;
  if (s->item < 0 || !s->buf)
    return -1;
  /* One buffer, nobody else's operations on it in between, the same size
   * every time; said only of a construct the rewrite is for (a structured
   * one in a loop). */
  const char *early = NULL;
  if (s->multi_buf)
    early = "the construct mapped more than one host buffer here (the pointer is set anew), so "
            "no one buffer can stay on the device";
  else if (s->interleaved && s->outside)
    /* Others' operations inside its own allocations (knn's `target update
     * from`s in the body of its `target data`) find the data where they
     * did: only those between its executions tell against it. */
    early = "other constructs work on the same buffer between its executions";
  else if (s->sizes_differ)
    early = "the mapped section changes size between executions";
  else if (s->allocs < 2)
    early = "the construct allocated the item once only (it was present at the other "
            "executions), so a `target data` around the loop would remove no allocation or "
            "copy of it";
  else if (s->deletes != s->allocs)
    early = "the item stays mapped after some executions of the construct, so a `target data` "
            "around the loop would change how long it lives on the device";
  if (ompdp_rw_load_region(c, s->region, &p->ri))
    return -1;
  if ((uint32_t)s->item >= p->ri.reg.num_items)
    goto no;
  const ompdp_region_info_t *it = &p->ri.items[s->item];
  ompdp_map_type_t mt = it->map_type;
  if (it->loop_kind != OMPDP_LK_NONE && it->construct == OMPDP_CK_TARGET_ENTER_DATA &&
      s->allocs >= 2 && !s->multi_buf && !s->sizes_differ) {
    /* (Each allocation of the same buffer followed the last one's delete.
     * A `target update` has words of its own: verdict.c.) */
    *why = "the allocations come from a `target enter data` in the loop, each freed by a "
           "`target exit data` before the next: keeping the data across iterations means "
           "moving both out of the loop together, which ompdp does not do";
    goto no;
  }
  if (it->loop_kind == OMPDP_LK_NONE || !ompdp_rw_is_structured(it->construct))
    goto no;
  if (early) {
    *why = early;
    goto no;
  }
  if (it->nowait) {
    *why = "the construct is `nowait`, and a `target data` around the loop does not wait for "
           "its deferred tasks";
    goto no;
  }
  if (!ompdp_rw_has_to(mt) && !ompdp_rw_has_from(mt) && mt != OMPDP_MT_ALLOC) {
    *why = "the item's map type is not one a `target data` around the loop can take over";
    goto no;
  }
  if (it->modifiers & OMPDP_MOD_ALWAYS) {
    /* always copies even when present: keeping it resident saves nothing */
    *why = "the map has `always`, which copies even when the data is present, so keeping it "
           "resident would save nothing";
    goto no;
  }
  /* The host points the item at a buffer in the loop (malloc's new one
   * may sit where the freed one was): a `target data` before the loop
   * would map the pointer's value from before. */
  if (it->access_flags & OMPDP_IA_BASE_STORED) {
    *why = "the code around the construct points the item at another buffer, so a `target "
           "data` before it would map the wrong one";
    goto no;
  }
  if (it->access_flags & OMPDP_IA_LOOP_DECLARED) {
    *why = LOOP_DECLARED_WHY;
    goto no;
  }
  /* A `to` item the region writes: each iteration starts from the host's
   * copy today, and would start from the previous iteration's writes. The
   * run cannot see such writes; the compiler's read/write facts can. */
  if (ompdp_rw_has_to(mt) && !ompdp_rw_has_from(mt) &&
      (it->access == OMPDP_ACCESS_WRITE || it->access == OMPDP_ACCESS_READ_WRITE)) {
    *why = "the region writes this `to` item, so each execution must start from the host's "
           "copy";
    goto no;
  }
  int dev_changes = ompdp_rw_device_changes(s, it);
  uint64_t k = s->allocs; /* executions of the construct: iterations */
  uint64_t before = s->h2d + s->d2h;
  uint64_t in_first = ompdp_rw_has_to(mt) ? 1 : 0;
  /* The `always, from` way: the host's copies in must all have carried
   * what the device had (else the host changed it in between). */
  int always_ok = !s->host_changed && s->h2d >= in_first;
  uint64_t always_after = in_first + (dev_changes ? s->d2h : 0);
  /* The update way: every host use known, placeable and run at most once
   * per iteration (the updates are counted as if each ran every time, so
   * the saving is then a lower bound); a host that changed the data must
   * have a write the compiler saw (else it wrote through something the
   * facts miss). */
  uint32_t uses = 0, writes = 0;
  int bound = host_uses(it, &uses, &writes);
  int update_ok = bound >= 0 && (!s->host_changed || writes) && s->h2d >= in_first &&
                  (!dev_changes || s->d2h >= 1);
  uint32_t num_from = dev_changes ? uses : 0, num_to = writes;
  /* A `from` item the host uses in the loop: the outer map must bring the
   * host's values in first (a `target update from` before the first
   * kernel would fetch uninitialised device memory otherwise). */
  uint64_t up_in = in_first || num_from ? 1 : 0;
  uint64_t update_after = up_in + (dev_changes ? 1 : 0) + k * (num_from + num_to);
  /* With updates under a condition, how often they run is not known: the
   * update way is taken when even if they ran every time it would move no
   * more than the program does now (the saving is then a lower bound);
   * a copy back in every iteration would move more whenever the condition
   * fails more than once. */
  if (update_ok && update_after <= before &&
      (!always_ok || update_after < always_after || bound == 1)) {
    p->update = 1;
    p->num_from = num_from;
    p->num_to = num_to;
    p->lower_bound = bound == 1 && num_from + num_to > 0;
  } else if (!always_ok) {
    if (s->host_changed && !writes)
      *why = "the host changed the item's bytes between executions, and the compiler saw no "
             "host write in the loop after which a `target update to` could send them";
    else if (bound < 0)
      *why = "the host uses the item in the loop where a `target update` cannot be placed (not "
             "a statement of its own, or one that may run more than once per iteration), and "
             "the host changes it, so it cannot simply stay on the device";
    else if (update_ok)
      *why = "the host uses the item in the loop every iteration, and the `target update`s "
             "its uses need would move as much as the construct moves now";
    else
      *why = "the device changes the item and the host changes it too between executions, "
             "so neither one copy back per iteration nor updates at the host's uses keep both "
             "views right";
    goto no;
  }
  p->site = si;
  p->it = it;
  p->dev = c->facts->bufs[s->buf - 1].device;
  p->allocs = s->allocs - 1;
  p->time = (s->dur_alloc - s->dur_alloc_first) + (s->dur_delete - s->dur_delete_last);
  ompdp_rw_oc_site_allocs(p->rm, s, s->allocs - 1, 0);
  if (p->update) {
    p->outer = up_in ? (dev_changes ? OMPDP_MT_TOFROM : OMPDP_MT_TO)
                     : (dev_changes ? OMPDP_MT_FROM : OMPDP_MT_ALLOC);
    uint64_t moved = k * (num_from + num_to);
    uint64_t avg_h2d = s->h2d ? s->dur_h2d / s->h2d : 0;
    uint64_t avg_d2h = s->d2h ? s->dur_d2h / s->d2h : 0;
    uint64_t size = s->alloc_bytes;
    uint64_t bytes_before = s->bytes_h2d + s->bytes_d2h;
    uint64_t bytes_after =
        (up_in ? size : 0) + (dev_changes ? s->bytes_d2h / s->d2h : 0) + moved * size;
    uint64_t t_before = s->dur_h2d + s->dur_d2h;
    uint64_t t_after = (up_in ? (in_first ? s->dur_h2d_first : avg_d2h) : 0) +
                       (dev_changes ? avg_d2h : 0) + k * (num_from * avg_d2h + num_to * avg_h2d);
    p->transfers = before - update_after;
    p->bytes = bytes_before > bytes_after ? bytes_before - bytes_after : 0;
    p->time += t_before > t_after ? t_before - t_after : 0;
    /* Every copy of the construct goes; the copies in at the start, back at
     * the end and the updates come instead, with the times t_after gives. */
    ompdp_oc_add(p->rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
    ompdp_oc_add(p->rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
    uint64_t in = (up_in ? 1 : 0) + k * num_to, back = (dev_changes ? 1 : 0) + k * num_from;
    ompdp_oc_add(p->add, OMPDP_OC_H2D, in, in * size,
                 (up_in ? (in_first ? s->dur_h2d_first : avg_d2h) : 0) + k * num_to * avg_h2d);
    ompdp_oc_add(p->add, OMPDP_OC_D2H, back, back * size, back * avg_d2h);
    consider_fill(s, p);
    return 0;
  }
  p->inner_from = dev_changes;
  p->outer = ompdp_rw_has_to(mt) ? OMPDP_MT_TO : OMPDP_MT_ALLOC;
  if (s->h2d > 1) {
    p->transfers += s->h2d - 1;
    p->bytes += s->bytes_h2d - s->bytes_h2d_first;
    p->time += s->dur_h2d - s->dur_h2d_first;
    ompdp_oc_add(p->rm, OMPDP_OC_H2D, s->h2d - 1, s->bytes_h2d - s->bytes_h2d_first,
                 s->dur_h2d - s->dur_h2d_first);
  }
  if (!p->inner_from) {
    p->transfers += s->d2h;
    p->bytes += s->bytes_d2h;
    p->time += s->dur_d2h;
    ompdp_oc_add(p->rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
  }
  consider_fill(s, p);
  return 0;
no:
  free(p->ri.items);
  p->ri.items = NULL;
  return -1;
}

static const char *plan_name(const keep_plan_t *p) {
  return p->it->implicit ? p->it->variable : p->it->expr;
}

/* One rewrite for the plans ps[0..n) of one loop, into rw (zeroed).
 * Returns 0, or -1 (rw then holds whatever was built: free it), with the
 * reason in advice when the loop cannot be wrapped at all (a jump out). */
static int build_keep(const ompdp_rw_plan_t *c, ompdp_rewrite_t *rw, keep_plan_t *const *ps,
                      size_t n, ompdp_strbuf_t *advice) {
  const ompdp_region_info_t *items[64];
  ompdp_map_type_t types[64];
  const char *why = NULL;
  if (n > 64)
    return -1;
  uint64_t transfers = 0, allocs = 0, bytes = 0, time = 0;
  ompdp_oc_t rm = {{0}}, add = {{0}};
  for (size_t i = 0; i < n; ++i) {
    ompdp_oc_merge(rm, (const uint64_t(*)[3])ps[i]->rm);
    ompdp_oc_merge(add, (const uint64_t(*)[3])ps[i]->add);
    items[i] = ps[i]->it;
    types[i] = ps[i]->outer;
    transfers += ps[i]->transfers;
    allocs += ps[i]->allocs;
    bytes += ps[i]->bytes;
    time += ps[i]->time;
    rw->lower_bound |= ps[i]->lower_bound;
  }
  rw->kind = OMPDP_RK_KEEP_RESIDENT;
  /* A jump out of the loop: enter/exit data on every path out, or none. */
  int wrap = ompdp_rw_loop_wrap(items[0], advice);
  if (wrap < 0)
    return -1;
  /* Fills run once the data is allocated, before the loop: only the
   * unstructured form has a place for them. */
  ompdp_strbuf_t prologue = {0};
  for (size_t i = 0; i < n; ++i)
    if (ps[i]->fill)
      ompdp_sb_puts(&prologue, ps[i]->fill_text);
  if (prologue.len)
    wrap = 1;
  if (prologue.oom) {
    free(prologue.d);
    return -1;
  }
  int rc = wrap ? ompdp_rw_keep_unstructured(rw, items, types, n, prologue.d, &why)
                : ompdp_rw_keep_resident(rw, items, types, n, &why);
  free(prologue.d);
  for (size_t i = 0; i < n && !rc; ++i)
    if (ps[i]->inner_from)
      rc = ompdp_rw_set_map_type(rw, &ps[i]->ri.reg, (uint32_t)c->facts->sites[ps[i]->site].item,
                                 OMPDP_MT_FROM, 1, &why);
    else if (ps[i]->update)
      rc = ompdp_rw_host_updates(rw, ps[i]->it, ps[i]->num_from != 0, &why);
  if (rc || ompdp_rw_normalize_edits(rw)) {
    if (rc && why) /* (the reason each of its findings gives) */
      ompdp_sb_puts(advice, why);
    return -1;
  }

  const ompdp_region_info_t *it = ps[0]->it;
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_puts(&d, "keep ");
  for (size_t i = 0; i < n; ++i)
    ompdp_sb_printf(&d, "%s`%s`", i == 0 ? "" : i + 1 == n ? " and " : ", ", plan_name(ps[i]));
  ompdp_sb_printf(&d, " on device %d for the whole %s loop at %s:%" PRIu32 ": ", ps[0]->dev,
                  ompdp_loop_kind_name(it->loop_kind), ompdp_rw_basename(it->file),
                  it->loop_line);
  if (wrap) {
    const char *names[64];
    for (size_t i = 0; i < n; ++i)
      names[i] = plan_name(ps[i]);
    ompdp_rw_describe_unstructured(&d, items, names, types, n);
  } else {
    ompdp_sb_puts(&d, "`#pragma omp target data");
    for (size_t i = 0; i < n; ++i)
      ompdp_sb_printf(&d, " map(%s: %s)", ompdp_map_type_name(ps[i]->outer), plan_name(ps[i]));
    ompdp_sb_puts(&d, "` before it");
  }
  for (size_t i = 0; i < n; ++i)
    if (ps[i]->fill)
      ompdp_sb_printf(&d,
                      "; every copy in of `%s` was zeros: it is allocated and filled with zeros on "
                      "the device once, before the loop, instead",
                      plan_name(ps[i]));
  for (size_t i = 0; i < n; ++i) {
    const keep_plan_t *p = ps[i];
    if (p->inner_from)
      ompdp_sb_printf(&d,
                      "; the %s construct at line %" PRIu32 " copies `%s` back with "
                      "`map(always, from: %s)`",
                      ompdp_construct_kind_name(p->it->construct), p->it->line, plan_name(p),
                      plan_name(p));
    else if (p->update) {
      const ompdp_region_info_t *x = p->it;
      int any = 0;
      for (uint32_t k = 0; k < x->num_host_accesses; ++k) {
        const ompdp_host_access_t *h = &x->host_accesses[k];
        int w = h->Access == OMPDP_ACCESS_WRITE || h->Access == OMPDP_ACCESS_READ_WRITE;
        if (p->num_from)
          ompdp_sb_printf(&d, "%s`target update from(%s)` before line %" PRIu32,
                          any++ ? ", " : "; ", plan_name(p), h->Line);
        if (w)
          ompdp_sb_printf(&d, "%s`target update to(%s)` after line %" PRIu32, any++ ? ", " : "; ",
                          plan_name(p), h->EndLine);
      }
      if (!x->num_host_accesses)
        ompdp_sb_printf(&d, "; no host code in the loop uses `%s`%s", plan_name(p),
                        ompdp_rw_has_from(p->outer) ? ", so it comes back once, after the loop"
                                                    : "");
      else if (ompdp_rw_has_from(p->outer))
        ompdp_sb_printf(&d, "; it comes back once more after the loop");
      ompdp_sb_printf(&a,
                      "%sno host code in the loop reaches `%s` through another pointer (the "
                      "compiler follows the uses of `%s` itself)",
                      a.len ? "; " : "", x->variable, x->variable);
    } else if (ompdp_rw_has_from(p->it->map_type))
      ompdp_sb_printf(&d, "; the device never changed `%s`, so nothing needs to come back",
                      plan_name(p));
    if (ompdp_rw_has_to(p->it->map_type) && !ompdp_rw_has_from(p->it->map_type) &&
        p->it->access == OMPDP_ACCESS_UNKNOWN)
      ompdp_sb_printf(&a,
                      "%sthe region does not write `%s` (the run cannot see writes to a `to` item; "
                      "with them, one iteration would see the previous one's values)",
                      a.len ? "; " : "", p->it->variable);
    if (strcmp(plan_name(p), p->it->variable))
      ompdp_sb_printf(&a, "%sthe names in `%s` mean the same before the loop", a.len ? "; " : "",
                      plan_name(p));
  }
  rw->transfers_removed = transfers;
  rw->allocs_removed = allocs;
  rw->bytes_removed = bytes;
  rw->time_saved_ns = ompdp_rw_to_ns(c, time);
  ompdp_oc_to_ops((const uint64_t(*)[3])rm, c->mult, &rw->ops);
  ompdp_oc_to_ops((const uint64_t(*)[3])add, c->mult, &rw->ops_added);
  rw->description = ompdp_sb_take(&d);
  rw->assumption = a.len ? ompdp_sb_take(&a) : (free(a.d), NULL);
  return rw->description && (!a.oom) ? 0 : -1;
}

/* A plan of a `tofrom` item that the region only reads and whose copies
 * back the device never changed: kept, the construct's copies back go
 * (the overbroad map's narrowing to `to` would remove only those). */
static int read_only_tofrom(const keep_plan_t *p) {
  return p->it->map_type == OMPDP_MT_TOFROM && p->it->access == OMPDP_ACCESS_READ &&
         !p->inner_from && !ompdp_rw_has_from(p->outer);
}

/* Whether plan a's item comes before b's in the source: by construct,
 * then by item. */
static int plan_before(const ompdp_rw_plan_t *c, const keep_plan_t *a, const keep_plan_t *b) {
  if (a->it->line != b->it->line)
    return a->it->line < b->it->line;
  if (a->it->column != b->it->column)
    return a->it->column < b->it->column;
  return c->facts->sites[a->site].item < c->facts->sites[b->site].item;
}

/* The keep-resident rewrites of the whole report: plans per site, grouped
 * by loop, each group's rewrite copied to every finding it fixes. When a
 * group's edits cannot be combined, each plan gets a rewrite of its own. */
int ompdp_rw_keep_resident_all(const ompdp_rw_plan_t *c, ompdp_report_t *r, size_t *removed,
                               int fills) {
  const ompdp_plan_t *facts = c->facts;
  int rc = -1;
  int *plan_of = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(int)); /* +1, -1: none */
  keep_plan_t *plans = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(*plans));
  size_t np = 0, ng = 0;
  ompdp_rewrite_t *groups = NULL;
  int *group_ok = NULL, *group_fill = NULL;
  if (!plan_of || !plans)
    goto out;
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = keep_site(c, f);
    if (!si || plan_of[si - 1] || removed[si - 1])
      continue;
    const char *why = NULL;
    if (make_keep_plan(c, si - 1, &plans[np], &why) == 0) {
      plan_of[si - 1] = (int)++np;
      continue;
    }
    plan_of[si - 1] = -1;
    /* Every finding of the site says why (the verdicts show it where no
     * other rule rewrites it). */
    for (size_t j = i; j < r->num_findings && why; ++j)
      if (keep_site(c, &r->findings[j]) == si && ompdp_rw_advise(&r->findings[j], why))
        goto out;
  }
  /* A site another rule rewrites (its clause changed, the item removed) is
   * not also kept resident: its findings without a rewrite say so. */
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = keep_site(c, f);
    if (!si || !removed[si - 1] || f->num_rewrites)
      continue;
    if (ompdp_rw_advise_claimed(f, &r->findings[removed[si - 1] - 1],
                                "keeping the item resident as well"))
      goto out;
  }
  /* Group by loop. */
  for (size_t i = 0; i < np; ++i) {
    plans[i].group = ng;
    for (size_t j = 0; j < i; ++j)
      if (plans[j].it->loop_line == plans[i].it->loop_line &&
          plans[j].it->loop_column == plans[i].it->loop_column &&
          !strcmp(plans[j].it->file, plans[i].it->file)) {
        plans[i].group = plans[j].group;
        break;
      }
    if (plans[i].group == ng)
      ++ng;
  }
  groups = calloc(ng ? ng : 1, sizeof(*groups));
  group_ok = calloc(ng ? ng : 1, sizeof(*group_ok));
  group_fill = calloc(ng ? ng : 1, sizeof(*group_fill));
  if (!groups || !group_ok || !group_fill)
    goto out;
  /* Groups that come first, before the rules that would take a site of
   * theirs for a smaller saving: a zero-filled copy in (its fill would go
   * in the loop), or a `tofrom` item the region only reads and the device
   * never changed (`map(to:)` would remove only its copies back, which
   * keeping it removes too). */
  for (size_t i = 0; i < np; ++i)
    group_fill[plans[i].group] |= plans[i].fill || read_only_tofrom(&plans[i]);
  keep_plan_t *members[64];
  for (size_t g = 0; g < ng; ++g) {
    if (fills && !group_fill[g])
      continue; /* the later pass's, after the other rules */
    size_t n = 0;
    for (size_t i = 0; i < np && n < 64; ++i)
      if (plans[i].group == g)
        members[n++] = &plans[i];
    /* In source order, so that the rewrite reads the same in every run
     * (the findings come in the order of their savings, which vary). */
    for (size_t i = 1; i < n; ++i)
      for (size_t j = i; j > 0 && plan_before(c, members[j], members[j - 1]); --j) {
        keep_plan_t *t = members[j];
        members[j] = members[j - 1];
        members[j - 1] = t;
      }
    ompdp_strbuf_t ignored = {0}; /* each plan says it again below */
    group_ok[g] = build_keep(c, &groups[g], members, n, &ignored) == 0;
    free(ignored.d);
    if (!group_ok[g])
      ompdp_rewrite_free(&groups[g]);
  }
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = keep_site(c, f);
    /* A zero-filled copy in that a fill before the loop replaces; copies
     * back of a read-only item that keeping it removes. */
    ompdp_rewrite_rule_t rule = ompdp_rw_rule(f);
    if (!si && (rule == OMPDP_RR_ALLOC_AND_FILL || rule == OMPDP_RR_NARROW_MAP) &&
        f->rt_region && f->item >= 0 && !f->num_rewrites) {
      uint32_t z = ompdp_rw_site_find(c, f->rt_region, f->item);
      const keep_plan_t *zp = z && plan_of[z - 1] > 0 ? &plans[plan_of[z - 1] - 1] : NULL;
      if (zp && (rule == OMPDP_RR_ALLOC_AND_FILL ? zp->fill : read_only_tofrom(zp)))
        si = z;
    }
    if (!si || plan_of[si - 1] <= 0 || f->num_rewrites)
      continue;
    keep_plan_t *p = &plans[plan_of[si - 1] - 1];
    if (fills && !group_fill[p->group])
      continue;
    ompdp_rewrite_t own = {0};
    const ompdp_rewrite_t *src = &groups[p->group];
    if (!group_ok[p->group]) {
      keep_plan_t *one = p;
      ompdp_strbuf_t advice = {0};
      if (build_keep(c, &own, &one, 1, &advice)) {
        ompdp_rewrite_free(&own);
        int bad = advice.oom || (advice.len && ompdp_rw_advise(f, advice.d));
        free(advice.d);
        if (bad)
          goto out;
        continue;
      }
      free(advice.d);
      src = &own;
    }
    ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_KEEP_RESIDENT);
    int bad = !rw || ompdp_rewrite_copy(rw, src);
    ompdp_rewrite_free(&own);
    if (bad)
      goto out;
    /* Rewritten now: the other rules leave the site alone. */
    if (fills && !removed[si - 1])
      removed[si - 1] = i + 1;
  }
  rc = 0;
out:
  for (size_t i = 0; plans && i < np; ++i) {
    free(plans[i].ri.items);
    free(plans[i].fill_text);
  }
  for (size_t g = 0; groups && g < ng; ++g)
    ompdp_rewrite_free(&groups[g]);
  free(groups);
  free(group_ok);
  free(group_fill);
  free(plans);
  free(plan_of);
  return rc;
}

/* Constructs in a row, not in a loop (the paper's Listing 1): the map items
 * of one variable in sibling constructs of one block, each allocating,
 * copying and freeing the same buffer, become one `target data` around
 * them (`{` before the first, `}` after the last), when nothing between
 * them can see the difference: host code in between does not use the item
 * (the compiler's host-access facts), or, for an item only sent (`to`),
 * only reads it, which the host's own copy still answers, or, for an item
 * every construct copies back (`from`, `tofrom`: compute, check, compute
 * again, check), only reads it in statements a `target update from` can
 * go before, which then brings what the construct before copied back; no
 * declaration,
 * label or jump lies in between (the braces would change their meaning);
 * the device does not write a `to` item (the compiler's access facts,
 * followed into the functions the constructs call); and the run shows that
 * every copy in after the first carried what the device already had.
 * Several variables kept across the same constructs share one `target
 * data`, with a map clause each. */
#define MAX_ROW 16
#define MAX_ROW_ITEMS 8

static const char *item_name(const ompdp_region_info_t *it) {
  return it->implicit ? it->variable : it->expr;
}

/* One variable's row, checked (check_row), before its text is written. */
typedef struct row {
  ompdp_rw_items_t first_ri; /* owned: the first construct's records */
  const ompdp_region_info_t *first;
  uint32_t open_line, close_line, column, lines[MAX_ROW];
  size_t n;
  int to, from, host_reads, dev;
  /* Statements between the constructs that read an item every construct
   * copies back: a `target update from` goes before each (line, column). */
  uint32_t upd_line[MAX_ROW], upd_column[MAX_ROW], upd_offset[MAX_ROW];
  size_t nupd;
  char *expr, *variable;
  uint64_t m, size, before, bytes_before, dur_before, ops;
  ompdp_oc_t rm;
} row_t;

static void row_free(row_t *w) {
  free(w->first_ri.items);
  free(w->expr);
  free(w->variable);
  memset(w, 0, sizeof(*w));
}

static const char *row_type(const row_t *w) {
  return ompdp_map_type_name(w->to && w->from ? OMPDP_MT_TOFROM
                             : w->to          ? OMPDP_MT_TO
                             : w->from        ? OMPDP_MT_FROM
                                              : OMPDP_MT_ALLOC);
}

/* 0 and the row in *w, or -1: the sites sis[0..n) of one buffer (with the
 * reason in advice when only a jump between them stands in the way). */
static int check_row(const ompdp_rw_plan_t *c, const uint32_t *sis, size_t n, row_t *w,
                     ompdp_strbuf_t *advice) {
  const ompdp_plan_t *facts = c->facts;
  ompdp_rw_items_t ri[MAX_ROW];
  const ompdp_region_info_t *its[MAX_ROW];
  uint32_t order[MAX_ROW];
  size_t loaded = 0;
  int rc = -1;
  memset(w, 0, sizeof(*w));
  if (n < 2 || n > MAX_ROW)
    return -1;
  for (; loaded < n; ++loaded) {
    const ompdp_rw_site_t *s = &facts->sites[sis[loaded]];
    if (s->item < 0 || ompdp_rw_load_region(c, s->region, &ri[loaded]))
      goto out;
    if ((uint32_t)s->item >= ri[loaded].reg.num_items) {
      ++loaded;
      goto out;
    }
    its[loaded] = &ri[loaded].items[s->item];
    order[loaded] = (uint32_t)loaded;
  }
  /* Source order. */
  for (size_t i = 1; i < n; ++i)
    for (size_t j = i; j > 0 && its[order[j - 1]]->stmt_offset > its[order[j]]->stmt_offset; --j) {
      uint32_t t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  const ompdp_region_info_t *first = its[order[0]], *last = its[order[n - 1]];
  const ompdp_rw_site_t *s0 = &facts->sites[sis[order[0]]];
  int all_from = 1;
  for (size_t i = 0; i < n; ++i)
    all_from &= ompdp_rw_has_from(its[i]->map_type);
  /* need_update[c]: host code within the c-th construct (source order)
   * reads what the construct before it copied back. */
  char need_update[MAX_ROW] = {0};
  for (size_t i = 0; i < n; ++i) {
    const ompdp_rw_site_t *s = &facts->sites[sis[order[i]]];
    const ompdp_region_info_t *it = its[order[i]];
    ompdp_map_type_t mt = it->map_type;
    if (s->multi_buf || s->sizes_differ || !s->allocs || s->allocs != s->deletes ||
        s->allocs != s0->allocs || s->buf != s0->buf || (i && s->in_changed) ||
        it->loop_kind != OMPDP_LK_NONE || !it->block || it->block != first->block ||
        strcmp(it->file, first->file) || strcmp(it->source_file, first->source_file) ||
        !ompdp_rw_is_structured(it->construct) || it->nowait ||
        (it->modifiers & OMPDP_MOD_ALWAYS) || (it->access_flags & OMPDP_IA_BASE_STORED) ||
        !it->stmt_line || !it->stmt_length ||
        strcmp(item_name(it), item_name(first)) ||
        (!ompdp_rw_has_to(mt) && !ompdp_rw_has_from(mt) && mt != OMPDP_MT_ALLOC))
      goto out;
    if (i && it->stmt_offset < its[order[i - 1]]->stmt_offset + its[order[i - 1]]->stmt_length)
      goto out; /* the same construct twice, or nested */
    /* A `to` item the device writes: the next construct would start from
     * the host's copy today, from the device's writes then. */
    int only_to = ompdp_rw_has_to(mt) && !ompdp_rw_has_from(mt);
    if (only_to &&
        (it->access == OMPDP_ACCESS_WRITE || it->access == OMPDP_ACCESS_READ_WRITE))
      goto out;
    /* Host code in the block that uses the item lies outside the row, or,
     * for an item only sent, only reads it there. */
    for (uint32_t k = 0; k < it->num_host_accesses; ++k) {
      const ompdp_host_access_t *a = &it->host_accesses[k];
      if (a->Length && !(a->Offset < last->stmt_offset + last->stmt_length &&
                         a->Offset + a->Length > first->stmt_offset))
        continue;
      if (!a->Length || a->Access != OMPDP_ACCESS_READ)
        goto out;
      if (only_to) {
        w->host_reads = 1;
        continue;
      }
      if (!all_from)
        goto out;
      /* Within another construct of the row (its clauses, or host code
       * of a `target data` body): in the first, the host's copy is as it
       * was; in a later one, it must be what the construct before it
       * computed, which an update between them brings (checked below). */
      size_t in_c = n;
      for (size_t c = 0; c < n && in_c == n; ++c)
        if (its[order[c]]->stmt_offset <= a->Offset &&
            a->Offset + a->Length <= its[order[c]]->stmt_offset + its[order[c]]->stmt_length)
          in_c = c;
      if (in_c < n) {
        if (in_c)
          need_update[in_c] = 1;
        continue;
      }
      /* A read of what every construct copies back: an update before it
       * (once per statement: each construct's records name it). */
      if (!(a->Flags & OMPDP_HA_STATEMENT) || !a->Line || !a->Column || a->Column > 512)
        goto out;
      size_t u = 0;
      while (u < w->nupd && w->upd_offset[u] != a->Offset)
        ++u;
      if (u == w->nupd) {
        if (w->nupd == MAX_ROW)
          goto out;
        w->upd_line[w->nupd] = a->Line;
        w->upd_column[w->nupd] = a->Column;
        w->upd_offset[w->nupd++] = a->Offset;
      }
    }
    w->to |= ompdp_rw_has_to(mt);
    w->from |= ompdp_rw_device_changes(s, it);
    w->before += s->h2d + s->d2h;
    w->bytes_before += s->bytes_h2d + s->bytes_d2h;
    w->dur_before += s->dur_h2d + s->dur_d2h + s->dur_alloc + s->dur_delete;
    w->ops += s->h2d + s->d2h + s->allocs + s->deletes;
    ompdp_oc_add(w->rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
    ompdp_oc_add(w->rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
    ompdp_rw_oc_site_allocs(w->rm, s, s->allocs, 1);
    w->lines[i] = it->line;
  }
  /* Host reads in between need the host's copy as it was: no copy back. */
  if (w->host_reads && w->from)
    goto out;
  /* Reads within a later construct see its predecessor's result only if
   * an update lies between the two. */
  for (size_t c = 1; c < n; ++c) {
    if (!need_update[c])
      continue;
    uint32_t lo = its[order[c - 1]]->stmt_offset + its[order[c - 1]]->stmt_length,
             hi = its[order[c]]->stmt_offset;
    size_t u = 0;
    while (u < w->nupd && !(w->upd_offset[u] >= lo && w->upd_offset[u] < hi))
      ++u;
    if (u == w->nupd)
      goto out;
  }
  if (ompdp_rw_row_split(first, last, "constructs", advice))
    goto out;
  if (first->block_decls != last->block_decls || !last->stmt_own_lines ||
      !last->stmt_end_line || first->stmt_column > 512)
    goto out;
  w->m = s0->allocs; /* executions of the row */
  /* The updates copy back what the constructs did: the item comes back. */
  if (w->nupd)
    w->from = 1;
  if (w->m * (uint64_t)(w->to + w->from + w->nupd) > w->before)
    goto out;
  const char *expr = item_name(first);
  if (!expr[0] || (first->implicit && !ompdp_rw_is_identifier(expr)))
    goto out;
  w->expr = ompdp_strdup(expr);
  w->variable = ompdp_strdup(first->variable);
  if (!w->expr || !w->variable)
    goto out;
  w->size = s0->alloc_bytes;
  w->dev = facts->bufs[s0->buf - 1].device;
  w->n = n;
  w->open_line = first->stmt_line;
  w->close_line = last->stmt_end_line;
  w->column = first->stmt_column;
  /* Keep the first construct's records: its file names the edits. */
  w->first_ri = ri[order[0]];
  ri[order[0]].items = NULL;
  w->first = &w->first_ri.items[s0->item];
  rc = 0;
out:
  for (size_t i = 0; i < loaded; ++i)
    free(ri[i].items);
  if (rc)
    row_free(w);
  return rc;
}

/* The rewrite of rows w[0..k) that go around the same constructs: one
 * `target data` with a map clause per variable. */
static int emit_rows(const ompdp_rw_plan_t *c, const row_t *w, size_t k, ompdp_rewrite_t *rw) {
  const row_t *w0 = &w[0];
  const char *why = NULL;
  char indent[513];
  memset(indent, ' ', w0->column - 1);
  indent[w0->column - 1] = '\0';
  ompdp_strbuf_t open = {0}, close = {0}, names = {0}, clauses = {0};
  for (size_t j = 0; j < k; ++j) {
    ompdp_sb_printf(&clauses, " map(%s: %s)", row_type(&w[j]), w[j].expr);
    ompdp_sb_printf(&names, "%s`%s`", !j ? "" : j + 1 == k ? " and " : ", ", w[j].expr);
  }
  ompdp_sb_printf(&open, "%s#pragma omp target data%s\n%s{\n", indent,
                  clauses.d ? clauses.d : "", indent);
  ompdp_sb_printf(&close, "%s}\n", indent);
  char *o = ompdp_sb_take(&open), *cl = ompdp_sb_take(&close);
  rw->kind = OMPDP_RK_KEEP_RESIDENT;
  int erc = !o || !cl || clauses.oom || names.oom ||
            ompdp_rw_add_edit(rw, w0->first, w0->open_line, 1, w0->open_line, 1, "", o, &why) ||
            ompdp_rw_add_edit(rw, w0->first, w0->close_line + 1, 1, w0->close_line + 1, 1, "",
                              cl, &why);
  for (size_t j = 0; j < k && !erc; ++j)
    for (size_t u = 0; u < w[j].nupd && !erc; ++u) {
      ompdp_strbuf_t t = {0};
      ompdp_sb_printf(&t, "%*s#pragma omp target update from(%s)\n",
                      (int)(w[j].upd_column[u] - 1), "", w[j].expr);
      erc = t.oom || ompdp_rw_add_edit(rw, w0->first, w[j].upd_line[u], 1, w[j].upd_line[u], 1,
                                       "", t.d, &why);
      free(t.d);
    }
  erc = erc || ompdp_rw_normalize_edits(rw);
  free(o);
  free(cl);
  if (erc) {
    free(clauses.d);
    free(names.d);
    return -1;
  }
  uint64_t dur_before = 0, dur_after = 0, bytes_before = 0, bytes_after = 0;
  int any_from = 0, reads = 0, upd = 0;
  ompdp_oc_t rm_all = {{0}}, add_all = {{0}};
  for (size_t j = 0; j < k; ++j) {
    const row_t *x = &w[j];
    uint64_t after = x->m * (uint64_t)(x->to + x->from + x->nupd);
    uint64_t avg = x->ops ? x->dur_before / x->ops : 0;
    dur_before += x->dur_before;
    dur_after += avg * (after + 2 * x->m);
    bytes_before += x->bytes_before;
    bytes_after += after * x->size;
    rw->transfers_removed += x->before - after;
    rw->allocs_removed += (x->n - 1) * x->m;
    /* Every operation of the row goes; one allocation, its copies in and
     * back (m times) and its delete come instead. */
    ompdp_oc_t add = {{0}};
    ompdp_oc_add(add, OMPDP_OC_H2D, x->m * (uint64_t)x->to, x->m * (uint64_t)x->to * x->size,
                 x->m * (uint64_t)x->to * avg);
    uint64_t backs = x->m * (uint64_t)(x->from + x->nupd);
    ompdp_oc_add(add, OMPDP_OC_D2H, backs, backs * x->size, backs * avg);
    ompdp_oc_add(add, OMPDP_OC_ALLOC, x->m, x->m * x->size, x->m * avg);
    ompdp_oc_add(add, OMPDP_OC_DELETE, x->m, x->m * x->size, x->m * avg);
    ompdp_oc_merge(rm_all, (const uint64_t(*)[3])x->rm);
    ompdp_oc_merge(add_all, (const uint64_t(*)[3])add);
    any_from |= x->from;
    reads |= x->host_reads;
    upd |= x->nupd != 0;
  }
  ompdp_oc_to_ops((const uint64_t(*)[3])rm_all, c->mult, &rw->ops);
  ompdp_oc_to_ops((const uint64_t(*)[3])add_all, c->mult, &rw->ops_added);
  rw->bytes_removed = bytes_before > bytes_after ? bytes_before - bytes_after : 0;
  rw->time_saved_ns = ompdp_rw_to_ns(c, dur_before > dur_after ? dur_before - dur_after : 0);
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_printf(&d, "keep %s on device %d across the %zu constructs in a row at %s:%" PRIu32,
                  names.d ? names.d : "", w0->dev, w0->n, ompdp_rw_basename(w0->first->file),
                  w0->lines[0]);
  for (size_t i = 1; i < w0->n; ++i)
    ompdp_sb_printf(&d, "%s%" PRIu32, i + 1 == w0->n ? " and " : ", ", w0->lines[i]);
  ompdp_sb_printf(&d,
                  ": `#pragma omp target data%s` and `{` before line %" PRIu32
                  ", `}` after line %" PRIu32 "; %s",
                  clauses.d ? clauses.d : "", w0->open_line, w0->close_line,
                  reads  ? "host code between them only reads what is kept (its own copy is "
                           "unchanged)"
                  : upd  ? "host code between them only reads what is kept"
                         : "no host code between them uses ");
  if (!reads && !upd)
    ompdp_sb_printf(&d, "%s", names.d ? names.d : "");
  for (size_t j = 0; j < k; ++j)
    for (size_t u = 0; u < w[j].nupd; ++u)
      ompdp_sb_printf(&d, "; `target update from(%s)` before line %" PRIu32
                          " (host code there reads what the construct before it computed)",
                      w[j].expr, w[j].upd_line[u]);
  if (any_from)
    ompdp_sb_printf(&d, ", and it comes back once, after the last");
  for (size_t j = 0; j < k; ++j)
    ompdp_sb_printf(&a, "%sno host code between them reaches `%s` through another pointer",
                    j ? "; " : "", w[j].variable);
  free(clauses.d);
  free(names.d);
  rw->description = ompdp_sb_take(&d);
  rw->assumption = ompdp_sb_take(&a);
  return rw->description && rw->assumption ? 0 : -1;
}

/* The rewrites for constructs in a row, copied to every finding of theirs
 * (findings a loop's rewrite already fixes are left alone): the rows of
 * all buffers first, then one rewrite per set of rows around the same
 * constructs. */
int ompdp_rw_row_resident_all(const ompdp_rw_plan_t *c, ompdp_report_t *r, const size_t *removed) {
  const ompdp_plan_t *facts = c->facts;
  size_t ns = facts->num_sites ? facts->num_sites : 1;
  char *done = calloc(ns, 1);
  uint32_t *row_of = calloc(ns, sizeof(*row_of)); /* site -> row index + 1 */
  row_t *rows = NULL;
  size_t nrows = 0, cap = 0;
  int rc = !done || !row_of ? -1 : 0;
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = keep_site(c, f);
    if (!si || done[si - 1] || f->num_rewrites)
      continue;
    const ompdp_rw_site_t *s = &facts->sites[si - 1];
    if (!s->buf)
      continue;
    const ompdp_plan_buf_t *b = &facts->bufs[s->buf - 1];
    if (b->num_sites < 2)
      continue;
    uint32_t sis[MAX_ROW];
    size_t n = 0;
    int ok = 1;
    for (int k = 0; k < b->num_sites && k < MAX_ROW; ++k) {
      uint32_t x = b->sites[k] - 1;
      done[x] = 1;
      if (removed[x] || facts->sites[x].item < 0)
        ok = 0;
      else
        sis[n++] = x;
    }
    ompdp_strbuf_t advice = {0};
    row_t w;
    if (!ok || check_row(c, sis, n, &w, &advice)) {
      for (size_t j = 0; j < r->num_findings && !rc && advice.len; ++j) {
        uint32_t sj = keep_site(c, &r->findings[j]);
        for (size_t k = 0; sj && k < n; ++k)
          if (sis[k] == sj - 1 && !r->findings[j].num_rewrites &&
              ompdp_rw_advise(&r->findings[j], advice.d))
            rc = -1;
      }
      if (advice.oom)
        rc = -1;
      free(advice.d);
      continue;
    }
    free(advice.d);
    if (nrows == cap) {
      size_t nc = cap ? 2 * cap : 8;
      row_t *g = realloc(rows, nc * sizeof(*rows));
      if (!g) {
        row_free(&w);
        rc = -1;
        break;
      }
      rows = g;
      cap = nc;
    }
    rows[nrows++] = w;
    for (size_t k = 0; k < n; ++k)
      row_of[sis[k]] = (uint32_t)nrows;
  }
  /* Rows around the same constructs (same file, same first and last
   * statement) go into one `target data`, in the order found. */
  char *used = calloc(nrows ? nrows : 1, 1);
  if (!used)
    rc = -1;
  for (size_t g = 0; g < nrows && !rc; ++g) {
    if (used[g])
      continue;
    row_t set[MAX_ROW_ITEMS];
    size_t members[MAX_ROW_ITEMS], k = 0;
    for (size_t h = g; h < nrows && k < MAX_ROW_ITEMS; ++h)
      if (!used[h] && rows[h].open_line == rows[g].open_line &&
          rows[h].close_line == rows[g].close_line && rows[h].column == rows[g].column &&
          !strcmp(rows[h].first->file, rows[g].first->file)) {
        /* In the order of the first construct's items (its source). */
        size_t q = k++;
        for (; q > 0 && set[q - 1].first - set[q - 1].first_ri.items >
                            rows[h].first - rows[h].first_ri.items;
             --q) {
          set[q] = set[q - 1];
          members[q] = members[q - 1];
        }
        set[q] = rows[h];
        members[q] = h;
        used[h] = 1;
      }
    ompdp_rewrite_t rw = {0};
    if (emit_rows(c, set, k, &rw)) {
      ompdp_rewrite_free(&rw);
      continue;
    }
    for (size_t j = 0; j < r->num_findings && !rc; ++j) {
      ompdp_finding_t *f = &r->findings[j];
      uint32_t sj = keep_site(c, f);
      int member = 0;
      for (size_t q = 0; sj && q < k; ++q)
        member |= row_of[sj - 1] == members[q] + 1;
      /* Copies back that the updates between the constructs keep (the
       * host reads each result) are not what the rewrite removes. */
      if (member && rows[row_of[sj - 1] - 1].nupd && ompdp_finding_is_copy_back(f))
        member = 0;
      if (!member || f->num_rewrites)
        continue;
      ompdp_rewrite_t *dst = ompdp_finding_add_rewrite(f, OMPDP_RK_KEEP_RESIDENT);
      if (!dst || ompdp_rewrite_copy(dst, &rw))
        rc = -1;
    }
    ompdp_rewrite_free(&rw);
  }
  for (size_t g = 0; g < nrows; ++g)
    row_free(&rows[g]);
  free(rows);
  free(used);
  free(row_of);
  free(done);
  return rc;
}
