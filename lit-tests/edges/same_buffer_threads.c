//===- same_buffer_threads.c - one buffer mapped by two threads at once ---===//
//
// REQUIRES: threads
//
// Two host threads map the same array `a` at the same time, 50 times each.
// With "diff", thread t maps it to device t: each device gets its own copies, so
// whatever the interleaving there are exactly 49 duplicate transfers and 49
// repeated allocations per device, none across devices. Results come back
// in their own slots with their own values: 100 allocations and copies
// that repeat nothing.
// With "same", both map it to device 0, so libomptarget's reference count decides
// how often it is really allocated and copied, differently from run to
// run. Whatever happened, ompdp's counts must agree with each other: one
// copy per allocation (map(to:) copies only a new mapping), every copy but
// the first a duplicate, every allocation but the first repeated.
// Run several times: no crash, no partial report.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --format=json -- %t diff 2>&1 | FileCheck %s --check-prefixes=OUT,DIFF
// RUN: %ompdp run --format=json -- %t same 2>&1 | FileCheck %s --check-prefixes=OUT,SAME
// RUN: %ompdp run --format=json -- %t same 2>&1 | FileCheck %s --check-prefixes=OUT,SAME
// RUN: %ompdp run --format=json -- %t same 2>&1 | FileCheck %s --check-prefixes=OUT,SAME
// RUN: %ompdp run --format=json -- %t same 2>&1 | FileCheck %s --check-prefixes=OUT,SAME
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <string.h>

#define N 256
#define ITERS 50

// OUT: ok 1 1
// DIFF: "duplicate_transfers": 98,
// DIFF-NEXT: "round_trips": 0,
// DIFF-NEXT: "repeated_allocs": 98,
// DIFF: "transfers": 200,
// DIFF-NEXT: "allocs": 200,
// SAME: "duplicate_transfers": [[#DUP:]],
// SAME-NEXT: "round_trips": 0,
// SAME-NEXT: "repeated_allocs": [[#DUP]],
// SAME: "transfers": [[#DUP+101]],
// SAME-NEXT: "allocs": [[#DUP+101]],
// OUT: "partial": false,
// DIFF: "kind": "duplicate_transfer",
// DIFF-NEXT: "count": 98,
// DIFF: "devices": [0, 1],

int main(int argc, char **argv) {
  int same = argc > 1 && !strcmp(argv[1], "same");
  static int a[N];
  static int r[2][ITERS];
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp parallel num_threads(2)
  {
    int t = omp_get_thread_num();
    int dev = same ? 0 : t;
    for (int it = 0; it < ITERS; ++it) {
#pragma omp target map(to : a) map(from : r[t][it:1]) device(dev)
      {
        int s = 0;
        for (int i = 0; i < N; ++i)
          s += a[i];
        r[t][it] = s + 1000 * t + it;
      }
    }
  }
  int ok0 = 1, ok1 = 1;
  for (int it = 0; it < ITERS; ++it) {
    ok0 &= r[0][it] == N * (N - 1) / 2 + it;
    ok1 &= r[1][it] == N * (N - 1) / 2 + 1000 + it;
  }
  printf("ok %d %d\n", ok0, ok1);
  return 0;
}
