//===- update_conditional.c - target update only where the host reads -----===//
//
// A time-step loop that maps `u` tofrom and `f` to in every iteration and
// prints `u` every fourth step, in the braces of an if. The plugin records
// the two adjacent statements that read `u` there (at most once per
// iteration, not every time: flag at-most-once without every-time) instead
// of the whole if, so the rewrite keeps `u` and `f` resident around the
// loop and puts `#pragma omp target update from(u)` inside the if, before
// the first of them: the copy back runs only in the iterations that print.
// How often the condition holds is not known, so the saving is counted as
// if the update ran every time and says "at least"; the run after the fix
// moves 5 transfers instead of 30, at least 17 fewer as predicted
// (check_fix.py takes a lower bound as one). Proven: warning and fix-its
// from the profile, applied, same output, findings gone.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before | FileCheck %s --check-prefix=TABLE
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
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 10

int main(void) {
  static double u[N], f[N];
  for (int i = 0; i < N; ++i) {
    u[i] = 1;
    f[i] = i % 5;
  }
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for map(tofrom: u) map(to: f)
    for (int j = 0; j < N; ++j)
      u[j] = 0.5 * u[j] + f[j];
    if (it % 4 == 3) {
      printf("it=%d u[1]=%g\n", it, u[1]);
      printf("it=%d u[N-1]=%g\n", it, u[N - 1]);
    } else if (it == 5) {
      printf("it=%d\n", it);
    }
  }
  printf("u[2]=%g\n", u[2]);
  return 0;
}

// TABLE:      region {{.*}} 'target' at prog.c:[[#T:]]:1 in 'main'
// TABLE:      host 0 'u' read at [[#T+4]]:7-[[#T+5]]:49 bytes {{[0-9]+}}+{{[0-9]+}} statement after at-most-once{{$}}
// TABLE-NOT:  host

// The rewrite is shown at the first finding it fixes, and named at the others.
// REPORT: duplicate_transfer {{.*}}prog.c:[[#T:]]:1 in main count=9
// REPORT-NEXT: variable: f  clause: map(to: f)
// REPORT: rewrite (keep_resident): keep `u` and `f` on device 0 for the whole for loop at prog.c:[[#T-1]]: `#pragma omp target data map(tofrom: u) map(to: f)` before it; `target update from(u)` before line [[#T+4]]; it comes back once more after the loop  [saves at least {{.*}}: 17 transfers (34.0 KiB), 18 allocations]
// REPORT-NEXT: assumes: no host code in the loop reaches `u` through another pointer
// REPORT-NEXT: prog.c:[[#T-1]]:1-[[#T-1]]:6: replace "for" with "  #pragma omp target data map(tofrom: u) map(to: f)\n  for"
// REPORT-NEXT: prog.c:[[#T+4]]:1: insert "      #pragma omp target update from(u)\n"
// REPORT: round_trip {{.*}}prog.c:[[#T]]:1 in main count=9
// REPORT-NEXT: variable: u  clause: map(tofrom: u)
// REPORT: rewrite (keep_resident): the one shown above for duplicate_transfer of `f` at prog.c:[[#T]]:1 in main{{$}}

// JSON: "transfers_removed": 17,
// JSON-NEXT: "allocs_removed": 18,
// JSON-NEXT: "bytes_removed": 34816,
// JSON-NEXT: "lower_bound": true,
// SARIF: "description": {"text": "keep `u` and `f` {{.*}} (saves at least {{.*}}: 17 transfer(s) of 34.0 KiB, 18 allocation(s)){{.*}}"lower_bound": true}

// DIAG: prog.c:[[#D:]]:{{[0-9]+}}: warning: {{.*}} [-Wompdp-{{[a-z-]+}}]
// DIAG: fix-it:"prog.c":{[[#D-1]]:1-[[#D-1]]:6}:"  #pragma omp target data map(tofrom: u) map(to: f)\n  for"
// DIAG-NEXT: fix-it:"prog.c":{[[#D+4]]:1-[[#D+4]]:1}:"      #pragma omp target update from(u)\n"
// DIAG: note: fix (keep_resident): keep `u` and `f` {{.*}}[saves at least {{.*}}: 17 transfers

// APPLY: prog.c: 2 edit(s) applied

// FIXED:      {{^}}    if (it % 4 == 3) {{{$}}
// FIXED-NEXT: {{^}}      #pragma omp target update from(u){{$}}
// FIXED-NEXT: {{^}}      printf("it=%d u[1]=%g\n", it, u[1]);

// Before: `u` 10 in and 10 back, `f` 10 in; after: each in once, `u` back
// once at the end and twice by the update (it = 3 and 7).
// PROOF: rewrites: 1 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: 30 -> 5 (removed 25, predicted at least 17)
// PROOF-NEXT: allocs: 20 -> 2 (removed 18, predicted 18)
// PROOF: OK
