/*===- xxh3_lanes.h - XXH3-64 cut into lanes, for any processor ---*- C -*-===*\
|*
|* XXH3-64 (seed 0) written so that a GPU can compute it: the long-input
|* loop keeps eight 64-bit accumulators, and accumulator i depends only on
|* words i and i^1 of each 64-byte stripe and on the secret, so eight
|* threads can each run one lane over the whole input (ompdp_x3_lane) and
|* one of them merges the eight (ompdp_x3_merge). Inputs of 240 bytes or
|* less take XXH3's short paths (ompdp_x3_short), which one thread runs.
|*
|* The same code runs in three places: the device-hash kernel compiled for
|* NVIDIA GPUs (rt/devhash_kernel.c, as PTX), the runtime's hash of a
|* device copy in host-addressable memory (rt/devhash.c, host offload), and
|* unittests/test_xxh3_lanes.c, which checks it against libxxhash's
|* XXH3_64bits on every length class. The value must be XXH3_64bits' to the
|* bit: the runtime compares device and host hashes of the same bytes
|* (include/ompdp/content_hash.h defines what is hashed).
|*
|* Nothing here includes a C library header beyond <stddef.h>/<stdint.h>,
|* allocates, or assumes alignment; the secret is a parameter (the host
|* passes XXH3_kSecret, 192 bytes, from <xxhash.h>), so no copy of
|* xxHash's tables lives in ompdp. Little-endian processors only (x86-64,
|* AArch64, NVPTX).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_XXH3_LANES_H
#define OMPDP_XXH3_LANES_H

#include <stddef.h>
#include <stdint.h>

#define OMPDP_X3_SECRET_SIZE 192 /* the default secret's */
#define OMPDP_X3_STRIPE 64
#define OMPDP_X3_LANES 8
/* Stripes between two scrambles: (secret size - stripe) / 8 bytes. */
#define OMPDP_X3_STRIPES_PER_BLOCK ((OMPDP_X3_SECRET_SIZE - OMPDP_X3_STRIPE) / 8)
#define OMPDP_X3_BLOCK (OMPDP_X3_STRIPE * OMPDP_X3_STRIPES_PER_BLOCK)
#define OMPDP_X3_SHORT_MAX 240 /* longer inputs take the lanes */

#define OMPDP_X3_P32_1 0x9E3779B1u
#define OMPDP_X3_P32_2 0x85EBCA77u
#define OMPDP_X3_P32_3 0xC2B2AE3Du
#define OMPDP_X3_P64_1 0x9E3779B185EBCA87ull
#define OMPDP_X3_P64_2 0xC2B2AE3D27D4EB4Full
#define OMPDP_X3_P64_3 0x165667B19E3779F9ull
#define OMPDP_X3_P64_4 0x85EBCA77C2B2AE63ull
#define OMPDP_X3_P64_5 0x27D4EB2F165667C5ull
#define OMPDP_X3_MX1 0x165667919E3779F9ull
#define OMPDP_X3_MX2 0x9FB21C651E98DF25ull

static inline uint64_t ompdp_x3_rd64(const unsigned char *p) {
  uint64_t v;
  __builtin_memcpy(&v, p, sizeof(v));
  return v;
}

/* The same where p is known to be 8-byte aligned when `aligned` is a
 * constant 1 (a GPU then loads the word at once instead of byte by byte). */
static inline __attribute__((always_inline)) uint64_t ompdp_x3_rd64a(const unsigned char *p,
                                                                     int aligned) {
  uint64_t v;
  if (aligned)
    __builtin_memcpy(&v, __builtin_assume_aligned(p, 8), sizeof(v));
  else
    __builtin_memcpy(&v, p, sizeof(v));
  return v;
}

static inline uint32_t ompdp_x3_rd32(const unsigned char *p) {
  uint32_t v;
  __builtin_memcpy(&v, p, sizeof(v));
  return v;
}

static inline uint64_t ompdp_x3_rotl(uint64_t x, unsigned r) { return x << r | x >> (64 - r); }

