/*===- test_verdict.c - what each finding is worth -----------------*- C -*-===*\
|*
|* The decision (ompdp_verdict_decide) case by case, each verdict with a
|* case that gets it and a close one that does not; then ompdp_assign_verdicts
|* on a report with a hand-made plan: the facts it reads from the plan (a
|* copy back that differed, host code that reads the item), the suggestion
|* it writes, and the summary's saving without the excluded findings.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "report.h"
#include "rewrite_safety.h" /* ompdp_rw_advise */
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

static ompdp_finding_t dup(uint64_t same, uint64_t other, uint64_t bytes_each, int d2h) {
  ompdp_finding_t f;
  memset(&f, 0, sizeof(f));
  f.kind = OMPDP_FK_DUPLICATE_TRANSFER;
  f.item = -1;
  f.same_buffer = same;
  f.other_buffer = other;
  f.count = same + other;
  f.bytes = f.count * bytes_each;
  f.ops.known = 1;
  f.ops.c[d2h ? OMPDP_OC_D2H : OMPDP_OC_H2D].count = f.count;
  return f;
}

static const ompdp_verdict_facts_t Facts = {.with_facts = 1};

static void test_fix(void) {
  ompdp_finding_t f = dup(3, 0, 8, 0);
  ompdp_rewrite_t rw = {.kind = OMPDP_RK_KEEP_RESIDENT};
  f.rewrites = &rw;
  f.num_rewrites = 1;
  /* A rewrite wins over every fact. */
  ompdp_verdict_facts_t v = Facts;
  v.dev_changed = 1;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_FIX);
  f.num_rewrites = 0;
  CHECK(ompdp_verdict_decide(&f, &v) != OMPDP_V_FIX);
  ompdp_finding_t u = {.kind = OMPDP_FK_UNUSED_ALLOC};
  u.rewrites = &rw;
  u.num_rewrites = 1;
  CHECK(ompdp_verdict_decide(&u, &Facts) == OMPDP_V_FIX);
}

static void test_advice(void) {
  /* The same host buffer, sent again, unchanged by the device. */
  ompdp_finding_t f = dup(3, 0, 4096, 0);
  CHECK(ompdp_verdict_decide(&f, &Facts) == OMPDP_V_ADVICE);
  /* Bytes of another buffer that the compiler sees copied into this one:
   * the device could make the copy. */
  ompdp_finding_t z = dup(0, 3, 1 << 20, 0);
  ompdp_verdict_facts_t c = Facts;
  c.copy_of_other = 1;
  CHECK(ompdp_verdict_decide(&z, &c) == OMPDP_V_ADVICE);
  /* Other kinds without a rewrite. */
  ompdp_finding_t a = {.kind = OMPDP_FK_REPEATED_ALLOC};
  CHECK(ompdp_verdict_decide(&a, &Facts) == OMPDP_V_ADVICE);
  /* A copy back of what the host had, with changing inputs: advice. */
  ompdp_finding_t b = dup(2, 0, 64, 1);
  ompdp_verdict_facts_t v = Facts;
  v.d2h = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_ADVICE);
  /* Not advice: the host reads it. */
  v.host_reads = 1;
  CHECK(ompdp_verdict_decide(&b, &v) != OMPDP_V_ADVICE);
}

