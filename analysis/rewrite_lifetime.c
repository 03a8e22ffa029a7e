/*===- rewrite_lifetime.c - device memory made at its first use -----*- C -*-===*\
|*
|* The rewrite of early allocations and late releases (detect_lifetime.c):
|* the item's `target enter data` moves to just before the first statement
|* of its block that may use the item, or its `target exit data` to just
|* after the last one; an item of `target data` leaves the region's
|* directive for a `target enter data` and a `target exit data` around the
|* statements of its body that may use it. The compiler recorded those
|* statements (the Use* fields of the item, region table 3.3,
|* clang-plugin/UseBounds.cpp): nothing between the old place and the new
|* one names the item, the variables of its section or of the directive's
|* other clauses, so every use stays where the device copy exists, and the
|* section mapped is the same. The rewrite is made when, besides, the run
|* confirms the saving the finding predicts: the construct that used the
|* memory first (last) is the one the statement is, or that begins (ends)
|* the body of the loop it is, so that the memory is allocated right before
|* that use (released right after it) and nothing else allocates in
|* between. Otherwise the finding stays advice, and says why.
|*
|* Map types: `target data` map(tofrom) becomes enter `to` and exit `from`,
|* `to` enter `to` and exit `release`, `from` enter `alloc` and exit `from`,
|* `alloc` enter `alloc` and exit `release`. An item with the always,
|* close, present or mapper modifier, or a directive with nowait or
|* depend, is left alone (the order and the presence checks are the
|* programmer's).
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"
#include "rewrite_safety.h" /* ompdp_rw_advise */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The directive's other clauses, for a directive that takes the item
 * (" device(1)"); NULL with *why when they keep it from moving. */
static const char *other_clauses(const ompdp_region_info_t *it, const char **why) {
  const char *o = it->other_clauses ? it->other_clauses : "";
  if (strstr(o, "nowait") || strstr(o, "depend")) {
    *why = "its directive has `nowait` or `depend`, whose order with other tasks ompdp does "
           "not move";
    return NULL;
  }
  return o;
}

/* "map(alloc: big[0:n])" into b for an item with map type t. */
static void put_map(ompdp_strbuf_t *b, ompdp_map_type_t t, const char *expr, const char *other) {
  ompdp_sb_printf(b, " map(%s: %s)%s%s", ompdp_map_type_name(t), expr, other[0] ? " " : "",
                  other);
}

/* Inserts `#pragma omp target <what> data map(...)` on a line of its own
 * before line `line` (at = 0) or after it (at = 1), indented to column. */
static int insert_directive(ompdp_rewrite_t *rw, const ompdp_region_info_t *it, uint32_t line,
                            int after, uint32_t column, const char *what, ompdp_map_type_t t,
                            const char *other, const char **why) {
  if (!line || !column || column > 512) {
    *why = "the statement where the directive would go is not where ompdp can write one";
    return -1;
  }
  char indent[513];
  memset(indent, ' ', column - 1);
  indent[column - 1] = '\0';
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%s#pragma omp target %s data", indent, what);
  put_map(&b, t, it->expr, other);
  ompdp_sb_puts(&b, "\n");
  char *rep = ompdp_sb_take(&b);
  if (!rep) {
    *why = OMPDP_RW_OOM;
    return -1;
  }
  uint32_t at = after ? line + 1 : line;
  int rc = ompdp_rw_add_edit(rw, it, at, 1, at, 1, "", rep, why);
  free(rep);
  return rc;
}

/* Why an item cannot take part (NULL: it can). */
static const char *item_refused(const ompdp_region_info_t *it) {
  if (!ompdp_rw_explicit_item(it) || !it->expr || !it->expr[0])
    return "the item is not written in a clause";
  if (it->modifiers & (OMPDP_MOD_ALWAYS | OMPDP_MOD_CLOSE | OMPDP_MOD_PRESENT | OMPDP_MOD_MAPPER))
    return "its map has a modifier (always, close, present or a mapper) whose effect a move "
           "could change";
  if (!it->use_flags && !it->use_begin_line && !it->use_end_line)
    return "the compiler recorded no statement that uses it (rebuild with this ompdp's plugin)";
  if (it->use_flags & OMPDP_USE_NONE)
    return "no statement of its block uses it (its uses are in other functions), and ompdp "
           "moves the directive only within its block";
  if (it->use_flags & OMPDP_USE_JUMP)
    return "a statement it would move past has a label or a jump out of the block";
  return NULL;
}

/* The finding's use (its related location) is the construct at line:column. */
static int use_is(const ompdp_finding_t *f, uint32_t line, uint32_t column) {
  return line && f->related.line == line && f->related.column == column;
}

