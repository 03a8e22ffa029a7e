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
// such functions in the loop (simpleSpmv's three calls): compiling main,
// each call is an opaque use of `a` for the other, but each callee's own
// table (FnParamUses, region table 3.9) says that its host code names its
// `x` only in map clauses ('m'), and the run saw both constructs map `a`
// there: one rewrite keeps `a` around the loop. `b`, which axpy copies
// back, is not kept: scale(), not passed it, might reach it through
// another pointer, and updates around that call would move more than the
// calls do (the finding says so). `z`, which scale() only produces (map
// from), is kept in the same rewrite, allocated for the loop, with one
// `target update from` right after scale()'s call: nothing of the host's
// goes to the device, so axpy()'s call after it, which might reach `z`
// through another pointer, sees what it saw before
// (keep-at-caller-produced.test). Negative, each with axpy
// and another function defined in the callee's file: SUMS passes `a` to
// total(), whose host code sums its `x` (letter 'r', region table 3.15:
// read, which the one-level rule counts as a use); RELAY to relay(), which
// passes it on to a function of another file whose table the run does not
// have (letter 'e'); BUMP to bump(), whose
// kernel writes its `to` item; PEEK to peek(), which has no construct, so
// the run has no record of its definition; SHIFT to shift(), which maps a
// section that starts elsewhere, other data to the run, so each call's
// map of `a` is one the other function's construct never made. Each
// keeps `a`'s copies, and says why in one sentence. Applied, rebuilt, rerun (the default and
// TWOCALLS): same output, the copies removed as predicted.
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
// RUN: cd %t.s && %clang-ompdp -fplugin-arg-ompdp-dump -DCALLEE -c prog.c -o callee.o | FileCheck %s --check-prefix=USES
// RUN: cd %t.s && %clang-ompdp -fplugin-arg-ompdp-dump -DTWOCALLS -c prog.c -o main.o | FileCheck %s --check-prefix=ARGS
// RUN: cd %t.s && %clang-ompdp main.o callee.o -o twocalls
// RUN: cd %t.s && %ompdp run -- ./twocalls 2>&1 > /dev/null | FileCheck %s --check-prefix=TWOCALLS
// RUN: cd %t.s && %clang-ompdp -DSUMS -c prog.c -o main.o && %clang-ompdp main.o callee.o -o sums
// RUN: cd %t.s && %ompdp run -- ./sums 2>&1 > /dev/null | FileCheck %s --check-prefixes=SUMS,KEPT
// RUN: cd %t.s && %clang-ompdp -DRELAY -c prog.c -o main.o && %clang-ompdp main.o callee.o -o relay
// RUN: cd %t.s && %ompdp run -- ./relay 2>&1 > /dev/null | FileCheck %s --check-prefixes=RELAY,KEPT
// RUN: cd %t.s && %clang-ompdp -DBUMP -c prog.c -o main.o && %clang-ompdp main.o callee.o -o bump
// RUN: cd %t.s && %ompdp run -- ./bump 2>&1 > /dev/null | FileCheck %s --check-prefixes=BUMP,KEPT
// RUN: cd %t.s && %clang-ompdp -DPEEK -c prog.c -o main.o && %clang-ompdp main.o callee.o -o peek
// RUN: cd %t.s && %ompdp run -- ./peek 2>&1 > /dev/null | FileCheck %s --check-prefixes=PEEK,KEPT
// RUN: cd %t.s && %clang-ompdp -DSHIFT -c prog.c -o main.o && %clang-ompdp main.o callee.o -o shift
// RUN: cd %t.s && %ompdp run -- ./shift 2>&1 > /dev/null | FileCheck %s --check-prefixes=SHIFT,KEPT
// RUN: rm -rf %t.w && mkdir -p %t.w && cp %s %t.w/prog.c
// RUN: cd %t.w && %clang-ompdp -DCALLEE -c prog.c -o callee.o && %clang-ompdp -DTWOCALLS -c prog.c -o main.o && %clang-ompdp main.o callee.o -o before
// RUN: cd %t.w && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t.w && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED-TWO < %t.w/prog.c
// RUN: cd %t.w && %clang-ompdp -DCALLEE -c prog.c -o callee.o && %clang-ompdp -DTWOCALLS -c prog.c -o main.o && %clang-ompdp main.o callee.o -o after
// RUN: cd %t.w && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t.w/before.out %t.w/after.out
// RUN: %check-fix %t.w/before.json %t.w/after.json | FileCheck %s --check-prefix=PROOF-TWO
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

double total(int n, const float *x, float *w) {
#pragma omp target teams distribute parallel for map(tofrom: w[0:n])
  for (int i = 0; i < n; ++i)
    w[i] += 1.0f;
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i];
  return s;
}

void stash(const float *x, int n);
void relay(int n, const float *x, float *w) {
  stash(x, n);
#pragma omp target teams distribute parallel for map(tofrom: w[0:n])
  for (int i = 0; i < n; ++i)
    w[i] += 1.0f;
}

