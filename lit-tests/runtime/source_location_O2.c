//===- source_location_O2.c - a construct's own line at -O2 -g, no plugin -===//
//
// At -O2 clang-19 puts the offload calls of a construct on rows of line 0,
// and the next row of the line table is the statement after the construct
// (or an inlined function's): the runtime takes the directive's line and
// column, and the function, from the ident_t that clang passes the call
// (";file;function;line;column;;" with -g), which it finds at the call
// site (x86-64: `lea ident(%rip), %rdi` before the call) and checks lies
// in the program's own loaded segments. The same binary's findings land
// on each directive, at -O0 and at -O2, and never on the statement after
// it or in the inlined helper. Without -g the ident holds no position
// (";unknown;unknown;0;0;;"): the negative case keeps DWARF's answer (none).
//
// REQUIRES: x86_64
// RUN: %clang-offload -O2 -g %s -o %t.O2
// RUN: %ompdp run --format=json -o %t.O2.json -- %t.O2 | FileCheck %s --check-prefix=OUT
// RUN: %python %S/../plugin/Inputs/findings.py %t.O2.json | FileCheck %s
// RUN: %clang-offload -O0 -g %s -o %t.O0
// RUN: %ompdp run --format=json -o %t.O0.json -- %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %python %S/../plugin/Inputs/findings.py %t.O0.json | FileCheck %s
// RUN: %clang-offload -O2 %s -o %t.nog
// RUN: %ompdp run --format=json -o %t.nog.json -- %t.nog | FileCheck %s --check-prefix=OUT
// RUN: %python %S/../plugin/Inputs/findings.py %t.nog.json | FileCheck %s --check-prefix=NOG --implicit-check-not=source_location_O2.c:
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <string.h>

#define N 4096

static inline void fill(float *v, int n, float x) {
  for (int i = 0; i < n; ++i)
    v[i] = x * i;
}

int main(void) {
  static float a[N], b[N];
  float s = 0;
  fill(a, N, 0.5f);
  memset(b, 0, sizeof(b));
  // CHECK: zero_transfer source_location_O2.c:[[@LINE+1]]:1 in main devices=0
#pragma omp target data map(to: a[0:N], b[0:N])
  {
    fill(a, N, 0.25f);
    for (int it = 0; it < 2; ++it) {
      // CHECK: duplicate_transfer source_location_O2.c:[[@LINE+1]]:7 in main devices=0
      #pragma omp target update to(a[0:N])
      #pragma omp target map(tofrom: s)
      for (int i = 0; i < N; ++i)
        s += a[i] + b[i];
    }
    s += 1;
  }
  printf("s=%g\n", s);
  return 0;
}
// OUT: s=
// Without -g: the findings are there, at no source location.
// NOG-DAG: duplicate_transfer ?:0:0 in main devices=0
// NOG-DAG: zero_transfer ?:0:0 in main devices=0
