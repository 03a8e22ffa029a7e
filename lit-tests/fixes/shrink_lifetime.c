//===- shrink_lifetime.c - device memory allocated at its first use -------===//
//
// `big` is mapped long before its first kernel (EARLY, `target enter data`
// at the top, while a `target data` of `a` and `b` reaches the device's
// peak), or long after its last (LATE, released after that `target data`),
// or for the whole of a `target data` region while a nested one reaches
// the peak (SPLIT). The rewrite shrink_lifetime moves the `target enter
// data` to the loop that first uses `big`, the `target exit data` to just
// after its last use, or takes `big` out of the region for enter and exit
// data around the loop that uses it. Applied, rebuilt and rerun: the same
// output, the finding gone, the peak of device memory lower by exactly
// what the finding predicted (check_fix.py), no transfer or allocation
// more or fewer.
// Where the compiler cannot show that the move keeps every use inside,
// the finding is advice and says why: HOST, host code writes `big` before
// its first kernel (the move would send the device other bytes); JUMP, a
// label lies between the directive and the first use.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: cd %t && cp %s early.c && %clang-ompdp -DEARLY early.c -o early
// RUN: cd %t && %ompdp run --format=json -o early.json -- ./early > early.out
// RUN: cd %t && %ompdp report early.json | FileCheck %s --check-prefix=EARLY
// RUN: cd %t && %ompdp fix --apply early.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=EARLY-FIXED < %t/early.c
// RUN: cd %t && %clang-ompdp -DEARLY early.c -o early2
// RUN: cd %t && %ompdp run --format=json -o early2.json -- ./early2 > early2.out
// RUN: diff %t/early.out %t/early2.out
// RUN: %check-fix %t/early.json %t/early2.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp diff early.json early2.json | FileCheck %s --check-prefix=DIFF
// RUN: cd %t && cp %s late.c && %clang-ompdp -DLATE late.c -o late
// RUN: cd %t && %ompdp run --format=json -o late.json -- ./late > late.out
// RUN: cd %t && %ompdp report late.json | FileCheck %s --check-prefix=LATE
// RUN: cd %t && %ompdp fix --apply late.json
// RUN: FileCheck %s --check-prefix=LATE-FIXED < %t/late.c
// RUN: cd %t && %clang-ompdp -DLATE late.c -o late2
// RUN: cd %t && %ompdp run --format=json -o late2.json -- ./late2 > late2.out
// RUN: diff %t/late.out %t/late2.out
// RUN: %check-fix %t/late.json %t/late2.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && cp %s split.c && %clang-ompdp -DSPLIT split.c -o split
// RUN: cd %t && %ompdp run --format=json -o split.json -- ./split > split.out
// RUN: cd %t && %ompdp report split.json | FileCheck %s --check-prefix=SPLIT
// RUN: cd %t && %ompdp fix --apply split.json
// RUN: FileCheck %s --check-prefix=SPLIT-FIXED < %t/split.c
// RUN: cd %t && %clang-ompdp -DSPLIT split.c -o split2
// RUN: cd %t && %ompdp run --format=json -o split2.json -- ./split2 > split2.out
// RUN: diff %t/split.out %t/split2.out
// RUN: %check-fix %t/split.json %t/split2.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %clang-ompdp -DEARLY -DHOST %s -o host
// RUN: cd %t && %ompdp run -- ./host 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: cd %t && %clang-ompdp -DEARLY -DJUMP %s -o jump
// RUN: cd %t && %ompdp run -- ./jump 2>&1 | FileCheck %s --check-prefix=JUMP
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18) /* big: 2 MiB */
#define M (1 << 16) /* a and b: 512 KiB each */

