//===- reduction_local.c - a kernel's local reduction variable ------------===//
//
// `energy` is the reduction variable of the kernel in `sum_local`, a local
// of that function, which main calls in a loop (metropolis'
// kernel_redenergy): each call has its own, and each launch allocates it on
// the device and brings its result back. The repeated allocation that the
// stack's reuse of one address shows is necessary, not advice to allocate
// it once. The negative case: `total`, a file-scope reduction variable of
// `sum_global`, is one variable, and its repeated allocation keeps the
// advice. The region table marks reduction items.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g -fplugin-arg-ompdp-dump %s -o %t > %t.table
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

static float total;

static float sum_local(const float *x) {
  float energy = 0.f;
#pragma omp target teams distribute parallel for map(to: x[0:N]) reduction(+: energy)
  for (int i = 0; i < N; ++i)
    energy += x[i];
  return energy;
}

static float sum_global(const float *x) {
  total = 0.f;
#pragma omp target teams distribute parallel for map(to: x[0:N]) reduction(+: total)
  for (int i = 0; i < N; ++i)
    total += x[i];
  return total;
}

int main(void) {
  static float x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 1.f;
  float s = 0;
  for (int k = 0; k < 3; ++k)
    s += sum_local(x) + sum_global(x);
  printf("s=%g\n", s);
  return 0;
}

// TABLE: implicit map(tofrom: energy)' {{.*}} automatic reduction
// TABLE: implicit map(tofrom: total)' {{.*}}access {{[a-z-]+}} reduction

// CHECK: s=6144
// CHECK: repeated_alloc {{.*}}reduction_local.c:33:1 in sum_global count=2 bytes=8 B
// CHECK-NEXT: variable: total
// CHECK-NEXT: first allocated
// CHECK-NEXT: verdict: advice
// CHECK: repeated_alloc {{.*}}reduction_local.c:25:1 in sum_local count=2 bytes=8 B
// CHECK-NEXT: variable: energy
// CHECK-NEXT: first allocated
// CHECK-NEXT: verdict: necessary (not counted as a saving)
// CHECK-NEXT: suggestion: no saving: energy is the kernel's reduction variable and a local of its function, so each call has its own, and each launch needs it on the device and its result back; the device memory a reduction uses is the runtime's to reuse
