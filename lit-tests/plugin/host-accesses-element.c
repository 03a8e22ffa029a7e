// Host accesses of what an element of an array of pointers points to
// (`y[1]` of `float *y[3]`, HeCBench simpleSpmv's outputs), the argument of
// a call whose function maps it. They are the uses of that data: writes
// through `y[1]` (before, the array's own storage, the pointers, was
// taken for it, and a store into the data went unseen) and through `y[k]`
// (any element); not the uses of other elements' data (`y[2][0] = 1`,
// `run(y[2], 16)`): distinct elements are distinct storage, as distinct
// variables are. A call of a function of another file that is given
// `y[1]` itself counts it in extern-args (its own table says what it
// does); one given only other elements never names it (unnamed).
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s
#include <stdlib.h>

void run(float *y, int n) {
#pragma omp target teams distribute parallel for map(from: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] = i;
}

void other(float *p, int n);

float rows(void) {
  float *y[3];
  float s = 0;
  for (int k = 0; k < 3; ++k)
    y[k] = malloc(16 * sizeof(float));
  for (int r = 0; r < 4; ++r) {
    run(y[1], 16);
    y[1][0] = 5;
    y[2][0] = 1;
    other(y[1], 16);
    other(y[2], 16);
    for (int k = 0; k < 3; ++k)
      s += y[k][3];
  }
  return s;
}

// CHECK-LABEL: call: 'run(y[1], 16)'
// CHECK: item 0: none 'y[1]' var 'y'
// CHECK: stmt: 30:5-30:19
// CHECK-NEXT: host 0 'y' write at 31:5-31:17
// CHECK-NEXT: host 0 'y' read-write at 33:5-33:21 {{.*}}extern-args 1
// CHECK-NEXT: host 0 'y' read-write at 34:5-34:21 {{.*}}unnamed
// CHECK-NEXT: host 0 'y' read at 35:5-36:20
// CHECK-NEXT: region
