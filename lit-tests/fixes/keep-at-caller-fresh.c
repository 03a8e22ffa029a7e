//===- keep-at-caller-fresh.c - a buffer each call allocates anew ---------===//
//
// fresh() allocates its input anew at each call (malloc: fresh-host),
// fills it on the host and maps it `to`, and main calls it in a loop: the
// repeated device allocations are real (malloc puts each buffer where the
// last was), but no device copy can outlive a call, and the finding says
// so instead of advising to keep it at the caller. Negative: no
// keep-resident rewrite is made. WRAPPER: the buffer comes from a function
// of the program that returns what malloc gave (HeCBench hexciton's
// allocate_aligned), the same fact and words.
//
// ASan's allocator does not give an address back soon (its quarantine),
// and the shape needs malloc to.
// UNSUPPORTED: sanitizer
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t && %ompdp run -- %t 2>&1 | FileCheck %s
// RUN: %clang-ompdp -DWRAPPER %s -o %t.wrapper && %ompdp run -- %t.wrapper 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 512

#ifdef WRAPPER
static float *alloc_floats(int n) {
  float *p = malloc(n * sizeof(float));
  if (!p)
    abort();
  return p;
}
#define ALLOC(n) alloc_floats(n)
#else
#define ALLOC(n) malloc((n) * sizeof(float))
#endif

static float fresh(int n) {
  float *t = ALLOC(n), sum = 0;
  for (int i = 0; i < n; ++i)
    t[i] = (float)(i % 7);
#pragma omp target teams distribute parallel for map(to: t[0:n]) reduction(+: sum)
  for (int i = 0; i < n; ++i)
    sum += t[i];
  free(t);
  return sum;
}

int main(void) {
  float last = 0;
  for (int s = 0; s < 5; ++s)
    last += fresh(N);
  printf("%.3f\n", last);
  return 0;
}

// CHECK: repeated_alloc {{.*}} in fresh
// CHECK: No rewrite: each call of fresh allocates `t` anew on the host and its host code uses it, so no device copy can be kept from one call to the next: allocating it once before the calls is a change of the host code that ompdp does not make.
// CHECK-NOT: rewrite (keep_resident)
