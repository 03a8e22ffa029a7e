//===- section_end.c - array sections longer than the region's loops -------===//
//
// The end index written where the length belongs: `map(a[lo : hi])` moves
// hi elements from a + lo where the loop `for (i = lo; i < hi; ++i)` uses
// hi - lo. The plugin bounds every use of the item in the region by the
// loops (`section-end`, with the constants around the bounds: `used [lb +
// k, len + m)`), the run gives lo (the kernel's begin pointer minus its
// base), and each copy of such a section is an overbroad map of the
// (lo + k - m) * element size bytes nobody uses:
//   a, b  `x[lo : hi]` with `for (i = lo; i < hi; ++i)`;
//   in    a stencil `in[lo - 1 : hi + 1]` reading in[i - 1] .. in[i + 1];
//   w     `<=`: `for (i = lo; i <= hi; ++i)` over `w[lo : hi + 1]`.
//   t     the loop of a `parallel for` nested in the `target` region;
//   G     a global array, its region calling nothing.
// Negative cases, no finding: z (the same shape, lower bound 0 at run
// time); h (a construct nested in the region names it in a clause); H (a
// global array whose region calls a function, which could name it); g (a well-formed section `g[lo : hi - lo]`); s (read as s[2 * i]);
// c (passed to a function in the region); j (read as j[k], k no loop's
// variable); p (read through another pointer into it from outside the
// region); m (a loop bound, m, that is not the section's); e and u (a
// section of `target enter data` and `target update`, whose mapping serves
// other constructs: no fact at all).
//
// REQUIRES: plugin
// RUN: rm -f %t.json && %clang-ompdp %s -o %t
// RUN: %clang-ompdp -fplugin-arg-ompdp-dump -c %s -o /dev/null > %t.table
// RUN: FileCheck %s --check-prefix=TABLE < %t.table
// RUN: FileCheck %s --check-prefix=NOTABLE < %t.table
// RUN: %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %ompdp report %t.json > %t.report
// RUN: grep -B1 -A3 'variable: a  clause: map(tofrom: a\[' %t.report | FileCheck %s --check-prefix=A
// RUN: grep -B1 -A3 'variable: b  clause: map(to: b\[' %t.report | FileCheck %s --check-prefix=B
// RUN: grep -B1 -A3 'variable: in  clause: map(to: in\[' %t.report | FileCheck %s --check-prefix=IN
// RUN: grep -B1 -A3 'variable: w  clause: map(tofrom: w\[' %t.report | FileCheck %s --check-prefix=W
// RUN: grep -B1 -A3 'variable: t  clause: map(tofrom: t\[' %t.report | FileCheck %s --check-prefix=T
// RUN: grep -B1 -A3 'variable: G  clause: map(tofrom: G\[' %t.report | FileCheck %s --check-prefix=GL
// RUN: %ompdp report %t.json | grep -A1 '^overbroad_map' > %t.over
// RUN: FileCheck %s --check-prefix=NOTOVER < %t.over
// RUN: %python %S/Inputs/section_bytes.py %t.json | FileCheck %s --check-prefix=JSON
// RUN: %ompdp report --format=sarif %t.json | FileCheck %s --check-prefix=SARIF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024

static void scale(double *a, const double *b, int lo, int hi) {
#pragma omp target teams distribute parallel for map(tofrom: a[lo : hi]) map(to: b[lo : hi])
  for (int i = lo; i < hi; ++i)
    a[i] = a[i] * 2 + b[i];
}

static void smooth(double *out, const double *in, int lo, int hi) {
#pragma omp target teams distribute parallel for map(from: out[lo : hi - lo]) map(to: in[lo - 1 : hi + 1])
  for (int i = lo; i < hi; ++i)
    out[i] = (in[i - 1] + in[i] + in[i + 1]) / 3;
}

static void upto(double *w, int lo, int hi) {
#pragma omp target map(tofrom: w[lo : hi + 1])
  for (int i = lo; i <= hi; i++)
    w[i] += 1;
}

static void zero_lo(double *z, int lo, int hi) {
#pragma omp target teams distribute parallel for map(tofrom: z[lo : hi])
  for (int i = lo; i < hi; ++i)
    z[i] += 2;
}

/* A construct nested in the region: t's loop is a `parallel for` inside
 * `target`; h's names it in a clause of its own (negative). */
