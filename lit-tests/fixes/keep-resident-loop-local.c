//===- keep-resident-loop-local.c - a variable the loop's body declares ---===//
//
// The first loop declares `d` in its body (minisweep's `Dimensions dims_b
// = sweeper.dims_b;` at the top of its step loop) and its kernel maps it
// (implicitly, tofrom): the stack puts each iteration's `d` at one address
// with the same bytes, so the run sees one buffer copied in unchanged,
// allocated again and copied back unchanged, which alone would call for
// `#pragma omp target data map(to: d)` before the loop, where `d` is not
// declared (the rewrite did not build). The plugin marks `d`
// loop-declared: no keep_resident rewrite takes it, and the kernel, which
// only reads it, gets it as `firstprivate` instead. The third loop
// computes the section's length `m` in its body: `a[0:m]` before the loop
// would not build either, so it stays advice, with that reason. Negative
// case: `e`, declared before the second loop, is kept resident there.
// Applied, rebuilt, rerun: same output. Under a sanitizer only the facts are
// checked (the stack of an instrumented build may move `d`).
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before | FileCheck %s --check-prefix=TABLE
// RUN: %if !sanitizer %{ cd %t && %ompdp run --format=json -o before.json -- ./before > before.out %}
// RUN: %if !sanitizer %{ cd %t && %ompdp report before.json > report.txt %}
// RUN: %if !sanitizer %{ FileCheck %s --check-prefix=NOKEEP < %t/report.txt %}
// RUN: %if !sanitizer %{ FileCheck %s --check-prefix=FP < %t/report.txt %}
// RUN: %if !sanitizer %{ FileCheck %s --check-prefix=KEEP < %t/report.txt %}
// RUN: %if !sanitizer %{ FileCheck %s --check-prefix=ADVICE < %t/report.txt %}
// RUN: %if !sanitizer %{ cd %t && %ompdp fix --apply before.json %}
// RUN: %if !sanitizer %{ FileCheck %s --check-prefix=FIXED < %t/prog.c %}
// RUN: %if !sanitizer %{ cd %t && %clang-ompdp prog.c -o after %}
// RUN: %if !sanitizer %{ cd %t && ./after > after.out %}
// RUN: %if !sanitizer %{ diff %t/before.out %t/after.out %}
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  int n;
  float scale;
  float pad[30];
} dims_t;

static dims_t global_dims = {1000, 2.0f, {0}};

int main(void) {
  int n = 1000;
  double s = 0, v = 0, w = 0;
  float *a = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    a[i] = i;
#pragma omp target data map(to: a[0:n])
  {
    for (int it = 0; it < 4; ++it) {
      dims_t d = global_dims;
#pragma omp target teams distribute parallel for reduction(+: s)
      for (int i = 0; i < d.n; ++i)
        s += a[i] * d.scale;
    }
    dims_t e = global_dims;
    for (int it = 0; it < 4; ++it) {
#pragma omp target teams distribute parallel for reduction(+: v)
      for (int i = 0; i < e.n; ++i)
        v += a[i] * e.scale;
    }
  }
  for (int it = 0; it < 4; ++it) {
    int m = n - it % 1;
#pragma omp target teams distribute parallel for map(to: a[0:m]) reduction(+: w)
    for (int i = 0; i < m; ++i)
      w += a[i];
  }
  free(a);
  printf("s=%g v=%g w=%g\n", s, v, w);
  return 0;
}

// TABLE:      item 1: tofrom 'd' {{.*}} automatic loop-declared
// TABLE:      item 1: tofrom 'e'
// TABLE-NOT:  loop-declared
// TABLE-SAME: automatic
// TABLE:      item 0: to 'a[0:m]' {{.*}} loop-declared

// The findings come in the order of their savings, which vary: one
// prefix each.
// NOKEEP-NOT: keep `d`
// NOKEEP-NOT: keep `a[0:m]`
// FP:         rewrite (firstprivate): pass `d` (128 bytes) to the kernel at prog.c:{{[0-9]+}} as `firstprivate(d)`
// KEEP:       rewrite (keep_resident): keep `e` and `v` on device 0 for the whole for loop at prog.c:{{[0-9]+}}
// ADVICE:     variable: a  clause: map(to: a[0:m])
// ADVICE:     verdict: advice
// ADVICE-NEXT: suggestion: {{.*}}No rewrite: the item as written names a variable that the loop declares

// FIXED:      for (int it = 0; it < 4; ++it) {
// FIXED-NEXT:   dims_t d = global_dims;
// FIXED-NEXT: #pragma omp target teams distribute parallel for reduction(+: s) firstprivate(d)
// FIXED:      dims_t e = global_dims;
// FIXED-NEXT: #pragma omp target data map(to: e) map(tofrom: v)
// FIXED-NEXT: for (int it = 0; it < 4; ++it) {
