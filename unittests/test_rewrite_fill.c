/*===- test_rewrite_fill.c - alloc_and_fill rewrites for zero transfers --===*\
|*
|* Synthetic zero_transfer findings (the detection's output: region, item,
|* count) on hand-written event sequences, with a stand-in region table
|* whose records carry the compiler's fill facts. The rewrite must be made
|* only when every copy in at the site was all zeros (the hash of as many
|* zero bytes) and the construct allows it; its edits are checked the way
|* `ompdp fix` checks them (ompdp_text_matches), applied, and the source
|* must come out as expected. A `target update to` item gets the fill in
|* place of its copy; one the fill cannot replace gets the reason in its
|* suggestion.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "detect.h"
#include "edits.h"
#include "rewrite.h"
#include "rewrite_impl.h" /* ompdp_fill_literal */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*--- the stand-in region table ---------------------------------------------*/

/* An explicit item of the first directive in src; the statement (for
 * target/target data) ends just past the first occurrence of stmt_end. */
static ompdp_region_info_t record(const char *src, const char *construct, const char *clause,
                                  const char *expr, const char *var, const char *type,
                                  const char *stmt_end) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  const char *p = strstr(src, "#pragma");
  it.construct = ompdp_construct_kind_parse(construct);
  it.file = it.source_file = "t.c";
  it.function = "f";
  it.loop_kind = OMPDP_LK_NONE;
  pos_of(src, (size_t)(p - src), &it.line, &it.column);
  pos_of(src, (size_t)(strchr(p, '\n') - src), &it.end_line, &it.end_column);
  const char *c = strstr(p, clause);
  /* Past "map(type" (a motion clause names no type). */
  const char *x = strstr(strncmp(clause, "map(", 4) ? c : c + strlen(type) + 4, expr);
  pos_of(src, (size_t)(c - src), &it.clause_line, &it.clause_column);
  pos_of(src, (size_t)((c + strlen(clause)) - src), &it.clause_end_line, &it.clause_end_column);
  pos_of(src, (size_t)(x - src), &it.item_line, &it.item_column);
  pos_of(src, (size_t)((x + strlen(expr)) - src), &it.item_end_line, &it.item_end_column);
  it.clause = clause;
  it.expr = expr;
  it.variable = var;
  it.map_type = ompdp_map_type_parse(type);
  it.num_items = 1;
  if (stmt_end) {
    const char *e = strstr(p, stmt_end) + strlen(stmt_end);
    pos_of(src, (size_t)(p - src), &it.stmt_line, &it.stmt_column);
    pos_of(src, (size_t)(e - src), &it.stmt_end_line, &it.stmt_end_column);
    it.block = 1;
  }
  it.fill_type = it.fill_lower = it.fill_length = "";
  it.directive = it.other_clauses = "";
  return it;
}

static void section(ompdp_region_info_t *it, const char *type, uint32_t size, int scalar,
                    const char *lower, const char *length) {
  it->fill_flags = OMPDP_FILL_SECTION | (scalar ? OMPDP_FILL_SCALAR : 0);
  it->fill_type = type;
  it->fill_elem_size = size;
  it->fill_lower = lower;
  it->fill_length = length;
}

static const char *SrcEnter = "  #pragma omp target enter data map(to: a[0:n])\n  work(a);\n";
static const char *SrcTarget = "{\n#pragma omp target map(tofrom: s[1:n - 1])\n  s[1].a++;\n}\n";
static const char *SrcWhole = "{\n#pragma omp target data map(to: w)\n  { run(w); }\n}\n";
static const char *SrcNowait = "#pragma omp target enter data map(to: a[0:n]) nowait\n";
static const char *SrcDev = "#pragma omp target enter data map(to: a[0:n]) device(2)\n";
static const char *SrcIf = "#pragma omp target enter data map(to: a[0:n]) if(c)\n";
static const char *SrcCall = "#pragma omp target enter data map(to: a[0:f(n)])\n";
static const char *SrcUpdate =
    "  {\n  #pragma omp target update to(a[0:n]) device(1)\n  work(a);\n  }\n";
static const char *SrcUpdateTwo = "#pragma omp target update to(b[0:p.n], a[0:n])\n";
static const char *SrcUpdateNowait = "#pragma omp target update to(a[0:n]) nowait\n";

