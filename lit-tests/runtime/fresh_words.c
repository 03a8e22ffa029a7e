//===- fresh_words.c - one call's buffer sent twice is not a new buffer ---===//
//
// `h` is malloc'ed by the function (fresh-host), and two `target update to`
// of one call send it with the same bytes. The duplicate is the same buffer
// in one call, not "a new host buffer each time".
// - run: a kernel changes the device's copy between the updates (maxFlops'
//   shape), so each update resets it: the compiler sees the kernel write
//   `h` (device-written), and the verdict is necessary.
// - run_read: the kernel between the updates only reads `h`: the words are
//   those of a repeated `target update to` (move it if no kernel changes
//   the data in between), advice.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=READ < %t.out
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

static double run_read(void) {
  double *h = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    h[i] = i + 1; /* not the bytes run() sent */
  double s = 0, t = 0;
#pragma omp target data map(alloc: h[0:N])
  {
#pragma omp target update to(h[0:N])
#pragma omp target teams distribute parallel for map(tofrom: t) reduction(+: t)
    for (int i = 0; i < N; ++i)
      t += h[i];
#pragma omp target update to(h[0:N])
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += h[i] * 2;
  }
  free(h);
  return s + t;
}

int main(void) {
  printf("s=%g\n", run());
  printf("t=%g\n", run_read());
  return 0;
}

// CHECK: s=
// CHECK: t=
// CHECK: duplicate_transfer {{.*}}fresh_words.c:[[#L:]]:1 in run count=1
// CHECK-NEXT: variable: h clause: to(h[0:N])
// CHECK: verdict: necessary (not counted as a saving)
// CHECK-NEXT: suggestion: no saving: device code that runs between the updates writes h (the compiler sees a kernel write it, here or in a function the code calls), so each `target update to` resets the device's copy and is needed
// READ: duplicate_transfer {{.*}}fresh_words.c:[[#]]:1 in run_read count=1
// READ-NEXT: variable: h clause: to(h[0:N])
// READ: verdict: advice
// READ-NEXT: suggestion: `target update to(h[0:N])` sends device 0 the bytes it was sent last time: if no kernel changes `h` on the device in between, move the update before the loop or the calls that repeat it (or drop it); if one does (a counter, an accumulator), the update resets it and is needed
// READ-SAME: . No rewrite: moving the update needs proof that no kernel changes the data between two of them; the compiler saw none write it, but does not prove that it saw every kernel that runs there (functions of other files, calls through pointers).
// CHECK-NOT: new host buffer each time
// READ-NOT: new host buffer each time
