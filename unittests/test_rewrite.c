/*===- test_rewrite.c - rewrites: text and policy -------------------------===*\
|*
|* The text primitives are tested on real source lines: a region record is
|* built from the line (ranges found by searching it, as the compiler would
|* record them), the primitive's edits are checked against the line the way
|* `ompdp fix` checks them (ompdp_text_matches) and applied, and the result
|* must be the expected line. The policy is tested on hand-written event
|* sequences with a stand-in region table.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "edits.h"
#include "rewrite.h"

#include <stdlib.h>
#include <string.h>

/*--- records from source text ---------------------------------------------*/

/* Which "#pragma" of the source the next records describe (0: the first). */
static int nth_pragma;

/* The directive: the line holding "#pragma", to its newline. */
static void set_directive(ompdp_region_info_t *it, const char *src, const char *construct) {
  const char *p = strstr(src, "#pragma");
  for (int i = 0; i < nth_pragma; ++i)
    p = strstr(p + 1, "#pragma");
  const char *e = strchr(p, '\n');
  it->construct = ompdp_construct_kind_parse(construct);
  it->file = "t.c";
  it->function = "f";
  pos_of(src, (size_t)(p - src), &it->line, &it->column);
  pos_of(src, (size_t)(e - src), &it->end_line, &it->end_column);
  it->loop_kind = OMPDP_LK_NONE;
  it->variable = it->expr = it->clause = "";
  it->map_type = OMPDP_MT_NONE;
}

/* An explicit item: the clause is the nth (0-based) occurrence of clause in
 * src, the item the first occurrence of expr in it after `skip` chars. */
static ompdp_region_info_t item(const char *src, const char *construct, const char *clause,
                                const char *expr, const char *var, const char *type,
                                size_t skip) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  set_directive(&it, src, construct);
  const char *c = strstr(src, clause);
  const char *x = strstr(c + skip, expr);
  size_t co = (size_t)(c - src), xo = (size_t)(x - src);
  pos_of(src, co, &it.clause_line, &it.clause_column);
  pos_of(src, co + strlen(clause), &it.clause_end_line, &it.clause_end_column);
  pos_of(src, xo, &it.item_line, &it.item_column);
  pos_of(src, xo + strlen(expr), &it.item_end_line, &it.item_end_column);
  it.clause = clause;
  it.expr = expr;
  it.variable = var;
  it.map_type = ompdp_map_type_parse(type);
  return it;
}

static ompdp_region_info_t implicit_item(const char *src, const char *var) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  set_directive(&it, src, "target");
  it.variable = it.expr = var;
  it.map_type = OMPDP_MT_TOFROM;
  it.implicit = 1;
  it.modifiers = OMPDP_MOD_IMPLICIT;
  return it;
}

/* Byte offset of line:col in src, or -1. */

static void reset(ompdp_rewrite_t *rw) {
  ompdp_rewrite_free(rw);
  memset(rw, 0, sizeof(*rw));
}

/*--- removing items -------------------------------------------------------*/