/* A `target update to` item of src (region 9 on): the clause is to(...). */
static ompdp_region_info_t update_record(const char *src, const char *clause, const char *expr,
                                         const char *var) {
  ompdp_region_info_t it = record(src, "target update", clause, expr, var, "to", NULL);
  it.map_type = OMPDP_MT_UPDATE_TO;
  return it;
}

static int describe(uint32_t region, int it, ompdp_region_info_t *out) {
  if (region == 10 && it == 1) { /* a[0:n], after b[0:p.n] in one clause */
    *out = update_record(SrcUpdateTwo, "to(b[0:p.n], a[0:n])", "a[0:n]", "a");
    out->num_items = 2;
    section(out, "float", 4, 1, "0", "n");
    out->id = 0x100 + region;
    return 0;
  }
  if (it > 0)
    return -1;
  switch (region) {
  case 1:
    *out = record(SrcEnter, "target enter data", "map(to: a[0:n])", "a[0:n]", "a", "to", NULL);
    section(out, "double", 8, 1, "0", "n");
    break;
  case 2:
    *out = record(SrcTarget, "target", "map(tofrom: s[1:n - 1])", "s[1:n - 1]", "s", "tofrom",
                  "s[1].a++;");
    section(out, "struct S", 8, 0, "1", "n - 1");
    break;
  case 3:
    *out = record(SrcWhole, "target data", "map(to: w)", "w", "w", "to", "}");
    out->fill_flags = OMPDP_FILL_WHOLE | OMPDP_FILL_SCALAR;
    out->fill_type = "int";
    out->fill_elem_size = 4;
    out->fill_count = 16;
    break;
  case 4:
    *out = record(SrcNowait, "target enter data", "map(to: a[0:n])", "a[0:n]", "a", "to", NULL);
    out->nowait = 1;
    section(out, "double", 8, 1, "0", "n");
    break;
  case 5:
    *out = record(SrcCall, "target enter data", "map(to: a[0:f(n)])", "a[0:f(n)]", "a", "to",
                  NULL);
    section(out, "double", 8, 1, "0", "f(n)");
    break;
  case 7:
  case 8:
    *out = record(region == 7 ? SrcDev : SrcIf, "target enter data", "map(to: a[0:n])", "a[0:n]",
                  "a", "to", NULL);
    out->other_clauses = region == 7 ? "device(2)" : "if(c)";
    section(out, "double", 8, 1, "0", "n");
    break;
  case 9:
    *out = update_record(SrcUpdate, "to(a[0:n])", "a[0:n]", "a");
    out->other_clauses = "device(1)";
    out->directive = "#pragma omp target update to(a[0:n]) device(1)";
    section(out, "float", 4, 1, "0", "n");
    break;
  case 10:
    *out = update_record(SrcUpdateTwo, "to(b[0:p.n], a[0:n])", "b[0:p.n]", "b");
    out->num_items = 2;
    section(out, "double", 8, 1, "", "p.n");
    break;
  case 11:
    *out = update_record(SrcUpdateNowait, "to(a[0:n])", "a[0:n]", "a");
    out->nowait = 1;
    section(out, "float", 4, 1, "0", "n");
    break;
  case 12: /* no fill facts */
    *out = update_record(SrcUpdateNowait, "to(a[0:n])", "a[0:n]", "a");
    out->directive = "#pragma omp target update to(a[0:n])";
    break;
  case 6: /* the exit data of region 1's item */
    *out = record("#pragma omp target exit data map(delete: a[0:n])\n", "target exit data",
                  "map(delete: a[0:n])", "a[0:n]", "a", "delete", NULL);
    break;
  default:
    return -1;
  }
  out->id = 0x100 + region;
  return 0;
}

/*--- events ----------------------------------------------------------------*/

#define HOST 9
#define DEV 0

typedef struct evseq {
  ompdp_event_t ev[64];
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
  e->t_end = s->t += 10;
  return e;
}
static void ev_alloc(evseq_t *s, uint32_t r, uint64_t host, uint64_t dev, uint64_t bytes) {
  ompdp_event_t *e = add(s, OMPDP_EV_ALLOC, r, 0);
  e->src_dev = HOST;
  e->dst_dev = DEV;
  e->src_addr = host;
  e->dst_addr = dev;
  e->bytes = bytes;
}
static void ev_delete(evseq_t *s, uint32_t r, uint64_t dev) {
  ompdp_event_t *e = add(s, OMPDP_EV_DELETE, r, -1);
  e->src_dev = DEV;
  e->dst_dev = -1;
  e->src_addr = dev;
}
static void ev_copy(evseq_t *s, uint32_t r, int in, uint64_t host, uint64_t dev, uint64_t bytes,
                    uint64_t hash) {
  ompdp_event_t *e = add(s, OMPDP_EV_TRANSFER, r, 0);
  e->src_dev = in ? HOST : DEV;
  e->dst_dev = in ? DEV : HOST;
  e->src_addr = in ? host : dev;
  e->dst_addr = in ? dev : host;
  e->bytes = bytes;
  e->hash = hash;
  e->flags |= OMPDP_EVF_HASHED;
}