static void test_necessary(void) {
  ompdp_finding_t f = dup(5, 0, 8, 0);
  ompdp_verdict_facts_t v = Facts;
  /* Jacobi's error: a copy back differed from what was sent. */
  v.dev_changed = 1;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_NECESSARY);
  /* A kernel writes it (the compiler's facts). */
  v = Facts;
  v.kernel_writes = 1;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_NECESSARY);
  /* A counter the host resets and reads back, which no input changed. */
  v = Facts;
  v.host_writes = 1;
  v.back_repeated = 1;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_NECESSARY);
  /* ... the reset alone, without copies back, is not. */
  v.back_repeated = 0;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_ADVICE);
  /* ... nor is a write the host may make (a routine of another file that
   * is passed the item) of a construct that sends it again and again:
   * the host may have computed the same values again. */
  v.site_resends = 1;
  v.host_writes_named = 1;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_REPEATED_COMPUTATION);
  /* ... not a call that might reach it only through another pointer. */
  v.host_writes_named = 0;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_ADVICE);
  v.host_writes = 0;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_ADVICE);
  v.site_resends = 0;
  /* A copy back the host reads every iteration. */
  ompdp_finding_t b = dup(3, 0, 4, 1);
  v = Facts;
  v.d2h = 1;
  v.host_reads = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_NECESSARY);
  /* A copy back of bytes the host received before, but not those it held
   * then (b += a, then b -= a / 2): needed, even unread in the loop. */
  v = Facts;
  v.d2h = 1;
  v.back_new = 1;
  v.inputs_same = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_NECESSARY);
  /* A round trip the host reads. */
  v = Facts;
  v.host_reads = 1;
  ompdp_finding_t r = {.kind = OMPDP_FK_ROUND_TRIP, .count = 2};
  CHECK(ompdp_verdict_decide(&r, &v) == OMPDP_V_NECESSARY);
  v.host_reads = 0;
  CHECK(ompdp_verdict_decide(&r, &v) == OMPDP_V_ADVICE);
  /* Once, from a construct whose kernels may write the item: the copy back
   * carries their result (equal to the host's this time); repeated, the
   * data could still stay on the device across the repeats. */
  ompdp_finding_t once = {.kind = OMPDP_FK_ROUND_TRIP, .count = 1};
  CHECK(ompdp_verdict_decide(&once, &v) == OMPDP_V_ADVICE);
  v.region_writes = 1;
  CHECK(ompdp_verdict_decide(&once, &v) == OMPDP_V_NECESSARY);
  CHECK(ompdp_verdict_decide(&r, &v) == OMPDP_V_ADVICE);
  v.region_writes = 0;
  /* Zeros (or one value) in every copy, of an item the host stores
   * computed values into: the copy carries them, needed; else advice. */
  ompdp_finding_t zt = {.kind = OMPDP_FK_ZERO_TRANSFER, .count = 1};
  ompdp_finding_t sv = {.kind = OMPDP_FK_SINGLE_VALUE_TRANSFER, .count = 1};
  v = Facts;
  CHECK(ompdp_verdict_decide(&zt, &v) == OMPDP_V_ADVICE);
  CHECK(ompdp_verdict_decide(&sv, &v) == OMPDP_V_ADVICE);
  v.host_values = 1;
  CHECK(ompdp_verdict_decide(&zt, &v) == OMPDP_V_NECESSARY);
  CHECK(ompdp_verdict_decide(&sv, &v) == OMPDP_V_NECESSARY);
  /* ... and never a verdict on a repeat of another kind. */
  ompdp_finding_t rt = {.kind = OMPDP_FK_ROUND_TRIP, .count = 2};
  CHECK(ompdp_verdict_decide(&rt, &v) == OMPDP_V_ADVICE);
}

static void test_coincidence(void) {
  /* hotspot's col and row, both 512. */
  ompdp_finding_t f = dup(0, 1, 4, 0);
  CHECK(ompdp_verdict_decide(&f, &Facts) == OMPDP_V_COINCIDENCE);
  /* Size is no evidence: two large buffers initialised alike (B filled
   * with A's seed) are each an input of their own. */
  ompdp_finding_t u = dup(0, 2, 4095, 0);
  CHECK(ompdp_verdict_decide(&u, &Facts) == OMPDP_V_COINCIDENCE);
  ompdp_finding_t l = dup(0, 2, 1 << 24, 0);
  CHECK(ompdp_verdict_decide(&l, &Facts) == OMPDP_V_COINCIDENCE);
  /* ... unless the compiler sees one copied into the other. */
  ompdp_verdict_facts_t cp = Facts;
  cp.copy_of_other = 1;
  CHECK(ompdp_verdict_decide(&l, &cp) == OMPDP_V_ADVICE);
  /* ... and without the plugin's facts nothing shows a copy. */
  ompdp_verdict_facts_t none = {0};
  CHECK(ompdp_verdict_decide(&l, &none) == OMPDP_V_COINCIDENCE);
  /* Coming back to the host, another variable's bytes are never a saving,
   * a copy or not. */
  ompdp_finding_t b = dup(0, 2, 1 << 20, 1);
  ompdp_verdict_facts_t v = Facts;
  v.d2h = 1;
  v.copy_of_other = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_COINCIDENCE);
  /* The bytes were first another variable's, but the site re-sends its own
   * unchanged bytes every time: a same-buffer repeat, not a coincidence. */
  v = Facts;
  v.site_resends = 1;
  CHECK(ompdp_verdict_decide(&f, &v) == OMPDP_V_ADVICE);
  /* Some repeats re-send the same buffer: not a coincidence. */
  ompdp_finding_t m = dup(1, 1, 4, 0);
  CHECK(ompdp_verdict_decide(&m, &Facts) == OMPDP_V_ADVICE);
}

