/*===- rewrite_policy.c - which rewrite, for which finding ------------*- C -*-===*\
|*
|* Decides, per finding, which rewrite is safe and what it saves: the rule
|* its kind names in the table of detections (ompdp_detection_kind), tried
|* in a fixed order so that each map item gets one rewrite: the item of an
|* unused mapping goes (and its unused copies in with it), then unused
|* copies in, overbroad maps, zero-filled copies in, memory held while
|* unused (rewrite_lifetime.c), and last keeping data resident
|* (rewrite_keep.c) at the sites no other rule claimed. Each rule
|* decides from the run's facts (rewrite_facts.c) and builds its edits
|* with the text primitives (rewrite_text.c); docs/fixes.md has the rules.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"
#include "verdict.h"
#include "rewrite_safety.h" /* jumps, assumptions, advice */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ompdp_rewrite_rule_t ompdp_rw_rule(const ompdp_finding_t *f) {
  const ompdp_detection_kind_t *k = ompdp_detection_kind(f->kind);
  return k ? k->rewrite : OMPDP_RR_NONE;
}

int ompdp_rw_load_region(const ompdp_rw_plan_t *c, uint32_t region, ompdp_rw_items_t *out) {
  ompdp_region_info_t head;
  memset(out, 0, sizeof(*out));
  /* A routine call's items are its pointer arguments, not map items: no
   * rewrite of clauses applies to them. */
  if (ompdp_plan_describe(c->facts, region, -1, &head) || head.num_items == 0 ||
      head.num_items > 4096 || ompdp_construct_is_routine(head.construct))
    return -1;
  out->items = calloc(head.num_items, sizeof(*out->items));
  if (!out->items)
    return -1;
  for (uint32_t j = 0; j < head.num_items; ++j)
    if (ompdp_plan_describe(c->facts, region, (int)j, &out->items[j])) {
      free(out->items);
      out->items = NULL;
      return -1;
    }
  out->reg.items = out->items;
  out->reg.num_items = head.num_items;
  return 0;
}

/* Attaches the saving and words to the finding's last rewrite and returns
 * 0, or drops that rewrite and returns -1 when its text could not be
 * made (or memory ran out). */
int ompdp_rw_with_ops(const ompdp_rw_plan_t *c, ompdp_finding_t *f, int rc, const ompdp_oc_t rm,
                      const ompdp_oc_t add) {
  if (rc == 0 && f->num_rewrites) {
    ompdp_rewrite_t *rw = &f->rewrites[f->num_rewrites - 1];
    ompdp_oc_to_ops(rm, c->mult, &rw->ops);
    if (add)
      ompdp_oc_to_ops(add, c->mult, &rw->ops_added);
  }
  return rc;
}

void ompdp_rw_oc_site_allocs(ompdp_oc_t oc, const ompdp_rw_site_t *s, uint64_t n, int all) {
  ompdp_oc_add(oc, OMPDP_OC_ALLOC, n, n * s->alloc_bytes,
               all ? s->dur_alloc : s->dur_alloc - s->dur_alloc_first);
  ompdp_oc_add(oc, OMPDP_OC_DELETE, n, n * s->alloc_bytes,
               all ? s->dur_delete : s->dur_delete - s->dur_delete_last);
}

int ompdp_rw_advise_claimed(ompdp_finding_t *f, const ompdp_finding_t *by, const char *also) {
  char why[384];
  snprintf(why, sizeof(why),
           "the rewrite of this construct's `%s` for its %s finding (%s) changes the same "
           "clause, and %s would not add up",
           f->variable ? f->variable : "item", ompdp_finding_kind_json(by->kind),
           by->num_rewrites ? ompdp_rewrite_kind_json(by->rewrites[0].kind) : "rewrite", also);
  return ompdp_rw_advise(f, why);
}

int ompdp_rw_text_said(ompdp_finding_t *f, int text_rc, const char *why) {
  if (!text_rc || !why || !strcmp(why, OMPDP_RW_OOM))
    return text_rc;
  char buf[512];
  snprintf(buf, sizeof(buf), "ompdp could not write the edit in the source: %s", why);
  ompdp_rw_advise(f, buf); /* out of memory: the verdicts' words say less */
  return text_rc;
}

int ompdp_rw_finish(ompdp_finding_t *f, int text_rc, uint64_t transfers, uint64_t allocs,
                    uint64_t bytes, uint64_t time_ns, ompdp_strbuf_t *desc,
                    ompdp_strbuf_t *assume) {
  ompdp_rewrite_t *rw = &f->rewrites[f->num_rewrites - 1];
  if (!text_rc) {
    rw->transfers_removed = transfers;
    rw->allocs_removed = allocs;
    rw->bytes_removed = bytes;
    rw->time_saved_ns = time_ns;
    rw->description = ompdp_sb_take(desc);
    rw->assumption = assume && assume->len ? ompdp_sb_take(assume) : NULL;
    if (rw->description && (!assume || !assume->oom)) {
      free(assume ? assume->d : NULL);
      return 0;
    }
  }
  free(desc->d);
  free(assume ? assume->d : NULL);
  ompdp_rewrite_free(rw);
  f->num_rewrites--;
  return -1;
}

/* Records why f gets no rewrite of this rule (ompdp_rw_advise): -1, or
 * -2 when out of memory. */
static int refuse(ompdp_finding_t *f, const char *why) {
  return ompdp_rw_advise(f, why) ? -2 : -1;
}

/* The item of a region that maps variable: the only one, else -1. */
static int item_by_name(const ompdp_rw_items_t *ri, const char *variable) {
  int found = -1;
  for (uint32_t j = 0; j < ri->reg.num_items; ++j)
    if (!strcmp(ri->items[j].variable, variable)) {
      if (found >= 0)
        return -1;
      found = (int)j;
    }
  return found;
}

/* Unused allocations made by `target enter data` (with their `target exit
 * data`) or by `target data`: remove the item. */
static int plan_unused_alloc(const ompdp_rw_plan_t *c, ompdp_finding_t *f,
                             const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int enter = it->construct == OMPDP_CK_TARGET_ENTER_DATA;
  if (!enter && it->construct != OMPDP_CK_TARGET_DATA)
    return refuse(f, "the memory is mapped by a construct that also runs a kernel, and "
                     "ompdp removes an unused mapping only from a `target data` or `target "
                     "enter data`");
  /* Every allocation of the site unused, freed, and nothing but its own
   * copy in and a faithful copy back in its lifetime. */
  if (s->allocs == f->count && s->lt_bad)
    return ompdp_rw_advise(f, "other constructs move data to or from this memory while it is "
                              "allocated (`target update`s), and need it there")
               ? -2
               : -1;
  if (s->allocs != f->count)
    return refuse(f, "kernels used the memory in other executions of the construct, so the "
                     "mapping is needed there");
  if (s->multi_buf)
    return refuse(f, "the construct mapped a different host buffer at different executions, "
                     "and ompdp removes a mapping only on what it saw of one buffer");
  if (s->lt_count != s->allocs || !s->lt_exit_region || s->lt_exit_mixed ||
      (!enter && s->lt_exit_region != s->region))
    return refuse(f, "the run did not see each allocation freed by one and the same `target "
                     "exit data` (the end of the `target data`), so there is no pair of "
                     "clauses to remove");
  ompdp_rw_items_t xr = {0};
  int exit_item = -1;
  if (enter) {
    if (ompdp_rw_load_region(c, s->lt_exit_region, &xr))
      return -1;
    exit_item = s->lt_exit_item >= 0 ? s->lt_exit_item : item_by_name(&xr, it->variable);
    if (xr.items[0].construct != OMPDP_CK_TARGET_EXIT_DATA || exit_item < 0 ||
        (uint32_t)exit_item >= xr.reg.num_items) {
      free(xr.items);
      return refuse(f, "the `target exit data` that frees the memory does not name the item "
                       "once, so its clause cannot be removed with the `target enter data`'s");
    }
  }
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_REMOVE_ITEM);
  if (!rw) {
    free(xr.items);
    return -2;
  }
  const char *why = NULL;
  int rc = ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why);
  if (!rc && enter)
    rc = ompdp_rw_remove_item(rw, &xr.reg, (uint32_t)exit_item, &why);
  ompdp_strbuf_t d = {0};
  ompdp_sb_printf(&d, "remove `%s` from `%s` at %s:%" PRIu32, it->expr,
                  ompdp_construct_kind_name(it->construct), ompdp_rw_basename(it->file), it->line);
  if (enter)
    ompdp_sb_printf(&d, " and from `target exit data` at %s:%" PRIu32,
                    ompdp_rw_basename(xr.items[0].file), xr.items[0].line);
  ompdp_sb_puts(&d, ": no kernel ran while the memory existed");
  ompdp_strbuf_t a = {0};
  if (!rc) {
    ompdp_rw_removal_assumption(rw, it, &a);
    if (enter)
      ompdp_rw_removal_assumption(rw, &xr.items[exit_item], &a);
  }
  free(xr.items);
  /* The copies of the allocations' lifetimes: their own copies in, the
   * rest back (split by count, as the plan keeps one total). */
  ompdp_oc_t rm = {{0}};
  ompdp_rw_oc_site_allocs(rm, s, s->allocs, 1);
  uint64_t lt_in = s->lt_transfers < s->h2d ? s->lt_transfers : s->h2d;
  uint64_t lt_t =
      s->lt_dur > s->dur_alloc + s->dur_delete ? s->lt_dur - s->dur_alloc - s->dur_delete : 0;
  if (s->lt_transfers) {
    double in_share = (double)lt_in / (double)s->lt_transfers;
    ompdp_oc_add(rm, OMPDP_OC_H2D, lt_in, (uint64_t)(in_share * (double)s->lt_bytes),
                 (uint64_t)(in_share * (double)lt_t));
    ompdp_oc_add(rm, OMPDP_OC_D2H, s->lt_transfers - lt_in,
                 s->lt_bytes - (uint64_t)(in_share * (double)s->lt_bytes),
                 lt_t - (uint64_t)(in_share * (double)lt_t));
  }
  return ompdp_rw_with_ops(c, f,
                           ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), s->lt_transfers, s->allocs, s->lt_bytes,
                                           ompdp_rw_to_ns(c, s->lt_dur), &d, &a),
                           (const uint64_t(*)[3])rm, NULL);
}

/* Unused copies in: remove the `target update` item, or map the item
 * without its copy in. */
static int plan_unused_transfer(const ompdp_rw_plan_t *c, ompdp_finding_t *f,
                                const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int update = it->construct == OMPDP_CK_TARGET_UPDATE;
  if (update ? it->map_type != OMPDP_MT_UPDATE_TO : !ompdp_rw_has_to(it->map_type))
    return refuse(f, "the clause that made the copy is not a `to` the region table records "
                     "for this item (a mapper or an implicit map moved it)");
  /* Every copy in of the site unused, and none copied back to the host
   * before being overwritten (without it, the host would get older bytes).
   * A site that worked on several buffers (a loop that maps a new malloc'ed
   * buffer each iteration) may be rewritten too: each execution's copy in
   * was unused on its own, and the rewrite changes only that copy. Where
   * the buffer was present the copy did not happen under either map type;
   * where it was not, the allocation stays and only the unused bytes are
   * not sent. copied_back is followed per buffer, so it covers them all. */
  if (s->h2d == f->count && s->copied_back)
    return ompdp_rw_advise(f, "what it sends is copied back to the host later, and without it "
                              "the host would get the device's older bytes")
               ? -2
               : -1;
  if (s->h2d != f->count)
    return refuse(f, "kernels read the copies of other executions of the construct, so the "
                     "copy is needed there");
  if (s->copied_back)
    return refuse(f, "some of what it sends is copied back to the host later, and without it "
                     "the host would get the device's older bytes");
  ompdp_rewrite_t *rw =
      ompdp_finding_add_rewrite(f, update ? OMPDP_RK_REMOVE_ITEM : OMPDP_RK_CHANGE_MAP_TYPE);
  if (!rw)
    return -2;
  const char *why = NULL;
  ompdp_map_type_t to = it->map_type == OMPDP_MT_TOFROM ? OMPDP_MT_FROM : OMPDP_MT_ALLOC;
  int rc = update ? ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why)
                  : ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item, to,
                                          to == OMPDP_MT_ALLOC ? -1 : 0, &why);
  ompdp_strbuf_t d = {0};
  if (update)
    ompdp_sb_printf(
        &d, "remove `%s` from `target update` at %s:%" PRIu32 ": no kernel read what it sent",
        it->expr, ompdp_rw_basename(it->file), it->line);
  else
    ompdp_sb_printf(&d,
                    "map `%s` with `%s` instead of `%s` at %s:%" PRIu32
                    ": no kernel read what the copy in sent",
                    it->implicit ? it->variable : it->expr, ompdp_map_type_name(to),
                    ompdp_map_type_name(it->map_type), ompdp_rw_basename(it->file), it->line);
  ompdp_strbuf_t a = {0};
  if (!rc)
    ompdp_rw_removal_assumption(rw, it, &a);
  ompdp_oc_t rm = {{0}};
  ompdp_oc_add(rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
  return ompdp_rw_with_ops(
      c, f, ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), s->h2d, 0, s->bytes_h2d, ompdp_rw_to_ns(c, s->dur_h2d), &d, &a),
      (const uint64_t(*)[3])rm, NULL);
}

