//===- repeated_alloc.c - one host buffer allocated on a device again -----===//
//
// LOOP, x is mapped tofrom by a kernel in a loop of 3 and changed on the host
// in between, so no bytes repeat: only the 2 repeated allocations are found.
// DEVICES, the same buffer is allocated once on device 1 and once on device 2:
// a repeated allocation is per device, so there is none.
// SIZES, the same host address mapped with two different lengths: the key is
// (host address, device, bytes), so there is none either.
//
// RUN: %clang-offload -g -DLOOP %s -o %t.loop
// RUN: %ompdp run -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %ompdp run --format=json -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP-JSON
// RUN: %clang-offload -g -DDEVICES %s -o %t.dev
// RUN: %ompdp run --format=json -- %t.dev 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang-offload -g -DSIZES %s -o %t.sizes
// RUN: %ompdp run --format=json -- %t.sizes 2>&1 | FileCheck %s --check-prefix=NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 512

// LOOP: x[0]=303
// LOOP: summary: duplicate_transfers=0 round_trips=0 repeated_allocs=2 unused_allocs=0 unused_transfers=0
// LOOP-NOT: duplicate_transfer
// LOOP-NOT: round_trip
// LOOP: repeated_alloc {{.*}}repeated_alloc.c:[[@LINE+27]]:1 in main count=2 bytes=4.0 KiB {{.*}} devices=0{{$}}
// LOOP-NEXT: first allocated at {{.*}}repeated_alloc.c:[[@LINE+26]]:1 in main
// LOOP-NEXT: verdict: advice
// LOOP-NEXT: suggestion: {{.*}}allocate it once
// LOOP-NOT: repeated_alloc
// LOOP-NOT: unused_

// LOOP-JSON: "repeated_allocs": 2,
// LOOP-JSON: "kind": "repeated_alloc",
// LOOP-JSON-NEXT: "count": 2,
// LOOP-JSON-NEXT: "bytes": 4096,
// LOOP-JSON: "devices": [0],
// LOOP-JSON-NOT: "kind":

// NONE: "duplicate_transfers": 0,
// NONE-NEXT: "round_trips": 0,
// NONE-NEXT: "repeated_allocs": 0,
// NONE-NEXT: "unused_allocs": 0,
// NONE-NEXT: "unused_transfers": 0,
// NONE: "findings": []

int main(void) {
  int x[N];
  for (int i = 0; i < N; ++i)
    x[i] = i;
#ifdef LOOP
  for (int it = 0; it < 3; ++it) {
#pragma omp target map(tofrom : x)
    for (int i = 0; i < N; ++i)
      x[i] += 1;
    x[0] += 100;
  }
#elif defined(DEVICES)
#pragma omp target map(tofrom : x) device(1)
  for (int i = 0; i < N; ++i)
    x[i] += 1;
#pragma omp target map(tofrom : x) device(2)
  for (int i = 0; i < N; ++i)
    x[i] += 1;
#else
#pragma omp target map(tofrom : x[0:N/2])
  for (int i = 0; i < N / 2; ++i)
    x[i] += 1;
#pragma omp target map(tofrom : x[0:N])
  for (int i = 0; i < N; ++i)
    x[i] += 1;
#endif
  printf("x[0]=%d\n", x[0]);
  return 0;
}
