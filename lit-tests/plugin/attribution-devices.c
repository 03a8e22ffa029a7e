//===- attribution-devices.c - findings on devices 0 to 3 -----------------===//
//
// Built with the plugin and without -g. The host offload plugin has four
// devices; one target region runs twice on each of them (device(d)), and a
// target data region on device 3 holds an update and a kernel. Findings
// name the devices, the construct, the variable and the clause; the end of
// the target data region (the copy back) is its own construct's.
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.json | FileCheck %s
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define N 200

// OUT: 4 19900 19931 200

static int a[N], c[N], r[4][2];

int main(void) {
  for (int i = 0; i < N; ++i)
    a[i] = c[i] = i;
  for (int d = 0; d < omp_get_num_devices(); ++d)
    for (int k = 0; k < 2; ++k) {
      // CHECK: duplicate_transfer attribution-devices.c:[[@LINE+2]]:7 in main devices=0,1,2,3 variable=a clause=map(to: a)
      // CHECK-NEXT: repeated_alloc attribution-devices.c:[[@LINE+1]]:7 in main devices=0,1,2,3 variable=a clause=map(to: a)
      #pragma omp target device(d) map(to: a) map(from: r[d][k:1])
      {
        r[d][k] = d * 10 + k;
        for (int i = 0; i < N; ++i)
          r[d][k] += a[i];
      }
    }
  // c holds the bytes a already sent to device 3; the update sends them
  // again before any kernel read the first copy.
  // CHECK-NEXT: duplicate_transfer attribution-devices.c:[[@LINE+2]]:3 in main devices=3 variable=c clause=map(tofrom: c)
  // CHECK-NEXT: unused_transfer attribution-devices.c:[[@LINE+1]]:3 in main devices=3 variable=c clause=map(tofrom: c)
  #pragma omp target data map(tofrom: c) device(3)
  {
    // CHECK-NEXT: duplicate_transfer attribution-devices.c:[[@LINE+1]]:5 in main devices=3 variable=c clause=to(c)
    #pragma omp target update to(c) device(3)
    #pragma omp target device(3)
    for (int i = 0; i < N; ++i)
      c[i] += 1;
  }
  printf("%d %d %d %d\n", omp_get_num_devices(), r[0][0], r[3][1], c[N - 1]);
  return 0;
}
// CHECK-NOT: {{.}}
