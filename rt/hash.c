/*===- hash.c - XXH3 hashing of transferred bytes -------------------*- C -*-===*\
|*
|* xxHash is included inline (XXH_INLINE_ALL), so the runtime has no link-time
|* dependency on libxxhash. The portable build uses SSE2 on x86-64; where the
|* CPU has AVX2 the variant compiled in hash_avx2.c is chosen once at start.
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp_rt.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

uint64_t ompdp_xxh3_avx2(const void *p, size_t n);

static uint64_t hash_portable(const void *p, size_t n) { return XXH3_64bits(p, n); }

static uint64_t (*hash_fn)(const void *, size_t) = hash_portable;
static const char *hash_name = "xxh3-portable";

void ompdp_hash_init(void) {
#if defined(__x86_64__) && defined(OMPDP_HAVE_AVX2_HASH)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2")) {
    hash_fn = ompdp_xxh3_avx2;
    hash_name = "xxh3-avx2";
  }
#endif
}

uint64_t ompdp_hash(const void *p, size_t n) { return hash_fn(p, n); }

const char *ompdp_hash_impl_name(void) { return hash_name; }