static void test_remove_lists(void) {
  ompdp_rewrite_t rw = {0};
  const char *why = NULL;
  /* three items: first, middle, last */
  const char *s3 = "#pragma omp target enter data map(to: a, b[0:n], c)\nx;\n";
  const char *cl = "map(to: a, b[0:n], c)";
  ompdp_region_info_t it3[3] = {
      item(s3, "target enter data", cl, "a", "a", "to", 7),
      item(s3, "target enter data", cl, "b[0:n]", "b", "to", 7),
      item(s3, "target enter data", cl, "c", "c", "to", 7)};
  ompdp_rw_region_t r3 = {it3, 3};
  CHECK(ompdp_rw_remove_item(&rw, &r3, 0, &why) == 0);
  EXPECT(s3, &rw, "#pragma omp target enter data map(to: b[0:n], c)\nx;\n");
  reset(&rw);
  CHECK(ompdp_rw_remove_item(&rw, &r3, 1, &why) == 0);
  EXPECT(s3, &rw, "#pragma omp target enter data map(to: a, c)\nx;\n");
  reset(&rw);
  CHECK(ompdp_rw_remove_item(&rw, &r3, 2, &why) == 0);
  EXPECT(s3, &rw, "#pragma omp target enter data map(to: a, b[0:n])\nx;\n");
  reset(&rw);

  /* two items, with modifiers */
  const char *s2 = "#pragma omp target map(always, close, tofrom: u[0:n], v) map(to: w)\n";
  const char *c2 = "map(always, close, tofrom: u[0:n], v)";
  ompdp_region_info_t it2[3] = {item(s2, "target", c2, "u[0:n]", "u", "tofrom", 25),
                                item(s2, "target", c2, "v", "v", "tofrom", 25),
                                item(s2, "target", "map(to: w)", "w", "w", "to", 7)};
  ompdp_rw_region_t r2 = {it2, 3};
  CHECK(ompdp_rw_remove_item(&rw, &r2, 0, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(always, close, tofrom: v) map(to: w)\n");
  reset(&rw);
  CHECK(ompdp_rw_remove_item(&rw, &r2, 1, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(always, close, tofrom: u[0:n]) map(to: w)\n");
  reset(&rw);
  /* the only item of a clause: the clause and one blank go */
  CHECK(ompdp_rw_remove_item(&rw, &r2, 2, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(always, close, tofrom: u[0:n], v)\n");
  reset(&rw);

  /* the only item of a first clause of a target: the blank after it goes */
  const char *s1 = "#pragma omp target map(to: a) map(tofrom: s) nowait\n";
  ompdp_region_info_t it1[2] = {item(s1, "target", "map(to: a)", "a", "a", "to", 7),
                                item(s1, "target", "map(tofrom: s)", "s", "s", "tofrom", 11)};
  ompdp_rw_region_t r1 = {it1, 2};
  CHECK(ompdp_rw_remove_item(&rw, &r1, 0, &why) == 0);
  EXPECT(s1, &rw, "#pragma omp target map(tofrom: s) nowait\n");
  reset(&rw);
}

static void test_remove_directive(void) {
  ompdp_rewrite_t rw = {0};
  const char *why = NULL;
  /* the only item of an enter data: the whole line, indentation included */
  const char *s = "  x = 1;\n  #pragma omp target enter data map(alloc : x[0:N])\n  y();\n";
  ompdp_region_info_t it =
      item(s, "target enter data", "map(alloc : x[0:N])", "x[0:N]", "x", "alloc", 10);
  ompdp_rw_region_t r = {&it, 1};
  CHECK(ompdp_rw_remove_item(&rw, &r, 0, &why) == 0);
  EXPECT(s, &rw, "  x = 1;\n  y();\n");
  /* a clause the table does not know (device) makes the check fail rather
   * than the edit guess */
  reset(&rw);
  const char *sd = "#pragma omp target enter data map(alloc : x[0:N]) device(1)\ny();\n";
  ompdp_region_info_t idv =
      item(sd, "target enter data", "map(alloc : x[0:N])", "x[0:N]", "x", "alloc", 10);
  ompdp_rw_region_t rdv = {&idv, 1};
  CHECK(ompdp_rw_remove_item(&rw, &rdv, 0, &why) == 0);
  CHECK(apply(sd, &rw) == NULL);
  reset(&rw);

  /* target update with two motion items, then with one */
  const char *su = "#pragma omp target update to(x, y)\n";
  ompdp_region_info_t iu[2] = {item(su, "target update", "to(x, y)", "x", "x", "update to", 3),
                               item(su, "target update", "to(x, y)", "y", "y", "update to", 3)};
  ompdp_rw_region_t ru = {iu, 2};
  CHECK(ompdp_rw_remove_item(&rw, &ru, 1, &why) == 0);
  EXPECT(su, &rw, "#pragma omp target update to(x)\n");
  reset(&rw);
  const char *s1 = "{\n#pragma omp target update to(x) nowait\n}\n";
  ompdp_region_info_t i1 = item(s1, "target update", "to(x)", "x", "x", "update to", 3);
  i1.nowait = 1;
  ompdp_rw_region_t r1 = {&i1, 1};
  CHECK(ompdp_rw_remove_item(&rw, &r1, 0, &why) == 0);
  EXPECT(s1, &rw, "{\n}\n");
  reset(&rw);

  /* an implicit item has no clause to leave */
  const char *si = "#pragma omp target\n";
  ompdp_region_info_t ii = implicit_item(si, "b");
  ompdp_rw_region_t ri = {&ii, 1};
  CHECK(ompdp_rw_remove_item(&rw, &ri, 0, &why) == -1 && why);
  reset(&rw);
}

/*--- changing map types ---------------------------------------------------*/

static void test_set_map_type(void) {
  ompdp_rewrite_t rw = {0};
  const char *why = NULL;
  const char *s = "#pragma omp target enter data map(to : a)\n";
  ompdp_region_info_t it = item(s, "target enter data", "map(to : a)", "a", "a", "to", 8);
  ompdp_rw_region_t r = {&it, 1};
  CHECK(ompdp_rw_set_map_type(&rw, &r, 0, OMPDP_MT_ALLOC, -1, &why) == 0);
  EXPECT(s, &rw, "#pragma omp target enter data map(alloc: a)\n");
  reset(&rw);

  /* always dropped for alloc; other modifiers kept */
  const char *sa = "#pragma omp target map(always, close, to: a)\n";
  ompdp_region_info_t ia = item(sa, "target", "map(always, close, to: a)", "a", "a", "to", 20);
  ompdp_rw_region_t ra = {&ia, 1};
  CHECK(ompdp_rw_set_map_type(&rw, &ra, 0, OMPDP_MT_ALLOC, -1, &why) == 0);
  EXPECT(sa, &rw, "#pragma omp target map(close, alloc: a)\n");
  reset(&rw);
  CHECK(ompdp_rw_set_map_type(&rw, &ra, 0, OMPDP_MT_FROM, 1, &why) == 0);
  EXPECT(sa, &rw, "#pragma omp target map(always, close, from: a)\n");
  reset(&rw);

  /* an item with siblings moves into a clause of its own */
  const char *s2 = "#pragma omp target map(tofrom: a, u[0:n])\n";
  const char *c2 = "map(tofrom: a, u[0:n])";
  ompdp_region_info_t i2[2] = {item(s2, "target", c2, "a", "a", "tofrom", 11),
                               item(s2, "target", c2, "u[0:n]", "u", "tofrom", 11)};
  ompdp_rw_region_t r2 = {i2, 2};
  CHECK(ompdp_rw_set_map_type(&rw, &r2, 1, OMPDP_MT_FROM, 1, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(tofrom: a) map(always, from: u[0:n])\n");
  reset(&rw);
  CHECK(ompdp_rw_set_map_type(&rw, &r2, 0, OMPDP_MT_TO, 0, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(tofrom: u[0:n]) map(to: a)\n");
  reset(&rw);

  /* an implicit item gets an explicit clause at the end of the directive */
  const char *si = "  for (;;) {\n    #pragma omp target teams distribute\n    for (;;) b[j]++;\n";
  ompdp_region_info_t ii = implicit_item(si, "b");
  ompdp_rw_region_t ri = {&ii, 1};
  CHECK(ompdp_rw_set_map_type(&rw, &ri, 0, OMPDP_MT_FROM, 1, &why) == 0);
  EXPECT(si, &rw,
         "  for (;;) {\n    #pragma omp target teams distribute map(always, from: b)\n"
         "    for (;;) b[j]++;\n");
  /* the line must still end where the directive did */
  CHECK(apply("  for (;;) {\n    #pragma omp target teams distribute x\n", &rw) == NULL);
  reset(&rw);

  /* C++ scope and mapper modifiers parse; a non-map clause does not change */
  const char *sc = "#pragma omp target map(mapper(id), to: ns::a)\n";
  ompdp_region_info_t ic =
      item(sc, "target", "map(mapper(id), to: ns::a)", "ns::a", "ns::a", "to", 20);
  ompdp_rw_region_t rc = {&ic, 1};
  CHECK(ompdp_rw_set_map_type(&rw, &rc, 0, OMPDP_MT_ALLOC, -1, &why) == 0);
  EXPECT(sc, &rw, "#pragma omp target map(mapper(id), alloc: ns::a)\n");
  reset(&rw);
  const char *sf = "#pragma omp target firstprivate(n)\n";
  ompdp_region_info_t ifp = item(sf, "target", "firstprivate(n)", "n", "n", "firstprivate", 13);
  ompdp_rw_region_t rf = {&ifp, 1};
  CHECK(ompdp_rw_set_map_type(&rw, &rf, 0, OMPDP_MT_TO, 0, &why) == -1 && why);
  reset(&rw);
}

/*--- firstprivate ---------------------------------------------------------*/

static void test_firstprivate_items(void) {
  ompdp_rewrite_t rw = {0};
  const char *why = NULL;
  /* the clause's only item: the clause becomes firstprivate */
  const char *s1 = "#pragma omp target map(to: n) map(tofrom: u[0:n])\n";
  ompdp_region_info_t i1[2] = {item(s1, "target", "map(to: n)", "n", "n", "to", 8),
                               item(s1, "target", "map(tofrom: u[0:n])", "u[0:n]", "u", "tofrom", 12)};
  ompdp_rw_region_t r1 = {i1, 2};
  uint32_t k0[] = {0};
  CHECK(ompdp_rw_firstprivate_items(&rw, &r1, k0, 1, &why) == 0);
  EXPECT(s1, &rw, "#pragma omp target firstprivate(n) map(tofrom: u[0:n])\n");
  reset(&rw);
  /* items of one clause: one firstprivate clause after what remains, with
   * the clause's modifiers */
  const char *s2 = "#pragma omp target map(close, to: n, u[0:n], s)\n";
  const char *c2 = "map(close, to: n, u[0:n], s)";
  ompdp_region_info_t i2[3] = {item(s2, "target", c2, "n", "n", "to", 14),
                               item(s2, "target", c2, "u[0:n]", "u", "to", 14),
                               item(s2, "target", c2, "s", "s", "to", 23)};
  ompdp_rw_region_t r2 = {i2, 3};
  uint32_t k02[] = {0, 2};
  CHECK(ompdp_rw_firstprivate_items(&rw, &r2, k02, 2, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(close, to: u[0:n]) firstprivate(n, s)\n");
  reset(&rw);
  uint32_t k2[] = {2};
  CHECK(ompdp_rw_firstprivate_items(&rw, &r2, k2, 1, &why) == 0);
  EXPECT(s2, &rw, "#pragma omp target map(close, to: n, u[0:n]) firstprivate(s)\n");
  reset(&rw);
  /* not a whole variable, not one clause */
  uint32_t k1[] = {1};
  CHECK(ompdp_rw_firstprivate_items(&rw, &r2, k1, 1, &why) == -1 && why);
  reset(&rw);
  uint32_t k01[] = {0, 1};
  CHECK(ompdp_rw_firstprivate_items(&rw, &r1, k01, 2, &why) == -1 && why);
  reset(&rw);
  /* an implicit item: the clause at the end of the directive */
  const char *si = "    #pragma omp target teams distribute\n    for (;;) b[j] = p.x;\n";
  ompdp_region_info_t ii = implicit_item(si, "p");
  ompdp_rw_region_t ri = {&ii, 1};
  CHECK(ompdp_rw_firstprivate_items(&rw, &ri, k0, 1, &why) == 0);
  EXPECT(si, &rw,
         "    #pragma omp target teams distribute firstprivate(p)\n    for (;;) b[j] = p.x;\n");
  reset(&rw);
}

/*--- target data around the loop ------------------------------------------*/

static void test_keep_resident(void) {
  ompdp_rewrite_t rw = {0};
  const char *why = NULL;
  const char *s = "int f() {\n    for (int i = 0; i < n; ++i) {\n"
                  "#pragma omp target map(to: a[0:n])\n      g();\n    }\n}\n";
  ompdp_region_info_t it = item(s, "target", "map(to: a[0:n])", "a[0:n]", "a", "to", 7);
  it.loop_kind = OMPDP_LK_FOR;
  it.loop_line = 2;
  it.loop_length = 64;
  it.loop_column = 5;
  const ompdp_region_info_t *one[1] = {&it};
  const ompdp_map_type_t to[1] = {OMPDP_MT_TO};
  CHECK(ompdp_rw_keep_resident(&rw, one, to, 1, &why) == 0);
  EXPECT(s, &rw,
         "int f() {\n    #pragma omp target data map(to: a[0:n])\n    for (int i = 0; i < n; "
         "++i) {\n#pragma omp target map(to: a[0:n])\n      g();\n    }\n}\n");
  /* something before the loop on its line: a pragma cannot go there */
  CHECK(apply("int f() {\n x; for (int i = 0; i < n; ++i) {\n", &rw) == NULL);
  reset(&rw);

  /* while and do loops; an implicit item is named by its variable */
  const char *sw = "\twhile (k--)\n#pragma omp target\n  b[0]++;\n";
  ompdp_region_info_t iw = implicit_item(sw, "b");
  iw.loop_kind = OMPDP_LK_WHILE;
  iw.loop_line = 1;
  iw.loop_length = 64;
  iw.loop_column = 2;
  const ompdp_region_info_t *w1[1] = {&iw};
  const ompdp_map_type_t tofrom[1] = {OMPDP_MT_TOFROM};
  CHECK(ompdp_rw_keep_resident(&rw, w1, tofrom, 1, &why) == 0);
  EXPECT(sw, &rw, " #pragma omp target data map(tofrom: b)\n while (k--)\n#pragma omp target\n  b[0]++;\n");
  reset(&rw);
  const char *sd = "do {\n#pragma omp target map(alloc: t)\n;} while (0);\n";
  ompdp_region_info_t id = item(sd, "target", "map(alloc: t)", "t", "t", "alloc", 10);
  id.loop_kind = OMPDP_LK_DO;
  id.loop_line = 1;
  id.loop_length = 64;
  id.loop_column = 1;
  const ompdp_region_info_t *d1[1] = {&id};
  const ompdp_map_type_t alloc[1] = {OMPDP_MT_ALLOC};
  CHECK(ompdp_rw_keep_resident(&rw, d1, alloc, 1, &why) == 0);
  EXPECT(sd, &rw,
         "#pragma omp target data map(alloc: t)\ndo {\n#pragma omp target map(alloc: t)\n;} "
         "while (0);\n");
  reset(&rw);

  /* two items of one loop: one pragma; items of different loops: none */
  const char *s2 = "  for (;;) {\n#pragma omp target map(to: a[0:n], b)\n;\n  }\n";
  const char *c2 = "map(to: a[0:n], b)";
  ompdp_region_info_t i2[2] = {item(s2, "target", c2, "a[0:n]", "a", "to", 7),
                               item(s2, "target", c2, "b", "b", "tofrom", 7)};
  for (int i = 0; i < 2; ++i) {
    i2[i].loop_kind = OMPDP_LK_FOR;
    i2[i].loop_line = 1;
    i2[i].loop_length = 64;
    i2[i].loop_column = 3;
  }
  const ompdp_region_info_t *two[2] = {&i2[0], &i2[1]};
  const ompdp_map_type_t types[2] = {OMPDP_MT_TO, OMPDP_MT_TOFROM};
  CHECK(ompdp_rw_keep_resident(&rw, two, types, 2, &why) == 0);
  EXPECT(s2, &rw,
         "  #pragma omp target data map(to: a[0:n]) map(tofrom: b)\n  for (;;) {\n#pragma omp "
         "target map(to: a[0:n], b)\n;\n  }\n");
  reset(&rw);
  i2[1].loop_line = 7;
  i2[1].loop_length = 64;
  CHECK(ompdp_rw_keep_resident(&rw, two, types, 2, &why) == -1 && why);
  reset(&rw);

  /* no loop: nothing to keep it resident across */
  it.loop_kind = OMPDP_LK_NONE;
  CHECK(ompdp_rw_keep_resident(&rw, one, to, 1, &why) == -1 && why);
  reset(&rw);
}

/*--- policy ---------------------------------------------------------------*/

#define HOST 9
#define DEV 0

typedef struct evseq {
  ompdp_event_t ev[256];
  size_t n;
  uint64_t t;
} evseq_t;

static ompdp_event_t *add(evseq_t *s, int type, uint32_t region, int item) {
  ompdp_event_t *e = &s->ev[s->n++];
  memset(e, 0, sizeof(*e));
  e->type = (uint8_t)type;
  e->flags = OMPDP_EVF_COMPLETE;
  e->region = region;
  e->item = (int16_t)item;
  e->t_begin = s->t += 100;
  e->t_end = s->t += 10; /* every operation takes 10 ns */
  return e;
}
static void ev_alloc(evseq_t *s, uint32_t r, int i, uint64_t host, uint64_t dev) {
  ompdp_event_t *e = add(s, OMPDP_EV_ALLOC, r, i);
  e->src_dev = HOST;
  e->dst_dev = DEV;
  e->src_addr = host;
  e->dst_addr = dev;
  e->bytes = 64;
}
static void ev_delete(evseq_t *s, uint32_t r, uint64_t dev) {
  ompdp_event_t *e = add(s, OMPDP_EV_DELETE, r, -1);
  e->src_dev = DEV;
  e->dst_dev = -1;
  e->src_addr = dev;
}
static void ev_copy(evseq_t *s, uint32_t r, int i, int in, uint64_t host, uint64_t dev,
                    uint64_t hash) {
  ompdp_event_t *e = add(s, OMPDP_EV_TRANSFER, r, i);
  e->src_dev = in ? HOST : DEV;
  e->dst_dev = in ? DEV : HOST;
  e->src_addr = in ? host : dev;
  e->dst_addr = in ? dev : host;
  e->bytes = 64;
  e->hash = hash;
  e->flags |= OMPDP_EVF_HASHED;
}

/* The stand-in region table: region 1 is `#pragma omp target` in a for
 * loop with b mapped implicitly tofrom; region 2 `target enter data
 * map(to: x)`, region 3 `target exit data map(delete: x)`, region 4
 * `target update to(x)`. */
static const char *SrcLoop = "  for (int i = 0; i < 4; ++i) {\n#pragma omp target\n  b[0]++;\n  }\n";
static const char *SrcEnter = "#pragma omp target enter data map(to: x)\n";
static const char *SrcExit = "#pragma omp target exit data map(delete: x)\n";
static const char *SrcUpdate = "#pragma omp target update to(x)\n";
static const char *SrcTwo = "  for (int i = 0; i < 4; ++i) {\n#pragma omp target\n  b[0]++;\n"
                            "#pragma omp target\n  c[0]++;\n  }\n";

static const char *SrcTo = "  for (int i = 0; i < 4; ++i) {\n#pragma omp target map(to: a)\n  ;\n  }\n";
static uint32_t access7; /* what the compiler says region 7 does with a */
/* The host code of the loop of regions 1, 5 and 6: a statement on line 4
 * that reads the item in every iteration (so copying it back each time is
 * as cheap as a `target update from` there), or none. */
static const ompdp_host_access_t HostRead = {
    .Access = OMPDP_ACCESS_READ,
    .Flags = OMPDP_HA_STATEMENT | OMPDP_HA_EVERY_TIME | OMPDP_HA_AFTER,
    .Line = 4, .Column = 3, .EndLine = 4, .EndColumn = 4, .Offset = 0, .Length = 1};
static int no_host_access;
static const ompdp_host_access_t *host_access1 = &HostRead; /* region 1's */

static int describe(uint32_t region, int it, ompdp_region_info_t *out) {
  switch (region) {
  case 7:
    *out = item(SrcTo, "target", "map(to: a)", "a", "a", "to", 7);
    out->loop_kind = OMPDP_LK_FOR;
    out->loop_line = 1;
    out->loop_length = 64;
    out->loop_column = 3;
    out->access = access7;
    break;
  case 1:
    *out = implicit_item(SrcLoop, "b");
    out->loop_kind = OMPDP_LK_FOR;
    out->loop_line = 1;
    out->loop_length = 64;
    out->loop_column = 3;
    if (!no_host_access) {
      out->host_accesses = host_access1;
      out->num_host_accesses = 1;
    }
    break;
  case 2:
    *out = item(SrcEnter, "target enter data", "map(to: x)", "x", "x", "to", 7);
    break;
  case 3:
    *out = item(SrcExit, "target exit data", "map(delete: x)", "x", "x", "delete", 11);
    break;
  case 4:
    *out = item(SrcUpdate, "target update", "to(x)", "x", "x", "update to", 3);
    break;
  case 5:
  case 6:
    nth_pragma = (int)region - 5;
    *out = implicit_item(SrcTwo, region == 5 ? "b" : "c");
    nth_pragma = 0;
    out->loop_kind = OMPDP_LK_FOR;
    out->loop_line = 1;
    out->loop_length = 64;
    out->loop_column = 3;
    out->host_accesses = &HostRead;
    out->num_host_accesses = 1;
    break;
  default:
    return -1;
  }
  out->id = 0x100 + region;
  out->num_items = 1;
  return it > 0 ? -1 : 0;
}

static ompdp_finding_t *finding(ompdp_report_t *r, ompdp_finding_kind_t k, uint32_t region,
                                uint64_t count) {
  ompdp_finding_t *f = ompdp_report_add_finding(r, k);
  f->rt_region = region;
  f->item = 0;
  f->count = count;
  return f;
}

/* Listing 2: four iterations of region 1 map b tofrom; the device changes
 * it each time and the host sends back what it got. */
static void listing2_events(evseq_t *s) {
  for (int i = 0; i < 4; ++i) {
    ev_alloc(s, 1, 0, 0x1000, 0x9000);
    ev_copy(s, 1, 0, 1, 0x1000, 0x9000, 10 + (uint64_t)i);
    ev_copy(s, 1, 0, 0, 0x1000, 0x9000, 11 + (uint64_t)i);
    ev_delete(s, 1, 0x9000);
  }
}

static void test_policy_keep_resident(void) {
  evseq_t s = {.t = 1000};
  listing2_events(&s);
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *rt = finding(&r, OMPDP_FK_ROUND_TRIP, 1, 3);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 1);
  if (rt->num_rewrites == 1) {
    const ompdp_rewrite_t *rw = &rt->rewrites[0];
    CHECK(rw->kind == OMPDP_RK_KEEP_RESIDENT);
    /* 3 allocations and 3 deletes, 3 copies in: 9 operations of 10 ns */
    CHECK_EQ_U64(rw->allocs_removed, 3);
    CHECK_EQ_U64(rw->transfers_removed, 3);
    CHECK_EQ_U64(rw->bytes_removed, 192);
    CHECK_EQ_U64(rw->time_saved_ns, 90);
    CHECK(rw->assumption == NULL);
    CHECK(!rw->lower_bound);
    EXPECT(SrcLoop, rw,
           "  #pragma omp target data map(to: b)\n  for (int i = 0; i < 4; ++i) {\n#pragma omp "
           "target map(always, from: b)\n  b[0]++;\n  }\n");
  }
  /* The runtime names the finding's region where it attributes it. */
  ompdp_region_info_t info;
  CHECK(describe(1, 0, &info) == 0);
  ompdp_region_info_name_item(&info, rt);
  CHECK_EQ_U64(rt->region_id, 0x101);
  ompdp_report_free(&r);

  /* No host code in the loop uses b: `map(tofrom: b)` around the loop,
   * the construct's map unchanged; 8 copies become 2. */
  no_host_access = 1;
  ompdp_report_init(&r);
  rt = finding(&r, OMPDP_FK_ROUND_TRIP, 1, 3);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 1);
  if (rt->num_rewrites == 1) {
    const ompdp_rewrite_t *rw = &rt->rewrites[0];
    CHECK_EQ_U64(rw->allocs_removed, 3);
    CHECK_EQ_U64(rw->transfers_removed, 6);
    CHECK(rw->assumption != NULL);
    EXPECT(SrcLoop, rw,
           "  #pragma omp target data map(tofrom: b)\n  for (int i = 0; i < 4; ++i) {\n"
           "#pragma omp target\n  b[0]++;\n  }\n");
  }
  ompdp_report_free(&r);
  no_host_access = 0;

  /* The host changes b between iterations (the copy in differs from what
   * came back) and the compiler saw no host write: keeping it resident
   * would lose that, so no rewrite. */
  s.ev[5].hash = 99;
  ompdp_report_init(&r);
  rt = finding(&r, OMPDP_FK_REPEATED_ALLOC, 1, 3);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 0);
  ompdp_report_free(&r);

  /* The device never changes it: nothing needs to come back. */
  evseq_t u = {.t = 1000};
  for (int i = 0; i < 3; ++i) {
    ev_alloc(&u, 1, 0, 0x1000, 0x9000);
    ev_copy(&u, 1, 0, 1, 0x1000, 0x9000, 7);
    ev_copy(&u, 1, 0, 0, 0x1000, 0x9000, 7);
    ev_delete(&u, 1, 0x9000);
  }
  ompdp_report_init(&r);
  rt = finding(&r, OMPDP_FK_DUPLICATE_TRANSFER, 1, 2);
  CHECK(ompdp_rewrite_report_events(&r, u.ev, u.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 1 && rt->rewrites[0].num_edits == 1 &&
        rt->rewrites[0].transfers_removed == 2 + 3);
  ompdp_report_free(&r);

  /* Another construct uses the buffer between two iterations: no rewrite. */
  ev_copy(&u, 4, 0, 1, 0x1000, 0x9000, 7);
  ev_alloc(&u, 1, 0, 0x1000, 0x9000);
  ev_delete(&u, 1, 0x9000);
  ompdp_report_init(&r);
  rt = finding(&r, OMPDP_FK_REPEATED_ALLOC, 1, 3);
  CHECK(ompdp_rewrite_report_events(&r, u.ev, u.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 0);
  ompdp_report_free(&r);
}

/* Listing 2 with the host's read of b under a condition (at most once per
 * iteration, not every time). Counted as if the update ran every time, the
 * update way moves no more than the program does now (8 copies, at most 6)
 * and is taken: its saving is a lower bound. Where no directive can go
 * around the read, the copy back in every iteration instead, exact. */
static void test_policy_conditional(void) {
  evseq_t s = {.t = 1000};
  listing2_events(&s);
  ompdp_host_access_t cond = HostRead;
  cond.Flags = OMPDP_HA_STATEMENT | OMPDP_HA_AT_MOST_ONCE | OMPDP_HA_AFTER;
  host_access1 = &cond;
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *rt = finding(&r, OMPDP_FK_ROUND_TRIP, 1, 3);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 1);
  if (rt->num_rewrites == 1) {
    const ompdp_rewrite_t *rw = &rt->rewrites[0];
    CHECK(rw->lower_bound);
    CHECK_EQ_U64(rw->allocs_removed, 3);
    CHECK_EQ_U64(rw->transfers_removed, 2);
    EXPECT(SrcLoop, rw,
           "  #pragma omp target data map(tofrom: b)\n  for (int i = 0; i < 4; ++i) {\n"
           "#pragma omp target\n  b[0]++;\n  #pragma omp target update from(b)\n  }\n");
  }
  ompdp_report_free(&r);

  cond.Flags = OMPDP_HA_AT_MOST_ONCE | OMPDP_HA_AFTER;
  ompdp_report_init(&r);
  rt = finding(&r, OMPDP_FK_ROUND_TRIP, 1, 3);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  CHECK(rt->num_rewrites == 1);
  if (rt->num_rewrites == 1) {
    const ompdp_rewrite_t *rw = &rt->rewrites[0];
    CHECK(!rw->lower_bound);
    CHECK_EQ_U64(rw->transfers_removed, 3);
    EXPECT(SrcLoop, rw,
           "  #pragma omp target data map(to: b)\n  for (int i = 0; i < 4; ++i) {\n#pragma omp "
           "target map(always, from: b)\n  b[0]++;\n  }\n");
  }
  ompdp_report_free(&r);
  host_access1 = &HostRead;
}

static void test_policy_one_loop(void) {
  /* Two constructs in one loop, each with its own round trips: one rewrite
   * with both maps, given to both findings. */
  evseq_t s = {.t = 1000};
  for (int i = 0; i < 3; ++i)
    for (uint32_t r = 5; r <= 6; ++r) {
      uint64_t host = 0x1000 * r, dev = 0x9000 * r;
      ev_alloc(&s, r, 0, host, dev);
      ev_copy(&s, r, 0, 1, host, dev, 100 * r + (uint64_t)i);
      ev_copy(&s, r, 0, 0, host, dev, 100 * r + (uint64_t)i + 1);
      ev_delete(&s, r, dev);
    }
  ompdp_report_t r;
  ompdp_report_init(&r);
  finding(&r, OMPDP_FK_ROUND_TRIP, 5, 2);
  finding(&r, OMPDP_FK_ROUND_TRIP, 6, 2);
  finding(&r, OMPDP_FK_REPEATED_ALLOC, 6, 2);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  for (size_t i = 0; i < r.num_findings; ++i)
    CHECK(r.findings[i].num_rewrites == 1);
  if (r.findings[0].num_rewrites == 1 && r.findings[2].num_rewrites == 1) {
    const ompdp_rewrite_t *rw = &r.findings[0].rewrites[0];
    CHECK(ompdp_rewrite_same_edits(rw, &r.findings[2].rewrites[0]));
    CHECK_EQ_U64(rw->allocs_removed, 4);
    CHECK_EQ_U64(rw->transfers_removed, 4);
    EXPECT(SrcTwo, rw,
           "  #pragma omp target data map(to: b) map(to: c)\n  for (int i = 0; i < 4; ++i) {\n"
           "#pragma omp target map(always, from: b)\n  b[0]++;\n"
           "#pragma omp target map(always, from: c)\n  c[0]++;\n  }\n");
  }
  ompdp_report_free(&r);
}

static void test_policy_access(void) {
  /* `a` goes in unchanged three times. Whether keeping it resident is safe
   * depends on whether the region writes it, which only the compiler
   * knows: unknown gives the rewrite with that assumption, read gives it
   * without, write gives none. */
  evseq_t s = {.t = 1000};
  for (int i = 0; i < 3; ++i) {
    ev_alloc(&s, 7, 0, 0x7000, 0xB000);
    ev_copy(&s, 7, 0, 1, 0x7000, 0xB000, 5);
    ev_delete(&s, 7, 0xB000);
  }
  const uint32_t Access[3] = {OMPDP_ACCESS_UNKNOWN, OMPDP_ACCESS_READ, OMPDP_ACCESS_WRITE};
  for (int k = 0; k < 3; ++k) {
    access7 = Access[k];
    ompdp_report_t r;
    ompdp_report_init(&r);
    ompdp_finding_t *f = finding(&r, OMPDP_FK_DUPLICATE_TRANSFER, 7, 2);
    CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
    CHECK(f->num_rewrites == (k < 2 ? 1u : 0u));
    if (f->num_rewrites == 1) {
      CHECK((f->rewrites[0].assumption != NULL) == (k == 0));
      CHECK_EQ_U64(f->rewrites[0].transfers_removed, 2);
      EXPECT(SrcTo, &f->rewrites[0],
             "  #pragma omp target data map(to: a)\n  for (int i = 0; i < 4; ++i) {\n#pragma "
             "omp target map(to: a)\n  ;\n  }\n");
    }
    ompdp_report_free(&r);
  }
  access7 = 0;
}

static void test_policy_unused(void) {
  /* enter data map(to: x), no kernel, exit data map(delete: x) */
  evseq_t s = {.t = 1000};
  ev_alloc(&s, 2, 0, 0x2000, 0xA000);
  ev_copy(&s, 2, 0, 1, 0x2000, 0xA000, 5);
  ev_delete(&s, 3, 0xA000);
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *f = finding(&r, OMPDP_FK_UNUSED_ALLOC, 2, 1);
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  CHECK(f->num_rewrites == 1);
  if (f->num_rewrites == 1) {
    const ompdp_rewrite_t *rw = &f->rewrites[0];
    CHECK(rw->kind == OMPDP_RK_REMOVE_ITEM && rw->num_edits == 2);
    CHECK_EQ_U64(rw->allocs_removed, 1);
    CHECK_EQ_U64(rw->transfers_removed, 1);
    CHECK_EQ_U64(rw->time_saved_ns, 30);
    if (rw->num_edits == 2) {
      CHECK(!strcmp(rw->edits[0].original, "#pragma omp target enter data map(to: x)"));
      CHECK(!strcmp(rw->edits[1].original, "#pragma omp target exit data map(delete: x)"));
    }
  }
  ompdp_report_free(&r);

  /* two updates to the same bytes, no kernel: the first is unused; if
   * something copies the bytes back in between, it is not removable */
  evseq_t u = {.t = 1000};
  ev_alloc(&u, 2, 0, 0x2000, 0xA000);
  ev_copy(&u, 4, 0, 1, 0x2000, 0xA000, 5);
  ev_copy(&u, 2, 0, 1, 0x2000, 0xA000, 6);
  ompdp_report_init(&r);
  f = finding(&r, OMPDP_FK_UNUSED_TRANSFER, 4, 1);
  CHECK(ompdp_rewrite_report_events(&r, u.ev, u.n, HOST, describe) == 0);
  CHECK(f->num_rewrites == 1 && f->rewrites[0].transfers_removed == 1);
  ompdp_report_free(&r);
  u.n = 2;
  ev_copy(&u, 3, 0, 0, 0x2000, 0xA000, 5);
  ev_copy(&u, 2, 0, 1, 0x2000, 0xA000, 6);
  ompdp_report_init(&r);
  f = finding(&r, OMPDP_FK_UNUSED_TRANSFER, 4, 1);
  CHECK(ompdp_rewrite_report_events(&r, u.ev, u.n, HOST, describe) == 0);
  CHECK(f->num_rewrites == 0);
  ompdp_report_free(&r);
}

/* The run's facts behind a repeated computation (d2h_recomputed) and a
 * copy back of data that nothing touched (d2h_idle), through the plan to
 * the verdict: region 1 copies x back three times with the same bytes
 * after one copy in, each after a kernel (a kernel on resident data in a
 * timing loop). mid: what reaches the device between the second and the
 * third copy back (0: nothing; 1: new bytes of another buffer; 2: x's own
 * bytes again, which the device already has; 3: no kernels at all). The
 * verdict, and its words in *words (owned) when words is not NULL. */
static ompdp_verdict_t rerun_verdict(int mid, char **words) {
  evseq_t s = {.t = 1000};
  ev_alloc(&s, 2, 0, 0x2000, 0xA000);
  ev_copy(&s, 2, 0, 1, 0x2000, 0xA000, 5);
  for (int k = 0; k < 3; ++k) {
    if (k == 2 && mid == 1) {
      ev_alloc(&s, 4, 0, 0x3000, 0xB000);
      ev_copy(&s, 4, 0, 1, 0x3000, 0xB000, 77);
    } else if (k == 2 && mid == 2) {
      ev_copy(&s, 4, 0, 1, 0x2000, 0xA000, 9);
    }
    if (mid != 3)
      add(&s, OMPDP_EV_KERNEL, 1, -1)->dst_dev = DEV;
    ev_copy(&s, 1, 0, 0, 0x2000, 0xA000, 9);
  }
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *f = finding(&r, OMPDP_FK_DUPLICATE_TRANSFER, 1, 2);
  f->same_buffer = 2;
  f->variable = ompdp_strdup("x");
  f->ops.known = 1;
  f->ops.c[OMPDP_OC_D2H].count = 2;
  no_host_access = 1;
  CHECK(ompdp_rewrite_report_events(&r, s.ev, s.n, HOST, describe) == 0);
  no_host_access = 0;
  ompdp_verdict_t v = r.findings[0].verdict;
  if (words) {
    *words = r.findings[0].suggestion;
    r.findings[0].suggestion = NULL;
  }
  ompdp_report_free(&r);
  return v;
}

static void test_verdict_rerun(void) {
  CHECK(rerun_verdict(0, NULL) == OMPDP_V_REPEATED_COMPUTATION);
  CHECK(rerun_verdict(1, NULL) == OMPDP_V_ADVICE);
  CHECK(rerun_verdict(2, NULL) == OMPDP_V_REPEATED_COMPUTATION);
  /* memcpy's `target update from` again and again, no kernel: the copies
   * back only repeat data movement, advice that says so. */
  char *w = NULL;
  CHECK(rerun_verdict(3, &w) == OMPDP_V_ADVICE);
  CHECK(w && strstr(w, "neither a kernel nor a transfer of new data ran on the device since"));
  free(w);
}

static void test_text_matches(void) {
  CHECK(ompdp_text_matches("map(to : a)", 11, "map(to: a)"));
  CHECK(ompdp_text_matches("map(to:\\\n  a)", 13, "map(to: a)"));
  CHECK(ompdp_text_matches("  \n", 3, ""));
  CHECK(!ompdp_text_matches("map(to: b)", 10, "map(to: a)"));
  CHECK(!ompdp_text_matches("map(to: a) x", 12, "map(to: a)"));
  CHECK(!ompdp_text_matches("map(to: a", 9, "map(to: a)"));
}

static void test_host_updates(void) {
  /* `target update from` before each host statement that uses the item,
   * `to` after each that writes it, on lines of their own with the
   * statement's indentation. */
  ompdp_rewrite_t rw = {0};
  const char *why = NULL;
  const char *s = "  for (;;) {\n    s += a[0];\n    a[1] = s;\n#pragma omp target map(tofrom: a)\n"
                  "    ;\n  }\n";
  ompdp_region_info_t it = item(s, "target", "map(tofrom: a)", "a", "a", "tofrom", 12);
  const ompdp_host_access_t acc[2] = {
      {.Access = OMPDP_ACCESS_READ, .Flags = OMPDP_HA_STATEMENT | OMPDP_HA_EVERY_TIME,
       .Line = 2, .Column = 5, .EndLine = 2, .EndColumn = 15, .Length = 10},
      {.Access = OMPDP_ACCESS_WRITE, .Flags = OMPDP_HA_STATEMENT | OMPDP_HA_EVERY_TIME,
       .Line = 3, .Column = 5, .EndLine = 3, .EndColumn = 14, .Length = 9}};
  it.host_accesses = acc;
  it.num_host_accesses = 2;
  CHECK(ompdp_rw_host_updates(&rw, &it, 1, &why) == 0);
  EXPECT(s, &rw,
         "  for (;;) {\n    #pragma omp target update from(a)\n    s += a[0];\n"
         "    #pragma omp target update from(a)\n    a[1] = s;\n    #pragma omp target update "
         "to(a)\n#pragma omp target map(tofrom: a)\n    ;\n  }\n");
  reset(&rw);
  /* The device does not change it: only the writes send it. */
  CHECK(ompdp_rw_host_updates(&rw, &it, 0, &why) == 0);
  EXPECT(s, &rw,
         "  for (;;) {\n    s += a[0];\n    a[1] = s;\n    #pragma omp target update to(a)\n"
         "#pragma omp target map(tofrom: a)\n    ;\n  }\n");
  reset(&rw);
  /* A use that is no statement of its own (a loop condition): refused. */
  ompdp_host_access_t cond = acc[0];
  cond.Flags = 0;
  it.host_accesses = &cond;
  it.num_host_accesses = 1;
  CHECK(ompdp_rw_host_updates(&rw, &it, 1, &why) == -1 && why);
  reset(&rw);
}

int main(void) {
  test_text_matches();
  test_host_updates();
  test_remove_lists();
  test_remove_directive();
  test_set_map_type();
  test_firstprivate_items();
  test_keep_resident();
  test_policy_keep_resident();
  test_policy_conditional();
  test_policy_one_loop();
  test_policy_access();
  test_policy_unused();
  test_verdict_rerun();
  return CHECK_DONE();
}
