//===- writes_first.c - copies in that a kernel overwrites before reading ---===//
//
// Output arrays mapped `to` or `tofrom` whose copy in nothing reads: the
// kernel writes every element before it reads any. The plugin proves it
// (`writes-first`) and the copies in are overbroad maps with a rewrite:
//   b  (`target`, tofrom): `b[i] = 0` first, then accumulated: `from`;
//   t  (`target`, to): a scratch array written, then read, in each
//      iteration: `alloc`;
//   e  (`target data`, tofrom): the region's first kernel to use it writes
//      it first: `from`;
//   g  (`target data`, to): first used by a kernel in a loop (which may
//      run no time), and by nothing after the loop: `alloc`;
//   z  (`target`, tofrom): written first, then an `atomic` (a directive
//      whose statement is not captured), then updated: `from`.
// Negative cases, no finding: c (read before it is written), h (the loop
// covers `m` elements of an `n`-element section: the compiler cannot bound
// it to the whole), s (written first, but a reduction combines with its
// value), d (`target data`, first used in a loop, then read by a kernel
// after it: the loop may not have run), q (`target data`, its section's
// length changes before the kernel), u (`tofrom` of `target data`, first
// written in a loop: a copy back after a loop that did not run would bring
// uninitialised memory), w (`target update from` before the kernel reads
// it). Applied, rebuilt and rerun: same output, the findings gone, the
// copies in removed as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before > table.txt
// RUN: FileCheck %s --check-prefix=TABLE < %t/table.txt
// RUN: FileCheck %s --check-prefix=NOTABLE < %t/table.txt
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before 3 > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | grep -A1 '^overbroad_map' > over.txt
// RUN: FileCheck %s --check-prefix=NOTOVER < %t/over.txt
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=before.json 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after 3 > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 2048

static double *vec(int n, double v) {
  double *p = malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i)
    p[i] = v + i % 7;
  return p;
}

int main(int argc, char **argv) {
  int n = N, m = N / 2, reps = argc > 1 ? atoi(argv[1]) : 2;
  double *a = vec(n, 1), *b = vec(n, 2), *c = vec(n, 3), *t = vec(n, 4), *h = vec(n, 5);
  double *d = vec(n, 6), *e = vec(n, 7), *g = vec(n, 8), *q = vec(n, 9), *u = vec(n, 10);
  double *w = vec(n, 11), *o = vec(n, 0), *z = vec(n, 12);
  double s = 5;
#pragma omp target teams distribute parallel for map(to: a[0:n]) map(tofrom: b[0:n], c[0:n]) map(to: t[0:n]) map(tofrom: o[0:n])
  for (int i = 0; i < n; ++i) {
    b[i] = 0;
    for (int k = 0; k < 4; ++k)
      b[i] += a[i] * k;
    c[i] = c[i] + 1;
    t[i] = a[i] * 3;
    o[i] += t[i];
  }
#pragma omp target teams distribute parallel for map(to: a[0:n]) map(tofrom: h[0:n])
  for (int i = 0; i < m; ++i) {
    h[i] = a[i];
    h[i] *= 2;
  }
  int hits = 0;
#pragma omp target teams distribute parallel for map(tofrom: z[0:n], hits)
  for (int i = 0; i < n; ++i) {
    z[i] = i;
#pragma omp atomic
    hits += 1;
    z[i] += hits > 0;
  }
#pragma omp target parallel num_threads(1) map(tofrom: s) reduction(+: s)
  {
    s = 1;
    s += 2;
  }
#pragma omp target data map(to: a[0:n], d[0:n], g[0:n]) map(tofrom: e[0:n], u[0:n])
  {
    for (int r = 0; r < reps; ++r) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i) {
        d[i] = a[i] * r;
        g[i] = a[i] + r;
        d[i] += g[i];
        u[i] = r;
      }
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i) {
      e[i] = a[i] + 3;
      a[i] = e[i] * 2 + d[i];
    }
  }
  int len = n;
#pragma omp target data map(tofrom: q[0:len]) map(to: w[0:n])
  {
    len = m;
#pragma omp target update from(w[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < len; ++i)
      q[i] = w[i] = i;
  }
  printf("b=%g c=%g o=%g h=%g s=%g a=%g e=%g u=%g q=%g w=%g z=%g hits=%d\n", b[n - 1], c[n - 1],
         o[n - 1], h[n - 1], s, a[n - 1], e[n - 1], u[n - 1], q[n - 1], w[0], z[n - 1], hits);
  return 0;
}

