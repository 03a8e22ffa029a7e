/*===- cpu_features.c - CPU features, read without CPUID --------*- C -*-===*\
|*
|* __builtin_cpu_supports links libgcc's cpuinfo, whose constructor runs a
|* dozen CPUID instructions in every process that loads the code, asked or
|* not. Under a hypervisor each CPUID leaves the guest: 3.6 us apiece on the
|* 2-core VM this was measured on (about 70 us per process, in the driver
|* and again in the runtime, of a `ompdp run` whose budget is 1 ms).
|* glibc's dynamic loader has already asked the CPU at start-up and keeps
|* the answer, usable bits included (XSAVE state enabled by the kernel);
|* <sys/platform/x86.h> (glibc 2.33) reads it. Elsewhere: libgcc's way.
|*
\*===----------------------------------------------------------------------===*/
#include "cpu_features.h"

#if defined(__x86_64__) && defined(__has_include)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define OMPDP_GLIBC_CPU_FEATURES 1
#endif
#endif

/* ASK(glibc's answer, libgcc's): the one this build can read; the other is
 * never compiled. */
#if defined(OMPDP_GLIBC_CPU_FEATURES)
#define ASK(glibc, libgcc) (glibc)
#elif defined(__x86_64__)
#define ASK(glibc, libgcc) (__builtin_cpu_init(), (libgcc))
#else
#define ASK(glibc, libgcc) 0
#endif

int ompdp_cpu_has_avx2(void) {
  return ASK(CPU_FEATURE_ACTIVE(AVX2), __builtin_cpu_supports("avx2"));
}

int ompdp_cpu_has_avx512(void) {
  return ASK(CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512DQ),
             __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq"));
}

int ompdp_cpu_is_amd(void) { return ASK(CPU_FEATURE_PRESENT(SSE4A), __builtin_cpu_is("amd")); }

/* libgcc has no name for it: without glibc's answer, no. */
int ompdp_cpu_has_prefetchw(void) { return ASK(CPU_FEATURE_PRESENT(PREFETCHW), 0); }
