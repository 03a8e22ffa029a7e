//===- keep-resident-return.c - a loop left by return: enter/exit data ----===//
//
// The shape of a real program (a HeCBench benchmark whose loop body has
// `return -1;` when an allocation fails; ompdp once put `#pragma omp target
// data` before that loop, and the build broke: "cannot return from OpenMP
// region"). The construct in the loop maps `field` tofrom at every step:
// round trips and repeated allocations. The loop is left by `return -1`
// (on its own lines) and by `goto done` (sharing its line with an `if`), so
// no `target data` region may wrap it: the rewrite puts `target enter data`
// before the loop and `target exit data` after it and before each jump
// out, the `goto` made a block with it. Applied, rebuilt and rerun on both
// paths (the loop finishing, and the early return at step 3, where the
// exit data brings back what the device computed so far): the same output,
// the findings gone, the transfers and allocations down as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && not ./before 3 > before-early.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED --match-full-lines < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: cd %t && not ./after 3 > after-early.out
// RUN: diff %t/before.out %t/after.out
// RUN: diff %t/before-early.out %t/after-early.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096
static double field[N];

static int relax(int steps, int fail_at) {
  for (int s = 0; s < steps; ++s) {
    int allocated = s != fail_at; /* stands for a malloc that can fail */
    if (!allocated) {
      fprintf(stderr, "allocation failed at step %d\n", s);
      return -1;
    }
#pragma omp target map(tofrom : field[0:N])
    for (int i = 0; i < N; ++i)
      field[i] = 0.5 * field[i] + 1.0;
    if (s == 1000) goto done;
  }
done:
  return 0;
}

int main(int argc, char **argv) {
  int fail_at = argc > 1 ? atoi(argv[1]) : -1;
  for (int i = 0; i < N; ++i)
    field[i] = i;
  int rc = relax(8, fail_at);
  printf("rc=%d field[0]=%.6f field[N-1]=%.6f\n", rc, field[0], field[N - 1]);
  return rc ? 1 : 0;
}

// REPORT: round_trip  prog.c:[[#C:]]:1 in relax
// REPORT: rewrite (keep_resident): keep `field[0:N]` on device 0 for the whole for loop at prog.c:[[#L:]]: `#pragma omp target enter data map(to: field[0:N])` before it and `#pragma omp target exit data map(from: field[0:N])` after it and before the
// REPORT-SAME: `return` at line [[#L+4]] and the `goto` at line [[#L+9]] (a `target data` region cannot be left by a jump)
// REPORT-NEXT: assumes:
// REPORT-NEXT: prog.c:[[#L]]:1-[[#L]]:6: replace "for" with "  #pragma omp target enter data map(to: field[0:N])\n  for"
// REPORT-NEXT: prog.c:[[#L+4]]:1: insert "      #pragma omp target exit data map(from: field[0:N])\n"
// REPORT-NEXT: prog.c:[[#L+9]]:20: insert "{\n                   #pragma omp target exit data map(from: field[0:N])\n                   "
// REPORT-NEXT: prog.c:[[#L+9]]:30: insert " }"
// REPORT-NEXT: prog.c:[[#L+11]]:1: insert "  #pragma omp target exit data map(from: field[0:N])\n"

// APPLY: prog.c: 5 edit(s) applied

// FIXED:      static int relax(int steps, int fail_at) {
// FIXED-NEXT:   #pragma omp target enter data map(to: field[0:N])
// FIXED-NEXT:   for (int s = 0; s < steps; ++s) {
// FIXED-NEXT:     int allocated = s != fail_at; /* stands for a malloc that can fail */
// FIXED-NEXT:     if (!allocated) {
// FIXED-NEXT:       fprintf(stderr, "allocation failed at step %d\n", s);
// FIXED-NEXT:       #pragma omp target exit data map(from: field[0:N])
// FIXED-NEXT:       return -1;
// FIXED-NEXT:     }
// FIXED-NEXT: #pragma omp target map(tofrom : field[0:N])
// FIXED-NEXT:     for (int i = 0; i < N; ++i)
// FIXED-NEXT:       field[i] = 0.5 * field[i] + 1.0;
// FIXED-NEXT:     if (s == 1000) {
// FIXED-NEXT:                    #pragma omp target exit data map(from: field[0:N])
// FIXED-NEXT:                    goto done; }
// FIXED-NEXT:   }
// FIXED-NEXT:   #pragma omp target exit data map(from: field[0:N])
// FIXED-NEXT: done:

// PROOF: rewrites: 1 for 2 finding(s)
// PROOF-NEXT: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 14, predicted 14)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 7, predicted 7)
// PROOF-NEXT: gone: round_trip of field: yes
// PROOF-NEXT: gone: repeated_alloc of field: yes
// PROOF-NEXT: OK