/* The largest object passed as firstprivate instead of mapped: it goes
 * with the kernel's arguments. */
#define FIRSTPRIVATE_MAX_BYTES 1024
/* The most items of one clause passed as firstprivate by one rewrite. */
#define FIRSTPRIVATE_MAX_ITEMS 64

/* Whether item j of a construct may be passed as firstprivate: a small
 * object that the kernel maps (implicitly, an aggregate: a struct passed
 * by value, say; or explicitly, `map(to: n)`) and only reads, allocated
 * and copied in (and back) at every launch. It is one whole object (not
 * an array) of a trivially copyable type (the compiler says so; every C
 * type is) other than a pointer (a mapped pointer may be attached to its pointee's device
 * copy), no other item of the construct maps the variable, the region only
 * reads it (the compiler says so, and no copy back brought other bytes),
 * and no other construct used the object while this one's mapping was not
 * live, or every launch of the construct allocated it (it is never present
 * when the construct runs, so the region always read the host's bytes, as
 * a firstprivate copy does). Its site, or NULL. */
/* What the compiler alone says of item j for firstprivate_site: the
 * conditions on the item and its construct, not on the run. */
static int firstprivate_static(const ompdp_rw_items_t *ri, uint32_t j) {
  const ompdp_region_info_t *it = &ri->items[j];
  uint64_t size = (uint64_t)it->fill_count * it->fill_elem_size;
  if (it->construct != OMPDP_CK_TARGET || it->access != OMPDP_ACCESS_READ ||
      (it->map_type != OMPDP_MT_TO && it->map_type != OMPDP_MT_TOFROM) ||
      (it->modifiers & (OMPDP_MOD_ALWAYS | OMPDP_MOD_PRESENT | OMPDP_MOD_MAPPER)) ||
      (it->access_flags & OMPDP_IA_REDUCTION) || !(it->fill_flags & OMPDP_FILL_TRIVIAL) ||
      !(it->fill_flags & (OMPDP_FILL_WHOLE | OMPDP_FILL_CONST_WHOLE)) ||
      it->fill_count != 1 || !it->fill_elem_size || size > FIRSTPRIVATE_MAX_BYTES ||
      strchr(it->fill_type, '*') || !ompdp_rw_is_identifier(it->variable) ||
      (!it->implicit && strcmp(it->expr, it->variable)))
    return 0;
  for (uint32_t k = 0; k < ri->reg.num_items; ++k)
    if (k != j && !strcmp(ri->items[k].variable, it->variable))
      return 0;
  return 1;
}

static const ompdp_rw_site_t *firstprivate_site(const ompdp_rw_plan_t *c,
                                                const ompdp_rw_items_t *ri, uint32_t region,
                                                uint32_t j) {
  const ompdp_region_info_t *it = &ri->items[j];
  uint64_t size = (uint64_t)it->fill_count * it->fill_elem_size;
  if (!firstprivate_static(ri, j))
    return NULL;
  uint32_t si = ompdp_rw_site_find(c, region, (int)j);
  const ompdp_rw_site_t *s = si ? &c->facts->sites[si - 1] : NULL;
  /* Others' use of the buffer (another function's by-value parameter at
   * the same stack address) does not matter where every launch of the
   * construct allocated it: it was never present when the kernel ran. */
  int fresh = s && s->launches && s->allocs == s->launches;
  if (!s || !s->buf || (s->outside && !fresh) || !s->allocs || s->allocs != s->h2d ||
      s->deletes != s->allocs || s->sizes_differ || s->alloc_bytes != size ||
      (s->d2h && s->dev_changed))
    return NULL;
  return s;
}

/* Passes the small objects a kernel only reads as `firstprivate(x)` (see
 * firstprivate_site): the item of s, with every other item of its clause
 * that qualifies too (one edit of the clause for all of them); the kernel
 * gets a copy of the bytes with the launch. group[0..*ng) gets the items
 * (their sites are the rewrite's). */
static size_t firstprivate_group(const ompdp_rw_plan_t *c, const ompdp_rw_items_t *ri,
                                 const ompdp_rw_site_t *s, uint32_t *group) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  size_t ng = 0;
  if (firstprivate_site(c, ri, s->region, (uint32_t)s->item) != s)
    return 0;
  group[ng++] = (uint32_t)s->item;
  if (!it->implicit)
    for (uint32_t j = 0; j < ri->reg.num_items && ng < FIRSTPRIVATE_MAX_ITEMS; ++j) {
      const ompdp_region_info_t *o = &ri->items[j];
      const ompdp_rw_site_t *os;
      if (j == (uint32_t)s->item || o->implicit || o->clause_line != it->clause_line ||
          o->clause_column != it->clause_column || !(os = firstprivate_site(c, ri, s->region, j)))
        continue;
      /* Not an item another rewrite already takes (kept resident across a
       * loop, say): the two would count its copies twice. */
      if (c->claimed && c->claimed[os - c->facts->sites])
        continue;
      group[ng++] = j;
    }
  return ng;
}

/* Marks the sites of a firstprivate rewrite's items (firstprivate_group)
 * as rewritten by finding + 1 `by`, whose rewrite their findings show. */
static void claim_group(const ompdp_rw_plan_t *c, size_t *removal, uint32_t region,
                        const uint32_t *group, size_t ng, size_t by) {
  for (size_t g = 0; g < ng; ++g) {
    uint32_t si = ompdp_rw_site_find(c, region, (int)group[g]);
    if (si && !removal[si - 1])
      removal[si - 1] = by;
  }
}

static int plan_firstprivate(const ompdp_rw_plan_t *c, ompdp_finding_t *f,
                             const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s,
                             uint32_t *group, size_t *ng) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  if (!(*ng = firstprivate_group(c, ri, s, group)))
    return -1;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_FIRSTPRIVATE);
  if (!rw)
    return -2;
  const char *why = NULL;
  int rc = ompdp_rw_firstprivate_items(rw, &ri->reg, group, *ng, &why);
  ompdp_strbuf_t d = {0}, a = {0}, names = {0};
  ompdp_oc_t rm = {{0}}, add = {{0}};
  uint64_t transfers = 0, allocs = 0, bytes = 0, time = 0, launches = 0;
  int packed = 0, by_values = 0;
  for (size_t g = 0; g < *ng; ++g) {
    const ompdp_region_info_t *x = &ri->items[group[g]];
    const ompdp_rw_site_t *xs = firstprivate_site(c, ri, s->region, group[g]);
    uint64_t size = (uint64_t)x->fill_count * x->fill_elem_size;
    /* A scalar that fits in a pointer goes with the launch's arguments,
     * by value; anything else in the buffer of firstprivate objects. */
    int by_value = (x->fill_flags & OMPDP_FILL_SCALAR) && x->fill_count == 1 &&
                   x->fill_elem_size <= sizeof(uint64_t);
    ompdp_sb_printf(&d, "%s`%s` (%" PRIu64 " bytes)", !g ? "pass " : g + 1 < *ng ? ", " : " and ",
                    x->variable, size);
    ompdp_sb_printf(&names, "%s%s", g ? ", " : "", x->variable);
    ompdp_oc_add(rm, OMPDP_OC_H2D, xs->h2d, xs->bytes_h2d, xs->dur_h2d);
    ompdp_oc_add(rm, OMPDP_OC_D2H, xs->d2h, xs->bytes_d2h, xs->dur_d2h);
    ompdp_rw_oc_site_allocs(rm, xs, xs->allocs, 1);
    transfers += xs->h2d + xs->d2h;
    allocs += xs->allocs;
    bytes += xs->bytes_h2d + xs->bytes_d2h;
    time += xs->dur_h2d + xs->dur_d2h + xs->dur_alloc + xs->dur_delete;
    by_values += by_value;
    if (!by_value) {
      /* Into the packed buffer, in place of its own copy in. */
      bytes -= xs->allocs * size;
      if (!packed)
        launches = xs->allocs;
      packed = 1;
      ompdp_oc_add(add, OMPDP_OC_H2D, 0, xs->allocs * size, 0);
    }
  }
  /* libomptarget packs a launch's firstprivate objects that are not
   * passed by value into one buffer, allocated, copied in and freed at
   * every launch: once per launch however many objects go in it (none more
   * when the launch had such a buffer already: the saving is at least
   * this). */
  if (packed) {
    ompdp_oc_add(add, OMPDP_OC_H2D, launches, 0, s->dur_h2d);
    ompdp_rw_oc_site_allocs(add, s, launches, 1);
    transfers -= launches;
    allocs -= launches;
    time -= s->dur_h2d + s->dur_alloc + s->dur_delete;
  }
  /* One object in a buffer of its own per launch instead of a mapping
   * of its own saves nothing (a struct mapped `to`): keeping it resident
   * may. */
  if (!transfers && !allocs) {
    free(names.d);
    free(d.d);
    ompdp_rewrite_free(rw);
    f->num_rewrites--;
    return -1;
  }
  int many = *ng > 1;
  ompdp_sb_printf(&d, " to the kernel at %s:%" PRIu32 " as `firstprivate(%s)`",
                  ompdp_rw_basename(it->file), it->line, names.d ? names.d : "");
  if (names.oom)
    d.oom = 1;
  free(names.d);
  if (!it->implicit)
    ompdp_sb_printf(&d, " instead of %s`%s`", many ? "mapping them with " : "", it->clause);
  ompdp_sb_printf(&d, ": the region only reads %s, and %s %s", many ? "them" : "it",
                  many ? "their" : by_values ? "its value" : "its bytes",
                  !packed ? (many ? "values go" : "goes")
                          : by_values ? "values go with the launch's arguments or"
                                      : (many ? "bytes go" : "go"));
  ompdp_sb_puts(&d, packed ? " in the buffer of firstprivate objects that each launch copies in "
                             "once, instead of an allocation, a copy in and a copy back of their "
                             "own"
                           : " with the launch's arguments, instead of an allocation, a copy in "
                             "and a copy back of their own");
  rc = ompdp_rw_with_ops(c, f,
                         ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), transfers, allocs, bytes, ompdp_rw_to_ns(c, time),
                                         &d, &a),
                         (const uint64_t(*)[3])rm, packed ? (const uint64_t(*)[3])add : NULL);
  if (rc == 0 && packed)
    f->rewrites[f->num_rewrites - 1].lower_bound = 1;
  return rc;
}

/* Copies back that the host never reads (the compiler's HOST_UNREAD):
 * `target update from` loses the item, `tofrom` becomes `to`, `from`
 * becomes `alloc` (`release` at a `target exit data`). The compiler's
 * fact holds for each execution, whatever buffer it maps, so the run only
 * has to show the copies (a new buffer each call is the usual case). */
static int plan_unread(const ompdp_rw_plan_t *c, ompdp_finding_t *f, const ompdp_rw_items_t *ri,
                       const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  if (!s->d2h)
    return refuse(f, "the run saw no copy back at this construct for a narrower map to drop");
  int update = it->construct == OMPDP_CK_TARGET_UPDATE;
  ompdp_map_type_t to = it->map_type == OMPDP_MT_TOFROM ? OMPDP_MT_TO
                        : it->construct == OMPDP_CK_TARGET_EXIT_DATA ? OMPDP_MT_RELEASE
                                                                     : OMPDP_MT_ALLOC;
  ompdp_rewrite_t *rw =
      ompdp_finding_add_rewrite(f, update ? OMPDP_RK_REMOVE_ITEM : OMPDP_RK_CHANGE_MAP_TYPE);
  if (!rw)
    return -2;
  const char *why = NULL;
  int rc = update ? ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why)
                  : ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item, to, 0, &why);
  const char *name = it->implicit ? it->variable : it->expr;
  ompdp_strbuf_t d = {0}, a = {0};
  if (update)
    ompdp_sb_printf(&d, "remove `%s` from `target update` at %s:%" PRIu32, name,
                    ompdp_rw_basename(it->file), it->line);
  else
    ompdp_sb_printf(&d, "map `%s` with `%s` instead of `%s` at %s:%" PRIu32, name,
                    ompdp_map_type_name(to), ompdp_map_type_name(it->map_type),
                    ompdp_rw_basename(it->file), it->line);
  ompdp_sb_puts(&d, ": the host never reads what it copies back (the compiler saw every use of "
                    "the buffer after it: writes, frees, maps that send nothing)");
  ompdp_oc_t rm = {{0}};
  ompdp_oc_add(rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
  return ompdp_rw_with_ops(
      c, f,
      ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), s->d2h, 0, s->bytes_d2h, ompdp_rw_to_ns(c, s->dur_d2h), &d, &a),
      (const uint64_t(*)[3])rm, NULL);
}