/* The 128-bit product of a and b, its halves xored; from 32-bit pieces so
 * that it needs no 128-bit type (not on the hot path). */
static inline uint64_t ompdp_x3_mul_fold(uint64_t a, uint64_t b) {
  uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
  uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
  uint64_t cross = (ll >> 32) + (uint32_t)hl + lh;
  uint64_t hi = hh + (hl >> 32) + (cross >> 32);
  uint64_t lo = cross << 32 | (uint32_t)ll;
  return lo ^ hi;
}

static inline uint64_t ompdp_x3_avalanche(uint64_t h) {
  h ^= h >> 37;
  h *= OMPDP_X3_MX1;
  return h ^ h >> 32;
}

static inline uint64_t ompdp_x3_avalanche64(uint64_t h) {
  h ^= h >> 33;
  h *= OMPDP_X3_P64_2;
  h ^= h >> 29;
  h *= OMPDP_X3_P64_3;
  return h ^ h >> 32;
}

static inline uint64_t ompdp_x3_mix16(const unsigned char *p, const unsigned char *s) {
  return ompdp_x3_mul_fold(ompdp_x3_rd64(p) ^ ompdp_x3_rd64(s),
                           ompdp_x3_rd64(p + 8) ^ ompdp_x3_rd64(s + 8));
}

/* XXH3-64 of len <= 240 bytes. */
static inline uint64_t ompdp_x3_short(const unsigned char *p, size_t len,
                                      const unsigned char *s) {
  if (len <= 16) {
    if (len > 8) {
      uint64_t lo = ompdp_x3_rd64(p) ^ (ompdp_x3_rd64(s + 24) ^ ompdp_x3_rd64(s + 32));
      uint64_t hi = ompdp_x3_rd64(p + len - 8) ^ (ompdp_x3_rd64(s + 40) ^ ompdp_x3_rd64(s + 48));
      uint64_t acc = len + __builtin_bswap64(lo) + hi + ompdp_x3_mul_fold(lo, hi);
      return ompdp_x3_avalanche(acc);
    }
    if (len >= 4) {
      uint64_t in = ompdp_x3_rd32(p + len - 4) + ((uint64_t)ompdp_x3_rd32(p) << 32);
      uint64_t h = in ^ (ompdp_x3_rd64(s + 8) ^ ompdp_x3_rd64(s + 16));
      h ^= ompdp_x3_rotl(h, 49) ^ ompdp_x3_rotl(h, 24);
      h *= OMPDP_X3_MX2;
      h ^= (h >> 35) + len;
      h *= OMPDP_X3_MX2;
      return h ^ h >> 28;
    }
    if (len > 0) {
      uint32_t c = (uint32_t)p[0] << 16 | (uint32_t)p[len >> 1] << 24 | (uint32_t)p[len - 1] |
                   (uint32_t)len << 8;
      return ompdp_x3_avalanche64((uint64_t)c ^ (ompdp_x3_rd32(s) ^ ompdp_x3_rd32(s + 4)));
    }
    return ompdp_x3_avalanche64(ompdp_x3_rd64(s + 56) ^ ompdp_x3_rd64(s + 64));
  }
  uint64_t acc = len * OMPDP_X3_P64_1;
  if (len <= 128) {
    if (len > 32) {
      if (len > 64) {
        if (len > 96) {
          acc += ompdp_x3_mix16(p + 48, s + 96);
          acc += ompdp_x3_mix16(p + len - 64, s + 112);
        }
        acc += ompdp_x3_mix16(p + 32, s + 64);
        acc += ompdp_x3_mix16(p + len - 48, s + 80);
      }
      acc += ompdp_x3_mix16(p + 16, s + 32);
      acc += ompdp_x3_mix16(p + len - 32, s + 48);
    }
    acc += ompdp_x3_mix16(p, s);
    acc += ompdp_x3_mix16(p + len - 16, s + 16);
    return ompdp_x3_avalanche(acc);
  }
  /* 129..240: eight rounds, an avalanche, the rest from the secret at 3,
   * and the last 16 bytes from the secret at 136 - 17. */
  for (unsigned i = 0; i < 8; ++i)
    acc += ompdp_x3_mix16(p + 16 * i, s + 16 * i);
  acc = ompdp_x3_avalanche(acc);
  for (unsigned i = 8; i < len / 16; ++i)
    acc += ompdp_x3_mix16(p + 16 * i, s + 16 * (i - 8) + 3);
  acc += ompdp_x3_mix16(p + len - 16, s + 136 - 17);
  return ompdp_x3_avalanche(acc);
}

