//===- host_unread_swap.c - stale buffers copied back after pointer swaps --===//
//
// A time loop swaps its input and output pointers (`tmp = u; u = v; v =
// tmp`, and `std::swap`'s C shape with a temporary of its own), keeping
// both on the device between `target enter data` and `target exit data`.
// At the exit, `v` names the stale buffer: the host only clears it
// (memset) and frees it, so its copy back is never read. The plugin
// proves it (`host-unread`): u and v are set only from allocations and by
// swaps with each other, so they point to distinct buffers, and no swap
// runs after the copy; the copy back becomes `release`. Negative cases, no
// finding: `u` (printed), `b` (the source of a memcpy), `y` (copied back
// inside the loop, before a swap that gives its buffer the other name,
// which is printed), `q` (also assigned from another pointer, `r = q`, not
// a swap: another name may reach its buffer). Applied, rebuilt and rerun:
// same output, the finding gone, one copy back fewer, as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before > table.txt
// RUN: FileCheck %s --check-prefix=TABLE < %t/table.txt
// RUN: FileCheck %s --check-prefix=NOTABLE < %t/table.txt
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before 5 > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after 5 > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp run --format=json -o even.json -- ./after 4 > even-after.out
// RUN: cd %t && ./before 4 > even-before.out
// RUN: diff %t/even-before.out %t/even-after.out
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 5;
  double *u = malloc(N * sizeof(double)), *v = malloc(N * sizeof(double));
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  double *x = malloc(N * sizeof(double)), *y = malloc(N * sizeof(double));
  double *q = malloc(N * sizeof(double)), *r;
  double *s = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    u[i] = v[i] = a[i] = b[i] = x[i] = y[i] = q[i] = i % 13;
#pragma omp target enter data map(to: u[0:N], v[0:N], a[0:N], b[0:N], x[0:N], y[0:N])
  for (int t = 0; t < steps; ++t) {
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; ++i)
      v[i] = (u[i - 1] + u[i] + u[i + 1]) / 3;
    double *tmp = u;
    u = v;
    v = tmp;
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; ++i)
      b[i] = (a[i - 1] + a[i + 1]) / 2;
    double *c = a;
    a = b;
    b = c;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      y[i] = x[i] + t;
#pragma omp target update from(y[0:N])
    double *z = x;
    x = y;
    y = z;
  }
#pragma omp target exit data map(from: u[0:N], v[0:N], a[0:N], b[0:N]) map(delete: x[0:N], y[0:N])
  memset(v, 0, N * sizeof(double));
  memcpy(s, b, N * sizeof(double));
  r = q;
#pragma omp target teams distribute parallel for map(from: q[0:N])
  for (int i = 0; i < N; ++i)
    q[i] = 2 * i;
  r[0] = 1;
  printf("u=%g a=%g s=%g x=%g\n", u[N / 2], a[N / 2], s[N / 3], x[7]);
  free(u);
  free(v);
  free(a);
  free(b);
  free(x);
  free(y);
  free(q);
  free(s);
  return 0;
}

// TABLE: from 'v[0:N]' {{.*}} base-stored host-unread
// NOTABLE-NOT: '{{[uabyq]}}[0:N]' {{.*}}host-unread

// REPORT: overbroad_maps=1
// REPORT: variable: v  clause: map(from: u[0:N], v[0:N], a[0:N], b[0:N])
// REPORT: rewrite (change_map_type): map `v[0:N]` with `release` instead of `from` at prog.c:[[#]]: the host never reads what it copies back {{.*}}[saves {{.*}}: 1 transfer (32.0 KiB), 0 allocations]

// APPLY: prog.c: 2 edit(s) applied

// FIXED: {{^}}#pragma omp target exit data map(from: u[0:N], a[0:N], b[0:N]) map(release: v[0:N]) map(delete: x[0:N], y[0:N]){{$}}

// PROOF: rewrites: 1 for 1 finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 0, predicted 0)
// PROOF-NEXT: gone: overbroad_map of v: yes
// PROOF-NEXT: OK
