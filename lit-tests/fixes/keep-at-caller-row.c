//===- keep-at-caller-row.c - data kept on the device across calls in a row -===//
//
// pipeline() calls scale() and shift() twice each, one statement after the
// other and in no loop; each function's construct maps x[0:n] tofrom, so
// every call allocates the array on the device and moves it both ways, and
// what one copies back the next sends again (a round trip across two
// functions). The data belongs on the device across the calls: a `target
// data` with braces around the four statements, written with pipeline's
// names for the parameters. The host reads and writes x between the calls,
// so a `target update from` goes before that statement and a `target
// update to` after it. Applied, rebuilt, rerun: the same output, the
// findings gone, transfers and allocations down as predicted, and a fix of
// the fixed program has nothing left.
// Negative cases, each advice with its reason and no rewrite:
//   DECL   a declaration between the calls (braces would hide its name
//          from the code after them);
//   ALIAS  the host changes the array between the calls through another
//          pointer, which the compiler does not follow (no update is
//          written where it does not see the write);
//   ONCE   pipeline() calls shift() once, and main calls pipeline()
//          twice: what repeats the construct is two callers up, and ompdp
//          keeps data at one caller only.
//   ARGUSE the last call's own arguments write x: the write runs after
//          any update before the statement and before the call, whose map
//          finds the data present, so no update can go between them;
//   PPCOND the last calls in the #else branch of an #ifdef: a `}` after
//          them would be compiled out with EXTRA defined, and the `{`
//          before the first call not: refused. (A whole #if group between
//          them is no obstacle: host_unread.c keeps data across one.)
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
// RUN: cd %t && %ompdp fix after.json | FileCheck %s --check-prefix=SECOND
// RUN: %clang-ompdp -DDECL %s -o %t/decl && %ompdp run -- %t/decl 2>&1 | FileCheck %s --check-prefixes=DECL,NONE
// RUN: %clang-ompdp -DALIAS %s -o %t/alias && %ompdp run -- %t/alias 2>&1 | FileCheck %s --check-prefixes=ALIAS,NONE
// RUN: %clang-ompdp -DONCE %s -o %t/once && %ompdp run -- %t/once 2>&1 | FileCheck %s --check-prefixes=ONCE,NONE
// RUN: %clang-ompdp -DARGUSE %s -o %t/arguse && %ompdp run -- %t/arguse 2>&1 | FileCheck %s --check-prefixes=ARGUSE,NONE
// RUN: %clang-ompdp -DPPCOND %s -o %t/ppcond && %ompdp run -- %t/ppcond 2>&1 | FileCheck %s --check-prefixes=PPCOND,NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024

static float *other;

static void scale(float *x, int n, float w) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * w + 1.0f;
}

static void shift(float *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] = x[i] - 0.25f;
}

// Each variant is a function of its own, so that no preprocessor
// conditional lies between the calls of the positive case.
#if defined(DECL)
static float pipeline(float *x, int n) {
  float t = 0.0f;
  scale(x, n, 0.5f);
  shift(x, n);
  float u = x[2];
  t += u;
  scale(x, n, 2.0f);
  shift(x, n);
  return t;
}
#elif defined(ALIAS)
static float pipeline(float *x, int n) {
  float t = 0.0f;
  scale(x, n, 0.5f);
  shift(x, n);
  other[3] += 1.0f; // x[3], through a pointer the compiler does not follow
  scale(x, n, 2.0f);
  shift(x, n);
  return t;
}
#elif defined(ONCE)
static float pipeline(float *x, int n) {
  float t = 0.0f;
  x[3] += 1.0f;
  shift(x, n);
  return t;
}
#elif defined(ARGUSE)
static float pipeline(float *x, int n) {
  float t = 0.0f;
  scale(x, n, 0.5f);
  shift(x, n);
  scale(x, n, 2.0f);
  shift(x, (x[3] += 1.0f, n));
  return t;
}
#elif defined(PPCOND)
static float pipeline(float *x, int n) {
  float t = 0.0f;
  scale(x, n, 0.5f);
  shift(x, n);
#ifdef EXTRA
  x[3] += 1.0f;
#else
  scale(x, n, 2.0f);
  shift(x, n);
#endif
  return t;
}
#else
static float pipeline(float *x, int n) {
  float t = 0.0f;
  scale(x, n, 0.5f);
  shift(x, n);
  x[3] += 1.0f; // the host reads and writes x between the calls
  scale(x, n, 2.0f);
  shift(x, n);
  return t;
}
#endif

