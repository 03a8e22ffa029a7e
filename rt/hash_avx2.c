/*===- hash_avx2.c - XXH3 compiled for AVX2 ------------------------*- C -*-===*\
|*
|* Built with -mavx2 and selected at run time by hash.c only where the CPU
|* supports AVX2; the rest of the runtime stays runnable on any x86-64.
|*
\*===----------------------------------------------------------------------===*/
#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX2
#include <xxhash.h>

uint64_t ompdp_xxh3_avx2(const void *p, size_t n);
uint64_t ompdp_xxh3_avx2(const void *p, size_t n) { return XXH3_64bits(p, n); }
