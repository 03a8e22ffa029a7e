//===- helper_segv.c - a segfault on a libomp helper thread ---------------===//
//
// REQUIRES: threads
//
// One host thread offloads 400 `target nowait` regions, which libomp 19's
// hidden helper threads run, waiting for them four at a time. The counting
// tool in front of ompdp (Inputs/count_through.c) writes each completed
// operation through to a file, and at a random completion on a helper
// thread writes through a null pointer, inside the OpenMP runtime's call
// of it, as libomp's own crashes do (HeCBench thomas, issue 15). No report
// can come from the dying process; `ompdp run` dies by SIGSEGV like the
// program and builds the report from the event log the runtime kept in
// shared memory: in 20 of 20 runs its counts are the counting tool's; so
// too in 5 runs where the tool calls abort() there instead. The text report
// says where it comes from and what the death decided.
//
// RUN: %clang-offload -g -I%omp-tools-include %s %S/Inputs/count_through.c -ldl -o %t
// RUN: %python %S/Inputs/crash_counts.py %ompdp %stress-runs SEGV tool COUNT_CRASH_HOW=segv COUNT_CRASH_ON=helper -- %t | FileCheck %s
// RUN: %python %S/Inputs/crash_counts.py %ompdp 5 ABRT tool COUNT_CRASH_HOW=abort COUNT_CRASH_ON=helper -- %t | FileCheck %s --check-prefix=ABORT
// RUN: env COUNT_CRASH_AT=300 COUNT_CRASH_HOW=segv COUNT_CRASH_ON=helper sh -c '%ompdp run -- %t; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC < %t.out
// RUN: FileCheck %s --check-prefix=TEXT < %t.err
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

// CHECK: {{[1-9][0-9]*}} runs died by SIGSEGV (tool): every report's counts equal the counting tool's
// ABORT: 5 runs died by SIGABRT (tool): every report's counts equal the counting tool's
// RC: rc=139
// TEXT: ompdp: the program was killed by signal 11 (Segmentation fault) before it could write its report; ompdp rebuilt its report from the event log it kept (300 events: every operation that completed), and it is partial
// TEXT: exit status: 139
// TEXT: observed: {{[0-9]+}} transfers ({{.*}}), {{[0-9]+}} allocations, {{[0-9]+}} kernels, {{[0-9]+}} deletes
// TEXT: partial: rebuilt by ompdp run from the event log it kept (300 events, up to {{.*}} UTC): every operation that completed is in it, the one in flight is lost: the program was killed by signal 11 (Segmentation fault) before it could write its report
// TEXT: warning: this report is incomplete
// TEXT: warning: unused allocations and unused transfers are only those the event log proves (freed, or overwritten, with no kernel in between): a mapping still alive at the death, or one a kernel in flight could read, is not called unused
// TEXT: warning: the program was stopped by signal 11 (Segmentation fault): the operations in flight then are lost

#define ITERS 400
#define M 64

static int in[ITERS][M], out[ITERS];

int main(void) {
  for (int i = 0; i < ITERS; ++i)
    for (int k = 0; k < M; ++k)
      in[i][k] = i + k;
  for (int i = 0; i < ITERS; ++i) {
    int *src = in[i], *dst = &out[i];
#pragma omp target nowait map(to : src[0 : M]) map(from : dst[0 : 1])
    {
      int s = 0;
      for (int k = 0; k < M; ++k)
        s += src[k];
      *dst = s;
    }
    if (i % 4 == 3) {
#pragma omp taskwait
    }
  }
#pragma omp taskwait
  long long sum = 0;
  for (int i = 0; i < ITERS; ++i)
    sum += out[i];
  printf("sum=%lld\n", sum);
  return 0;
}
