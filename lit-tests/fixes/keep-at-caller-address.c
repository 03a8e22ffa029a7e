//===- keep-at-caller-address.c - a counter passed by its address --------===//
//
// HeCBench deredundancy's shape: a loop calls a function with `&r`, whose
// construct maps `r[0:1]` tofrom and counts into it. Each call allocates
// the counter, sends it and brings it back. `&r` is the same address at
// every call (the variable's value changes, its place does not), and
// `r[0:1]` with `&r` for `r` is the caller's `r` itself: the counter stays
// on the device for the whole loop, `#pragma omp target data map(tofrom:
// r)`, when no host code of the loop reads it. Same output, as predicted.
// Negative (-DWATCH): the loop's condition reads `r` after every call,
// where no `target update from` can go: no rewrite, and the report says
// so (the host's uses of `r` are those of the variable behind `&r`).
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
// RUN: cd %t.w && %clang-ompdp -g -DWATCH prog.c -o before
// RUN: cd %t.w && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.w && %ompdp report before.json | FileCheck %s --check-prefix=WATCH
// RUN: cd %t.w && %clang-ompdp -fplugin-arg-ompdp-dump -DWATCH -c prog.c -o /dev/null | FileCheck %s --check-prefix=DUMP
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
  int r = 0;
#ifdef WATCH
  while (r < 4000)
    bump(&r, a, N);
#else
  for (int it = 0; it < 4; ++it)
    bump(&r, a, N);
#endif
  printf("r=%d\n", r);
  free(a);
  return 0;
}

// REPORT: rewrite (keep_resident): keep {{.*}}`r` on device 0 for the whole for loop at prog.c:[[#L:]] that calls bump(), where it is `r[0:1]`: {{.*}}`#pragma omp target data map(tofrom: r)
// APPLY: prog.c: {{[0-9]+}} edit(s) applied
// FIXED: #pragma omp target data map(tofrom: r)
// FIXED-NEXT: for (int it = 0; it < 4; ++it)
// PROOF: OK

// WATCH: variable: r
// WATCH: No rewrite: host code at prog.c:[[#W:]] uses `r` where no `target update` can go
// DUMP: 'call' at prog.c:[[#]]:5 in 'main'
// DUMP: item 0: none '&r' var 'r'
// DUMP: host 0 'r' read at {{[0-9]+}}:10-
