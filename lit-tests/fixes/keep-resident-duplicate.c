//===- keep-resident-duplicate.c - two items of one loop, one rewrite ------===//
//
// `a` goes to the device unchanged in every iteration (duplicate transfers,
// repeated allocations); `s` is mapped tofrom, changed by the device and
// sent back as it came (round trips). Both sit in one construct of one
// loop, so one rewrite covers all four findings: one `target data` with a
// map per item before the loop. No host code in the loop uses `s` (the
// compiler's host-access facts), so `map(tofrom: s)` around the loop
// brings it back once, after the loop, and the construct's own maps find
// both present and move nothing. Applied, rebuilt and rerun: same output,
// findings gone, 12 transfers and 8 allocations fewer, as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: FileCheck %s --check-prefix=JSON < %t/before.json
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 512
#define ITERS 5

int main(void) {
  int a[N];
  long s = 0;
  for (int i = 0; i < N; ++i)
    a[i] = i % 7;
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target map(to : a[0:N]) map(tofrom : s)
    for (int j = 0; j < N; ++j)
      s += a[j];
  }
  printf("s=%ld\n", s);
  return 0;
}

// REPORT: summary: duplicate_transfers=4 round_trips=4 repeated_allocs=8
// REPORT: duplicate_transfer {{.*}}prog.c:[[#T:]]:1 in main count=4
// REPORT: rewrite (keep_resident): keep `a[0:N]` and `s` on device 0 for the whole for loop at prog.c:[[#T-1]]: `#pragma omp target data map(to: a[0:N]) map(tofrom: s)` before it; no host code in the loop uses `s`, so it comes back once, after the loop  [saves {{.*}}: 12 transfers (8.1 KiB), 8 allocations]
// The plugin knows the region only reads `a`, so that is no longer an assumption.
// REPORT-NEXT: assumes: the names in `a[0:N]` mean the same before the loop; no host code in the loop reaches `s` through another pointer (the compiler follows the uses of `s` itself)
// REPORT-NEXT: prog.c:[[#T-1]]:1-[[#T-1]]:6: replace "for" with "  #pragma omp target data map(to: a[0:N]) map(tofrom: s)\n  for"
// REPORT-NOT: map(always
// REPORT: round_trip {{.*}} count=4
// REPORT-NEXT: variable: s
// REPORT-NOT: {{^[a-z_]+  }}
// The one rewrite that fixes both is shown once, and named here.
// REPORT: rewrite (keep_resident): the one shown above for duplicate_transfer of `a` at prog.c:[[#T]]:1 in main{{$}}

// JSON: "kind": "duplicate_transfer",
// JSON: "item": 0,
// JSON-NEXT: "range": {"line": [[#T:]], "column": 29, "end_line": {{[0-9]+}}, "end_column": 35, "offset": null, "end_offset": null},
// JSON-NEXT: "rewrites": [
// JSON-NEXT: {
// JSON-NEXT: "kind": "keep_resident",
// JSON: "transfers_removed": 12,
// JSON-NEXT: "allocs_removed": 8,
// JSON-NEXT: "bytes_removed": 8256,
// JSON-NEXT: "edits": [
// JSON-NEXT: {"file": "prog.c", "line": [[#T-1]], "column": 1, "end_line": [[#T-1]], "end_column": 6, "offset": null, "end_offset": null, "original": "for", "replacement": "  #pragma omp target data map(to: a[0:N]) map(tofrom: s)\n  for", "file_hash": "[[HASH:[0-9a-f]+]]"}
// JSON-NEXT: ]

// APPLY: prog.c: 1 edit(s) applied

// FIXED:      {{^}}  #pragma omp target data map(to: a[0:N]) map(tofrom: s){{$}}
// FIXED-NEXT: {{^}}  for (int it = 0; it < ITERS; ++it) {
// FIXED-NEXT: {{^}}#pragma omp target map(to : a[0:N]) map(tofrom : s){{$}}

// PROOF: rewrites: 1 for 4 finding(s)
// PROOF-NEXT: transfers: 15 -> 3 (removed 12, predicted 12)
// PROOF-NEXT: allocs: 10 -> 2 (removed 8, predicted 8)
// PROOF: OK
