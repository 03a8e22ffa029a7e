// The other tests link with gold where binutils has it (lit.cfg.py: the
// host link of an offload program takes GNU ld most of a test's compile).
// Users link with the system's default linker, ld.bfd: a program built so
// gets the same findings, named from the region table in its binary
// (variable, clause, file:line:col), and the same rewrite.
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags %default-ld-flags -g %s -o %t
// The findings of `a` and `b` come in the order of their measured savings,
// which varies: the rewrite, printed in full under the first, is checked
// on its own.
// RUN: %ompdp run -- %t 2> %t.txt > /dev/null
// RUN: FileCheck %s < %t.txt
// RUN: FileCheck %s --check-prefix=REWRITE < %t.txt
// RUN: %clang %ompdp-plugin-flags %offload-flags -g %s -o %t.gold
// RUN: %ompdp run -- %t.gold 2> %t.gold.txt > /dev/null
// RUN: FileCheck %s < %t.gold.txt
// RUN: FileCheck %s --check-prefix=REWRITE < %t.gold.txt
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

// CHECK: duplicate_transfer {{.*}}default-linker.c:28:1 in main count=3
// CHECK-NEXT: variable: a clause: map(to: a)
// REWRITE: rewrite (keep_resident): keep `a` and `b` on device 0 for the whole for loop at default-linker.c:27: `#pragma omp target data map(to: a) map(tofrom: b)` before it