static void test_repeated_computation(void) {
  ompdp_finding_t b = dup(3, 0, 4096, 1);
  ompdp_verdict_facts_t v = Facts;
  v.d2h = 1;
  v.inputs_same = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_REPEATED_COMPUTATION);
  /* Inputs that changed: the kernel recomputed the same result from other
   * inputs, which ompdp cannot tell will always hold. */
  v.inputs_same = 0;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_ADVICE);
  /* Without the plan's facts nothing is known about the inputs. */
  v = (ompdp_verdict_facts_t){.d2h = 1, .inputs_same = 1};
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_ADVICE);
  /* Copies to the device are never called a repeated computation. */
  ompdp_finding_t h = dup(3, 0, 4096, 0);
  v = Facts;
  v.inputs_same = 1;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_ADVICE);
  v = Facts;
  v.back_rerun = 1;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_ADVICE);
  /* matern: a `target update from` after a kernel on resident data, no
   * copy in of its own; no transfer brought the device new data between
   * the copies back. */
  v = Facts;
  v.d2h = 1;
  v.back_rerun = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_REPEATED_COMPUTATION);
  /* ... but the host reads what comes back every iteration: necessary. */
  v.host_reads = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_NECESSARY);
  /* ... and without the plan's facts, advice. */
  v = (ompdp_verdict_facts_t){.d2h = 1, .back_rerun = 1};
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_ADVICE);
  /* gmm: a function's `target update from`, in no loop there, after
   * kernels that got new data; the loop of its one caller reads the
   * argument after the call: necessary. */
  v = Facts;
  v.d2h = 1;
  v.caller_reads = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_NECESSARY);
  /* ... but kernels that got nothing new: the recomputation comes first. */
  v.inputs_same = 1;
  CHECK(ompdp_verdict_decide(&b, &v) == OMPDP_V_REPEATED_COMPUTATION);
  /* ... and a round trip of it: the copy back is how the host knows. */
  ompdp_finding_t rt = dup(3, 0, 4096, 1);
  rt.kind = OMPDP_FK_ROUND_TRIP;
  v = Facts;
  v.d2h = 1;
  CHECK(ompdp_verdict_decide(&rt, &v) == OMPDP_V_ADVICE);
  v.caller_reads = 1;
  CHECK(ompdp_verdict_decide(&rt, &v) == OMPDP_V_NECESSARY);
  /* A construct that sends its own bytes again, which host code of the
   * loops around it writes: the host wrote the same values again. */
  v = Facts;
  v.host_written = 1;
  v.site_resends = 1;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_REPEATED_COMPUTATION);
  /* ... but a kernel also writes it: each send resets it. */
  v.kernel_writes = 1;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_NECESSARY);
  /* ... also when the host changed the bytes at other sends (the run then
   * saw the site send other bytes too: no site_resends). */
  v = Facts;
  v.host_written = 1;
  v.site_h2d = 4;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_REPEATED_COMPUTATION);
  /* A construct that sent once, repeating another construct's send of the
   * same buffer (two updates in one call): no host code between them. */
  v.site_h2d = 1;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_ADVICE);
  v.site_h2d = 4;
  /* Written by the host, but the repeat is of another construct's send of
   * another variable: not the host's recomputation of this one. */
  ompdp_finding_t o = dup(0, 2, 4096, 0);
  CHECK(ompdp_verdict_decide(&o, &v) == OMPDP_V_COINCIDENCE);
  /* Re-sent, and no host write seen: advice. */
  v = Facts;
  v.site_resends = 1;
  CHECK(ompdp_verdict_decide(&h, &v) == OMPDP_V_ADVICE);
}

static void test_repeated_alloc(void) {
  ompdp_finding_t a = {.kind = OMPDP_FK_REPEATED_ALLOC, .count = 1};
  /* atomicIntrinsics: two instantiations' stack arrays at one address. */
  ompdp_verdict_facts_t v = Facts;
  v.own_variables = 1;
  CHECK(ompdp_verdict_decide(&a, &v) == OMPDP_V_COINCIDENCE);
  CHECK(!ompdp_verdict_saves(OMPDP_V_COINCIDENCE));
  /* One variable allocated again: advice. */
  v.own_variables = 0;
  CHECK(ompdp_verdict_decide(&a, &v) == OMPDP_V_ADVICE);
  /* A rewrite wins. */
  ompdp_rewrite_t rw = {.kind = OMPDP_RK_KEEP_RESIDENT};
  a.rewrites = &rw;
  a.num_rewrites = 1;
  v.own_variables = 1;
  CHECK(ompdp_verdict_decide(&a, &v) == OMPDP_V_FIX);
}

/*===- a report and its plan ---------------------------------------------===*/

/* Region 1: `target map(tofrom: err)` in a loop whose host code reads and
 * writes err (item 0). Region 2: `target map(to: a)` (item 0), nothing on
 * the host. */
