//===- verbose_times.c - where ompdp run's own time goes -------------------===//
//
// With --option verbose=1, the runtime says where its time in the program
// went and ompdp run says where its own went: before it starts the program
// (options, run directory, environment), reading and printing the report,
// and removing the run directory. The short-run benchmark
// (benchmarks/run.py) puts both in its breakdown of a one-region program's
// cost. Without verbose, neither line is printed.
//
// RUN: %clang-offload %s -o %t
// RUN: %ompdp run --option verbose=1 -o %t.txt -- %t 2>&1 | FileCheck %s --check-prefix=VERBOSE
// RUN: %ompdp run -o %t.quiet.txt -- %t 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: %ompdp run --option verbose=0 -o %t.zero.txt -- %t 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=REPORT < %t.txt

// VERBOSE: ompdp: time in the program: start-up {{[0-9]+}} us, crash-log blocks {{[0-9]+}} us, analysis {{[0-9]+}} us (of which source locations {{[0-9]+}} us), report {{[0-9]+}} us
// VERBOSE: ompdp: time in ompdp run: before the program {{[0-9]+}} us, reading and printing the report {{[0-9]+}} us, removing its directory {{[0-9]+}} us
// QUIET-NOT: time in
// REPORT: observed: 2 transfers

#include <stdio.h>

int main(void) {
  double v[16];
  for (int i = 0; i < 16; ++i)
    v[i] = i;
#pragma omp target map(tofrom : v)
  for (int i = 0; i < 16; ++i)
    v[i] *= 2;
  printf("%g\n", v[15]);
  return 0;
}
