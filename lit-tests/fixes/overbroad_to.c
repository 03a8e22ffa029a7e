//===- overbroad_to.c - tofrom items the region only reads, mapped `to` ---===//
//
// The construct maps `a` tofrom in one clause with `c` (which it reads and
// writes) and `d` implicitly (tofrom), but only reads both: their copies
// back return what the device was sent (overbroad_map, one copy each). `a`
// moves into a clause of its own, `map(to: a[0:N])`, right after; `d` gets
// an explicit `map(to: d)` at the end of the directive: one rewrite. Not reported: `c`,
// `sum`, and `e` at the construct that only reads it inside a `target data`
// that mapped it already (nothing moved at the construct); that `target
// data` maps `e` `to` instead (its kernel only reads it, its host code does
// not touch it), a rewrite of its own. The report as a
// profile gives the warnings with the fix-its. Applied, rebuilt and rerun:
// same output, the findings gone, two transfers fewer, as predicted.
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
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  static double a[N], c[N], d[N], e[N];
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    c[i] = 1 + (i & 1); /* not one value: no single_value_transfer */
    d[i] = 3 + (i & 1);
    e[i] = 4 + (i & 1);
  }
#pragma omp target map(tofrom : a[0:N], c[0:N]) map(tofrom : sum)
  for (int i = 0; i < N; ++i) {
    c[i] += a[i];
    sum += d[i];
  }
#pragma omp target data map(tofrom : e[0:N])
  {
#pragma omp target map(tofrom : e[0:N], sum)
    for (int i = 0; i < N; ++i)
      sum += e[i];
  }
  printf("sum=%g c=%g\n", sum, c[N - 1]);
  return 0;
}

// REPORT: overbroad_maps=3
// One rewrite for both items of the construct, shown at one finding and
// named at the other. (The findings' order depends on their measured
// times: the line is taken from the rewrite's words.)
// REPORT-DAG: rewrite (change_map_type): map `a[0:N]` with `to` instead of `tofrom` at prog.c:[[#L:]]: the region only reads it; and map `d` with `to` instead of `tofrom` at prog.c:{{[0-9]+}}: the region only reads it  [saves {{.*}}: 2 transfers (64.0 KiB), 0 allocations]
// REPORT-DAG: overbroad_map  prog.c:[[#L]]:1 in main  count=1 bytes=32.0 KiB
// REPORT-DAG: variable: a  clause: map(tofrom : a[0:N], c[0:N])
// REPORT-DAG: suggestion: the region only reads a: map it with `map(to: a)`, which drops the copies back from device 0
// REPORT-DAG: prog.c:[[#L]]:33-[[#L]]:41: delete "a[0:N],"
// REPORT-DAG: prog.c:[[#L]]:48: insert " map(to: a[0:N])"
// REPORT-DAG: variable: d  clause: implicit map(tofrom: d)
// REPORT-DAG: rewrite (change_map_type): the one shown above for {{overbroad_map|round_trip}} of `{{a|d}}` at prog.c:[[#L]]:1 in main
// REPORT-DAG: prog.c:[[#L]]:66-[[#L+1]]:1: insert " map(to: d)\n"
// REPORT-DAG: variable: e  clause: map(tofrom : e[0:N])
// REPORT-DAG: rewrite (change_map_type): map `e[0:N]` with `to` instead of `tofrom` at prog.c:[[#L+5]]: the region's kernels at most read it and its host code does not change it
// REPORT-NOT: overbroad_map  prog.c:[[#L+7]]

// DIAG-DAG: prog.c:[[#L:]]:33: warning: overbroad map: 'a' in map(tofrom : a[0:N], c[0:N]) copies back data the region only reads, once [-Wompdp-overbroad-map]
// DIAG-DAG: fix-it:"prog.c":{[[#L]]:33-[[#L]]:41}:""
// DIAG-DAG: fix-it:"prog.c":{[[#L]]:48-[[#L]]:48}:" map(to: a[0:N])"
// DIAG-DAG: warning: overbroad map: 'd' in implicit map(tofrom: d) copies back data the region only reads, once [-Wompdp-overbroad-map]
// DIAG-DAG: fix-it:"prog.c":{[[#L]]:66-[[#L+1]]:1}:" map(to: d)\n"
// DIAG-NOT: 'c' in {{.*}}-Wompdp-overbroad-map
// DIAG-DAG: prog.c:[[#L+5]]:38: warning: overbroad map: 'e' in map(tofrom : e[0:N]) copies back data the region only reads, once [-Wompdp-overbroad-map]
// DIAG-NOT: 'e' in map(tofrom : e[0:N], sum) {{.*}}-Wompdp-overbroad-map

// APPLY: prog.c: 4 edit(s) applied

// FIXED: {{^}}#pragma omp target map(tofrom : c[0:N]) map(to: a[0:N]) map(tofrom : sum) map(to: d){{$}}
// FIXED: {{^}}#pragma omp target data map(to: e[0:N]){{$}}
// FIXED: {{^}}#pragma omp target map(tofrom : e[0:N], sum){{$}}

// PROOF: rewrites: 2 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 3, predicted 3)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 0, predicted 0)
// PROOF-DAG: gone: overbroad_map of a: yes
// PROOF-DAG: gone: overbroad_map of d: yes
// PROOF-DAG: gone: overbroad_map of e: yes
// PROOF: OK

// AFTER: overbroad_maps=0
