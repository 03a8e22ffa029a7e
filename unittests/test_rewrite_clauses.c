/*===- test_rewrite_clauses.c - removing directives with other clauses ---===*\
|*
|* A directive's clauses that no item records (device, if, depend, nowait)
|* come with the region table's record of the directive as written: removing
|* it checks that whole text. Removing one with depend clauses on one list
|* item is allowed and says so in its assumption; with depend clauses on
|* several items, or dependence types the rule does not reason about, it is
|* refused. Records without the directive text (older tables) still get the
|* text rebuilt from the one clause.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "rewrite.h"

#include <stdio.h>
#include <string.h>

static const char *Line = "#pragma omp target update to(v[0:N]) device(1) depend(inout: v)\n";

static ompdp_region_info_t update_item(const char *directive, const char *other) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  it.construct = OMPDP_CK_TARGET_UPDATE;
  it.file = it.source_file = "t.c";
  it.function = "f";
  it.loop_kind = OMPDP_LK_NONE;
  it.line = it.end_line = 1;
  it.column = 1;
  it.end_column = (uint32_t)strlen(Line);
  it.clause = "to(v[0:N])";
  it.expr = "v[0:N]";
  it.variable = "v";
  it.map_type = OMPDP_MT_UPDATE_TO;
  it.clause_line = it.clause_end_line = it.item_line = it.item_end_line = 1;
  it.clause_column = 27;
  it.clause_end_column = 37;
  it.item_column = 30;
  it.item_end_column = 36;
  it.num_items = 1;
  it.directive = directive;
  it.other_clauses = other;
  return it;
}

/* Removes the only item (so the directive); returns the rc, with the one
 * edit's original in *orig (a copy in buf). */
static int remove_only(const char *directive, const char *other, char *orig, size_t n,
                       const char **why) {
  ompdp_region_info_t it = update_item(directive, other);
  ompdp_rw_region_t reg = {&it, 1};
  ompdp_rewrite_t rw;
  memset(&rw, 0, sizeof(rw));
  *why = NULL;
  int rc = ompdp_rw_remove_item(&rw, &reg, 0, why);
  orig[0] = '\0';
  if (!rc && rw.num_edits == 1 && rw.edits[0].original) {
    snprintf(orig, n, "%s", rw.edits[0].original);
    CHECK(rw.edits[0].range.line == 1 && rw.edits[0].range.column == 1);
    CHECK(rw.edits[0].range.end_line == 2 && rw.edits[0].range.end_column == 1);
    CHECK(rw.edits[0].replacement && !rw.edits[0].replacement[0]);
    /* What `ompdp fix` would find there. */
    if (directive[0])
      CHECK(ompdp_text_matches(Line, strlen(Line), orig));
  }
  ompdp_rewrite_free(&rw);
  return rc;
}

/*--- policy: the assumption a removal states ------------------------------*/

static const char *other11;
static int describe(uint32_t region, int item, ompdp_region_info_t *out) {
  if (region != 11 || item > 0)
    return -1;
  *out = update_item("#pragma omp target update to(v[0:N]) device(1) depend(inout: v)",
                     other11);
  out->id = 0x111;
  return 0;
}

static ompdp_event_t ev(int type, uint32_t region, uint64_t t) {
  ompdp_event_t e;
  memset(&e, 0, sizeof(e));
  e.type = (uint8_t)type;
  e.flags = OMPDP_EVF_COMPLETE;
  e.region = region;
  e.item = type == OMPDP_EV_DELETE ? -1 : 0;
  e.t_begin = t;
  e.t_end = t + 10;
  e.src_dev = type == OMPDP_EV_DELETE ? 1 : 9;
  e.dst_dev = type == OMPDP_EV_DELETE ? -1 : 1;
  e.src_addr = type == OMPDP_EV_DELETE ? 0x9000 : 0x1000;
  e.dst_addr = 0x9000;
  e.bytes = 64;
  return e;
}

/* An unused copy in by the update (region 11) between an allocation and
 * its delete: the update goes; returns the rewrite's assumption ("" for
 * none, NULL for no rewrite) in buf. */
static const char *unused_update(const char *other, char *buf, size_t n) {
  other11 = other;
  ompdp_event_t e[3] = {ev(OMPDP_EV_ALLOC, 10, 100), ev(OMPDP_EV_TRANSFER, 11, 200),
                        ev(OMPDP_EV_DELETE, 12, 300)};
  e[1].flags |= OMPDP_EVF_HASHED;
  e[1].hash = 5;
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_UNUSED_TRANSFER);
  f->rt_region = 11;
  f->item = 0;
  f->count = 1;
  CHECK(ompdp_rewrite_report_events(&r, e, 3, 9, describe) == 0);
  const char *res = NULL;
  if (f->num_rewrites == 1) {
    snprintf(buf, n, "%s", f->rewrites[0].assumption ? f->rewrites[0].assumption : "");
    res = buf;
  }
  ompdp_report_free(&r);
  return res;
}

int main(void) {
  char a[512];
  const char *as = unused_update("device(1) depend(inout: v)", a, sizeof(a));
  CHECK(as && strstr(as, "goes with its depend clauses"));
  as = unused_update("device(1) nowait", a, sizeof(a));
  CHECK(as && strstr(as, "deferred task") && !strstr(as, "depend"));
  as = unused_update("device(1)", a, sizeof(a));
  CHECK(as && !as[0]);
  CHECK(unused_update("depend(in: u) depend(out: v)", a, sizeof(a)) == NULL);

  char orig[256];
  const char *why;
  const char *full = "#pragma omp target update to(v[0:N]) device(1) depend(inout: v)";

  /* One list item in the depend clauses: removed, checking the whole line. */
  CHECK(remove_only(full, "device(1) depend(inout: v)", orig, sizeof(orig), &why) == 0);
  CHECK(!strcmp(orig, full));
  CHECK(remove_only(full, "device(1) depend(in: v) depend(out: v)", orig, sizeof(orig),
                    &why) == 0);

  /* Two list items, a list, or a type the rule does not reason about. */
  CHECK(remove_only(full, "depend(in: u) depend(out: v)", orig, sizeof(orig), &why) == -1);
  CHECK(why && strstr(why, "depend"));
  CHECK(remove_only(full, "depend(inout: u, v)", orig, sizeof(orig), &why) == -1);
  CHECK(remove_only(full, "depend(mutexinoutset: v)", orig, sizeof(orig), &why) == -1);
  CHECK(remove_only(full, "depend(iterator(i=0:2), in: a[i])", orig, sizeof(orig), &why) == -1);
  CHECK(remove_only(full, "depend(in: v", orig, sizeof(orig), &why) == -1);
  /* Clauses without depend: anything goes. */
  CHECK(remove_only(full, "device(1) if(n > 0) nowait", orig, sizeof(orig), &why) == 0);

  /* A table without the directive's text: rebuilt from the clause, which
   * does not match a line with more clauses (refused at fix time). */
  CHECK(remove_only("", "", orig, sizeof(orig), &why) == 0);
  CHECK(!strcmp(orig, "#pragma omp target update to(v[0:N])"));
  CHECK(!ompdp_text_matches(Line, strlen(Line), orig));
  return CHECK_DONE();
}
