// Region table of a C program: every data-mapping construct, explicit and
// implicit items, map types and modifiers, loops, and the object sections.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s
// RUN: llvm-readelf -S -n %t.o | FileCheck %s --check-prefix=OBJ
// RUN: %clang %ompdp-plugin-flags %offload-flags -O2 -c %s -o %t.O2.o
// RUN: llvm-readelf -S %t.O2.o | FileCheck %s --check-prefix=OBJ

#include <stdlib.h>

// CHECK: ompdp region table: 6 region(s), section ompdp_regions
int main(void) {
  int n = 100;
  double *u = malloc(n * sizeof(double));
  int s = 0;
// CHECK: region 0x{{[0-9a-f]+}} 'target data' at {{.*}}c-regions.c:[[@LINE+3]]:1 in 'main'
// CHECK-NEXT: loop: none
// CHECK-NEXT: item 0: to 'u[0:n]' var 'u' mods - clause 'map(to: u[0:n])' clause-range [[@LINE+1]]:25-[[@LINE+1]]:40 item-range [[@LINE+1]]:33-[[@LINE+1]]:39
#pragma omp target data map(to: u[0:n])
  {
    for (int it = 0; it < 19; ++it) {
// CHECK: region {{.*}} 'target' at {{.*}}c-regions.c:[[@LINE+4]]:1 in 'main'
// CHECK-NEXT: loop: for 21:5-37:6
// CHECK-NEXT: item 0: tofrom 'u[0:n]' var 'u' mods always,close clause 'map(always, close, tofrom: u[0:n])'
// CHECK-NEXT: item 1: firstprivate 'n' var 'n' mods implicit clause 'implicit firstprivate(n)'
#pragma omp target map(always, close, tofrom: u[0:n])
      for (int j = 0; j < n; ++j)
        u[j] += 1;
// CHECK: region {{.*}} 'target update' at {{.*}}:32:1
// CHECK-NEXT: loop: for
// CHECK-NEXT: item 0: update from 'u[0:n]' var 'u' mods present clause 'from(present: u[0:n])'
#pragma omp target update from(present: u[0:n])
// CHECK: region {{.*}} 'target' at {{.*}}:35:1 in 'main' nowait
// CHECK: item 0: firstprivate 's' var 's' mods implicit clause 'implicit firstprivate(s)'
#pragma omp target nowait
      s++;
    }
  }
#pragma omp taskwait
// CHECK: region {{.*}} 'target enter data' at {{.*}}:42:1
// CHECK: item 0: alloc 'u[0:n]' var 'u' mods - clause 'map(alloc: u[0:n])'
#pragma omp target enter data map(alloc: u[0:n])
// CHECK: region {{.*}} 'target exit data' at {{.*}}:46:1
// CHECK: item 0: release 'u[0:n]' var 'u' mods - clause 'map(release: u[0:n], s)'
// CHECK: item 1: release 's' var 's'
#pragma omp target exit data map(release: u[0:n], s)
  free(u);
  return 0;
}

// OBJ: ompdp_regions
// OBJ: .note.ompdp
