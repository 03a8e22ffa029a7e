//===- attribution-nowait.c - nowait constructs, attributed without -g ----===//
//
// Built with the plugin and without -g. `target nowait` kernels and nowait
// data constructs (enter data, update, exit data, with depend) become target
// tasks that libomp runs on its helper threads, not on the thread that met
// the directive; every finding still names its construct (file:line:col),
// the map item's variable and the clause as written.
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.json | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 128

// OUT: r=8138 8238 8148 8248

int main(void) {
  static int a[N], c[N], r1[2], r2[2];
  for (int i = 0; i < N; ++i)
    a[i] = c[i] = i;
  // c is only ever updated on device 3, never used by a kernel there.
  // CHECK: unused_alloc attribution-nowait.c:[[@LINE+1]]:3 in main devices=3 variable=c clause=map(alloc: c[0:N])
  #pragma omp target enter data map(alloc: c[0:N]) nowait depend(out: c) device(3)
  for (int round = 0; round < 2; ++round) {
    // Round 2 sends a again to devices 1 and 2.
    // CHECK-NEXT: duplicate_transfer attribution-nowait.c:[[@LINE+2]]:5 in main devices=1 variable=a clause=map(to : a)
    // CHECK-NEXT: repeated_alloc attribution-nowait.c:[[@LINE+1]]:5 in main devices=1 variable=a clause=map(to : a)
    #pragma omp target nowait map(to : a) map(from : r1[round:1]) device(1)
    {
      r1[round] = 10 + 100 * round;
      for (int i = 0; i < N; ++i)
        r1[round] += a[i];
    }
    // CHECK-NEXT: duplicate_transfer attribution-nowait.c:[[@LINE+2]]:1 in main devices=2 variable=a clause=map(to : a)
    // CHECK-NEXT: repeated_alloc attribution-nowait.c:[[@LINE+1]]:1 in main devices=2 variable=a clause=map(to : a)
#pragma omp target nowait map(to : a) map(from : r2[round:1]) device(2)
    {
      r2[round] = 20 + 100 * round;
      for (int i = 0; i < N; ++i)
        r2[round] += a[i];
    }
    // CHECK-NEXT: duplicate_transfer attribution-nowait.c:[[@LINE+2]]:5 in main devices=3 variable=c clause=to(c[0:N])
    // CHECK-NEXT: unused_transfer attribution-nowait.c:[[@LINE+1]]:5 in main devices=3 variable=c clause=to(c[0:N])
    #pragma omp target update to(c[0:N]) nowait depend(inout: c) device(3)
    #pragma omp taskwait
  }
  #pragma omp target exit data map(release: c[0:N]) nowait depend(in: c) device(3)
  #pragma omp taskwait
  printf("r=%d %d %d %d\n", r1[0], r1[1], r2[0], r2[1]);
  return 0;
}
// CHECK-NOT: {{.}}
