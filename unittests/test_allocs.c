/*===- test_allocs.c - Algorithms 3 and 4 and alloc/delete pairing --*- C -*-===*/
#include "check.h"
#include "events.h"

#include <stdlib.h>

static void pairing(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a1 = alloc(&s, 0, 0x1000, 0xd000, 64);
  uint32_t a2 = alloc(&s, 1, 0x1000, 0xd000, 64); /* same address, other device */
  uint32_t d2 = del(&s, 1, 0xd000);
  uint32_t d1 = del(&s, 0, 0xd000);
  uint32_t a3 = alloc(&s, 0, 0x1000, 0xd000, 64); /* never freed */
  ompdp_alloc_pair_t *p;
  size_t np;
  CHECK(ompdp_alloc_pairs(s.ev, s.n, &p, &np) == 0);
  CHECK_EQ_U64(np, 3);
  if (np == 3) {
    CHECK_EQ_U64(p[0].alloc, a1);
    CHECK_EQ_U64(p[0].del, d1);
    CHECK_EQ_U64(p[1].alloc, a2);
    CHECK_EQ_U64(p[1].del, d2);
    CHECK_EQ_U64(p[2].alloc, a3);
    CHECK_EQ_U64(p[2].del, OMPDP_NONE);
  }
  free(p);
}

/* Listing 2 style: the same host buffer allocated on device 0 each of 5
 * iterations -> 4 repeats; another size or device is a different key. */
static void repeated(void) {
  seq_t s;
  seq_init(&s);
  uint32_t first = 0;
  for (int i = 0; i < 5; ++i) {
    uint32_t a = alloc(&s, 0, 0x1000, 0xd000 + (uint64_t)i * 0x100, 64);
    if (i == 0)
      first = a;
    kernel(&s, 0);
    del(&s, 0, 0xd000 + (uint64_t)i * 0x100);
  }
  alloc(&s, 0, 0x1000, 0xe000, 128); /* same address, other size */
  del(&s, 0, 0xe000);
  alloc(&s, 2, 0x1000, 0xe000, 64); /* other device */
  del(&s, 2, 0xe000);
  ompdp_alloc_pair_t *p;
  size_t np;
  CHECK(ompdp_alloc_pairs(s.ev, s.n, &p, &np) == 0);
  ompdp_matches_t m = {0};
  CHECK(ompdp_find_repeated_allocs(s.ev, p, np, &m) == 0);
  CHECK_EQ_U64(m.n, 4);
  for (size_t i = 0; i < m.n; ++i) {
    CHECK_EQ_U64(m.v[i].ref, first);
    CHECK(m.v[i].aux != OMPDP_NONE && s.ev[m.v[i].aux].type == OMPDP_EV_DELETE);
  }
  ompdp_matches_free(&m);
  free(p);
}

/* Negative: one allocation kept for the whole loop. */
static void resident(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 64);
  for (int i = 0; i < 5; ++i)
    kernel(&s, 0);
  del(&s, 0, 0xd000);
  ompdp_alloc_pair_t *p;
  size_t np;
  CHECK(ompdp_alloc_pairs(s.ev, s.n, &p, &np) == 0);
  ompdp_matches_t m = {0};
  CHECK(ompdp_find_repeated_allocs(s.ev, p, np, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  CHECK(ompdp_find_unused_allocs(s.ev, s.n, p, np, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
  free(p);
}

/* Algorithm 4: an allocation with no kernel on its device during its
 * lifetime is unused, even if kernels run on other devices meanwhile. */
static void unused(void) {
  seq_t s;
  seq_init(&s);
  kernel(&s, 0);
  uint32_t un1 = alloc(&s, 0, 0x1000, 0xd000, 64); /* between kernels */
  kernel(&s, 1);                                  /* other device */
  del(&s, 0, 0xd000);
  uint32_t used = alloc(&s, 0, 0x2000, 0xd100, 64);
  kernel(&s, 0);
  del(&s, 0, 0xd100);
  uint32_t un2 = alloc(&s, 3, 0x3000, 0xd200, 64); /* device without kernels */
  del(&s, 3, 0xd200);
  uint32_t live = alloc(&s, 1, 0x4000, 0xd300, 64); /* never freed, no kernel after */
  ompdp_alloc_pair_t *p;
  size_t np;
  CHECK(ompdp_alloc_pairs(s.ev, s.n, &p, &np) == 0);
  ompdp_matches_t m = {0};
  CHECK(ompdp_find_unused_allocs(s.ev, s.n, p, np, &m) == 0);
  CHECK_EQ_U64(m.n, 3);
  int seen1 = 0, seen2 = 0, seen_live = 0, seen_used = 0;
  for (size_t i = 0; i < m.n; ++i) {
    seen1 |= m.v[i].avoid == un1;
    seen2 |= m.v[i].avoid == un2;
    seen_live |= m.v[i].avoid == live;
    seen_used |= m.v[i].avoid == used;
  }
  CHECK(seen1 && seen2 && seen_live && !seen_used);
  ompdp_matches_free(&m);
  free(p);
}

/* A kernel that starts before the allocation and ends after it began
 * overlaps its lifetime: used. */
static void overlap(void) {
  seq_t s;
  seq_init(&s);
  uint32_t k = kernel(&s, 0);
  uint32_t a = alloc(&s, 0, 0x1000, 0xd000, 64);
  s.ev[k].t_end = s.ev[a].t_begin + 1; /* still running */
  del(&s, 0, 0xd000);
  ompdp_alloc_pair_t *p;
  size_t np;
  CHECK(ompdp_alloc_pairs(s.ev, s.n, &p, &np) == 0);
  ompdp_matches_t m = {0};
  CHECK(ompdp_find_unused_allocs(s.ev, s.n, p, np, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
  free(p);
}

int main(void) {
  pairing();
  repeated();
  resident();
  unused();
  overlap();
  return CHECK_DONE();
}