/* Copies in that nothing reads (the compiler's WRITES_FIRST): the region,
 * or the first kernel of a `target data` region to use the item, writes
 * every element before reading any. `tofrom` becomes `from`, `to`
 * becomes `alloc`: the device's copy starts uninitialised instead of as
 * the host's bytes, which nothing reads. The compiler's fact holds for
 * every execution, whatever buffer it maps, so the run only has to show
 * the copies. */
static int plan_overwritten(const ompdp_rw_plan_t *c, ompdp_finding_t *f,
                            const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  if (!s->h2d)
    return -1;
  ompdp_map_type_t to = it->map_type == OMPDP_MT_TOFROM ? OMPDP_MT_FROM : OMPDP_MT_ALLOC;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_CHANGE_MAP_TYPE);
  if (!rw)
    return -2;
  const char *why = NULL;
  int rc = ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item, to, 0, &why);
  const char *name = it->implicit ? it->variable : it->expr;
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_printf(&d, "map `%s` with `%s` instead of `%s` at %s:%" PRIu32 ": %s", name,
                  ompdp_map_type_name(to), ompdp_map_type_name(it->map_type),
                  ompdp_rw_basename(it->file), it->line,
                  it->construct == OMPDP_CK_TARGET_DATA
                      ? "the first kernel of the region to use it writes every element before "
                        "reading any"
                      : "the region writes every element before reading any");
  ompdp_sb_puts(&d, ", so nothing reads what the copy in sends (the compiler proved it)");
  ompdp_oc_t rm = {{0}};
  ompdp_oc_add(rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
  return ompdp_rw_with_ops(
      c, f,
      ompdp_rw_finish(f, rc, s->h2d, 0, s->bytes_h2d, ompdp_rw_to_ns(c, s->dur_h2d), &d, &a),
      (const uint64_t(*)[3])rm, NULL);
}

/* Overbroad maps (detect_overbroad.c): the item a target region never
 * touches goes; a tofrom item it only reads becomes `to`, one it only
 * writes `from`. The run must agree with the region table: the copies
 * back that disappear returned the bytes the device had received (else
 * the host got other bytes from them). `from` relies on the region writing
 * every element: made only when the compiler proved it or the run confirms
 * it (rewrite_safety.c), else the finding says why in words. */
static int has_side_effect(const char *x);

/* A section whose loops use less of it (SECTION_END): `x[lo : hi]` ->
 * `x[lo : hi - lo]`, the compiler's constants folded in. The finding
 * counts the bytes each transfer moved beyond what the region uses, and
 * every transfer at which the shorter section holds the loops' elements
 * (one with lower bound 0 with no bytes): the run proved the rewrite right
 * at every transfer it saw only when each of them is in the finding. */
static int plan_section(const ompdp_rw_plan_t *c, ompdp_finding_t *f, const ompdp_rw_items_t *ri,
                        const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  uint64_t moved = (it->map_type != OMPDP_MT_FROM ? s->h2d : 0) +
                   (it->map_type != OMPDP_MT_TO ? s->d2h : 0);
  if (f->count != moved)
    return refuse(f, "at some copies of the section in the run the shorter section would not "
                     "have held the elements its loops use (they ran no time, or past the "
                     "section's end), so the run did not show it right at every execution");
  /* Each copy's own bounds prove it, whichever buffer it was (chunks of
   * one array are buffers of their own). */
  if (!ompdp_rw_explicit_item(it) || !it->item_line || !it->item_end_line || !it->expr[0])
    return refuse(f, "the section's place in the source is unknown (written in a macro?)");
  if (has_side_effect(it->section_lower) || has_side_effect(it->section_length))
    return refuse(f, "a bound of the section changes something when it is evaluated, and the "
                     "shorter section evaluates its lower bound twice");
  char *shrunk = ompdp_section_shrunk(it);
  ompdp_rewrite_t *rw = shrunk ? ompdp_finding_add_rewrite(f, OMPDP_RK_SHRINK_SECTION) : NULL;
  if (!rw) {
    free(shrunk);
    return -2;
  }
  const char *why = NULL;
  int rc = ompdp_rw_add_edit(rw, it, it->item_line, it->item_column, it->item_end_line,
                             it->item_end_column, it->expr, shrunk, &why);
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_printf(&d,
                  "map `%s` instead of `%s` at %s:%" PRIu32 ": the region's loops use only "
                  "those elements",
                  shrunk, it->expr, ompdp_rw_basename(it->file), it->line);
  ompdp_sb_puts(&a, "the loops run from the section's lower bound on at every execution of the "
                    "construct, as they did in the run, so the shorter section's length stays "
                    "positive");
  free(shrunk);
  /* Only bytes go: every transfer stays, shorter (the finding's operations
   * by class, their counts left out). */
  rc = ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), 0, 0, f->bytes, f->time_ns, &d, &a);
  if (rc == 0 && f->num_rewrites) {
    ompdp_rewrite_t *last = &f->rewrites[f->num_rewrites - 1];
    memset(&last->ops, 0, sizeof(last->ops));
    for (int k = 0; k < OMPDP_OC_COUNT; ++k)
      if (k == OMPDP_OC_H2D || k == OMPDP_OC_D2H) {
        last->ops.c[k].bytes = f->ops.c[k].bytes;
        last->ops.c[k].time_ns = f->ops.c[k].time_ns;
      }
    last->ops.known = f->ops.known;
  }
  return rc;
}

/* Whether f is an overbroad map of a section longer than its loops
 * (planned after the other rules). */
static uint32_t site_index(const ompdp_rw_plan_t *c, const ompdp_finding_t *f);
static int is_section(const ompdp_rw_plan_t *c, const ompdp_finding_t *f) {
  uint32_t si = site_index(c, f);
  ompdp_rw_items_t ri;
  if (f->kind != OMPDP_FK_OVERBROAD_MAP || !si || ompdp_rw_load_region(c, f->rt_region, &ri))
    return 0;
  int32_t k = c->facts->sites[si - 1].item;
  int yes = k >= 0 && (uint32_t)k < ri.reg.num_items &&
            ompdp_overbroad_rule(&ri.items[k]) == OMPDP_OVERBROAD_SECTION;
  free(ri.items);
  return yes;
}

static int plan_overbroad(const ompdp_rw_plan_t *c, ompdp_finding_t *f, const ompdp_rw_items_t *ri,
                          const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int rule = ompdp_overbroad_rule(it);
  if (rule == OMPDP_OVERBROAD_UNREAD)
    return plan_unread(c, f, ri, s);
  if (rule == OMPDP_OVERBROAD_OVERWRITTEN)
    return plan_overwritten(c, f, ri, s);
  if (rule == OMPDP_OVERBROAD_NONE)
    return refuse(f, "the compiler's region table does not show the region only reading, only "
                     "writing or never touching the item, which a narrower map needs");
  if (s->multi_buf)
    return refuse(f, "the construct mapped a different host buffer at different executions, "
                     "and ompdp narrows a map only on what it saw of one buffer");
  if (rule == OMPDP_OVERBROAD_TO) {
    uint32_t group[FIRSTPRIVATE_MAX_ITEMS];
    size_t ng;
    int prc = plan_firstprivate(c, f, ri, s, group, &ng);
    if (prc != -1)
      return prc;
  }
  if (rule != OMPDP_OVERBROAD_FROM && s->d2h && s->dev_changed)
    return refuse(f, "a copy back brought the host other bytes than the device had received, "
                     "so the device changed the data (through a pointer or a call the compiler "
                     "cannot follow) and the copy back is needed");
  const char *name = it->implicit ? it->variable : it->expr;
  ompdp_strbuf_t from_assume = {0};
  int from_by = 0;
  if (rule == OMPDP_OVERBROAD_FROM) {
    ompdp_rw_from_run_t run = {.executions = s->allocs, .d2h = s->d2h, .d2h_same = s->d2h_same,
                               .d2h_unhashed = s->d2h_unhashed, .alloc_bytes = s->alloc_bytes};
    ompdp_strbuf_t why = {0};
    from_by = ompdp_rw_from_allowed(it, name, &run, &from_assume, &why);
    if (!from_by) {
      int rc = why.oom || ompdp_rw_advise(f, why.d) ? -2 : -1;
      free(why.d);
      free(from_assume.d);
      return rc;
    }
    free(why.d);
  }
  uint64_t transfers, allocs = 0, bytes, time;
  ompdp_oc_t rm = {{0}};
  if (rule == OMPDP_OVERBROAD_REMOVE) {
    transfers = s->h2d + s->d2h;
    allocs = s->allocs;
    bytes = s->bytes_h2d + s->bytes_d2h;
    time = s->dur_h2d + s->dur_d2h + s->dur_alloc + s->dur_delete;
    ompdp_oc_add(rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
    ompdp_oc_add(rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
    ompdp_rw_oc_site_allocs(rm, s, s->allocs, 1);
  } else if (rule == OMPDP_OVERBROAD_TO) {
    transfers = s->d2h;
    bytes = s->bytes_d2h;
    time = s->dur_d2h;
    ompdp_oc_add(rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
  } else {
    transfers = s->h2d;
    bytes = s->bytes_h2d;
    time = s->dur_h2d;
    ompdp_oc_add(rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
  }
  if (!transfers && !allocs) {
    free(from_assume.d);
    return refuse(f, "the run saw none of the copies a narrower map would drop at this "
                     "construct");
  }
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(
      f, rule == OMPDP_OVERBROAD_REMOVE ? OMPDP_RK_REMOVE_ITEM : OMPDP_RK_CHANGE_MAP_TYPE);
  if (!rw) {
    free(from_assume.d);
    return -2;
  }
  const char *why = NULL;
  int rc = rule == OMPDP_OVERBROAD_REMOVE
               ? ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why)
               : ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item,
                                       rule == OMPDP_OVERBROAD_TO ? OMPDP_MT_TO : OMPDP_MT_FROM, 0,
                                       &why);
  ompdp_strbuf_t d = {0}, a = {0};
  if (rule == OMPDP_OVERBROAD_REMOVE)
    ompdp_sb_printf(
        &d, "remove `%s` from `target` at %s:%" PRIu32 ": the region never reads or writes it",
        name, ompdp_rw_basename(it->file), it->line);
  else if (it->construct == OMPDP_CK_TARGET_DATA)
    ompdp_sb_printf(&d,
                    "map `%s` with `to` instead of `tofrom` at %s:%" PRIu32
                    ": the region's kernels at most read it and its host code does not "
                    "change it",
                    name, ompdp_rw_basename(it->file), it->line);
  else
    ompdp_sb_printf(
        &d, "map `%s` with `%s` instead of `tofrom` at %s:%" PRIu32 ": the region only %s it", name,
        rule == OMPDP_OVERBROAD_TO ? "to" : "from", ompdp_rw_basename(it->file), it->line,
        rule == OMPDP_OVERBROAD_TO ? "reads" : "writes");
  if (rule == OMPDP_OVERBROAD_FROM && from_by == 1)
    ompdp_sb_puts(&d, " (the compiler proved that it writes every element before reading any)");
  else if (rule == OMPDP_OVERBROAD_FROM)
    ompdp_sb_puts(&a, from_assume.d ? from_assume.d : "");
  if (from_assume.oom)
    a.oom = 1;
  free(from_assume.d);
  return ompdp_rw_with_ops(
      c, f, ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), transfers, allocs, bytes, ompdp_rw_to_ns(c, time), &d, &a),
      (const uint64_t(*)[3])rm, NULL);
}

/* Bounds as written that may change something when evaluated once more. */
static int has_side_effect(const char *x) {
  for (const char *p = x; *p; ++p) {
    if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-'))
      return 1;
    if (*p == '=' && p[1] != '=' && (p == x || !strchr("=<>!", p[-1])))
      return 1;
  }
  return 0;
}

