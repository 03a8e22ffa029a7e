//===- keep-resident-first.c - the first plan is the best plan ------------===//
//
// c is mapped tofrom in every iteration of the loop, and the kernel only
// reads it: an overbroad map (its copies back bring what the host had)
// beside its duplicate transfers and repeated allocations. `map(to: c)`
// would remove only the copies back, and took the site before the rule
// that keeps c on the device across the loop could, which removes those
// too, and all copies in but the first, and all allocations but one; the
// rest waited for a second `ompdp fix`. Now the keep-resident rewrite comes
// first and fixes every finding of c (and out's, in the same loop), so a
// fix of the fixed program finds nothing left to apply. With -DJUMP (the
// negative case) a `return` in a macro leaves the loop, so nothing can be
// kept across it: the narrowing to `to` is made.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t/j && cp %s %t/prog.c && cp %s %t/j/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp fix after.json | FileCheck %s --check-prefix=SECOND
// RUN: cd %t/j && %clang-ompdp -DJUMP prog.c -o before
// RUN: cd %t/j && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t/j && %ompdp report before.json | FileCheck %s --check-prefix=JUMP
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define ITERS 4
#define STOP_IF(x) if (x) return 1

int main(void) {
  double *c = malloc(N * sizeof(double)), *out = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    c[i] = 1.0 / (i + 1);
  double sum = 0;
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for map(tofrom: c[0:N]) map(from: out[0:N])
    for (int j = 0; j < N; ++j)
      out[j] = c[j] * (it + 1);
    sum += out[it];
#ifdef JUMP
    STOP_IF(sum < 0);
#endif
  }
  printf("sum=%.6f\n", sum);
  free(c);
  free(out);
  return 0;
}

// REPORT: overbroad_map {{.*}}prog.c:[[#]]:1 in main count=4
// REPORT: verdict: fix
// REPORT-NEXT: suggestion: fixed by the rewrite below (keep_resident): keep `c[0:N]` and `out[0:N]` on device 0 for the whole for loop at prog.c:[[#]]: `#pragma omp target data map(to: c[0:N]) map(alloc: out[0:N])` before it; the device never changed `c[0:N]`, so nothing needs to come back
// REPORT-NOT: rewrite (change_map_type)

// APPLY: prog.c: 2 edit(s) applied

// PROOF: rewrites: 1 for 6 finding(s)
// PROOF-NEXT: transfers: 12 -> 5 (removed 7, predicted 7)
// PROOF-NEXT: allocs: 8 -> 2 (removed 6, predicted 6)
// PROOF: gone: overbroad_map of c: yes
// PROOF: OK

// SECOND: Diagnostics: []

// JUMP: overbroad_map {{.*}} count=4
// JUMP: rewrite (change_map_type): map `c[0:N]` with `to` instead of `tofrom`
