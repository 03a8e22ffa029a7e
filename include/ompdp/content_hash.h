/*===- content_hash.h - the hash of a transfer's bytes -----------*- C -*-===*\
|*
|* The one definition of the content hash that the runtime records for each
|* transfer (rt/hash.c) and that the analysis compares (analysis/, e.g. the
|* hash of n zero bytes in detect_zero.c):
|*
|*   n < OMPDP_HASH_CHUNKED_MIN   XXH3-64 of the n bytes;
|*   otherwise                    the bytes are cut into chunks of
|*                                OMPDP_HASH_CHUNK bytes (the last one
|*                                shorter, never empty), each hashed with
|*                                XXH3-64, and the hash is XXH3-64, seeded
|*                                with n, of the chunks' hashes (uint64_t,
|*                                in the machine's byte order, in order).
|*
|* Chunks let two threads hash one large buffer at once (the copying thread
|* takes the chunks that the helper has not reached when the copy ends,
|* rt/hash.c) and give the same value however the chunks were shared out.
|* Every hash of a run is made by the same definition, so equal bytes have
|* equal hashes whichever thread made them.
|*
|* ompdp_hash_combine is there when <xxhash.h> was included before.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_CONTENT_HASH_H
#define OMPDP_CONTENT_HASH_H

#include <stddef.h>
#include <stdint.h>

#define OMPDP_HASH_CHUNK ((size_t)64 << 10)
#define OMPDP_HASH_CHUNKED_MIN ((size_t)256 << 10)

/* How many chunks n bytes are cut into (n >= OMPDP_HASH_CHUNKED_MIN). */
static inline size_t ompdp_hash_chunks(size_t n) {
  return (n + OMPDP_HASH_CHUNK - 1) / OMPDP_HASH_CHUNK;
}

/* Bytes of chunk i of n. */
static inline size_t ompdp_hash_chunk_len(size_t n, size_t i) {
  size_t off = i * OMPDP_HASH_CHUNK;
  return n - off < OMPDP_HASH_CHUNK ? n - off : OMPDP_HASH_CHUNK;
}

#endif /* OMPDP_CONTENT_HASH_H */

/* Outside the guard: a file may include this before <xxhash.h> too. */
#if defined(XXH_VERSION_MAJOR) && !defined(OMPDP_CONTENT_HASH_COMBINE)
#define OMPDP_CONTENT_HASH_COMBINE
/* The hash of n bytes from their chunks' hashes h[0..chunks). */
static inline uint64_t ompdp_hash_combine(const uint64_t *h, size_t n) {
  return XXH3_64bits_withSeed(h, ompdp_hash_chunks(n) * sizeof(uint64_t), (XXH64_hash_t)n);
}

/* The same value without the array of every chunk's hash: chunk(ctx, i)
 * gives chunk i's, and they are combined 64 at a time (the streamed XXH3 of
 * the hashes is the one-shot XXH3 of their array). */
static inline uint64_t ompdp_hash_chunked(size_t n, uint64_t (*chunk)(const void *ctx, size_t i),
                                          const void *ctx) {
  XXH3_state_t st;
  XXH3_INITSTATE(&st);
  XXH3_64bits_reset_withSeed(&st, (XXH64_hash_t)n);
  uint64_t h[64];
  for (size_t i = 0, m = ompdp_hash_chunks(n); i < m; i += 64) {
    size_t k = m - i < 64 ? m - i : 64;
    for (size_t j = 0; j < k; ++j)
      h[j] = chunk(ctx, i + j);
    XXH3_64bits_update(&st, h, k * sizeof(uint64_t));
  }
  return XXH3_64bits_digest(&st);
}
#endif
