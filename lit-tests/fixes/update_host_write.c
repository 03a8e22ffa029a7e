//===- update_host_write.c - target update where the host writes ----------===//
//
// The host changes `a` in every iteration, so the copies in of `a` differ
// and `map(always, from: a)` alone would lose the host's writes; the device
// never changes `a` in this run (the region may write it, so `map(to: a)`
// is no rewrite), so every copy back is wasted (round trips). The
// plugin's host-access facts say where the host writes `a` in the loop (the
// statement on the line before the construct, every iteration), so the
// rewrite keeps `a` resident (`map(to: a)` around the loop) and inserts
// `#pragma omp target update to(a)` after that statement: one copy in per
// iteration instead of a copy in and a copy back. `b`, changed by the
// device and read by the host in the loop, keeps the cheaper
// `map(always, from: b)`. The saving counts the inserted updates as
// transfers. Proven: warnings and fix-its from the profile, applied by
// `ompdp fix --apply`, same output, findings gone, counts as predicted.
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
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 5

#pragma omp declare target
static int weight(const int *v, int j) { return v[j] % 7 + 1; }
#pragma omp end declare target

int main(void) {
  static int a[N], b[N];
  long seen = 0;
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 1;
  }
  for (int it = 0; it < ITERS; ++it) {
    a[it] = 3 * it + 1; // the host changes a: the device must see it
#pragma omp target teams distribute parallel for map(tofrom: a) map(tofrom: b)
    for (int j = 0; j < N; ++j)
    {
      b[j] = 2 * b[j] % 1000 + weight(a, j);
      if (b[j] < 0) // never here: the compiler sees a write, the run none
        a[j] = 0;
    }
    seen += b[it];
  }
  printf("a[2]=%d b[1]=%d b[N-1]=%d seen=%ld\n", a[2], b[1], b[N - 1], seen);
  return 0;
}

// REPORT: round_trip {{.*}}prog.c:[[#T:]]:1 in main count=5
// REPORT-NEXT: variable: a  clause: map(tofrom: a)
// REPORT: rewrite (keep_resident): keep `a` and `b` on device 0 for the whole for loop at prog.c:[[#T-2]]: `#pragma omp target data map(to: a) map(to: b)` before it; `target update to(a)` after line [[#T-1]]; the target construct at line [[#T]] copies `b` back with `map(always, from: b)`  [saves {{.*}}: 8 transfers (8.0 KiB), 8 allocations]
// REPORT-NEXT: assumes: no host code in the loop reaches `a` through another pointer (the compiler follows the uses of `a` itself)
// REPORT-NEXT: prog.c:[[#T-2]]:1-[[#T-2]]:6: replace "for" with "  #pragma omp target data map(to: a) map(to: b)\n  for"
// REPORT-NEXT: prog.c:[[#T]]:1: insert "    #pragma omp target update to(a)\n"
// REPORT-NEXT: prog.c:[[#T]]:65-[[#T]]:79: replace "map(tofrom: b)" with "map(always, from: b)"

// DIAG: prog.c:[[#D:]]:{{[0-9]+}}: warning: {{.*}} [-Wompdp-{{[a-z-]+}}]
// DIAG: fix-it:"prog.c":{[[#D-2]]:1-[[#D-2]]:6}:"  #pragma omp target data map(to: a) map(to: b)\n  for"
// DIAG-NEXT: fix-it:"prog.c":{[[#D]]:1-[[#D]]:1}:"    #pragma omp target update to(a)\n"
// DIAG-NEXT: fix-it:"prog.c":{[[#D]]:65-[[#D]]:79}:"map(always, from: b)"
// DIAG: note: fix (keep_resident): keep `a` and `b` {{.*}}`target update to(a)` after line [[#D-1]]

// APPLY: prog.c: 3 edit(s) applied

// FIXED:      {{^}}  #pragma omp target data map(to: a) map(to: b){{$}}
// FIXED-NEXT: {{^}}  for (int it = 0; it < ITERS; ++it) {
// FIXED-NEXT: {{^}}    a[it] = 3 * it + 1; // the host changes a: the device must see it
// FIXED-NEXT: {{^}}    #pragma omp target update to(a){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(tofrom: a) map(always, from: b){{$}}

// Before: 10 copies of `a` (5 in, 5 back) and 10 of `b`; after: `a` once
// in and 5 updates, `b` once in and 5 back.
// PROOF: rewrites: 1 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: 20 -> 12 (removed 8, predicted 8)
// PROOF-NEXT: allocs: 10 -> 2 (removed 8, predicted 8)
// PROOF: gone: round_trip of a: yes
// PROOF: OK