static void test_assign(void) {
  static const ompdp_host_access_t err_host[] = {
      {.Item = 0, .Access = OMPDP_ACCESS_WRITE}, {.Item = 0, .Access = OMPDP_ACCESS_READ}};
  ompdp_plan_region_t regions[2];
  memset(regions, 0, sizeof(regions));
  ompdp_region_info_t items[2];
  memset(items, 0, sizeof(items));
  for (int i = 0; i < 2; ++i) {
    regions[i].handle = (uint32_t)i + 1;
    regions[i].head.construct = OMPDP_CK_TARGET;
    regions[i].head.num_items = 1;
    regions[i].head.file = regions[i].head.function = "";
    items[i] = regions[i].head;
    items[i].access = OMPDP_ACCESS_READ;
    regions[i].items = &items[i];
  }
  items[0].host_accesses = err_host;
  items[0].num_host_accesses = 2;
  ompdp_plan_site_t sites[2];
  memset(sites, 0, sizeof(sites));
  sites[0] = (ompdp_plan_site_t){.region = 1, .item = 0, .buf = 1, .h2d = 5, .d2h = 5,
                                 .dev_changed = 1};
  sites[1] = (ompdp_plan_site_t){.region = 2, .item = 0, .buf = 2, .h2d = 5};
  ompdp_plan_t plan = {.present = 1, .sites = sites, .num_sites = 2, .regions = regions,
                       .num_regions = 2};

  ompdp_report_t r;
  ompdp_report_init(&r);
  r.wall_time_ns = 1000000;
  r.time_saved_ns = 700;
  ompdp_finding_t *e = ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  e->count = e->same_buffer = 4;
  e->bytes = 32;
  e->time_saved_ns = 400;
  e->rt_region = 1;
  e->item = 0;
  e->variable = ompdp_strdup("error");
  e->suggestion = ompdp_strdup("keep it resident");
  e->ops.known = 1;
  e->ops.c[OMPDP_OC_H2D].count = 4;
  ompdp_finding_t *a = ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  a->count = a->same_buffer = 4;
  a->bytes = 4 << 20;
  a->time_saved_ns = 300;
  a->rt_region = 2;
  a->item = 0;
  a->suggestion = ompdp_strdup("keep it resident");
  a->ops.known = 1;
  a->ops.c[OMPDP_OC_H2D].count = 4;

  /* A round trip fixed by a rewrite of another kind than its own: the
   * words follow the rewrite. */
  ompdp_finding_t *t = ompdp_report_add_finding(&r, OMPDP_FK_ROUND_TRIP);
  t->suggestion = ompdp_strdup("keep it on the device across the enclosing loop");
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(t, OMPDP_RK_FIRSTPRIVATE);
  rw->description = ompdp_strdup("pass `q` as `firstprivate(q)`");

  CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
  CHECK(r.findings[2].verdict == OMPDP_V_FIX);
  CHECK(r.findings[2].suggestion &&
        !strcmp(r.findings[2].suggestion,
                "fixed by the rewrite below (firstprivate): pass `q` as `firstprivate(q)`"));
  CHECK(r.findings[0].verdict == OMPDP_V_NECESSARY);
  CHECK(r.findings[1].verdict == OMPDP_V_ADVICE);
  /* The necessary finding's words say why, never "keep it resident". */
  CHECK(r.findings[0].suggestion && strstr(r.findings[0].suggestion, "no saving") &&
        !strstr(r.findings[0].suggestion, "keep it resident with"));
  /* Advice says why there is no rewrite: the construct is in no loop and
   * its copies repeat, at calls of its function that the run did not see. */
  CHECK(r.findings[1].suggestion &&
        !strcmp(r.findings[1].suggestion,
                "keep it resident. No rewrite: "
                "the repeats come from calls of the construct's function that no code built with the "
                "ompdp plugin makes where it can see the function's body (a caller in another "
                "file, a call through a pointer or a virtual call), so ompdp does not know the "
                "caller's loop, nor how its arguments name the data."));
  CHECK_EQ_U64(r.excluded_time_ns, 400);
  CHECK_EQ_U64(r.time_saved_ns, 300);
  CHECK(r.predicted_speedup > 1.0);
  ompdp_report_free(&r);

  /* Without a plan: fix or advice by the rewrites alone, summary kept. */
  ompdp_report_init(&r);
  r.time_saved_ns = 50;
  ompdp_finding_t *n = ompdp_report_add_finding(&r, OMPDP_FK_ROUND_TRIP);
  n->time_saved_ns = 50;
  CHECK(ompdp_assign_verdicts(&r, NULL) == 0);
  CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
  CHECK_EQ_U64(r.time_saved_ns, 50);
  CHECK_EQ_U64(r.excluded_time_ns, 0);
  ompdp_report_free(&r);
}

/* A plan of two constructs (regions 1 and 2, one item each) that allocated
 * one buffer: fn1 and fn2 their functions, flags their items' access
 * flags, allocs1 how often region 1 allocated. Returns the verdict of the
 * repeated allocation at region 1, and its words in *words (owned). */
