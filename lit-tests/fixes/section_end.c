//===- section_end.c - array sections shortened to what their loops use ----===//
//
// Sections whose length was written as an end index (`x[lo : hi]` for a
// loop from lo to hi) move elements the region never touches; the rewrite
// writes the length the loops use, the compiler's constants folded in:
//   a  `a[lo : hi]`, tofrom               -> `a[lo : hi - lo]`;
//   in `in[lo - 1 : hi + 1]`, a stencil    -> `in[lo - 1 : hi + 1 - (lo - 1)]`;
//   w  `w[first : last + 1]`, `<=`         -> `w[first : last + 1 - first]`;
//   v  `v[n / 4 : n]`, a bound with operators, in main's own construct
//                                          -> `v[n / 4 : n - n / 4]`;
//   k  chunks of a loop, `k[lo : hi]`, the first from 0 (no element spare
//      there, the same section after the rewrite) -> `k[lo : hi - lo]`.
// Negative case, a finding without a rewrite: r, whose loop ran no time
// at one of its executions (the shorter section would have no element:
// the run did not show it right at every execution). Applied, rebuilt and rerun: the same output,
// the same transfers, the bytes dropped by exactly what the rewrites
// predicted, their findings gone.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=before.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix --bytes %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1000

static void scale(double *a, int lo, int hi) {
#pragma omp target teams distribute parallel for map(tofrom: a[lo : hi])
  for (int i = lo; i < hi; ++i)
    a[i] = a[i] * 2 + 1;
}

static void smooth(double *out, const double *in, int lo, int hi) {
#pragma omp target teams distribute parallel for map(from: out[lo : hi - lo]) map(to: in[lo - 1 : hi + 1])
  for (int i = lo; i < hi; ++i)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
}

static void upto(double *w, int first, int last) {
#pragma omp target map(tofrom: w[first : last + 1])
  for (int i = first; i <= last; i++)
    w[i] += i;
}

static void rows(double *r, int lo, int hi) {
#pragma omp target teams distribute parallel for map(tofrom: r[lo : hi])
  for (int i = lo; i < hi; ++i)
    r[i] -= 1;
}

static void chunk(double *k, int lo, int hi) {
#pragma omp target teams distribute parallel for map(tofrom: k[lo : hi])
  for (int i = lo; i < hi; ++i)
    k[i] = k[i] * 3 - i;
}

int main(void) {
  int n = N;
  double *a = calloc(2 * N, sizeof(double)), *in = calloc(2 * N, sizeof(double));
  double *out = calloc(2 * N, sizeof(double)), *w = calloc(2 * N, sizeof(double));
  double *v = calloc(2 * N, sizeof(double)), *r = calloc(2 * N, sizeof(double));
  double *k = calloc(2 * N, sizeof(double));
  for (int i = 0; i < 2 * N; ++i)
    a[i] = i % 5, in[i] = i % 7, v[i] = i % 3, r[i] = i % 2, w[i] = i % 4, k[i] = i % 9;
  scale(a, N / 2, N);
  smooth(out, in, N / 4, N);
  upto(w, N / 8, N - 1);
  rows(r, N / 2, N);
  rows(r, N / 2, N / 2);
  for (int c = 0; c < 4; ++c)
    chunk(k, c * N / 4, (c + 1) * N / 4);
#pragma omp target teams distribute parallel for map(tofrom: v[n / 4 : n])
  for (int i = n / 4; i < n; ++i)
    v[i] *= 3;
  double sum = 0;
  for (int i = 0; i < 2 * N; ++i)
    sum += a[i] * 1 + out[i] * 3 + w[i] * 5 + v[i] * 7 + r[i] * 11 + k[i] * 13;
  printf("sum %.3f\n", sum);
  return 0;
}

// REPORT-DAG: rewrite (shrink_section): map `a[lo : hi - lo]` instead of `a[lo : hi]` at prog.c:{{[0-9]+}}: the region's loops use only those elements  [saves {{.*}}: 0 transfers (7.8 KiB), 0 allocations]
// REPORT-DAG: rewrite (shrink_section): map `in[lo - 1 : hi + 1 - (lo - 1)]` instead of `in[lo - 1 : hi + 1]` at prog.c:{{[0-9]+}}
// REPORT-DAG: rewrite (shrink_section): map `w[first : last + 1 - first]` instead of `w[first : last + 1]` at prog.c:{{[0-9]+}}
// REPORT-DAG: rewrite (shrink_section): map `v[n / 4 : n - n / 4]` instead of `v[n / 4 : n]`
// REPORT-DAG: rewrite (shrink_section): map `k[lo : hi - lo]` instead of `k[lo : hi]`
// REPORT-DAG: No rewrite: at some copies of the section in the run the shorter section would not have held the elements its loops use (they ran no time, or past the section's end), so the run did not show it right at every execution

// DIAG-DAG: prog.c:{{[0-9]+}}:{{[0-9]+}}: warning: overbroad map: 'a' in map(tofrom: a[lo : hi]) moves elements of the section that the region's loops never touch, 2 times
// DIAG-DAG: fix-it:"prog.c":{{{[0-9]+}}:62-{{[0-9]+}}:72}:"a[lo : hi - lo]"

// APPLY: prog.c: 5 edit(s) applied

// FIXED: map(tofrom: a[lo : hi - lo])
// FIXED: map(to: in[lo - 1 : hi + 1 - (lo - 1)])
// FIXED: map(tofrom: w[first : last + 1 - first])
// FIXED: map(tofrom: r[lo : hi])
// FIXED: map(tofrom: k[lo : hi - lo])
// FIXED: map(tofrom: v[n / 4 : n - n / 4])

// PROOF: rewrites: 5 for 5 finding(s)
// PROOF: transfers: [[T:[0-9]+]] -> [[T]] (removed 0, predicted 0)
// PROOF: bytes: {{[0-9]+}} -> {{[0-9]+}} (removed [[B:[0-9]+]], predicted [[B]])
// PROOF: OK

// AFTER-NOT: shrink_section