static double sum(const double *v, int n) {
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

int main(void) {
  double *big = malloc(N * sizeof(double));
  double *a = malloc(M * sizeof(double)), *b = malloc(M * sizeof(double));
  for (int i = 0; i < N; ++i)
    big[i] = i % 7;
  for (int i = 0; i < M; ++i)
    a[i] = i % 5;
#if defined(EARLY)
  #pragma omp target enter data map(to: big[0:N])
#if defined(HOST)
  big[0] = 3; /* the device copy is the host's from before this write */
#endif
  #pragma omp target data map(to: a[0:M]) map(from: b[0:M])
  {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < M; ++i)
      b[i] = 2 * a[i];
  }
#if defined(JUMP)
  if (b[1] < 0)
    return 1; /* leaves with big mapped: moved, it would leave without */
#endif
  for (int it = 0; it < 3; ++it) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      big[i] += it;
  }
  #pragma omp target exit data map(from: big[0:N])
#elif defined(LATE)
  #pragma omp target enter data map(to: big[0:N])
  for (int it = 0; it < 3; ++it) {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      big[i] += it;
  }
  #pragma omp target update from(big[0:N])
  #pragma omp target data map(to: a[0:M]) map(from: b[0:M])
  {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < M; ++i)
      b[i] = 2 * a[i];
  }
  #pragma omp target exit data map(release: big[0:N])
#elif defined(SPLIT)
  #pragma omp target data map(tofrom: big[0:N])
  {
    #pragma omp target data map(to: a[0:M]) map(from: b[0:M])
    {
      #pragma omp target teams distribute parallel for
      for (int i = 0; i < M; ++i)
        b[i] = 2 * a[i];
    }
    for (int it = 0; it < 3; ++it) {
      #pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        big[i] += it;
    }
  }
#endif
  printf("big %.0f b %.0f\n", sum(big, N), sum(b, M));
  free(big);
  free(a);
  free(b);
  return 0;
}

// EARLY: peak device memory: 3.0 MiB on device 0 at {{.*}}, 3 allocations live: big 2.0 MiB (map(to: big[0:N]) at early.c:[[#ENTER:]]), a 512.0 KiB (map(to: a[0:M]) at early.c:{{[0-9]+}}), b 512.0 KiB (map(from: b[0:M]) at early.c:{{[0-9]+}})
// EARLY: peak device memory with the fixes: at most 2.0 MiB on device 0 (1.0 MiB less)
// EARLY: early_alloc  early.c:[[#ENTER]]:3 in main  count=1 bytes=2.0 MiB time=0 ns saved=0 ns devices=0 peak_saved=1.0 MiB
// EARLY-NEXT: variable: big  clause: map(to: big[0:N])
// EARLY-NEXT: first used at early.c:[[#ENTER+15]]:5 in main
// EARLY-NEXT: verdict: fix
// EARLY: rewrite (shrink_lifetime): allocate `big` on device 0 at its first use: move `map(to: big[0:N])` from `target enter data` at early.c:[[#ENTER]] to a `target enter data` before line [[#ENTER+14]] (the construct at line [[#ENTER+15]], which uses it first); no statement in between uses `big`  [lowers the peak of device memory by 1.0 MiB; saves no time]
// EARLY-NEXT: assumes: no code between line [[#ENTER]] and line [[#ENTER+14]] reaches `big` through another pointer
// EARLY-NEXT: early.c:[[#ENTER]]:1-[[#ENTER+1]]:1: delete "#pragma omp target enter data map(to: big[0:N])"
// EARLY-NEXT: early.c:[[#ENTER+14]]:1: insert "  #pragma omp target enter data map(to: big[0:N])\n"
// EARLY-NOT: late_release

// APPLY: early.c: 2 edit(s) applied

// EARLY-FIXED: a[i] = i % 5;
// EARLY-FIXED-NEXT: #if defined(EARLY)
// EARLY-FIXED-NEXT: #if defined(HOST)
// EARLY-FIXED: #pragma omp target enter data map(to: big[0:N])
// EARLY-FIXED-NEXT: for (int it = 0; it < 3; ++it) {

