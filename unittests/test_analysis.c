/*===- test_analysis.c - from events to the report model ----------*- C -*-===*/
#include "check.h"
#include "events.h"

static const char site_a[] = "a", site_b[] = "b";

/* Listing 2 at site a (4 iterations), then the same bytes sent again from
 * site b: counts follow Table 1 and saved time is a union. */
static void listing2_counts(void) {
  seq_t s;
  seq_init(&s);
  for (int i = 0; i < 4; ++i) {
    uint32_t x = alloc(&s, 0, 0x1000, 0xd000, 64);
    uint32_t y = h2d(&s, 0, 0x1000, 0xd000, 64, (uint64_t)i);
    uint32_t k = kernel(&s, 0);
    uint32_t z = d2h(&s, 0, 0xd000, 0x1000, 64, (uint64_t)i + 1);
    uint32_t w = del(&s, 0, 0xd000);
    s.ev[x].codeptr = s.ev[y].codeptr = s.ev[k].codeptr = s.ev[z].codeptr = s.ev[w].codeptr = site_a;
  }
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 100000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_ROUND_TRIP], 3);
  CHECK_EQ_U64(r.counts[OMPDP_FK_REPEATED_ALLOC], 3);
  /* h1..h3 arrive at the device once each via the round trips, and the host
   * receives h1..h4 once each: no duplicates. */
  CHECK_EQ_U64(r.counts[OMPDP_FK_DUPLICATE_TRANSFER], 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_ALLOC], 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_TRANSFER], 0);
  CHECK_EQ_U64(r.num_transfers, 8);
  CHECK_EQ_U64(r.num_allocs, 4);
  CHECK_EQ_U64(r.num_deletes, 4);
  CHECK_EQ_U64(r.num_kernels, 4);
  CHECK_EQ_U64(r.num_findings, 2);
  /* Round trips: 3 returns of 100 ns; repeated allocs: 3 x (alloc + delete). */
  uint64_t rt = 0, ra = 0;
  for (size_t i = 0; i < r.num_findings; ++i) {
    if (r.findings[i].kind == OMPDP_FK_ROUND_TRIP)
      rt = r.findings[i].time_saved_ns;
    if (r.findings[i].kind == OMPDP_FK_REPEATED_ALLOC)
      ra = r.findings[i].time_saved_ns;
    CHECK(r.findings[i].num_devices == 1 && r.findings[i].devices[0] == 0);
    CHECK(r.findings[i].suggestion != NULL);
  }
  CHECK_EQ_U64(rt, 300);
  CHECK_EQ_U64(ra, 300);
  CHECK_EQ_U64(r.time_saved_ns, 600);
  CHECK(r.predicted_speedup > 1.0060 && r.predicted_speedup < 1.0061);
  ompdp_report_free(&r);
}

/* One transfer that is both a duplicate and a round-trip return is saved
 * once in the total, though each finding counts it. */
static void union_not_sum(void) {
  seq_t s;
  seq_init(&s);
  uint32_t w = h2d(&s, 0, 0x1000, 0xd000, 64, 9);
  s.ev[w].src_dev = 1; /* from device 1: the host never sent these bytes */
  kernel(&s, 0);
  uint32_t x = d2h(&s, 0, 0xd000, 0x1000, 64, 9);
  uint32_t y = h2d(&s, 0, 0x1000, 0xd000, 64, 9); /* duplicate of w, return of x */
  kernel(&s, 0);
  s.ev[w].codeptr = s.ev[x].codeptr = site_a;
  s.ev[y].codeptr = site_b;
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 10000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_DUPLICATE_TRANSFER], 1);
  CHECK_EQ_U64(r.counts[OMPDP_FK_ROUND_TRIP], 1);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_TRANSFER], 0);
  CHECK_EQ_U64(r.num_findings, 2);
  for (size_t i = 0; i < r.num_findings; ++i)
    CHECK_EQ_U64(r.findings[i].time_saved_ns, 100);
  CHECK_EQ_U64(r.time_saved_ns, 100); /* y once */
  ompdp_report_free(&r);
}

/* Overwritten before any kernel: the first transfer is unused, and the
 * second is a duplicate of nothing (new bytes). */
static void overwritten(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  h2d(&s, 0, 0x1000, 0xd000, 64, 2);
  kernel(&s, 0);
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 10000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_TRANSFER], 1);
  CHECK_EQ_U64(r.counts[OMPDP_FK_DUPLICATE_TRANSFER], 0);
  CHECK_EQ_U64(r.time_saved_ns, 100);
  ompdp_report_free(&r);
}

/* A clean run has no findings and a speedup of exactly 1. */
static void clean(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 64);
  h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  for (int i = 0; i < 3; ++i)
    kernel(&s, 0);
  d2h(&s, 0, 0xd000, 0x1000, 64, 2);
  del(&s, 0, 0xd000);
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 10000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.num_findings, 0);
  CHECK_EQ_U64(r.time_saved_ns, 0);
  CHECK(r.predicted_speedup == 1.0);
  ompdp_report_free(&r);
}

/* A transfer that both a round trip and an unused transfer select, on two
 * threads' overlapping operations: per finding and in total, the saved
 * time is the union of the intervals, whichever order the selections are
 * decided in (the unused transfer only when the run ends). */
static void late_union(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a = d2h(&s, 0, 0xd000, 0x1000, 64, 5); /* opens a trip */
  uint32_t b = h2d(&s, 0, 0x1000, 0xd000, 64, 5); /* closes it; never read */
  uint32_t c = h2d(&s, 0, 0x2000, 0xd100, 64, 6); /* overlaps b; never read */
  s.ev[b].t_begin = 2000, s.ev[b].t_end = 2100;
  s.ev[c].t_begin = 2050, s.ev[c].t_end = 2200;
  s.ev[a].codeptr = site_a;
  s.ev[b].codeptr = s.ev[c].codeptr = site_b;
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 10000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_ROUND_TRIP], 1);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_TRANSFER], 2);
  for (size_t i = 0; i < r.num_findings; ++i) {
    if (r.findings[i].kind == OMPDP_FK_ROUND_TRIP)
      CHECK_EQ_U64(r.findings[i].time_saved_ns, 100);
    if (r.findings[i].kind == OMPDP_FK_UNUSED_TRANSFER)
      CHECK_EQ_U64(r.findings[i].time_saved_ns, 200); /* [2000, 2200] */
  }
  CHECK_EQ_U64(r.time_saved_ns, 200);
  ompdp_report_free(&r);
}

/* Ticks become nanoseconds in the report only: with 2 ticks per ns, every
 * time is half. */
static void tick_scale(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  h2d(&s, 0, 0x2000, 0xd100, 64, 1); /* duplicate, 100 ticks */
  kernel(&s, 0);
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 10000, .tick_mult = 1ull << 31};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_DUPLICATE_TRANSFER], 1);
  CHECK_EQ_U64(r.time_saved_ns, 50);
  CHECK_EQ_U64(r.transfer_time_ns, 100);
  ompdp_report_free(&r);
}

int main(void) {
  listing2_counts();
  union_not_sum();
  overwritten();
  clean();
  late_union();
  tick_scale();
  return CHECK_DONE();
}
