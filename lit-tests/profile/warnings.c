//===- warnings.c - a run's findings as warnings with fix-its --------------===//
//
// Compile with the plugin, run under ompdp, recompile with
// -fplugin-arg-ompdp-profile=: one warning per finding at the map item, in
// the finding's group, with the measured cost and the rewrite as fix-its
// (on the first warning shown that has it: -fixit applies each warning's
// fix-its, and the same insertion made twice would be doubled). Only the
// host compile warns (the device and IR cc1 runs say nothing). -W options
// for ompdp's groups work from the command line (cc1 calls them unknown,
// -Wno-unknown-warning-option quiets that) and as plugin arguments. The
// fix-its applied by -fixit give the same file as `ompdp fix --apply`.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t/fixit %t/apply && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog > /dev/null
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits -Wno-unknown-warning-option -Wno-ompdp-round-trip 2>&1 | FileCheck %s --check-prefix=NO-RT
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fno-caret-diagnostics -Wno-ompdp-round-trip 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: cd %t && not %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fno-caret-diagnostics -Wno-unknown-warning-option -Werror=ompdp-round-trip 2>&1 | FileCheck %s --check-prefix=WERROR
// RUN: cd %t && not %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fno-caret-diagnostics -Werror -Wno-unused-command-line-argument -Wno-unknown-warning-option -Wno-error=ompdp-repeated-alloc 2>&1 | FileCheck %s --check-prefix=WERROR-ALL
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fno-caret-diagnostics -fplugin-arg-ompdp-Wno-ompdp -fplugin-arg-ompdp-Wompdp-duplicate-transfer 2>&1 | FileCheck %s --check-prefix=ONLY-DUP
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -w 2>&1 | FileCheck %s --allow-empty --check-prefix=QUIET
// RUN: cd %t && not %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -w -Wno-unknown-warning-option -Werror=ompdp-duplicate-transfer 2>&1 | FileCheck %s --check-prefix=W-ERR
//
// -fixit against `ompdp fix --apply`:
// RUN: cp %s %t/fixit/prog.c && cp %s %t/apply/prog.c
// RUN: cd %t/fixit && %clang %ompdp-plugin-flags -fopenmp -fsyntax-only -Xclang -fixit -fplugin-arg-ompdp-profile=%t/r.json prog.c 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: %ompdp fix --root %t/apply --apply %t/r.json
// RUN: diff %t/fixit/prog.c %t/apply/prog.c
// RUN: FileCheck %s --check-prefix=FIXED < %t/fixit/prog.c
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256

int main(void) {
  static int a[N], c[N];
  for (int j = 0; j < N; ++j)
    a[j] = c[j] = 1 + j % 3; /* not zeros, nor one value: no zero or single-value transfer */
  int n = N;
  for (int it = 0; it < 4; ++it) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: c)
    for (int j = 0; j < n; ++j)
      a[j] += j + c[j];
  }
  printf("a[1]=%d a[N-1]=%d\n", a[1], a[N - 1]);
  return 0;
}