/* One execution of an enter (region r) / exit (region 6) pair, or of a
 * structured construct (exit_region 0: r frees it). */
static void mapping(evseq_t *s, uint32_t r, uint32_t exit_region, uint64_t host, uint64_t bytes,
                    uint64_t in_hash, int copy_back) {
  ev_alloc(s, r, host, 0x9000, bytes);
  ev_copy(s, r, 1, host, 0x9000, bytes, in_hash);
  add(s, OMPDP_EV_KERNEL, r, -1)->dst_dev = DEV;
  if (copy_back)
    ev_copy(s, exit_region ? exit_region : r, 0, host, 0x9000, bytes, 77);
  ev_delete(s, exit_region ? exit_region : r, 0x9000);
}

static ompdp_finding_t *zero_finding(ompdp_report_t *r, uint32_t region, uint64_t count) {
  ompdp_finding_t *f = ompdp_report_add_finding(r, OMPDP_FK_ZERO_TRANSFER);
  f->rt_region = region;
  f->item = 0;
  f->count = count;
  return f;
}

/* Runs the planner on s with one zero_transfer finding at region; returns
 * the number of rewrites it got (and the rewrite in *out, owned by r). */
static size_t plan(evseq_t *s, uint32_t region, ompdp_report_t *r, const ompdp_rewrite_t **out) {
  ompdp_report_init(r);
  ompdp_finding_t *f = zero_finding(r, region, 2);
  CHECK(ompdp_rewrite_report_events(r, s->ev, s->n, HOST, describe) == 0);
  *out = f->num_rewrites ? &f->rewrites[0] : NULL;
  return f->num_rewrites;
}

