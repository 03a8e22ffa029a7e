//===- concurrent_counts.c - no event lost or invented under load ---------===//
//
// REQUIRES: threads
//
// 8 host threads each issue `target nowait` regions round-robin on the 4
// devices, 525 per device, then wait for them: 16800 regions, each with 2
// allocations, 1 transfer to the device, 1 back, 2 deletes and 1 kernel, so
// 100800 data operations per run. Every region maps its own slice, so the
// counts do not depend on timing. A minimal counting OMPT tool
// (Inputs/count_tool.c) and ompdp see the same run 20 times: ompdp's
// per-kind counts must equal the tool's every time, the tool's must be the
// numbers above, the program's output must not change, and nothing may
// crash. Deletes are compared too (the report's "observed.deletes").
//
// LIBOMP_USE_HIDDEN_HELPER_TASK=0: libomp 19 aborts about one run in five
// ("task_team != NULL") with several threads issuing nowait target tasks to
// hidden helper threads; without them, the team's threads run the target
// tasks, which is no less concurrent.
//
// RUN: %clang -shared -fPIC -O1 -I%omp-tools-include %S/Inputs/count_tool.c -o %t.count.so
// RUN: %clang-offload -O1 %s -o %t
// RUN: env LIBOMP_USE_HIDDEN_HELPER_TASK=0 %python %S/Inputs/compare_counts.py %ompdp %t.count.so %stress-runs transfers=33600 allocs=33600 deletes=33600 kernels=16800 bytes_transferred=1142400 -- %t | FileCheck %s
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define THREADS 8
#define DEVICES 4
#define ITERS 525
#define M 16

// CHECK: runs, ompdp equals the counting tool: transfers=33600 allocs=33600 deletes=33600 kernels=16800 bytes_transferred=1142400
// CHECK: data operations per run: 100800

static int in[THREADS][ITERS][DEVICES][M];
static int out[THREADS][ITERS][DEVICES];

int main(void) {
  if (omp_get_num_devices() < DEVICES) {
    printf("need %d devices, have %d\n", DEVICES, omp_get_num_devices());
    return 1;
  }
  for (int t = 0; t < THREADS; ++t)
    for (int i = 0; i < ITERS; ++i)
      for (int d = 0; d < DEVICES; ++d)
        for (int k = 0; k < M; ++k)
          in[t][i][d][k] = t + i + d + k;
#pragma omp parallel num_threads(THREADS)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < ITERS; ++i)
      for (int d = 0; d < DEVICES; ++d) {
        int *src = in[t][i][d], *dst = &out[t][i][d];
#pragma omp target nowait device(d) map(to : src[0:M]) map(from : dst[0:1])
        {
          int s = 0;
          for (int k = 0; k < M; ++k)
            s += src[k];
          *dst = s;
        }
      }
#pragma omp taskwait
  }
  long long sum = 0;
  for (int t = 0; t < THREADS; ++t)
    for (int i = 0; i < ITERS; ++i)
      for (int d = 0; d < DEVICES; ++d)
        sum += out[t][i][d];
  printf("sum=%lld\n", sum);
  return 0;
}
