//===- keep-at-caller-refused.c - data not kept at the caller, and why ----===//
//
// The shape of keep-at-caller.c (a construct in step(), called from main's
// loop), made unsafe or impossible one way at a time. Each run keeps its
// findings as advice whose words say why the `target data` cannot go
// around main's loop; none gets a rewrite at the caller.
//   SIZES    every other call maps a section of another size;
//   HOSTUSE  step() itself reads x on the host after its construct: kept on
//            the device, what it reads would be stale;
//   NOTVAR   the call passes a + 1 for x: no map clause can name that;
//   VARYING  the length passed changes in the loop (n + off, off written);
//   ALIAS    the host changes the array between calls through another
//            pointer, which the compiler does not follow;
//   MACRO    a `return` in a macro leaves main's loop: neither a `target
//            data` (a jump must not leave it) nor a `target exit data`
//            before the jump (inside the macro) is right;
//   PLAIN    (the positive control) the same loop without any of these:
//            the rewrite at the caller;
//   TWOLOOPS (a positive too) main calls step() from two loops, one after
//            the other: the first, which ran more calls, is kept (a
//            `target data` around it), the second's calls map as before
//            (keep-at-caller-two-loops.c applies such a rewrite).
//
// REQUIRES: plugin
// RUN: %clang-ompdp -DSIZES %s -o %t.sizes && %ompdp run -- %t.sizes 2>&1 | FileCheck %s --check-prefixes=SIZES,NONE
// RUN: %clang-ompdp -DHOSTUSE %s -o %t.hostuse && %ompdp run -- %t.hostuse 2>&1 | FileCheck %s --check-prefixes=HOSTUSE,NONE
// RUN: %clang-ompdp -DNOTVAR %s -o %t.notvar && %ompdp run -- %t.notvar 2>&1 | FileCheck %s --check-prefixes=NOTVAR,NONE
// RUN: %clang-ompdp -DVARYING %s -o %t.varying && %ompdp run -- %t.varying 2>&1 | FileCheck %s --check-prefixes=VARYING,NONE
// RUN: %clang-ompdp -DALIAS %s -o %t.alias && %ompdp run -- %t.alias 2>&1 | FileCheck %s --check-prefixes=ALIAS,NONE
// RUN: %clang-ompdp -DMACRO %s -o %t.macro && %ompdp run -- %t.macro 2>&1 | FileCheck %s --check-prefixes=MACRO,NONE
// RUN: %clang-ompdp -DTWOLOOPS %s -o %t.twoloops && %ompdp run -- %t.twoloops 2>&1 | FileCheck %s --check-prefix=TWOLOOPS
// RUN: %clang-ompdp %s -o %t.plain && %ompdp run -- %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 512
#define STEPS 5
#define LEAVE_IF(c) if (c) return 1

static float last;

static void step(float *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] = 0.5f * x[i] + 1.0f;
#ifdef HOSTUSE
  last = x[n - 1];
#endif
}

int main(void) {
  float *a = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 5);
  int n = N;
  int off = 0;
#ifdef ALIAS
  float *b = a;
#endif
  for (int s = 0; s < STEPS; ++s) {
#if defined(SIZES)
    step(a, s % 2 ? n / 2 : n);
#elif defined(NOTVAR)
    step(a + 1, n - 1);
#elif defined(VARYING)
    step(a, n + off);
    off = s - s;
#elif defined(ALIAS)
    step(a, n);
    b[s] += 1.0f;
#elif defined(MACRO)
    step(a, n);
    LEAVE_IF(a[0] < -1.0f);

#else
    step(a, n);
#endif
  }
#ifdef TWOLOOPS
  for (int s = 0; s < STEPS; ++s)
    step(a, n);
#endif
  printf("a[1]=%.3f a[N-1]=%.3f last=%.3f\n", a[1], a[N - 1], last);
  free(a);
  return 0;
}

// SIZES: repeated_alloc {{.*}} in step
// SIZES: No rewrite: the target construct at keep-at-caller-refused.c:[[#]] maps sections of other sizes from one call to the next.
// HOSTUSE: repeated_alloc {{.*}} in step
// HOSTUSE: No rewrite: host code of step uses `x` (or the compiler cannot tell that it does not), and would no longer see the device's copy come back there.
// NOTVAR: repeated_alloc {{.*}} in step
// NOTVAR: No rewrite: the call at keep-at-caller-refused.c:[[#]] passes `a + 1` for `x`, which is not a variable a map clause can name.
// VARYING: repeated_alloc {{.*}} in step
// VARYING: No rewrite: the argument for `n` at keep-at-caller-refused.c:[[#]] (`n + off`) may change from one call to the next.
// ALIAS: repeated_alloc {{.*}} in step
// ALIAS: No rewrite: the host changed `a` between calls where the compiler sees no host code of the loop at keep-at-caller-refused.c:[[#]] write it.
// MACRO: repeated_alloc {{.*}} in step
// MACRO: No rewrite: the `return` at keep-at-caller-refused.c:[[#]] leaves the for loop at keep-at-caller-refused.c:[[#]], which a `target data` region before the loop must not be left by, and it is not a statement a `target exit data` can go before (a macro, or part of an expression).
// NONE-NOT: rewrite (keep_resident)

// TWOLOOPS: round_trip {{.*}} in step count=9
// TWOLOOPS: rewrite (keep_resident): keep `a[0:n]` on device 0 for the whole for loop at keep-at-caller-refused.c:[[#]] that calls step(), where it is `x[0:n]`: `#pragma omp target data map(tofrom: a[0:n])` before it; the maps in step() then find it present; the calls of step() outside the loop map it as before; {{.*}}[saves {{.*}}: 8 transfers (16.0 KiB), 4 allocations]

// PLAIN: round_trip {{.*}} in step
// PLAIN: verdict: fix
// PLAIN: rewrite (keep_resident): keep `a[0:n]` on device 0 for the whole for loop at keep-at-caller-refused.c:[[#]] that calls step(), where it is `x[0:n]`: `#pragma omp target data map(tofrom: a[0:n])` before it
