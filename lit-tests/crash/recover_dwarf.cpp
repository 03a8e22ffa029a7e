// ===- recover_dwarf.cpp - ompdp run reads DWARF for a program that died ===//
//
// A program built without the plugin and killed by SIGKILL writes no report:
// ompdp run rebuilds it from the event log and names each construct from
// the program's DWARF itself, opening libdw only then (the driver links no
// libdw: runtime/lazy_libdw.test), with the function's template arguments
// that only DWARF has.
//
// RUN: %clangxx %offload-flags -g %s -o %t
// RUN: sh -c 'LD_DEBUG=files %ompdp run --format=json -o %t.json -- %t 2> %t.err; echo "rc=$?"' | FileCheck %s --check-prefix=RC
// RUN: FileCheck %s --check-prefix=LOADED --input-file=%t.err
// RUN: %python %S/../plugin/Inputs/findings.py %t.json | FileCheck %s
//
// RC: rc=137
// LOADED: file=libdw.so.1 {{.*}}dynamically loaded by
// (by bin/ompdp, or by ASan's dlopen interceptor in a sanitizer build; the
// program, killed, never reaches its own report, and only DWARF has the
// template arguments that the findings name.)
// CHECK: duplicate_transfer recover_dwarf.cpp:[[@LINE+9]]:1 in twice<double> devices=0
// ===----------------------------------------------------------------------===//
#include <signal.h>
#include <stdio.h>

#define N 4096

template <typename T> void twice(T *a, T *b) {
  for (int r = 0; r < 2; ++r) {
#pragma omp target map(to : a[0 : N]) map(from : b[0 : N])
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
  }
}

int main() {
  static double a[N], b[N];
  twice(a, b);
  fflush(stdout);
  raise(SIGKILL);
}
