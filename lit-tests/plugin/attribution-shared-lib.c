//===- attribution-shared-lib.c - offload code in a shared library --------===//
//
// The library is built with the plugin, without -g. Linked case: a program
// built with the plugin links it; both tables are there when the tool
// starts. Dlopen case: a program built without the plugin (so with no table
// at all) runs constructs of its own, then dlopen()s the library; the
// library's offload calls find the runtime from their first construct on,
// so all three calls are attributed ("first sent at" is the library's
// construct too).
//
// REQUIRES: plugin
// RUN: rm -rf %t && split-file %s %t
// RUN: %clang-ompdp -fPIC -shared %t/lib.c -o %t/libk.so
// RUN: %clang-ompdp %t/main.c -o %t/linked -L%t -lk -Wl,-rpath,%t
// RUN: %ompdp run -- %t/linked 2>&1 | FileCheck %s --check-prefixes=COMMON,LINKED
// RUN: %clang-offload %t/dl.c -o %t/dl
// RUN: %ompdp run -- %t/dl %t/libk.so 2>&1 | FileCheck %s --check-prefixes=COMMON,DLOPEN
//===----------------------------------------------------------------------===//

// COMMON: s=393984
// COMMON: duplicate_transfer {{.*}}lib.c:7:3 in lib_step count=2 bytes=8.0 KiB
// COMMON-NEXT: variable: buf  clause: map(to: buf)
// COMMON-NEXT: 2 from the same host buffer
// COMMON-NEXT: first sent at {{.*}}lib.c:7:3 in lib_step
// LINKED: round_trip {{.*}}main.c:6:3 in main count=2
// LINKED-NEXT: variable: t  clause: map(tofrom: t)
// DLOPEN-NOT: main.c

//--- lib.c
#define N 512
static double buf[N];
double lib_step(int k) {
  double s = 0;
  for (int i = 0; i < N; ++i)
    buf[i] = i;
  #pragma omp target map(to: buf) map(tofrom: s)
  for (int i = 0; i < N; ++i)
    s += buf[i] + k;
  return s;
}
//--- main.c
#include <stdio.h>
double lib_step(int);
int main(void) {
  double s = 0, t = 0;
  for (int k = 0; k < 3; ++k) {
  #pragma omp target map(tofrom: t)
    t += 1;
    s += lib_step(k);
  }
  printf("s=%g\n", s);
  return t != 3;
}
//--- dl.c
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  // Constructs without a table before the library is loaded: the runtime
  // remembers that their call site has none, which must not hide the
  // library's table later.
  int x = 0;
  for (int k = 0; k < 3; ++k) {
    #pragma omp target map(tofrom: x)
    x += 1;
  }
  void *h = dlopen(argv[1], RTLD_NOW);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  double (*step)(int) = (double (*)(int))dlsym(h, "lib_step");
  double s = 0;
  for (int k = 0; k < 3; ++k)
    s += step(k);
  printf("s=%g\n", s);
  return x != 3;
}
