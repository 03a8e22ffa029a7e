//===- template-instances.cpp - one text, several instances -----------------===//
//
// A construct in a function template is one text for every instance, and
// each instance is a construct of its own that the run sees with its own
// types and values. `scale<float>` and `scale<double>` each copy in `wide`,
// every element `sizeof(T)`: single-value copies, but the values differ (4
// and 8) and so would the fills (and a fill written byte by byte for
// doubles overflows the float array: HeCBench's sosfil aborted so). Such a
// rewrite stands only where every instance got the same one: here none is
// made, and the finding says why. Positive cases: `ones`, every element 1
// in both instances (bytes 3f800000 and 3ff0000000000000), is filled with
// the literal `1`, which each instance converts to its own type: one text,
// the same fill in both (HeCBench sosfil's `zi`); `in`, mapped tofrom and
// only read, gets the same `to` in both instances (kept, its saving the sum
// of both); `once<double>`, instantiated once, gets its fill. Negative:
// `maybe<double>` never runs, so `maybe<float>`'s rewrite of `rd` (read
// only, mapped tofrom) is not made: the other instance might need the
// copy back. Applied, rebuilt, rerun: same output, copies removed as
// predicted, the template's fill of `wide` never written.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags prog.cpp -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.cpp
// RUN: FileCheck %s --check-prefix=NOFILL < %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags prog.cpp -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

template <typename T> static double scale(int n) {
  T *ones = (T *)malloc(n * sizeof(T)), *in = (T *)malloc(n * sizeof(T));
  T *out = (T *)malloc(n * sizeof(T)), *wide = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; ++i) {
    ones[i] = 1;
    wide[i] = sizeof(T);
    in[i] = (T)(i % 7);
  }
#pragma omp target teams distribute parallel for map(to: ones[0:n], wide[0:n]) map(tofrom: in[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = ones[i] * 2 + in[i] + wide[i];
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += out[i];
  return s; /* not freed: each instance's buffers at addresses of their own */
}

template <typename T> static double once(int n) {
  T *twos = (T *)malloc(n * sizeof(T)), *out = (T *)malloc(n * sizeof(T));
  for (int i = 0; i < n; ++i)
    twos[i] = 2;
#pragma omp target teams distribute parallel for map(to: twos[0:n]) map(from: out[0:n])
  for (int i = 0; i < n; ++i)
    out[i] = twos[i] + i;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += out[i];
  return s;
}

template <typename T> static double maybe(int n) {
  T *rd = (T *)malloc(n * sizeof(T));
  double s = 0;
  for (int i = 0; i < n; ++i)
    rd[i] = (T)(i % 3);
#pragma omp target teams distribute parallel for map(tofrom: rd[0:n]) reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += rd[i];
  return s;
}

int main(int argc, char **argv) {
  double a = scale<float>(4096), b = scale<double>(4096), c = once<double>(4096);
  double d = argc > 5 ? maybe<double>(4096) : maybe<float>(4096);
  printf("%g %g %g %g\n", a, b, c, d);
  return 0;
}

// REPORT-DAG: variable: wide  clause: map(to: ones[0:n], wide[0:n])
// REPORT-DAG: No rewrite: the construct is in a template that the program instantiates 2 times, each instance a construct of its own with its own types and values, and only one of them got this rewrite (its alloc_and_fill rewrite): one edit of the template's text changes every instance.
// REPORT-DAG: rewrite (change_map_type): map `in[0:n]` with `to` instead of `tofrom` at prog.cpp:[[#]]: the region only reads it  [saves {{.*}}: 2 transfers (48.0 KiB), 0 allocations]
// REPORT-DAG: variable: rd  clause: map(tofrom: rd[0:n])
// REPORT-DAG: No rewrite: the construct is in a template that the program instantiates 2 times, each instance a construct of its own with its own types and values, and only one of them got this rewrite (its change_map_type rewrite): one edit of the template's text changes every instance.
// REPORT-DAG: rewrite (alloc_and_fill): {{.*}}`twos[0:n]`{{.*}}

// APPLY: prog.cpp: {{[0-9]+}} edit(s) applied

// FIXED: {{^}}#pragma omp target enter data map(alloc: ones[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: ones[0:n]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  ones[ompdp_i] = 1;{{$}}
// FIXED: map(to: ones[0:n], wide[0:n]) map(to: in[0:n]) map(from: out[0:n])
// FIXED: {{^}}#pragma omp target enter data map(alloc: twos[0:n]){{$}}
// FIXED: map(tofrom: rd[0:n]) reduction
// NOFILL-NOT: wide{{[[]}}ompdp_i]
// NOFILL-NOT: {{[(][(]}}unsigned char *)

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 5, predicted 5)
// PROOF-DAG: gone: single_value_transfer of twos: yes
// PROOF-DAG: gone: single_value_transfer of ones: yes
