//===- keep-resident-jumps.c - loops a rewrite must not wrap, and one it may ===//
//
// Where the code a keep-resident rewrite would wrap in a structured block
// can be left or entered by a jump that no `target exit data` can precede,
// there is no rewrite, and the finding's suggestion says why:
//   - `macro`: the loop is left by a `return` that a macro expands to;
//   - `entered`: a `goto` before the loop jumps into it;
//   - `row`: Listing 1's constructs in a row (not in a loop) with a
//     `return` between them.
// `own_break` is the negative case: its loop's `break` leaves only the loop
// itself, which the `target data` region wraps whole, so the rewrite is
// made as always. Applied, rebuilt and rerun: same output, one rewrite.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=ONE --implicit-check-not='keep `a`' --implicit-check-not='keep `b`' --implicit-check-not='keep `c`'
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && ./after > after.out
// RUN: diff %t/before.out %t/after.out
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024
#define CHECK(x)                                                               \
  if (!(x))                                                                    \
  return -1

static double a[N], b[N], c[N], d[N];

static int macro(int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp target map(tofrom : a)
    for (int i = 0; i < N; ++i)
      a[i] += 1;
    CHECK(s < 100);
  }
  return 0;
}

static int entered(int steps, int skip) {
  int s = 0;
  if (skip)
    goto resume;
  for (s = 0; s < steps; ++s) {
#pragma omp target map(tofrom : b)
    for (int i = 0; i < N; ++i)
      b[i] += 2;
  resume:;
  }
  return s;
}

static int row(int fail) {
#pragma omp target map(tofrom : c)
  for (int i = 0; i < N; ++i)
    c[i] += 3;
  if (fail)
    return -1;
#pragma omp target map(tofrom : c)
  for (int i = 0; i < N; ++i)
    c[i] *= 2;
  return 0;
}

static void own_break(int steps) {
  for (int s = 0; s < steps; ++s) {
#pragma omp target map(tofrom : d)
    for (int i = 0; i < N; ++i)
      d[i] += 4;
    if (s == 100)
      break;
  }
}

int main(void) {
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = c[i] = d[i] = i;
  int r = macro(6) + entered(6, 0) + row(0);
  own_break(6);
  printf("r=%d a=%g b=%g c=%g d=%g\n", r, a[N - 1], b[N - 1], c[N - 1], d[N - 1]);
  return 0;
}

// Findings of one kind come in the order of the time they save, which
// varies from run to run: each is checked on its own.
// REPORT-DAG: round_trip  prog.c:{{[0-9]+}}:1 in macro
// REPORT-DAG: suggestion: {{.*}}. No rewrite: the `return` at prog.c:39 leaves the for loop at prog.c:35, which a `target data` region before the loop must not be left by, and it is not a statement a `target exit data` can go before (a macro, or part of an expression).
// REPORT-DAG: round_trip  prog.c:{{[0-9]+}}:1 in entered
// REPORT-DAG: suggestion: {{.*}}. No rewrite: code outside the for loop at prog.c:48 jumps into it (to line 52), so no `target data` region or `target enter data` before the loop can be sure to run before it.
// REPORT-DAG: round_trip  prog.c:{{[0-9]+}}:1 in row
// REPORT-DAG: suggestion: {{.*}}. No rewrite: the call at prog.c:82 that repeats it is in no loop of main either, and ompdp keeps data at one caller only; a jump (`return`, `goto`, `break`, `continue`, `throw`) or a label lies between the constructs at prog.c:58 and 63, and a `target data` block around them must not be left or entered by one.

// ONE: rewrite (keep_resident): keep `d` on device 0 for the whole for loop at prog.c:{{[0-9]+}}: `#pragma omp target data map(tofrom: d)` before it;

// APPLY: prog.c: 1 edit(s) applied
