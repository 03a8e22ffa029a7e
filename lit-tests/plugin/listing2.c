// The paper's Listing 2: a combined target construct inside a time loop with
// no map clause at all. Sema's implicit maps must be recorded, with the loop
// the mapping could be hoisted out of.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#define N 1024
double a[N], b[N];

void jacobi(int steps) {
  for (int t = 0; t < steps; ++t) {
#pragma omp target parallel for
    for (int i = 1; i < N - 1; ++i)
      b[i] = (a[i - 1] + a[i + 1]) / 2;
  }
}

// CHECK: ompdp region table: 1 region(s)
// CHECK-NEXT: region 0x{{[0-9a-f]+}} 'target' at {{.*}}listing2.c:12:1 in 'jacobi'
// CHECK-NEXT: loop: for 11:3-15:{{[0-9]+}}
// CHECK-DAG: tofrom 'b' var 'b' mods implicit clause 'implicit map(tofrom: b)'
// CHECK-DAG: tofrom 'a' var 'a' mods implicit clause 'implicit map(tofrom: a)'
// CHECK-NOT: item
