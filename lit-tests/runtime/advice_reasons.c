//===- advice_reasons.c - advice says why ompdp made no rewrite -----------===//
//
// memcpy's shape: a `target data map(alloc: a)` whose memory no kernel uses
// (unused allocation), and `target update to(a)`s no kernel reads (unused
// transfers), followed by `target update from(a)`s that bring the bytes
// back. Removing the allocation would break the updates, removing the
// copies in would make the copies back bring older bytes: each finding is
// advice and says so ("No rewrite: ..."). Negative case: `b`'s copy in by
// `map(to:)`, unused and never copied back, becomes `map(alloc:)` (a
// rewrite, no such words).
// And a construct in a function called twice, whose copies repeat at each
// call, is told why its data is not kept across the two calls (one
// expression, in no loop): the compiler cannot show that the argument
// stays the same between them (main declares it in that block).
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=NEG < %t.out
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static double twice(const double *c) {
  double s = 0;
#pragma omp target teams distribute parallel for map(to: c[0:N]) reduction(+: s)
  for (int i = 0; i < N; ++i)
    s += 2 * c[i];
  return s;
}

int main(void) {
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  double *c = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = c[i] = i;
  double s = twice(c) + twice(c); // the last kernels: nothing reads a or b
#pragma omp target data map(alloc: a[0:N])
  {
    for (int j = 0; j < 3; ++j) {
#pragma omp target update to(a[0:N])
    }
    for (int j = 0; j < 3; ++j) {
#pragma omp target update from(a[0:N])
    }
  }
#pragma omp target data map(to: b[0:N])
  {
#pragma omp target update to(b[0:N])
  }
  printf("a=%g s=%g\n", a[N - 1], s);
  free(a);
  free(b);
  free(c);
  return 0;
}

// CHECK-DAG: No rewrite: what it sends is copied back to the host later, and without it the host would get the device's older bytes.
// CHECK-DAG: No rewrite: other constructs move data to or from this memory while it is allocated (`target update`s), and need it there.
// CHECK-DAG: No rewrite: the argument for `c` at advice_reasons.c:40 (`c`) may change from one call to the next.

// NEG: unused_transfer
// NEG: rewrite (change_map_type): map `b[0:N]` with `alloc` instead of `to` at advice_reasons.c:[[#]]: no kernel read what the copy in sent
