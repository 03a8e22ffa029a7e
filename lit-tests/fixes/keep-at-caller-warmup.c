//===- keep-at-caller-warmup.c - a warm-up call before the loop ----------===//
//
// A benchmark's shape (HeCBench histogram's RunTest): the function under
// test is called once before the timing loop (a warm-up, or a check of its
// result), then in the loop; here the timing loop is itself in a loop of
// rounds, so it begins twice. The call before the loop is of the same
// function and outside the loop's statement: a `target data` around the
// loop leaves it as it is, and the run counted how often the construct
// began in each call (region table 3.14), so the loop's share of its
// operations is known. The pass tags the loop's entry (a loop-entry marker
// before its statement), and the `target data` runs once per beginning:
// the rewrite's prediction counts two allocations, not one. Applied,
// rebuilt, rerun: the same output, the copies and allocations removed as
// predicted. Negative: WARM_DIFF, the warm-up maps a shorter section
// (`x[0:n/2]` at the call): the construct maps sections of other sizes, and
// `x` is not kept (`out` is).
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
// RUN: rm -rf %t.n && mkdir -p %t.n && cp %s %t.n/prog.c
// RUN: cd %t.n && %clang-ompdp -DWARM_DIFF prog.c -o diff
// RUN: cd %t.n && %ompdp run -- ./diff 2>&1 > /dev/null | FileCheck %s --check-prefix=DIFF

// REPORT: duplicate_transfer {{.*}}prog.c:[[#]]:1 in work count=8
// REPORT: rewrite (keep_resident): keep `x[0:n]` on device 0 for the whole for loop at prog.c:[[#]] that calls work(), where it is `x[0:n]`: `#pragma omp target data map(to: x[0:n])` before it; the maps in work() then find it present; the calls of work() outside the loop map it as before (the loop began 2 times in the run: once per beginning)

// APPLY: prog.c: 1 edit(s) applied

// FIXED: {{^}}  work(x, n, &out);
// FIXED: {{^}}  for (int r = 0; r < 2; r++) {
// FIXED-NEXT: {{^}}    #pragma omp target data map(to: x[0:n]){{$}}
// FIXED-NEXT: {{^}}    #pragma omp target data map(tofrom: out){{$}}
// FIXED-NEXT: {{^}}    for (int i = 0; i < 4; i++)

// PROOF: transfers: 27 -> 9 (removed 18, predicted 18)
// PROOF-NEXT: allocs: 18 -> 6 (removed 12, predicted 12)
// PROOF: OK

// DIFF-NOT: keep `x[0:n]`
// DIFF: No rewrite: the target data construct at prog.c:[[#]] maps sections of other sizes from one call to the next.
// DIFF-NOT: keep `x[0:n]`

#include <stdio.h>
#include <stdlib.h>

static void work(const float *x, int n, float *out) {
#pragma omp target data map(to: x[0:n]) map(tofrom: out[0:1])
  {
#pragma omp target
    {
      float s = 0;
      for (int i = 0; i < n; i++)
        s += x[i];
      out[0] += s;
    }
  }
}

int main(void) {
  int n = 4096;
  float *x = malloc(n * sizeof(float)), out = 0;
  for (int i = 0; i < n; i++)
    x[i] = (float)(i % 7);
#ifdef WARM_DIFF
  work(x, n / 2, &out);
#else
  work(x, n, &out);
#endif
  printf("warm-up %.1f\n", out);
  for (int r = 0; r < 2; r++) {
    for (int i = 0; i < 4; i++)
      work(x, n, &out);
    printf("round %d %.1f\n", r, out);
  }
  free(x);
  return 0;
}
