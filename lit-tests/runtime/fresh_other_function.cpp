//===- fresh_other_function.cpp - another function's buffer at the address -===//
//
// HeCBench extrema's shape: a function template has its input anew at each
// call (extrema mallocs it; here an automatic array, which puts it at one
// address deterministically), maps it once around its kernels and returns;
// main calls test<int> and then test<float>, whose frames are alike, so the
// second's buffer is where the first's was. The second call's device
// allocation repeats the first instance's: two objects, two functions. The words are those of a new host buffer each
// time, not "the same host buffer is allocated and freed each time it is
// mapped" (a `target data` around the constructs would not help: there is
// no one buffer to keep).
// Negative (SAME): keep() allocates its buffer and maps it, frees the
// device copy, then passes it to use(), whose construct maps the same
// object again (a parameter there): the repeat is of one buffer, and its
// words stay those of the same buffer.
//
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -g %s -o %t
// RUN: %ompdp run -- %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// RUN: FileCheck %s --check-prefix=SAME < %t.out
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

template <typename T> static double test(int repeat) {
  T inp[N];
  for (int i = 0; i < N; ++i)
    inp[i] = (T)(i % 7);
  double s = 0;
#pragma omp target data map(to: inp[0:N])
  {
    for (int r = 0; r < repeat; ++r) {
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
      for (int i = 0; i < N; ++i)
        s += inp[i];
    }
  }
  return s;
}

static double use(const double *p) {
  double s = 0;
#pragma omp target teams distribute parallel for map(to: p[0:N]) map(tofrom: s) reduction(+: s)
  for (int i = 0; i < N; ++i)
    s += p[i];
  return s;
}

static double keep(void) {
  double *b = (double *)malloc(sizeof(double) * N);
  for (int i = 0; i < N; ++i)
    b[i] = i % 5;
  double s = 0;
#pragma omp target teams distribute parallel for map(to: b[0:N]) map(tofrom: s) reduction(+: s)
  for (int i = 0; i < N; ++i)
    s += 2 * b[i];
  s += use(b);
  free(b);
  return s;
}

int main(void) {
  double a = test<int>(2);
  double b = test<float>(2);
  double c = test<float>(2);
  printf("int %g\n", a);
  printf("float %g %g\n", b, c);
  printf("keep %g\n", keep());
  return 0;
}

// CHECK: int {{[0-9]+}}
// CHECK: float {{[0-9]+}} {{[0-9]+}}
// CHECK: repeated_alloc {{.*}}fresh_other_function.cpp:[[#]]:1 in test<float> count=2
// CHECK-NEXT: variable: inp clause: map(to: inp[0:N])
// CHECK-NEXT: first allocated at {{.*}}fresh_other_function.cpp:[[#]]:1 in test<int>
// CHECK-NEXT: verdict: advice
// CHECK-NEXT: suggestion: `inp` is a new host buffer each time (a variable of the function's own at each call; the stack may put one where the last one was), so mapping it allocates it on device 0 again too
// SAME: repeated_alloc {{.*}}fresh_other_function.cpp:[[#]]:1 in use count=1
// SAME-NEXT: variable: p clause: map(to: p[0:N])
// SAME: suggestion: the same host buffer is allocated and freed on device 0 each time it is mapped
