//===- synthetic_sizes.c - transfers of 0 bytes and of more than 4 GiB ----===//
//
// libomptarget never reports a transfer of 0 bytes (it drops zero-length
// sections) and host offload cannot move 4 GiB in a test, so
// Inputs/ompt_shim.c (SHIM_SYNTH=1) delivers them to ompdp's callbacks
// itself, after the program's own offloading: a 0-byte transfer to and one
// from device 1 (no buffers: nothing may be read), two allocations of 5 GiB
// of one host address on device 1, and a 6 GiB copy from device 1 to 2.
// Counts, bytes and findings must be exact in 64 bits: 808 real bytes plus
// 6 GiB transferred, the repeated 5 GiB allocation as 5368709120 bytes, the
// two unused ones as 10737418240; the program's own duplicate is still
// found; nothing crashes.
//
// RUN: %clang -shared -fPIC -O1 -I%omp-tools-include %S/Inputs/ompt_shim.c -o %t.shim.so -ldl
// RUN: %clang-offload -g %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%t.shim.so SHIM_TOOL=%ompdp-rt SHIM_SYNTH=1 OMPDP_OPTIONS="format=json output=%t.json" %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %ompdp report %t.json | FileCheck %s --check-prefix=TEXT
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 100

// OUT: r=4950 4951

// JSON: "duplicate_transfers": 1,
// JSON: "repeated_allocs": 2,
// JSON: "observed": {
// JSON-NEXT: "transfers": 7,
// JSON-NEXT: "allocs": 6,
// JSON: "bytes_transferred": 6442451752,
// JSON: "partial": false,
// JSON: "kind": "repeated_alloc",
// JSON: "bytes": 5368709120,
// JSON: "kind": "unused_alloc",
// JSON-NEXT: "count": 2,
// JSON-NEXT: "bytes": 10737418240,

// TEXT: observed: 7 transfers (6.0 GiB,
// TEXT: repeated_alloc {{.*}}bytes=5.0 GiB
// TEXT: unused_alloc {{.*}}count=2 bytes=10.0 GiB

int main(void) {
  static int a[N], r[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a) map(from : r[k:1])
    {
      r[k] = k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  printf("r=%d %d\n", r[0], r[1]);
  return 0;
}