/* A name a type can be spelled with again where the item is used. */
static int respellable_type(const char *t) {
  return *t && !strchr(t, '(') && !strstr(t, "unnamed") && !strstr(t, "anonymous");
}

/* Bounds that the fill's loop may use as written: names, numbers and
 * arithmetic. A member (p.n, p->n), a subscript or a call would make the
 * device kernel reference the object or function behind it, which the
 * construct then maps implicitly (a struct: an allocation and copies of
 * its own at every fill) or cannot call at all; such bounds are taken on
 * the host into locals first. */
static int plain_bound(const char *x) {
  const char *prev = NULL; /* last character that is not a blank */
  for (const char *p = x; *p; ++p) {
    if (*p == '.' || *p == '[' || *p == '>' || *p == '"' || *p == '\'')
      return 0;
    if (*p == '(' && prev &&
        ((*prev >= 'a' && *prev <= 'z') || (*prev >= 'A' && *prev <= 'Z') ||
         (*prev >= '0' && *prev <= '9') || *prev == '_' || *prev == ')'))
      return 0;
    if (*p != ' ' && *p != '\t' && *p != '\n')
      prev = p;
  }
  return 1;
}

/* The value a fill writes other than zero: the bytes that every copy in
 * of its site held, repeated every `period` bytes from the section's first
 * (plan site's single_pattern: byte i of a copy is byte i % 8 of it). */
typedef struct fill_value {
  uint64_t pattern;
  uint32_t period;
} fill_value_t;

/* The value's bytes as words say them: "the bytes `00 00 80 3f` repeated". */
static void put_value_words(ompdp_strbuf_t *b, const fill_value_t *val) {
  ompdp_sb_puts(b, "the bytes `");
  for (uint32_t i = 0; i < val->period; ++i)
    ompdp_sb_printf(b, "%s%02x", i ? " " : "", (unsigned)(val->pattern >> (8 * i)) & 0xffu);
  ompdp_sb_puts(b, "` repeated");
}

/* The device-side fill of the item (its fill facts, region_view.h): a
 * `target teams distribute parallel for` that finds the item present
 * (map(alloc: ...)) and writes zero to every element, with `= 0` for an
 * arithmetic or pointer element and byte by byte otherwise. A section
 * whose bounds are not plain (plain_bound) gets them in locals, in braces
 * around the fill. Every line is indented with ind spaces and ends with a
 * newline; dev is the construct's device clause (" device(1)") or "".
 * Returns 0, or -1 when the item's facts do not allow one. */
static int put_fill(ompdp_strbuf_t *b, const ompdp_region_info_t *it, uint32_t ind,
                    const char *dev, const fill_value_t *val) {
  const char *v = it->variable;
  /* Another value than zero is assigned as a literal where converting it
   * to the element's type gives the copies' bytes back (fill_literal.c:
   * the same text in every instance of a template that holds the same
   * value), else written byte by byte (below): the bytes the copies held,
   * in their order. */
  char lit[64] = "0";
  int scalar = (it->fill_flags & OMPDP_FILL_SCALAR) != 0 &&
               (!val || ompdp_fill_literal(it->fill_type, it->fill_elem_size, val->pattern,
                                           val->period, lit, sizeof(lit)));
  if (!ompdp_rw_is_identifier(v) || !respellable_type(it->fill_type) || !it->fill_elem_size)
    return -1;
  ompdp_strbuf_t first = {0}, count = {0}, base = {0};
  int hoist = 0;
  if (it->fill_flags & OMPDP_FILL_SECTION) {
    if (!it->fill_length[0] || has_side_effect(it->fill_length) || has_side_effect(it->fill_lower))
      return -1;
    int lower = it->fill_lower[0] && strcmp(it->fill_lower, "0");
    hoist = !plain_bound(it->fill_length) || !plain_bound(it->fill_lower);
    if (lower && hoist) {
      ompdp_sb_printf(&first, "%s[ompdp_lo + ompdp_i]", v);
      ompdp_sb_printf(&base, "&%s[ompdp_lo]", v);
    } else if (lower) {
      ompdp_sb_printf(&first, "%s[(%s) + ompdp_i]", v, it->fill_lower);
      ompdp_sb_printf(&base, "&%s[%s]", v, it->fill_lower);
    } else {
      ompdp_sb_printf(&first, "%s[ompdp_i]", v);
      ompdp_sb_puts(&base, v);
    }
    if (hoist)
      ompdp_sb_puts(&count, "ompdp_n");
    else
      ompdp_sb_printf(&count, "(%s)", it->fill_length);
  } else if (it->fill_flags & OMPDP_FILL_WHOLE) {
    if (!it->fill_count)
      return -1;
    if (it->fill_count == 1 && scalar)
      ompdp_sb_puts(&first, v); /* one object: no loop needed, but one is fine */
    else
      ompdp_sb_printf(&first, "((%s *)&%s)[ompdp_i]", it->fill_type, v);
    ompdp_sb_printf(&base, "&%s", v);
    ompdp_sb_printf(&count, "%" PRIu32, it->fill_count);
  } else {
    return -1;
  }
  char *at = ompdp_sb_take(&first), *n = ompdp_sb_take(&count), *at0 = ompdp_sb_take(&base);
  if (!at || !n || !at0) {
    free(at);
    free(n);
    free(at0);
    b->oom = 1;
    return -1;
  }
  if (hoist) {
    /* On the host, where the section's own bounds are evaluated. */
    ompdp_sb_printf(b, "%*s{\n", (int)ind, "");
    if (it->fill_lower[0] && strcmp(it->fill_lower, "0"))
      ompdp_sb_printf(b, "%*s  const long long ompdp_lo = (%s);\n", (int)ind, "", it->fill_lower);
    ompdp_sb_printf(b, "%*s  const long long ompdp_n = (%s);\n", (int)ind, "", it->fill_length);
    ind += 2;
  }
  ompdp_sb_printf(b, "%*s#pragma omp target teams distribute parallel for map(alloc: %s)%s\n",
                  (int)ind, "", it->expr, dev);
  if ((it->fill_flags & OMPDP_FILL_WHOLE) && it->fill_count == 1 && scalar) {
    ompdp_sb_printf(b, "%*sfor (long long ompdp_i = 0; ompdp_i < 1; ++ompdp_i)\n", (int)ind, "");
    ompdp_sb_printf(b, "%*s  %s = %s;\n", (int)ind, "", at, lit);
  } else if (scalar) {
    ompdp_sb_printf(b, "%*sfor (long long ompdp_i = 0; ompdp_i < %s; ++ompdp_i)\n", (int)ind, "",
                    n);
    ompdp_sb_printf(b, "%*s  %s = %s;\n", (int)ind, "", at, lit);
  } else {
    /* Byte by byte, from the first element on. */
    ompdp_sb_printf(
        b, "%*sfor (long long ompdp_i = 0; ompdp_i < %s * (long long)sizeof(%s); ++ompdp_i)\n",
        (int)ind, "", n, it->fill_type);
    if (val)
      ompdp_sb_printf(b,
                      "%*s  ((unsigned char *)%s)[ompdp_i] = (unsigned char)(0x%016" PRIx64
                      "ULL >> (8 * (ompdp_i & 7)));\n",
                      (int)ind, "", at0, val->pattern);
    else
      ompdp_sb_printf(b, "%*s  ((unsigned char *)%s)[ompdp_i] = 0;\n", (int)ind, "", at0);
  }
  if (hoist)
    ompdp_sb_printf(b, "%*s}\n", (int)ind - 2, "");
  free(at);
  free(n);
  free(at0);
  return 0;
}

/* The zero fill of it (put_fill), for the rewrites of other files (keeping
 * data resident at a caller, rewrite_keep.c). */
int ompdp_rw_put_fill(ompdp_strbuf_t *b, const ompdp_region_info_t *it, uint32_t ind,
                      const char *dev) {
  return put_fill(b, it, ind, dev, NULL);
}

/* The construct's device clause as " device(...)" into dev (or "" when
 * it has none); -1 when it has any other clause that no item records (if,
 * depend, nowait, ...), which a fill in its place would have to follow
 * too. */
int ompdp_rw_device_clause(const ompdp_region_info_t *it, char *dev, size_t size) {
  const char *other = it->other_clauses ? it->other_clauses : "";
  dev[0] = 0;
  if (it->nowait)
    return -1;
  if (!*other)
    return 0;
  size_t n = strlen(other);
  if (strncmp(other, "device(", 7) || other[n - 1] != ')' || strchr(other + 7, '(') ||
      n + 2 > size)
    return -1;
  snprintf(dev, size, " %s", other);
  return 0;
}

/* The words of a zero-filled `target update to` that gets no fill: the
 * finding's suggestion says why. Returns -1, or -2 out of memory. */
static int refuse_update(ompdp_finding_t *f, const char *why) {
  return refuse(f, why);
}


/* The fill of it (ompdp_rw_put_fill, indented by ind, on device clause dev) and the
 * alloc-and-fill rewrite of f that will carry it: 0 with *text (malloc'd)
 * and *rw, -1 when no fill can be written for it, -2 when out of memory. */
static int start_fill(ompdp_finding_t *f, const ompdp_region_info_t *it, uint32_t ind,
                      const char *dev, const fill_value_t *val, char **text,
                      ompdp_rewrite_t **rw) {
  ompdp_strbuf_t fill = {0};
  if (put_fill(&fill, it, ind, dev, val)) {
    int oom = fill.oom;
    free(fill.d);
    return oom ? -2 : -1;
  }
  if (!(*text = ompdp_sb_take(&fill)))
    return -2;
  if (!(*rw = ompdp_finding_add_rewrite(f, OMPDP_RK_ALLOC_AND_FILL))) {
    free(*text);
    return -2;
  }
  return 0;
}

/* A zero-filled `target update to(x)`: x is present (an update of an
 * absent item copies nothing, and every copy here was seen), so a fill on
 * the device writes what the copy would have, and moves nothing. The item
 * leaves the directive (the directive goes when it was its only item) and
 * the fill takes its place, right after the directive's line, on the
 * update's device. The section's bounds are evaluated there as the update
 * evaluated them, so neither another buffer each time nor another size
 * matters; a whole variable must have been sent whole every time. */
/* The values the run saw are the program's only when the host stores
 * constants there on every path the compiler sees (fill flag HOST_VALUES,
 * clang-plugin/HostValues.cpp): else a fill rests on this run's input. The
 * refusal's words into why; 0 when the fill may stand. */
static int host_values_vary(const ompdp_region_info_t *it, const fill_value_t *val, char *why,
                            size_t size) {
  if (!(it->fill_flags & OMPDP_FILL_HOST_VALUES))
    return 0;
  snprintf(why, size,
           "host code stores values into `%s` that the compiler cannot evaluate to one "
           "constant (read from input, computed, or other constants on other paths), so that "
           "every copy held %s in this run does not mean it will with other inputs, and a "
           "fill would then give the device wrong data",
           it->variable && *it->variable ? it->variable : it->expr,
           val ? "one value repeated" : "only zeros");
  return 1;
}

