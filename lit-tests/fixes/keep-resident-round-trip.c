//===- keep-resident-round-trip.c - Listing 2, fixed and proven ------------===//
//
// Listing 2: `b` is mapped implicitly tofrom in every iteration. The device
// changes it each time and the host sends back what it got: round trips and
// repeated allocations. The rewrite keeps `b` on the device across the loop
// (`target data map(to: b)` before it) and copies it back after each kernel
// (`map(always, from: b)`), so the host still sees every value. Applied by
// `ompdp fix --apply` and, from the YAML, by clang-apply-replacements (the
// same file); the rebuilt program prints the same, the findings are gone,
// and transfers and allocations drop by what the rewrite predicted.
//
// REQUIRES: plugin, clang-apply-replacements
// RUN: rm -rf %t && mkdir -p %t/car/yaml && cp %s %t/prog.c && cp %s %t/car/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix before.json | FileCheck %s --check-prefix=YAML -DDIR=%t
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cmp %t/prog.c.orig %s
// RUN: %ompdp fix --root %t/car -o %t/car/yaml/fixes.yaml %t/before.json
// RUN: clang-apply-replacements %t/car/yaml
// RUN: diff %t/car/prog.c %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 5

int main(void) {
  static int b[N];
  long seen = 0;
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; ++j)
      b[j] += j + it;
    seen += b[it]; // the host reads b in the loop: it must stay current
  }
  printf("b[1]=%d b[N-1]=%d seen=%ld\n", b[1], b[N - 1], seen);
  return 0;
}

// REPORT: round_trip {{.*}}prog.c:[[#LOOP:]]:1 in main count=4
// REPORT: rewrite (keep_resident): keep `b` on device 0 for the whole for loop at prog.c:[[#LOOP-1]]: `#pragma omp target data map(to: b)` before it; the target construct at line [[#LOOP]] copies `b` back with `map(always, from: b)`  [saves {{.*}}: 4 transfers (4.0 KiB), 4 allocations]
// REPORT-NEXT: prog.c:[[#LOOP-1]]:1-[[#LOOP-1]]:6: replace "for" with "  #pragma omp target data map(to: b)\n  for"
// REPORT-NEXT: prog.c:[[#LOOP]]:49-[[#LOOP+1]]:1: insert " map(always, from: b)\n"
// REPORT: repeated_alloc {{.*}}prog.c:[[#LOOP]]:1 in main count=4
// REPORT-NEXT: variable: b  clause: implicit map(tofrom: b)
// REPORT: rewrite (keep_resident)

// YAML: MainSourceFile: "[[DIR]]/prog.c"
// YAML: - DiagnosticName: "ompdp-round-trip"
// YAML: Replacements:
// YAML-NEXT: - FilePath: "[[DIR]]/prog.c"
// YAML-NEXT: Offset:
// YAML-NEXT: Length: 5
// YAML-NEXT: ReplacementText: "  #pragma omp target data map(to: b)\n  for"
// YAML: Length: 1
// YAML-NEXT: ReplacementText: " map(always, from: b)\n"
// YAML-NOT: DiagnosticName

// APPLY: prog.c: 2 edit(s) applied (the old file is {{.*}}prog.c.orig)

// FIXED:      static int b[N];
// FIXED-NEXT: long seen = 0;
// FIXED-NEXT: {{^}}  #pragma omp target data map(to: b){{$}}
// FIXED-NEXT: {{^}}  for (int it = 0; it < ITERS; ++it) {
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(always, from: b){{$}}
// FIXED-NEXT: {{^}}    for (int j = 0; j < N; ++j)

// PROOF: rewrites: 1 for 2 finding(s)
// PROOF-NEXT: transfers: 10 -> 6 (removed 4, predicted 4)
// PROOF-NEXT: allocs: 5 -> 1 (removed 4, predicted 4)
// PROOF-NEXT: gone: round_trip of b: yes
// PROOF-NEXT: gone: repeated_alloc of b: yes
// PROOF-NEXT: OK
