//===- hash_isa_avx512.c - AVX-512 hashes where the CPU has it ---------------===//
//
// On a CPU with AVX-512F, hash_isa=avx512 hashes with the AVX-512 variant
// and finds what every variant finds (runtime/hash_isa.c): `a` (1.5 MiB,
// hashed in chunks) sent unchanged by the 2nd and 3rd iterations, `sum`
// sent and copied back unchanged; the copies' hashes are checked against
// their bytes (verify_hashes=1: no collision).
//
// REQUIRES: avx512
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --option hash_isa=avx512 --option verbose=1 --option verify_hashes=1 --format=json -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

// CHECK: ompdp: tool initialised (hash xxh3-avx512)
// CHECK: "duplicate_transfers": 5,
// CHECK: "round_trips": 2,
// CHECK: "hash_collisions": 0,

#define N (3 << 16) /* doubles: 1.5 MiB */
static double a[N];

int main(void) {
  for (int i = 0; i < N; ++i)
    a[i] = i * 0.25;
  double sum = 0;
  for (int it = 0; it < 3; ++it) {
#pragma omp target map(to : a) map(tofrom : sum)
    {
      sum = 0;
      for (int i = 0; i < N; i += 1024)
        sum += a[i];
    }
  }
  printf("sum=%g\n", sum);
  return 0;
}
