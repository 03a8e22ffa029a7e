// Repeated allocations of new host buffers: each iteration allocates its
// input anew (malloc, a local pointer: fresh-host) and maps it. With sizes
// that change from one execution to the next (HeCBench's channelSum, whose
// loops over N and C come back to a size), malloc putting one where an
// earlier one of that size was is all that repeats: coincidence, no saving. With the
// same size each time (SAME), allocating it once would avoid the device's
// allocations: advice.
//
// ASan's allocator does not give an address back soon (its quarantine),
// and the shape needs malloc to.
// UNSUPPORTED: sanitizer
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 > /dev/null | FileCheck %s
// RUN: %clang-ompdp -g -DSAME %s -o %t.same
// RUN: %ompdp run -- %t.same 2>&1 > /dev/null | FileCheck %s --check-prefix=SAME
#include <stdio.h>
#include <stdlib.h>

static double sum(int n) {
  double s = 0;
  float *x = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    x[i] = (float)(i % 3);
#pragma omp target teams distribute parallel for map(to: x[0:n]) reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += x[i];
  free(x);
  return s;
}

int main(void) {
  double t = 0;
  for (int k = 0; k < 4; ++k)
#ifdef SAME
    t += sum(4096);
#else
    t += sum(k % 2 ? 2048 : 4096);
#endif
  printf("%g\n", t);
  return 0;
}

// CHECK: repeated_alloc
// CHECK: variable: x
// CHECK: verdict: coincidence (not counted as a saving)
// CHECK: suggestion: no saving: each execution maps a new host buffer x that sum allocates anew, of another size than the last, which malloc put where an earlier one had been: no buffer is allocated twice; nothing to change
// SAME: repeated_alloc
// SAME: variable: x
// SAME: verdict: advice
