//===- no_target_executed.c - an offload program that never offloads ------===//
//
// The program is built for offload and uses OpenMP on the host, but takes
// no branch with a target construct. The report is written at exit, when
// libomptarget may already be shut down: ompdp must not call into it then
// (omp_get_initial_device() crashed there). The program's output and
// status are unchanged, and the report is empty, saying at its top that no
// device did anything (so nothing was checked) and why that may be.
//
// RUN: %clang-offload -g %s -o %t
// RUN: sh -c '%ompdp run -- %t; echo "rc=$?"' 2>&1 | FileCheck %s
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt sh -c '%t; echo "rc=$?"' 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

// CHECK: x=2
// CHECK: === ompdp report ===
// CHECK-NEXT: warning: no device activity: the program carries offload images for x86_64-pc-linux-gnu, but no kernel ran and no data moved on any device, so nothing was checked: no target region ran, or each one fell back to the host (LIBOMPTARGET_INFO=-1 says why)
// CHECK: observed: 0 transfers
// CHECK: nothing was checked: no data moved on any device (see the first warning)
// CHECK: rc=0

int main(int argc, char **argv) {
  int x = 0;
#pragma omp parallel num_threads(2)
  {
#pragma omp atomic
    x++;
  }
  if (argc > 5) {
#pragma omp target map(tofrom : x)
    x++;
  }
  printf("x=%d\n", x);
  fflush(stdout);
  return 0;
}
