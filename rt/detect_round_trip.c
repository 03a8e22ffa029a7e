/*===- detect_round_trip.c - Algorithm 2: round trips --------------*- C -*-===*\
|*
|* A round trip is data sent from A to B that later comes back from B to A
|* unchanged. Walking the transfers in time order, each one first tries to
|* close the oldest still-open trip in the opposite direction with the same
|* hash; if none is open it opens one itself. This corrects two defects of
|* the published implementation: a return can only pair with an outgoing
|* transfer that happened before it, and a transfer is part of at most one
|* trip, so nothing is counted twice.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

int ompdp_find_round_trips(const ompdp_event_t *ev, size_t n, ompdp_matches_t *out) {
  /* open[(hash, src, dst)] = head and tail of a FIFO of open outgoing
   * transfers, linked through next[] (indices + 1, 0 = end). */
  ompdp_hmap_t open;
  uint32_t *next = calloc(n ? n : 1, sizeof(*next));
  uint32_t *tail = calloc(n ? n : 1, sizeof(*tail)); /* tail per head event */
  int rc = 0;
  if (!next || !tail || ompdp_hmap_init(&open, 256)) {
    free(next);
    free(tail);
    return -1;
  }
  for (size_t i = 0; i < n && !rc; ++i) {
    const ompdp_event_t *e = &ev[i];
    if (!ompdp_is_hashed_transfer(e) || e->src_dev == e->dst_dev)
      continue;
    uint64_t dev_pair_back = ((uint64_t)(uint32_t)e->dst_dev << 32) | (uint32_t)e->src_dev;
    uint64_t *back = ompdp_hmap_find(&open, e->hash, dev_pair_back, 0);
    if (back && *back) {
      uint32_t tx = (uint32_t)(*back - 1);
      rc = ompdp_matches_push(out, (uint32_t)i, tx, 0);
      /* Pop the oldest open trip; the queue's tail moves with the head. */
      uint32_t nx = next[tx];
      if (nx)
        tail[nx - 1] = tail[tx];
      *back = nx;
      continue;
    }
    uint64_t dev_pair = ((uint64_t)(uint32_t)e->src_dev << 32) | (uint32_t)e->dst_dev;
    int inserted;
    uint64_t *q = ompdp_hmap_upsert(&open, e->hash, dev_pair, 0, &inserted);
    if (!q) {
      rc = -1;
      break;
    }
    if (!*q) {
      *q = i + 1;
      tail[i] = (uint32_t)(i + 1);
    } else {
      uint32_t head = (uint32_t)(*q - 1);
      next[tail[head] - 1] = (uint32_t)(i + 1);
      tail[head] = (uint32_t)(i + 1);
    }
  }
  ompdp_hmap_free(&open);
  free(next);
  free(tail);
  return rc;
}
