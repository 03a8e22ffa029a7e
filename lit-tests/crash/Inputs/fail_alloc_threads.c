//===- fail_alloc_threads.c - fail_alloc.c's program, on 4 host threads ---===//
//
// Each of 4 host threads issues `nowait` target regions of its own: the
// runtime's per-thread logs, construct slots and the consumer thread's
// passes allocate too. Which thread logs what, and so the timeline, varies
// from run to run: fail_alloc.c runs it with timeline=off.
//
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define N 1024
#define T 4

static int a[T][N], b[T][N];

int main(void) {
#pragma omp parallel num_threads(T)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < N; ++i)
      a[t][i] = i;
    for (int r = 0; r < 4; ++r) {
#pragma omp target map(to : a[t]) map(tofrom : b[t]) nowait
      for (int i = 0; i < N; ++i)
        b[t][i] += a[t][i];
#pragma omp taskwait
    }
  }
  long s = 0;
  for (int t = 0; t < T; ++t)
    for (int i = 0; i < N; ++i)
      s += b[t][i];
  printf("sum=%ld\n", s);
  return 4;
}
