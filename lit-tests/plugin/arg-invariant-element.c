// An argument that is an element of a local array (`y[1]` of `float
// *y[4]`, HeCBench simpleSpmv's outputs) is the same at every call of a
// loop whose body writes no element of the array, when the function only
// subscripts it: arg-invariant. Not when the loop stores an element
// (`y[1] = y[2]`), when the array is given to a call (`stash(y)`: it may
// change any element), or when an element's address is taken.
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s
#include <stdlib.h>

void run(float *y, int n) {
#pragma omp target teams distribute parallel for map(from: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] = i;
}

void stash(float **p);
void keep(float **p);

void same(void) {
  float *y[3];
  for (int k = 0; k < 3; ++k)
    y[k] = malloc(16 * sizeof(float));
  for (int r = 0; r < 4; ++r)
    run(y[1], 16);
}

void stored(void) {
  float *y[3];
  for (int k = 0; k < 3; ++k)
    y[k] = malloc(16 * sizeof(float));
  for (int r = 0; r < 4; ++r) {
    run(y[1], 16);
    y[1] = y[2];
  }
}

void given(void) {
  float *y[3];
  for (int k = 0; k < 3; ++k)
    y[k] = malloc(16 * sizeof(float));
  stash(y);
  for (int r = 0; r < 4; ++r)
    run(y[1], 16);
}

void address(void) {
  float *y[3];
  for (int k = 0; k < 3; ++k)
    y[k] = malloc(16 * sizeof(float));
  keep(&y[1]);
  for (int r = 0; r < 4; ++r)
    run(y[1], 16);
}

// CHECK:      'call' at {{.*}} in 'same'
// CHECK:      item 0: none 'y[1]' var 'y' {{.*}} access unknown arg-invariant clause-bytes
// (The store is one of the pointer the argument is: base-stored.)
// CHECK:      'call' at {{.*}} in 'stored'
// CHECK:      item 0: none 'y[1]' var 'y' {{.*}} access unknown base-stored clause-bytes
// CHECK:      'call' at {{.*}} in 'given'
// CHECK:      item 0: none 'y[1]' var 'y' {{.*}} access unknown clause-bytes
// CHECK:      'call' at {{.*}} in 'address'
// CHECK:      item 0: none 'y[1]' var 'y' {{.*}} access unknown clause-bytes