static ompdp_verdict_t alloc_verdict(const char *fn1, const char *fn2, uint32_t flags1,
                                     uint32_t flags2, uint64_t allocs1, char **words) {
  ompdp_plan_region_t regions[2];
  ompdp_region_info_t items[2];
  memset(regions, 0, sizeof(regions));
  memset(items, 0, sizeof(items));
  const char *fns[2] = {fn1, fn2};
  uint32_t flags[2] = {flags1, flags2};
  for (int i = 0; i < 2; ++i) {
    regions[i].handle = (uint32_t)i + 1;
    regions[i].head.construct = OMPDP_CK_TARGET_DATA;
    regions[i].head.num_items = 1;
    regions[i].head.file = "main.cpp";
    regions[i].head.function = fns[i];
    items[i] = regions[i].head;
    items[i].access_flags = flags[i];
    regions[i].items = &items[i];
  }
  ompdp_plan_site_t sites[2];
  memset(sites, 0, sizeof(sites));
  sites[0] = (ompdp_plan_site_t){.region = 1, .item = 0, .buf = 1, .allocs = allocs1,
                                 .deletes = allocs1};
  sites[1] = (ompdp_plan_site_t){.region = 2, .item = 0, .buf = 1, .allocs = 1, .deletes = 1};
  ompdp_plan_buf_t buf = {.device = 0, .num_sites = 2, .sites = {1, 2}};
  ompdp_plan_t plan = {.present = 1, .sites = sites, .num_sites = 2, .bufs = &buf,
                       .num_bufs = 1, .regions = regions, .num_regions = 2};
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_REPEATED_ALLOC);
  f->count = 1;
  f->rt_region = 1;
  f->item = 0;
  f->variable = ompdp_strdup("gpuData");
  f->loc.function = ompdp_strdup(fn1);
  f->related.function = ompdp_strdup(fn2);
  f->suggestion = ompdp_strdup("allocate it once outside the loop");
  CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
  ompdp_verdict_t v = r.findings[0].verdict;
  *words = r.findings[0].suggestion;
  r.findings[0].suggestion = NULL;
  ompdp_report_free(&r);
  return v;
}

static void test_assign_alloc(void) {
  const uint32_t a = OMPDP_IA_AUTOMATIC, h = OMPDP_IA_FRESH_HOST;
  char *w = NULL;
  /* testcase<unsigned int>'s stack array where testcase<int>'s was. */
  CHECK(alloc_verdict("testcase<unsigned int>", "testcase<int>", a, a, 1, &w) ==
        OMPDP_V_COINCIDENCE);
  CHECK(w && !strcmp(w, "no saving: different variables that got the same host address: "
                        "gpuData in testcase<unsigned int> is storage of its own at each call "
                        "of its function, allocated once there, and the earlier allocation "
                        "was another function's own variable in testcase<int>; nothing to "
                        "change"));
  free(w);
  /* conversion: a malloc'ed buffer of each instantiation, mapped once. */
  CHECK(alloc_verdict("convert<int, float>", "convert<float, float>", h, h, 1, &w) ==
        OMPDP_V_COINCIDENCE);
  free(w);
  /* extrema: the construct allocated its own buffer again at another call:
   * advice (the buffer may be allocated once, before the calls). */
  CHECK(alloc_verdict("test_1D<float>", "test_2D<float>", h, h, 2, &w) == OMPDP_V_ADVICE);
  CHECK(w && !strcmp(w, "allocate it once outside the loop. No rewrite: "
                "the repeats come from calls of the construct's function that no code built with the "
                "ompdp plugin makes where it can see the function's body (a caller in another "
                "file, a call through a pointer or a virtual call), so ompdp does not know the "
                "caller's loop, nor how its arguments name the data."));
  free(w);
  /* Two constructs of one function may map one variable in one call. */
  CHECK(alloc_verdict("f", "f", a, a, 1, &w) == OMPDP_V_ADVICE);
  free(w);
  /* The other function's item is not its own storage (a global, or a
   * pointer to the caller's array): maybe the same variable. */
  CHECK(alloc_verdict("g", "f", a, 0, 1, &w) == OMPDP_V_ADVICE);
  free(w);
  CHECK(alloc_verdict("g", "f", 0, a, 1, &w) == OMPDP_V_ADVICE);
  free(w);
}

/* Region 1 of a plan: one item, of map type mt, at a construct of kind ck. */
static void one_region(ompdp_plan_region_t *region, ompdp_region_info_t *item,
                       ompdp_construct_kind_t ck, ompdp_map_type_t mt) {
  memset(region, 0, sizeof(*region));
  region->handle = 1;
  region->head.construct = ck;
  region->head.num_items = 1;
  region->head.file = region->head.function = "";
  *item = region->head;
  item->map_type = mt;
  region->items = item;
}