static void nested(double *t, double *h, int lo, int hi) {
#pragma omp target map(tofrom: t[lo : hi])
  {
#pragma omp parallel for
    for (int i = lo; i < hi; ++i)
      t[i] += 1;
  }
#pragma omp target map(tofrom: h[lo : hi])
  {
#pragma omp parallel for firstprivate(h)
    for (int i = lo; i < hi; ++i)
      h[i] += 1;
  }
}

static double touch(const double *c, int i) { return c[i]; }

/* Global arrays: G's region calls nothing, H's calls a function, which
 * could name H itself (negative). */
static double G[2 * N], H[2 * N];
#pragma omp declare target
static double twice(double v) { return 2 * v; }
#pragma omp end declare target

static void globals(int lo, int hi) {
#pragma omp target teams distribute parallel for map(tofrom: G[lo : hi])
  for (int i = lo; i < hi; ++i)
    G[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom: H[lo : hi])
  for (int i = lo; i < hi; ++i)
    H[i] = twice(H[i]);
}

static void negatives(double *g, double *s, double *c, double *j, double *p, double *m,
                      int lo, int hi, int k, int mm) {
#pragma omp target teams distribute parallel for map(tofrom: g[lo : hi - lo])
  for (int i = lo; i < hi; ++i)
    g[i] += 1;
#pragma omp target teams distribute parallel for map(tofrom: s[lo : hi])
  for (int i = lo; i < hi; ++i)
    s[i / 2 * 2] += 1;
#pragma omp target teams distribute parallel for map(to: c[lo : hi]) map(tofrom: m[lo : hi - lo])
  for (int i = lo; i < hi; ++i)
    m[i] += touch(c, i);
#pragma omp target teams distribute parallel for map(to: j[lo : hi]) map(tofrom: m[lo : hi - lo])
  for (int i = lo; i < hi; ++i)
    m[i] += j[k] + j[i];
  double *q = p + lo;
#pragma omp target teams distribute parallel for map(to: p[lo : hi]) map(tofrom: m[lo : hi - lo])
  for (int i = lo; i < hi; ++i)
    m[i] += q[i - lo] + p[i];
#pragma omp target teams distribute parallel for map(tofrom: m[lo : hi])
  for (int i = lo; i < mm; ++i)
    m[i] += 1;
}

int main(void) {
  double *a = calloc(2 * N, sizeof(double)), *b = calloc(2 * N, sizeof(double));
  double *in = calloc(2 * N, sizeof(double)), *out = calloc(2 * N, sizeof(double));
  double *w = calloc(2 * N, sizeof(double)), *z = calloc(2 * N, sizeof(double));
  double *g = calloc(2 * N, sizeof(double)), *s = calloc(2 * N, sizeof(double));
  double *c = calloc(2 * N, sizeof(double)), *j = calloc(2 * N, sizeof(double));
  double *p = calloc(2 * N, sizeof(double)), *m = calloc(2 * N, sizeof(double));
  double *e = calloc(2 * N, sizeof(double)), *u = calloc(2 * N, sizeof(double));
  double *t = calloc(2 * N, sizeof(double)), *h = calloc(2 * N, sizeof(double));
  for (int i = 0; i < 2 * N; ++i)
    a[i] = i % 5, b[i] = i % 3, in[i] = i % 7, w[i] = i % 4, t[i] = h[i] = i % 6, e[i] = u[i] = 1;
  scale(a, b, N / 2, N);
  smooth(out, in, N / 4, N);
  upto(w, N / 8, N - 1);
  zero_lo(z, 0, N);
  nested(t, h, N / 4, N);
  for (int i = 0; i < 2 * N; ++i)
    G[i] = H[i] = i % 5 + 1;
  globals(N / 2, N);
  negatives(g, s, c, j, p, m, N / 2, N, 3, N / 2 + 8);
#pragma omp target enter data map(to: e[N / 2 : N])
#pragma omp target update to(u[N / 2 : N])
#pragma omp target exit data map(delete: e[N / 2 : N])
  double sum = 0;
  for (int i = 0; i < 2 * N; ++i)
    sum += a[i] + out[i] + w[i] + z[i] + g[i] + s[i] + m[i] + t[i] + h[i] + G[i] + H[i];
  printf("sum %.2f\n", sum);
  return 0;
}