/* The starting value of accumulator `lane`. */
static inline uint64_t ompdp_x3_acc_init(unsigned lane) {
  switch (lane & 7) {
  case 0: return OMPDP_X3_P32_3;
  case 1: return OMPDP_X3_P64_1;
  case 2: return OMPDP_X3_P64_2;
  case 3: return OMPDP_X3_P64_3;
  case 4: return OMPDP_X3_P64_4;
  case 5: return OMPDP_X3_P32_2;
  case 6: return OMPDP_X3_P64_5;
  default: return OMPDP_X3_P32_1;
  }
}

/* One stripe's contribution to an accumulator from the words it reads:
 * its own word keyed and multiplied, plus its neighbour's word (XXH3 adds
 * each word to the other accumulator of its pair). Within a block the
 * contributions are only added up, so they may be summed in any order or
 * by several threads (rt/devhash_kernel.c). */
static inline uint64_t ompdp_x3_mix(uint64_t own, uint64_t partner, uint64_t key) {
  uint64_t dk = own ^ key;
  return partner + (uint64_t)(uint32_t)dk * (dk >> 32);
}

/* A block's contributions split among OMPDP_X3_SUBS threads per lane
 * (rt/devhash_kernel.c: a warp of 32 threads per input): thread `sub` of a
 * lane takes stripes sub * OMPDP_X3_PER_SUB .. + OMPDP_X3_PER_SUB - 1 of
 * each block, keyed by key[] (ompdp_x3_block_keys), from w, the input as
 * 8-byte aligned words. The lane's sum for block b is the sum of its subs'
 * parts. */
#define OMPDP_X3_SUBS 4
#define OMPDP_X3_PER_SUB (OMPDP_X3_STRIPES_PER_BLOCK / OMPDP_X3_SUBS)

static inline void ompdp_x3_block_keys(uint64_t key[OMPDP_X3_PER_SUB], const unsigned char *s,
                                       unsigned lane, unsigned sub) {
  for (unsigned k = 0; k < OMPDP_X3_PER_SUB; ++k)
    key[k] = ompdp_x3_rd64(s + 8 * (sub * OMPDP_X3_PER_SUB + k) + 8 * lane);
}

static inline uint64_t ompdp_x3_block_part(const uint64_t *w, size_t b, unsigned lane,
                                           unsigned sub, const uint64_t key[OMPDP_X3_PER_SUB]) {
  uint64_t sum = 0;
#pragma unroll
  for (unsigned k = 0; k < OMPDP_X3_PER_SUB; ++k) {
    size_t stripe = b * OMPDP_X3_STRIPES_PER_BLOCK + sub * OMPDP_X3_PER_SUB + k;
    sum += ompdp_x3_mix(w[stripe * 8 + lane], w[stripe * 8 + (lane ^ 1)], key[k]);
  }
  return sum;
}

/* The contribution of the stripe at `stripe` to accumulator `lane`. */
static inline __attribute__((always_inline)) uint64_t
ompdp_x3_stripe(const unsigned char *stripe, const unsigned char *key, unsigned lane, int aligned) {
  return ompdp_x3_mix(ompdp_x3_rd64a(stripe + 8 * lane, aligned),
                      ompdp_x3_rd64a(stripe + 8 * (lane ^ 1), aligned),
                      ompdp_x3_rd64a(key + 8 * lane, aligned));
}