/* A plan of one site and one region (one_region's). */
static ompdp_plan_t one_site_plan(ompdp_plan_site_t *site, ompdp_plan_region_t *region) {
  return (ompdp_plan_t){.present = 1, .sites = site, .num_sites = 1, .regions = region,
                        .num_regions = 1};
}

/* A report of one duplicate transfer of region 1's item, of var, count
 * times (all of the same buffer), the copies of class cls; it saves 100 ns
 * of the run's 100. */
static void one_duplicate(ompdp_report_t *r, uint64_t count, uint64_t bytes, const char *var,
                          int cls) {
  ompdp_report_init(r);
  ompdp_finding_t *f = ompdp_report_add_finding(r, OMPDP_FK_DUPLICATE_TRANSFER);
  f->count = f->same_buffer = count;
  f->bytes = bytes;
  f->time_saved_ns = 100;
  r->time_saved_ns = 100;
  f->rt_region = 1;
  f->item = 0;
  f->variable = ompdp_strdup(var);
  f->ops.known = 1;
  f->ops.c[cls].count = count;
}

/* matern: a `target update from` (region 1) of resident data, copied back
 * 54 times, 35 of them the bytes of the copy back before, after a kernel,
 * with nothing new sent to the device in between. */
static void test_assign_rerun(void) {
  ompdp_plan_region_t region;
  ompdp_region_info_t item;
  one_region(&region, &item, OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_FROM);
  /* enough 0: one copy back too few; 1: all of them; 2: none after a
   * kernel, all with nothing run on the device in between. */
  for (int enough = 0; enough < 3; ++enough) {
    ompdp_plan_site_t site = {.region = 1, .item = 0, .buf = 1, .d2h = 54, .dev_changed = 1,
                              .d2h_same = 35,
                              .d2h_recomputed = enough == 1 ? 35 : enough ? 0 : 34,
                              .d2h_idle = enough == 2 ? 35 : 0};
    ompdp_plan_t plan = one_site_plan(&site, &region);
    ompdp_report_t r;
    one_duplicate(&r, 35, 35 << 12, "result", OMPDP_OC_D2H);
    CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
    if (enough == 2) {
      /* Only data movement repeated: advice, in words that say so. */
      CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
      CHECK(r.findings[0].suggestion &&
            !strcmp(r.findings[0].suggestion,
                    "the copy back brought the host the bytes of result it already had, and "
                    "neither a kernel nor a transfer of new data ran on the device since it "
                    "last copied them back: drop it, or copy it back only where the host needs "
                    "it, e.g. `target update from(result)` after the loop; ompdp does not "
                    "remove a copy back on what one run shows"));
    } else if (enough) {
      CHECK(r.findings[0].verdict == OMPDP_V_REPEATED_COMPUTATION);
      CHECK(r.findings[0].suggestion &&
            !strcmp(r.findings[0].suggestion,
                    "a repeated computation: no transfer brought the device new data between "
                    "the copies back, and the same bytes of result came back each time; a "
                    "timing loop, or recomputation the programmer may remove"));
      CHECK_EQ_U64(r.excluded_time_ns, 100);
    } else {
      /* One of its copies back followed new bytes on the device. */
      CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
      CHECK_EQ_U64(r.excluded_time_ns, 0);
    }
    ompdp_report_free(&r);
  }
}

/* eigenvalue: a `target update to` (region 1) that ran 5 times; its copies
 * were never read in 4 of them (no kernel ran after), but in the first
 * one they were. The words must not say "remove the transfer"; when every
 * copy at the site was unused they are the detection's. */
static void test_assign_unused_some(void) {
  ompdp_plan_region_t region;
  ompdp_region_info_t item;
  one_region(&region, &item, OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_TO);
  for (int all = 0; all < 2; ++all) {
    ompdp_plan_site_t site = {.region = 1, .item = 0, .buf = 1, .h2d = all ? 4 : 5};
    ompdp_plan_t plan = one_site_plan(&site, &region);
    ompdp_report_t r;
    ompdp_report_init(&r);
    ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_UNUSED_TRANSFER);
    f->count = 4;
    f->rt_region = 1;
    f->item = 0;
    f->variable = ompdp_strdup("buf0");
    f->suggestion = ompdp_strdup("remove the transfer");
    /* What the planner said (plan_unused_transfer) ends the advice. */
    f->no_rewrite = ompdp_strdup("what it sends is copied back to the host later");
    CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
    CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
    if (all)
      CHECK(r.findings[0].suggestion &&
            !strcmp(r.findings[0].suggestion, "remove the transfer. No rewrite: what it sends "
                                              "is copied back to the host later."));
    else
      CHECK(r.findings[0].suggestion &&
            !strcmp(r.findings[0].suggestion,
                    "4 of the 5 copies in of buf0 here were overwritten or outlived every "
                    "kernel before one read them, but the others were read: the copy is "
                    "needed in some executions, so it stays; skip it only on the paths where "
                    "no kernel reads it (ompdp does not rewrite this)"));
    ompdp_report_free(&r);
  }
}

