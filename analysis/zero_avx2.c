/*===- zero_avx2.c - XXH3 streamed over zero bytes, for AVX2 --------*- C -*-===*\
|*
|* detect_zero.c decides that a copy was all zeros by comparing its hash
|* with the hash of as many zero bytes, which below the chunked sizes
|* (include/ompdp/content_hash.h: 256 KiB) it streams over a block of
|* zeros, and from there on makes of two chunk hashes. Built with -mavx2
|* and chosen at run time by detect_zero.c only where the CPU has AVX2; the
|* portable build runs XXH3's SSE2 loop (when it streamed every size, 256
|* MiB of zeros took 13-24 ms with it against 26-37 ms: issue 17). The state is
|* XXH3's own, laid out alike in every vector variant, and the value is the
|* same: only the speed differs.
|*
\*===----------------------------------------------------------------------===*/
#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <xxhash.h>

void ompdp_zero_feed_avx2(void *state, uint64_t n);

static const unsigned char zero_block[16384];

void ompdp_zero_feed_avx2(void *state, uint64_t n) {
  XXH3_state_t *st = state;
  for (uint64_t left = n; left;) {
    size_t k = left < sizeof(zero_block) ? (size_t)left : sizeof(zero_block);
    XXH3_64bits_update(st, zero_block, k);
    left -= k;
  }
}
