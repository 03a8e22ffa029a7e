/*===- devhash_kernel.c - the content hash's chunks on an NVIDIA GPU -*- C -*-===*\
|*
|* Compiled for nvptx64 only (to PTX, embedded in the runtime as text and
|* loaded through the CUDA driver, which compiles it for whatever GPU it
|* runs on: no ptxas of ours is involved, so the CUDA version of the
|* machine does not matter). One kernel: chunk c of the n bytes at p
|* (include/ompdp/content_hash.h: 64 KiB chunks, the last one shorter) is
|* hashed with XXH3-64 by eight threads, thread k running lane k of
|* include/ompdp/xxh3_lanes.h over the whole chunk; the eight accumulators
|* meet in the first thread through warp shuffles, which merges them and
|* writes out[c]. The host combines out[] into the hash (rt/devhash.c).
|* Reads of the eight threads of a chunk are 64 consecutive bytes of one
|* stripe, so a warp's loads are four full 64-byte segments.
|*
|* Every thread of a warp takes part in the shuffles (a thread past the
|* last chunk computes nothing but still shuffles), since a shuffle with
|* exited threads in its mask is undefined.
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp/content_hash.h"
#include "ompdp/xxh3_lanes.h"

static inline uint64_t shfl64(uint64_t v, int src) {
  uint32_t lo = (uint32_t)__nvvm_shfl_sync_idx_i32(0xffffffffu, (int)(uint32_t)v, src, 0x1f);
  uint32_t hi = (uint32_t)__nvvm_shfl_sync_idx_i32(0xffffffffu, (int)(uint32_t)(v >> 32), src, 0x1f);
  return (uint64_t)hi << 32 | lo;
}

/* Blocks of a multiple of 32 threads; grid * block >= 8 * chunks. */
__attribute__((nvptx_kernel)) void ompdp_devhash_chunks(const unsigned char *p, uint64_t n,
                                                         const unsigned char *secret,
                                                         uint64_t *out) {
  uint64_t g = (uint64_t)__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
               __nvvm_read_ptx_sreg_tid_x();
  uint64_t chunk = g / OMPDP_X3_LANES;
  unsigned lane = (unsigned)(g % OMPDP_X3_LANES);
  uint64_t chunks = ompdp_hash_chunks(n);
  int valid = chunk < chunks;
  uint64_t off = chunk * OMPDP_HASH_CHUNK;
  uint64_t len = valid ? (n - off < OMPDP_HASH_CHUNK ? n - off : OMPDP_HASH_CHUNK) : 0;
  uint64_t acc = 0;
  if (len > OMPDP_X3_SHORT_MAX)
    acc = ompdp_x3_lane(p + off, len, secret, lane);
  uint64_t all[OMPDP_X3_LANES];
  int first = (int)(__nvvm_read_ptx_sreg_tid_x() & 31u & ~7u);
  for (int k = 0; k < OMPDP_X3_LANES; ++k)
    all[k] = shfl64(acc, first + k);
  if (valid && lane == 0)
    out[chunk] = len > OMPDP_X3_SHORT_MAX ? ompdp_x3_merge(all, len, secret)
                                          : ompdp_x3_short(p + off, len, secret);
}
