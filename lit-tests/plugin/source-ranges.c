//===- source-ranges.c - byte ranges and file hashes for source edits -----===//
//
// The table gives, for a later tool's exact edits, the bytes of each
// directive (to the end of its last line), of its innermost loop, of each
// clause and each item, in the file the directive is written in (a header
// here too), with the XXH3-64 hash of that file as the compiler read it,
// which a tool recomputes to see whether the file changed since.
//
// REQUIRES: plugin
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump=%t/dump.txt %offload-flags -c %t/main.c -o %t/main.o
// RUN: %python %S/Inputs/slices.py %t/dump.txt | FileCheck %s
// RUN: %clang %S/Inputs/xxh3sum.c -o %t/xxh3sum
// RUN: %t/xxh3sum %t/main.c > %t/sums.txt
// RUN: %t/xxh3sum %t/kernels.h >> %t/sums.txt
// RUN: %python %S/Inputs/slices.py %t/dump.txt | grep -o 'hash=0x[0-9a-f]*' | sort -u > %t/table-sums.txt
// RUN: sed 's/^/hash=/' %t/sums.txt | sort -u | diff - %t/table-sums.txt

// CHECK: region kernels.h:3:3 directive=[#pragma omp target map(tofrom: v[0:n])] hash=[[H:0x[0-9a-f]+]]
// CHECK-NEXT: item 0 clause=[map(tofrom: v[0:n])] item=[v[0:n]]
// CHECK-NEXT: item 1 clause=[] item=[]
// CHECK: region main.c:9:5 directive=[#pragma omp target map(always, to: u[0:n]) \
// CHECK-NEXT: map(tofrom: s)] hash=[[M:0x[0-9a-f]+]]
// CHECK-NEXT: loop=[for (int it = 0; it < 3; ++it) {]
// CHECK-NEXT: item 0 clause=[map(always, to: u[0:n])] item=[u[0:n]]
// CHECK-NEXT: item 1 clause=[map(tofrom: s)] item=[s]
// CHECK: region main.c:15:3 directive=[UPDATE(u, n)] hash=[[M]]
// CHECK-NEXT: item 0 clause=[UPDATE(u, n)] item=[UPDATE(u, n)]
// CHECK-NOT: hash=[[H]]

//--- kernels.h
static void twice(double *v, int n) {
  // A construct in a header: ranges and hash are the header's.
  #pragma omp target map(tofrom: v[0:n])
  for (int i = 0; i < n; ++i)
    v[i] *= 2;
}
//--- main.c
#include "kernels.h"
#define PRAGMA(x) _Pragma(#x)
#define UPDATE(v, len) PRAGMA(omp target update from(v[0:len]))
int main(void) {
  int n = 8;
  double u[8] = {0}, s = 0;
  for (int it = 0; it < 3; ++it) {
    // Indented, and over two lines.
    #pragma omp target map(always, to: u[0:n]) \
        map(tofrom: s)
    for (int i = 0; i < n; ++i)
      s += u[i];
  }
  twice(u, n);
  UPDATE(u, n)
  return (int)s;
}
