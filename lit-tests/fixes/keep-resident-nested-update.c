//===- keep-resident-nested-update.c - others' operations inside its body -===//
//
// HeCBench knn's shape: each iteration of a loop opens a `target data` that
// maps its input `to` and its result `alloc`, runs kernels that write the
// result and brings it back with a `target update from` in the body; the
// host reads the result after the loop. The update is another construct's
// operation on the result's buffer between two allocations of it by the
// `target data`, but inside its allocation, where keeping the buffer on
// the device changes nothing it finds: the result is kept resident around
// the loop too (`map(alloc: r[0:N])`), the update stays, and so does the
// output. (The findings of `a` and `r` come in the order of their times,
// which varies: each is checked by its variable.) Negative (OUTSIDE): a kernel after the `target data`, in the
// same loop, maps the result itself (`tofrom`), between the `target
// data`'s executions: no rewrite for the result's allocations, with the
// reason. Applied, rebuilt, rerun: same output.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: cd %t && %clang-ompdp -DOUTSIDE %s -o outside
// RUN: cd %t && %ompdp run -- ./outside 2>&1 | FileCheck %s --check-prefix=OUTSIDE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  static float a[N], r[N];
  for (int i = 0; i < N; ++i)
    a[i] = i % 7;
  for (int it = 0; it < 5; ++it) {
#pragma omp target data map(to: a[0:N]) map(alloc: r[0:N])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        r[i] = 2 * a[i] + it;
#pragma omp target update from(r[0:N])
    }
#ifdef OUTSIDE
#pragma omp target teams distribute parallel for map(tofrom: r[0:N])
    for (int i = 0; i < N; ++i)
      r[i] += 1;
#endif
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += r[i];
  printf("s=%g\n", s);
  return 0;
}

// REPORT: rewrite (keep_resident): keep `a[0:N]` and `r[0:N]` on device 0 for the whole for loop at prog.c:[[#]]: `#pragma omp target data map(to: a[0:N]) map(alloc: r[0:N])` before it
// REPORT: variable: r clause: map(alloc: r[0:N])
// REPORT-NEXT: first allocated at
// REPORT-NEXT: verdict: fix

// FIXED: #pragma omp target data map(to: a[0:N]) map(alloc: r[0:N])
// FIXED-NEXT: for (int it = 0; it < 5; ++it) {

// OUTSIDE: variable: r clause: map(alloc: r[0:N])
// OUTSIDE-NEXT: first allocated at
// OUTSIDE-NEXT: verdict: advice
// OUTSIDE-NEXT: suggestion: {{.*}}No rewrite: other constructs work on the same buffer between its executions.
