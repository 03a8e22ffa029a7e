//===- update_to_repeated.c - a target update that sends the same bytes ===//
//
// `x` is resident (enter data) and `target update to(x)` sends it again in
// every iteration with the bytes it sent last time. It is not told "keep
// it resident" (it is resident already): the advice says to move the update
// out of the loop unless a kernel changes `x` on the device in between, in
// which case the update is a reset and is needed (the run cannot tell
// without a copy back). `count`, reset to 0 the same way before a kernel
// counts into it, is copied back: the copies back show that the device
// changed it, so its resets are necessary. Built with the plugin (the
// construct's kind comes from the region table).
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  static double x[N], y[N];
  int count = 0, total = 0;
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp target enter data map(alloc: y, count) map(to: x)
  for (int it = 0; it < 8; ++it) {
    count = 0;
#pragma omp target update to(x)
#pragma omp target update to(count)
#pragma omp target teams distribute parallel for reduction(+: count)
    for (int i = 0; i < N; ++i) {
      y[i] += x[i];
      count += i % 2;
    }
#pragma omp target update from(count)
    total += count;
  }
#pragma omp target exit data map(from: y) map(release: x, count)
  printf("y[7]=%g total=%d\n", y[7], total);
  return 0;
}

// CHECK: y[7]=56 total=16384
// CHECK: Duplicate transfers
// CHECK-DAG: suggestion: `target update to(x)` sends device {{[0-9]+}} the bytes it was sent last time: if no kernel changes `x` on the device in between, move the update before the loop or the calls that repeat it (or drop it); if one does (a counter, an accumulator), the update resets it and is needed
// CHECK-DAG: variable: count clause: to(count)
// CHECK-DAG: verdict: necessary (not counted as a saving)
// CHECK-NOT: keep it resident with `#pragma omp target data map(to: x)`