static int plan_zero_update(const ompdp_rw_plan_t *c, ompdp_finding_t *f,
                            const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s,
                            const fill_value_t *val) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  if (it->map_type != OMPDP_MT_UPDATE_TO || !s->h2d)
    return refuse(f, "the `target update` is not a `to` of this item that the run saw copy");
  if (!ompdp_rw_explicit_item(it))
    return refuse_update(f, "the item's clause is not in the region table");
  char dev[256];
  if (ompdp_rw_device_clause(it, dev, sizeof(dev))) {
    const char *other = it->other_clauses && it->other_clauses[0] ? it->other_clauses : "nowait";
    ompdp_strbuf_t why = {0};
    ompdp_sb_printf(&why,
                    "the `target update` has `%s`, which a fill in its place would have to "
                    "follow too (only `device` is carried over)",
                    other);
    int rc = why.oom || refuse_update(f, why.d) == -2 ? -2 : -1;
    free(why.d);
    return rc;
  }
  if (it->modifiers & OMPDP_MOD_MAPPER)
    return refuse_update(f, "the update goes through a mapper, whose copies a fill of the "
                            "section does not reproduce");
  if (it->modifiers & OMPDP_MOD_PRESENT)
    return refuse_update(f, "`to(present: ...)` fails when the item is absent, which the "
                            "fill's `map(alloc: ...)` would not");
  uint64_t filled = val ? s->h2d_single : s->h2d_zero;
  if (filled != s->h2d || (val && s->single_period <= 0)) {
    char why[200];
    if (filled != s->h2d)
      snprintf(why, sizeof(why), "%" PRIu64 " of its %" PRIu64 " copies sent bytes other than %s",
               s->h2d - filled, s->h2d, val ? "one value repeated" : "zeros");
    else
      snprintf(why, sizeof(why), "its copies held different values, each one value repeated");
    return refuse_update(f, why);
  }
  if ((it->fill_flags & OMPDP_FILL_WHOLE) &&
      s->bytes_h2d != s->h2d * ((uint64_t)it->fill_count * it->fill_elem_size))
    return refuse_update(f, "its copies were not all of the whole variable");
  char vary[600];
  if (host_values_vary(it, val, vary, sizeof(vary)))
    return refuse_update(f, vary);
  uint32_t ind = it->column > 1 ? it->column - 1 : 0;
  char *fill_text;
  ompdp_rewrite_t *rw;
  int frc = start_fill(f, it, ind, dev, val, &fill_text, &rw);
  if (frc == -1)
    return refuse_update(f, "the compiler gave no element type, size and one-dimensional "
                            "section (or whole variable) for it that a fill can be written "
                            "with");
  if (frc)
    return frc;
  const char *why = NULL;
  int rc = ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why);
  if (!rc)
    rc = ompdp_rw_add_edit(rw, it, it->end_line + 1, 1, it->end_line + 1, 1, "", fill_text, &why);
  free(fill_text);
  const char *file = ompdp_rw_basename(it->file);
  ompdp_strbuf_t d = {0}, as = {0}, what = {0};
  if (val)
    put_value_words(&what, val);
  else
    ompdp_sb_puts(&what, "zeros");
  ompdp_sb_printf(&d,
                  "fill `%s` with %s on the device instead of copying it with the `target "
                  "update` at %s:%" PRIu32 ": %s, and the section "
                  "is present there, so the fill moves nothing",
                  it->expr, what.d ? what.d : "", file, it->line,
                  val ? "every copy it made held that value in every element"
                      : "every byte it copied in was zero");
  ompdp_sb_printf(&as,
                  "the host's `%s` holds only %s whenever the `target update` at %s:%" PRIu32
                  " runs%s (the run saw it so at all %" PRIu64 " copies); it is present on the "
                  "device then (an update of an absent item copies nothing, which the run "
                  "cannot see: the fill would allocate a copy of its own)",
                  it->expr, what.d ? what.d : "", file, it->line, val ? ", with any input" : "",
                  s->h2d);
  if (what.oom)
    d.oom = 1;
  free(what.d);
  if ((it->fill_flags & OMPDP_FILL_SECTION) &&
      (strchr(it->fill_lower, '(') || strchr(it->fill_length, '(')))
    ompdp_sb_printf(&as,
                    "; the bounds of `%s` evaluate the same once more (calls in them have no "
                    "side effects)",
                    it->expr);
  ompdp_oc_t rm = {{0}};
  ompdp_oc_add(rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
  return ompdp_rw_with_ops(
      c, f, ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), s->h2d, 0, s->bytes_h2d, ompdp_rw_to_ns(c, s->dur_h2d), &d, &as),
      (const uint64_t(*)[3])rm, NULL);
}

/* Zero-filled copies in (detect_zero.c): the item is allocated on the
 * device and filled there instead of copied.
 * - `target enter data map(to: x)`: the map becomes `alloc`, the fill
 *   follows the directive.
 * - `target` / `target data` with `map(to|tofrom: x)`: `target enter data
 *   map(alloc: x)` and the fill go before the construct, which then finds x
 *   present (and moves nothing for it), and `target exit data map(from: x)`
 *   (tofrom: the copy back happens there, at the same point, with the same
 *   bytes) or `map(release: x)` after it.
 * - `target update to(x)`: plan_zero_update.
 * Made only when every copy in at the site was all zeros and came with its
 * allocation, on one buffer; for target/target data only when no other
 * construct used that buffer but while this one's allocation was live (so
 * x was never present already, which would make the original copy nothing
 * and the fill overwrite the device's data; a `target update` inside the
 * `target data` is fine). */
static int plan_zero_fill(const ompdp_rw_plan_t *c, ompdp_finding_t *f, const ompdp_rw_items_t *ri,
                          const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  /* A single value (not zero) is written byte by byte, as the copies held
   * it: every copy in held the same. */
  fill_value_t value = {s->single_pattern, s->single_period > 0 ? (uint32_t)s->single_period : 0};
  const fill_value_t *val = f->kind == OMPDP_FK_SINGLE_VALUE_TRANSFER ? &value : NULL;
  if (val && !value.period && it->construct != OMPDP_CK_TARGET_UPDATE)
    return refuse(f, "the copies made here held different values, so no one fill reproduces "
                     "them all");
  if (it->construct == OMPDP_CK_TARGET_UPDATE)
    return plan_zero_update(c, f, ri, s, val);
  int enter = it->construct == OMPDP_CK_TARGET_ENTER_DATA;
  int structured = ompdp_rw_is_structured(it->construct);
  if ((!enter && !structured) || !ompdp_rw_has_to(it->map_type))
    return refuse(f, "the copy is not made by a `to` or `tofrom` map of a `target`, `target "
                     "data` or `target enter data`, where an allocation and a fill can take "
                     "its place");
  if (!ompdp_rw_explicit_item(it))
    return refuse(f, "the item is mapped implicitly, and ompdp writes `map(alloc: ...)` and a "
                     "fill only for an item its directive names");
  if (it->nowait)
    return refuse(f, "the construct is `nowait`, and the fill before it would have to wait "
                     "for the same tasks");
  if (it->modifiers & OMPDP_MOD_PRESENT)
    return refuse(f, "the map has the `present` modifier: the data is on the device already, "
                     "and a fill would overwrite it");
  if (it->modifiers & OMPDP_MOD_MAPPER)
    return refuse(f, "the item is mapped through a mapper, whose copies a fill of the item "
                     "does not reproduce");
  if (!enter && (it->modifiers & OMPDP_MOD_ALWAYS))
    return refuse(f, "the map has `always`, which copies even when the data is present, so a "
                     "fill before the construct would be overwritten by the copy");
  if (!s->h2d || (val ? s->h2d_single : s->h2d_zero) != s->h2d)
    return refuse(f, val ? "other executions of the construct copied other bytes than that one "
                           "value, so the copy is needed there"
                         : "other executions of the construct copied bytes other than zeros, so "
                           "the copy is needed there");
  char vary[600];
  if (host_values_vary(it, val, vary, sizeof(vary)))
    return refuse(f, vary);
  if (s->allocs != s->h2d)
    return refuse(f, "the item was already on the device at some executions (copied without "
                     "an allocation of its own), where a fill would overwrite what the device "
                     "holds");
  if (!it->fill_elem_size || s->alloc_bytes % it->fill_elem_size)
    return refuse(f, "the compiler gave no element type and size for the item that a fill "
                     "loop can be written with");
  /* Another buffer at each execution (a malloc per call) is the same case
   * for a structured construct, whose facts hold for every buffer (outside
   * below); other sizes need the section's length, evaluated each time. */
  if (s->multi_buf && !structured)
    return refuse(f, "the `target enter data` mapped a different host buffer at different "
                     "executions, and ompdp fills after it only on what it saw of one buffer");
  if (s->sizes_differ && !(structured && (it->fill_flags & OMPDP_FILL_SECTION)))
    return refuse(f, "the mapped size changes between executions, and the item is not an "
                     "array section whose length the fill could evaluate again");
  if ((it->fill_flags & OMPDP_FILL_WHOLE) &&
      s->alloc_bytes != (uint64_t)it->fill_count * it->fill_elem_size)
    return refuse(f, "the bytes mapped are not the whole variable the compiler sees, so a fill "
                     "of the variable would not match the copy");
  if (structured) {
    /* Other sites may use the buffer only while this one's allocation is
     * live (a `target update` inside its `target data`), where they find
     * it as the fill leaves it. */
    const ompdp_plan_buf_t *b = &c->facts->bufs[s->buf - 1];
    /* Unless every execution of the construct the run saw begin allocated
     * the item: it never found anyone's data present, and the fill's
     * `target enter data` allocates as the construct did (other sites
     * used the memory at that host address at other times: freed and
     * allocated again, a template's other instance), ... */
    int always_fresh = s->runs && s->runs == s->allocs && s->allocs == s->h2d &&
                       b->num_sites > 0;
    /* ... and no other construct copied device results into that memory
     * before its copies: the values it sends are then the host's own (the
     * host-values fact says whether constants), not what a kernel computed
     * this run. So when it was the memory's first user and no other came
     * between its operations (copies back into it later, by a buffer that
     * malloc put there after this one was freed, bring it nothing), or
     * when no other construct copied back there at all. (Only for a
     * construct that copies nothing back: where its data comes back and
     * flows on to the later constructs, keeping it on the device across
     * them saves more than the fill, which would take the site first.) */
    int first = b->num_sites > 0 && b->sites[0] && b->sites[0] <= c->facts->num_sites &&
                &c->facts->sites[b->sites[0] - 1] == s && !s->interleaved && !s->d2h;
    for (int k = 0; k < b->num_sites && always_fresh && !first; ++k) {
      uint32_t o = b->sites[k];
      always_fresh = !o || o > c->facts->num_sites || &c->facts->sites[o - 1] == s ||
                     !c->facts->sites[o - 1].d2h;
    }
    if ((s->outside && !always_fresh) || (b->num_sites != 1 && s->deletes != s->allocs))
      return refuse(f, "other constructs use the buffer while this construct has not mapped "
                       "it, so a fill before the construct could find their data present and "
                       "overwrite it");
    if (!it->block || !it->stmt_end_line || !it->stmt_end_column)
      return refuse(f, "the region table does not give where the construct's statement ends, "
                       "where the `target exit data` after it would go");
  }
  /* The fill and the new directives run on the construct's device; any
   * other clause (if, depend, nowait, ...) would need them to follow it
   * too, which this rule does not do. */
  char dev[256];
  if (ompdp_rw_device_clause(it, dev, sizeof(dev)))
    return refuse(f, "the directive has clauses other than `device` (`if`, `depend`, ...) "
                     "that the new directives and the fill would have to follow too");
  uint32_t ind = it->column > 1 ? it->column - 1 : 0;
  char *fill_text;
  ompdp_rewrite_t *rw;
  int frc = start_fill(f, it, ind, dev, val, &fill_text, &rw);
  if (frc == -1)
    return refuse(f, "the compiler gave no element type, size and one-dimensional section (or "
                     "whole variable) for it that a fill can be written with");
  if (frc)
    return frc;
  const char *why = NULL;
  int rc;
  ompdp_strbuf_t t = {0};
  /* The copies back stay as they were (`from` at the exit for a tofrom),
   * unless a rewrite of the same site drops them (an overbroad map whose
   * copies back the host never reads, or return its bytes unchanged): the
   * exit then releases, and the fill's prediction counts the copies back
   * too, the overbroad finding showing this rewrite instead of its own
   * (plan_report), so that they are counted once. */
  int drop_back = !enter && it->map_type == OMPDP_MT_TOFROM && c->no_copy_back &&
                  c->no_copy_back[s - c->facts->sites] && s->d2h;
  const char *back = it->map_type == OMPDP_MT_TOFROM && !drop_back ? "from" : "release";
  if (enter) {
    rc = ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item, OMPDP_MT_ALLOC, -1, &why);
    if (!rc)
      rc = ompdp_rw_add_edit(rw, it, it->end_line + 1, 1, it->end_line + 1, 1, "", fill_text, &why);
  } else {
    ompdp_sb_printf(&t, "%*s#pragma omp target enter data map(alloc: %s)%s\n%s", (int)ind, "",
                    it->expr, dev, fill_text);
    char *before = ompdp_sb_take(&t);
    rc = before ? ompdp_rw_add_edit(rw, it, it->line, 1, it->line, 1, "", before, &why)
                : (why = OMPDP_RW_OOM, -1);
    free(before);
    if (!rc) {
      ompdp_strbuf_t a = {0};
      ompdp_sb_printf(&a, "\n%*s#pragma omp target exit data map(%s: %s)%s\n", (int)ind, "", back,
                      it->expr, dev);
      char *after = ompdp_sb_take(&a);
      /* From the statement's end to the next line: only white space may
       * be there, so the new directive gets a line of its own. */
      rc = after ? ompdp_rw_add_edit(rw, it, it->stmt_end_line, it->stmt_end_column,
                                     it->stmt_end_line + 1, 1, "", after, &why)
                 : (why = OMPDP_RW_OOM, -1);
      free(after);
    }
  }
  free(fill_text);
  ompdp_strbuf_t d = {0}, as = {0}, what = {0};
  if (val)
    put_value_words(&what, val);
  else
    ompdp_sb_puts(&what, "zeros");
  const char *why_fill = val ? "every copy in held that value in every element"
                             : "every byte copied in was zero";
  if (enter)
    ompdp_sb_printf(&d,
                    "map `%s` with `alloc` at %s:%" PRIu32 " and fill it with %s on the device "
                    "right after: %s",
                    it->expr, ompdp_rw_basename(it->file), it->line, what.d ? what.d : "",
                    why_fill);
  else
    ompdp_sb_printf(&d,
                    "allocate `%s` and fill it with %s on the device before the %s construct at "
                    "%s:%" PRIu32
                    ", which then finds it present; `target exit data map(%s: %s)` after "
                    "it: %s",
                    it->expr, what.d ? what.d : "", ompdp_construct_kind_name(it->construct),
                    ompdp_rw_basename(it->file), it->line, back, it->expr, why_fill);
  if (what.oom)
    d.oom = 1;
  free(what.d);
  if (enter)
    ompdp_sb_printf(&as,
                    "`%s` is not on the device already when the `target enter data` runs (the run "
                    "saw it allocated with every copy)",
                    it->expr);
  if ((it->fill_flags & OMPDP_FILL_SECTION) &&
      (strchr(it->fill_lower, '(') || strchr(it->fill_length, '(')))
    ompdp_sb_printf(&as,
                    "%sthe bounds of `%s` evaluate the same once more (calls in them have no "
                    "side effects)",
                    as.len ? "; " : "", it->expr);
  /* Zeros are most often the program's own (calloc, memset); another
   * value may have come from the run's input, which the fill would then
   * keep for every input. */
  if (val)
    ompdp_sb_printf(&as,
                    "%sthe host's `%s` holds that value in every element whenever the %s runs, "
                    "with any input (the run saw it so at all %" PRIu64 " copies in)",
                    as.len ? "; " : "", it->expr, enter ? "`target enter data`" : "construct",
                    s->h2d);
  ompdp_oc_t rm = {{0}};
  ompdp_oc_add(rm, OMPDP_OC_H2D, s->h2d, s->bytes_h2d, s->dur_h2d);
  uint64_t n = s->h2d, bytes = s->bytes_h2d, dur = s->dur_h2d;
  if (drop_back) {
    ompdp_oc_add(rm, OMPDP_OC_D2H, s->d2h, s->bytes_d2h, s->dur_d2h);
    n += s->d2h;
    bytes += s->bytes_d2h;
    dur += s->dur_d2h;
  }
  return ompdp_rw_with_ops(
      c, f, ompdp_rw_finish(f, ompdp_rw_text_said(f, rc, why), n, 0, bytes, ompdp_rw_to_ns(c, dur), &d, &as),
      (const uint64_t(*)[3])rm, NULL);
}

