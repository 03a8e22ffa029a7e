//===- clean.c - a program that wastes nothing gets no rewrite -------------===//
//
// The data stays on the device across the loop already: no finding, so no
// rewrite; `ompdp fix` writes an empty YAML and --apply changes nothing.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RUN: cd %t && %ompdp fix r.json | FileCheck %s --check-prefix=YAML
// RUN: cd %t && %ompdp fix --apply r.json | FileCheck %s --check-prefix=APPLY
// RUN: cmp %s %t/prog.c
// RUN: not test -e %t/prog.c.orig
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

// OUT: b[N-1]=1030
// JSON: "findings": []
// JSON-NOT: "rewrites"
// YAML: Diagnostics: []
// APPLY: no rewrite to apply
