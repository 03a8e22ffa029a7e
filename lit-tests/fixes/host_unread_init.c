//===- host_unread_init.c - a buffer set up by a function, its copy unread ===//
//
// HeCBench memcpy's shape: a buffer is filled by a function of the file
// (`init(a, N)`) before the offload, and nothing reads what the copy back
// brings. The function uses its parameter only to write elements, so it
// keeps no other name for the buffer, and what it does is done before the
// copy: `a`'s copy back is unread (`host-unread`), and its `tofrom` becomes
// `to`. So are `e` and `g`, two items of one clause whose third, `h`, the
// host prints: one rewrite writes the clause once (`from` for `h`, `alloc`
// for both), which one `ompdp fix` applies whole. Not so:
//   - `b`: its setup function keeps the pointer (`saved = x`), through which
//     the host prints the bytes that came back;
//   - `c`: given after the copy to a function that reads it (`x[i] *= 2`);
//   - `d`: given, inside the loop that repeats the copy, to a function that
//     reads it (the next iteration reads what the last copy brought), even
//     though the call is above the construct in the source.
// Applied, rebuilt and rerun: same output, one copy back fewer, as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before > table.txt
// RUN: FileCheck %s --check-prefix=TABLE < %t/table.txt
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | grep -A1 '^overbroad_map' > over.txt
// RUN: FileCheck %s --check-prefix=OVERN < %t/over.txt
// RUN: FileCheck %s --check-prefix=OVER < %t/over.txt
// RUN: FileCheck %s --check-prefix=NOTOVER < %t/over.txt
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static double *saved;

static void init(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] = i % 7;
}

static void init_keep(double *x, int n) {
  saved = x;
  for (int i = 0; i < n; ++i)
    x[i] = i % 5;
}

static void scale(double *x, int n) {
  for (int i = 0; i < n; ++i)
    x[i] *= 2;
}

static double total(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

int main(void) {
  double *a = malloc(N * sizeof(double));
  double *b = malloc(N * sizeof(double));
  double *c = malloc(N * sizeof(double));
  double *d = malloc(N * sizeof(double));
  double *e = malloc(N * sizeof(double)), *g = malloc(N * sizeof(double));
  double *h = malloc(N * sizeof(double));
  if (!a || !b || !c || !d || !e || !g || !h)
    return 1;
  init(e, N);
  init(g, N);
#pragma omp target teams distribute parallel for map(from: e[0:N], h[0:N], g[0:N])
  for (int i = 0; i < N; ++i) {
    e[i] = i;
    h[i] = 2 * i;
    g[i] = 3 * i;
  }
  printf("h=%g\n", h[N - 1]);
  free(e);
  free(g);
  free(h);
  init(a, N);
  init_keep(b, N);
  init(c, N);
  init(d, N);
#pragma omp target teams distribute parallel for map(tofrom: a[0:N], b[0:N], c[0:N])
  for (int i = 0; i < N; ++i) {
    a[i] += 1;
    b[i] += 2;
    c[i] += 3;
  }
  printf("b=%g\n", saved[N - 1]);
  scale(c, N);
  for (int k = 0; k < 3; ++k) {
    scale(d, N);
#pragma omp target teams distribute parallel for map(tofrom: d[0:N])
    for (int i = 0; i < N; ++i)
      d[i] += k;
  }
  printf("d=%g\n", total(d, N));
  free(a);
  free(b);
  free(c);
  free(d);
  return 0;
}

// TABLE: tofrom 'a[0:N]' {{.*}} fresh-host host-unread
// TABLE: tofrom 'b[0:N]' {{.*}} fresh-host host-written clause-bytes
// TABLE: tofrom 'c[0:N]' {{.*}} fresh-host host-written clause-bytes
// TABLE: tofrom 'd[0:N]' {{.*}} fresh-host host-written clause-bytes

// OVERN-COUNT-3: {{^}}overbroad_map
// OVER-DAG: variable: a
// OVER-DAG: variable: e
// OVER-DAG: variable: g
// NOTOVER-NOT: variable: {{[bcdh]}}

// One run of `ompdp fix` applies every rewrite: none is left out.
// APPLY: prog.c: 3 edit(s) applied
// APPLY-NOT: left out

// FIXED: {{^}}#pragma omp target teams distribute parallel for map(from: h[0:N]) map(alloc: e[0:N], g[0:N]){{$}}
// FIXED: {{^}}#pragma omp target teams distribute parallel for map(tofrom: b[0:N], c[0:N]) map(to: a[0:N]){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed [[T:[0-9]+]], predicted [[T]])
// PROOF-DAG: gone: overbroad_map of a: yes
// PROOF-DAG: gone: overbroad_map of e: yes
// PROOF-DAG: gone: overbroad_map of g: yes
// PROOF: OK
