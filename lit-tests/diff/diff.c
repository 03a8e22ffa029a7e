//===- diff.c - what a fix changed: ompdp diff before.json after.json ------===//
//
// Listing 1 and 2, built with the plugin. FIXED, `ompdp fix --apply` and a
// rebuild remove every finding but the zero-filled copy, which moves to the
// target data region the fix adds: the diff shows them gone and it moved,
// fewer transfers, bytes and allocations, and exits 0; its JSON form says
// the same. WORSE, the other way round every finding is new and
// the exit status is 1 (the waste grew). MORE, the same build run for more
// steps: findings matched by region and item have more operations (1).
// SAME, a report against itself: every finding the same (0). Bad input:
// an unreadable or corrupt report, a missing operand, an unknown option or
// format are one line and status 2.
//
// REQUIRES: plugin
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/prog.c && cd %t.dir
// RUN: %clang-ompdp prog.c -o before
// RUN: %ompdp run --format=json -o before.json -- ./before > /dev/null
// RUN: %ompdp run --format=json -o longer.json -- ./before 20 > /dev/null
// RUN: %ompdp fix --apply before.json
// RUN: %clang-ompdp prog.c -o after
// RUN: %ompdp run --format=json -o after.json -- ./after > /dev/null
// RUN: %ompdp diff before.json after.json | FileCheck %s --check-prefix=FIXED
// RUN: %ompdp diff --format=json -o fixed.json before.json after.json
// RUN: %python -c "import json; d=json.load(open('fixed.json')); print(d['ompdp_diff_version'], d['waste_grew'], d['findings_summary'], d['totals']['transfers']['change'] < 0, sorted(set(f['status'] for f in d['findings'])))" | FileCheck %s --check-prefix=FIXED-JSON
// RUN: not %ompdp diff after.json before.json | FileCheck %s --check-prefix=WORSE
// RUN: sh -c '%ompdp diff after.json before.json > /dev/null; echo "rc=$?"' | FileCheck %s --check-prefix=RC1
// RUN: not %ompdp diff before.json longer.json | FileCheck %s --check-prefix=MORE
// RUN: %ompdp diff before.json before.json | FileCheck %s --check-prefix=SAME
//
// RUN: printf '{"ompdp_report_version": 2, "summary": {' > corrupt.json
// RUN: not %ompdp diff before.json corrupt.json 2> err.txt
// RUN: FileCheck %s --check-prefix=CORRUPT --implicit-check-not=ompdp: < err.txt
// RUN: sh -c '%ompdp diff before.json corrupt.json 2>/dev/null; echo "rc=$?"' | FileCheck %s --check-prefix=RC2
// RUN: sh -c '%ompdp diff missing.json before.json 2>&1; echo "rc=$?"' | FileCheck %s --check-prefix=MISSING
// RUN: sh -c '%ompdp diff before.json 2>&1; echo "rc=$?"' | FileCheck %s --check-prefix=ONE
// RUN: sh -c '%ompdp diff --colour before.json after.json 2>&1; echo "rc=$?"' | FileCheck %s --check-prefix=FLAG
// RUN: sh -c '%ompdp diff --format=html before.json after.json 2>&1; echo "rc=$?"' | FileCheck %s --check-prefix=FORMAT
// RUN: sh -c '%ompdp diff a.json b.json c.json 2>&1; echo "rc=$?"' | FileCheck %s --check-prefix=THREE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static void listing1(void) {
  int a[N], sum = 0, prod = 1;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 == 0 ? 1 : 2;
#pragma omp target map(to : a) map(tofrom : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];
#pragma omp target map(to : a) map(tofrom : prod)
  for (int i = 0; i < 8; ++i)
    prod *= a[i];
  printf("listing1: sum=%d prod=%d\n", sum, prod);
}

static void listing2(int iters) {
  static int a2[N];
  for (int i = 0; i < iters; ++i) {
#pragma omp target
    for (int j = 0; j < N; ++j)
      a2[j] += j;
  }
  printf("listing2: a2[N-1]=%d\n", a2[N - 1]);
}

int main(int argc, char **argv) {
  listing1();
  listing2(argc > 1 ? atoi(argv[1]) : 10);
  return 0;
}

// FIXED: ompdp diff: before.json -> after.json
// FIXED: transfers 26 [[T:[0-9]+]] -{{[0-9]+}}  (-{{[0-9.]+}}%)
// FIXED: allocations 14 {{[0-9]+}} -{{[0-9]+}}
// FIXED: round_trips 9 0 -9
// FIXED: findings: {{[1-9]}} gone, 0 new, 0 with more avoidable operations
// FIXED-DAG: gone   round_trip a2  {{.*}}prog.c:{{[0-9]+}}:1 in listing2  count 9 -> 0
// FIXED-DAG: gone   duplicate_transfer a  {{.*}}prog.c:{{[0-9]+}}:1 in listing1  count 1 -> 0
// The zero-filled copy of a2 stays, now at the target data region around the loop.
// FIXED-DAG: moved  zero_transfer a2  prog.c:[[L:[0-9]+]]:1 in listing2 -> prog.c:{{[0-9]+}}:3  count 1 -> 1
// FIXED: verdict: the waste shrank

// FIXED-JSON: 1 False {'gone': {{[1-9]}}, 'new': 0, 'more': 0, 'fewer': 0, 'same': 0, 'moved': 1} True ['gone', 'moved']

// WORSE: findings: 0 gone, {{[1-9]}} new
// WORSE: new    round_trip a2
// WORSE: verdict: the waste grew
// RC1: rc=1

// MORE: findings: 0 gone, 0 new, {{[1-9]}} with more avoidable operations
// MORE: more   round_trip a2 {{.*}} count 9 -> 19
// MORE: verdict: the waste grew

// SAME: findings: 0 gone, 0 new, 0 with more avoidable operations, 0 with fewer, {{[1-9]}} the same
// SAME: verdict: the waste is the same

// CORRUPT: ompdp: corrupt.json: invalid JSON
// RC2: rc=2
// MISSING: ompdp: cannot read 'missing.json': No such file or directory
// MISSING-NEXT: rc=2
// ONE: ompdp: two reports are needed
// ONE-NEXT: rc=2
// FLAG: ompdp: unknown option '--colour' (see 'ompdp diff --help')
// FLAG-NEXT: rc=2
// FORMAT: ompdp: unknown --format 'html' for diff (use text or json)
// FORMAT-NEXT: rc=2
// THREE: ompdp: two reports to compare, not more ('c.json')
// THREE-NEXT: rc=2
