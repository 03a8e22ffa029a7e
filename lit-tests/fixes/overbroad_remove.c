//===- overbroad_remove.c - a map item the region never touches, removed --===//
//
// The first construct maps `scratch` but never reads or writes it: it is
// allocated and copied in for nothing (overbroad_map, count 2). The rewrite
// takes it out of its clause. Not reported: `sum` (read and written), `a`
// (`to`, only read), `b` inside a `target data` that already mapped it (the
// construct moves nothing at it), and `b` with `always` (the program asks
// for that copy). The stream and full-log analyses agree (mode=check). The
// report as a profile gives the warning at the item with
// the removal as a fix-it. Applied, rebuilt and rerun: same output, the
// finding gone, one transfer and one allocation fewer, as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp run --format=json -o check.json --option mode=check --option verbose=1 -- ./before 2>&1 >/dev/null | FileCheck %s --check-prefix=MODES
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
  static double a[N], scratch[N], b[N];
  double sum = 0;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    scratch[i] = i % 7 + 1; /* no single value (that is another finding) */
    b[i] = 2 * i;
  }
#pragma omp target map(tofrom : sum) map(to : a[0:N], scratch[0:N])
  for (int i = 0; i < N; ++i)
    sum += a[i];
#pragma omp target data map(to : b[0:N])
  {
#pragma omp target map(tofrom : sum) map(to : a[0:N], b[0:N])
    for (int i = 0; i < N; ++i)
      sum += a[i];
  }
#pragma omp target map(tofrom : sum) map(always, to : b[0:N])
  sum += 1;
  printf("sum=%g\n", sum);
  return 0;
}

// MODES: ompdp: mode=check: the stream and full-log reports are identical

// REPORT: overbroad_maps=2
// REPORT: Overbroad maps:
// REPORT-NEXT: overbroad_map  prog.c:[[#L:]]:1 in main  count=2 bytes=64.0 KiB
// REPORT-NEXT: variable: scratch  clause: map(to : a[0:N], scratch[0:N])
// REPORT-NEXT: verdict: fix
// REPORT-NEXT: suggestion: the region never reads or writes scratch, yet it was allocated or copied on device 0: remove it from the map clause
// REPORT-NEXT: rewrite (remove_item): remove `scratch[0:N]` from `target` at prog.c:[[#L]]: the region never reads or writes it  [saves {{.*}}: 1 transfer (32.0 KiB), 1 allocation]
// REPORT-NEXT: prog.c:[[#L]]:53-[[#L]]:67: delete ",scratch[0:N]"
// REPORT-NOT: overbroad_map

// DIAG: prog.c:[[#L:]]:55: warning: overbroad map: 'scratch' in map(to : a[0:N], scratch[0:N]) is mapped but the region never touches it, 2 times [-Wompdp-overbroad-map]
// DIAG: fix-it:"prog.c":{[[#L]]:53-[[#L]]:67}:""
// DIAG-NEXT: prog.c:[[#L]]:55: note: measured: 2 {{.*}}, 64.0 KiB in {{.*}} on device 0
// DIAG-NEXT: prog.c:[[#L]]:55: note: fix (remove_item): remove `scratch[0:N]` from `target` at prog.c:[[#L]]
// DIAG-NOT: -Wompdp-overbroad-map

// APPLY: prog.c: 1 edit(s) applied

// FIXED: {{^}}#pragma omp target map(tofrom : sum) map(to : a[0:N]){{$}}
// FIXED: {{^}}#pragma omp target map(tofrom : sum) map(to : a[0:N], b[0:N]){{$}}
// FIXED: {{^}}#pragma omp target map(tofrom : sum) map(always, to : b[0:N]){{$}}

// PROOF: rewrites: 1 for 1 finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: gone: overbroad_map of scratch: yes
// PROOF-NEXT: OK

// AFTER: overbroad_maps=0
