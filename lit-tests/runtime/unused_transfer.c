//===- unused_transfer.c - data sent to a device that no kernel reads ----===//
//
// OVERWRITE, `target update to(x)` twice with no kernel in between: the first
// copy is overwritten before anything could read it. Then a kernel, then one
// more `update to(x)` after the device's last kernel, which nothing reads
// either: 2 unused transfers. The host changes x before each copy, so there
// is no duplicate.
// READ, a kernel runs after each `update to(x)`: nothing is unused.
//
// RUN: %clang-offload -g -DOVERWRITE %s -o %t.overwrite
// RUN: %ompdp run -- %t.overwrite 2>&1 | FileCheck %s --check-prefix=OVERWRITE
// RUN: %ompdp run --format=json -- %t.overwrite 2>&1 | FileCheck %s --check-prefix=OVERWRITE-JSON
// RUN: %clang-offload -g -DREAD %s -o %t.read
// RUN: %ompdp run -- %t.read 2>&1 | FileCheck %s --check-prefix=READ
// RUN: %ompdp run --format=json -- %t.read 2>&1 | FileCheck %s --check-prefix=READ-JSON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256

// OVERWRITE: summary: duplicate_transfers=0 round_trips=0 repeated_allocs=0 unused_allocs=0 unused_transfers=2
// OVERWRITE-NOT: duplicate_transfer
// OVERWRITE-NOT: round_trip
// OVERWRITE-NOT: repeated_alloc
// OVERWRITE-NOT: unused_alloc
// OVERWRITE-DAG: unused_transfer {{.*}}unused_transfer.c:[[@LINE+25]]:1 in main count=1 bytes=1.0 KiB {{.*}} devices=0{{$}}
// OVERWRITE-DAG: unused_transfer {{.*}}unused_transfer.c:[[@LINE+38]]:1 in main count=1 bytes=1.0 KiB {{.*}} devices=0{{$}}

// OVERWRITE-JSON: "unused_transfers": 2,
// OVERWRITE-JSON: "kind": "unused_transfer",
// OVERWRITE-JSON-NEXT: "count": 1,
// OVERWRITE-JSON-NEXT: "bytes": 1024,
// OVERWRITE-JSON: "kind": "unused_transfer",
// OVERWRITE-JSON-NEXT: "count": 1,
// OVERWRITE-JSON-NEXT: "bytes": 1024,
// OVERWRITE-JSON-NOT: "kind":

// READ: no inefficient data movement found
// READ-NOT: unused_transfer
// READ-JSON: "duplicate_transfers": 0,
// READ-JSON-NEXT: "round_trips": 0,
// READ-JSON-NEXT: "repeated_allocs": 0,
// READ-JSON-NEXT: "unused_allocs": 0,
// READ-JSON-NEXT: "unused_transfers": 0,

int main(void) {
  int x[N], s1 = 1, s2 = 2, s3 = 3;
#pragma omp target enter data map(alloc : x)
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp target update to(x)
#ifdef READ
#pragma omp target map(tofrom : s1)
  for (int i = 0; i < N; ++i)
    s1 += x[i];
#endif
  for (int i = 0; i < N; ++i)
    x[i] = 2 * i;
#pragma omp target update to(x)
#pragma omp target map(tofrom : s2)
  for (int i = 0; i < N; ++i)
    s2 += x[i];
  for (int i = 0; i < N; ++i)
    x[i] = 3 * i;
#pragma omp target update to(x)
#ifdef READ
#pragma omp target map(tofrom : s3)
  for (int i = 0; i < N; ++i)
    s3 += x[i];
#endif
#pragma omp target exit data map(delete : x)
  printf("s=%d %d %d\n", s1, s2, s3);
  return 0;
}
