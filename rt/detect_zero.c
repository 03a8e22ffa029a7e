/*===- detect_zero.c - zero-filled transfers ------------------------*- C -*-===*\
|*
|* ValueExpert's "single zero" pattern: a host-to-device copy whose bytes
|* were all zero. Allocating the memory on the device and filling it there
|* costs no transfer. Decided from the content hash the callbacks recorded:
|* a transfer of n bytes is all zeros when its hash is XXH3-64 of n zero
|* bytes (a 64-bit hash: a false match is as unlikely as a duplicate
|* transfer taken for another's bytes).
|*
|* That hash is computed once per distinct size and cached. It is taken
|* with the streaming XXH3 API over one static block of zeros, so a 256 MiB
|* transfer costs hashing time but no memory. Small copies (a zero scalar,
|* a flag) are left out: below the `zero_min_bytes` option they are not
|* worth a device-side fill. Device-to-host zeros are the device's results,
|* not this pattern.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdlib.h>

/* Sizes cached at most; past it the cache starts again (a program with
 * that many distinct sizes pays one more hash per size). */
#define ZERO_CACHE_MAX 4096

struct ompdp_zero {
  uint64_t min_bytes;
  ompdp_hmap_t cache; /* (bytes, 0, 0) -> XXH3 of that many zero bytes */
  uint64_t last_bytes, last_hash; /* the last size asked (last_bytes 0: none) */
};

uint64_t ompdp_zero_hash(uint64_t n) {
  static const unsigned char zeros[16384];
  if (n <= sizeof(zeros))
    return XXH3_64bits(zeros, (size_t)n);
  /* The one-shot and streaming APIs give the same value for the same bytes. */
  XXH3_state_t st;
  XXH3_INITSTATE(&st);
  XXH3_64bits_reset(&st);
  for (uint64_t left = n; left;) {
    size_t k = left < sizeof(zeros) ? (size_t)left : sizeof(zeros);
    XXH3_64bits_update(&st, zeros, k);
    left -= k;
  }
  return XXH3_64bits_digest(&st);
}

ompdp_zero_t *ompdp_zero_create(uint64_t min_bytes) {
  ompdp_zero_t *z = calloc(1, sizeof(*z));
  if (!z)
    return NULL;
  z->min_bytes = min_bytes ? min_bytes : 1; /* never an empty transfer */
  if (ompdp_hmap_init(&z->cache, 16)) {
    free(z);
    return NULL;
  }
  return z;
}

void ompdp_zero_destroy(ompdp_zero_t *z) {
  if (!z)
    return;
  ompdp_hmap_free(&z->cache);
  free(z);
}

size_t ompdp_zero_memory(const ompdp_zero_t *z) {
  return sizeof(*z) + ompdp_hmap_memory(&z->cache);
}

/* The zero hash of n bytes through the cache; -1 when out of memory. */
static int zero_hash_cached(ompdp_zero_t *z, uint64_t n, uint64_t *out) {
  if (n == z->last_bytes) {
    *out = z->last_hash;
    return 0;
  }
  if (z->cache.n >= ZERO_CACHE_MAX) {
    ompdp_hmap_free(&z->cache);
    if (ompdp_hmap_init(&z->cache, 16))
      return -1;
  }
  int inserted = 0;
  uint64_t *v = ompdp_hmap_upsert(&z->cache, n, 0, 0, &inserted);
  if (!v)
    return -1;
  if (inserted)
    *v = ompdp_zero_hash(n);
  z->last_bytes = n;
  z->last_hash = *out = *v;
  return 0;
}

int ompdp_zero_feed(ompdp_zero_t *z, ompdp_engine_t *g, const ompdp_xev_t *e) {
  if (!e->hashed || e->d->bytes < z->min_bytes)
    return 0;
  int host = ompdp_g_host(g);
  if (e->d->src_dev != host || e->d->dst_dev == host)
    return 0;
  uint64_t zh;
  if (zero_hash_cached(z, e->d->bytes, &zh))
    return -1;
  if (e->hash != zh)
    return 0;
  if (ompdp_g_select(g, OMPDP_FK_ZERO_TRANSFER, e, NULL, 0) == OMPDP_NONE)
    return -1;
  ompdp_g_match(g, OMPDP_FK_ZERO_TRANSFER, e->seq, OMPDP_NONE, 0);
  return 0;
}
