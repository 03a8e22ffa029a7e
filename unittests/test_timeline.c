/*===- test_timeline.c - what the engine keeps for the timeline ----*- C -*-===*\
|*
|* The timeline collector (analysis/timeline_collect.c) fed through the
|* engine, as the runtime feeds it:
|*   - bounded: the first events, up to per_finding avoidable operations of
|*     each finding, and counts of the rest; every event is kept or counted;
|*   - a decision that comes late (unused transfers, decided at the end)
|*     keeps its operations while they are in the ring of recent events, and
|*     only counts those that left it;
|*   - full: every event, every avoidable operation linked;
|*   - the time bins hold every counted event, whatever the run's length.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "detect.h"
#include "timeline_collect.h"

#include <stdlib.h>
#include <string.h>

#define HOST 9

static ompdp_event_t transfer(uint64_t t, uint64_t host, uint64_t dev_addr, uint64_t hash) {
  ompdp_event_t e;
  memset(&e, 0, sizeof(e));
  e.type = OMPDP_EV_TRANSFER;
  e.flags = OMPDP_EVF_COMPLETE | OMPDP_EVF_HASHED;
  e.item = -1;
  e.t_begin = t;
  e.t_end = t + 100;
  e.src_dev = HOST;
  e.dst_dev = 0;
  e.src_addr = host;
  e.dst_addr = dev_addr;
  e.bytes = 64;
  e.hash = hash;
  e.codeptr = (const void *)0x1000;
  return e;
}

/* Runs the engine with a timeline over ev[0..n), the first at position
 * seq0, and returns the report. */
static int run_at(int mode, uint64_t first, uint64_t per_finding, const ompdp_event_t *ev,
                  size_t n, uint64_t seq0, ompdp_report_t *r) {
  ompdp_engine_config_t cfg = {.host_device = HOST,
                               .timeline = 1,
                               .timeline_mode = mode,
                               .timeline_first = first,
                               .timeline_per_finding = per_finding};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  if (!g)
    return -1;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; ++i) {
    ompdp_rec_t rec;
    rc = ompdp_rec_from_event(&ev[i], &rec) || ompdp_engine_feed(g, &rec, rec.op, seq0 + i);
  }
  ompdp_report_init(r);
  ompdp_engine_result_t res = {.wall_time_ns = 1000000, .tick_mult = 0};
  if (ompdp_engine_finish(g, r, &res))
    rc = -1;
  ompdp_engine_destroy(g);
  return rc;
}

static int run(int mode, uint64_t first, uint64_t per_finding, const ompdp_event_t *ev, size_t n,
               ompdp_report_t *r) {
  return run_at(mode, first, per_finding, ev, n, 0, r);
}

static const ompdp_finding_t *finding(const ompdp_report_t *r, int kind) {
  for (size_t i = 0; i < r->num_findings; ++i)
    if (r->findings[i].kind == (ompdp_finding_kind_t)kind)
      return &r->findings[i];
  return NULL;
}

/* Avoidable operations of f that the timeline links. */
static uint64_t linked(const ompdp_report_t *r, const ompdp_finding_t *f) {
  const ompdp_timeline_t *t = r->timeline;
  uint64_t n = 0;
  for (size_t i = 0; f && i < t->num_links; ++i)
    n += t->links[i].finding == f->timeline_id && !t->links[i].related;
  return n;
}

static uint64_t counted(const ompdp_timeline_t *t) {
  uint64_t n = 0, in_bins = 0;
  for (size_t i = 0; i < t->num_lanes; ++i) {
    n += t->lanes[i].count;
    for (size_t b = 0; b < t->num_bins; ++b)
      in_bins += t->lanes[i].bins[b];
  }
  CHECK_EQ_U64(in_bins, n);
  return n;
}

/* Ten copies of the same bytes: nine duplicates. */
static void test_bounded(void) {
  ompdp_event_t ev[10];
  for (int i = 0; i < 10; ++i)
    ev[i] = transfer(1000 + 1000 * (uint64_t)i, 0x100, 0x200, 0xabc);
  ompdp_report_t r;
  CHECK(run(OMPDP_TIMELINE_BOUNDED, 2, 3, ev, 10, &r) == 0);
  const ompdp_timeline_t *t = r.timeline;
  CHECK(t != NULL);
  if (!t)
    return;
  const ompdp_finding_t *dup = finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  CHECK(dup != NULL);
  CHECK_EQ_U64(dup ? dup->count : 0, 9);
  CHECK_EQ_U64(t->events, 10);
  /* Events 0 and 1 (the first two), 2 and 3 (the duplicate's cap). */
  REQUIRE_EQ_U64(t->num_ops, 4);
  for (size_t i = 0; i < t->num_ops; ++i)
    CHECK_EQ_U64(t->ops[i].seq, i);
  CHECK_EQ_U64(linked(&r, dup), 3);
  CHECK_EQ_U64(counted(t) + t->num_ops, 10);
  CHECK_EQ_U64(t->ops[0].type, OMPDP_TL_H2D);
  CHECK_EQ_U64(t->ops[0].device, 0);
  CHECK_EQ_U64(t->ops[1].start_ns, 1000);
  CHECK_EQ_U64(t->ops[1].dur_ns, 100);
  uint64_t shown[16];
  ompdp_timeline_count_shown(&r, shown);
  CHECK_EQ_U64(shown[dup - r.findings], 3);
  ompdp_report_free(&r);
}

