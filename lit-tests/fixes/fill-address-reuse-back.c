//===- fill-address-reuse-back.c - a later buffer at the address copies back ===//
//
// `ones` is filled with 1.0f and sent by a `target data`; the next function
// takes `res` from the same memory (a pool both draw from, as malloc gives a
// freed block back: HeCBench sosfil's float instance's `sos`, then the
// double instance's `x_in`), maps it tofrom, and a kernel writes it and it
// comes back. The copy back into that memory came after every operation of
// `ones`'s construct, which was the memory's first user: the bytes it sent
// were the host's, and its single-value copy gets the fill. Applied,
// rebuilt, rerun: same output. (Only for a construct that copies nothing
// back: one whose data comes back and flows on to the later constructs is
// kept on the device across them instead, runtime/verdicts.c COINCIDENCE.)
// Negative (-DBACK_FIRST): `res` first, then `ones` in its memory: a
// kernel's result was copied into that memory before `ones`'s copy, so the
// run cannot tell the host wrote what it sent: no fill, and the finding
// says why. (A pool, not malloc and free, so that the memory is the same
// under a sanitizer's allocator too.)
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: rm -rf %t.n && mkdir -p %t.n && cp %s %t.n/prog.c
// RUN: cd %t.n && %clang-ompdp -DBACK_FIRST prog.c -o before
// RUN: cd %t.n && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.n && %ompdp report before.json | FileCheck %s --check-prefix=FIRST
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 64

static float pool[N];

static double run_ones(void) {
  float *ones = pool;
  for (int i = 0; i < N; ++i)
    ones[i] = 1.0f;
  double s = 0;
#pragma omp target data map(to: ones[0:N])
  {
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += ones[i] * (i % 7);
  }
  return s;
}

static double run_res(void) {
  float *res = pool;
  for (int i = 0; i < N; ++i)
    res[i] = i % 3;
#pragma omp target teams distribute parallel for map(tofrom: res[0:N])
  for (int i = 0; i < N; ++i)
    res[i] = res[i] * 2 + 1;
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += res[i];
  return s;
}

int main(void) {
#ifdef BACK_FIRST
  double b = run_res();
  double a = run_ones();
#else
  double a = run_ones();
  double b = run_res();
#endif
  printf("%g %g\n", a, b);
  return 0;
}

// REPORT: rewrite (alloc_and_fill): allocate `ones[0:N]` and fill it with the bytes `00 00 80 3f` repeated on the device before the target data construct
// FIXED: {{^}}#pragma omp target enter data map(alloc: ones[0:N]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: ones[0:N]){{$}}
// PROOF: gone: single_value_transfer of ones: yes
// PROOF: OK

// FIRST: variable: ones
// FIRST: No rewrite: other constructs use the buffer while this construct has not mapped it, so a fill before the construct could find their data present and overwrite it.
