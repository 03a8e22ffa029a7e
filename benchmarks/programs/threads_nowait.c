/*===- threads_nowait.c - 4 host threads x nowait x all devices -----*- C -*-===*\
|*
|* Size E (doubles per thread): four host threads each split their array over
|* every device and launch one deferred (`nowait`) kernel per slice, fifty
|* times, waiting for all slices between rounds. Events arrive from several
|* threads at once and for several devices, which is the tool's concurrent
|* path: per-thread logs, and records finished on a thread other than the one
|* that began them.
|* run.py starts it with LIBOMP_USE_HIDDEN_HELPER_TASK=0, so the deferred
|* target tasks run on the team's own threads: with libomp 19's hidden helper
|* threads, this program aborts in about one run out of five (kmp_tasking.cpp,
|* task_team != NULL), with or without a tool, which is a libomp bug, not ours.
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"
#include <omp.h>

#define THREADS 4
#define ROUNDS 50

int main(int argc, char **argv) {
  long n = bench_size(argc, argv, 1L << 20);
  int ndev = omp_get_num_devices();
  if (ndev < 1)
    ndev = 1;
  double total = 0;
#pragma omp parallel num_threads(THREADS) reduction(+ : total)
  {
    double *v = malloc(n * sizeof *v);
    if (!v)
      abort();
    for (long i = 0; i < n; i++)
      v[i] = i;
    long slice = (n + ndev - 1) / ndev;
    for (int r = 0; r < ROUNDS; r++) {
      for (int d = 0; d < ndev; d++) {
        long lo = d * slice, len = lo + slice > n ? n - lo : slice;
        if (len <= 0)
          continue;
        double *p = v + lo;
#pragma omp target teams distribute parallel for device(d) nowait \
    map(tofrom : p[0:len]) firstprivate(len)
        for (long i = 0; i < len; i++)
          p[i] = p[i] * 0.5 + 1.0;
      }
#pragma omp taskwait
    }
    for (long i = 0; i < n; i++)
      total += v[i];
    free(v);
  }
  printf("total=%g devices=%d\n", total, ndev);
  bench_end();
  return 0;
}