uint32_t ompdp_rw_site_find(const ompdp_rw_plan_t *c, uint32_t region, int item) {
  return ompdp_plan_site_find(c->facts, c->by_site, region, item);
}

/* The facts' site of a finding (index + 1), 0 when there is none. */
static uint32_t site_index(const ompdp_rw_plan_t *c, const ompdp_finding_t *f) {
  if (!f->rt_region || f->item < 0)
    return 0;
  uint32_t si = ompdp_rw_site_find(c, f->rt_region, f->item);
  return si && c->facts->sites[si - 1].buf ? si : 0;
}

/* at_caller = removal, but for the sites claimed only by map type changes
 * of a `tofrom` item whose copy in nothing reads (WRITES_FIRST: the change
 * makes it `from`), which keeping it at the caller may replace. One pass
 * over the findings: 0, or -1 when out of memory. */
static int yielding_sites(const ompdp_rw_plan_t *c, const ompdp_report_t *r,
                          const size_t *removal, size_t *at_caller) {
  uint32_t n = c->facts->num_sites;
  unsigned char *how = calloc(n ? n : 1, 1); /* 1: a type change claims it; 2: another rule */
  if (!how)
    return -1;
  for (size_t i = 0; i < r->num_findings; ++i) {
    const ompdp_finding_t *f = &r->findings[i];
    uint32_t si = f->num_rewrites ? site_index(c, f) : 0;
    for (size_t q = 0; si && q < f->num_rewrites; ++q)
      how[si - 1] |= f->rewrites[q].kind == OMPDP_RK_CHANGE_MAP_TYPE ? 1 : 2;
  }
  for (uint32_t si = 1; si <= n; ++si) {
    const ompdp_rw_site_t *s = &c->facts->sites[si - 1];
    ompdp_region_info_t it;
    at_caller[si - 1] = removal[si - 1];
    if (removal[si - 1] && how[si - 1] == 1 && s->item >= 0 &&
        !ompdp_plan_describe(c->facts, s->region, s->item, &it) &&
        it.map_type == OMPDP_MT_TOFROM && (it.access_flags & OMPDP_IA_WRITES_FIRST))
      at_caller[si - 1] = 0;
  }
  free(how);
  return 0;
}

/*===- templates --------------------------------------------------------===*/

/* The same rewrite: its kind and its edits (ompdp_rewrite_same_edits). */
static int same_edits(const ompdp_rewrite_t *a, const ompdp_rewrite_t *b) {
  return a->kind == b->kind && ompdp_rewrite_same_edits(a, b);
}

void ompdp_rw_prediction_add(ompdp_rewrite_t *total, const ompdp_rewrite_t *rw) {
  total->transfers_removed += rw->transfers_removed;
  total->allocs_removed += rw->allocs_removed;
  total->bytes_removed += rw->bytes_removed;
  total->time_saved_ns += rw->time_saved_ns;
  total->projected_saved_ns += rw->projected_saved_ns;
  total->peak_saved_bytes += rw->peak_saved_bytes;
  total->lower_bound |= rw->lower_bound;
  ompdp_rw_ops_add(&total->ops, &rw->ops);
  ompdp_rw_ops_add(&total->ops_added, &rw->ops_added);
}

void ompdp_rw_prediction_set(ompdp_rewrite_t *rw, const ompdp_rewrite_t *total) {
  rw->transfers_removed = total->transfers_removed;
  rw->allocs_removed = total->allocs_removed;
  rw->bytes_removed = total->bytes_removed;
  rw->time_saved_ns = total->time_saved_ns;
  rw->projected_saved_ns = total->projected_saved_ns;
  rw->peak_saved_bytes = total->peak_saved_bytes;
  rw->lower_bound = total->lower_bound;
  rw->ops = total->ops;
  rw->ops_added = total->ops_added;
  rw->instances_summed = 1;
}

/* The predicted effect of rewrite k of f, which every instance of its
 * template construct got: the sum over the instances (one of each
 * region's copies), given to every copy. -1 when out of memory. */
static int sum_instances(ompdp_report_t *r, const ompdp_finding_t *f, size_t k) {
  const ompdp_rewrite_t *want = &f->rewrites[k];
  ompdp_rewrite_t total = {0};
  uint32_t *regions = malloc(r->num_findings * sizeof(*regions));
  ompdp_rewrite_t **copies = malloc(r->num_findings * sizeof(*copies));
  if (!regions || !copies) {
    free(regions);
    free(copies);
    return -1;
  }
  size_t nr = 0, nc = 0;
  total.ops.known = want->ops.known;
  total.ops_added.known = want->ops_added.known;
  total.lower_bound = want->lower_bound;
  for (size_t j = 0; j < r->num_findings; ++j) {
    ompdp_finding_t *g = &r->findings[j];
    for (size_t q = 0; q < g->num_rewrites; ++q) {
      ompdp_rewrite_t *rw = &g->rewrites[q];
      if (!same_edits(rw, want))
        continue;
      copies[nc++] = rw;
      size_t s = 0;
      while (s < nr && regions[s] != g->rt_region)
        ++s;
      if (s < nr)
        break; /* this instance is counted */
      regions[nr++] = g->rt_region;
      ompdp_rw_prediction_add(&total, rw);
      break;
    }
  }
  for (size_t j = 0; j < nc; ++j)
    ompdp_rw_prediction_set(copies[j], &total);
  free(regions);
  free(copies);
  return 0;
}

/* Whether a and b are constructs of one kind at one place of one file: the
 * instances of a template's construct. */
static int same_construct_place(const ompdp_region_info_t *a, const ompdp_region_info_t *b) {
  return a->line == b->line && a->column == b->column && a->construct == b->construct &&
         !strcmp(a->file, b->file);
}

/* Whether the firstprivate rewrite that instance `region` of a template's
 * construct got stands for `other`, an instance that never ran: every item
 * of region that could go firstprivate (firstprivate_site: the rewrite's
 * items are among them) is an item of other, the same variable in the same
 * clause, that the compiler says could go too in other's types
 * (firstprivate_static: only read, one small trivially copyable object, no
 * pointer). What the run adds for a construct that ran (the object was never
 * present at a launch, no copy back brought other bytes) the text shares:
 * an enclosing map of the object would be there in every instance. */
static int firstprivate_unrun_agrees(const ompdp_rw_plan_t *c, uint32_t region, uint32_t other) {
  ompdp_rw_items_t ri, ro;
  if (ompdp_rw_load_region(c, region, &ri))
    return 0;
  if (ompdp_rw_load_region(c, other, &ro)) {
    free(ri.items);
    return 0;
  }
  int ok = 1, any = 0;
  for (uint32_t j = 0; j < ri.reg.num_items && ok; ++j) {
    const ompdp_region_info_t *it = &ri.items[j];
    if (!firstprivate_site(c, &ri, region, j))
      continue;
    any = 1;
    ok = 0;
    for (uint32_t k = 0; k < ro.reg.num_items && !ok; ++k) {
      const ompdp_region_info_t *o = &ro.items[k];
      ok = !strcmp(o->variable, it->variable) && !strcmp(o->expr, it->expr) &&
           o->implicit == it->implicit && o->clause_line == it->clause_line &&
           o->clause_column == it->clause_column && firstprivate_static(&ro, k);
    }
  }
  free(ri.items);
  free(ro.items);
  return ok && any;
}

/* How many instances of f's construct (head me) never ran and agree with
 * rewrite rw of f without having run (firstprivate_unrun_agrees); the
 * others' findings count those that ran. */
static uint32_t unrun_instances_agree(const ompdp_rw_plan_t *c, const ompdp_finding_t *f,
                                      const ompdp_region_info_t *me,
                                      const ompdp_rewrite_t *rw) {
  uint32_t m = 0;
  if (rw->kind != OMPDP_RK_FIRSTPRIVATE)
    return 0;
  for (size_t i = 0; i < c->facts->num_regions; ++i) {
    const ompdp_plan_region_t *g = &c->facts->regions[i];
    if (g->handle == f->rt_region || g->head.run_state != 2 || !same_construct_place(&g->head, me))
      continue;
    m += firstprivate_unrun_agrees(c, f->rt_region, g->handle);
  }
  return m;
}

/* A construct in a template is one text for all its instances, each a
 * region of its own that the run saw (or not) with its own types and
 * values: an edit made for one instance (the fill of a `float` array with
 * the bit pattern of a `double` 1.0, sized for doubles) would break
 * another. A rewrite of such a construct stands only where every instance
 * the table holds got the same one, or, for firstprivate, never ran and
 * its own table facts allow it (unrun_instances_agree); else the finding
 * keeps words, with the reason. Only rewrites of the kinds in mask are
 * looked at; sum: the rewrites that stand count every instance's saving
 * (once, at the end).
 * -1 when out of memory. */
