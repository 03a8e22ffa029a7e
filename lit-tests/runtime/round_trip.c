//===- round_trip.c - data that comes back unchanged ----------------------===//
//
// LOOP, Listing 2 with 5 iterations: `a` is implicitly mapped tofrom, so what
// the device sends back after iteration i goes out again unchanged at i+1:
// 4 round trips (N-1 for N iterations), and 4 repeated allocations. Every
// copy holds different bytes, so there is no duplicate.
// MODIFIED, the host changes `a` between iterations: no round trip, but the
// allocations still repeat.
// ONCE, x goes to the device once and comes back twice unchanged: one round
// trip only (a transfer belongs to at most one trip); the second copy back
// is a duplicate (the host already received those bytes).
//
// RUN: %clang-offload -g -DLOOP %s -o %t.loop
// RUN: %ompdp run -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %ompdp run --format=json -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP-JSON
// RUN: %clang-offload -g -DMODIFIED %s -o %t.mod
// RUN: %ompdp run --format=json -- %t.mod 2>&1 | FileCheck %s --check-prefix=MODIFIED
// RUN: %clang-offload -g -DONCE %s -o %t.once
// RUN: %ompdp run --format=json -- %t.once 2>&1 | FileCheck %s --check-prefix=ONCE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 5

// LOOP: a[N-1]=1275
// LOOP: summary: duplicate_transfers=0 round_trips=4 repeated_allocs=4 unused_allocs=0 unused_transfers=0
// LOOP-NOT: duplicate_transfer
// LOOP: round_trip {{.*}}round_trip.c:[[@LINE+34]]:1 in main count=4 bytes=4.0 KiB {{.*}} devices=0{{$}}
// LOOP-NEXT: outgoing copy at {{.*}}round_trip.c:[[@LINE+33]]:1 in main
// LOOP-NEXT: verdict: advice
// LOOP-NEXT: suggestion: {{.*}}target data map(tofrom: ...)
// LOOP: repeated_alloc {{.*}}round_trip.c:[[@LINE+30]]:1 in main count=4 bytes=4.0 KiB {{.*}} devices=0{{$}}
// LOOP-NOT: unused_

// LOOP-JSON: "duplicate_transfers": 0,
// LOOP-JSON-NEXT: "round_trips": 4,
// LOOP-JSON-NEXT: "repeated_allocs": 4,
// LOOP-JSON-NEXT: "unused_allocs": 0,
// LOOP-JSON-NEXT: "unused_transfers": 0,
// LOOP-JSON: "kind": "round_trip",
// LOOP-JSON-NEXT: "count": 4,
// LOOP-JSON-NEXT: "bytes": 4096,
// LOOP-JSON: "devices": [0],

// MODIFIED: "duplicate_transfers": 0,
// MODIFIED-NEXT: "round_trips": 0,
// MODIFIED-NEXT: "repeated_allocs": 4,
// MODIFIED-NEXT: "unused_allocs": 0,
// MODIFIED-NEXT: "unused_transfers": 0,
// MODIFIED-NOT: "kind": "round_trip"

// ONCE: "duplicate_transfers": 1,
// ONCE-NEXT: "round_trips": 1,
// ONCE-NEXT: "repeated_allocs": 0,
// ONCE-NEXT: "unused_allocs": 0,
// ONCE-NEXT: "unused_transfers": 0,

int main(void) {
#if defined(LOOP) || defined(MODIFIED)
  static int a[N];
  for (int i = 0; i < ITERS; ++i) {
#pragma omp target parallel for
    for (int j = 0; j < N; ++j)
      a[j] += j;
#ifdef MODIFIED
    a[0] += 1000;
#endif
  }
  printf("a[N-1]=%d\n", a[N - 1]);
#else
  int x[N], s = 1;
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp target enter data map(to : x)
#pragma omp target map(tofrom : s)
  for (int i = 0; i < N; ++i)
    s += x[i];
#pragma omp target update from(x)
#pragma omp target update from(x)
#pragma omp target exit data map(delete : x)
  printf("s=%d\n", s);
#endif
  return 0;
}