int main(void) {
  float *a = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 7);
  other = a;
  float t = pipeline(a, N);
#ifdef ONCE
  t += pipeline(a, N);
#endif
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += a[i];
  printf("sum=%.3f a[3]=%.3f t=%.3f\n", sum, a[3], t);
  free(a);
  return 0;
}

// REPORT: round_trip {{.*}}prog.c:[[#]]:1 in shift
// REPORT: verdict: fix
// REPORT: rewrite (keep_resident): keep `x[0:n]` on device 0 across the calls of scale() and shift() in a row at prog.c:[[#FIRST:]]-[[#LAST:]], where it is `x[0:n]`: `#pragma omp target data map(tofrom: x[0:n])` and `{` before line {{[0-9]+}}, `}` after line {{[0-9]+}}; the maps in scale() and shift() then find it present; `target update from(x[0:n])` before line [[#HOST:]], `target update to(x[0:n])` after line {{[0-9]+}}  [saves {{.*}}: 4 transfers (16.0 KiB), 3 allocations]
// REPORT-NEXT: assumes: no host code between the calls, in scale() or in shift() reaches `x` through another pointer (the compiler follows `x` itself)
// REPORT-NEXT: prog.c:[[#FIRST]]:1: insert "  #pragma omp target data map(tofrom: x[0:n])\n  {\n"
// REPORT-NEXT: prog.c:[[#HOST]]:1: insert "  #pragma omp target update from(x[0:n])\n"
// REPORT-NEXT: prog.c:[[#HOST+1]]:1: insert "  #pragma omp target update to(x[0:n])\n"
// REPORT-NEXT: prog.c:[[#LAST+1]]:1: insert "  }\n"
// REPORT: repeated_alloc {{.*}}prog.c:[[#]]:1 in shift
// REPORT: verdict: fix
// REPORT: rewrite (keep_resident): the one shown above

// APPLY: prog.c: 4 edit(s) applied (the old file is {{.*}}prog.c.orig)

// FIXED:      {{^}}  #pragma omp target data map(tofrom: x[0:n]){{$}}
// FIXED-NEXT: {{^}}  {{[{]$}}
// FIXED-NEXT: {{^}}  scale(x, n, 0.5f);
// FIXED:      {{^}}  #pragma omp target update from(x[0:n]){{$}}
// FIXED-NEXT: {{^}}  x[3] += 1.0f;
// FIXED-NEXT: {{^}}  #pragma omp target update to(x[0:n]){{$}}
// FIXED:      {{^}}  shift(x, n);
// FIXED-NEXT: {{^}}  {{[}]$}}
// FIXED-NEXT: {{^}}  return t;

// PROOF: transfers: 8 -> 4 (removed 4, predicted 4)
// PROOF-NEXT: allocs: 4 -> 1 (removed 3, predicted 3)
// PROOF: OK

// SECOND: Diagnostics: []

// DECL: repeated_alloc {{.*}} in shift
// DECL: No rewrite: the calls at keep-at-caller-row.c:[[#]] and [[#]] are not statements on lines of their own with no declaration between them, around which braces could go.
// ALIAS: repeated_alloc {{.*}} in shift
// ALIAS: No rewrite: the host changed `x` between calls where the compiler sees no host code between the calls at keep-at-caller-row.c:[[#]] and [[#]] write it.
// ONCE: repeated_alloc {{.*}} in shift
// ONCE: No rewrite: the call at keep-at-caller-row.c:[[#]] that repeats it is in no loop of pipeline either, and ompdp keeps data at one caller only.
// ARGUSE: repeated_alloc {{.*}} in shift
// ARGUSE: No rewrite: host code at keep-at-caller-row.c:[[#]] uses `x` in the statement of a call that maps it, where no `target update` can go between the use and the call.
// PPCOND: repeated_alloc {{.*}} in shift
// PPCOND: No rewrite: the calls at keep-at-caller-row.c:[[#]] and [[#]] are in different branches of a preprocessor conditional (`#if`, `#else`, `#endif`), which could compile out one brace of a block around them without the other.
// NONE-NOT: rewrite (keep_resident)