static int template_instances_agree(const ompdp_rw_plan_t *c, ompdp_report_t *r,
                                    unsigned mask, int sum) {
  uint32_t *seen = NULL;
  size_t cap = 0;
  int rc = 0;
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    ompdp_region_info_t me;
    if (!f->num_rewrites || !f->rt_region ||
        ompdp_plan_describe(c->facts, f->rt_region, -1, &me) || me.instances < 2)
      continue;
    for (size_t k = 0; k < f->num_rewrites && !rc;) {
      if (!(mask & 1u << f->rewrites[k].kind)) {
        ++k;
        continue;
      }
      /* The instances (regions at this place) whose findings carry the
       * same rewrite. */
      size_t n = 0;
      for (size_t j = 0; j < r->num_findings && n <= me.instances; ++j) {
        const ompdp_finding_t *g = &r->findings[j];
        ompdp_region_info_t o;
        if (!g->rt_region || ompdp_plan_describe(c->facts, g->rt_region, -1, &o) ||
            !same_construct_place(&o, &me))
          continue;
        int has = 0;
        for (size_t q = 0; q < g->num_rewrites && !has; ++q)
          has = same_edits(&g->rewrites[q], &f->rewrites[k]);
        size_t s = 0;
        while (has && s < n && seen[s] != g->rt_region)
          ++s;
        if (!has || s < n)
          continue;
        if (n == cap) {
          size_t nc = cap ? 2 * cap : 8;
          uint32_t *v = realloc(seen, nc * sizeof(*v));
          if (!v) {
            rc = -1;
            break;
          }
          seen = v;
          cap = nc;
        }
        seen[n++] = g->rt_region;
      }
      if (rc)
        break;
      if (n < me.instances)
        n += unrun_instances_agree(c, f, &me, &f->rewrites[k]);
      if (n >= me.instances) {
        /* Agreed: the edit removes what every instance would, and each
         * instance's own rewrite counted its own operations only. */
        if (sum && !f->rewrites[k].instances_summed && sum_instances(r, f, k))
          rc = -1;
        ++k;
        continue;
      }
      char why[512];
      snprintf(why, sizeof(why),
               "the construct is in a template that the program instantiates %" PRIu32
               " times, each instance a construct of its own with its own types and values, "
               "and %s got this rewrite (its %s rewrite): one edit of the template's text "
               "changes every instance",
               me.instances,
               n == 1 ? "only one of them" : "not all of them",
               ompdp_rewrite_kind_json(f->rewrites[k].kind));
      ompdp_rewrite_free(&f->rewrites[k]);
      memmove(&f->rewrites[k], &f->rewrites[k + 1],
              (f->num_rewrites - k - 1) * sizeof(*f->rewrites));
      f->num_rewrites--;
      if (ompdp_rw_advise(f, why))
        rc = -1;
    }
  }
  free(seen);
  return rc;
}

/* The change_map_type rewrite of f, or NULL. */
static ompdp_rewrite_t *map_type_rewrite(ompdp_finding_t *f) {
  for (size_t j = 0; j < f->num_rewrites; ++j)
    if (f->rewrites[j].kind == OMPDP_RK_CHANGE_MAP_TYPE && f->rewrites[j].num_edits)
      return &f->rewrites[j];
  return NULL;
}

/* The map type, and `always` (as ompdp_rw_set_map_type takes it), that a
 * change_map_type rewrite gives an item of a clause of several: the clause
 * it inserts for it (" map(always, from: x)"), against the item's clause
 * old. 0, or -1 when it inserts none. */
static int new_map_type(const ompdp_rewrite_t *rw, const char *old, ompdp_map_type_t *type,
                        int *always) {
  for (size_t i = 0; i < rw->num_edits; ++i) {
    const ompdp_edit_t *e = &rw->edits[i];
    if (e->range.line != e->range.end_line || e->range.column != e->range.end_column ||
        !strstr(e->replacement, "map("))
      continue;
    ompdp_rw_clause_t n = {0}, o = {0};
    int rc = -1;
    if (!ompdp_rw_parse_clause(e->replacement, &n) && !ompdp_rw_parse_clause(old, &o) &&
        n.type) {
      int had = 0, has = 0;
      for (int k = 0; k < o.num_mods; ++k)
        had |= !strcmp(o.mods[k], "always");
      for (int k = 0; k < n.num_mods; ++k)
        has |= !strcmp(n.mods[k], "always");
      *type = ompdp_map_type_parse(n.type);
      *always = has == had ? 0 : has ? 1 : -1;
      rc = *type == OMPDP_MT_NONE ? -1 : 0;
    }
    ompdp_rw_clause_free(&n);
    ompdp_rw_clause_free(&o);
    return rc;
  }
  return -1;
}

/* Items of one map clause that each get another map type (two copies back
 * nobody reads in `map(from: a, b)`) were planned one by one, each taking
 * its item out of the clause: edits that overlap, of which `ompdp fix`
 * could apply one per run. Their rewrites become one that writes the
 * clause once (ompdp_rw_set_map_types), which each of their findings
 * shows, saving what they saved together. -1 when out of memory. */
static int merge_clause_map_types(const ompdp_rw_plan_t *c, ompdp_report_t *r) {
  size_t n = r->num_findings;
  char *done = calloc(n ? n : 1, 1);
  size_t *members = malloc((n ? n : 1) * sizeof(*members));
  /* One per item: its new map type, and the finding whose rewrite it is. */
  struct change {
    ompdp_rw_map_change_t ch;
    size_t finding;
  } *items = malloc((n ? n : 1) * sizeof(*items));
  ompdp_rw_map_change_t *ch = malloc((n ? n : 1) * sizeof(*ch));
  int rc = done && members && items && ch ? 0 : -1;
  for (size_t i = 0; i < n && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    ompdp_rw_items_t ri;
    if (done[i] || !f->rt_region || f->item < 0 || !map_type_rewrite(f) ||
        ompdp_rw_load_region(c, f->rt_region, &ri))
      continue;
    const ompdp_region_info_t *it =
        (uint32_t)f->item < ri.reg.num_items ? &ri.items[f->item] : NULL;
    size_t m = 0, nk = 0;
    int ok = it && ompdp_rw_explicit_item(it);
    for (size_t j = i; j < n && ok; ++j) {
      ompdp_finding_t *g = &r->findings[j];
      if (done[j] || g->rt_region != f->rt_region || g->item < 0 ||
          (uint32_t)g->item >= ri.reg.num_items || !map_type_rewrite(g) ||
          !ompdp_rw_explicit_item(&ri.items[g->item]) ||
          !ompdp_rw_same_clause(&ri.items[g->item], it))
        continue;
      members[m++] = j;
      size_t q = 0;
      while (q < nk && items[q].ch.item != (uint32_t)g->item)
        ++q;
      if (q < nk) {
        /* The same item's rewrite, shared by its findings. */
        ok = ompdp_rewrite_same_edits(map_type_rewrite(g),
                                      map_type_rewrite(&r->findings[items[q].finding]));
        continue;
      }
      /* In the clause's order (the compiler records its items in order). */
      struct change x = {{(uint32_t)g->item, OMPDP_MT_NONE, 0}, j};
      ok = !new_map_type(map_type_rewrite(g), it->clause, &x.ch.type, &x.ch.always);
      for (q = nk++; q > 0 && items[q - 1].ch.item > x.ch.item; --q)
        items[q] = items[q - 1];
      items[q] = x;
    }
    if (!ok || nk < 2) {
      free(ri.items);
      continue;
    }
    for (size_t q = 0; q < nk; ++q)
      ch[q] = items[q].ch;
    ompdp_rewrite_t all = {0};
    all.kind = OMPDP_RK_CHANGE_MAP_TYPE;
    all.ops.known = all.ops_added.known = 1;
    const char *why = NULL;
    int made = !ompdp_rw_set_map_types(&all, &ri.reg, ch, nk, &why);
    free(ri.items);
    if (!made) {
      ompdp_rewrite_free(&all);
      if (why && !strcmp(why, OMPDP_RW_OOM))
        rc = -1;
      continue; /* left as they were: alternatives */
    }
    for (size_t q = 0; q < nk && !rc; ++q)
      if (ompdp_rw_add_savings(&all, map_type_rewrite(&r->findings[items[q].finding])))
        rc = -1;
    if (!rc && ompdp_rw_normalize_edits(&all))
      rc = -1;
    for (size_t q = 0; q < m && !rc; ++q) {
      ompdp_rewrite_t *rw = map_type_rewrite(&r->findings[members[q]]);
      ompdp_rewrite_free(rw);
      if (ompdp_rewrite_copy(rw, &all))
        rc = -1;
      done[members[q]] = 1;
    }
    ompdp_rewrite_free(&all);
  }
  free(done);
  free(members);
  free(items);
  free(ch);
  return rc;
}

