//===- fill-address-reuse.c - a fill where other buffers had the address ===//
//
// `ones` is filled with 1.0f, sent by a `target data`, and freed; the next
// function allocates `other` of the same size, which malloc puts at the
// same address, and sends it with a `target data` of its own (HeCBench
// relu's `h_gradient` then `h_in`, sosfil's two template instances). The
// run sees other constructs use that host address, but every execution of
// `ones`'s construct allocated its item (the run counts the construct's
// executions: 1, and 1 allocation), so it never found anyone's data
// present: its single-value copy gets the fill (`target enter data`, the
// fill, the construct, `target exit data`). Not so `k`: `use` maps it once
// fresh and once inside main's `target enter data` of it (present: an
// execution without an allocation of its own), where a fill before the
// construct would overwrite the device's copy that enter data sent: no
// fill there, and the finding says why (main's `target enter data` of `k`
// gets its own fill, after it). Applied, rebuilt, rerun: same output.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json > before.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/before.txt
// RUN: cd %t && %ompdp fix --apply before.json
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 64 /* small: malloc gives the freed block back at once */

static double run_ones(void) {
  float *ones = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    ones[i] = 1.0f;
  double s = 0;
#pragma omp target data map(to: ones[0:N])
  {
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += ones[i] * (i % 7);
  }
  free(ones);
  return s;
}

static double run_other(void) {
  float *other = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    other[i] = i % 3;
  double s = 0;
#pragma omp target data map(to: other[0:N])
  {
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += other[i];
  }
  free(other);
  return s;
}

static double use(float *k) {
  double s = 0;
#pragma omp target data map(to: k[0:N])
  {
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += k[i];
  }
  return s;
}

int main(void) {
  double a = run_ones();
  double b = run_other();
  float *k = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    k[i] = 2.0f;
  double c = use(k);
#pragma omp target enter data map(to: k[0:N])
  double d = use(k);
#pragma omp target exit data map(release: k[0:N])
  printf("%g %g %g %g\n", a, b, c, d);
  free(k);
  return 0;
}

// REPORT: single_value_transfer
// REPORT-DAG: rewrite (alloc_and_fill): allocate `ones[0:N]` and fill it with the bytes `00 00 80 3f` repeated on the device before the target data construct
// REPORT-DAG: No rewrite: other constructs use the buffer while this construct has not mapped it, so a fill before the construct could find their data present and overwrite it.

// (That the test needs the rule: with it off, `ones` gets no fill.)
// FIXED: {{^}}#pragma omp target enter data map(alloc: ones[0:N]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: ones[0:N]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (N); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  ones[ompdp_i] = 1;{{$}}
// FIXED: {{^}}static double use(float *k) {{{$}}
// FIXED-NEXT: {{^}}  double s = 0;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target data map(to: k[0:N]){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed [[T:[0-9]+]], predicted [[T]])
// PROOF-DAG: gone: single_value_transfer of ones: yes
// PROOF: OK
