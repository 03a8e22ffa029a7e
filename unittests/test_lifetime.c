/*===- test_lifetime.c - early allocations and late releases ----------*- C -*-===*/
#include "check.h"
#include "events.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

#define KIB 1024u
#define MIB (1024u * 1024u)

/* The call site of construct k: the events of one construct share it. */
static const void *site(int k) { return (const void *)(uintptr_t)(0x400000 + 16 * k); }

static uint32_t alloc_by(seq_t *s, int k, uint64_t da, uint64_t bytes) {
  uint32_t i = alloc(s, 0, 0x100000 + da, da, bytes);
  s->ev[i].codeptr = site(k);
  return i;
}

static uint32_t del_by(seq_t *s, int k, uint64_t da) {
  uint32_t i = del(s, 0, da);
  s->ev[i].codeptr = site(k);
  return i;
}

static uint32_t h2d_by(seq_t *s, int k, uint64_t da, uint64_t bytes) {
  uint32_t i = h2d(s, 0, 0x100000 + da, da, bytes, 0x1234 + da);
  s->ev[i].codeptr = site(k);
  return i;
}

static uint32_t d2h_by(seq_t *s, int k, uint64_t da, uint64_t bytes) {
  uint32_t i = d2h(s, 0, da, 0x100000 + da, bytes, 0x1234 + da);
  s->ev[i].codeptr = site(k);
  return i;
}

/* A kernel of construct k whose uses the runtime records, and its use of
 * the allocation at da (what rt/uses.c records right after it). */
static uint32_t kernel_by(seq_t *s, int k) {
  uint32_t i = kernel(s, 0);
  s->ev[i].codeptr = site(k);
  s->ev[i].src_addr = OMPDP_KERNEL_USES_RECORDED;
  return i;
}

static uint32_t use_by(seq_t *s, int k, uint64_t da) {
  ompdp_event_t *e = seq_add(s, OMPDP_EV_USE, 0);
  e->dst_dev = 0;
  e->dst_addr = da;
  e->codeptr = site(k);
  return (uint32_t)(s->n - 1);
}

/* A kernel whose uses are not known (no plugin): it may use everything. */
static uint32_t blind_kernel(seq_t *s, int k) {
  uint32_t i = kernel(s, 0);
  s->ev[i].codeptr = site(k);
  return i;
}

typedef struct result {
  ompdp_report_t r;
  ompdp_matches_t m[OMPDP_FK_COUNT];
} result_t;

static int run_cfg(const seq_t *s, ompdp_engine_config_t cfg, result_t *out) {
  memset(out, 0, sizeof(*out));
  ompdp_report_init(&out->r);
  cfg.host_device = HOST;
  cfg.matches = out->m;
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  if (!g)
    return -1;
  int rc = 0;
  for (size_t i = 0; i < s->n && !rc; ++i) {
    ompdp_rec_t rec;
    rc = ompdp_rec_from_event(&s->ev[i], &rec) || ompdp_engine_feed(g, &rec, rec.op, i);
  }
  ompdp_engine_result_t res = {0};
  if (ompdp_engine_finish(g, &out->r, &res))
    rc = -1;
  ompdp_engine_destroy(g);
  return rc;
}

static int run(const seq_t *s, result_t *out) {
  ompdp_engine_config_t cfg = {0};
  return run_cfg(s, cfg, out);
}

static void done(result_t *x) {
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    ompdp_matches_free(&x->m[k]);
  ompdp_report_free(&x->r);
}

/* The finding of kind (NULL: none). */
static const ompdp_finding_t *finding(const result_t *x, ompdp_finding_kind_t kind) {
  for (size_t i = 0; i < x->r.num_findings; ++i)
    if (x->r.findings[i].kind == kind)
      return &x->r.findings[i];
  return NULL;
}

/* A allocated, then B (the peak), B used and freed, then A's first use:
 * allocated there, A would not count at the peak. B's own window holds
 * the peak too (its allocation is it), but A is live after B's first use:
 * it saves nothing. */
