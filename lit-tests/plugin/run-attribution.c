//===- run-attribution.c - findings name the variable and the clause -------===//
//
// Built with the plugin and without -g: every finding still has the
// construct's file:line:col (from the region table) and names the map item
// and the clause as written, explicit or implicit.
//
// REQUIRES: plugin
// RUN: rm -f %t.json && %clang-ompdp %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run --format=json -o %t.json -- %t
// RUN: FileCheck %s --check-prefix=JSON < %t.json
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

int main(void) {
  int a[N], sum = 0, prod = 1;
  static int b[N];
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 + 1;
#pragma omp target map(to : a) map(tofrom : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];
#pragma omp target map(to : a) map(tofrom : prod)
  for (int i = 0; i < 4; ++i)
    prod *= a[i];
  // Listing 2: no map clause at all; b is mapped tofrom implicitly.
  for (int it = 0; it < 4; ++it) {
#pragma omp target
    for (int j = 0; j < N; ++j)
      b[j] += j;
  }
  printf("%d %d %d\n", sum, prod, b[N - 1]);
  return 0;
}

// TEXT: summary: duplicate_transfers=1 round_trips=3 repeated_allocs=4
// TEXT: duplicate_transfer {{.*}}run-attribution.c:25:1 in main count=1
// TEXT-NEXT: variable: a  clause: map(to : a)
// TEXT-NEXT: 1 from the same host buffer
// TEXT-NEXT: first sent at {{.*}}run-attribution.c:22:1 in main
// TEXT-NEXT: verdict: fix
// TEXT-NEXT: suggestion: {{.*}}`#pragma omp target data map(to: a)`
// TEXT: round_trip {{.*}}run-attribution.c:30:1 in main count=3
// TEXT-NEXT: variable: b  clause: implicit map(tofrom: b)
// TEXT-NEXT: outgoing copy at {{.*}}run-attribution.c:30:1 in main
// TEXT-NEXT: verdict: fix
// TEXT-NEXT: suggestion: {{.*}}map(tofrom: b){{.*}}update from(b)
// TEXT-DAG: repeated_alloc {{.*}}run-attribution.c:30:1 in main count=3
// TEXT-DAG: repeated_alloc {{.*}}run-attribution.c:25:1 in main count=1

// JSON: "kind": "duplicate_transfer"
// JSON: "line": 25,
// JSON-NEXT: "column": 1,
// JSON-NEXT: "function": "main",
// JSON-NEXT: "variable": "a",
// JSON-NEXT: "clause": "map(to : a)",
// JSON: "kind": "round_trip"
// JSON: "variable": "b",
// JSON-NEXT: "clause": "implicit map(tofrom: b)",