static void test_enter_data(void) {
  uint64_t z = ompdp_zero_hash(800);
  evseq_t s = {.t = 1000};
  mapping(&s, 1, 6, 0x1000, 800, z, 0);
  mapping(&s, 1, 6, 0x1000, 800, z, 0);
  ompdp_report_t r;
  const ompdp_rewrite_t *rw;
  CHECK(plan(&s, 1, &r, &rw) == 1);
  if (rw) {
    CHECK(rw->kind == OMPDP_RK_ALLOC_AND_FILL);
    CHECK_EQ_U64(rw->transfers_removed, 2);
    CHECK_EQ_U64(rw->bytes_removed, 1600);
    CHECK_EQ_U64(rw->allocs_removed, 0);
    CHECK_EQ_U64(rw->time_saved_ns, 20);
    CHECK(rw->description && strstr(rw->description, "with `alloc`"));
    CHECK(rw->assumption && strstr(rw->assumption, "not on the device already"));
    EXPECT(SrcEnter, rw,
           "  #pragma omp target enter data map(alloc: a[0:n])\n"
           "  #pragma omp target teams distribute parallel for map(alloc: a[0:n])\n"
           "  for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i)\n"
           "    a[ompdp_i] = 0;\n"
           "  work(a);\n");
  }
  ompdp_report_free(&r);

  /* One copy of other bytes at the site: no rewrite. */
  evseq_t m = {.t = 1000};
  mapping(&m, 1, 6, 0x1000, 800, z, 0);
  mapping(&m, 1, 6, 0x1000, 800, z ^ 1, 0);
  CHECK(plan(&m, 1, &r, &rw) == 0);
  ompdp_report_free(&r);

  /* Copies without their hash: nothing proves them zero. */
  evseq_t u = {.t = 1000};
  mapping(&u, 1, 6, 0x1000, 800, z, 0);
  u.ev[1].flags &= (uint8_t)~OMPDP_EVF_HASHED;
  CHECK(plan(&u, 1, &r, &rw) == 0);
  ompdp_report_free(&r);

  /* A copy in without its allocation (the data was present): no rewrite. */
  evseq_t p = {.t = 1000};
  mapping(&p, 1, 6, 0x1000, 800, z, 0);
  ev_alloc(&p, 1, 0x1000, 0x9000, 800);
  ev_copy(&p, 1, 1, 0x1000, 0x9000, 800, z);
  ev_copy(&p, 1, 1, 0x1000, 0x9000, 800, z);
  ev_delete(&p, 6, 0x9000);
  CHECK(plan(&p, 1, &r, &rw) == 0);
  ompdp_report_free(&r);

  /* nowait: the fill would race with the deferred mapping. */
  evseq_t nw = {.t = 1000};
  mapping(&nw, 4, 6, 0x1000, 800, z, 0);
  CHECK(plan(&nw, 4, &r, &rw) == 0);
  ompdp_report_free(&r);

  /* A call in the bounds: allowed, with the assumption said; it is
   * evaluated on the host, where the section's bounds are. */
  evseq_t cl = {.t = 1000};
  mapping(&cl, 5, 6, 0x1000, 800, z, 0);
  CHECK(plan(&cl, 5, &r, &rw) == 1);
  if (rw) {
    CHECK(rw->assumption && strstr(rw->assumption, "evaluate the same once more"));
    EXPECT(SrcCall, rw,
           "#pragma omp target enter data map(alloc: a[0:f(n)])\n"
           "{\n"
           "  const long long ompdp_n = (f(n));\n"
           "  #pragma omp target teams distribute parallel for map(alloc: a[0:f(n)])\n"
           "  for (long long ompdp_i = 0; ompdp_i < ompdp_n; ++ompdp_i)\n"
           "    a[ompdp_i] = 0;\n"
           "}\n");
  }
  ompdp_report_free(&r);

  /* The construct's device clause goes on the fill; an if clause is not
   * followed, so no rewrite. */
  evseq_t dv = {.t = 1000};
  mapping(&dv, 7, 6, 0x1000, 800, z, 0);
  CHECK(plan(&dv, 7, &r, &rw) == 1);
  if (rw)
    EXPECT(SrcDev, rw,
           "#pragma omp target enter data map(alloc: a[0:n]) device(2)\n"
           "#pragma omp target teams distribute parallel for map(alloc: a[0:n]) device(2)\n"
           "for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i)\n"
           "  a[ompdp_i] = 0;\n");
  ompdp_report_free(&r);
  evseq_t fi = {.t = 1000};
  mapping(&fi, 8, 6, 0x1000, 800, z, 0);
  CHECK(plan(&fi, 8, &r, &rw) == 0);
  ompdp_report_free(&r);
}

static void test_target(void) {
  uint64_t z = ompdp_zero_hash(64);
  evseq_t s = {.t = 1000};
  mapping(&s, 2, 0, 0x2000, 64, z, 1);
  mapping(&s, 2, 0, 0x2000, 64, z, 1);
  ompdp_report_t r;
  const ompdp_rewrite_t *rw;
  CHECK(plan(&s, 2, &r, &rw) == 1);
  if (rw) {
    CHECK(rw->kind == OMPDP_RK_ALLOC_AND_FILL);
    CHECK_EQ_U64(rw->transfers_removed, 2);
    CHECK_EQ_U64(rw->bytes_removed, 128);
    CHECK(rw->assumption == NULL);
    /* Bytes, not `= 0`, for a struct; the copy back moves to the exit. */
    EXPECT(SrcTarget, rw,
           "{\n"
           "#pragma omp target enter data map(alloc: s[1:n - 1])\n"
           "#pragma omp target teams distribute parallel for map(alloc: s[1:n - 1])\n"
           "for (long long ompdp_i = 0; ompdp_i < (n - 1) * (long long)sizeof(struct S); "
           "++ompdp_i)\n"
           "  ((unsigned char *)&s[1])[ompdp_i] = 0;\n"
           "#pragma omp target map(tofrom: s[1:n - 1])\n"
           "  s[1].a++;\n"
           "#pragma omp target exit data map(from: s[1:n - 1])\n"
           "}\n");
  }
  ompdp_report_free(&r);

  /* The same buffer mapped by another construct too: it may have been
   * present when this one ran (copying nothing), so no fill. */
  evseq_t o = {.t = 1000};
  mapping(&o, 2, 0, 0x2000, 64, z, 1);
  mapping(&o, 1, 6, 0x2000, 64, z, 0);
  CHECK(plan(&o, 2, &r, &rw) == 0);
  ompdp_report_free(&r);
}

