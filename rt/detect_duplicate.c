/*===- detect_duplicate.c - Algorithm 1: duplicate transfers --------*- C -*-===*\
|*
|* Groups transfers by (content hash, destination device). In a group of n,
|* the first transfer is needed and the n-1 others are duplicates: the
|* destination already held those bytes. Each duplicate also says whether it
|* re-sends the same host buffer as the first (keep that buffer resident) or
|* another buffer that happens to hold the same bytes (initialise on the
|* device instead).
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

int ompdp_find_duplicate_transfers(const ompdp_event_t *ev, size_t n, int host_device,
                                   ompdp_matches_t *out) {
  ompdp_hmap_t first; /* (hash, dst device) -> index of first transfer + 1 */
  if (ompdp_hmap_init(&first, 256))
    return -1;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; ++i) {
    const ompdp_event_t *e = &ev[i];
    if (!ompdp_is_hashed_transfer(e))
      continue;
    int inserted;
    uint64_t *slot = ompdp_hmap_upsert(&first, e->hash, (uint64_t)(int64_t)e->dst_dev, 0, &inserted);
    if (!slot) {
      rc = -1;
      break;
    }
    if (inserted) {
      *slot = i + 1;
      continue;
    }
    uint32_t ref = (uint32_t)(*slot - 1);
    int same = ompdp_host_addr(e, host_device) == ompdp_host_addr(&ev[ref], host_device);
    rc = ompdp_matches_push(out, (uint32_t)i, ref, (uint32_t)same);
  }
  ompdp_hmap_free(&first);
  return rc;
}