// TABLE: tofrom 'b[0:n]' {{.*}} access read-write {{.*}}writes-first
// TABLE: to 't[0:n]' {{.*}} access read-write {{.*}}writes-first
// TABLE: tofrom 'z[0:n]' {{.*}} access read-write {{.*}}writes-first
// TABLE: to 'g[0:n]' {{.*}}writes-first
// TABLE: tofrom 'e[0:n]' {{.*}}writes-first
// NOTABLE-NOT: '{{[chsdquw]}}{{(\[0:[a-z]+\])?}}' {{.*}}writes-first

// REPORT-DAG: variable: b  clause: map(tofrom: b[0:n], c[0:n])
// REPORT-DAG: suggestion: the region writes every element of b before reading any (the compiler proved it), so nothing reads what the copies in to device 0 send: map it with `map(from: b)`
// REPORT-DAG: rewrite (change_map_type): map `b[0:n]` with `from` instead of `tofrom` at prog.c:[[#]]: the region writes every element before reading any, so nothing reads what the copy in sends (the compiler proved it); and map `t[0:n]` with `alloc` instead of `to` at {{.*}}  [saves {{.*}}: 2 transfers (32.0 KiB), 0 allocations]
// REPORT-DAG: rewrite (change_map_type): map `g[0:n]` with `alloc` instead of `to` at prog.c:[[#]]: the first kernel of the region to use it writes every element before reading any, so nothing reads what the copy in sends (the compiler proved it); and map `e[0:n]` with `from` instead of `tofrom` at {{.*}}  [saves {{.*}}: 2 transfers (32.0 KiB), 0 allocations]
// REPORT-DAG: suggestion: the region writes every element of t before reading any {{.*}}: map it with `map(alloc: t)`
// REPORT-DAG: suggestion: the first kernel of the `target data` region to use it writes every element of e before reading any {{.*}}: map it with `map(from: e)`
// REPORT-DAG: suggestion: the first kernel of the `target data` region to use it writes every element of g before reading any {{.*}}: map it with `map(alloc: g)`

// NOTOVER-NOT: variable: {{[chsdquwo]}}{{ }}

// DIAG-DAG: warning: overbroad map: 'b' in map(tofrom: b[0:n], c[0:n]) copies in data a kernel overwrites before reading, once [-Wompdp-overbroad-map]
// DIAG-DAG: warning: overbroad map: 't' in map(to: t[0:n]) copies in data a kernel overwrites before reading, once [-Wompdp-overbroad-map]
// DIAG-DAG: warning: overbroad map: 'e' in map(tofrom: e[0:n], u[0:n]) copies in data a kernel overwrites before reading, once [-Wompdp-overbroad-map]

// APPLY: prog.c: {{[0-9]+}} edit(s) applied

// FIXED: {{^}}#pragma omp target teams distribute parallel for map(to: a[0:n]) map(tofrom: c[0:n]) map(from: b[0:n]) map(alloc: t[0:n]) map(tofrom: o[0:n]){{$}}
// FIXED: {{^}}#pragma omp target teams distribute parallel for map(to: a[0:n]) map(tofrom: h[0:n]){{$}}
// FIXED: {{^}}#pragma omp target teams distribute parallel for map(tofrom: hits) map(from: z[0:n]){{$}}
// FIXED: {{^}}#pragma omp target parallel num_threads(1) map(tofrom: s) reduction(+: s){{$}}
// FIXED: {{^}}#pragma omp target data map(to: a[0:n], d[0:n]) map(alloc: g[0:n]) map(tofrom: u[0:n]) map(from: e[0:n]){{$}}
// FIXED: {{^}}#pragma omp target data map(tofrom: q[0:len]) map(to: w[0:n]){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 5, predicted 5)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 0, predicted 0)
// PROOF-DAG: gone: overbroad_map of b: yes
// PROOF-DAG: gone: overbroad_map of t: yes
// PROOF-DAG: gone: overbroad_map of e: yes
// PROOF-DAG: gone: overbroad_map of g: yes
// PROOF-DAG: gone: overbroad_map of z: yes
// PROOF: OK

// AFTER: overbroad_maps=0
