/*===- test_mem_track.c - device memory in use, its peak, its holders --*- C -*-===*/
#include "check.h"
#include "events.h"
#include "mem_track.h"
#include "memory.h"

#include <stdlib.h>
#include <string.h>

/* The report of the sequence (its device_memory), analysed as the runtime
 * does. */
static int analyse(const seq_t *s, ompdp_report_t *r) {
  ompdp_report_init(r);
  ompdp_analysis_input_t in = {.events = s->ev, .num_events = s->n, .host_device = HOST};
  return ompdp_analyze(&in, r, NULL);
}

static const ompdp_device_memory_t *dev_mem(const ompdp_report_t *r, int dev) {
  for (size_t i = 0; i < r->num_device_memory; ++i)
    if (r->device_memory[i].device == dev)
      return &r->device_memory[i];
  return NULL;
}

/* Allocations add, deletes take off, per device; the peak is the first
 * moment of the most, and what held it then is per site (construct and
 * item), largest first. */
static void peak_and_holders(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 100);
  s.ev[s.n - 1].region = 1; /* site 1 */
  alloc(&s, 0, 0x2000, 0xe000, 300);
  s.ev[s.n - 1].region = 2;
  alloc(&s, 1, 0x3000, 0xd000, 50); /* another device */
  uint64_t peak_t = s.t;
  alloc(&s, 0, 0x4000, 0xf000, 200);
  s.ev[s.n - 1].region = 1; /* site 1 again: 300 there now */
  del(&s, 0, 0xe000);
  alloc(&s, 0, 0x5000, 0xc000, 500); /* 800: not above 600 */
  s.ev[s.n - 1].region = 3;
  del(&s, 0, 0xd000);
  ompdp_report_t r;
  REQUIRE(analyse(&s, &r) == 0);
  REQUIRE_EQ_U64(r.num_device_memory, 2);
  const ompdp_device_memory_t *m = dev_mem(&r, 0);
  REQUIRE(m != NULL);
  CHECK_EQ_U64(m->peak_bytes, 800); /* 100 + 200 + 500, after 300 went */
  CHECK_EQ_U64(m->peak_allocations, 3);
  CHECK_EQ_U64(m->final_bytes, 700);
  CHECK_EQ_U64(m->allocated_bytes, 1100);
  CHECK_EQ_U64(m->allocations, 4);
  REQUIRE_EQ_U64(m->num_holders, 2);
  CHECK_EQ_U64(m->holders[0].bytes, 500); /* site 3 */
  CHECK_EQ_U64(m->holders[1].bytes, 300); /* site 1: two allocations */
  CHECK_EQ_U64(m->holders[1].allocations, 2);
  CHECK_EQ_U64(m->other_allocations, 0);
  const ompdp_device_memory_t *m1 = dev_mem(&r, 1);
  REQUIRE(m1 != NULL);
  CHECK_EQ_U64(m1->peak_bytes, 50);
  /* The series: each change, in time order, the peak among them. */
  int has_peak = 0;
  for (size_t i = 0; i < m->num_series; ++i) {
    has_peak |= m->series[i].bytes == 800;
    CHECK(!i || m->series[i].t_ns >= m->series[i - 1].t_ns);
  }
  CHECK(has_peak);
  (void)peak_t;
  ompdp_report_free(&r);
}

/* The peak's moment is the first time the most was reached: a later equal
 * value does not move it, and what held it is what was live then. */
static void first_moment(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 100);
  s.ev[s.n - 1].region = 1;
  uint64_t t1 = s.t;
  alloc(&s, 0, 0x2000, 0xe000, 100);
  s.ev[s.n - 1].region = 2;
  del(&s, 0, 0xe000);
  alloc(&s, 0, 0x3000, 0xf000, 100);
  s.ev[s.n - 1].region = 3;
  ompdp_report_t r;
  REQUIRE(analyse(&s, &r) == 0);
  const ompdp_device_memory_t *m = dev_mem(&r, 0);
  REQUIRE(m != NULL);
  CHECK_EQ_U64(m->peak_bytes, 200);
  CHECK_EQ_U64(m->peak_time_ns, t1 - 1000); /* from the first event's begin */
  REQUIRE_EQ_U64(m->num_holders, 2);
  /* Sites 1 and 2, never 3. */
  CHECK_EQ_U64(m->holders[0].bytes + m->holders[1].bytes, 200);
  ompdp_report_free(&r);
}

