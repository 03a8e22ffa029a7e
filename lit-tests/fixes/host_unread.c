//===- host_unread.c - copies back that the host never reads, dropped ------===//
//
// Three copies back bring bytes no host code reads afterwards: `r`
// (`map(from:)`, read only under a DEBUG macro this build does not define,
// then freed), `w` (`tofrom` of a `target data`, overwritten on the host
// before it is freed) and `u` (`target update from` in a loop whose host
// code only writes it). The plugin proves it (`host-unread`: every later
// use of the buffer is a write, a free or a map that sends nothing, and no
// other name reaches it), and the copies are overbroad maps with a
// rewrite: `r` mapped `alloc`, `w` mapped `to`, `u` removed from its
// update. Not reported: `s` (printed after the copy), `t` (passed to a
// function, which may read it), `v` (`tofrom` in a loop: the next
// iteration's copy in sends the bytes that came back), `p` (an alias of
// `q` reads it). The report as a profile gives the warnings with
// fix-its; applied, rebuilt and rerun: same output, the findings gone,
// the copies back removed as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before > table.txt
// RUN: FileCheck %s --check-prefix=TABLE < %t/table.txt
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | grep -A1 '^overbroad_map' > over.txt
// RUN: FileCheck %s --check-prefix=OVER < %t/over.txt
// RUN: FileCheck %s --check-prefix=NOTOVER < %t/over.txt
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=before.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static double last(const double *x) { return x[N - 1]; }

int main(void) {
  double *a = malloc(N * sizeof(double));
  double *r = malloc(N * sizeof(double));
  double *s = malloc(N * sizeof(double));
  double *t = malloc(N * sizeof(double));
  double *u = malloc(N * sizeof(double));
  double *v = malloc(N * sizeof(double));
  double *w = malloc(N * sizeof(double));
  double *q = malloc(N * sizeof(double));
  double *p = q;
  if (!a || !r || !s || !t || !u || !v || !w || !q)
    return 1;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    v[i] = 0;
    w[i] = 1 + i % 3; /* not one value: no fill (single_value.c has one) */
  }
#pragma omp target teams distribute parallel for map(to: a[0:N]) map(from: r[0:N], s[0:N], t[0:N], q[0:N])
  for (int i = 0; i < N; ++i) {
    r[i] = 2 * a[i];
    s[i] = a[i] + 1;
    t[i] = a[i] + 2;
    q[i] = a[i] + 3;
  }
#ifdef DEBUG
  printf("r=%g\n", r[N - 1]);
#endif
  printf("s=%g t=%g p=%g\n", s[N - 1], last(t), p[N - 1]);
#pragma omp target data map(tofrom: w[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      w[i] += a[i];
  }
  for (int i = 0; i < N; ++i)
    w[i] = 0;
#pragma omp target data map(alloc: u[0:N]) map(to: a[0:N])
  for (int k = 0; k < 4; ++k) {
#pragma omp target teams distribute parallel for map(tofrom: v[0:N])
    for (int i = 0; i < N; ++i) {
      u[i] = a[i] * k;
      v[i] += 1;
    }
#pragma omp target update from(u[0:N])
    u[0] = k;
  }
  printf("v=%g\n", v[N - 1]);
  free(a);
  free(r);
  free(s);
  free(t);
  free(u);
  free(v);
  free(w);
  free(q);
  return 0;
}

// TABLE: from 'r[0:N]' {{.*}} fresh-host host-unread clause-bytes
// TABLE: from 's[0:N]' {{.*}} fresh-host clause-bytes
// TABLE: from 't[0:N]' {{.*}} fresh-host clause-bytes
// TABLE: from 'q[0:N]' {{.*}} fresh-host clause-bytes
// TABLE: tofrom 'w[0:N]' {{.*}} fresh-host host-unread host-written body-host-reads clause-bytes
// TABLE: tofrom 'v[0:N]' {{.*}} fresh-host clause-bytes
// TABLE: update from 'u[0:N]' {{.*}} fresh-host host-unread clause-bytes