static void early(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a = alloc_by(&s, 1, 0xa000, 100 * KIB);
  alloc_by(&s, 2, 0xb000, MIB);
  kernel_by(&s, 3);
  use_by(&s, 3, 0xb000);
  del_by(&s, 2, 0xb000);
  kernel_by(&s, 4);
  uint32_t u = use_by(&s, 4, 0xa000);
  del_by(&s, 5, 0xa000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  REQUIRE_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 1);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].v[0].avoid, a);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].v[0].ref, u);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 0);
  const ompdp_finding_t *f = finding(&x, OMPDP_FK_EARLY_ALLOC);
  REQUIRE(f != NULL);
  CHECK(f->peak);
  CHECK_EQ_U64(f->count, 1);
  CHECK_EQ_U64(f->bytes, 100 * KIB);
  CHECK_EQ_U64(f->peak_saved_bytes, 100 * KIB);
  CHECK_EQ_U64(f->time_ns, 0); /* no time claimed */
  CHECK_EQ_U64(f->time_saved_ns, 0);
  CHECK_EQ_U64(x.r.counts[OMPDP_FK_EARLY_ALLOC], 1);
  REQUIRE_EQ_U64(x.r.num_device_memory, 1);
  CHECK_EQ_U64(x.r.device_memory[0].peak_bytes, 100 * KIB + MIB);
  CHECK_EQ_U64(x.r.device_memory[0].peak_saved_bytes, 100 * KIB);
  done(&x);
}

/* A used before the peak and after it: neither window holds the peak. */
static void used_around_peak(void) {
  seq_t s;
  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  kernel_by(&s, 3);
  use_by(&s, 3, 0xa000);
  alloc_by(&s, 2, 0xb000, MIB);
  kernel_by(&s, 4);
  use_by(&s, 4, 0xb000);
  del_by(&s, 2, 0xb000);
  kernel_by(&s, 5);
  use_by(&s, 5, 0xa000);
  del_by(&s, 6, 0xa000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 0);
  CHECK(!finding(&x, OMPDP_FK_EARLY_ALLOC) && !finding(&x, OMPDP_FK_LATE_RELEASE));
  done(&x);
}

/* A used, then B (the peak) used and freed, then A freed: released after
 * its last use, A would not count at the peak. */
static void late(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a = alloc_by(&s, 1, 0xa000, 100 * KIB);
  kernel_by(&s, 3);
  uint32_t u = use_by(&s, 3, 0xa000);
  alloc_by(&s, 2, 0xb000, MIB);
  kernel_by(&s, 4);
  use_by(&s, 4, 0xb000);
  del_by(&s, 2, 0xb000);
  del_by(&s, 6, 0xa000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 0);
  REQUIRE_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 1);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].v[0].avoid, a);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].v[0].ref, u);
  const ompdp_finding_t *f = finding(&x, OMPDP_FK_LATE_RELEASE);
  REQUIRE(f != NULL);
  CHECK_EQ_U64(f->peak_saved_bytes, 100 * KIB);
  done(&x);
}

/* Never freed: the late window ends with the run. */
static void late_never_freed(void) {
  seq_t s;
  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  kernel_by(&s, 3);
  use_by(&s, 3, 0xa000);
  alloc_by(&s, 2, 0xb000, MIB);
  kernel_by(&s, 4);
  use_by(&s, 4, 0xb000);
  del_by(&s, 2, 0xb000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 1);
  const ompdp_finding_t *f = finding(&x, OMPDP_FK_LATE_RELEASE);
  CHECK(f && f->peak_saved_bytes == 100 * KIB);
  done(&x);
}

/* The peak is reached again outside A's window (by C, after A's first
 * use): moving A saves nothing, so it is no finding; lifetime_all reports
 * it (another construct allocated during its window) with no saving. */
static void peak_twice(void) {
  seq_t s;
  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  alloc_by(&s, 2, 0xb000, MIB);
  kernel_by(&s, 3);
  use_by(&s, 3, 0xb000);
  del_by(&s, 2, 0xb000);
  kernel_by(&s, 4);
  use_by(&s, 4, 0xa000);
  alloc_by(&s, 7, 0xc000, MIB);
  kernel_by(&s, 8);
  use_by(&s, 8, 0xc000);
  del_by(&s, 7, 0xc000);
  kernel_by(&s, 9);
  use_by(&s, 9, 0xa000);
  del_by(&s, 6, 0xa000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 0);
  done(&x);
  ompdp_engine_config_t cfg = {.lifetime_all = 1};
  REQUIRE(run_cfg(&s, cfg, &x) == 0);
  const ompdp_finding_t *f = finding(&x, OMPDP_FK_EARLY_ALLOC);
  REQUIRE(f != NULL);
  CHECK(f->peak);
  CHECK_EQ_U64(f->peak_saved_bytes, 0);
  CHECK_EQ_U64(x.r.device_memory[0].peak_saved_bytes, 0);
  done(&x);
}

/* The allocating construct's own copy in is no use (it comes with the
 * allocation); a copy by another construct is. */
