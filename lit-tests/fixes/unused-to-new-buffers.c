//===- unused-to-new-buffers.c - an unused copy in of a new buffer each time ===//
//
// Each iteration allocates a new host buffer, maps it with
// `target enter data map(to: ...)` before the host has filled it, fills it
// and sends it with `target update to` (moe-sum's input). The enter's copy
// in is overwritten before any kernel reads it, in every iteration, on a
// different buffer each time: the enter maps the buffer with `alloc`
// instead. Applied, rebuilt and rerun: same output, three transfers fewer,
// as predicted.
// With -DUSED, the same loop, but the first iteration's kernel reads what the
// enter sent (no update then): not every copy in at the enter was unused,
// so the map type stays and the finding is advice.
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
// RUN: %clang-ompdp -DUSED %s -o %t/used
// RUN: %ompdp run -- %t/used 2>&1 | FileCheck %s --check-prefix=USED
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1000
#define ITERS 3

int main(void) {
  /* All kept until the end: each iteration's buffer is at a new address. */
  int *bufs[ITERS];
  long total = 0;
  for (int k = 0; k < ITERS; ++k) {
    int *in = malloc(N * sizeof(int));
    bufs[k] = in;
    for (int i = 0; i < N; ++i)
      in[i] = k;
#pragma omp target enter data map(to : in[0:N])
    for (int i = 0; i < N; ++i)
      in[i] = i * (k + 1);
#ifdef USED
    if (k) {
#else
    {
#endif
#pragma omp target update to(in[0:N])
    }
    long sum = 0;
#pragma omp target map(tofrom : sum)
    for (int i = 0; i < N; ++i)
      sum += in[i];
#pragma omp target exit data map(delete : in[0:N])
    total += sum;
  }
  for (int k = 0; k < ITERS; ++k)
    free(bufs[k]);
  printf("total=%ld\n", total);
  return 0;
}

// REPORT: unused_transfer {{.*}}prog.c:[[#E:]]:1 in main count=3
// REPORT: verdict: fix
// REPORT: rewrite (change_map_type): map `in[0:N]` with `alloc` instead of `to` at prog.c:[[#E]]: no kernel read what the copy in sent
// REPORT-NEXT: prog.c:[[#E]]:31-[[#E]]:48: replace "map(to : in[0:N])" with "map(alloc: in[0:N])"

// APPLY: prog.c: 1 edit(s) applied

// FIXED: {{^}}#pragma omp target enter data map(alloc: in[0:N]){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 3, predicted 3)
// PROOF: OK

// USED: unused_transfer {{.*}} in main count=2
// USED-NEXT: variable: in clause: map(to : in[0:N])
// USED-NEXT: related to
// USED-NEXT: verdict: advice
// USED-NOT: change_map_type