/* metropolis: the repeated allocation of `energy`, a kernel's reduction
 * variable and a local of a function with no loop around the construct, is
 * necessary; the same variable without the reduction flag (or in a loop of
 * its function) keeps the advice. */
static void test_assign_local_reduction(void) {
  for (int c = 0; c < 3; ++c) {
    ompdp_plan_region_t region;
    ompdp_region_info_t item;
    one_region(&region, &item, OMPDP_CK_TARGET, OMPDP_MT_TOFROM);
    region.head.loop_kind = item.loop_kind = c == 2 ? OMPDP_LK_FOR : OMPDP_LK_NONE;
    item.access_flags = OMPDP_IA_AUTOMATIC | (c == 1 ? 0 : OMPDP_IA_REDUCTION);
    ompdp_plan_site_t site = {.region = 1, .item = 0, .buf = 1, .allocs = 3, .deletes = 3,
                              .h2d = 3, .d2h = 3};
    ompdp_plan_t plan = one_site_plan(&site, &region);
    ompdp_report_t r;
    ompdp_report_init(&r);
    ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_REPEATED_ALLOC);
    f->count = 2;
    f->rt_region = 1;
    f->item = 0;
    f->variable = ompdp_strdup("energy");
    f->suggestion = ompdp_strdup("allocate it once outside the loop");
    CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
    if (c == 0) {
      CHECK(r.findings[0].verdict == OMPDP_V_NECESSARY);
      CHECK(r.findings[0].suggestion &&
            strstr(r.findings[0].suggestion, "energy is the kernel's reduction variable"));
    } else {
      CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
    }
    ompdp_report_free(&r);
  }
}

/* fwt, maxFlops: a `target update to` (region 1) sends the same bytes
 * twice; a kernel in a function the loop calls writes the data on the
 * device in between, which the run cannot see (the data never comes back)
 * and the compiler can (device-written): necessary, in words that say so.
 * Without the flag: advice. */
static void test_assign_update_resets(void) {
  for (int flag = 0; flag < 2; ++flag) {
    ompdp_plan_region_t region;
    ompdp_region_info_t item;
    one_region(&region, &item, OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_TO);
    item.access_flags = flag ? OMPDP_IA_DEVICE_WRITTEN : 0;
    ompdp_plan_site_t site = {.region = 1, .item = 0, .buf = 1, .h2d = 3};
    ompdp_plan_t plan = one_site_plan(&site, &region);
    ompdp_report_t r;
    one_duplicate(&r, 2, 2 << 20, "d_Kernel", OMPDP_OC_H2D);
    CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
    if (flag) {
      CHECK(r.findings[0].verdict == OMPDP_V_NECESSARY);
      CHECK(r.findings[0].suggestion &&
            !strcmp(r.findings[0].suggestion,
                    "no saving: device code that runs between the updates writes d_Kernel (the "
                    "compiler sees a kernel write it, here or in a function the code calls), so "
                    "each `target update to` resets the device's copy and is needed; moving it "
                    "or dropping it would break the program"));
      CHECK_EQ_U64(r.excluded_time_ns, 100);
    } else {
      CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
      CHECK_EQ_U64(r.excluded_time_ns, 0);
    }
    ompdp_report_free(&r);
  }
}

/* A `target update to` of arrays a host routine fills in the loop: a
 * repeated computation, and its words never say to move the update (the
 * flag clear: advice that says why ompdp did not move it). */
static void test_assign_host_written(void) {
  for (int flag = 0; flag < 2; ++flag) {
    ompdp_plan_region_t region;
    ompdp_region_info_t item;
    one_region(&region, &item, OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_TO);
    item.access_flags = flag ? OMPDP_IA_HOST_WRITTEN : 0;
    ompdp_plan_site_t site = {.region = 1, .item = 0, .buf = 1, .h2d = 3};
    ompdp_plan_t plan = one_site_plan(&site, &region);
    ompdp_report_t r;
    one_duplicate(&r, 2, 2 << 20, "h_in", OMPDP_OC_H2D);
    CHECK(ompdp_assign_verdicts(&r, &plan) == 0);
    const char *s = r.findings[0].suggestion ? r.findings[0].suggestion : "";
    if (flag) {
      CHECK(r.findings[0].verdict == OMPDP_V_REPEATED_COMPUTATION);
      CHECK(strstr(s, "host code that can run between these sends writes h_in") != NULL);
      CHECK(strstr(s, "the send stays in the loop") != NULL);
      CHECK_EQ_U64(r.excluded_time_ns, 100);
    } else {
      CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
      CHECK(strstr(s, "No rewrite: moving the update needs proof") != NULL);
      CHECK_EQ_U64(r.excluded_time_ns, 0);
    }
    ompdp_report_free(&r);
  }
}