// DIAG-NOT: -Wompdp
// DIAG:      prog.c:[[#@LINE-9]]:62: warning: round trip: 'a' in map(tofrom: a[0:n]) goes to the device and comes back unchanged 3 times [-Wompdp-round-trip]
// DIAG-NEXT: [[#@LINE-11]] |   for (int it = 0; it < 4; ++it) {
// DIAG-NEXT: |   ~~~
// DIAG-NEXT: [[#@LINE-12]] | #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: c)
// DIAG-NEXT: |                                                              ^~~~~~
// DIAG-NEXT: fix-it:"prog.c":{[[#@LINE-15]]:1-[[#@LINE-15]]:6}:"  #pragma omp target data map(tofrom: a[0:n]) map(to: c)\n  for"
// DIAG-NEXT: prog.c:[[#@LINE-15]]:62: note: measured: 3 round trips, 3.0 KiB in {{[0-9.]+ [mun]?s}} on device 0; the fix saves {{[0-9.]+ [mun]?s}}
// DIAG-NEXT: prog.c:[[#@LINE-16]]:62: note: fix (keep_resident): keep `a[0:n]` and `c` on device 0 for the whole for loop at prog.c:[[#@LINE-17]]: `#pragma omp target data map(tofrom: a[0:n]) map(to: c)` before it; no host code in the loop uses `a[0:n]`, so it comes back once, after the loop [saves {{.*}}: 9 transfers (9.0 KiB), 6 allocations]; it assumes {{.*}}
// DIAG-NEXT: prog.c:[[#@LINE-17]]:62: warning: repeated allocation: 'a' in map(tofrom: a[0:n]) is allocated on the device again, 3 times [-Wompdp-repeated-alloc]
// DIAG-NOT:  fix-it:
// DIAG:      prog.c:[[#@LINE-19]]:62: note: fix (keep_resident): the same rewrite as for the round_trip warning at prog.c:[[#@LINE-19]]:62
// DIAG-NEXT: prog.c:[[#@LINE-20]]:78: warning: duplicate transfer: 'c' in map(to: c) sends the device bytes it already has, 4 times [-Wompdp-duplicate-transfer]
// DIAG-NOT:  fix-it:
// DIAG:      prog.c:[[#@LINE-22]]:78: note: measured: 4 repeated transfers, 4.0 KiB in {{.*}} on device 0; the fix saves
// DIAG-NEXT: prog.c:[[#@LINE-23]]:78: note: fix (keep_resident): the same rewrite as for the round_trip warning at prog.c:[[#@LINE-23]]:62
// DIAG-NEXT: prog.c:[[#@LINE-24]]:78: warning: repeated allocation: 'c' in map(to: c) is allocated on the device again, 3 times [-Wompdp-repeated-alloc]
// DIAG-NOT:  fix-it:
// DIAG:      4 warnings generated.
// DIAG-NOT:  -Wompdp

// Without the round trip warning, its fix-its go with the next warning
// (-fdiagnostics-parseable-fixits prints them with the source snippet).
// NO-RT-NOT: round trip
// NO-RT:      prog.c:[[#@LINE-32]]:62: warning: repeated allocation: 'a' {{.*}} [-Wompdp-repeated-alloc]
// NO-RT:      fix-it:"prog.c":{[[#@LINE-34]]:1-[[#@LINE-34]]:6}:"  #pragma omp target data map(tofrom: a[0:n]) map(to: c)\n  for"
// NO-RT-NOT: fix-it:
// NO-RT-NOT: round trip
// NO-RT:      3 warnings generated.

// UNKNOWN: warning: unknown warning option '-Wno-ompdp-round-trip' [-Wunknown-warning-option]
// UNKNOWN-NOT: round trip
// UNKNOWN: prog.c:[[#@LINE-40]]:62: warning: repeated allocation: 'a'

// WERROR: prog.c:[[#@LINE-42]]:62: error: round trip: 'a' in map(tofrom: a[0:n]) {{.*}} [-Werror,-Wompdp-round-trip]
// WERROR: prog.c:[[#@LINE-43]]:62: warning: repeated allocation: {{.*}} [-Wompdp-repeated-alloc]
// WERROR: prog.c:[[#@LINE-44]]:78: warning: duplicate transfer: {{.*}} [-Wompdp-duplicate-transfer]

// WERROR-ALL: error: round trip: {{.*}} [-Werror,-Wompdp-round-trip]
// WERROR-ALL: warning: repeated allocation: 'a' {{.*}} [-Wompdp-repeated-alloc]
// WERROR-ALL: error: duplicate transfer: {{.*}} [-Werror,-Wompdp-duplicate-transfer]
// WERROR-ALL: warning: repeated allocation: 'c' {{.*}} [-Wompdp-repeated-alloc]

// ONLY-DUP-NOT: -Wompdp-r
// ONLY-DUP: prog.c:[[#@LINE-52]]:78: warning: duplicate transfer: {{.*}} [-Wompdp-duplicate-transfer]
// ONLY-DUP-NOT: -Wompdp-r

// QUIET-NOT: ompdp

// W-ERR-NOT: warning:
// W-ERR: prog.c:[[#@LINE-58]]:78: error: duplicate transfer: {{.*}} [-Werror,-Wompdp-duplicate-transfer]
// W-ERR-NOT: warning:

// FIXIT: warning: round trip
// FIXIT: note: FIX-IT applied suggested code changes

// FIXED:      {{^}}  int n = N;
// FIXED-NEXT: {{^}}  #pragma omp target data map(tofrom: a[0:n]) map(to: c){{$}}
// FIXED-NEXT: {{^}}  for (int it = 0; it < 4; ++it) {
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: c){{$}}
