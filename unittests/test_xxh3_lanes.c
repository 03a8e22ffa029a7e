/*===- test_xxh3_lanes.c - XXH3 in lanes equals libxxhash's XXH3 -*- C -*-===*\
|*
|* include/ompdp/xxh3_lanes.h is what the device-hash kernel runs on a GPU
|* and the runtime runs over device copies in host memory; its value must be
|* XXH3_64bits' to the bit. Every length from 0 to 4 KiB (each short path,
|* the 240/241 edge, blocks and partial blocks), lengths around the block
|* (1 KiB) and chunk (64 KiB) sizes, random lengths up to 1 MiB, aligned and
|* misaligned inputs and secrets, the lanes run one at a time as a GPU's
|* threads would (each lane alone, merged afterwards), and the GPU kernel's
|* split of each block among four threads per lane.
|*
\*===----------------------------------------------------------------------===*/
#define XXH_INLINE_ALL
#include <xxhash.h>

#include "check.h"
#include "ompdp/xxh3_lanes.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint64_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* The secret at an odd address too: the lanes must not assume alignment. */
static unsigned char secret_store[OMPDP_X3_SECRET_SIZE + 8];

static unsigned mismatches;

static void check_len(const unsigned char *p, size_t n, const unsigned char *s) {
  uint64_t want = XXH3_64bits(p, n);
  uint64_t got = ompdp_x3_hash(p, n, s);
  if (got != want && mismatches++ < 10)
    fprintf(stderr, "length %zu at offset %u: lanes %016llx, XXH3 %016llx\n", n,
            (unsigned)((uintptr_t)p & 7), (unsigned long long)got, (unsigned long long)want);
  CHECK(got == want);
}

int main(void) {
  CHECK(sizeof(XXH3_kSecret) == OMPDP_X3_SECRET_SIZE);
  size_t cap = ((size_t)1 << 20) + 64;
  unsigned char *buf = malloc(cap);
  CHECK(buf != NULL);
  if (!buf)
    return CHECK_DONE();
  for (size_t i = 0; i < cap; ++i)
    buf[i] = (unsigned char)next();

  for (int misaligned_secret = 0; misaligned_secret < 2; ++misaligned_secret) {
    unsigned char *s = secret_store + (misaligned_secret ? 3 : 0);
    memcpy(s, XXH3_kSecret, OMPDP_X3_SECRET_SIZE);
    for (size_t n = 0; n <= 4096; ++n)
      check_len(buf + (n & 7), n, s); /* every offset mod 8 */
    static const size_t Edges[] = {1024, 1025, 1023, 1088, 2048, 65535, 65536, 65537, 65536 + 240};
    for (size_t i = 0; i < sizeof(Edges) / sizeof(Edges[0]); ++i)
      for (size_t off = 0; off < 8; off += 5)
        check_len(buf + off, Edges[i], s);
    for (int i = 0; i < 200; ++i) {
      size_t n = (size_t)(next() % ((size_t)1 << 20));
      check_len(buf + (next() & 7), n, s);
    }
  }

  /* A GPU's eight threads: each lane alone, in any order, then the merge. */
  const unsigned char *s = secret_store;
  memcpy(secret_store, XXH3_kSecret, OMPDP_X3_SECRET_SIZE);
  for (int i = 0; i < 20; ++i) {
    size_t n = 241 + (size_t)(next() % (64 << 10));
    uint64_t acc[OMPDP_X3_LANES];
    for (int lane = OMPDP_X3_LANES - 1; lane >= 0; --lane)
      acc[lane] = ompdp_x3_lane(buf, n, s, (unsigned)lane);
    CHECK_EQ_U64(ompdp_x3_merge(acc, n, s), XXH3_64bits(buf, n));
  }
  /* The GPU kernel's split (rt/devhash_kernel.c): four threads per lane,
   * each summing its stripes of a block (ompdp_x3_block_part), the sums
   * added, scrambled, then the tail; every length class of a chunk. */
  static const size_t Kernel[] = {241, 1023, 1024, 1025, 4096, 4097, 65535, 65536, 3000, 300000};
  uint64_t *words = malloc(((size_t)1 << 20) + 64);
  CHECK(words != NULL);
  for (size_t i = 0; words && i < sizeof(Kernel) / sizeof(Kernel[0]); ++i) {
    size_t n = Kernel[i];
    memcpy(words, buf, n);
    const unsigned char *c = (const unsigned char *)words;
    uint64_t acc[OMPDP_X3_LANES];
    for (unsigned lane = 0; lane < OMPDP_X3_LANES; ++lane) {
      uint64_t a = ompdp_x3_acc_init(lane);
      size_t blocks = (n - 1) / OMPDP_X3_BLOCK;
      for (size_t b = 0; b < blocks; ++b) {
        uint64_t sum = 0;
        for (unsigned sub = OMPDP_X3_SUBS; sub-- > 0;) {
          uint64_t key[OMPDP_X3_PER_SUB];
          ompdp_x3_block_keys(key, s, lane, sub);
          sum += ompdp_x3_block_part(words, b, lane, sub, key);
        }
        a = ompdp_x3_scramble(a + sum, s, lane);
      }
      acc[lane] = ompdp_x3_lane_tail(a, c, n, s, lane);
    }
    CHECK_EQ_U64(ompdp_x3_merge(acc, n, s), XXH3_64bits(c, n));
  }
  free(words);
  /* Every bit of the input counts (a lane that skipped a word would not). */
  for (int i = 0; i < 64; ++i) {
    size_t n = 4096, at = (size_t)(next() % n);
    uint64_t before = ompdp_x3_hash(buf, n, s);
    buf[at] ^= (unsigned char)(1u << (i & 7));
    CHECK(ompdp_x3_hash(buf, n, s) != before);
    CHECK_EQ_U64(ompdp_x3_hash(buf, n, s), XXH3_64bits(buf, n));
  }
  free(buf);
  return CHECK_DONE();
}
