//===- omp_tool_disabled.c - OMP_TOOL=disabled is respected ---------------===//
//
// OMP_TOOL=disabled tells the OpenMP runtime to load no tool. `ompdp run`
// respects it (any case, as libomp reads it): it says at the start that
// there will be no report, runs the program anyway, and exits with its
// status; it never prints a report. The runtime loaded by hand is simply
// not started. The program's output is the same either way.
//
// RUN: %clang-offload -g %s -o %t
// RUN: env OMP_TOOL=disabled sh -c '%ompdp run -- %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=OUT,DRV
// RUN: env OMP_TOOL=DISABLED sh -c '%ompdp run -- %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=OUT,DRV
// RUN: env OMP_TOOL=disabled OMP_TOOL_LIBRARIES=%ompdp-rt sh -c '%t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=OUT,RT
// An explicit OMP_TOOL=enabled changes nothing.
// RUN: env OMP_TOOL=enabled sh -c '%ompdp run -- %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=OUT,ON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 64

// DRV: ompdp: OMP_TOOL=disabled is set: the OpenMP runtime will not load ompdp, so there will be no report (unset OMP_TOOL to use ompdp)
// OUT: r=2016 2017
// DRV-NEXT: ompdp: no report: OMP_TOOL=disabled kept the OpenMP runtime from loading ompdp
// DRV-NOT: === ompdp report ===
// RT-NOT: ompdp
// ON: === ompdp report ===
// ON: duplicate_transfers=1
// OUT: rc=3

int main(void) {
  static int a[N], r[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a) map(from : r[k:1])
    {
      r[k] = k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  printf("r=%d %d\n", r[0], r[1]);
  fflush(stdout);
  return 3;
}