// PROOF: rewrites: 1 for 1 finding(s)
// PROOF: transfers: [[T:[0-9]+]] -> [[T]] (removed 0, predicted 0)
// PROOF: allocs: [[A:[0-9]+]] -> [[A]] (removed 0, predicted 0)
// PROOF: peak of device 0: [[B:[0-9]+]] -> [[F:[0-9]+]] (lowered by [[S:[0-9]+]], predicted [[S]])
// PROOF: OK

// DIFF: peak memory device 0 3.0 MiB 2.0 MiB -1.0 MiB (-33.3%)
// DIFF: verdict: the waste shrank; the peak of device memory shrank

// LATE: late_release  late.c:[[#ENTER:]]:3 in main  count=1 bytes=2.0 MiB time=0 ns saved=0 ns devices=0 peak_saved=1.0 MiB
// LATE-NEXT: variable: big  clause: map(to: big[0:N])
// LATE-NEXT: last used at late.c:[[#ENTER+6]]:3 in main
// LATE-NEXT: verdict: fix
// LATE: rewrite (shrink_lifetime): release `big` on device 0 after its last use: move `map(release: big[0:N])` from `target exit data` at late.c:[[#ENTER+13]] to a `target exit data` after line [[#ENTER+6]] (the construct at line [[#ENTER+6]], which uses it last); no statement in between uses `big`  [lowers the peak of device memory by 1.0 MiB; saves no time]

// LATE-FIXED: #pragma omp target update from(big[0:N])
// LATE-FIXED-NEXT: #pragma omp target exit data map(release: big[0:N])
// LATE-FIXED-NEXT: #pragma omp target data map(to: a[0:M]) map(from: b[0:M])

// SPLIT: early_alloc  split.c:[[#DATA:]]:3 in main  count=1 bytes=2.0 MiB time=0 ns saved=0 ns devices=0 peak_saved=1.0 MiB
// SPLIT-NEXT: variable: big  clause: map(tofrom: big[0:N])
// SPLIT: rewrite (shrink_lifetime): map `big` on device 0 only around its uses: take `map(tofrom: big[0:N])` out of `target data` at split.c:[[#DATA]], `#pragma omp target enter data map(to: big[0:N])` before line [[#DATA+8]] and `#pragma omp target exit data map(from: big[0:N])` after line [[#DATA+12]]; no other statement of the region uses `big`  [lowers the peak of device memory by 1.0 MiB; saves no time]

// SPLIT-FIXED: #elif defined(SPLIT)
// SPLIT-FIXED-NEXT: {
// SPLIT-FIXED-NEXT: #pragma omp target data map(to: a[0:M]) map(from: b[0:M])
// SPLIT-FIXED: #pragma omp target enter data map(to: big[0:N])
// SPLIT-FIXED-NEXT: for (int it = 0; it < 3; ++it) {
// SPLIT-FIXED: #pragma omp target exit data map(from: big[0:N])
// SPLIT-FIXED-NEXT: }

// HOST: early_alloc  {{.*}}shrink_lifetime.c:{{[0-9]+}}:3 in main  count=1 bytes=2.0 MiB {{.*}} peak_saved=1.0 MiB
// HOST: verdict: advice
// HOST: suggestion: `big` is allocated on device 0 long before its first use at shrink_lifetime.c:{{[0-9]+}}, while the device reaches its peak: move its `target enter data` to just before that use to lower the peak by 1.0 MiB. No rewrite: the first statement that may use `big` (line {{[0-9]+}}) is not, and does not begin with, the construct that first used its memory in this run (line {{[0-9]+}}), so moving the directive there would not lower the peak as predicted.
// HOST-NOT: rewrite (shrink_lifetime)

// JUMP: early_alloc  {{.*}}shrink_lifetime.c:{{[0-9]+}}:3 in main
// JUMP: verdict: advice
// JUMP: No rewrite: a statement it would move past has a label or a jump out of the block.