static inline uint64_t ompdp_x3_scramble(uint64_t acc, const unsigned char *s, unsigned lane) {
  acc ^= acc >> 47;
  acc ^= ompdp_x3_rd64(s + OMPDP_X3_SECRET_SIZE - OMPDP_X3_STRIPE + 8 * lane);
  return acc * OMPDP_X3_P32_1;
}

/* Accumulator `lane` after the stripes of a partial last block and the last
 * stripe, from acc after the full blocks (len > 240 bytes). */
static inline uint64_t ompdp_x3_lane_tail(uint64_t acc, const unsigned char *p, size_t len,
                                          const unsigned char *s, unsigned lane) {
  size_t blocks = (len - 1) / OMPDP_X3_BLOCK;
  size_t stripes = ((len - 1) - blocks * OMPDP_X3_BLOCK) / OMPDP_X3_STRIPE;
  const unsigned char *in = p + blocks * OMPDP_X3_BLOCK;
  for (size_t n = 0; n < stripes; ++n)
    acc += ompdp_x3_stripe(in + n * OMPDP_X3_STRIPE, s + n * 8, lane, 0);
  /* The last stripe ends at the input's end and its key is at an odd
   * offset: never aligned. */
  return acc + ompdp_x3_stripe(p + len - OMPDP_X3_STRIPE,
                               s + OMPDP_X3_SECRET_SIZE - OMPDP_X3_STRIPE - 7, lane, 0);
}

/* Accumulator `lane` (0..7) after the whole input, len > 240 bytes: full
 * blocks each followed by a scramble, the stripes of the last partial
 * block, and the last 64 bytes keyed from the secret at 192 - 64 - 7.
 * `aligned` (a constant): p and s are 8-byte aligned. */
static inline __attribute__((always_inline)) uint64_t
ompdp_x3_lane_impl(const unsigned char *p, size_t len, const unsigned char *s, unsigned lane,
                   int aligned) {
  uint64_t acc = ompdp_x3_acc_init(lane);
  size_t blocks = (len - 1) / OMPDP_X3_BLOCK;
  for (size_t b = 0; b < blocks; ++b) {
    const unsigned char *in = p + b * OMPDP_X3_BLOCK;
    for (unsigned n = 0; n < OMPDP_X3_STRIPES_PER_BLOCK; ++n)
      acc += ompdp_x3_stripe(in + n * OMPDP_X3_STRIPE, s + n * 8, lane, aligned);
    acc = ompdp_x3_scramble(acc, s, lane);
  }
  return ompdp_x3_lane_tail(acc, p, len, s, lane);
}

static inline uint64_t ompdp_x3_lane(const unsigned char *p, size_t len, const unsigned char *s,
                                     unsigned lane) {
  if (!((uintptr_t)p & 7) && !((uintptr_t)s & 7))
    return ompdp_x3_lane_impl(p, len, s, lane, 1);
  return ompdp_x3_lane_impl(p, len, s, lane, 0);
}

/* The hash from the eight accumulators of an input of len > 240 bytes. */
static inline uint64_t ompdp_x3_merge(const uint64_t acc[OMPDP_X3_LANES], size_t len,
                                      const unsigned char *s) {
  uint64_t h = len * OMPDP_X3_P64_1;
  for (unsigned i = 0; i < 4; ++i)
    h += ompdp_x3_mul_fold(acc[2 * i] ^ ompdp_x3_rd64(s + 11 + 16 * i),
                           acc[2 * i + 1] ^ ompdp_x3_rd64(s + 11 + 16 * i + 8));
  return ompdp_x3_avalanche(h);
}

/* XXH3-64 of any input, the lanes one after another (one thread). */
static inline uint64_t ompdp_x3_hash(const unsigned char *p, size_t len, const unsigned char *s) {
  if (len <= OMPDP_X3_SHORT_MAX)
    return ompdp_x3_short(p, len, s);
  uint64_t acc[OMPDP_X3_LANES];
  for (unsigned lane = 0; lane < OMPDP_X3_LANES; ++lane)
    acc[lane] = ompdp_x3_lane(p, len, s, lane);
  return ompdp_x3_merge(acc, len, s);
}

#endif /* OMPDP_XXH3_LANES_H */
