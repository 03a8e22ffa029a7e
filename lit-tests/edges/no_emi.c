//===- no_emi.c - an OpenMP runtime without the EMI callbacks -------------===//
//
// Inputs/ompt_shim.c sits between libomp and ompdp and refuses the
// callbacks named in SHIM_REFUSE, as an OMPT runtime without them would.
// ompdp says once, per callback, what is lost, never crashes, and the
// program's output and status are unchanged.
// Without target_submit_emi, each target construct stands for its kernel:
// the duplicate is still found, and the report carries the warning.
// Without any EMI callback, ompdp has nothing to work with and says so; the
// report is empty but for the warnings.
//
// RUN: %clang -shared -fPIC -O1 -I%omp-tools-include %S/Inputs/ompt_shim.c -o %t.shim.so -ldl
// RUN: %clang-offload -g %s -o %t
// RUN: not env OMP_TOOL_LIBRARIES=%t.shim.so SHIM_TOOL=%ompdp-rt SHIM_REFUSE=target_submit_emi %t 2>&1 | FileCheck %s --check-prefixes=OUT,SUBMIT
// RUN: not env OMP_TOOL_LIBRARIES=%t.shim.so SHIM_TOOL=%ompdp-rt SHIM_REFUSE=target_emi,target_data_op_emi,target_submit_emi %t 2>&1 | FileCheck %s --check-prefixes=OUT,NONE
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%t.shim.so SHIM_TOOL=%ompdp-rt SHIM_REFUSE=target_emi,target_data_op_emi,target_submit_emi %t >/dev/null 2>&1; echo "rc=$?"' | FileCheck %s --check-prefix=RC
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 100

// SUBMIT-COUNT-1: ompdp: the OpenMP runtime does not deliver ompt_callback_target_submit_emi
// SUBMIT-NOT: ompdp: the OpenMP runtime does not deliver
// NONE-COUNT-1: ompdp: the OpenMP runtime does not deliver ompt_callback_target_emi
// NONE-COUNT-1: ompdp: the OpenMP runtime does not deliver ompt_callback_target_data_op_emi
// NONE-COUNT-1: ompdp: the OpenMP runtime does not deliver ompt_callback_target_submit_emi
// NONE-NOT: ompdp: the OpenMP runtime does not deliver
// OUT: r=4950 4951
// OUT: === ompdp report ===
// SUBMIT: duplicate_transfers=1
// NONE: observed: 0 transfers
// NONE: duplicate_transfers=0
// SUBMIT: warning: the OpenMP runtime does not deliver ompt_callback_target_submit_emi
// SUBMIT-NOT: warning: the OpenMP runtime does not deliver
// NONE: warning: the OpenMP runtime does not deliver ompt_callback_target_emi
// NONE: warning: the OpenMP runtime does not deliver ompt_callback_target_data_op_emi
// NONE: warning: the OpenMP runtime does not deliver ompt_callback_target_submit_emi
// SUBMIT: duplicate_transfer {{.*}}no_emi.c:[[@LINE+9]]:1

// RC: rc=3

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
