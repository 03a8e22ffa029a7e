/*===- one_region.c - the shortest offload program: one tiny region -*- C -*-===*\
|*
|* Size K: K doubles mapped tofrom into one target region that adds one to
|* each (a test program, a CI job's smoke run). Four events in all: what it
|* measures is the fixed cost of running under a tool, not any per-event one
|* (run.py's short-run rows, with `ompdp run -- /bin/true`).
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"

int main(int argc, char **argv) {
  long k = bench_size(argc, argv, 16);
  double *v = malloc(k * sizeof(*v));
  if (!v)
    return 1;
  for (long i = 0; i < k; i++)
    v[i] = i;
#pragma omp target map(tofrom : v[0 : k])
  for (long i = 0; i < k; i++)
    v[i] += 1;
  printf("v[last]=%g\n", v[k - 1]);
  free(v);
  bench_end();
  return 0;
}
