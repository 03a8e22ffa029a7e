/*===- test_round_trip.c - Algorithm 2 (corrected) -----------------*- C -*-===*/
#include "check.h"
#include "events.h"

/* Listing 2 with 4 iterations: a goes to the device (h0), comes back
 * changed (h1), goes again unchanged (h1): a trip; and so on. 3 trips. */
static void listing2(void) {
  seq_t s;
  seq_init(&s);
  uint32_t back[4], out[4];
  for (int i = 0; i < 4; ++i) {
    out[i] = h2d(&s, 0, 0x1000, 0xd000, 64, (uint64_t)i);
    kernel(&s, 0);
    back[i] = d2h(&s, 0, 0xd000, 0x1000, 64, (uint64_t)i + 1);
  }
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ROUND_TRIP, &m) == 0);
  CHECK_EQ_U64(m.n, 3);
  for (size_t i = 0; i < m.n && i < 3; ++i) {
    CHECK_EQ_U64(m.v[i].ref, back[i]);    /* device -> host ... */
    CHECK_EQ_U64(m.v[i].avoid, out[i + 1]); /* ... and back unchanged */
  }
  ompdp_matches_free(&m);
}

/* Device -> host, then host -> device with the same bytes: one trip. The
 * published version also paired the second transfer with the first as its
 * "return" although that happened before it, counting two. */
static void return_before_outgoing(void) {
  seq_t s;
  seq_init(&s);
  uint32_t out = d2h(&s, 0, 0xd000, 0x1000, 64, 42);
  uint32_t ret = h2d(&s, 0, 0x1000, 0xd000, 64, 42);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ROUND_TRIP, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1) {
    CHECK_EQ_U64(m.v[0].ref, out);
    CHECK_EQ_U64(m.v[0].avoid, ret);
  }
  ompdp_matches_free(&m);
}

/* Same bytes between unrelated devices are no trip. */
static void other_devices(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 42);
  d2h(&s, 1, 0xe000, 0x2000, 64, 42);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ROUND_TRIP, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

/* Each transfer takes part in at most one trip: out, back, out, back with
 * one hash is two trips (not three), and a lone return pairs once. */
static void no_double_counting(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a = h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  uint32_t b = d2h(&s, 0, 0xd000, 0x1000, 64, 1);
  uint32_t c = h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  uint32_t d = d2h(&s, 0, 0xd000, 0x1000, 64, 1);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ROUND_TRIP, &m) == 0);
  CHECK_EQ_U64(m.n, 2);
  if (m.n == 2) {
    CHECK_EQ_U64(m.v[0].ref, a);
    CHECK_EQ_U64(m.v[0].avoid, b);
    CHECK_EQ_U64(m.v[1].ref, c);
    CHECK_EQ_U64(m.v[1].avoid, d);
  }
  ompdp_matches_free(&m);
}

/* Oldest open trip first; two returns close two outgoing transfers. */
static void fifo(void) {
  seq_t s;
  seq_init(&s);
  uint32_t o1 = h2d(&s, 0, 0x1000, 0xd000, 64, 3);
  uint32_t o2 = h2d(&s, 0, 0x2000, 0xd100, 64, 3);
  uint32_t r1 = d2h(&s, 0, 0xd000, 0x1000, 64, 3);
  uint32_t r2 = d2h(&s, 0, 0xd100, 0x2000, 64, 3);
  uint32_t r3 = d2h(&s, 0, 0xd100, 0x2000, 64, 3); /* nothing left to close */
  (void)r3;
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ROUND_TRIP, &m) == 0);
  CHECK_EQ_U64(m.n, 2);
  if (m.n == 2) {
    CHECK_EQ_U64(m.v[0].ref, o1);
    CHECK_EQ_U64(m.v[0].avoid, r1);
    CHECK_EQ_U64(m.v[1].ref, o2);
    CHECK_EQ_U64(m.v[1].avoid, r2);
  }
  ompdp_matches_free(&m);
}

/* Negative: data that changes on the device is not a round trip. */
static void changed_data(void) {
  seq_t s;
  seq_init(&s);
  for (int i = 0; i < 5; ++i) {
    h2d(&s, 2, 0x1000, 0xd000, 64, (uint64_t)(2 * i));
    kernel(&s, 2);
    d2h(&s, 2, 0xd000, 0x1000, 64, (uint64_t)(2 * i + 1));
  }
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ROUND_TRIP, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

int main(void) {
  listing2();
  return_before_outgoing();
  other_devices();
  no_double_counting();
  fifo();
  changed_data();
  return CHECK_DONE();
}
