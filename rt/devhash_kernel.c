/*===- devhash_kernel.c - the content hash's chunks on an NVIDIA GPU -*- C -*-===*\
|*
|* Compiled for nvptx64 only (to PTX, embedded in the runtime as text and
|* loaded through the CUDA driver, which compiles it for whatever GPU it
|* runs on: no ptxas of ours is involved, so the CUDA version of the
|* machine does not matter). One kernel: chunk c of the n bytes at p
|* (include/ompdp/content_hash.h: 64 KiB chunks, the last one shorter) is
|* hashed with XXH3-64 by one warp, whose threads run the lanes of
|* include/ompdp/xxh3_lanes.h (see below); the eight accumulators meet in
|* the first thread through warp shuffles, which merges them and writes
|* out[c]. The host combines out[] into the hash (rt/devhash.c). The eight
|* threads of a lane-set read 64 consecutive bytes of one stripe, so a
|* warp's loads are four full 64-byte segments.
|*
|* Every thread of a warp belongs to the same chunk, so each shuffle has the
|* whole warp: a warp past the last chunk leaves as one.
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp/content_hash.h"
#include "ompdp/xxh3_lanes.h"

/* One warp per chunk. Thread t runs lane t % 8 over stripes of each block
 * (t / 8) * 4 .. (t / 8) * 4 + 3: a block's contributions to an
 * accumulator are only summed (xxh3_lanes.h, ompdp_x3_mix), so the four
 * threads of a lane add theirs up through two shuffles and each applies
 * the block's scramble to the same sum. The loads of GROUP blocks are
 * issued before any of them is summed: the scramble chains the blocks,
 * so without that each block would wait a whole memory round trip. */
#define WARP 32
#define GROUP 4

static inline uint64_t shfl_xor64(uint64_t v, int m) {
  uint32_t lo = (uint32_t)__nvvm_shfl_sync_bfly_i32(0xffffffffu, (int)(uint32_t)v, m, 0x1f);
  uint32_t hi = (uint32_t)__nvvm_shfl_sync_bfly_i32(0xffffffffu, (int)(uint32_t)(v >> 32), m, 0x1f);
  return (uint64_t)hi << 32 | lo;
}

static inline uint64_t shfl_idx64(uint64_t v, int src) {
  uint32_t lo = (uint32_t)__nvvm_shfl_sync_idx_i32(0xffffffffu, (int)(uint32_t)v, src, 0x1f);
  uint32_t hi = (uint32_t)__nvvm_shfl_sync_idx_i32(0xffffffffu, (int)(uint32_t)(v >> 32), src, 0x1f);
  return (uint64_t)hi << 32 | lo;
}

/* The sum over the four threads of a lane (they differ in bits 3 and 4). */
static inline uint64_t lane_sum(uint64_t part) {
  part += shfl_xor64(part, 8);
  return part + shfl_xor64(part, 16);
}

/* Blocks of a multiple of 32 threads; grid * block >= 32 * chunks. */
__attribute__((nvptx_kernel)) void ompdp_devhash_chunks(const unsigned char *p, uint64_t n,
                                                         const unsigned char *secret,
                                                         uint64_t *out) {
  uint64_t g = (uint64_t)__nvvm_read_ptx_sreg_ctaid_x() * __nvvm_read_ptx_sreg_ntid_x() +
               __nvvm_read_ptx_sreg_tid_x();
  uint64_t chunk = g / WARP;
  unsigned t = (unsigned)(g % WARP), lane = t % OMPDP_X3_LANES, sub = t / OMPDP_X3_LANES;
  _Static_assert(WARP == OMPDP_X3_LANES * OMPDP_X3_SUBS, "a warp is the lanes times the subs");
  if (chunk >= ompdp_hash_chunks(n))
    return; /* a whole warp: no shuffle is left waiting */
  uint64_t off = chunk * OMPDP_HASH_CHUNK;
  uint64_t len = n - off < OMPDP_HASH_CHUNK ? n - off : OMPDP_HASH_CHUNK;
  const unsigned char *c = p + off;
  if (len <= OMPDP_X3_SHORT_MAX) {
    if (t == 0)
      out[chunk] = ompdp_x3_short(c, len, secret);
    return;
  }
  uint64_t acc;
  if (((uintptr_t)c & 7) == 0) {
    /* The keys of this thread's stripes, the same in every block. */
    uint64_t key[OMPDP_X3_PER_SUB];
    ompdp_x3_block_keys(key, secret, lane, sub);
    const uint64_t *w = (const uint64_t *)__builtin_assume_aligned(c, 8);
    size_t blocks = (len - 1) / OMPDP_X3_BLOCK, b = 0;
    acc = ompdp_x3_acc_init(lane);
    for (; b + GROUP <= blocks; b += GROUP) {
      uint64_t part[GROUP];
#pragma unroll
      for (unsigned q = 0; q < GROUP; ++q)
        part[q] = ompdp_x3_block_part(w, b + q, lane, sub, key);
#pragma unroll
      for (unsigned q = 0; q < GROUP; ++q)
        acc = ompdp_x3_scramble(acc + lane_sum(part[q]), secret, lane);
    }
    for (; b < blocks; ++b)
      acc = ompdp_x3_scramble(acc + lane_sum(ompdp_x3_block_part(w, b, lane, sub, key)), secret, lane);
    acc = ompdp_x3_lane_tail(acc, c, len, secret, lane);
  } else {
    /* A chunk at an odd address (a mapped section of bytes): each lane
     * alone, as the host does, with byte loads. */
    acc = ompdp_x3_lane(c, len, secret, lane);
  }
  uint64_t all[OMPDP_X3_LANES];
  for (unsigned k = 0; k < OMPDP_X3_LANES; ++k)
    all[k] = shfl_idx64(acc, (int)k);
  if (t == 0)
    out[chunk] = ompdp_x3_merge(all, len, secret);
}
