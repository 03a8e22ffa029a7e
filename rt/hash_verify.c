/*===- hash_verify.c - collision check for the verify_hashes option -*- C -*-===*\
|*
|* Detection trusts that equal XXH3 hashes mean equal bytes. With
|* verify_hashes=1 the runtime keeps the first buffer seen for every hash and
|* compares each later buffer with the same hash against it; a mismatch is a
|* collision and is counted in the report. This costs a copy of every
|* distinct transfer and one global lock, so it is a debugging aid only.
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp_rt.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

typedef struct copy {
  struct copy *next;
  uint64_t hash;
  size_t len;
  unsigned char bytes[];
} copy_t;

#define BUCKETS 4096
static copy_t *buckets[BUCKETS];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t collisions;

void ompdp_hash_verify(uint64_t h, const void *p, size_t n) {
  pthread_mutex_lock(&lock);
  copy_t **slot = &buckets[h % BUCKETS];
  for (copy_t *c = *slot; c; c = c->next) {
    if (c->hash != h)
      continue;
    if (c->len != n || memcmp(c->bytes, p, n))
      atomic_fetch_add(&collisions, 1);
    pthread_mutex_unlock(&lock);
    return;
  }
  copy_t *c = malloc(sizeof(*c) + n);
  if (c) {
    c->hash = h;
    c->len = n;
    memcpy(c->bytes, p, n);
    c->next = *slot;
    *slot = c;
  }
  pthread_mutex_unlock(&lock);
}

uint64_t ompdp_hash_collisions(void) { return atomic_load(&collisions); }
