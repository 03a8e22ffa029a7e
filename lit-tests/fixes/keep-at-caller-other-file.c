//===- keep-at-caller-other-file.c - the callee in another file -----------===//
//
// HeCBench's simpleSpmv shape: main.c calls, in a loop, a function defined
// in another file (kernels.c here: the same file built with -DCALLEE),
// whose `target data` maps its pointer parameters. The call is recorded
// (extern-callee: main.c's compile cannot see the body), the callee's
// construct names its function's parameters (FnParameters), and the keep-
// resident rewrite goes around main's loop, written with main's arguments:
// one rewrite for both items, two directives before the loop (one `ompdp
// fix` applies both; they used to conflict, and a second fix was needed).
// The call binds arguments by position, so the definition's names are
// used: SWAPPED declares the callee with its parameters' names swapped
// (`y` for `x`, as simpleSpmv's header calls `values` `data`), and gets
// the same rewrite (a declared `x` must not be taken for the definition's
// `x`). Negative: FEWER declares it without a prototype (`void axpy();`,
// old C), whose parameters the call cannot bind: the call is not recorded,
// nothing is rewritten and the finding says why. TWOCALLS passes `a` to two
// such functions in the loop: to each other's compile the other call is
// host code that may use it (simpleSpmv's three calls), and the finding
// says so. Applied, rebuilt, rerun: same output, the copies removed as
// predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -DCALLEE -c prog.c -o callee.o
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump -c prog.c -o /dev/null | FileCheck %s --check-prefix=DUMP
// RUN: cd %t && %clang-ompdp -c prog.c -o main.o && %clang-ompdp main.o callee.o -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp -DCALLEE -c prog.c -o callee.o && %clang-ompdp -c prog.c -o main.o && %clang-ompdp main.o callee.o -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: rm -rf %t.s && mkdir -p %t.s && cp %s %t.s/prog.c
// RUN: cd %t.s && %clang-ompdp -DCALLEE -c prog.c -o callee.o && %clang-ompdp -DSWAPPED -c prog.c -o main.o && %clang-ompdp main.o callee.o -o before
// RUN: cd %t.s && %ompdp run -- ./before 2>&1 > /dev/null | FileCheck %s --check-prefix=SWAPPED
// RUN: cd %t.s && %clang-ompdp -DFEWER -c prog.c -o main.o && %clang-ompdp main.o callee.o -o fewer
// RUN: cd %t.s && %ompdp run -- ./fewer 2>&1 > /dev/null | FileCheck %s --check-prefix=FEWER
// RUN: cd %t.s && %clang-ompdp -DTWOCALLS -c prog.c -o main.o && %clang-ompdp main.o callee.o -o twocalls
// RUN: cd %t.s && %ompdp run -- ./twocalls 2>&1 > /dev/null | FileCheck %s --check-prefix=TWOCALLS
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 2048

#ifdef CALLEE
void scale(int n, const float *x, float *z) {
#pragma omp target teams distribute parallel for map(to: x[0:n]) map(from: z[0:n])
  for (int i = 0; i < n; ++i)
    z[i] = 2.0f * x[i];
}

void axpy(int n, const float *x, float *y) {
#pragma omp target data map(to: x[0:n]) map(tofrom: y[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      y[i] = 0.5f * y[i] + x[i];
  }
}
#else
#if defined(SWAPPED)
void axpy(int n, const float *y, float *x);
#elif defined(FEWER)
void axpy();
#else
void axpy(int n, const float *x, float *y);
#endif
void scale(int n, const float *x, float *z);

int main(void) {
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 7);
    b[i] = 1.0f;
  }
#ifdef TWOCALLS
  float *z = malloc(N * sizeof(float));
  for (int r = 0; r < 6; ++r) {
    axpy(N, a, b);
    scale(N, a, z);
  }
  b[0] += z[1];
  free(z);
#else
  for (int r = 0; r < 6; ++r)
    axpy(N, a, b);
#endif
  printf("%.3f %.3f\n", b[1], b[N - 1]);
  free(a);
  free(b);
  return 0;
}
#endif

// DUMP: 'call' at prog.c:[[#]]:{{[0-9]+}} in 'main' extern-callee
// DUMP: callee: 'axpy'
// REPORT: rewrite (keep_resident): keep `a[0:N]` on device 0 for the whole for loop at prog.c:[[#]] that calls axpy(), where it is `x[0:n]`: `#pragma omp target data map(to: a[0:N])` before it; the maps in axpy() then find it present; and keep `b[0:N]` on device 0
// APPLY: prog.c: {{[0-9]+}} edit(s) applied
// FIXED: {{^}}  #pragma omp target data map(to: a[0:N]){{$}}
// FIXED-NEXT: {{^}}  #pragma omp target data map(tofrom: b[0:N]){{$}}
// FIXED-NEXT: {{^}}  for (int r = 0; r < 6; ++r){{$}}
// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed {{[0-9]+}}, predicted {{[0-9]+}})
// SWAPPED: rewrite (keep_resident): keep `a[0:N]` on device 0 for the whole for loop at prog.c:[[#]] that calls axpy(), where it is `x[0:n]`: `#pragma omp target data map(to: a[0:N])` before it
// FEWER: No rewrite: the repeats come from calls of the construct's function that no code built with the ompdp plugin makes where it can see the function's body
// FEWER-NOT: rewrite (keep_resident)
// TWOCALLS: No rewrite: the call at prog.c:[[#]] passes `a` to {{axpy|scale}}, defined in another file: compiling prog.c, the compiler cannot see whether its host code uses the data besides the constructs the run saw map it, so it counts the call as host code that does.
