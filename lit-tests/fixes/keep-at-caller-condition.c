//===- keep-at-caller-condition.c - a counter the loop's condition reads --===//
//
// HeCBench deredundancy's shape: `while (r < LIMIT) { bump(&r, ...); }`,
// whose bump() maps `r[0:1]` tofrom and counts into it: each call
// allocates the counter, sends it and brings it back, and the loop's
// condition reads it, where no `target update` can go. Only the call
// changes the device's copy, so one `target update from(r)` right after
// the call's statement serves every read of the loop (the condition, the
// `if` after the call): the counter stays on the device for the whole
// loop, and each call still brings it back once, but sends and allocates
// nothing. Same output, as predicted.
// Negatives: -DWRITE, the host also changes `r` in the loop (an update to
// would have to come between the call and the condition); -DDIRECT, a
// construct of the loop itself also counts into it (the update after the
// call would miss its change); -DBARE, the call is the loop's body
// itself, with no braces (an update after it would leave the loop;
// keep-at-caller-address.c's WATCH is the same). Each keeps the advice and
// says why.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -g prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp -g prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: rm -rf %t.w && mkdir -p %t.w && cp %s %t.w/prog.c
// RUN: cd %t.w && %clang-ompdp -g -DWRITE prog.c -o before
// RUN: cd %t.w && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.w && %ompdp report before.json | FileCheck %s --check-prefix=REFUSED
// RUN: rm -rf %t.d && mkdir -p %t.d && cp %s %t.d/prog.c
// RUN: cd %t.d && %clang-ompdp -g -DDIRECT prog.c -o before
// RUN: cd %t.d && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.d && %ompdp report before.json | FileCheck %s --check-prefix=DIRECT
// RUN: rm -rf %t.b && mkdir -p %t.b && cp %s %t.b/prog.c
// RUN: cd %t.b && %clang-ompdp -g -DBARE prog.c -o before
// RUN: cd %t.b && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.b && %ompdp report before.json | FileCheck %s --check-prefix=REFUSED
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static void bump(int *r, const int *a, int n) {
#pragma omp target teams distribute parallel for map(tofrom: r[0:1]) map(to: a[0:n])
  for (int i = 0; i < n; ++i)
    if (a[i] > 2) {
#pragma omp atomic
      r[0] += 1;
    }
}

int main(void) {
  int *a = malloc(N * sizeof(int));
  for (int i = 0; i < N; ++i)
    a[i] = i % 5;
  int r = 0, steps = 0;
#ifdef BARE
  while (r < 12000)
    bump(&r, a, N);
#else
  while (r < 12000) {
    bump(&r, a, N);
    if (r > 6000)
      ++steps;
#ifdef DIRECT
#pragma omp target map(tofrom: r)
    r += 1;
#endif
#ifdef WRITE
    r -= 1;
#endif
  }
#endif
  printf("r=%d steps=%d\n", r, steps);
  free(a);
  return 0;
}

// REPORT: rewrite (keep_resident): {{.*}}keep `r` on device 0 for the whole while loop at prog.c:[[#L:]] that calls bump(), where it is `r[0:1]`: `#pragma omp target data map(tofrom: r)` before it; the maps in bump() then find it present;
// REPORT-SAME: `target update from(r)` after line [[#L+1]], the call's, so that the host's reads in the loop (line [[#L]] where no directive can go among them) see what the call computed
// APPLY: prog.c: {{[0-9]+}} edit(s) applied
// FIXED: #pragma omp target data map(tofrom: r)
// FIXED-NEXT: while (r < 12000) {
// FIXED-NEXT: bump(&r, a, N);
// FIXED-NEXT: #pragma omp target update from(r)
// FIXED-NEXT: if (r > 6000)
// PROOF: OK

// REFUSED: variable: r
// REFUSED: No rewrite: host code at prog.c:{{[0-9]+}} uses `r` where no `target update` can go

// DIRECT: variable: r
// DIRECT: No rewrite: the target construct at prog.c:{{[0-9]+}} maps it, and the run saw it run outside the calls it could follow
