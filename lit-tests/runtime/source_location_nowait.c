//===- source_location_nowait.c - deferred targets keep their place -------===//
//
// A `target nowait` runs as a task, from a compiler-made function; its
// findings must still name the user's function and the construct's line.
//
// The offload call of a `target nowait` is in a compiler-made task entry;
// the finding must still name main and the pragma's line.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 64

int main(void) {
  static int a[N], r[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int round = 0; round < 2; ++round) {
#pragma omp target nowait map(to : a) map(from : r[round:1])
    {
      r[round] = round;
      for (int i = 0; i < N; ++i)
        r[round] += a[i];
    }
#pragma omp taskwait
  }
  printf("r=%d %d\n", r[0], r[1]);
  return 0;
}
// CHECK: r=2016 2017
// CHECK: summary: duplicate_transfers=1 round_trips=0 repeated_allocs=1
// CHECK: duplicate_transfer {{.*}}source_location_nowait.c:[[@LINE-13]]:1 in main count=1
// CHECK-NEXT: 1 from the same host buffer
// CHECK-NEXT: first sent at {{.*}}source_location_nowait.c:[[@LINE-15]]:1 in main
// CHECK-NOT: .omp_outlined
