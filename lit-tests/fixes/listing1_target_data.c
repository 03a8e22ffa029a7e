//===- listing1_target_data.c - Listing 1, fixed and proven ----------------===//
//
// The paper's Listing 1: two target constructs in a row, not in a loop,
// both map `a` to the device: the second copy is a duplicate transfer and
// the second allocation a repeated one. The region table records each
// construct's statement range and block, and the host code of that block
// that uses `a` (only the loop that fills it, before the first construct);
// so the rewrite wraps both constructs in one `#pragma omp target data
// map(to: a)` with `{` before the first and `}` after the last, and the
// constructs' own maps find `a` present. `to` suffices: the device never
// changes `a`. Proven: warnings and fix-its from the profile, applied by
// `ompdp fix --apply`, same output, findings gone, counts as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before | FileCheck %s --check-prefix=TABLE
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=before.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  int a[N], sum = 0, prod = 1;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 == 0 ? 1 : 2;
#pragma omp target map(to : a) map(tofrom : sum)
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];

#pragma omp target map(to : a) map(tofrom : prod)
#pragma omp parallel for reduction(* : prod)
  for (int i = 0; i < 8; ++i)
    prod *= a[i];
  printf("listing1: sum=%d prod=%d\n", sum, prod);
  return 0;
}

// TABLE:      region {{.*}} 'target' at prog.c:[[#T1:]]:1 in 'main'
// TABLE-NEXT: loop: none
// TABLE:      stmt: [[#T1]]:1-[[#T1+3]]:17 bytes {{[0-9]+}}+{{[0-9]+}} block [[#BLK:]] #2 decls 1 jumps 0 own-lines
// TABLE-NEXT: host 0 'a' write at [[#T1-2]]:3-[[#T1-1]]:31 bytes {{[0-9]+}}+{{[0-9]+}} statement{{$}}
// TABLE-NEXT: host 1 'sum' read at [[#T1+9]]:3-[[#T1+9]]:51 bytes {{[0-9]+}}+{{[0-9]+}} statement after{{$}}
// TABLE:      region {{.*}} 'target' at prog.c:[[#T1+5]]:1 in 'main'
// TABLE:      stmt: [[#T1+5]]:1-[[#T1+8]]:18 bytes {{[0-9]+}}+{{[0-9]+}} block [[#BLK]] #3 decls 1 jumps 0 own-lines
// TABLE-NEXT: host 0 'a' write at [[#T1-2]]:3-[[#T1-1]]:31 bytes {{[0-9]+}}+{{[0-9]+}} statement{{$}}

// REPORT: duplicate_transfer {{.*}}prog.c:[[#T2:]]:1 in main count=1
// REPORT-NEXT: variable: a  clause: map(to : a)
// REPORT: rewrite (keep_resident): keep `a` on device 0 across the 2 constructs in a row at prog.c:[[#T2-5]] and [[#T2]]: `#pragma omp target data map(to: a)` and `{` before line [[#T2-5]], `}` after line [[#T2+3]]; no host code between them uses `a`  [saves {{.*}}: 1 transfer (16.0 KiB), 1 allocation]
// REPORT-NEXT: assumes: no host code between them reaches `a` through another pointer
// REPORT-NEXT: prog.c:[[#T2-5]]:1: insert "#pragma omp target data map(to: a)\n{\n"
// REPORT-NEXT: prog.c:[[#T2+4]]:1: insert "}\n"

// DIAG: prog.c:[[#D:]]:29: warning: duplicate transfer: 'a' in map(to : a) sends the device bytes it already has, once [-Wompdp-duplicate-transfer]
// DIAG: fix-it:"prog.c":{[[#D-5]]:1-[[#D-5]]:1}:"#pragma omp target data map(to: a)\n{\n"
// DIAG-NEXT: fix-it:"prog.c":{[[#D+4]]:1-[[#D+4]]:1}:"}\n"
// DIAG: note: fix (keep_resident): keep `a` on device 0 across the 2 constructs in a row

// APPLY: prog.c: 2 edit(s) applied

// FIXED:      {{^}}    a[i] = i % 3 == 0 ? 1 : 2;
// FIXED-NEXT: {{^}}#pragma omp target data map(to: a){{$}}
// FIXED-NEXT: {{^}}{{{$}}
// FIXED-NEXT: {{^}}#pragma omp target map(to : a) map(tofrom : sum)
// FIXED:      {{^}}    prod *= a[i];
// FIXED-NEXT: {{^}}}{{$}}
// FIXED-NEXT: {{^}}  printf(

// PROOF: rewrites: 1 for 2 finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: gone: duplicate_transfer of a: yes
// PROOF-NEXT: gone: repeated_alloc of a: yes
// PROOF-NEXT: OK
