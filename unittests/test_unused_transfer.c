/*===- test_unused_transfer.c - Algorithm 5 ------------------------*- C -*-===*/
#include "check.h"
#include "events.h"

/* Two updates of the same device bytes with no kernel between: the first
 * is unused (overwritten); the second is read by the kernel. */
static void overwritten(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a = h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  uint32_t b = h2d(&s, 0, 0x1000, 0xd000, 64, 2);
  kernel(&s, 0);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1) {
    CHECK_EQ_U64(m.v[0].avoid, a);
    CHECK_EQ_U64(m.v[0].ref, b);
  }
  ompdp_matches_free(&m);
}

/* After the last kernel on the device: unused, with no overwriting ref. */
static void after_last_kernel(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  kernel(&s, 0);
  uint32_t late = h2d(&s, 0, 0x1000, 0xd000, 64, 3);
  kernel(&s, 1); /* a kernel elsewhere does not read device 0's memory */
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1) {
    CHECK_EQ_U64(m.v[0].avoid, late);
    CHECK_EQ_U64(m.v[0].ref, OMPDP_NONE);
  }
  ompdp_matches_free(&m);
}

/* Negatives: a kernel between the two transfers may read the first; a
 * smaller later transfer does not cover the first; different device
 * addresses do not overwrite each other; transfers to the host never
 * count. */
static void negatives(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  kernel(&s, 0);
  h2d(&s, 0, 0x1000, 0xd000, 64, 2);
  h2d(&s, 0, 0x1000, 0xd000, 32, 3); /* partial overwrite */
  h2d(&s, 0, 0x2000, 0xd100, 64, 4);
  d2h(&s, 0, 0xd000, 0x1000, 64, 5);
  d2h(&s, 0, 0xd000, 0x1000, 64, 5);
  kernel(&s, 0);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

/* A transfer during a kernel on the same device clears the candidates. */
static void during_kernel(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  uint32_t k = kernel(&s, 0);
  uint32_t t = h2d(&s, 0, 0x2000, 0xd100, 64, 2);
  s.ev[k].t_end = s.ev[t].t_end + 5; /* still running */
  h2d(&s, 0, 0x1000, 0xd000, 64, 3);
  kernel(&s, 0);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

/* Devices are their own numbers, however large or sparse. */
static void sparse_devices(void) {
  seq_t s;
  seq_init(&s);
  h2d(&s, 1000, 0x1000, 0xd000, 64, 1);
  h2d(&s, 1000, 0x1000, 0xd000, 64, 1);
  kernel(&s, 1000);
  h2d(&s, 7, 0x1000, 0xd000, 64, 1);
  kernel(&s, 7);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  ompdp_matches_free(&m);
}

/* A run that died: a copy overwritten with no kernel in between is unused
 * (proved); a copy a kernel in flight may read, or one nothing overwrote
 * and no kernel followed, is not (the process might have used it next).
 * Complete, the last one is unused (after the last kernel). */
static void ended_early(void) {
  seq_t s;
  seq_init(&s);
  uint32_t over = h2d(&s, 0, 0x1000, 0xd000, 64, 1);
  uint32_t ref = h2d(&s, 0, 0x1000, 0xd000, 64, 2);
  kernel(&s, 0);
  uint32_t read = h2d(&s, 0, 0x2000, 0xd100, 64, 3);
  uint32_t k = kernel(&s, 0);
  s.ev[k].flags &= (uint8_t)~OMPDP_EVF_COMPLETE; /* the death: in flight */
  uint32_t last = h2d(&s, 1, 0x3000, 0xd200, 64, 4);
  ompdp_matches_t m = {0};
  CHECK(seq_matches_early(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1) {
    CHECK_EQ_U64(m.v[0].avoid, over);
    CHECK_EQ_U64(m.v[0].ref, ref);
  }
  ompdp_matches_free(&m);
  s.ev[k].flags |= OMPDP_EVF_COMPLETE;
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 2);
  int saw_last = 0, saw_read = 0;
  for (size_t i = 0; i < m.n; ++i) {
    saw_last |= m.v[i].avoid == last;
    saw_read |= m.v[i].avoid == read;
  }
  CHECK(saw_last && !saw_read);
  ompdp_matches_free(&m);
}

int main(void) {
  overwritten();
  after_last_kernel();
  negatives();
  during_kernel();
  sparse_devices();
  ended_early();
  return CHECK_DONE();
}
