//===- attribution-mixed.c - one file with the plugin, one with -g only ---===//
//
// A program linked from a file built with the plugin (no -g) and one built
// without it but with -g. Both files' findings have their construct's
// file:line:col and function; only the plugin's name the variable and the
// clause (DWARF knows neither). Constructs in the -g file come without a
// pending call, and that must not make the runtime miss the plugin's.
//
// REQUIRES: plugin
// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: %clang-ompdp -c %t/plug.c -o %t/plug.o
// RUN: %clang-offload -g -c %t/dwarf.c -o %t/dwarf.o
// RUN: %clang-offload %t/plug.o %t/dwarf.o -o %t/mixed
// RUN: %ompdp run --format=json -o %t/r.json -- %t/mixed | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t/r.json | FileCheck %s
//===----------------------------------------------------------------------===//

// OUT: 44850 44850

//--- dwarf.c
#include <stdio.h>
#define N 300
int with_plugin(void);
static int b[N];
static int with_dwarf(void) {
  int r = 0;
  for (int i = 0; i < N; ++i)
    b[i] = i;
  for (int k = 0; k < 2; ++k) {
    // One finding per kind: without the plugin, a and r are one place.
    // CHECK: duplicate_transfer dwarf.c:[[@LINE+2]]:5 in with_dwarf devices=0 variable=- clause=-
    // CHECK-NEXT: repeated_alloc dwarf.c:[[@LINE+1]]:5 in with_dwarf devices=0 variable=- clause=-
    #pragma omp target map(to: b) map(from: r)
    {
      r = 0;
      for (int i = 0; i < N; ++i)
        r += b[i];
    }
  }
  return r;
}
int main(void) {
  int x = with_plugin();
  int y = with_dwarf();
  printf("%d %d\n", x, y);
  return 0;
}
//--- plug.c
#define N 300
static int a[N];
int with_plugin(void) {
  int r = 0;
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 2; ++k) {
    // CHECK-NEXT: duplicate_transfer plug.c:[[@LINE+4]]:5 in with_plugin devices=0 variable=a clause=map(to: a)
    // CHECK-NEXT: duplicate_transfer plug.c:[[@LINE+3]]:5 in with_plugin devices=0 variable=r clause=map(from: r)
    // CHECK-NEXT: repeated_alloc plug.c:[[@LINE+2]]:5 in with_plugin devices=0 variable=a clause=map(to: a)
    // CHECK-NEXT: repeated_alloc plug.c:[[@LINE+1]]:5 in with_plugin devices=0 variable=r clause=map(from: r)
    #pragma omp target map(to: a) map(from: r)
    {
      r = 0;
      for (int i = 0; i < N; ++i)
        r += a[i];
    }
  }
  return r;
}
// CHECK-NOT: {{.}}
