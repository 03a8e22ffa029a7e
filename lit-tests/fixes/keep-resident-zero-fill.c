//===- keep-resident-zero-fill.c - one fix for a loop: kept, filled once --===//
//
// z is all zeros and sent in every iteration of the loop, beside acc, which
// the kernel changes: duplicate transfers, round trips, repeated
// allocations and zero-filled copies at one construct. The rewrite that
// saves most keeps both on the device across the loop, and z's copies in,
// all zeros, become one fill on the device before the loop: one `ompdp fix`
// removes every finding (before, the fill went to the construct, inside
// the loop, allocating and filling z in every iteration, and z's repeated
// allocations waited for a second fix). With -DWRITTEN (the negative
// case) the kernel writes z, so each iteration must start from zeros again:
// z is not kept, and its fill stays at the construct, in the loop.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t/w && cp %s %t/prog.c && cp %s %t/w/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// A fix of the fixed program has nothing left to apply.
// RUN: cd %t && %ompdp fix after.json | FileCheck %s --check-prefix=SECOND
// RUN: cd %t/w && %clang-ompdp -DWRITTEN prog.c -o before
// RUN: cd %t/w && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t/w && %ompdp report before.json | FileCheck %s --check-prefix=WRITTEN
// RUN: cd %t/w && %ompdp fix --apply before.json > /dev/null
// RUN: cd %t/w && %clang-ompdp -DWRITTEN prog.c -o after
// RUN: cd %t/w && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/w/before.out %t/w/after.out
// RUN: %check-fix %t/w/before.json %t/w/after.json | FileCheck %s --check-prefix=WPROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 2048
#define ITERS 5

int main(void) {
  double *z = calloc(N, sizeof(double)); // all zeros, sent in every iteration
  double *acc = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    acc[i] = i;
  for (int it = 0; it < ITERS; ++it) {
#ifdef WRITTEN
#pragma omp target teams distribute parallel for map(to: z[0:N]) map(tofrom: acc[0:N])
    for (int j = 0; j < N; ++j) {
      z[j] += acc[j]; // scratch: each iteration starts from the zeros sent
      acc[j] = 0.5 * z[j] + it;
    }
#else
#pragma omp target teams distribute parallel for map(to: z[0:N]) map(tofrom: acc[0:N])
    for (int j = 0; j < N; ++j)
      acc[j] = 0.5 * acc[j] + z[j] + it;
#endif
  }
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += acc[i];
  printf("sum=%.3f\n", sum);
  free(z);
  free(acc);
  return 0;
}

// REPORT: zero_transfers=5
// REPORT: rewrite (keep_resident): keep `z[0:N]` and `acc[0:N]` on device 0 for the whole for loop at prog.c:[[#LOOP:]]: `#pragma omp target enter data map(alloc: z[0:N]) map(to: acc[0:N])` before it and `#pragma omp target exit data map(release: z[0:N]) map(from: acc[0:N])` after it; every copy in of `z[0:N]` was zeros: it is allocated and filled with zeros on the device once, before the loop, instead{{;| }}
// REPORT-NOT: rewrite (alloc_and_fill)
// REPORT: zero_transfer {{.*}} count=5
// REPORT: verdict: fix
// REPORT-NEXT: suggestion: fixed by the rewrite below (keep_resident)

// APPLY: prog.c: 2 edit(s) applied

// FIXED:      {{^}}  #pragma omp target enter data map(alloc: z[0:N]) map(to: acc[0:N]){{$}}
// FIXED-NEXT: {{^}}  #pragma omp target teams distribute parallel for map(alloc: z[0:N]){{$}}
// FIXED-NEXT: {{^}}  for (long long ompdp_i = 0; ompdp_i < (N); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}    z[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}  for (int it = 0; it < ITERS; ++it) {
// FIXED:      {{^}}#endif
// FIXED-NEXT: {{^}}  }
// FIXED-NEXT: {{^}}  #pragma omp target exit data map(release: z[0:N]) map(from: acc[0:N]){{$}}
// FIXED-NEXT: {{^}}  double sum = 0;

// PROOF: rewrites: 1 for 5 finding(s)
// PROOF-NEXT: transfers: 15 -> 2 (removed 13, predicted 13)
// PROOF-NEXT: allocs: 10 -> 2 (removed 8, predicted 8)
// PROOF: gone: zero_transfer of z: yes
// PROOF: OK

// WRITTEN: rewrite (alloc_and_fill): allocate `z[0:N]` and fill it with zeros on the device before the target construct at prog.c:[[#]]
// WRITTEN-NOT: keep `z[0:N]`
// WPROOF: OK

// SECOND: Diagnostics: []