/* The saving, words and edits of rewrite rw once its edits are in. */
static int finish(ompdp_finding_t *f, int rc, ompdp_strbuf_t *d, ompdp_strbuf_t *a) {
  ompdp_rewrite_t *rw = &f->rewrites[f->num_rewrites - 1];
  if (!rc)
    rc = ompdp_rw_normalize_edits(rw);
  if (ompdp_rw_finish(f, rc, 0, 0, 0, 0, d, a))
    return -1;
  rw = &f->rewrites[f->num_rewrites - 1];
  rw->peak = 1;
  rw->peak_saved_bytes = f->peak_saved_bytes;
  rw->ops.known = rw->ops_added.known = 1; /* it moves no operation away */
  return 0;
}

/* The item's enter data moves to its first use (early) or, at the exit data
 * that frees it (xi of xr), the exit data to after its last use (late). */
static int plan_move(const ompdp_rw_plan_t *c, ompdp_finding_t *f, const ompdp_rw_items_t *ri,
                     uint32_t k, int early) {
  const ompdp_region_info_t *it = &ri->items[k];
  const char *why = item_refused(it), *other = why ? NULL : other_clauses(it, &why);
  if (why)
    return ompdp_rw_advise(f, why) ? -2 : -1;
  uint32_t line = early ? it->use_begin_line : it->use_end_line;
  uint32_t lead_line = early ? it->use_lead_line : it->use_tail_line;
  uint32_t lead_col = early ? it->use_lead_column : it->use_tail_column;
  int own = it->use_flags & (early ? OMPDP_USE_BEGIN_OWN_LINE : OMPDP_USE_END_OWN_LINE);
  char buf[512];
  if (!use_is(f, lead_line, lead_col)) {
    snprintf(buf, sizeof(buf),
             "the %s statement that may use `%s` (line %" PRIu32 ") is not, and does not %s with, "
             "the construct that %s used its memory in this run (line %" PRIu32 "), so moving the "
             "directive there would not lower the peak as predicted",
             early ? "first" : "last", it->variable, line, early ? "begin" : "end",
             early ? "first" : "last", f->related.line);
    return ompdp_rw_advise(f, buf) ? -2 : -1;
  }
  if (!own)
    return ompdp_rw_advise(f, "the statement where the directive would go shares its line with "
                              "other code") ? -2 : -1;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_SHRINK_LIFETIME);
  if (!rw)
    return -2;
  const char *what = early ? "enter" : "exit";
  int rc = ompdp_rw_remove_item(rw, &ri->reg, k, &why);
  if (!rc)
    rc = insert_directive(rw, it, line, !early, it->use_indent, what, it->map_type, other, &why);
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_printf(&d, "%s `%s` on device %d %s its %s use: move `map(%s: %s)` from `target %s data` "
                  "at %s:%" PRIu32 " to a `target %s data` %s line %" PRIu32
                  " (the construct at line %" PRIu32 ", which %s); no statement in between "
                  "uses `%s`",
                  early ? "allocate" : "release", it->variable,
                  f->num_devices ? f->devices[0] : 0, early ? "at" : "after",
                  early ? "first" : "last", ompdp_map_type_name(it->map_type), it->expr, what,
                  ompdp_rw_basename(it->file), it->line, what, early ? "before" : "after", line,
                  lead_line, early ? "uses it first" : "uses it last", it->variable);
  ompdp_sb_printf(&a, "no code between line %" PRIu32 " and line %" PRIu32
                  " reaches `%s` through another pointer",
                  early ? it->line : line, early ? line : it->line, it->variable);
  (void)c;
  return finish(f, rc, &d, &a) ? -2 : 0;
}

/* An item of `target data`: enter data before its first use in the body,
 * exit data after its last. */
