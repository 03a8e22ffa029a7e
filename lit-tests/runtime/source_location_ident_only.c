//===- source_location_ident_only.c - no libdw where the ident_t says it all ===//
//
// Without the plugin the runtime names a construct from the ident_t clang
// passes its call (";file;function;line;column;;" with -g) and, where that
// cannot be the whole answer, from DWARF through libdw. In C, compiled by
// its full path, DWARF adds nothing (no template arguments to add to the
// function's name, no compile directory to add to the path), so libdw and
// the libraries under it are never loaded (0.4 ms of a short run: issue 30,
// benchmarks/results-host.md). The same source compiled by a relative path
// still loads libdw, and its findings name the file by its full path (the
// compile directory from DWARF); C++ templates keep DWARF's names with
// their arguments (plugin/attribution-cxx.cpp).
//
// REQUIRES: x86_64
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/ident.c
// RUN: %clang-offload -O0 -g %t.dir/ident.c -o %t.abs
// RUN: env LD_DEBUG=files %ompdp run --format=json -o %t.abs.json -- %t.abs 2> %t.abs.err
// RUN: FileCheck %s --check-prefix=NOLIBDW --input-file=%t.abs.err --implicit-check-not=libdw
// RUN: %python %S/../plugin/Inputs/findings.py %t.abs.json | FileCheck %s
// RUN: %python -c "import json,sys; print(sorted({f['file'] for f in json.load(open(sys.argv[1]))['findings']}))" %t.abs.json | FileCheck %s --check-prefix=FULLPATH -DDIR=%t.dir
// RUN: cd %t.dir && %clang-offload -O0 -g ./ident.c -o %t.rel
// RUN: env LD_DEBUG=files %ompdp run --format=json -o %t.rel.json -- %t.rel 2> %t.rel.err
// RUN: FileCheck %s --check-prefix=LIBDW --input-file=%t.rel.err
// RUN: %python %S/../plugin/Inputs/findings.py %t.rel.json | FileCheck %s
// RUN: %python -c "import json,sys; print(sorted({f['file'] for f in json.load(open(sys.argv[1]))['findings']}))" %t.rel.json | FileCheck %s --check-prefix=FULLPATH -DDIR=%t.dir
//
// NOLIBDW: file={{.*}}libompdp-rt.so {{.*}}dynamically loaded by
// NOLIBDW: calling fini: {{.*}}libompdp-rt.so
// LIBDW: file=libdw.so.1 {{.*}}dynamically loaded by
// ("loaded by" names libompdp-rt.so, or ASan's dlopen interceptor in a
// sanitizer build.)
// FULLPATH: ['[[DIR]]/ident.c']
//
// CHECK: duplicate_transfer ident.c:[[@LINE+13]]:1 in main devices=0 variable=- clause=-
// CHECK: repeated_alloc ident.c:[[@LINE+12]]:1 in main devices=0 variable=- clause=-
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  static double a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int round = 0; round < 2; ++round) {
    // The same bytes copied twice: a duplicate transfer.
#pragma omp target map(to : a[0 : N]) map(from : b[0 : N])
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
  }
  printf("b[1] = %g\n", b[1]);
  return 0;
}