/* A newer allocation at a live address frees the older; a delete of an
 * address never allocated changes nothing; no bytes, no memory. */
static void replaced_and_strays(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 100);
  alloc(&s, 0, 0x2000, 0xd000, 40); /* replaces: 40 in use */
  del(&s, 0, 0xbad);
  alloc(&s, 0, 0x3000, 0xe000, 0);
  ompdp_report_t r;
  REQUIRE(analyse(&s, &r) == 0);
  const ompdp_device_memory_t *m = dev_mem(&r, 0);
  REQUIRE(m != NULL);
  CHECK_EQ_U64(m->peak_bytes, 100);
  CHECK_EQ_U64(m->final_bytes, 40);
  CHECK_EQ_U64(m->allocations, 2);
  ompdp_report_free(&r);
  /* No allocation at all: no entry. */
  seq_init(&s);
  kernel(&s, 0);
  REQUIRE(analyse(&s, &r) == 0);
  CHECK_EQ_U64(r.num_device_memory, 0);
  ompdp_report_free(&r);
}

/* One allocation (bytes > 0) or delete (bytes 0) at device address a of
 * device 0, at position seq and time t, straight into the tracker. */
static int feed(ompdp_memtrack_t *t, uint64_t seq, uint64_t time, uint64_t a, uint64_t bytes) {
  ompdp_op_t o;
  memset(&o, 0, sizeof(o));
  o.item = -1;
  if (bytes) {
    o.type = OMPDP_EV_ALLOC;
    o.dst_addr = a;
    o.dst_dev = 0;
    o.src_dev = HOST;
    o.bytes = bytes;
  } else {
    o.type = OMPDP_EV_DELETE;
    o.src_addr = a;
    o.src_dev = 0;
  }
  uint32_t id = ompdp_op_intern(&o);
  ompdp_xev_t e = {.seq = seq, .start = time, .end = time, .op = id, .type = o.type,
                   .d = ompdp_op_get(id)};
  return ompdp_mem_event(t, &e);
}

/* More changes than the series keeps: pairs merge into their larger value,
 * so the series stays bounded, in time order, and still holds the peak,
 * wherever it came. */
static void series_bounded(void) {
  enum { CHANGES = 5000 };
  for (int at = 0; at < 3; ++at) {
    ompdp_memtrack_t *t = ompdp_mem_create(HOST);
    REQUIRE(t != NULL);
    uint64_t peak_i = at == 0 ? 0 : at == 1 ? CHANGES / 3 : CHANGES - 2;
    for (uint64_t i = 0; i < CHANGES; i += 2) {
      REQUIRE(feed(t, i, 10 + i, 0xd000, i == peak_i ? 999 : 10 + i % 50) == 0);
      REQUIRE(feed(t, i + 1, 11 + i, 0xd000, 0) == 0);
    }
    ompdp_report_t r;
    ompdp_report_init(&r);
    REQUIRE(ompdp_mem_fill(t, &r, 0, NULL) == 0);
    REQUIRE_EQ_U64(r.num_device_memory, 1);
    const ompdp_device_memory_t *m = &r.device_memory[0];
    CHECK_EQ_U64(m->peak_bytes, 999);
    CHECK_EQ_U64(m->peak_time_ns, peak_i);
    CHECK(m->num_series <= OMPDP_MEM_SERIES_MAX && m->num_series > OMPDP_MEM_SERIES_MAX / 4);
    uint64_t most = 0;
    for (size_t i = 0; i < m->num_series; ++i) {
      CHECK(!i || m->series[i].t_ns >= m->series[i - 1].t_ns);
      if (m->series[i].bytes > most)
        most = m->series[i].bytes;
    }
    CHECK_EQ_U64(most, 999);
    CHECK_EQ_U64(m->final_bytes, 0);
    ompdp_report_free(&r);
    ompdp_mem_destroy(t);
  }
}

/* Checkpoints: the most in use from a checkpoint to now, against brute
 * force over a random walk; a new peak drops them. */
