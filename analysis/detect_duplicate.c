/*===- detect_duplicate.c - Algorithm 1: duplicate transfers --------*- C -*-===*\
|*
|* Groups transfers by (content hash, destination device). In a group of n,
|* the first transfer is needed and the n-1 others are duplicates: the
|* destination already held those bytes. Each duplicate also says whether it
|* re-sends the same host buffer as the first (keep that buffer resident) or
|* another buffer that happens to hold the same bytes (initialise on the
|* device instead).
|*
|* Online, this is one table entry per distinct (content, device): the key
|* and the first transfer's operation, 12 bytes (16 with its position, kept
|* only for tests). It is the one part of the analysis that grows with the
|* program's distinct data rather than with its code. Bounded by a limit, the
|* table keeps two generations: when the young one is full the old one is
|* forgotten (and counted), so the most recent contents are always known.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

struct ompdp_dup {
  ompdp_ctab_t gen[2];
  int young;
  int with_seq;
  uint64_t limit; /* entries per generation, 0: unbounded */
  uint64_t forgotten;
};

/* The key is the hash alone: the same bytes sent to several devices (or
 * to a device and back to the host) sit next to each other, one cache miss
 * for all; `same_dest` tells the devices apart. */
static uint64_t dev_key(uint64_t hash, int dev) {
  (void)dev;
  return hash;
}

static int same_dest(const void *ctx, uint32_t op) {
  return ompdp_op_get(op)->dst_dev == *(const int *)ctx;
}

ompdp_dup_t *ompdp_dup_create(uint64_t limit, int with_seq) {
  ompdp_dup_t *d = calloc(1, sizeof(*d));
  if (!d)
    return NULL;
  d->with_seq = with_seq;
  d->limit = limit / (with_seq ? 32 : 24); /* bytes per entry at 3/4 load, roughly */
  if (limit && !d->limit)
    d->limit = 1;
  ompdp_ctab_init(&d->gen[0], with_seq);
  ompdp_ctab_init(&d->gen[1], with_seq);
  return d;
}

void ompdp_dup_destroy(ompdp_dup_t *d) {
  if (!d)
    return;
  ompdp_ctab_free(&d->gen[0]);
  ompdp_ctab_free(&d->gen[1]);
  free(d);
}

size_t ompdp_dup_memory(const ompdp_dup_t *d) {
  return sizeof(*d) + d->gen[0].bytes + d->gen[1].bytes;
}

uint64_t ompdp_dup_forgotten(const ompdp_dup_t *d) { return d->forgotten; }

void ompdp_dup_prefetch(const ompdp_dup_t *d, uint64_t hash, int dev) {
  ompdp_ctab_prefetch(&d->gen[d->young], dev_key(hash, dev));
}

int ompdp_dup_feed(ompdp_dup_t *d, ompdp_engine_t *g, const ompdp_xev_t *e) {
  if (!e->hashed)
    return 0;
  int dev = e->d->dst_dev;
  uint64_t k = dev_key(e->hash, dev);
  uint32_t *a = NULL, *b = NULL;
  ompdp_ctab_t *young = &d->gen[d->young], *old = &d->gen[!d->young];
  int rc = -1;
  if (old->n)
    rc = ompdp_ctab_find(old, k, same_dest, &dev, &a, &b);
  if (rc) {
    rc = ompdp_ctab_upsert(young, k, same_dest, &dev, e->op, (uint32_t)e->seq, &a, &b);
    if (rc < 0)
      return -1;
    if (rc == 1) { /* the first transfer of these bytes to this device */
      if (d->limit && young->n >= d->limit) {
        d->forgotten += old->n;
        ompdp_ctab_free(old);
        d->young = !d->young;
      }
      return 0;
    }
  }
  int host = ompdp_g_host(g);
  uint32_t first = *a - 1;
  ompdp_xref_t ref = {b ? *b : UINT64_MAX, first};
  uint32_t same = ompdp_host_addr(e->d, host) == ompdp_host_addr(ompdp_op_get(first), host);
  if (ompdp_g_select(g, OMPDP_FK_DUPLICATE_TRANSFER, e, &ref, same) == OMPDP_NONE)
    return -1;
  ompdp_g_match(g, OMPDP_FK_DUPLICATE_TRANSFER, e->seq, ref.seq, same);
  return 0;
}
