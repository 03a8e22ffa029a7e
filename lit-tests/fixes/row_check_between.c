//===- row_check_between.c - compute, check, compute again, check ----------===//
//
// HeCBench damage's shape: two `target data` constructs in a row each
// send `in` and bring `out` back, with a check of `out` between them.
// Kept on the device across both (one `target data` around them), `in` is
// sent once; `out` is allocated once, and the check between reads what the
// first construct computed through a `target update from(out[0:N])`
// placed before it; the last result comes back at the end. Same output,
// as predicted: one copy in and two allocations fewer.
// Negatives: (-DWRITE) host code between them also writes `out`: nothing
// is kept for `out` (the second construct would find the device's copy
// present, not the host's write), only `in`; (-DINNER) no check between
// them, but host code in the second construct's body reads `out`, which
// must be the first construct's result: with no statement between the two
// for an update to go before, `out` is not kept either.
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
// RUN: cd %t.w && %ompdp report before.json | FileCheck %s --check-prefix=WRITE
// RUN: rm -rf %t.i && mkdir -p %t.i && cp %s %t.i/prog.c
// RUN: cd %t.i && %clang-ompdp -g -DINNER prog.c -o before
// RUN: cd %t.i && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.i && %ompdp report before.json | FileCheck %s --check-prefix=WRITE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static int validate(const int *in, const int *out, int n) {
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != 2 * in[i];
  return bad;
}

int main(void) {
  int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
  int bad = 0;
  for (int i = 0; i < N; ++i)
    in[i] = i % 17;
#pragma omp target data map(to: in[0:N]) map(from: out[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      out[i] = in[i] * 2;
  }
#ifndef INNER
  bad += validate(in, out, N);
#endif
#ifdef WRITE
  out[0] = -1;
#endif
#pragma omp target data map(to: in[0:N]) map(from: out[0:N])
  {
#ifdef INNER
    bad += validate(in, out, N);
#endif
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      out[i] = in[i] + in[i];
  }
  bad += validate(in, out, N);
  printf("bad=%d out=%d\n", bad, out[N - 1]);
  free(in);
  free(out);
  return 0;
}

// REPORT: rewrite (keep_resident): keep `in[0:N]` and `out[0:N]` on device 0 across the 2 constructs in a row at prog.c:[[#L:]] and
// REPORT-SAME: [[#L+12]]: `#pragma omp target data map(to: in[0:N]) map(from: out[0:N])` and `{` before line [[#L]], `}` after line [[#L+20]]; host code between them only reads what is kept (its own copy is unchanged); `target update from(out[0:N])` before line [[#L+7]] (host code there reads what the construct before it computed), and it comes back once, after the last

// APPLY: prog.c: 3 edit(s) applied

// FIXED:      {{^}}#pragma omp target data map(to: in[0:N]) map(from: out[0:N]){{$}}
// FIXED-NEXT: {{^}}{{{$}}
// FIXED-NEXT: {{^}}#pragma omp target data map(to: in[0:N]) map(from: out[0:N]){{$}}
// FIXED:      {{^}}  #pragma omp target update from(out[0:N]){{$}}
// FIXED-NEXT: {{^}}  bad += validate(in, out, N);{{$}}
// FIXED:      {{^}}}{{$}}
// FIXED-NEXT: {{^}}  bad += validate(in, out, N);{{$}}
// FIXED-NEXT: {{^}}  printf

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 2, predicted 2)
// PROOF: OK

// WRITE: rewrite (keep_resident): keep `in[0:N]` on device 0 across the 2 constructs in a row
// WRITE-NOT: update from(out