static int plan_split(const ompdp_rw_plan_t *c, ompdp_finding_t *f, const ompdp_rw_items_t *ri,
                      uint32_t k, int early) {
  const ompdp_region_info_t *it = &ri->items[k];
  const char *why = item_refused(it), *other = why ? NULL : other_clauses(it, &why);
  if (!why && (!it->use_begin_line || !it->use_end_line))
    why = "the statements of the region's body that use it are not where ompdp can write "
          "directives";
  if (why)
    return ompdp_rw_advise(f, why) ? -2 : -1;
  char buf[512];
  uint32_t ll = early ? it->use_lead_line : it->use_tail_line;
  uint32_t lc = early ? it->use_lead_column : it->use_tail_column;
  if (!use_is(f, ll, lc)) {
    snprintf(buf, sizeof(buf),
             "the %s statement of the region that may use `%s` (line %" PRIu32 ") is not, and "
             "does not %s with, the construct that %s used its memory in this run (line %" PRIu32
             "), so mapping it there would not lower the peak as predicted",
             early ? "first" : "last", it->variable, early ? it->use_begin_line : it->use_end_line,
             early ? "begin" : "end", early ? "first" : "last", f->related.line);
    return ompdp_rw_advise(f, buf) ? -2 : -1;
  }
  if ((it->use_flags & (OMPDP_USE_BEGIN_OWN_LINE | OMPDP_USE_END_OWN_LINE)) !=
      (OMPDP_USE_BEGIN_OWN_LINE | OMPDP_USE_END_OWN_LINE))
    return ompdp_rw_advise(f, "a statement where a directive would go shares its line with "
                              "other code") ? -2 : -1;
  ompdp_map_type_t in, out;
  switch (it->map_type) {
  case OMPDP_MT_TOFROM: in = OMPDP_MT_TO, out = OMPDP_MT_FROM; break;
  case OMPDP_MT_TO: in = OMPDP_MT_TO, out = OMPDP_MT_RELEASE; break;
  case OMPDP_MT_FROM: in = OMPDP_MT_ALLOC, out = OMPDP_MT_FROM; break;
  case OMPDP_MT_ALLOC: in = OMPDP_MT_ALLOC, out = OMPDP_MT_RELEASE; break;
  default:
    return ompdp_rw_advise(f, "its map type has no `target enter data`/`exit data` form") ? -2
                                                                                           : -1;
  }
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_SHRINK_LIFETIME);
  if (!rw)
    return -2;
  int rc = ompdp_rw_remove_item(rw, &ri->reg, k, &why);
  if (!rc)
    rc = insert_directive(rw, it, it->use_begin_line, 0, it->use_indent, "enter", in, other, &why);
  if (!rc)
    rc = insert_directive(rw, it, it->use_end_line, 1, it->use_indent, "exit", out, other, &why);
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_printf(&d, "map `%s` on device %d only around its uses: take `%s` out of `target data` "
                  "at %s:%" PRIu32 ", `#pragma omp target enter data map(%s: %s)` before line %"
                  PRIu32 " and `#pragma omp target exit data map(%s: %s)` after line %" PRIu32
                  "; no other statement of the region uses `%s`",
                  it->variable, f->num_devices ? f->devices[0] : 0, it->clause,
                  ompdp_rw_basename(it->file), it->line, ompdp_map_type_name(in), it->expr,
                  it->use_begin_line, ompdp_map_type_name(out), it->expr, it->use_end_line,
                  it->variable);
  ompdp_sb_printf(&a, "no code of the region outside lines %" PRIu32 " to %" PRIu32
                  " reaches `%s` through another pointer",
                  it->use_begin_line, it->use_end_line, it->variable);
  (void)c;
  return finish(f, rc, &d, &a) ? -2 : 0;
}

int ompdp_rw_shrink_lifetime(const ompdp_rw_plan_t *c, ompdp_finding_t *f,
                             const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int early = f->kind == OMPDP_FK_EARLY_ALLOC;
  if (!f->peak_saved_bytes) /* it lowers nothing: no reason to move anything */
    return ompdp_rw_advise(f, "moving it would not lower the device's peak memory, so there is "
                              "nothing to gain by it") ? -2 : -1;
  if (it->construct == OMPDP_CK_TARGET_DATA)
    return plan_split(c, f, ri, (uint32_t)s->item, early);
  if (it->construct != OMPDP_CK_TARGET_ENTER_DATA)
    return ompdp_rw_advise(f, early ? "the memory is allocated by a construct that is not `target "
                                      "enter data` or `target data`, whose map ompdp does not move"
                                    : "the memory is allocated by a construct that is not `target "
                                      "enter data` or `target data`, whose release ompdp does "
                                      "not move") ? -2 : -1;
  if (early)
    return plan_move(c, f, ri, (uint32_t)s->item, 1);
  /* Late: the exit data that freed every allocation of the site. */
  if (!s->lt_exit_region || s->lt_exit_mixed)
    return ompdp_rw_advise(f, "its allocations were not all freed by one `target exit data`")
               ? -2
               : -1;
  ompdp_rw_items_t xr;
  if (ompdp_rw_load_region(c, s->lt_exit_region, &xr))
    return -1;
  int rc = -1;
  int xi = s->lt_exit_item;
  for (uint32_t j = 0; xi < 0 && j < xr.reg.num_items; ++j)
    if (!strcmp(xr.items[j].variable, it->variable))
      xi = (int)j;
  if (xr.items[0].construct != OMPDP_CK_TARGET_EXIT_DATA || xi < 0 ||
      (uint32_t)xi >= xr.reg.num_items)
    rc = ompdp_rw_advise(f, "it is freed by a construct that is not `target exit data`") ? -2 : -1;
  else
    rc = plan_move(c, f, &xr, (uint32_t)xi, 0);
  free(xr.items);
  return rc;
}
