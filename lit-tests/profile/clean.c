//===- clean.c - a program that wastes nothing gets no warning --------------===//
//
// The data stays on the device across the loop already: the report has no
// finding, and the compile with its profile prints nothing of ompdp's.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog > /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RUN: cd %t && %clang-ompdp -Werror -Wno-unused-command-line-argument -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --allow-empty --check-prefix=DIAG
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256

int main(void) {
  static int b[N];
  for (int j = 0; j < N; ++j)
    b[j] = j % 7 + 1; /* not zeros, nor one value: a zero or single-value copy in is a finding */
#pragma omp target data map(tofrom : b)
  for (int it = 0; it < 4; ++it) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; ++j)
      b[j] += j + it;
  }
  printf("b[N-1]=%d\n", b[N - 1]);
  return 0;
}

// JSON: "findings": []
// DIAG-NOT: warning
// DIAG-NOT: error
// DIAG-NOT: fix-it
