/*===- test_allocs.c - Algorithms 3 and 4 and alloc/delete pairing --*- C -*-===*/
#include "check.h"
#include "events.h"

#include <stdlib.h>

static int has_avoid(const ompdp_matches_t *m, uint32_t avoid, uint32_t *aux) {
  for (size_t i = 0; i < m->n; ++i)
    if (m->v[i].avoid == avoid) {
      if (aux)
        *aux = m->v[i].aux;
      return 1;
    }
  return 0;
}

/* Each allocation pairs with the first later delete of its device address
 * on its device; one never freed pairs with nothing. Seen through the
 * unused allocations (no kernel anywhere), whose aux is the delete. */
static void pairing(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a1 = alloc(&s, 0, 0x1000, 0xd000, 64);
  uint32_t a2 = alloc(&s, 1, 0x1000, 0xd000, 64); /* same address, other device */
  uint32_t d2 = del(&s, 1, 0xd000);
  uint32_t d1 = del(&s, 0, 0xd000);
  uint32_t a3 = alloc(&s, 0, 0x1000, 0xd000, 64); /* never freed */
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 3);
  uint32_t aux = 0;
  CHECK(has_avoid(&m, a1, &aux) && aux == d1);
  CHECK(has_avoid(&m, a2, &aux) && aux == d2);
  CHECK(has_avoid(&m, a3, &aux) && aux == OMPDP_NONE);
  ompdp_matches_free(&m);
}

/* A newer allocation at a live device address replaces the older, which
 * is then never freed. */
static void replaced(void) {
  seq_t s;
  seq_init(&s);
  uint32_t a1 = alloc(&s, 0, 0x1000, 0xd000, 64);
  uint32_t a2 = alloc(&s, 0, 0x2000, 0xd000, 64);
  uint32_t d = del(&s, 0, 0xd000);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  uint32_t aux = 0;
  CHECK(has_avoid(&m, a1, &aux) && aux == OMPDP_NONE);
  CHECK(has_avoid(&m, a2, &aux) && aux == d);
  ompdp_matches_free(&m);
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
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_REPEATED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 4);
  for (size_t i = 0; i < m.n; ++i) {
    CHECK_EQ_U64(m.v[i].ref, first);
    CHECK(m.v[i].aux != OMPDP_NONE && s.ev[m.v[i].aux].type == OMPDP_EV_DELETE &&
          m.v[i].aux > m.v[i].avoid);
  }
  ompdp_matches_free(&m);
}

/* Negative: one allocation kept for the whole loop. */
static void resident(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 64);
  for (int i = 0; i < 5; ++i)
    kernel(&s, 0);
  del(&s, 0, 0xd000);
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_REPEATED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
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
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 3);
  CHECK(has_avoid(&m, un1, NULL) && has_avoid(&m, un2, NULL) && has_avoid(&m, live, NULL) &&
        !has_avoid(&m, used, NULL));
  ompdp_matches_free(&m);
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
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

/* A kernel that begins after the delete began but before it ended still
 * overlaps the lifetime; one that begins after the delete ended does not. */
static void delete_end(void) {
  seq_t s;
  seq_init(&s);
  alloc(&s, 0, 0x1000, 0xd000, 64);
  uint32_t d = del(&s, 0, 0xd000);
  uint32_t k = kernel(&s, 0);
  s.ev[k].t_begin = s.ev[d].t_end; /* at the delete's last tick */
  s.ev[k].t_end = s.ev[k].t_begin + 10;
  uint32_t a2 = alloc(&s, 0, 0x1000, 0xd000, 64);
  uint32_t d2 = del(&s, 0, 0xd000);
  uint32_t k2 = kernel(&s, 0);
  s.ev[k2].t_begin = s.ev[d2].t_end + 1; /* just after */
  s.ev[k2].t_end = s.ev[k2].t_begin + 10;
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  CHECK(has_avoid(&m, a2, NULL));
  ompdp_matches_free(&m);
}

/* A run that died: an allocation freed with no kernel in its lifetime is
 * still unused (proved); one still alive at the death, or one a kernel in
 * flight (begun, never ended) may read, is not. The same events, the run
 * complete, call the live one unused. */
static void ended_early(void) {
  seq_t s;
  seq_init(&s);
  uint32_t freed = alloc(&s, 0, 0x1000, 0xd000, 64);
  del(&s, 0, 0xd000);
  uint32_t read = alloc(&s, 0, 0x2000, 0xd100, 64);
  uint32_t k = kernel(&s, 0);
  s.ev[k].flags &= (uint8_t)~OMPDP_EVF_COMPLETE; /* the death: in flight */
  uint32_t live = alloc(&s, 1, 0x3000, 0xd200, 64);
  ompdp_matches_t m = {0};
  CHECK(seq_matches_early(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  CHECK(has_avoid(&m, freed, NULL) && !has_avoid(&m, read, NULL) && !has_avoid(&m, live, NULL));
  ompdp_matches_free(&m);
  /* Complete, the kernel ran: only what it read is used. */
  s.ev[k].flags |= OMPDP_EVF_COMPLETE;
  CHECK(seq_matches(&s, OMPDP_FK_UNUSED_ALLOC, &m) == 0);
  CHECK_EQ_U64(m.n, 2);
  CHECK(has_avoid(&m, freed, NULL) && has_avoid(&m, live, NULL) && !has_avoid(&m, read, NULL));
  ompdp_matches_free(&m);
}

int main(void) {
  pairing();
  replaced();
  repeated();
  resident();
  unused();
  overlap();
  delete_end();
  ended_early();
  return CHECK_DONE();
}
