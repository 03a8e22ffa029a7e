/*===- hash_avx512.c - XXH3 compiled for AVX-512 --------------------*- C -*-===*\
|*
|* Built with -O3 -mavx512f -mavx512dq and selected at run time by hash.c
|* only where the CPU has both and the kernel saves their registers (option
|* hash_isa). XXH3's value is the same whatever the variant: only the speed
|* differs. On the Zen 4 EPYC of benchmarks/results-host.md, for a 64 KiB
|* chunk in cache: 70 GB/s, against 57 for the AVX2 build; built with
|* AVX-512F alone, or at -O2, 54, slower than AVX2. From memory (64 MiB)
|* all three read at 29 GB/s.
|*
\*===----------------------------------------------------------------------===*/
#include <stddef.h>
#include <stdint.h>

#define XXH_INLINE_ALL
#define XXH_VECTOR XXH_AVX512
#include <xxhash.h>

uint64_t ompdp_xxh3_avx512(const void *p, size_t n);
uint64_t ompdp_xxh3_avx512(const void *p, size_t n) { return XXH3_64bits(p, n); }