static int plan_report(ompdp_report_t *r, const ompdp_plan_t *facts) {
  ompdp_rw_plan_t c = {.facts = facts, .mult = facts->tick_mult};
  c.by_site = ompdp_plan_site_order(facts);
  if (!c.by_site)
    return -1;
  /* A site whose item goes away entirely (unused allocation) needs no
   * other rewrite: its unused transfers get the same removal, and it is not
   * kept resident. removal[site] = finding + 1 holding that rewrite. */
  size_t *removal = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(*removal));
  /* copies_in_go[site]: its rewrite leaves no copy in there. */
  unsigned char *copies_in_go = calloc(facts->num_sites ? facts->num_sites : 1, 1);
  /* narrowed[site]: finding + 1 whose overbroad rewrite drops the site's
   * copies back; no_copy_back[site] says so to the fill. */
  size_t *narrowed = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(*narrowed));
  unsigned char *no_copy_back = calloc(facts->num_sites ? facts->num_sites : 1, 1);
  /* backs_go[site]: finding + 1 whose overbroad rewrite drops every copy
   * back there, because the host never reads what they bring or already
   * has it (`tofrom` -> `to`). */
  size_t *backs_go = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(*backs_go));
  c.no_copy_back = no_copy_back;
  c.claimed = removal;
  if (!removal || !copies_in_go || !narrowed || !no_copy_back || !backs_go) {
    free(backs_go);
    free(removal);
    free(copies_in_go);
    free(narrowed);
    free(no_copy_back);
    free(c.by_site);
    return -1;
  }
  int rc = 0;
  for (int pass = 0; pass < 2 && !rc; ++pass)
    for (size_t i = 0; i < r->num_findings && !rc; ++i) {
      ompdp_finding_t *f = &r->findings[i];
      ompdp_rewrite_rule_t want = pass ? OMPDP_RR_SKIP_COPY_IN : OMPDP_RR_REMOVE_MAPPING;
      uint32_t si = site_index(&c, f);
      if (ompdp_rw_rule(f) != want || !si)
        continue;
      if (pass && removal[si - 1]) {
        const ompdp_finding_t *by = &r->findings[removal[si - 1] - 1];
        ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_REMOVE_ITEM);
        if (!rw || ompdp_rewrite_copy(rw, &by->rewrites[by->num_rewrites - 1]))
          rc = -1;
        continue;
      }
      ompdp_rw_items_t ri;
      if (ompdp_rw_load_region(&c, f->rt_region, &ri))
        continue;
      const ompdp_rw_site_t *s = &facts->sites[si - 1];
      int prc = pass ? plan_unused_transfer(&c, f, &ri, s) : plan_unused_alloc(&c, f, &ri, s);
      free(ri.items);
      /* A `target update` item that goes (its copy unused) is gone too:
       * no fill replaces it. */
      if (prc == -2)
        rc = -1;
      else if (prc == 0 &&
               (!pass || f->rewrites[f->num_rewrites - 1].kind == OMPDP_RK_REMOVE_ITEM))
        removal[si - 1] = i + 1;
    }
  /* A loop whose constructs keep data resident, where some item's every
   * copy in was zeros: one rewrite keeps them across the loop and fills
   * those once before it (the largest saving first: a fill of its own at
   * the construct would run, and allocate, in every iteration). */
  if (!rc)
    rc = ompdp_rw_keep_resident_all(&c, r, removal, 1);
  /* Overbroad maps, then zero-filled copies in (alloc and fill), each
   * planned at a site no earlier rule claimed. A site whose item is
   * removed, or whose copies in are replaced by a fill, is not also kept
   * resident. */
  static const struct {
    ompdp_rewrite_rule_t rule;
    int (*plan)(const ompdp_rw_plan_t *, ompdp_finding_t *, const ompdp_rw_items_t *,
                const ompdp_rw_site_t *);
  } item_rules[] = {{OMPDP_RR_NARROW_MAP, plan_overbroad},
                    {OMPDP_RR_ALLOC_AND_FILL, plan_zero_fill}};
  for (size_t k = 0; k < sizeof(item_rules) / sizeof(item_rules[0]); ++k)
    for (size_t i = 0; i < r->num_findings && !rc; ++i) {
      ompdp_finding_t *f = &r->findings[i];
      uint32_t si = site_index(&c, f);
      ompdp_rw_items_t ri;
      if (ompdp_rw_rule(f) != item_rules[k].rule || !si || is_section(&c, f))
        continue;
      if (removal[si - 1]) {
        /* The site's item goes, or its copies in do (an earlier rule's
         * rewrite, which the loop below may share with it). */
        if (ompdp_rw_advise_claimed(f, &r->findings[removal[si - 1] - 1],
                                    "a second rewrite of it"))
          rc = -1;
        continue;
      }
      if (ompdp_rw_load_region(&c, f->rt_region, &ri))
        continue;
      const ompdp_rw_site_t *s = &facts->sites[si - 1];
      int prc = (uint32_t)s->item < ri.reg.num_items ? item_rules[k].plan(&c, f, &ri, s) : -1;
      int narrow_rule = prc == 0 && item_rules[k].rule == OMPDP_RR_NARROW_MAP
                            ? ompdp_overbroad_rule(&ri.items[s->item])
                            : OMPDP_OVERBROAD_NONE;
      int overwritten = narrow_rule == OMPDP_OVERBROAD_OVERWRITTEN;
      if ((narrow_rule == OMPDP_OVERBROAD_UNREAD || narrow_rule == OMPDP_OVERBROAD_TO) &&
          ri.items[s->item].map_type == OMPDP_MT_TOFROM &&
          f->rewrites[f->num_rewrites - 1].kind == OMPDP_RK_CHANGE_MAP_TYPE) {
        narrowed[si - 1] = i + 1;
        no_copy_back[si - 1] = 1;
      }
      if (prc == 0 && f->rewrites[f->num_rewrites - 1].kind == OMPDP_RK_FIRSTPRIVATE) {
        uint32_t group[FIRSTPRIVATE_MAX_ITEMS];
        claim_group(&c, removal, f->rt_region, group, firstprivate_group(&c, &ri, s, group),
                    i + 1);
      }
      free(ri.items);
      /* A fill at a site whose copies back an overbroad rewrite drops
       * releases at its exit and counts them: that finding shows the fill
       * (its own `tofrom` -> `to` would change a map that moves nothing
       * any more). */
      if (prc == 0 && item_rules[k].rule == OMPDP_RR_ALLOC_AND_FILL && narrowed[si - 1]) {
        ompdp_finding_t *nf = &r->findings[narrowed[si - 1] - 1];
        ompdp_rewrite_t *last = &nf->rewrites[nf->num_rewrites - 1];
        ompdp_rewrite_free(last);
        if (ompdp_rewrite_copy(last, &f->rewrites[f->num_rewrites - 1]))
          prc = -2;
      }
      if (prc == -2)
        rc = -1;
      else if (prc == 0 && (item_rules[k].rule == OMPDP_RR_ALLOC_AND_FILL || overwritten ||
                            f->rewrites[f->num_rewrites - 1].kind == OMPDP_RK_REMOVE_ITEM ||
                            f->rewrites[f->num_rewrites - 1].kind == OMPDP_RK_FIRSTPRIVATE))
        removal[si - 1] = i + 1;
      if (overwritten)
        copies_in_go[si - 1] = 1;
      if (narrow_rule == OMPDP_OVERBROAD_UNREAD || narrow_rule == OMPDP_OVERBROAD_TO)
        backs_go[si - 1] = i + 1;
    }
  /* A small object that a kernel only reads, mapped `to` (no copy back
   * to narrow, so no overbroad finding) and allocated and sent at every
   * launch: its repeats (duplicates, round trips, repeated allocations)
   * are fixed by passing it as firstprivate, before any keeps it
   * resident. */
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = site_index(&c, f);
    ompdp_rw_items_t ri;
    if (ompdp_rw_rule(f) != OMPDP_RR_KEEP_RESIDENT || f->num_rewrites || !si ||
        removal[si - 1] || ompdp_rw_load_region(&c, f->rt_region, &ri))
      continue;
    const ompdp_rw_site_t *s = &facts->sites[si - 1];
    uint32_t group[FIRSTPRIVATE_MAX_ITEMS];
    size_t ng = 0;
    int prc = (uint32_t)s->item < ri.reg.num_items
                  ? plan_firstprivate(&c, f, &ri, s, group, &ng)
                  : -1;
    free(ri.items);
    if (prc == -2)
      rc = -1;
    else if (prc == 0)
      claim_group(&c, removal, f->rt_region, group, ng, i + 1);
  }
  /* An object passed as firstprivate moves nothing at its site any more:
   * the site's other findings (its duplicates, round trips, repeated
   * allocations) show the same rewrite. A fill on the device replaces
   * every copy in at its site (each was zeros), so the site's duplicate
   * copies in go with it too; and so do those of a site whose copies in
   * nothing reads (a kernel overwrites them), its zero-filled ones too. */
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = site_index(&c, f);
    if (!si || !removal[si - 1] || removal[si - 1] == i + 1 || f->num_rewrites)
      continue;
    const ompdp_finding_t *by = &r->findings[removal[si - 1] - 1];
    const ompdp_rewrite_t *src = &by->rewrites[by->num_rewrites - 1];
    int in_only = f->ops.known && f->ops.c[OMPDP_OC_H2D].count && !f->ops.c[OMPDP_OC_D2H].count &&
                  !f->ops.c[OMPDP_OC_D2D].count;
    /* A fill replaces every copy in at the site: findings made only of
     * those copies (their bytes again, one value, sent for nothing) go
     * with it. An item removed from its construct moves nothing there. */
    int copies_in_kind = f->kind == OMPDP_FK_DUPLICATE_TRANSFER ||
                         f->kind == OMPDP_FK_SINGLE_VALUE_TRANSFER ||
                         f->kind == OMPDP_FK_UNUSED_TRANSFER || f->kind == OMPDP_FK_ZERO_TRANSFER;
    if (src->kind != OMPDP_RK_FIRSTPRIVATE && src->kind != OMPDP_RK_REMOVE_ITEM &&
        !(src->kind == OMPDP_RK_ALLOC_AND_FILL && copies_in_kind && in_only) &&
        !(copies_in_go[si - 1] && (f->kind == OMPDP_FK_ZERO_TRANSFER ||
                                   (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && in_only))))
      continue;
    ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, src->kind);
    if (!rw || ompdp_rewrite_copy(rw, src))
      rc = -1;
  }
  /* Copies back that nobody reads, or that bring what the host has, go
   * with the overbroad rewrite that drops them: the site's duplicate copies
   * back (the same bytes again) and its round trips made only of copies
   * back show it too, instead of a verdict on a copy the rewrite removes. */
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = site_index(&c, f);
    if (!si || !backs_go[si - 1] || backs_go[si - 1] == i + 1 || f->num_rewrites ||
        (f->kind != OMPDP_FK_DUPLICATE_TRANSFER && f->kind != OMPDP_FK_ROUND_TRIP) ||
        !f->ops.known ||
        !f->ops.c[OMPDP_OC_D2H].count || f->ops.c[OMPDP_OC_H2D].count ||
        f->ops.c[OMPDP_OC_D2D].count)
      continue;
    const ompdp_finding_t *by = &r->findings[backs_go[si - 1] - 1];
    ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, by->rewrites[by->num_rewrites - 1].kind);
    if (!rw || ompdp_rewrite_copy(rw, &by->rewrites[by->num_rewrites - 1]))
      rc = -1;
  }
  /* Several zero-filled items of one construct, several implicit items
   * that get a map type or firstprivate at the end of one directive: one
   * rewrite each. The fills of a template's construct are combined from
   * those every instance got alike (one instance's extra fill would make
   * its combined text another's). */
  if (!rc)
    rc = template_instances_agree(&c, r, 1u << OMPDP_RK_ALLOC_AND_FILL, 0);
  if (!rc)
    rc = ompdp_rw_combine_at_construct(r, 1u << OMPDP_RK_ALLOC_AND_FILL);
  if (!rc)
    rc = merge_clause_map_types(&c, r);
  if (!rc)
    rc = ompdp_rw_combine_at_construct(r, 1u << OMPDP_RK_CHANGE_MAP_TYPE |
                                              1u << OMPDP_RK_FIRSTPRIVATE);
  /* Memory held while unused: its enter data or exit data moves to its
   * first or last use (rewrite_lifetime.c), at sites no rule above
   * rewrites. */
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = site_index(&c, f);
    ompdp_rw_items_t ri;
    if (ompdp_rw_rule(f) != OMPDP_RR_SHRINK_LIFETIME || !si || removal[si - 1] ||
        ompdp_rw_load_region(&c, f->rt_region, &ri))
      continue;
    const ompdp_rw_site_t *s = &facts->sites[si - 1];
    int prc = (uint32_t)s->item < ri.reg.num_items ? ompdp_rw_shrink_lifetime(&c, f, &ri, s) : -1;
    free(ri.items);
    if (prc == -2)
      rc = -1;
  }
  /* A site that another rule already rewrites (its map type changed, say)
   * is not also kept resident: the two would not add up (a `target data`
   * around it would make the narrowed map move nothing anyway). */
  for (size_t i = 0; i < r->num_findings; ++i) {
    uint32_t si = site_index(&c, &r->findings[i]);
    if (si && !removal[si - 1] && r->findings[i].num_rewrites)
      removal[si - 1] = i + 1;
  }
  if (!rc)
    rc = ompdp_rw_hoist_allocs(&c, r);
  /* A `tofrom` item whose copy in nothing reads (WRITES_FIRST), which only
   * its map type's change claims, may still be kept at the caller: that
   * rewrite removes the copies in too, and its allocations, and replaces
   * the change (one `ompdp fix` instead of the change and then the keep). */
  size_t *at_caller = removal;
  if (!rc) {
    at_caller = malloc((facts->num_sites ? facts->num_sites : 1) * sizeof(*at_caller));
    if (!at_caller || yielding_sites(&c, r, removal, at_caller))
      rc = -1;
  }
  if (!rc)
    rc = ompdp_rw_keep_at_caller_all(&c, r, at_caller);
  if (at_caller != removal)
    free(at_caller);
  if (!rc)
    rc = ompdp_rw_keep_resident_all(&c, r, removal, 0);
  if (!rc)
    rc = ompdp_rw_row_resident_all(&c, r, removal);
  /* Several items of one construct kept resident around one loop: one
   * rewrite, its directives one after the other before the loop. */
  if (!rc)
    rc = ompdp_rw_combine_at_construct(r, 1u << OMPDP_RK_KEEP_RESIDENT);
  /* A section longer than its loops: shrunk last, where no rule above
   * rewrites the site (keeping it resident saves whole transfers; the
   * shorter section would change the clause it keeps). */
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = site_index(&c, f);
    ompdp_rw_items_t ri;
    if (!si || f->num_rewrites || !is_section(&c, f))
      continue;
    size_t by = 0;
    for (size_t j = 0; j < r->num_findings && !by; ++j)
      if (j != i && r->findings[j].num_rewrites && site_index(&c, &r->findings[j]) == si)
        by = j + 1;
    if (by) {
      if (ompdp_rw_advise_claimed(f, &r->findings[by - 1], "a shorter section as well"))
        rc = -1;
      continue;
    }
    if (ompdp_rw_load_region(&c, f->rt_region, &ri))
      continue;
    const ompdp_rw_site_t *s = &facts->sites[si - 1];
    int prc = (uint32_t)s->item < ri.reg.num_items ? plan_section(&c, f, &ri, s) : -1;
    free(ri.items);
    if (prc == -2)
      rc = -1;
  }
  if (!rc)
    rc = template_instances_agree(&c, r, ~0u, 1);
  if (!rc)
    rc = ompdp_rw_compile_commands(r, facts); /* for `ompdp fix` to recheck */
  free(removal);
  free(copies_in_go);
  free(narrowed);
  free(no_copy_back);
  free(backs_go);
  free(c.by_site);
  return rc;
}

int ompdp_rewrite_report(ompdp_report_t *r) {
  int rc = r->plan.present ? plan_report(r, &r->plan) : 0;
  /* Decided from the same facts, once the rewrites are known (verdict.c). */
  if (ompdp_assign_verdicts(r, &r->plan))
    rc = -1;
  ompdp_plan_free(&r->plan); /* the rewrites (and verdicts) are what it was for */
  return rc;
}

int ompdp_rewrite_report_events(ompdp_report_t *r, const ompdp_event_t *ev, size_t n,
                                int host_device, ompdp_describe_fn describe) {
  int any = 0;
  for (size_t i = 0; i < r->num_findings && !any; ++i)
    any = r->findings[i].rt_region != 0;
  if (!any)
    return 0; /* nothing the region table describes: no rewrite possible */
  ompdp_rw_facts_t *facts = ompdp_rw_facts_create(host_device);
  if (!facts)
    return -1;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; ++i)
    rc = ompdp_rw_facts_feed(facts, &ev[i]);
  /* As the runtime and the driver do it: through the report's plan. */
  if (!rc)
    rc = ompdp_rw_facts_to_plan(facts, r, describe, NULL, 0, &r->plan) < 0 ? -1 : 0;
  ompdp_rw_facts_destroy(facts);
  if (!rc)
    rc = ompdp_rewrite_report(r);
  return rc;
}
