/*===- patterns.c - each pattern of the paper, at a chosen size -----*- C -*-===*\
|*
|* Size E (doubles per array): twenty rounds of each wasteful pattern that
|* ompdp reports, so the tool does its whole job (hashing, matching, the
|* detections, attribution) on buffers of the given size:
|*   duplicate transfer: an unchanged array is sent again for every kernel;
|*   round trip: an array goes back to the host and returns unchanged;
|*   repeated allocation: a scratch array is allocated and freed every round;
|*   unused allocation: an array is mapped but no kernel runs while it exists;
|*   unused transfer: an array is copied back although the kernel only read it.
|* The runner calls it at three sizes.
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"

#define ROUNDS 20

int main(int argc, char **argv) {
  long n = bench_size(argc, argv, 1L << 15);
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
  double *c = malloc(n * sizeof *c), *t = malloc(n * sizeof *t);
  if (!a || !b || !c || !t)
    return 1;
  for (long i = 0; i < n; i++)
    a[i] = b[i] = c[i] = t[i] = (double)i;

  for (int r = 0; r < ROUNDS; r++) {
    /* Duplicate transfer: a never changes, yet it is mapped `to` each time. */
#pragma omp target teams distribute parallel for map(to : a[0:n]) \
    map(tofrom : b[0:n])
    for (long i = 0; i < n; i++)
      b[i] += a[i];

    /* Round trip: c comes back and goes out again with nothing done on the
     * host in between. Repeated allocation: t is device scratch made anew. */
#pragma omp target teams distribute parallel for map(tofrom : c[0:n]) \
    map(alloc : t[0:n])
    for (long i = 0; i < n; i++) {
      t[i] = c[i] * 0.5;
      c[i] = t[i] + 1.0;
    }

    /* Unused allocation: no kernel runs while t is mapped here. */
#pragma omp target enter data map(alloc : t[0:n])
#pragma omp target exit data map(delete : t[0:n])

    /* Unused transfer: a is only read on the device but copied back. */
#pragma omp target teams distribute parallel for map(tofrom : a[0:n]) \
    map(tofrom : b[0:n])
    for (long i = 0; i < n; i++)
      b[i] -= a[i] * 0.5;
  }
  printf("b[1]=%g c[1]=%g\n", b[n > 1], c[n > 1]);
  free(a), free(b), free(c), free(t);
  bench_end();
  return 0;
}
