//===- bad_region_table.c - a corrupt region table is refused, not read ---===//
//
// The runtime checks each region table against the bytes the loader mapped
// (rt/regions_check.c) before it uses it. A table patched in the binary
// (the string pool without its final NUL; a region whose items lie past
// the item records; a record size that is not this version's) is refused
// with one line naming the object and what is wrong; the program runs as
// before, its operations attributed through DWARF (-g) as without the
// plugin, and the report is written.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=GOOD
// RUN: %python %S/Inputs/patch_region_table.py %t %t.pool pool
// RUN: %ompdp run -- %t.pool > %t.pool.out 2> %t.pool.err
// RUN: FileCheck %s --check-prefix=OUT < %t.pool.out
// RUN: FileCheck %s --check-prefix=POOL < %t.pool.err
// RUN: %python %S/Inputs/patch_region_table.py %t %t.items items
// RUN: %ompdp run -- %t.items 2>&1 | FileCheck %s --check-prefix=ITEMS
// RUN: %python %S/Inputs/patch_region_table.py %t %t.size size
// RUN: %ompdp run -- %t.size 2>&1 | FileCheck %s --check-prefix=SIZE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256

int main(void) {
  static int a[N];
  for (int it = 0; it < 2; ++it) {
#pragma omp target map(tofrom: a)
    for (int i = 0; i < N; ++i)
      a[i] += i;
  }
  printf("a[3]=%d\n", a[3]);
  return 0;
}

// GOOD-NOT: region table
// GOOD: a[3]=6
// GOOD: variable: a  clause: map(tofrom: a)

// OUT: a[3]=6

// POOL: ompdp: region table in {{.*}}bad_region_table.c.tmp.pool ignored: string pool does not end with a NUL
// POOL-NOT: region table
// POOL-NOT: variable: a
// POOL: round_trip {{.*}}bad_region_table.c:{{[0-9]+}}:1 in main

// ITEMS: ompdp: region table in {{.*}} ignored: region 0: items 4294967295..{{[0-9]+}} are outside the {{[0-9]+}} item records
// ITEMS: a[3]=6
// ITEMS: === ompdp report ===

// SIZE: ompdp: region table in {{.*}} ignored: record sizes
// SIZE: a[3]=6
