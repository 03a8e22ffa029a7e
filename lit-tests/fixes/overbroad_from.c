//===- overbroad_from.c - tofrom items the region only writes, mapped `from` ===//
//
// The construct maps `b` tofrom but only writes it, every element: the copy
// in is overwritten before anything reads it (overbroad_map, one copy). The
// rewrite maps it `from`: the compiler proved that the region writes every
// element before reading any (a loop over the whole section assigns
// `b[i]` in every iteration), so the rewrite assumes nothing (where neither
// the compiler nor the run can show it, overbroad_bfs.c). Not reported: `c` (already `from`), `w`
// (`always`: the program asks for the copy), `sum` (read and written). The
// report as a profile gives the warning with the fix-it and the assumption.
// Applied, rebuilt and rerun: same output, the finding gone, one transfer
// fewer, as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=JSON < %t/before.json
// RUN: cd %t && %ompdp report --format=sarif before.json | FileCheck %s --check-prefix=SARIF
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
  static double b[N], c[N], w[N];
  double sum = 0;
  for (int i = 0; i < N; ++i)
    b[i] = c[i] = w[i] = -1;
#pragma omp target map(tofrom : b[0:N]) map(from : c[0:N]) map(always, tofrom : w[0:N])
  for (int i = 0; i < N; ++i) {
    b[i] = 2 * i;
    c[i] = 3 * i;
    w[i] = 4 * i;
  }
#pragma omp target map(tofrom : sum) map(to : b[0:N])
  for (int i = 0; i < N; ++i)
    sum += b[i];
  printf("sum=%g b=%g c=%g w=%g\n", sum, b[N - 1], c[N - 1], w[N - 1]);
  return 0;
}

// REPORT: overbroad_maps=1
// REPORT: Overbroad maps:
// REPORT-NEXT: overbroad_map  prog.c:[[#L:]]:1 in main  count=1 bytes=32.0 KiB
// REPORT-NEXT: variable: b  clause: map(tofrom : b[0:N])
// REPORT-NEXT: verdict: fix
// REPORT-NEXT: suggestion: the region only writes b: if it writes every element, map it with `map(from: b)` and drop the copy in to device 0
// REPORT-NEXT: rewrite (change_map_type): map `b[0:N]` with `from` instead of `tofrom` at prog.c:[[#L]]: the region only writes it (the compiler proved that it writes every element before reading any)  [saves {{.*}}: 1 transfer (32.0 KiB), 0 allocations]
// REPORT-NEXT: prog.c:[[#L]]:20-[[#L]]:40: replace "map(tofrom : b[0:N])" with "map(from: b[0:N])"
// REPORT-NOT: overbroad_map

// JSON: "kind": "overbroad_map",
// JSON: "kind": "change_map_type",
// JSON: "assumption": null,
// JSON-NEXT: "time_saved_ns":
// JSON-NEXT: "transfers_removed": 1,
// JSON-NEXT: "allocs_removed": 0,
// JSON-NEXT: "bytes_removed": 32768,

// SARIF: "ruleId": "overbroad_map",
// SARIF: "partialFingerprints": {"ompdpSite/v1": "overbroad_map:{{[0-9a-f]+}}:0"},
// SARIF: "deletedRegion": {"startLine": [[#@LINE-33]], "startColumn": 20, "endLine": [[#@LINE-33]], "endColumn": 40}, "insertedContent": {"text": "map(from: b[0:N])"}
// SARIF-SAME: "kind": "change_map_type"

// DIAG: prog.c:[[#L:]]:33: warning: overbroad map: 'b' in map(tofrom : b[0:N]) copies in data the region only writes, once [-Wompdp-overbroad-map]
// DIAG: fix-it:"prog.c":{[[#L]]:20-[[#L]]:40}:"map(from: b[0:N])"
// DIAG: note: fix (change_map_type): map `b[0:N]` with `from` instead of `tofrom` {{.*}} (the compiler proved that it writes every element before reading any)
// DIAG-NOT: it assumes
// DIAG-NOT: -Wompdp-overbroad-map

// APPLY: prog.c: 1 edit(s) applied

// FIXED: {{^}}#pragma omp target map(from: b[0:N]) map(from : c[0:N]) map(always, tofrom : w[0:N]){{$}}

// PROOF: rewrites: 1 for 1 finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 0, predicted 0)
// PROOF-NEXT: gone: overbroad_map of b: yes
// PROOF-NEXT: OK

// AFTER: overbroad_maps=0
