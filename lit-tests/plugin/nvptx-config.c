// ===- nvptx-config.c - lib/ompdp-nvptx.cfg builds for an NVIDIA GPU ------===//
//
// One --config= is all an NVIDIA offload build needs: the config adds the
// device runtime's bitcode path that Debian's clang 19 does not find by
// itself. The binary holds an sm_XX image and runs (on the host when there
// is no GPU: libomptarget's fallback); gpu/nvptx-run.c checks the report on
// a GPU.
//
// REQUIRES: plugin, cuda
// RUN: %clang --config=%nvptx-cfg -O1 %s -o %t -Wl,-rpath,%llvm-libdir
// RUN: llvm-objdump --offloading %t | FileCheck %s --check-prefix=IMAGE
// IMAGE: arch {{.*}}sm_
// IMAGE: triple {{.*}}nvptx64-nvidia-cuda
// RUN: %t | FileCheck %s --check-prefix=OUT
// OUT: sum=102
#include <stdio.h>

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
  for (int step = 0; step < 3; step++) {
#pragma omp target map(tofrom : a)
    for (int i = 0; i < 100; i++)
      a[i] += 1;
  }
  printf("sum=%d\n", a[99]);
  return 0;
}
