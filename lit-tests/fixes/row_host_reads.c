//===- row_host_reads.c - constructs in a row with host reads between -----===//
//
// damage's shape: two `target data` regions in a row map `x` and `y` to the
// device, and host code between them reads both through a function the
// compiler sees into (`check`, which only reads). The host's copy stays as
// it was, so both stay on the device across the two regions: one `target
// data` with a map clause for each (not two that would overlap), and the
// regions' own maps find them present. The device code of the regions (in
// functions they call) only reads them.
// Negative cases, each a pair of regions in a row too:
// - `w`: host code between them writes it through a call (`reset`, which
//   stores the value it already had, so the run sees the same bytes sent
//   again): the compiler sees a write, no rewrite;
// - `z`: a kernel in a function the first region calls writes it: the
//   second region must start from the host's copy, no rewrite;
// And `r`, mapped `from` by both regions and read between them (by host
// code, and by the second region's own clauses): it stays on the device
// too, with a `target update from(r[0:N])` before the read that brings
// what the first region computed; its copies back stay (one allocation
// fewer).
// (`w` and `z` hold one value each, constants the host stores, and each
// region allocated them afresh: each copy in is filled on the device
// instead, at each region, which moves nothing and keeps nothing resident.)
// Proven: applied by `ompdp fix --apply`, same output, findings gone,
// counts as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json > report.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.txt
// RUN: FileCheck %s --check-prefix=NEG < %t/report.txt
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 2048

static void sum(const double *x, const double *y, double *s, int n) {
  double t = 0;
#pragma omp target teams distribute parallel for map(tofrom: t) reduction(+: t)
  for (int i = 0; i < n; ++i)
    t += x[i] * y[i];
  *s += t;
}

static void twice(double *z, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    z[i] *= 2;
}

static void fill(double *r, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    r[i] = i + 1;
}

static double check(const double *x, const double *y, int n) {
  double c = 0;
  for (int i = 0; i < n; ++i)
    c += x[i] - y[i];
  return c;
}

static void reset(double *w) { w[0] = 1; } // the value it had: same bytes

int main(void) {
  double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
  double *w = malloc(N * sizeof(double)), *z = malloc(N * sizeof(double));
  double *r = malloc(N * sizeof(double));
  double s = 0, c;
  for (int i = 0; i < N; ++i) {
    x[i] = i;
    y[i] = N - i;
    w[i] = 1;
    z[i] = 3;
  }
#pragma omp target data map(to: x[0:N], y[0:N])
  {
    sum(x, y, &s, N);
  }
  c = check(x, y, N);
#pragma omp target data map(to: x[0:N], y[0:N])
  {
    sum(y, x, &s, N);
  }
  printf("s=%g c=%g\n", s, c);

#pragma omp target data map(to: w[0:N])
  {
    sum(w, w, &s, N);
  }
  reset(w);
#pragma omp target data map(to: w[0:N])
  {
    sum(w, w, &s, N);
  }

#pragma omp target data map(to: z[0:N])
  {
    twice(z, N);
  }
  c = check(z, z, N);
#pragma omp target data map(to: z[0:N])
  {
    sum(z, z, &s, N);
  }

#pragma omp target data map(from: r[0:N])
  {
    fill(r, N);
  }
  c += check(r, r, N);
#pragma omp target data map(from: r[0:N])
  {
    fill(r, N);
  }
  printf("s=%g c=%g r=%g\n", s, c, r[N - 1]);
  free(x);
  free(y);
  free(w);
  free(z);
  free(r);
  return 0;
}

// REPORT: rewrite (keep_resident): keep `x[0:N]` and `y[0:N]` on device 0 across the 2 constructs in a row at prog.c:[[#L:]] and {{[0-9]+}}: `#pragma omp target data map(to: x[0:N]) map(to: y[0:N])` and `{` before line {{[0-9]+}}, `}` after line {{[0-9]+}}; host code between them only reads what is kept (its own copy is unchanged)  [saves {{.*}}: 2 transfers (32.0 KiB), 2 allocations]

// Both are sent again with the same bytes: the run alone would allow it.
// NEG-DAG: duplicate_transfer {{.*}}count=1 bytes=16.0 KiB{{.*}}
// NEG-DAG: variable: w  clause: map(to: w[0:N])
// NEG-DAG: variable: z  clause: map(to: z[0:N])
// In no loop, the advice for the repeated allocation names no loop either.
// NEG: repeated_alloc {{.*}}
// NEG: variable: w  clause: map(to: w[0:N])
// NEG: suggestion: the same host buffer is allocated and freed on device 0 each time it is mapped: allocate it once with `#pragma omp target data` (or `target enter data`) around the constructs that map it, or before the calls that repeat them; the construct's map of w must then say `always`
// NEG-NOT: keep `w[0:N]`
// NEG-NOT: keep `z[0:N]`

// REPORT: rewrite (keep_resident): keep `r[0:N]` on device 0 across the 2 constructs in a row at prog.c:[[#R:]] and
// REPORT-SAME: [[#R+5]]: `#pragma omp target data map(from: r[0:N])` and `{` before line [[#R]], `}` after line [[#R+8]]; host code between them only reads what is kept; `target update from(r[0:N])` before line [[#R+4]] (host code there reads what the construct before it computed), and it comes back once, after the last  [saves {{.*}}: 0 transfers (0 B), 1 allocation]

// APPLY: prog.c: 13 edit(s) applied

// FIXED:      {{^}}#pragma omp target data map(to: x[0:N]) map(to: y[0:N]){{$}}
// FIXED-NEXT: {{^}}{{{$}}
// FIXED-NEXT: {{^}}#pragma omp target data map(to: x[0:N], y[0:N]){{$}}
// FIXED:      {{^}}  c = check(x, y, N);{{$}}
// FIXED:      {{^}}    sum(y, x, &s, N);{{$}}
// FIXED-NEXT: {{^}}  }{{$}}
// FIXED-NEXT: {{^}}}{{$}}
// FIXED:      {{^}}#pragma omp target data map(from: r[0:N]){{$}}
// FIXED-NEXT: {{^}}{{{$}}
// FIXED:      {{^}}  #pragma omp target update from(r[0:N]){{$}}
// FIXED-NEXT: {{^}}  c += check(r, r, N);{{$}}

// PROOF: rewrites: 6 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 6, predicted 6)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 3, predicted 3)
// PROOF: OK
