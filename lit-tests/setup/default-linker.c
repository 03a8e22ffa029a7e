// The other tests link with gold where binutils has it (lit.cfg.py: the
// host link of an offload program takes GNU ld most of a test's compile).
// Users link with the system's default linker, ld.bfd: a program built so
// gets the same findings, named from the region table in its binary
// (variable, clause, file:line:col), and the same rewrite.
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags %default-ld-flags -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 > /dev/null | FileCheck %s
// RUN: %clang %ompdp-plugin-flags %offload-flags -g %s -o %t.gold
// RUN: %ompdp run -- %t.gold 2>&1 > /dev/null | FileCheck %s
#include <stdio.h>

#define N 4096

int main(void) {
  static float a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 11);
  for (int it = 0; it < 4; ++it) {
#pragma omp target teams distribute parallel for map(to: a) map(tofrom: b)
    for (int i = 0; i < N; ++i)
      b[i] += a[i];
  }
  printf("%g\n", b[N - 1]);
  return 0;
}

// CHECK: duplicate_transfer {{.*}}default-linker.c:21:1 in main count=3
// CHECK-NEXT: variable: a clause: map(to: a)
// CHECK: rewrite (keep_resident): keep `a` and `b` on device 0 for the whole for loop at default-linker.c:20: `#pragma omp target data map(to: a) map(tofrom: b)` before it