// The duplicate copy back of `u` (bytes another copy brought) shows the
// overbroad rewrite that drops it, in full, before its own finding:
// REPORT: variable: u  clause: from(u[0:N])
// REPORT: rewrite (remove_item): remove `u[0:N]` from `target update` at prog.c:{{[0-9]+}}: the host never reads what it copies back {{.*}}[saves {{.*}}: 4 transfers (128.0 KiB), 0 allocations]
// REPORT: Overbroad maps:
// REPORT-DAG: overbroad_map  prog.c:[[#LR:]]:1 in main  count=1 bytes=32.0 KiB
// REPORT-DAG: variable: r  clause: map(from: r[0:N], s[0:N], t[0:N], q[0:N])
// REPORT-DAG: suggestion: the host never reads what the copies back of r from device 0 bring (after them it only overwrites or frees it, and no other pointer reaches it): map it with `map(alloc: ...)` (`map(release: ...)` on `target exit data`)
// REPORT-DAG: rewrite (change_map_type): map `r[0:N]` with `alloc` instead of `from` at prog.c:[[#LR]]: the host never reads what it copies back {{.*}}[saves {{.*}}: 1 transfer (32.0 KiB), 0 allocations]
// REPORT-DAG: variable: w  clause: map(tofrom: w[0:N])
// REPORT-DAG: suggestion: the host never reads what the copies back of w from device 0 bring {{.*}}: map it with `map(to: ...)`
// REPORT-DAG: rewrite (change_map_type): map `w[0:N]` with `to` instead of `tofrom` at prog.c:{{[0-9]+}}: the host never reads
// REPORT-DAG: overbroad_map  prog.c:{{[0-9]+}}:1 in main  count=4 bytes=128.0 KiB
// REPORT-DAG: variable: u  clause: from(u[0:N])
// REPORT-DAG: suggestion: the host never reads {{.*}}: remove it from the `target update`
// REPORT-DAG: rewrite (remove_item): the one shown above for duplicate_transfer of `u`

// OVER-COUNT-3: {{^}}overbroad_map
// NOTOVER-NOT: variable: {{[stvq]}}

// DIAG-DAG: warning: overbroad map: 'r' in map(from: r[0:N], s[0:N], t[0:N], q[0:N]) copies back data the host never reads, once [-Wompdp-overbroad-map]
// DIAG-DAG: warning: overbroad map: 'w' in map(tofrom: w[0:N]) copies back data the host never reads, once [-Wompdp-overbroad-map]
// DIAG-DAG: warning: overbroad map: 'u' in from(u[0:N]) copies back data the host never reads, 4 times [-Wompdp-overbroad-map]
// DIAG-NOT: '{{[stvq]}}' in {{.*}}-Wompdp-overbroad-map

// APPLY: prog.c: {{[0-9]+}} edit(s) applied

// FIXED: {{^}}#pragma omp target teams distribute parallel for map(to: a[0:N]) map(from: s[0:N], t[0:N], q[0:N]) map(alloc: r[0:N]){{$}}
// FIXED: {{^}}#pragma omp target data map(to: w[0:N]){{$}}
// FIXED-NOT: {{^}}#pragma omp target update

// `v` is kept resident across its loop (keep_resident), which the copies
// in of its `tofrom` make possible: one more rewrite. And `a`, sent by the
// first kernel and again by the last `target data`, stays on the device
// across them (constructs in a row): the host code between them does not
// use it (`last(t)` is followed into its body, which reads only `t`).
// PROOF: rewrites: 5 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed [[T:[0-9]+]], predicted [[T]])
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed [[A:[0-9]+]], predicted [[A]])
// PROOF-DAG: gone: overbroad_map of r: yes
// PROOF-DAG: gone: overbroad_map of w: yes
// PROOF-DAG: gone: overbroad_map of u: yes
// PROOF: OK

// AFTER: overbroad_maps=0