static void checkpoints(void) {
  ompdp_memtrack_t *t = ompdp_mem_create(HOST);
  REQUIRE(t != NULL);
  enum { STEPS = 4000 };
  uint64_t *hist = calloc(STEPS, sizeof(*hist));
  uint32_t *cps = calloc(STEPS, sizeof(*cps));
  uint64_t *cp_at = calloc(STEPS, sizeof(*cp_at));
  REQUIRE(hist && cps && cp_at);
  size_t ncp = 0, live = 0;
  uint32_t gen0 = 0;
  uint64_t addr_next = 0x10000, live_addr[64];
  srand(7);
  /* Fill to a first peak that stays the peak: a large allocation first. */
  ompdp_op_t big = {.dst_addr = 0x1, .bytes = 1 << 20, .dst_dev = 0, .src_dev = HOST,
                    .type = OMPDP_EV_ALLOC, .item = -1};
  uint32_t bid = ompdp_op_intern(&big);
  ompdp_xev_t e = {.seq = 0, .start = 1, .end = 2, .op = bid, .type = OMPDP_EV_ALLOC, .d = ompdp_op_get(bid)};
  REQUIRE(ompdp_mem_event(t, &e) == 0);
  ompdp_op_t gone = {.src_addr = 0x1, .src_dev = 0, .type = OMPDP_EV_DELETE, .item = -1};
  uint32_t gid = ompdp_op_intern(&gone);
  e = (ompdp_xev_t){.seq = 1, .start = 3, .end = 4, .op = gid, .type = OMPDP_EV_DELETE, .d = ompdp_op_get(gid)};
  REQUIRE(ompdp_mem_event(t, &e) == 0);
  uint64_t seqp;
  REQUIRE(ompdp_mem_peak(t, 0, &seqp, &gen0) == 0);
  CHECK_EQ_U64(seqp, 0);
  for (size_t i = 0; i < STEPS; ++i) {
    int free_one = live && (live == 64 || rand() % 2);
    ompdp_op_t o;
    memset(&o, 0, sizeof(o));
    o.item = -1;
    if (free_one) {
      size_t k = (size_t)rand() % live;
      o.type = OMPDP_EV_DELETE;
      o.src_addr = live_addr[k];
      o.src_dev = 0;
      live_addr[k] = live_addr[--live];
    } else {
      o.type = OMPDP_EV_ALLOC;
      o.dst_addr = live_addr[live++] = addr_next++;
      o.dst_dev = 0;
      o.src_dev = HOST;
      o.bytes = 1 + (uint64_t)(rand() % 1000);
    }
    uint32_t id = ompdp_op_intern(&o);
    e = (ompdp_xev_t){.seq = i + 2, .start = 10 + i, .end = 10 + i, .op = id, .type = o.type,
                      .d = ompdp_op_get(id)};
    REQUIRE(ompdp_mem_event(t, &e) == 0);
    hist[i] = ompdp_mem_in_use(t, 0);
    if (rand() % 5 == 0) {
      cps[ncp] = ompdp_mem_checkpoint(t, 0);
      cp_at[ncp++] = i;
    }
  }
  uint32_t gen;
  REQUIRE(ompdp_mem_peak(t, 0, &seqp, &gen) == 0);
  CHECK_EQ_U64(gen, gen0); /* the big one stayed the peak */
  for (size_t k = 0; k < ncp; ++k) {
    uint64_t want = 0;
    for (size_t i = cp_at[k]; i < STEPS; ++i)
      if (hist[i] > want)
        want = hist[i];
    CHECK_EQ_U64(ompdp_mem_max_since(t, 0, cps[k]), want);
  }
  /* A new peak: a new generation. */
  big.dst_addr = 0x2;
  big.bytes = 2 << 20;
  bid = ompdp_op_intern(&big);
  e = (ompdp_xev_t){.seq = STEPS + 5, .start = STEPS + 20, .end = STEPS + 21, .op = bid,
                    .type = OMPDP_EV_ALLOC, .d = ompdp_op_get(bid)};
  REQUIRE(ompdp_mem_event(t, &e) == 0);
  CHECK(ompdp_mem_generation(t, 0) != gen0);
  CHECK_EQ_U64(ompdp_mem_max_before(t, 0), 1 << 20);
  free(hist);
  free(cps);
  free(cp_at);
  ompdp_mem_destroy(t);
}

int main(void) {
  peak_and_holders();
  first_moment();
  replaced_and_strays();
  series_bounded();
  checkpoints();
  return CHECK_DONE();
}