static void test_full(void) {
  ompdp_event_t ev[10];
  for (int i = 0; i < 10; ++i)
    ev[i] = transfer(1000 + 1000 * (uint64_t)i, 0x100, 0x200, 0xabc);
  ompdp_report_t r;
  CHECK(run(OMPDP_TIMELINE_FULL, 0, 1, ev, 10, &r) == 0);
  if (!r.timeline)
    return;
  CHECK(r.timeline->full);
  CHECK_EQ_U64(r.timeline->num_ops, 10);
  CHECK_EQ_U64(r.timeline->num_lanes, 0);
  CHECK_EQ_U64(linked(&r, finding(&r, OMPDP_FK_DUPLICATE_TRANSFER)), 9);
  ompdp_report_free(&r);
  CHECK(run(OMPDP_TIMELINE_OFF, 1000, 256, ev, 10, &r) == 0);
  CHECK(r.timeline == NULL);
  ompdp_report_free(&r);
}

/* 6000 different contents to 6000 device addresses and no kernel: each
 * copy is an unused transfer, decided only at the end. The last
 * OMPDP_TLC_RING are still in the ring then and are kept; the older ones
 * were counted when they left it. */
static void test_late(void) {
  size_t n = 6000;
  ompdp_event_t *ev = calloc(n, sizeof(*ev));
  for (size_t i = 0; i < n; ++i)
    ev[i] = transfer(1000 + 1000 * (uint64_t)i, 0x100 + 64 * i, 0x10000 + 64 * i, 0x5000 + i);
  ompdp_report_t r;
  CHECK(run(OMPDP_TIMELINE_BOUNDED, 0, 100000, ev, n, &r) == 0);
  free(ev);
  if (!r.timeline)
    return;
  const ompdp_finding_t *u = finding(&r, OMPDP_FK_UNUSED_TRANSFER);
  CHECK(u != NULL);
  CHECK_EQ_U64(u ? u->count : 0, n);
  CHECK_EQ_U64(linked(&r, u), OMPDP_TLC_RING);
  REQUIRE_EQ_U64(r.timeline->num_ops, OMPDP_TLC_RING);
  CHECK_EQ_U64(r.timeline->ops[0].seq, n - OMPDP_TLC_RING);
  CHECK_EQ_U64(counted(r.timeline), n - OMPDP_TLC_RING);
  /* The bins cover what they count (the first 1904 us), in 256 bins whose
   * width doubled as the run went on: less than twice that. */
  double span = r.timeline->bin_ns * (double)r.timeline->num_bins;
  CHECK(span >= (double)(n - OMPDP_TLC_RING) * 1000.0);
  CHECK(span < 2.0 * (double)(n - OMPDP_TLC_RING) * 1000.0);
  ompdp_report_free(&r);
}

/* The end visits only the ring's slots that held events: ten unused
 * transfers whose positions start at 0, in the middle of the ring, and
 * across its end (slots 4091..4095 and 0..4) are each kept (3, the
 * finding's share) or counted (7), wherever they sit. */
static void test_ring_positions(void) {
  ompdp_event_t ev[10];
  for (int i = 0; i < 10; ++i)
    ev[i] = transfer(1000 + 1000 * (uint64_t)i, 0x100 + 64 * (uint64_t)i, 0x10000 + 64 * (uint64_t)i,
                     0x7000 + (uint64_t)i);
  const uint64_t seq0[] = {0, 2000, OMPDP_TLC_RING - 5, 3 * OMPDP_TLC_RING - 5};
  for (size_t k = 0; k < sizeof(seq0) / sizeof(seq0[0]); ++k) {
    ompdp_report_t r;
    CHECK(run_at(OMPDP_TIMELINE_BOUNDED, 0, 3, ev, 10, seq0[k], &r) == 0);
    if (!r.timeline)
      continue;
    CHECK_EQ_U64(r.timeline->num_ops, 3);
    CHECK_EQ_U64(r.timeline->num_ops ? r.timeline->ops[0].seq : 0, seq0[k]);
    CHECK_EQ_U64(counted(r.timeline), 7);
    ompdp_report_free(&r);
  }
}

int main(void) {
  test_bounded();
  test_full();
  test_late();
  test_ring_positions();
  return CHECK_DONE();
}
