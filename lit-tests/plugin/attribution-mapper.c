//===- attribution-mapper.c - what a user-defined mapper moves ------------===//
//
// Built with the plugin and without -g. An item mapped through a declare
// mapper (the default one, or one named with the mapper modifier) moves
// more than its own storage: the mapper pushes the pointee v.data[0:v.n],
// whose host address no map argument of the construct holds. Those
// operations belong to the item that uses the mapper when only one item of
// the construct has one; with two (v and w in the target data region) they
// stay unattributed rather than guessed.
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.json | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 256

// OUT: 130560 1

struct vec {
  int n;
  double *data;
};
#pragma omp declare mapper(struct vec v) map(v, v.data[0:v.n])
#pragma omp declare mapper(head: struct vec v) map(v, v.data[0:1])

int main(void) {
  struct vec v = {N, malloc(N * sizeof(double))};
  struct vec w = {N, malloc(N * sizeof(double))};
  double other[N];
  for (int i = 0; i < N; ++i)
    v.data[i] = w.data[i] = other[i] = i;
  double s = 0;
  for (int k = 0; k < 2; ++k) {
    // v.data comes with v: every finding about it names v. The region only
    // reads v: its copies back are an overbroad map.
    // CHECK: duplicate_transfer attribution-mapper.c:[[@LINE+8]]:5 in main devices=0 variable=other clause=map(to: other)
    // CHECK-NEXT: duplicate_transfer attribution-mapper.c:[[@LINE+7]]:5 in main devices=0 variable=v clause=map(tofrom: v)
    // CHECK-NEXT: overbroad_map attribution-mapper.c:[[@LINE+6]]:5 in main devices=0 variable=v clause=map(tofrom: v)
    // CHECK-NEXT: repeated_alloc attribution-mapper.c:[[@LINE+5]]:5 in main devices=0 variable=other clause=map(to: other)
    // CHECK-NEXT: repeated_alloc attribution-mapper.c:[[@LINE+4]]:5 in main devices=0 variable=s clause=map(tofrom: s)
    // CHECK-NEXT: repeated_alloc attribution-mapper.c:[[@LINE+3]]:5 in main devices=0 variable=v clause=map(tofrom: v)
    // CHECK-NEXT: round_trip attribution-mapper.c:[[@LINE+2]]:5 in main devices=0 variable=s clause=map(tofrom: s)
    // CHECK-NEXT: round_trip attribution-mapper.c:[[@LINE+1]]:5 in main devices=0 variable=v clause=map(tofrom: v)
    #pragma omp target map(tofrom: v) map(to: other) map(tofrom: s)
    for (int i = 0; i < v.n; ++i)
      s += v.data[i] + other[i];
    // CHECK-NEXT: duplicate_transfer attribution-mapper.c:[[@LINE+2]]:5 in main devices=0 variable=w clause=map(mapper(head), to: w)
    // CHECK-NEXT: repeated_alloc attribution-mapper.c:[[@LINE+1]]:5 in main devices=0 variable=w clause=map(mapper(head), to: w)
    #pragma omp target map(mapper(head), to: w)
    w.data[0] += 1;
    // CHECK-NEXT: duplicate_transfer attribution-mapper.c:[[@LINE+9]]:5 in main devices=0 variable=- clause=-
    // CHECK-NEXT: duplicate_transfer attribution-mapper.c:[[@LINE+8]]:5 in main devices=0 variable=v clause=map(to: v, w)
    // CHECK-NEXT: duplicate_transfer attribution-mapper.c:[[@LINE+7]]:5 in main devices=0 variable=w clause=map(to: v, w)
    // CHECK-NEXT: repeated_alloc attribution-mapper.c:[[@LINE+6]]:5 in main devices=0 variable=- clause=-
    // CHECK-NEXT: unused_alloc attribution-mapper.c:[[@LINE+5]]:5 in main devices=0 variable=- clause=-
    // CHECK-NEXT: unused_transfer attribution-mapper.c:[[@LINE+4]]:5 in main devices=0 variable=- clause=-
    // CHECK-NEXT: unused_transfer attribution-mapper.c:[[@LINE+3]]:5 in main devices=0 variable=v clause=map(to: v, w)
    // CHECK-NEXT: unused_transfer attribution-mapper.c:[[@LINE+2]]:5 in main devices=0 variable=w clause=map(to: v, w)
    // CHECK-NOT: {{.}}
    #pragma omp target data map(to: v, w)
    {
    }
  }
  printf("%g %g\n", s, w.data[0]);
  free(v.data);
  free(w.data);
  return 0;
}
