//===- keep-at-caller-two-loops.c - a warm-up loop beside the timing loop -===//
//
// HeCBench divergence's shape: the function under test is called in a
// warm-up loop, then in the timing loop, two loops of one block with a
// declaration between them (the timer's start) that the code after them
// uses, so no braces can go around both. The loop that ran more calls is
// kept (a `target data` around it); the warm-up loop's calls are outside
// it and map as before, and the run counted the construct's begins in each
// call, so the kept loop's share of the operations is known. Applied,
// rebuilt, rerun: the same output, what was predicted removed (the
// warm-up loop's repeats stay, fewer: check-fix --partial; a second run
// offers nothing more, and says why). Negative:
// WARM_DIFF, the warm-up loop maps a shorter section (`x[0:n/2]`): the
// construct maps sections of other sizes, and `x` is not kept.
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
// RUN: %check-fix --partial %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp run -- ./after 2>&1 > /dev/null | FileCheck %s --check-prefix=AGAIN
// RUN: rm -rf %t.n && mkdir -p %t.n && cp %s %t.n/prog.c
// RUN: cd %t.n && %clang-ompdp -DWARM_DIFF prog.c -o diff
// RUN: cd %t.n && %ompdp run -- ./diff 2>&1 > /dev/null | FileCheck %s --check-prefix=DIFF

// REPORT: duplicate_transfer {{.*}}prog.c:[[#]]:1 in work count=7
// REPORT: rewrite (keep_resident): keep `x[0:n]` on device 0 for the whole for loop at prog.c:[[#]] that calls work(), where it is `x[0:n]`: `#pragma omp target data map(to: x[0:n])` before it; the maps in work() then find it present; the calls of work() outside the loop map it as before

// APPLY: prog.c: 1 edit(s) applied

// FIXED: {{^}}  for (int i = 0; i < 2; i++)
// FIXED: {{^}}#endif
// FIXED-NEXT: {{^}}  clock_t start = clock();
// FIXED-NEXT: {{^}}  #pragma omp target data map(to: x[0:n]){{$}}
// FIXED-NEXT: {{^}}  #pragma omp target data map(tofrom: out){{$}}
// FIXED-NEXT: {{^}}  for (int i = 0; i < 6; i++)

// PROOF: transfers: 24 -> 9 (removed 15, predicted 15)
// PROOF-NEXT: allocs: 16 -> 6 (removed 10, predicted 10)
// PROOF-NEXT: fewer: duplicate_transfer of x: 7 -> 1
// PROOF: OK

// A second run finds the warm-up loop's repeats, and no rewrite for them:
// the `target data` before the timing loop (main's, which allocates x once
// and ran once) gives no reason of a buffer allocated anew at each call.
// AGAIN-NOT: anew
// AGAIN: duplicate_transfer {{.*}}prog.c:[[#]]:1 in work count=1
// AGAIN: No rewrite: the target data construct at prog.c:[[#]] also maps it in calls outside the loop at prog.c:[[#]]
// AGAIN-NOT: rewrite (keep_resident)
// AGAIN-NOT: anew

// DIFF-NOT: keep `x[0:n]`
// DIFF: No rewrite: the target data construct at prog.c:[[#]] maps sections of other sizes from one call to the next.
// DIFF-NOT: keep `x[0:n]`

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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
  for (int i = 0; i < 2; i++)
#ifdef WARM_DIFF
    work(x, n / 2, &out);
#else
    work(x, n, &out);
#endif
  clock_t start = clock();
  for (int i = 0; i < 6; i++)
    work(x, n, &out);
  clock_t stop = clock();
  printf("%.1f %d\n", out, stop >= start);
  free(x);
  return 0;
}
