//===- update_unsafe.c - host accesses that forbid keeping data resident --===//
//
// Each loop maps one array that the device changes and the host changes
// too, so neither way of keeping it resident is allowed by the run alone
// (the host's copies in differ: `map(always, from: x)` would lose them),
// and the host-access facts must place a `target update to` after each
// host write. Here they cannot:
//   - `x` is written through another pointer (`p`): the compiler sees no
//     host access to `x` in the loop, which with a changed copy in means
//     it missed one: no rewrite (without this check the rewrite would map
//     `x` tofrom around the loop with no update, and the device would
//     never see the host's writes);
//   - `y` is written in a loop that can `break`: the statements do not run
//     once per iteration, so the updates could not be counted: no rewrite.
// The region table shows the facts; the report has the findings but no
// keep_resident rewrite.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o prog | FileCheck %s --check-prefix=TABLE
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog | FileCheck %s --check-prefix=OUT
// RUN: cd %t && %ompdp report r.json | FileCheck %s --check-prefix=REPX
// RUN: cd %t && %ompdp report r.json | FileCheck %s --check-prefix=REPY
// RUN: cd %t && %ompdp report r.json | FileCheck %s --check-prefix=NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 5

int main(void) {
  static int x[N], y[N];
  int *p = x;
  for (int it = 0; it < ITERS; ++it) {
    p[it] += 100; // writes x, but through p
#pragma omp target teams distribute parallel for map(tofrom: x)
    for (int j = 0; j < N; ++j)
      x[j] = x[j] / 2 + j;
  }
  for (int it = 0; it < ITERS; ++it) {
    if (y[0] < 0)
      break;
    y[it] += 100;
#pragma omp target teams distribute parallel for map(tofrom: y)
    for (int j = 0; j < N; ++j)
      y[j] = y[j] / 2 + j;
  }
  printf("x[1]=%d x[4]=%d y[1]=%d y[4]=%d\n", x[1], x[4], y[1], y[4]);
  return 0;
}

// TABLE:      region {{.*}} 'target' at prog.c:[[#X:]]:1 in 'main'
// TABLE:      stmt: [[#X]]:1-[[#X+2]]:27 bytes {{[0-9]+}}+{{[0-9]+}} block {{[0-9]+}} #1
// TABLE-NOT:  host 0 'x'
// TABLE:      region {{.*}} 'target' at prog.c:[[#Y:]]:1 in 'main'
// TABLE:      host 0 'y' read at [[#Y-3]]:5-[[#Y-2]]:13 bytes {{[0-9]+}}+{{[0-9]+}} statement{{$}}
// TABLE-NEXT: host 0 'y' read-write at [[#Y-1]]:5-[[#Y-1]]:18 bytes {{[0-9]+}}+{{[0-9]+}} statement{{$}}

// OUT: x[1]=

// Findings of one kind come out by time saved, which varies from run to run:
// each is checked on its own.
// REPX: repeated_alloc {{.*}}prog.c:[[#@LINE-27]]:1 in main count=4
// REPX-NEXT: variable: x
// REPY: repeated_alloc {{.*}}prog.c:[[#@LINE-21]]:1 in main count=4
// REPY-NEXT: variable: y

// NONE-NOT: keep_resident
// NONE: summary:
// NONE-NOT: keep_resident
