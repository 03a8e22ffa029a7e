/*===- detect_repeated_alloc.c - Algorithm 3: repeated allocations --*- C -*-===*\
|*
|* Groups allocation/delete pairs by (host address, device, bytes): the same
|* variable mapped again and again. Bytes are part of the key so that a host
|* address reused for a different variable does not count. In a group of n,
|* the n-1 later allocations are avoidable.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

int ompdp_find_repeated_allocs(const ompdp_event_t *ev, const ompdp_alloc_pair_t *pairs,
                               size_t num_pairs, ompdp_matches_t *out) {
  ompdp_hmap_t first; /* key -> alloc event index of the first pair + 1 */
  if (ompdp_hmap_init(&first, 256))
    return -1;
  int rc = 0;
  for (size_t i = 0; i < num_pairs && !rc; ++i) {
    const ompdp_event_t *a = &ev[pairs[i].alloc];
    int inserted;
    uint64_t *slot =
        ompdp_hmap_upsert(&first, a->src_addr, (uint64_t)(int64_t)a->dst_dev, a->bytes, &inserted);
    if (!slot) {
      rc = -1;
      break;
    }
    if (inserted)
      *slot = (uint64_t)pairs[i].alloc + 1;
    else
      rc = ompdp_matches_push(out, pairs[i].alloc, (uint32_t)(*slot - 1), pairs[i].del);
  }
  ompdp_hmap_free(&first);
  return rc;
}
