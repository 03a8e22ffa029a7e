//===- fresh_words.c - one call's buffer sent twice is not a new buffer ---===//
//
// `h` is malloc'ed by the function (fresh-host), and two `target update to`
// of one call send it with the same bytes, a kernel having changed the
// device's copy in between (maxFlops' shape: each update resets it). The
// duplicate is the same buffer in one call, not "a new host buffer each
// time", so its words are those of a repeated `target update to`: move it
// only if no kernel changes the data in between, else it is a reset.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static double run(void) {
  double *h = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    h[i] = i;
  double s = 0;
#pragma omp target data map(alloc: h[0:N])
  {
#pragma omp target update to(h[0:N])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      h[i] += 1;
#pragma omp target update to(h[0:N])
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += h[i] * 2;
  }
  free(h);
  return s;
}

int main(void) {
  printf("s=%g\n", run());
  return 0;
}

// CHECK: s=
// CHECK: duplicate_transfer {{.*}}fresh_words.c:[[#L:]]:1 in run count=1
// CHECK-NEXT: variable: h clause: to(h[0:N])
// CHECK: suggestion: `target update to(h[0:N])` sends device 0 the bytes it was sent last time: if no kernel changes `h` on the device in between, move the update before the loop or the calls that repeat it (or drop it); if one does (a counter, an accumulator), the update resets it and is needed
// CHECK-NOT: new host buffer each time