void bump(int n, float *x) {
#pragma omp target teams distribute parallel for map(to: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] += 1.0f;
}

void peek(const float *x, int n) {
  (void)x;
  (void)n;
}

void shift(int n, const float *x, float *w) {
#pragma omp target teams distribute parallel for map(to: x[1:n - 1]) map(tofrom: w[0:n])
  for (int i = 0; i < n - 1; ++i)
    w[i] += x[i + 1];
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
double total(int n, const float *x, float *w);
void relay(int n, const float *x, float *w);
void bump(int n, float *x);
void peek(const float *x, int n);
void shift(int n, const float *x, float *w);

void stash(const float *x, int n) {
  (void)x;
  (void)n;
}

int main(void) {
  float *a = malloc(N * sizeof(float)), *b = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i) {
    a[i] = (float)(i % 7);
    b[i] = 1.0f;
  }
#if defined(TWOCALLS) || defined(SUMS) || defined(RELAY) || defined(BUMP) || defined(PEEK) || \
    defined(SHIFT)
  float *z = calloc(N, sizeof(float));
  double s = 0;
  for (int r = 0; r < 6; ++r) {
    axpy(N, a, b);
#if defined(SUMS)
    s += total(N, a, z);
#elif defined(RELAY)
    relay(N, a, z);
#elif defined(BUMP)
    bump(N, a);
#elif defined(PEEK)
    peek(a, N);
#elif defined(SHIFT)
    shift(N, a, z);
#else
    scale(N, a, z);
#endif
  }
  b[0] += z[1] + (float)s;
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
// USES: region {{.*}} 'target' at prog.c:[[#]]:1 in 'scale' param-uses '-mm'
// USES: region {{.*}} 'target data' at prog.c:[[#]]:1 in 'axpy' param-uses '-mm'
// USES: region {{.*}} 'target' at prog.c:[[#]]:1 in 'total' param-uses '-rm'
// USES: region {{.*}} 'target' at prog.c:[[#]]:1 in 'relay' param-uses '-e-'
// USES: region {{.*}} 'target' at prog.c:[[#]]:1 in 'bump' param-uses '-m'
// ARGS: call: 'axpy(N, a, b)'
// ARGS: host 1 'a' read-write at [[#]]:5-[[#]]:{{[0-9]+}} bytes {{[0-9+]+}} statement every-time after at-most-once extern-args 1
// ARGS: host 2 'b' read-write at [[#]]:5-[[#]]:{{[0-9]+}} bytes {{[0-9+]+}} statement every-time after at-most-once unnamed
// TWOCALLS-DAG: No rewrite: the loop at prog.c:[[#]] calls functions defined in other files that are not passed `b` but might reach it through another pointer, and the `target update`s that would give them the device's copy would move more than the calls do now.
// TWOCALLS-DAG: keep `z[0:N]` on device 0 for the whole for loop at prog.c:[[#]] that calls scale(), where it is `z[0:n]`: `#pragma omp target data map(alloc: z[0:N])` before it; the maps in scale() then find it present; `target update from(z[0:N])` after line [[#]], the call's
// TWOCALLS-DAG: keep `a[0:N]` on device 0 for the whole for loop at prog.c:[[#]] that calls scale() and axpy(), where it is `x[0:n]`: `#pragma omp target data map(to: a[0:N])` before it; the maps in scale() and axpy() then find it present
// FIXED-TWO: {{^}}  #pragma omp target data map(to: a[0:N]){{$}}
// FIXED-TWO-NEXT: {{^}}  #pragma omp target data map(alloc: z[0:N]){{$}}
// FIXED-TWO-NEXT: {{^}}  for (int r = 0; r < 6; ++r) {{{$}}
// FIXED-TWO: {{^}}    scale(N, a, z);{{$}}
// FIXED-TWO-NEXT: {{^}}    #pragma omp target update from(z[0:N]){{$}}
// PROOF-TWO: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed {{[1-9][0-9]*}}, predicted {{[1-9][0-9]*}})
// PROOF-TWO: OK
// SUMS: No rewrite: the call at prog.c:[[#]] passes `a` to total(), whose host code uses its parameter `x` (or the compiler cannot tell that it does not), and would not see the data kept on the device.
// RELAY: No rewrite: the call at prog.c:[[#]] passes `a` to relay(), whose host code uses its parameter `x` (or the compiler cannot tell that it does not), and would not see the data kept on the device.
// BUMP: No rewrite: the region at prog.c:[[#]] writes this `to` item, so each call must start from the host's copy.
// PEEK: No rewrite: the statement at prog.c:[[#]] passes `a` to a function defined in another file in which no construct ran, so the run has no record of what its host code does with it.
// SHIFT: No rewrite: the call at prog.c:[[#]] passes `a` to {{axpy|shift}}(), which maps its parameter `x` in constructs none of which the run saw map this data in that call, so ompdp cannot tell how they would map it.
// KEPT-NOT: keep `a[0:N]`
