//===- source_location_after_statement.c - a construct's own line ---------===//
//
// A finding is placed at the `#pragma omp` line of its construct (column 1
// here). Each construct below follows a plain statement (a declaration, an
// assignment, a call), not a loop.
//
// With -g only (no plugin), clang-19 gives the call that launches a kernel
// the previous statement's row (e.g. `int y = 2;` at column 7); the runtime
// takes the row after the call, which is the pragma's.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

// x goes out as 1, comes back as 2, goes out as 2 (a round trip), and so on.
int main(void) {
  int x = 1;
  int y = 2;
#pragma omp target map(tofrom : x)
  x++;
  y = 3;
#pragma omp target map(tofrom : x)
  x++;
  printf("x=%d y=%d\n", x, y);
#pragma omp target map(tofrom : x)
  x++;
  return 0;
}
// CHECK: x=3 y=3
// CHECK: summary: duplicate_transfers=0 round_trips=2 repeated_allocs=2
// CHECK-DAG: round_trip {{.*}}source_location_after_statement.c:[[@LINE-9]]:1 in main count=1
// CHECK-DAG: outgoing copy at {{.*}}source_location_after_statement.c:[[@LINE-13]]:1 in main
// CHECK-DAG: round_trip {{.*}}source_location_after_statement.c:[[@LINE-8]]:1 in main count=1
// CHECK-DAG: outgoing copy at {{.*}}source_location_after_statement.c:[[@LINE-12]]:1 in main
