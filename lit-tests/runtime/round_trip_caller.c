//===- round_trip_caller.c - a round trip repeated by the caller's loop ---===//
//
// With -DCALLER, `step` maps `a` tofrom and main calls it in a loop: what comes
// back goes out again unchanged at the next call. The construct has no
// loop around it in its own function, so the words say to keep the data
// at the caller (with enter/exit data there), not "across the enclosing
// loop", and the rewrite keeps `a` there: the run saw every execution in the
// one call of main's loop (lit-tests/fixes/keep-at-caller.c applies it).
// With -DLOOP (the negative case), the same construct in a loop of its own
// function gets the loop's words, and keep_resident rewrites it.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g -DCALLER %s -o %t.caller
// RUN: %ompdp run -- %t.caller 2>&1 | FileCheck %s --check-prefix=CALLER
// RUN: %clang-ompdp -g -DLOOP %s -o %t.loop
// RUN: %ompdp run -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 5

static int a[N];

#ifdef CALLER
static void step(void) {
#pragma omp target parallel for map(tofrom : a)
  for (int j = 0; j < N; ++j)
    a[j] += j;
}
#endif

int main(void) {
  for (int i = 0; i < ITERS; ++i) {
#ifdef CALLER
    step();
#else
#pragma omp target parallel for map(tofrom : a)
    for (int j = 0; j < N; ++j)
      a[j] += j;
#endif
  }
  printf("a[N-1]=%d\n", a[N - 1]);
  return 0;
}

// CALLER: round_trip {{.*}}round_trip_caller.c:{{[0-9]+}}:1 in step count=4
// CALLER: suggestion: data copied back from device 0 returns unchanged: the construct's function has no loop around it, so keep the data on the device where the calls repeat (`#pragma omp target enter data map(to: a)` before the caller's loop, `target exit data map(from: a)` after it), and use `#pragma omp target update from(a)` only where the host reads it and `target update to(a)` after host code that changes it{{$}}
// CALLER-NEXT: rewrite (keep_resident): keep `a` on device 0 for the whole for loop at round_trip_caller.c:[[#CL:]] that calls step(), where it is `a`: `#pragma omp target data map(tofrom: a)` before it; the maps in step() then find it present; no host code in the loop uses `a`, so it comes back once, after it
// CALLER: round_trip_caller.c:[[#CL]]:1-[[#CL]]:6: replace "for" with "  #pragma omp target data map(tofrom: a)\n  for"

// LOOP: round_trip {{.*}}round_trip_caller.c:{{[0-9]+}}:1 in main count=4
// LOOP: suggestion: data copied back from device 0 returns unchanged: keep it on the device across the enclosing loop with `#pragma omp target data map(tofrom: a)`
// LOOP: rewrite (keep_resident)