// TABLE: tofrom 'a[lo : hi]' {{.*}} section-end {{.*}} used [lb + 0, len + 0) of [lo:hi] x8
// TABLE: to 'b[lo : hi]' {{.*}} section-end {{.*}} used [lb + 0, len + 0) of [lo:hi] x8
// TABLE: to 'in[lo - 1 : hi + 1]' {{.*}} section-end {{.*}} used [lb + 0, len + 0) of [lo - 1:hi + 1] x8
// TABLE: tofrom 'w[lo : hi + 1]' {{.*}} section-end {{.*}} used [lb + 0, len + 0) of [lo:hi + 1] x8
// TABLE: tofrom 'z[lo : hi]' {{.*}} section-end
// TABLE: tofrom 't[lo : hi]' {{.*}} section-end {{.*}} used [lb + 0, len + 0) of [lo:hi] x8
// TABLE: tofrom 'G[lo : hi]' {{.*}} section-end {{.*}} used [lb + 0, len + 0) of [lo:hi] x8
// NOTABLE-NOT: '{{[gscjpmeuohH]|out}}[{{.*}}section-end

// OUT: sum

// A:      overbroad_map  {{.*}}section_end.c:{{[0-9]+}}:1 in scale  count=2 bytes=8.0 KiB
// A-NEXT:     variable: a  clause: map(tofrom: a[lo : hi])
// A-NEXT:     verdict: fix
// A-NEXT:     suggestion: the region uses only the elements from lo up to hi (excluded) of `a[lo : hi]` (its loops run between the section's bounds: the end index was written where the length belongs), yet each copy to and from device 0 moves the whole section: map `a[lo : hi - lo]`
// A-NEXT:     rewrite (shrink_section): map `a[lo : hi - lo]` instead of `a[lo : hi]` at section_end.c:{{[0-9]+}}: the region's loops use only those elements  [saves {{.*}}: 0 transfers (8.0 KiB), 0 allocations]

// B:      overbroad_map  {{.*}}section_end.c:{{[0-9]+}}:1 in scale  count=1 bytes=4.0 KiB
// B-NEXT:     variable: b  clause: map(to: b[lo : hi])
// B:          rewrite (shrink_section): map `b[lo : hi - lo]` instead of `b[lo : hi]`

// IN:      overbroad_map  {{.*}}section_end.c:{{[0-9]+}}:1 in smooth  count=1 bytes={{.*}}
// IN-NEXT:     variable: in  clause: map(to: in[lo - 1 : hi + 1])
// IN:          suggestion: the region uses only the elements from lo - 1 up to hi + 1 (excluded) of `in[lo - 1 : hi + 1]` {{.*}}: map `in[lo - 1 : hi + 1 - (lo - 1)]`

// W:      overbroad_map  {{.*}}section_end.c:{{[0-9]+}}:1 in upto  count=2 bytes=2.0 KiB
// W-NEXT:     variable: w  clause: map(tofrom: w[lo : hi + 1])
// W:          rewrite (shrink_section): map `w[lo : hi + 1 - lo]` instead of `w[lo : hi + 1]`

// GL:      overbroad_map  {{.*}} in globals  count=2 bytes=8.0 KiB
// GL:          rewrite (shrink_section): map `G[lo : hi - lo]` instead of `G[lo : hi]`

// T:      overbroad_map  {{.*}} in nested  count=2 bytes=4.0 KiB
// T:          rewrite (shrink_section): map `t[lo : hi - lo]` instead of `t[lo : hi]`

// NOTOVER-NOT: variable: {{[zgscjpmeuhH]|out}}{{ }}

// JSON: G: 2 transfers, 8192 bytes, 8192 predicted, shrink_section
// JSON: a: 2 transfers, 8192 bytes, 8192 predicted, shrink_section
// JSON: b: 1 transfers, 4096 bytes, 4096 predicted, shrink_section
// JSON: in: 1 transfers, 2040 bytes, 2040 predicted, shrink_section
// JSON: t: 2 transfers, 4096 bytes, 4096 predicted, shrink_section
// JSON: w: 2 transfers, 2048 bytes, 2048 predicted, shrink_section

// SARIF: {"description": {"text": "map `a[lo : hi - lo]` instead of `a[lo : hi]` at section_end.c:{{[0-9]+}}: the region's loops use only those elements {{.*}}"replacements": [{"deletedRegion": {"startLine": [[L:[0-9]+]], "startColumn": 62, "endLine": [[L]], "endColumn": 72}, "insertedContent": {"text": "a[lo : hi - lo]"}}]}], "properties": {"kind": "shrink_section", {{.*}}"transfers_removed": 0, "allocs_removed": 0, "bytes_removed": 8192}}
