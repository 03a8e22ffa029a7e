//===- enter_exit_update.c - unstructured mappings and target update ------===//
//
// CLEAN, enter data to, a kernel, update from, a host change, update to, a
// kernel, exit data from: four copies of four different contents, each copy
// to the device read by a kernel, one allocation: nothing to report.
// NOKERNEL, enter data to, update from, update to, exit data delete, and no
// kernel: x goes out and back unchanged (1 round trip), is then sent again
// to a device that already holds it (1 duplicate); nothing reads either copy
// (2 unused transfers) nor the memory (1 unused allocation).
//
// RUN: %clang-offload -g -DCLEAN %s -o %t.clean
// RUN: %ompdp run -- %t.clean 2>&1 | FileCheck %s --check-prefix=CLEAN
// RUN: %ompdp run --format=json -- %t.clean 2>&1 | FileCheck %s --check-prefix=CLEAN-JSON
// RUN: %clang-offload -g -DNOKERNEL %s -o %t.nokernel
// RUN: %ompdp run -- %t.nokernel 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// RUN: %ompdp run --format=json -- %t.nokernel 2>&1 | FileCheck %s --check-prefix=NOKERNEL-JSON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 64

// CLEAN: x[5]=15
// CLEAN: observed: 4 transfers (1.0 KiB, {{.*}}), 1 allocations, 2 kernels
// CLEAN: no inefficient data movement found
// CLEAN-JSON: "duplicate_transfers": 0,
// CLEAN-JSON-NEXT: "round_trips": 0,
// CLEAN-JSON-NEXT: "repeated_allocs": 0,
// CLEAN-JSON-NEXT: "unused_allocs": 0,
// CLEAN-JSON-NEXT: "unused_transfers": 0,
// CLEAN-JSON: "findings": []

// NOKERNEL: x[5]=5
// NOKERNEL: observed: 3 transfers (768 B, {{.*}}), 1 allocations, 0 kernels
// NOKERNEL: summary: duplicate_transfers=1 round_trips=1 repeated_allocs=0 unused_allocs=1 unused_transfers=2
// NOKERNEL-DAG: duplicate_transfer {{.*}}enter_exit_update.c:[[@LINE+27]]:1 in main count=1 bytes=256 B {{.*}} devices=0{{$}}
// NOKERNEL-DAG: round_trip {{.*}}enter_exit_update.c:[[@LINE+21]]:1 in main count=1 bytes=256 B {{.*}} devices=0{{$}}
// NOKERNEL-DAG: unused_alloc {{.*}}enter_exit_update.c:[[@LINE+14]]:1 in main count=1 bytes=256 B {{.*}} devices=0{{$}}
// NOKERNEL-DAG: unused_transfer {{.*}}enter_exit_update.c:[[@LINE+13]]:1 in main count=1 bytes=256 B {{.*}} devices=0{{$}}
// NOKERNEL-DAG: unused_transfer {{.*}}enter_exit_update.c:[[@LINE+23]]:1 in main count=1 bytes=256 B {{.*}} devices=0{{$}}
// NOKERNEL-NOT: repeated_alloc
// NOKERNEL-JSON: "duplicate_transfers": 1,
// NOKERNEL-JSON-NEXT: "round_trips": 1,
// NOKERNEL-JSON-NEXT: "repeated_allocs": 0,
// NOKERNEL-JSON-NEXT: "unused_allocs": 1,
// NOKERNEL-JSON-NEXT: "unused_transfers": 2,

int main(void) {
  int x[N];
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp target enter data map(to : x)
#ifdef CLEAN
#pragma omp target
  for (int i = 0; i < N; ++i)
    x[i] += 1;
#endif
#pragma omp target update from(x)
#ifdef CLEAN
  for (int i = 0; i < N; ++i)
    x[i] *= 2;
#endif
#pragma omp target update to(x)
#ifdef CLEAN
#pragma omp target
  for (int i = 0; i < N; ++i)
    x[i] += 3;
#pragma omp target exit data map(from : x)
#else
#pragma omp target exit data map(delete : x)
#endif
  printf("x[5]=%d\n", x[5]);
  return 0;
}
