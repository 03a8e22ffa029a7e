//===- keep-at-caller-two-levels.c - the loop that repeats is two calls up -===//
//
// scale()'s `target data` maps a[0:n] and out[0:n]; step() calls scale()
// once, in no loop, and main() calls step() in a loop: every iteration
// allocates both on the device and sends a again unchanged. The run saw
// step()'s call of scale() run inside main()'s call of step() every time,
// so the `target data` goes around main()'s loop (ccsd-trpdrv's shape),
// written through both calls: scale()'s n is step()'s n, which main()
// passes as N. Applied, rebuilt, rerun: the same output, the copies and
// allocations removed as predicted. With -DPRODUCT, scale() maps rows*cols
// elements and step() passes `n / 4` and 4: `a[0:(N / 4)*4]` at main().
// DEREF: step() reads the length through
// a pointer into a constant local (`const int n = *np;`, ccsd's `nvir`),
// and main() passes `&len`, which its loop only reads: written `len`.
// Negative cases:
//   TWOLOOPS main() calls step() from two loops: no one loop repeats it;
//   FPTR     main() calls step() through a pointer, which the compiler does
//            not tag: the run cannot tell which call scale()'s call ran in;
//   MIDWRITE step() writes a[0] on the host before the call: keeping a on
//            the device would hide that from scale() (out is still kept);
//   LENWRITE as DEREF, but main()'s loop assigns len (the same value): the
//            compiler cannot tell that the length stays the same;
//   MIDLOCAL step() passes a length it computes in a variable (`int m =
//            n;` assigned again), which main() cannot write.
// (keep-at-caller-row.c's ONCE: the call one level up in no loop either.)
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c && cp %s %t/deref.c
// RUN: cd %t && %clang-ompdp prog.c -o before && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=PLAIN
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %clang-ompdp -DDEREF deref.c -o dbefore && %ompdp run --format=json -o dbefore.json -- ./dbefore > dbefore.out
// RUN: cd %t && %ompdp fix --apply dbefore.json | FileCheck %s --check-prefix=APPLY-DEREF
// RUN: FileCheck %s --check-prefix=FIXED-DEREF < %t/deref.c
// RUN: cd %t && %clang-ompdp -DDEREF deref.c -o dafter && %ompdp run --format=json -o dafter.json -- ./dafter > dafter.out
// RUN: diff %t/dbefore.out %t/dafter.out
// RUN: %check-fix %t/dbefore.json %t/dafter.json | FileCheck %s --check-prefix=PROOF
// RUN: %clang-ompdp -DPRODUCT %s -o %t.product && %ompdp run -- %t.product 2>&1 | FileCheck %s --check-prefix=PRODUCT
// RUN: %clang-ompdp -DTWOLOOPS %s -o %t.twoloops && %ompdp run -- %t.twoloops 2>&1 | FileCheck %s --check-prefixes=NOPLACE,NONE
// RUN: %clang-ompdp -DFPTR %s -o %t.fptr && %ompdp run -- %t.fptr 2>&1 | FileCheck %s --check-prefixes=NOPLACE,NONE
// RUN: %clang-ompdp -DMIDWRITE %s -o %t.midwrite && %ompdp run -- %t.midwrite 2>&1 | FileCheck %s --check-prefix=MIDWRITE
// RUN: %clang-ompdp -DDEREF -DLENWRITE %s -o %t.lenwrite && %ompdp run -- %t.lenwrite 2>&1 | FileCheck %s --check-prefixes=LENWRITE,NONE
// RUN: %clang-ompdp -DMIDLOCAL %s -o %t.midlocal && %ompdp run -- %t.midlocal 2>&1 | FileCheck %s --check-prefixes=MIDLOCAL,NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define STEPS 4

#ifdef PRODUCT
static void scale(const float *a, float *out, int rows, int cols) {
  int n = rows * cols;
#pragma omp target data map(to: a[0:rows*cols]) map(from: out[0:rows*cols])
#else
static void scale(const float *a, float *out, int n) {
#pragma omp target data map(to: a[0:n]) map(from: out[0:n])
#endif
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      out[i] = 2.0f * a[i];
  }
}

#if defined(PRODUCT)
static void step(float *a, float *out, int n) { scale(a, out, n / 4, 4); }
#elif defined(DEREF)
static void step(float *a, float *out, const int *np) {
  const int n = *np;
  scale(a, out, n);
}
#elif defined(MIDLOCAL)
static void step(float *a, float *out, int n) {
  int m = n;
  m = n;
  scale(a, out, m);
}
#else
static void step(float *a, float *out, int n) {
#ifdef MIDWRITE
  a[0] = 0.0f;
#endif
  scale(a, out, n);
}
#endif