/* Every advice without a rewrite says why: the planner's reason when it
 * gave one (said once, even if recorded twice); else what the report
 * lacks: no region table (no plugin), no plan, no facts for the site; a
 * reason recorded for a finding that a later rule rewrote is not said. */
static void test_assign_reasons(void) {
  ompdp_plan_region_t region;
  ompdp_region_info_t item;
  one_region(&region, &item, OMPDP_CK_TARGET_ENTER_DATA, OMPDP_MT_TO);
  ompdp_plan_site_t site = {.region = 1, .item = 0, .buf = 1, .h2d = 1, .allocs = 1};
  ompdp_plan_t plan = one_site_plan(&site, &region);
  static const struct {
    int plugin, plan, site, said, rewritten;
    const char *want; /* in the suggestion, after "No rewrite: " */
  } cases[] = {
      {0, 0, 0, 0, 0, "the program was not compiled with the ompdp plugin"},
      {1, 0, 1, 0, 0, "the report does not carry the facts of the run"},
      {2, 0, 1, 0, 0, "the report was rebuilt from the event log of a program that died"},
      {1, 1, 0, 0, 0, "the run's facts have no construct for these operations"},
      {1, 1, 1, 1, 0, "the map has the `present` modifier."},
      {1, 1, 1, 1, 1, NULL},
  };
  for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); ++c) {
    ompdp_report_t r;
    ompdp_report_init(&r);
    ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_ZERO_TRANSFER);
    f->count = 1;
    f->time_saved_ns = 10;
    f->suggestion = ompdp_strdup("fill it on the device");
    if (cases[c].plugin == 2) {
      r.recovered_reason = ompdp_strdup("killed by signal 9");
      r.recovered_from_log = 1;
    }
    if (cases[c].plugin) {
      f->region_id = 7;
      f->rt_region = cases[c].site ? 1 : 2;
      f->item = 0;
    }
    if (cases[c].said) {
      CHECK(ompdp_rw_advise(f, "the map has the `present` modifier") == 0);
      CHECK(ompdp_rw_advise(f, "the map has the `present` modifier") == 0);
      CHECK(f->suggestion && !strstr(f->suggestion, "No rewrite")); /* not yet */
    }
    if (cases[c].rewritten) {
      ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_ALLOC_AND_FILL);
      CHECK(rw != NULL);
      if (rw)
        rw->description = ompdp_strdup("fill it");
    }
    CHECK(ompdp_assign_verdicts(&r, cases[c].plan ? &plan : NULL) == 0);
    const char *s = r.findings[0].suggestion ? r.findings[0].suggestion : "";
    const char *why = strstr(s, "No rewrite: ");
    if (!cases[c].want) {
      CHECK(r.findings[0].verdict == OMPDP_V_FIX && !why);
    } else {
      CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
      CHECK(why && !strncmp(why + 12, cases[c].want, strlen(cases[c].want)));
      CHECK(why && !strstr(why + 1, "No rewrite: ") && !strstr(s, "modifier; "));
    }
    ompdp_report_free(&r);
  }
}

/* A report decided without the planner (a journal's, an older ompdp's):
 * its advice says why too, once, and a suggestion that says why already
 * keeps its words. */
static void test_default_reasons(void) {
  ompdp_report_t r;
  ompdp_report_init(&r);
  r.recovered_reason = ompdp_strdup("killed by signal 9");
  ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  f->region_id = 7;
  f->suggestion = ompdp_strdup("keep it resident");
  ompdp_finding_t *g = ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  g->suggestion = ompdp_strdup("drop it; ompdp does not rewrite callers yet");
  ompdp_report_default_verdicts(&r);
  ompdp_report_default_verdicts(&r);
  CHECK(r.findings[0].verdict == OMPDP_V_ADVICE && r.findings[0].suggestion &&
        !strcmp(r.findings[0].suggestion,
                "keep it resident. No rewrite: the report was rebuilt from the journal of a "
                "program that died, and the journal does not carry the facts of the run that "
                "rewrites are planned from."));
  CHECK(r.findings[1].suggestion &&
        !strcmp(r.findings[1].suggestion, "drop it; ompdp does not rewrite callers yet"));
  ompdp_report_free(&r);
}

int main(void) {
  test_fix();
  test_advice();
  test_necessary();
  test_coincidence();
  test_repeated_computation();
  test_repeated_alloc();
  test_assign();
  test_assign_alloc();
  test_assign_rerun();
  test_assign_unused_some();
  test_assign_local_reduction();
  test_assign_update_resets();
  test_assign_host_written();
  test_assign_reasons();
  test_default_reasons();
  return CHECK_DONE();
}
