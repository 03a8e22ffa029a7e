//===- hash_isa.c - the instructions that hash, and the same hashes --------===//
//
// Option hash_isa picks the XXH3 variant that hashes buffers of more than
// 240 bytes: auto (the default), avx512, avx2 or portable; one the CPU lacks
// falls back to the next. XXH3's value is the same with each, so the
// findings are too: `a` (1 MiB, hashed in 64 KiB chunks), `s` (4 KiB,
// hashed whole) and `b` (96 KiB) are sent unchanged by each of 3
// iterations (duplicates), and `b` also comes back unchanged (round trips);
// verbose mode names the variant. A word the option does not know is refused by ompdp
// run before the program starts, and by the runtime alone with a warning.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --option hash_isa=portable --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,PORTABLE
// RUN: %ompdp run --option hash_isa=avx2 --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: %ompdp run --option hash_isa=avx512 --option verbose=1 --option verify_hashes=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: %ompdp run --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,ANY
// RUN: not %ompdp run --option hash_isa=sse9 -- %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="hash_isa=sse9 verbose=1" %t 2>&1 | FileCheck %s --check-prefix=BADRT
//===----------------------------------------------------------------------===//
#include <stdio.h>

// PORTABLE: ompdp: tool initialised (hash xxh3-portable)
// ANY: ompdp: tool initialised (hash xxh3-{{avx512|avx2|portable}})
// CHECK: summary: duplicate_transfers=11 round_trips=5 repeated_allocs=8
// CHECK: duplicate_transfer {{.*}}hash_isa.c:[[@LINE+21]]:1 in main  count=11 bytes=2.4 MiB
// CHECK: round_trip {{.*}}hash_isa.c:[[@LINE+20]]:1 in main  count=5 bytes=288.0 KiB
// BAD: ompdp: option 'hash_isa' wants auto, avx512, avx2 or portable, not 'sse9'
// BADRT: ompdp: option 'hash_isa' wants auto, avx512, avx2 or portable, not 'sse9'; using auto
// BADRT: ompdp: tool initialised (hash xxh3-{{avx512|avx2|portable}})

#define NA (1 << 17) /* doubles: 1 MiB */
#define NB (12 << 10) /* 96 KiB */
#define NS 512        /* 4 KiB */

static double a[NA], b[NB], s[NS];

int main(void) {
  for (int i = 0; i < NA; ++i)
    a[i] = i;
  for (int i = 0; i < NB; ++i)
    b[i] = 0.5 * i;
  for (int i = 0; i < NS; ++i)
    s[i] = 2.0 * i;
  double sum = 0;
  for (int it = 0; it < 3; ++it) {
#pragma omp target map(to : a, s) map(tofrom : b) map(tofrom : sum)
    {
      sum = 0;
      for (int i = 0; i < NB; i += 512)
        sum += a[i] + b[i] + s[i % NS];
    }
  }
  printf("sum=%g\n", sum);
  return 0;
}
