//===- nowait.c - deferred target tasks on two devices --------------------===//
//
// Two rounds; in each, `target nowait` regions on devices 1 and 2 run at the
// same time, then a taskwait. Each device receives `a` once per round, so
// round 2 is one duplicate and one repeated allocation on each device: 2 and
// 2, on devices 1 and 2, and nothing on device 0. The results have their own
// buffers and values. The two duplicates come in an order of their own (time
// saved): each is checked, in any order, at its own device's construct, in
// main (source_location_nowait.c checks the "first sent at" line).
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run --format=json -- %t 2>&1 | FileCheck %s --check-prefix=JSON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 128

// TEXT: r=8138 8238 8148 8248
// TEXT: observed: 8 transfers ({{.*}}), 8 allocations, 4 kernels
// TEXT-NEXT: summary: duplicate_transfers=2 round_trips=0 repeated_allocs=2 unused_allocs=0 unused_transfers=0
// TEXT-DAG: duplicate_transfer {{.*}}nowait.c:[[@LINE+20]]:1 in main count=1 {{.*}} devices=1{{$}}
// TEXT-DAG: duplicate_transfer {{.*}}nowait.c:[[@LINE+25]]:1 in main count=1 {{.*}} devices=2{{$}}
// TEXT-NOT: devices={{.*}}0
// TEXT-NOT: round_trip
// TEXT-NOT: unused_

// JSON: "duplicate_transfers": 2,
// JSON-NEXT: "round_trips": 0,
// JSON-NEXT: "repeated_allocs": 2,
// JSON-NEXT: "unused_allocs": 0,
// JSON-NEXT: "unused_transfers": 0,
// JSON: "partial": false,
// JSON-NOT: "devices": [0]
// JSON-NOT: "devices": [{{.*}}3

int main(void) {
  static int a[N], r1[2], r2[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int round = 0; round < 2; ++round) {
#pragma omp target nowait map(to : a) map(from : r1[round:1]) device(1)
    {
      r1[round] = 10 + 100 * round;
      for (int i = 0; i < N; ++i)
        r1[round] += a[i];
    }
#pragma omp target nowait map(to : a) map(from : r2[round:1]) device(2)
    {
      r2[round] = 20 + 100 * round;
      for (int i = 0; i < N; ++i)
        r2[round] += a[i];
    }
#pragma omp taskwait
  }
  printf("r=%d %d %d %d\n", r1[0], r1[1], r2[0], r2[1]);
  return 0;
}