static void own_copy_in(void) {
  for (int other = 0; other < 2; ++other) {
    seq_t s;
    seq_init(&s);
    alloc_by(&s, 1, 0xa000, 100 * KIB);
    uint32_t c = h2d_by(&s, other ? 5 : 1, 0xa000, 100 * KIB);
    alloc_by(&s, 2, 0xb000, MIB);
    kernel_by(&s, 3);
    use_by(&s, 3, 0xb000);
    del_by(&s, 2, 0xb000);
    kernel_by(&s, 4);
    uint32_t u = use_by(&s, 4, 0xa000);
    del_by(&s, 6, 0xa000);
    result_t x;
    REQUIRE(run(&s, &x) == 0);
    if (other) {
      CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 0); /* first used by the copy */
      (void)c;
    } else {
      REQUIRE_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 1);
      CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].v[0].ref, u);
    }
    done(&x);
  }
}

/* A `target` construct's own maps: allocated for its kernel, nowhere to
 * move them to, even when the kernel comes after the peak. */
static void own_kernel(void) {
  seq_t s;
  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  alloc_by(&s, 1, 0xb000, MIB);
  kernel_by(&s, 1);
  use_by(&s, 1, 0xa000);
  use_by(&s, 1, 0xb000);
  d2h_by(&s, 1, 0xa000, 100 * KIB);
  del_by(&s, 1, 0xa000);
  del_by(&s, 1, 0xb000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 0);
  done(&x);
}

/* The freeing construct's copy back goes with the release: the last use
 * is the kernel before the peak. */
static void exit_copy_back(void) {
  seq_t s;
  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  kernel_by(&s, 3);
  uint32_t u = use_by(&s, 3, 0xa000);
  alloc_by(&s, 2, 0xb000, MIB);
  kernel_by(&s, 4);
  use_by(&s, 4, 0xb000);
  del_by(&s, 2, 0xb000);
  d2h_by(&s, 9, 0xa000, 100 * KIB);
  del_by(&s, 9, 0xa000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  REQUIRE_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 1);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].v[0].ref, u);
  done(&x);
}

/* A kernel whose uses are unknown uses everything on its device: after the
 * peak it is A's first use (early), and a later one its last use (no
 * late release). A transfer into the middle of an allocation is its use. */
static void blind_kernels(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a = alloc_by(&s, 1, 0xa000, 100 * KIB);
  alloc_by(&s, 2, 0xb000, MIB);
  del_by(&s, 2, 0xb000);
  uint32_t k = blind_kernel(&s, 3);
  del_by(&s, 6, 0xa000);
  result_t x;
  REQUIRE(run(&s, &x) == 0);
  REQUIRE_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 1);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].v[0].avoid, a);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].v[0].ref, k);
  done(&x);

  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  kernel_by(&s, 3);
  use_by(&s, 3, 0xa000);
  alloc_by(&s, 2, 0xb000, MIB);
  blind_kernel(&s, 4); /* may use A too */
  del_by(&s, 2, 0xb000);
  del_by(&s, 6, 0xa000);
  REQUIRE(run(&s, &x) == 0);
  CHECK_EQ_U64(x.m[OMPDP_FK_LATE_RELEASE].n, 0);
  done(&x);

  seq_init(&s);
  alloc_by(&s, 1, 0xa000, 100 * KIB);
  alloc_by(&s, 2, 0xb000, MIB);
  del_by(&s, 2, 0xb000);
  uint32_t t = h2d_by(&s, 5, 0xa000 + 4 * KIB, 8 * KIB); /* a section inside A */
  del_by(&s, 6, 0xa000);
  REQUIRE(run(&s, &x) == 0);
  REQUIRE_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, 1);
  CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].v[0].ref, t);
  done(&x);
}

/* The least saving that is a finding: peak_min_bytes, 4096 by default. */
static void threshold(void) {
  for (int below = 0; below < 2; ++below)
    for (int opt = 0; opt < 2; ++opt) {
      uint64_t n = (opt ? 100 : OMPDP_PEAK_MIN_BYTES) - (uint64_t)below;
      seq_t s;
      seq_init(&s);
      alloc_by(&s, 1, 0xa000, n);
      alloc_by(&s, 2, 0xb000, MIB);
      kernel_by(&s, 3);
      use_by(&s, 3, 0xb000);
      del_by(&s, 2, 0xb000);
      kernel_by(&s, 4);
      use_by(&s, 4, 0xa000);
      del_by(&s, 6, 0xa000);
      ompdp_engine_config_t cfg = {.peak_min_bytes = opt ? 100 : 0};
      result_t x;
      REQUIRE(run_cfg(&s, cfg, &x) == 0);
      CHECK_EQ_U64(x.m[OMPDP_FK_EARLY_ALLOC].n, below ? 0 : 1);
      done(&x);
    }
}

int main(void) {
  early();
  used_around_peak();
  late();
  late_never_freed();
  peak_twice();
  own_copy_in();
  own_kernel();
  exit_copy_back();
  blind_kernels();
  threshold();
  return CHECK_DONE();
}
