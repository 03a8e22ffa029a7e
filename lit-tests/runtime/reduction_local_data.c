//===- reduction_local_data.c - a reduction's result mapped by target data ===//
//
// `energy` and `peak` are locals of `sum_local`, mapped `tofrom` by its
// `target data`, and the kernel of its body reduces into them (HeCBench
// ccsd-trpdrv's `emp4i` ... `emp5k`): each call of the function has its
// own, and each execution needs them on the device and their results back.
// Their repeated allocation (the stack puts them at one address at every
// call) is necessary, not advice to allocate them once before the calls:
// no caller can hold a callee's locals. The region table marks them
// `reduction` on the `target data` too (3.13), not only on the kernel.
// Negative: `total`, a file-scope variable that `sum_global`'s `target
// data` maps for the same kind of kernel, is one variable, and its
// repeated allocation stays a saving (advice); a local the body's kernel
// only reads (`scale`) is no reduction.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g -fplugin-arg-ompdp-dump %s -o %t > %t.table
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// RUN: %ompdp run -- %t > %t.out 2>&1
// RUN: FileCheck %s < %t.out
// One line per finding (equal savings come in either order):
// RUN: awk '/^[a-z_]+  /{if (f) print f; f = $0; next} /^    /{f = f " |" $0; next} {if (f) print f; f = ""}' %t.out | FileCheck %s --check-prefix=FINDING
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

static float total;

static void sum_local(const float *x, float *out) {
  float energy = 0.f, peak = 0.f, scale = 2.f;
#pragma omp target data map(to: x[0:N], scale) map(tofrom: energy, peak)
  {
#pragma omp target teams distribute parallel for reduction(+: energy) reduction(max: peak)
    for (int i = 0; i < N; ++i) {
      energy += scale * x[i];
      peak = peak > x[i] ? peak : x[i];
    }
  }
  *out = energy + peak;
}

static void sum_global(const float *x, float *out) {
  total = 0.f;
#pragma omp target data map(to: x[0:N]) map(tofrom: total)
  {
#pragma omp target teams distribute parallel for reduction(+: total)
    for (int i = 0; i < N; ++i)
      total += x[i];
  }
  *out = total;
}

/* No loop here: the calls repeat in main's. */
static float step(const float *x) {
  float a, b;
  sum_local(x, &a);
  sum_global(x, &b);
  return a + b;
}

int main(void) {
  static float x[N];
  for (int i = 0; i < N; ++i)
    x[i] = 1.f;
  float s = 0;
  for (int k = 0; k < 3; ++k)
    s += step(x);
  printf("s=%g\n", s);
  return 0;
}

// TABLE: 'target data' at {{.*}}reduction_local_data.c:32:1 in 'sum_local'
// TABLE: to 'scale' {{.*}} access read automatic body-host-reads
// TABLE: tofrom 'energy' {{.*}} access read-write automatic reduction body-host-reads
// TABLE: tofrom 'peak' {{.*}} access read-write automatic reduction body-host-reads
// TABLE: 'target data' at {{.*}}reduction_local_data.c:45:1 in 'sum_global'
// TABLE: tofrom 'total' {{.*}} access read-write reduction

// CHECK: s=9219

// FINDING-DAG: repeated_alloc {{.*}}reduction_local_data.c:32:1 in sum_local count=2 bytes=8 B {{.*}}| variable: scale {{.*}}| verdict: advice
// FINDING-DAG: repeated_alloc {{.*}}reduction_local_data.c:45:1 in sum_global count=2 bytes=8 B {{.*}}| variable: total {{.*}}| verdict: advice
// FINDING-DAG: repeated_alloc {{.*}}reduction_local_data.c:32:1 in sum_local count=2 bytes=8 B {{.*}}| variable: energy {{.*}}| verdict: necessary (not counted as a saving) | suggestion: no saving: energy is the kernel's reduction variable and a local of its function
// FINDING-DAG: repeated_alloc {{.*}}reduction_local_data.c:32:1 in sum_local count=2 bytes=8 B {{.*}}| variable: peak {{.*}}| verdict: necessary (not counted as a saving) | suggestion: no saving: peak is the kernel's reduction variable and a local of its function
