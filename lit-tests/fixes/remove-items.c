//===- remove-items.c - unused allocations and transfers, removed ---------===//
//
// x is copied in and freed again before any kernel (an unused allocation
// and an unused transfer at the enter): x leaves the list of the enter (the
// comma goes with it) and the exit, which maps nothing else, goes as a whole
// line; both findings share that rewrite. The first `target update to(y)` is
// overwritten before any kernel reads it: the directive goes. v's copy in at
// its enter is overwritten by an update before any kernel: the enter maps v
// with `alloc` instead. Applied, rebuilt and rerun: same output, findings
// gone, one allocation and three transfers fewer, as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1000

int main(void) {
  static int x[N], w[N], y[N], v[N];
  int sum = 0;
  for (int i = 0; i < N; ++i)
    x[i] = w[i] = y[i] = v[i] = i;
#pragma omp target enter data map(to : x[0:N], w[0:N])
#pragma omp target exit data map(delete : x[0:N])
#pragma omp target enter data map(alloc : y[0:N])
#pragma omp target update to(y[0:N])
  for (int i = 0; i < N; ++i)
    y[i] = 2 * i;
#pragma omp target update to(y[0:N])
#pragma omp target enter data map(to : v[0:N])
  for (int i = 0; i < N; ++i)
    v[i] = 3 * i;
#pragma omp target update to(v[0:N])
#pragma omp target map(tofrom : sum)
  for (int i = 0; i < N; ++i)
    sum += w[i] + y[i] + v[i];
#pragma omp target exit data map(release : w[0:N], y[0:N], v[0:N])
  printf("sum=%d\n", sum);
  return 0;
}

// The update of y sends bytes that w sent before, and nothing reads them:
// its duplicate shows the removal (the copy goes), not a coincidence.
// REPORT: duplicate_transfer {{.*}}prog.c:[[#Y:]]:1 in main
// REPORT: verdict: fix
// REPORT: rewrite (remove_item): remove `y[0:N]` from `target update` at prog.c:[[#Y]]
// REPORT-NEXT: prog.c:[[#Y]]:1-[[#Y+1]]:1: delete "#pragma omp target update to(y[0:N])"
// REPORT: unused_alloc {{.*}}prog.c:[[#E:]]:1 in main count=1
// REPORT: rewrite (remove_item): remove `x[0:N]` from `target enter data` at prog.c:[[#E]] and from `target exit data` at prog.c:[[#E+1]]: no kernel ran while the memory existed  [saves {{.*}}: 1 transfer (3.9 KiB), 1 allocation]
// REPORT-NEXT: prog.c:[[#E]]:40-[[#E]]:48: delete "x[0:N],"
// REPORT-NEXT: prog.c:[[#E+1]]:1-[[#E+2]]:1: delete "#pragma omp target exit data map(delete : x[0:N])"
// REPORT: Unused transfers:
// REPORT-DAG: unused_transfer {{.*}}prog.c:[[#E]]:1 in main count=1
// REPORT-DAG: unused_transfer {{.*}}prog.c:[[#E+3]]:1 in main count=1
// REPORT-DAG: unused_transfer {{.*}}prog.c:[[#E+7]]:1 in main count=1
// REPORT-DAG: rewrite (change_map_type): map `v[0:N]` with `alloc` instead of `to` at prog.c:[[#E+7]]
// REPORT-DAG: prog.c:[[#E+7]]:31-[[#E+7]]:47: replace "map(to : v[0:N])" with "map(alloc: v[0:N])"
// REPORT-DAG: rewrite (remove_item): the one shown above for duplicate_transfer of `y` at prog.c:[[#E+3]]:1 in main

// APPLY: prog.c: 4 edit(s) applied

// FIXED:      x[i] = w[i] = y[i] = v[i] = i;
// FIXED-NEXT: {{^}}#pragma omp target enter data map(to : w[0:N]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target enter data map(alloc : y[0:N]){{$}}
// FIXED-NEXT: {{^}}  for (int i = 0; i < N; ++i)
// FIXED-NEXT: {{^}}    y[i] = 2 * i;
// FIXED-NEXT: {{^}}#pragma omp target update to(y[0:N]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target enter data map(alloc: v[0:N]){{$}}

// PROOF: rewrites: 3 for 5 finding(s)
// PROOF-NEXT: transfers: 8 -> 5 (removed 3, predicted 3)
// PROOF-NEXT: allocs: 5 -> 4 (removed 1, predicted 1)
// PROOF: OK
