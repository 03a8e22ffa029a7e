/*===- cpu_features.h - CPU features, read without CPUID --------*- C -*-===*\
|*
|* Whether the CPU (and the kernel) let ompdp run its AVX2 and AVX-512 loops. See
|* cpu_features.c for why this does not use __builtin_cpu_supports.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_ANALYSIS_CPU_FEATURES_H
#define OMPDP_ANALYSIS_CPU_FEATURES_H

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero when AVX2 instructions may be used (the CPU has them and the
 * kernel saves their registers). Cheap: callers need not cache it. */
int ompdp_cpu_has_avx2(void);
/* The same for AVX-512F and AVX-512DQ (every AVX-512 server CPU has both;
 * rt/hash_avx512.c is built for them). */
int ompdp_cpu_has_avx512(void);
/* Nonzero on an AMD (or Hygon) CPU, told by SSE4A, which only they have:
 * their AVX-512 runs at the clock AVX2 does, where Intel's Skylake and
 * Cascade Lake servers lower the core's clock for a while after 512-bit
 * multiplies (glibc's own string functions avoid AVX-512 there). */
int ompdp_cpu_is_amd(void);
/* Nonzero when PREFETCHW (a prefetch for writing: the line comes in owned,
 * not shared) is there; 0 where it is not known. */
int ompdp_cpu_has_prefetchw(void);

#ifdef __cplusplus
}
#endif

#endif
