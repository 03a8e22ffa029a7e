//===- attribution-threads.c - several host threads offload at once -------===//
//
// Built with the plugin and without -g. Four host threads each run a target
// data region around a loop of target regions in a function they call, and
// a nowait target region in the parallel region itself (an outlined
// function). Each thread maps its own rows through its own pointers; every
// finding names the construct, the pointer and the clause. libomp 19 can
// abort (task_team != NULL) when several threads run nowait targets on its
// hidden helper threads, so those stay off.
//
// REQUIRES: plugin, threads
// RUN: %clang-ompdp %s -o %t
// RUN: env LIBOMP_USE_HIDDEN_HELPER_TASK=0 %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.json | FileCheck %s
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define T 4
#define N 256

// OUT: 5.55968e+06 5.75782e+06 33408

static double x[T][N], y[T][N], out[T][2];

static void work(int t) {
  double *xt = x[t], *yt = y[t], *ot = out[t];
  #pragma omp target data map(to: yt[0:N])
  for (int it = 0; it < 2; ++it) {
    // Each thread sends its row of x again in its second iteration.
    // CHECK: duplicate_transfer attribution-threads.c:[[@LINE+2]]:5 in work devices=0 variable=xt clause=map(to: xt[0:N])
    // CHECK-NEXT: repeated_alloc attribution-threads.c:[[@LINE+1]]:5 in work devices=0 variable=xt clause=map(to: xt[0:N])
    #pragma omp target map(from: ot[it:1]) map(to: xt[0:N])
    {
      ot[it] = it;
      for (int i = 0; i < N; ++i)
        ot[it] += xt[i] * yt[i];
    }
  }
}

int main(void) {
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < N; ++i)
      x[t][i] = y[t][i] = t + i;
  double s[T] = {0};
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    double *yt = y[t];
    work(t);
    for (int k = 0; k < 2; ++k) {
      // The four zeros of s go out as the same bytes; yt goes out twice;
      // s comes back with what went out.
      // CHECK-NEXT: duplicate_transfer attribution-threads.c:[[@LINE+7]]:7 in main devices=0 variable=s clause=map(tofrom: s[t:1])
      // CHECK-NEXT: duplicate_transfer attribution-threads.c:[[@LINE+6]]:7 in main devices=0 variable=yt clause=map(to: yt[0:N])
      // CHECK-NEXT: repeated_alloc attribution-threads.c:[[@LINE+5]]:7 in main devices=0 variable=s clause=map(tofrom: s[t:1])
      // CHECK-NEXT: repeated_alloc attribution-threads.c:[[@LINE+4]]:7 in main devices=0 variable=yt clause=map(to: yt[0:N])
      // CHECK-NEXT: round_trip attribution-threads.c:[[@LINE+3]]:7 in main devices=0 variable=s clause=map(tofrom: s[t:1])
      // CHECK-NOT: {{.}}
      // (s[t] changes on the device in the first round, not in the second.)
      #pragma omp target map(to: yt[0:N]) map(tofrom: s[t:1]) nowait
      for (int i = 0; i < N; ++i)
        s[t] += yt[i] * (k == 0);
      #pragma omp taskwait
    }
  }
  printf("%g %g %g\n", out[0][1], out[T - 1][1], s[T - 1]);
  return 0;
}
