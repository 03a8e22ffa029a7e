//===- unused_alloc.c - device memory no kernel could use -----------------===//
//
// NOKERNEL, `target enter data map(alloc:)` then `exit data map(delete:)` in a
// program with no kernel at all: 1 unused allocation.
// OUTSIDE, kernels run on device 0 before the allocation and after its delete,
// but none during its lifetime: still 1 unused allocation.
// OTHERDEV, the memory lives on device 1 while a kernel runs on device 0: a
// kernel elsewhere does not count, so it is unused.
// USED, a kernel runs on the device between allocation and delete: nothing.
//
// RUN: %clang-offload -g -DNOKERNEL %s -o %t.nokernel
// RUN: %ompdp run -- %t.nokernel 2>&1 | FileCheck %s --check-prefixes=UNUSED,UNUSED-DEV0
// RUN: %ompdp run --format=json -- %t.nokernel 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %clang-offload -g -DOUTSIDE %s -o %t.outside
// RUN: %ompdp run -- %t.outside 2>&1 | FileCheck %s --check-prefixes=UNUSED,UNUSED-DEV0
// RUN: %ompdp run --format=json -- %t.outside 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %clang-offload -g -DOTHERDEV %s -o %t.otherdev
// RUN: %ompdp run -- %t.otherdev 2>&1 | FileCheck %s --check-prefixes=UNUSED,UNUSED-DEV1
// RUN: %ompdp run --format=json -- %t.otherdev 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %clang-offload -g -DUSED %s -o %t.used
// RUN: %ompdp run -- %t.used 2>&1 | FileCheck %s --check-prefix=USED
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1000

#ifdef OTHERDEV
#define DEV 1
#else
#define DEV 0
#endif

// UNUSED: summary: duplicate_transfers=0 round_trips=0 repeated_allocs=0 unused_allocs=1 unused_transfers=0
// UNUSED-NOT: duplicate_transfer
// UNUSED-NOT: round_trip
// UNUSED-NOT: repeated_alloc
// UNUSED-DEV0: unused_alloc {{.*}}unused_alloc.c:[[@LINE+22]]:1 in main count=1 bytes=3.9 KiB {{.*}} devices=0{{$}}
// UNUSED-DEV1: unused_alloc {{.*}}unused_alloc.c:[[@LINE+21]]:1 in main count=1 bytes=3.9 KiB {{.*}} devices=1{{$}}
// UNUSED-NOT: unused_

// JSON: "unused_allocs": 1,
// JSON: "kind": "unused_alloc",
// JSON-NEXT: "count": 1,
// JSON-NEXT: "bytes": 4000,
// JSON-NOT: "kind":

// USED: no inefficient data movement found
// USED-NOT: unused_alloc

int main(void) {
  static int x[N];
  // Each kernel has its own result, with values that never repeat, so that
  // nothing but the allocation of x is found.
  int s1 = 10, s2 = 20, s3 = 40;
#if defined(OUTSIDE) || defined(OTHERDEV)
#pragma omp target map(tofrom : s1)
  s1 += 1;
#endif
#pragma omp target enter data map(alloc : x[0:N]) device(DEV)
#ifdef OTHERDEV
#pragma omp target map(tofrom : s2)
  s2 += 10;
#endif
#ifdef USED
#pragma omp target map(tofrom : s2)
  {
    for (int i = 0; i < N; ++i)
      x[i] = i + s2;
    s2 += x[1];
  }
#endif
#pragma omp target exit data map(delete : x[0:N]) device(DEV)
#if defined(OUTSIDE)
#pragma omp target map(tofrom : s3)
  s3 += 100;
#endif
  printf("s=%d %d %d\n", s1, s2, s3);
  return 0;
}
