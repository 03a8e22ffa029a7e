/*===- test_ctab.c - the content tables of the detections ----------*- C -*-===*\
|*
|* Millions of keys, so that sub-tables pass the 2 MiB at which they grow in
|* place (mremap and reinsertion), with keys chosen to crowd the end of a
|* sub-table so that probe runs wrap around: after every growth each key
|* inserted is found with its values, no key that was not inserted is, and
|* removals (backward shift) keep the others reachable.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "detect.h"

#include <stdlib.h>

static int any(const void *ctx, uint32_t a) {
  (void)ctx;
  (void)a;
  return 1;
}

static uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return x;
}

/* Key i: random, or (every 2048th) pinned to the last slot of its
 * sub-table whatever its size (low bits all ones), so that runs wrap. */
static uint64_t key(uint64_t i) {
  uint64_t k = mix(i + 1);
  if (i % 2048 == 0)
    k |= 0xffffffull; /* home = cap - 1 for every cap up to 2^24 */
  return k;
}

static void many(int with_b) {
  const uint64_t n = 4500000;
  ompdp_ctab_t t;
  ompdp_ctab_init(&t, with_b);
  int ok = 1;
  for (uint64_t i = 0; i < n && ok; ++i)
    ok = ompdp_ctab_insert(&t, key(i), (uint32_t)i, (uint32_t)(i * 3)) == 0;
  CHECK(ok);
  CHECK_EQ_U64(t.n, n);
  uint64_t found = 0, right = 0, strays = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t *a, *b;
    if (ompdp_ctab_find(&t, key(i), any, NULL, &a, &b))
      continue;
    ++found;
    /* Pinned keys are all distinct too, so the first match is the key. */
    right += *a - 1 == (uint32_t)i && (!with_b || *b == (uint32_t)(i * 3));
  }
  for (uint64_t i = n; i < n + 100000; ++i) {
    uint32_t *a, *b;
    strays += !ompdp_ctab_find(&t, key(i), any, NULL, &a, &b);
  }
  CHECK_EQ_U64(found, n);
  CHECK_EQ_U64(right, n);
  CHECK_EQ_U64(strays, 0);
  /* Remove every third key; the rest stay reachable. */
  for (uint64_t i = 0; i < n; i += 3) {
    uint32_t *a, *b;
    if (!ompdp_ctab_find(&t, key(i), any, NULL, &a, &b))
      ompdp_ctab_remove(&t, key(i), a);
  }
  uint64_t kept = 0, gone = 0;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t *a, *b;
    int hit = !ompdp_ctab_find(&t, key(i), any, NULL, &a, &b);
    if (i % 3)
      kept += hit && *a - 1 == (uint32_t)i;
    else
      gone += !hit;
  }
  CHECK_EQ_U64(kept, n - (n + 2) / 3);
  CHECK_EQ_U64(gone, (n + 2) / 3);
  CHECK(t.bytes >= (size_t)n * t.esize);
  ompdp_ctab_free(&t);
}

/* upsert finds what is there and inserts what is not. */
static void upsert(void) {
  ompdp_ctab_t t;
  ompdp_ctab_init(&t, 0);
  uint32_t *a, *b;
  CHECK(ompdp_ctab_upsert(&t, 42, any, NULL, 7, 0, &a, &b) == 1);
  CHECK(*a == 8 && b == NULL);
  CHECK(ompdp_ctab_upsert(&t, 42, any, NULL, 9, 0, &a, &b) == 0);
  CHECK(*a == 8);
  CHECK_EQ_U64(t.n, 1);
  ompdp_ctab_free(&t);
}

int main(void) {
  many(0);
  many(1);
  upsert();
  return CHECK_DONE();
}
