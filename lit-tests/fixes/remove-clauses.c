//===- remove-clauses.c - removals on directives with unrecorded clauses --===//
//
// The region table records each directive as written and the clauses no
// item records (device, if, depend, nowait), so a removal checks the whole
// line, whatever its clauses. An unused `target update to(y) device(1)`
// goes; x, mapped by an enter/exit pair with `if(...)` and freed before any
// kernel, goes from both (each directive as a whole line); the unused
// `target update ... nowait` of z goes, saying that its deferred task is
// gone for the `taskwait` after it. q's copy in at an enter with `if` and
// `device` is overwritten before any kernel: its clause becomes
// `map(alloc: ...)`, the other clauses stay. Applied, rebuilt and rerun: same
// output, the findings gone, the transfers and allocations dropped as
// predicted. (An update with `depend` runs in a task that the region table
// does not attribute yet; the rule for it is unit-tested in
// unittests/test_rewrite_clauses.c.)
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REMOVEDZ
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REMOVEDY
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
  static int x[N], y[N], z[N], q[N];
  int n = N, sum = 0;
  for (int i = 0; i < N; ++i)
    x[i] = y[i] = z[i] = q[i] = i;
#pragma omp target enter data map(alloc: y[0:N], z[0:N]) device(1)
#pragma omp target enter data map(to: q[0:N]) if(n > 0) device(1)
#pragma omp target enter data map(to : x[0:N]) if(n > 0)
#pragma omp target exit data map(delete : x[0:N]) if (n > 0)
#pragma omp target update to(y[0:N])   device(1)
#pragma omp target update to(z[0:N]) device(1) nowait
#pragma omp taskwait
  for (int i = 0; i < N; ++i)
    y[i] = z[i] = q[i] = 2 * i;
#pragma omp target update to(y[0:N], z[0:N], q[0:N]) device(1)
#pragma omp target map(tofrom: sum) device(1)
  for (int i = 0; i < N; ++i)
    sum += y[i] + z[i] + q[i];
#pragma omp target exit data map(release: y[0:N], z[0:N], q[0:N]) device(1)
  printf("sum=%d\n", sum);
  return 0;
}

// REPORT: unused_alloc {{.*}}prog.c:[[#X:]]:1 in main count=1
// REPORT: rewrite (remove_item): remove `x[0:N]` from `target enter data` at prog.c:[[#X]] and from `target exit data` at prog.c:[[#X+1]]
// REPORT-NEXT: prog.c:[[#X]]:1-[[#X+1]]:1: delete "#pragma omp target enter data map(to : x[0:N]) if(n > 0)"
// REPORT-NEXT: prog.c:[[#X+1]]:1-[[#X+2]]:1: delete "#pragma omp target exit data map(delete : x[0:N]) if (n > 0)"
// The updates of y (line 44) and z (line 45) resend w's bytes: their
// duplicates come first in the report, each showing the removal that takes
// its copy, in the order of their times (which vary from run to run: one
// check of the report per variable).
// REMOVEDZ: duplicate_transfer {{.*}}prog.c:45:1 in main
// REMOVEDZ: rewrite (remove_item): remove `z[0:N]` from `target update` at prog.c:45: no kernel read what it sent
// REMOVEDZ: assumes: the deferred task of the `target update nowait` at prog.c:45 is gone
// REMOVEDZ: prog.c:45:1-46:1: delete "#pragma omp target update to(z[0:N]) device(1) nowait"
// REMOVEDZ: unused_alloc {{.*}}prog.c:42:1 in main count=1
// REMOVEDZ: unused_transfer {{.*}}prog.c:45:1 in main
// REMOVEDZ: rewrite (remove_item): the one shown above for duplicate_transfer of `z` at prog.c:45:1
// REMOVEDY: duplicate_transfer {{.*}}prog.c:44:1 in main
// REMOVEDY: rewrite (remove_item): remove `y[0:N]` from `target update` at prog.c:44: no kernel read what it sent
// REMOVEDY-NEXT: prog.c:44:1-45:1: delete "#pragma omp target update to(y[0:N]) device(1)"
// REMOVEDY: unused_alloc {{.*}}prog.c:42:1 in main count=1
// REMOVEDY: unused_transfer {{.*}}prog.c:44:1 in main
// REMOVEDY: rewrite (remove_item): the one shown above for duplicate_transfer of `y` at prog.c:44:1

// REPORT-DAG: rewrite (change_map_type): map `q[0:N]` with `alloc` instead of `to` at prog.c:[[#X-1]]
// REPORT-DAG: prog.c:[[#X-1]]:31-[[#X-1]]:46: replace "map(to: q[0:N])" with "map(alloc: q[0:N])"

// APPLY: prog.c: 5 edit(s) applied

// FIXED:      {{^}}#pragma omp target enter data map(alloc: y[0:N], z[0:N]) device(1){{$}}
// FIXED-NEXT: {{^}}#pragma omp target enter data map(alloc: q[0:N]) if(n > 0) device(1){{$}}
// FIXED-NEXT: {{^}}#pragma omp taskwait{{$}}
// FIXED-NEXT: {{^}}  for (int i = 0; i < N; ++i){{$}}

// PROOF: rewrites: 4 for 7 finding(s)
// PROOF-NEXT: transfers: 9 -> 5 (removed 4, predicted 4)
// PROOF-NEXT: allocs: 5 -> 4 (removed 1, predicted 1)
// PROOF: OK