static void test_whole(void) {
  uint64_t z = ompdp_zero_hash(64);
  evseq_t s = {.t = 1000};
  mapping(&s, 3, 0, 0x3000, 64, z, 0);
  ompdp_report_t r;
  const ompdp_rewrite_t *rw;
  CHECK(plan(&s, 3, &r, &rw) == 1);
  if (rw)
    EXPECT(SrcWhole, rw,
           "{\n"
           "#pragma omp target enter data map(alloc: w)\n"
           "#pragma omp target teams distribute parallel for map(alloc: w)\n"
           "for (long long ompdp_i = 0; ompdp_i < 16; ++ompdp_i)\n"
           "  ((int *)&w)[ompdp_i] = 0;\n"
           "#pragma omp target data map(to: w)\n"
           "  { run(w); }\n"
           "#pragma omp target exit data map(release: w)\n"
           "}\n");
  ompdp_report_free(&r);
  /* A whole variable of another size than the compiler said: no rewrite. */
  evseq_t b = {.t = 1000};
  mapping(&b, 3, 0, 0x3000, 128, ompdp_zero_hash(128), 0);
  CHECK(plan(&b, 3, &r, &rw) == 0);
  ompdp_report_free(&r);
}

/* Region r updates the present buffer (allocated and freed by region 6,
 * the data construct around it) `times` times with bytes of hash h. */
static void updates(evseq_t *s, uint32_t r, int times, uint64_t bytes, const uint64_t *h) {
  ev_alloc(s, 6, 0x4000, 0x9000, bytes);
  for (int i = 0; i < times; ++i) {
    ev_copy(s, r, 1, 0x4000, 0x9000, bytes, h[i]);
    add(s, OMPDP_EV_KERNEL, r, -1)->dst_dev = DEV;
  }
  ev_delete(s, 6, 0x9000);
}

static void test_update(void) {
  uint64_t z = ompdp_zero_hash(400), zz[2] = {z, z}, mixed[2] = {z, z ^ 1};
  ompdp_report_t r;
  const ompdp_rewrite_t *rw;
  /* The directive's only item: it goes, and the fill takes its place on
   * the update's device, finding the section present. */
  evseq_t s = {.t = 1000};
  updates(&s, 9, 2, 400, zz);
  CHECK(plan(&s, 9, &r, &rw) == 1);
  if (rw) {
    CHECK(rw->kind == OMPDP_RK_ALLOC_AND_FILL);
    CHECK_EQ_U64(rw->transfers_removed, 2);
    CHECK_EQ_U64(rw->bytes_removed, 800);
    CHECK_EQ_U64(rw->allocs_removed, 0);
    CHECK(rw->description &&
          strstr(rw->description, "instead of copying it with the `target update`"));
    CHECK(rw->assumption && strstr(rw->assumption, "holds only zeros whenever"));
    EXPECT(SrcUpdate, rw,
           "  {\n"
           "  #pragma omp target teams distribute parallel for map(alloc: a[0:n]) device(1)\n"
           "  for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i)\n"
           "    a[ompdp_i] = 0;\n"
           "  work(a);\n"
           "  }\n");
  }
  ompdp_report_free(&r);

  /* One item of two: it leaves the list; a member in its bounds is read
   * on the host, so that the kernel does not map the struct. */
  evseq_t t = {.t = 1000};
  updates(&t, 10, 2, 400, zz);
  CHECK(plan(&t, 10, &r, &rw) == 1);
  if (rw)
    EXPECT(SrcUpdateTwo, rw,
           "#pragma omp target update to(a[0:n])\n"
           "{\n"
           "  const long long ompdp_n = (p.n);\n"
           "  #pragma omp target teams distribute parallel for map(alloc: b[0:p.n])\n"
           "  for (long long ompdp_i = 0; ompdp_i < ompdp_n; ++ompdp_i)\n"
           "    b[ompdp_i] = 0;\n"
           "}\n");
  ompdp_report_free(&r);

  /* A copy nothing read as well: the item goes (unused_transfer), and no
   * fill is planned for the zero finding at the same site: it shows the
   * removal, which takes its copies too. */
  evseq_t un = {.t = 1000};
  updates(&un, 9, 2, 400, zz);
  ompdp_report_init(&r);
  ompdp_finding_t *fu = ompdp_report_add_finding(&r, OMPDP_FK_UNUSED_TRANSFER);
  fu->rt_region = 9;
  fu->item = 0;
  fu->count = 2;
  zero_finding(&r, 9, 2);
  CHECK(ompdp_rewrite_report_events(&r, un.ev, un.n, HOST, describe) == 0);
  CHECK(r.findings[0].num_rewrites == 1 &&
        r.findings[0].rewrites[0].kind == OMPDP_RK_REMOVE_ITEM);
  CHECK(r.findings[1].num_rewrites == 1 &&
        r.findings[1].rewrites[0].kind == OMPDP_RK_REMOVE_ITEM);
  ompdp_report_free(&r);

  /* One copy of other bytes, nowait, no fill facts: no rewrite, and the
   * suggestion says why. */
  const struct {
    uint32_t region;
    const uint64_t *hashes;
    const char *why;
  } refused[] = {{9, mixed, "1 of its 2 copies sent bytes other than zeros"},
                 {11, zz, "has `nowait`, which a fill in its place"},
                 {12, zz, "no element type"}};
  for (size_t k = 0; k < sizeof(refused) / sizeof(refused[0]); ++k) {
    evseq_t n = {.t = 1000};
    updates(&n, refused[k].region, 2, 400, refused[k].hashes);
    ompdp_report_init(&r);
    ompdp_finding_t *f = zero_finding(&r, refused[k].region, 1);
    CHECK(ompdp_rewrite_report_events(&r, n.ev, n.n, HOST, describe) == 0);
    CHECK(f->num_rewrites == 0);
    CHECK(f->suggestion && strstr(f->suggestion, "No rewrite: ") &&
          strstr(f->suggestion, refused[k].why));
    ompdp_report_free(&r);
  }
}

