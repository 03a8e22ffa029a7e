//===- clean.c - a program that moves its data well ------------------------===//
//
// `a` is mapped tofrom once around a loop of kernels that change it every
// iteration: one copy in, one copy out (different bytes), one allocation
// used by every kernel. Nothing is wasted, and the report says so.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run --format=json -- %t 2>&1 | FileCheck %s --check-prefix=JSON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 512
#define ITERS 8

// TEXT: a[1]=37
// TEXT: observed: 2 transfers (4.0 KiB, {{.*}}), 1 allocations, 8 kernels
// TEXT: summary: duplicate_transfers=0 round_trips=0 repeated_allocs=0 unused_allocs=0 unused_transfers=0
// TEXT: no inefficient data movement found
// TEXT-NOT: duplicate_transfer
// TEXT-NOT: round_trip
// TEXT-NOT: repeated_alloc
// TEXT-NOT: unused_

// JSON: "summary": {
// JSON-NEXT: "duplicate_transfers": 0,
// JSON-NEXT: "round_trips": 0,
// JSON-NEXT: "repeated_allocs": 0,
// JSON-NEXT: "unused_allocs": 0,
// JSON-NEXT: "unused_transfers": 0,
// JSON-NEXT: "zero_transfers": 0,
// JSON-NEXT: "overbroad_maps": 0,
// JSON-NEXT: "early_allocs": 0,
// JSON-NEXT: "late_releases": 0,
// JSON-NEXT: "single_value_transfers": 0,
// JSON-NEXT: "time_saved_ns": 0,
// JSON: "observed": {
// JSON-NEXT: "transfers": 2,
// JSON-NEXT: "allocs": 1,
// JSON-NEXT: "deletes": 1,
// JSON-NEXT: "kernels": 8,
// JSON-NEXT: "bytes_transferred": 4096,
// JSON: "partial": false,
// JSON: "findings": []

int main(void) {
  static int a[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target data map(tofrom : a)
  {
    for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for
      for (int j = 0; j < N; ++j)
        a[j] += it + 1;
    }
  }
  printf("a[1]=%d\n", a[1]);
  return 0;
}
