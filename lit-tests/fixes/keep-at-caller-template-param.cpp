//===- keep-at-caller-template-param.cpp - names a caller cannot write ---===//
//
// Keeping data at the caller writes the construct's item with the call's
// arguments for the function's parameters; every other name in it is
// written as it is, so it must mean the same at the caller. A template's
// parameter (`x[0:N]` in scale<N>: in the instance it is a value, in the
// source a name the caller does not have) and an enumerator of the
// function's own enumeration (`y[0:n + PAD]`) do not: such an item is not
// params-only, and the finding says why (it used to be written at the
// caller, where `N` and `PAD` do not compile). An enumerator declared at
// file scope (`z[0:n + EXTRA]`) means the same at the caller: kept, applied,
// rebuilt, the same output, the copies removed as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags -g -fplugin-arg-ompdp-dump -c prog.cpp -o /dev/null | FileCheck %s --check-prefix=DUMP
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags -g prog.cpp -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags -g prog.cpp -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF

// DUMP: item 0: tofrom 'x[0:N]' var 'x' {{.*}} access read-write clause-bytes
// DUMP: item 0: tofrom 'y[0:n + PAD]' var 'y' {{.*}} access read-write section-end
// DUMP: item 0: tofrom 'z[0:n + EXTRA]' var 'z' {{.*}} access read-write params-only fn-host-unused

// REPORT-DAG: No rewrite: `x[0:N]` at prog.cpp:[[#]] names more than the parameters of scale<64> (a local, a member, a template's parameter or an enumerator of its own), so it cannot be written at the call.
// REPORT-DAG: No rewrite: `y[0:n + PAD]` at prog.cpp:[[#]] names more than the parameters of shift (a local, a member, a template's parameter or an enumerator of its own), so it cannot be written at the call.

// APPLY: prog.cpp: 2 edit(s) applied

// FIXED: {{^}}    shift(b, 64);
// FIXED-NEXT: {{^}}  #pragma omp target data map(tofrom: c[0:64 + EXTRA]){{$}}
// FIXED-NEXT: {{^}}  for (int s = 0; s < 4; ++s)
// FIXED-NEXT: {{^}}    lift(c, 64);

// PROOF: transfers: 24 -> 18 (removed 6, predicted 6)
// PROOF-NEXT: allocs: 12 -> 9 (removed 3, predicted 3)
// PROOF: OK

#include <cstdio>
#include <cstdlib>

template <int N> static void scale(float *x) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:N])
  for (int i = 0; i < N; ++i)
    x[i] = 0.5f * x[i] + 1.0f;
}

static void shift(float *y, int n) {
  enum { PAD = 2 };
#pragma omp target teams distribute parallel for map(tofrom: y[0:n + PAD])
  for (int i = 0; i < n; ++i)
    y[i] += 1.0f;
}

enum { EXTRA = 1 };
static void lift(float *z, int n) {
#pragma omp target teams distribute parallel for map(tofrom: z[0:n + EXTRA])
  for (int i = 0; i < n; ++i)
    z[i] *= 2.0f;
}

int main() {
  float *a = (float *)malloc(66 * sizeof(float)), *b = (float *)malloc(66 * sizeof(float)),
        *c = (float *)malloc(66 * sizeof(float));
  for (int i = 0; i < 66; ++i)
    a[i] = b[i] = c[i] = (float)(i % 5);
  for (int s = 0; s < 4; ++s)
    scale<64>(a);
  for (int s = 0; s < 4; ++s)
    shift(b, 64);
  for (int s = 0; s < 4; ++s)
    lift(c, 64);
  std::printf("%.3f %.3f %.3f\n", a[1], b[63], c[2]);
  free(a);
  free(b);
  free(c);
  return 0;
}
