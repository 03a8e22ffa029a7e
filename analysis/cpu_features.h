/*===- cpu_features.h - CPU features, read without CPUID --------*- C -*-===*\
|*
|* Whether the CPU (and the kernel) let ompdp run its AVX2 loops. See
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

#ifdef __cplusplus
}
#endif

#endif