/* A fill's value as a literal: only where converting it to the element's
 * type gives the bytes back; zero, -0.0, NaN, a plain char with its high
 * bit set (signed or not by the target), a type it does not know, a
 * period that does not divide the element: none. */
static void test_fill_literal(void) {
  static const struct {
    const char *type;
    uint32_t size;
    uint64_t pattern;
    uint32_t period;
    const char *want; /* NULL: no literal */
  } cases[] = {
      {"float", 4, 0x3f8000003f800000ULL, 4, "1"},
      {"double", 8, 0x3ff0000000000000ULL, 8, "1"},
      {"double", 8, 0x3fb999999999999aULL, 8, "0.1"},
      {"float", 4, 0x3dcccccd3dcccccdULL, 4, "0.1"},
      {"float", 4, 0xbfc00000bfc00000ULL, 4, "-1.5"},
      {"double", 8, 0x4004000000000000ULL, 8, "2.5"},
      {"unsigned int", 4, 0xffffffffffffffffULL, 1, "4294967295"},
      {"int", 4, 0xffffffffffffffffULL, 1, "-1"},
      {"short", 2, 0x0007000700070007ULL, 2, "7"},
      {"unsigned long", 8, 0xffffffffffffffffULL, 1, "18446744073709551615ULL"},
      {"long", 8, 0x8000000000000000ULL, 8, NULL},
      {"char", 1, 0xffffffffffffffffULL, 1, NULL},
      {"char", 1, 0x4141414141414141ULL, 1, "65"},
      {"unsigned char", 1, 0xffffffffffffffffULL, 1, "255"},
      {"_Bool", 1, 0x0101010101010101ULL, 1, "1"},
      {"_Bool", 1, 0x0202020202020202ULL, 1, NULL},
      {"float", 4, 0x7fc000007fc00000ULL, 4, NULL},
      {"double", 8, 0x8000000000000000ULL, 8, NULL},
      {"float", 4, 0, 4, NULL},
      {"struct cell", 4, 0x0000000100000001ULL, 4, NULL},
      {"double", 8, 0x0000000100000001ULL, 4, "2.1219957915e-314"}, /* subnormal: the shortest exact text */
      {"int", 4, 0x0102030401020304ULL, 8, NULL},
      {"float", 8, 0x3f8000003f800000ULL, 4, NULL},
  };
  for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); ++i) {
    char out[64] = "";
    int got = ompdp_fill_literal(cases[i].type, cases[i].size, cases[i].pattern, cases[i].period,
                                 out, sizeof(out));
    if (cases[i].want) {
      CHECK(got && !strcmp(out, cases[i].want));
      if (!got || strcmp(out, cases[i].want))
        fprintf(stderr, "  case %zu: got %d '%s'\n", i, got, out);
    } else {
      CHECK(!got);
      if (got)
        fprintf(stderr, "  case %zu: got '%s'\n", i, out);
    }
  }
}

int main(void) {
  test_fill_literal();
  test_update();
  test_enter_data();
  test_target();
  test_whole();
  return CHECK_DONE();
}
