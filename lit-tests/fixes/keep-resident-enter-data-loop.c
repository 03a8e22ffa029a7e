//===- keep-resident-enter-data-loop.c - enter/exit data pairs in a loop ---===//
//
// A `target enter data` and its `target exit data` in every iteration (what
// a keep-at-caller rewrite leaves in the inner loops of HeCBench
// ccsd-trpdrv): each iteration allocates the array again. Keeping it across
// iterations means moving both directives out of the loop together, which
// ompdp does not do: the finding says so (it said "ompdp has no rule for
// this case"). Control: the same kernel with a structured map gets the
// keep-resident rewrite (STRUCTURED).
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t && %ompdp run -- %t 2>&1 | FileCheck %s
// RUN: %clang-ompdp -DSTRUCTURED %s -o %t.s && %ompdp run -- %t.s 2>&1 | FileCheck %s --check-prefix=STRUCTURED
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

int main(void) {
  static float a[N];
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 7);
  float s = 0.0f;
  for (int t = 0; t < 4; ++t) {
#ifdef STRUCTURED
#pragma omp target teams distribute parallel for map(to: a[0:N]) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += a[i];
#else
#pragma omp target enter data map(to: a[0:N])
#pragma omp target teams distribute parallel for reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += a[i];
#pragma omp target exit data map(release: a[0:N])
#endif
  }
  printf("%.1f\n", s);
  return 0;
}

// The finding of `a` (the one of the reduction variable `s` may come first):
// CHECK: repeated_alloc {{.*}}keep-resident-enter-data-loop.c:[[@LINE-12]]:1 in main
// CHECK-NEXT: variable: a
// CHECK: No rewrite: the allocations come from a `target enter data` in the loop, each freed by a `target exit data` before the next: keeping the data across iterations means moving both out of the loop together, which ompdp does not do.

// STRUCTURED: rewrite (keep_resident): keep `a[0:N]`
