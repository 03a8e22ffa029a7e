/*===- test_duplicate.c - Algorithm 1 on hand-written sequences -----*- C -*-===*/
#include "check.h"
#include "events.h"

/* Listing 1: `a` to device 0 twice, `sum` and `prod` once each. */
static void listing1(void) {
  seq_t s;
  seq_init(&s);
  uint32_t first = h2d(&s, 0, 0x1000, 0xd000, 4000, 0xaaaa);
  h2d(&s, 0, 0x2000, 0xd100, 4, 0x0); /* sum = 0 */
  kernel(&s, 0);
  uint32_t again = h2d(&s, 0, 0x1000, 0xd200, 4000, 0xaaaa);
  h2d(&s, 0, 0x3000, 0xd300, 4, 0x1); /* prod = 1 */
  kernel(&s, 0);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_DUPLICATE_TRANSFER, &m) == 0);
  REQUIRE_EQ_U64(m.n, 1);
  CHECK_EQ_U64(m.v[0].avoid, again);
  CHECK_EQ_U64(m.v[0].ref, first);
  CHECK_EQ_U64(m.v[0].aux, 1); /* the same host buffer */
  ompdp_matches_free(&m);
}

/* Σ(n-1): three sends of one content, two of another -> 3. Other buffers
 * with the same bytes are flagged as such. */
static void groups_and_buffers(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 7);
  h2d(&s, 0, 0x2000, 0xd100, 64, 7); /* another buffer, same zeros */
  h2d(&s, 0, 0x1000, 0xd000, 64, 7);
  h2d(&s, 0, 0x3000, 0xd200, 64, 8);
  h2d(&s, 0, 0x3000, 0xd200, 64, 8);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_DUPLICATE_TRANSFER, &m) == 0);
  REQUIRE_EQ_U64(m.n, 3);
  CHECK_EQ_U64(m.v[0].aux, 0);
  CHECK_EQ_U64(m.v[1].aux, 1);
  CHECK_EQ_U64(m.v[2].aux, 1);
  ompdp_matches_free(&m);
}

/* Negative: the same bytes to two different devices, different bytes to
 * one device, empty and unhashed transfers are never duplicates. */
static void negatives(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 7);
  h2d(&s, 1, 0x1000, 0xe000, 64, 7);
  h2d(&s, 2, 0x1000, 0xf000, 64, 7);
  h2d(&s, 0, 0x1000, 0xd000, 64, 8);
  h2d(&s, 0, 0x1000, 0xd000, 0, 9);
  h2d(&s, 0, 0x1000, 0xd000, 0, 9);
  uint32_t u1 = h2d(&s, 3, 0x1000, 0xd000, 64, 10);
  uint32_t u2 = h2d(&s, 3, 0x1000, 0xd000, 64, 10);
  s.ev[u1].flags &= (uint8_t)~OMPDP_EVF_HASHED;
  s.ev[u2].flags &= (uint8_t)~OMPDP_EVF_HASHED;
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_DUPLICATE_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

/* The host is a destination too: copying the same bytes back twice. */
static void to_host(void) {
  seq_t s;
  seq_init(&s);
  d2h(&s, 0, 0xd000, 0x1000, 64, 5);
  d2h(&s, 0, 0xd000, 0x1000, 64, 5);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_DUPLICATE_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  ompdp_matches_free(&m);
}

int main(void) {
  listing1();
  groups_and_buffers();
  negatives();
  to_host();
  return CHECK_DONE();
}