int main(void) {
  float *a = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    a[i] = (float)i;
  float sum = 0.0f;
#ifdef FPTR
  void (*volatile fn)(float *, float *, int) = step;
#endif
#ifdef DEREF
  int len = N;
#endif
  for (int t = 0; t < STEPS; ++t) {
#if defined(FPTR)
    fn(a, out, N);
#elif defined(DEREF)
    step(a, out, &len);
#else
    step(a, out, N);
#endif
#ifdef LENWRITE
    len = N;
#endif
    sum += out[t];
  }
#ifdef TWOLOOPS
  for (int t = 0; t < STEPS; ++t) {
    step(a, out, N);
    sum += out[t];
  }
#endif
  printf("%.1f\n", sum);
  free(a);
  free(out);
  return 0;
}

// PLAIN: duplicate_transfer {{.*}}prog.c:[[#]]:1 in scale
// PLAIN: rewrite (keep_resident): keep `a[0:N]` on device 0 for the whole for loop at prog.c:[[#]] that calls step(), which calls scale(), where it is `a[0:n]`: `#pragma omp target data map(to: a[0:N])` before it; the maps in scale() then find it present; and keep `out[0:N]` {{.*}}`#pragma omp target data map(alloc: out[0:N])` before it; the maps in scale() then find it present; `target update from(out[0:N])` after line [[#]], the call's,
// PLAIN: assumes: no host code in the loop, in step() or in scale() reaches `a` through another pointer

// APPLY: prog.c: 2 edit(s) applied
// FIXED:      {{^}}  #pragma omp target data map(to: a[0:N]){{$}}
// FIXED-NEXT: {{^}}  #pragma omp target data map(alloc: out[0:N]){{$}}
// FIXED-NEXT: {{^}}  for (int t = 0; t < STEPS; ++t) {
// FIXED:      {{^}}    step(a, out, N);
// FIXED-NEXT: {{^}}    #pragma omp target update from(out[0:N]){{$}}

// PROOF: transfers: 8 -> 5 (removed 3, predicted 3)
// PROOF-NEXT: allocs: 8 -> 2 (removed 6, predicted 6)
// PROOF: OK

// APPLY-DEREF: deref.c: 2 edit(s) applied
// FIXED-DEREF: {{^}}  #pragma omp target data map(to: a[0:len]){{$}}
// FIXED-DEREF-NEXT: {{^}}  #pragma omp target data map(alloc: out[0:len]){{$}}
// FIXED-DEREF-NEXT: {{^}}  for (int t = 0; t < STEPS; ++t) {

// PRODUCT: rewrite (keep_resident): keep `a[0:(N / 4)*4]` on device 0 for the whole for loop at keep-at-caller-two-levels.c:[[#]] that calls step(), which calls scale(), where it is `a[0:rows*cols]`

// NOPLACE: repeated_alloc {{.*}} in scale
// NOPLACE: No rewrite: the call at keep-at-caller-two-levels.c:[[#]] that repeats it is in no loop of step either, and ompdp keeps data at one caller only.
// NOPLACE-NOT: written in main()'s terms

// MIDWRITE: duplicate_transfer {{.*}} in scale
// MIDWRITE: No rewrite: main() calls step() in the for loop at keep-at-caller-two-levels.c:[[#]] every time, but the host code of step() uses `a` besides passing it to scale() (or the compiler cannot tell that it does not), and would not see the data kept on the device.
// MIDWRITE: rewrite (keep_resident): keep `out[0:N]` on device 0 for the whole for loop
// MIDWRITE-NOT: rewrite (keep_resident): keep `a

// LENWRITE: repeated_alloc {{.*}} in scale
// LENWRITE: No rewrite: step() reads `*np` for `n` in `a[0:n]`, and the compiler cannot tell that what the call at keep-at-caller-two-levels.c:[[#]] passes for it (`&len`) keeps its value for the whole loop.

// MIDLOCAL: repeated_alloc {{.*}} in scale
// MIDLOCAL: No rewrite: the call at keep-at-caller-two-levels.c:[[#]] passes `m` for `n`, which ompdp cannot write in the parameters of step() (a variable it computes or changes).

// NONE-NOT: rewrite (keep_resident)
