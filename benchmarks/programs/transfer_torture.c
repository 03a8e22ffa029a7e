/*===- transfer_torture.c - transfers from 8 B up to a maximum size -*- C -*-===*\
|*
|* Size M (bytes, default 256 MiB): for every power of two from 8 B to M, map a
|* buffer of that size and move it host-to-device and device-to-host several
|* times. Repetitions shrink as buffers grow so each size moves about the same
|* bytes, which weights small and large transfers alike: small ones measure the
|* tool's cost per event, large ones the cost of hashing per byte. One byte
|* changes before every round so that no transfer is a duplicate and the tool
|* must hash each one completely.
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"
#include <string.h>

int main(int argc, char **argv) {
  long max = bench_size(argc, argv, 256L << 20);
  char *a = malloc(max);
  if (!a)
    return 1;
  memset(a, 1, max); /* fault the pages in before timing matters */
  const long per_size = 32L << 20;
  for (long s = 8; s <= max; s *= 2) {
    long reps = per_size / s;
    if (reps > 1000)
      reps = 1000;
    if (reps < 1)
      reps = 1;
#pragma omp target enter data map(alloc : a[0:s])
    for (long r = 0; r < reps; r++) {
      a[0]++;
#pragma omp target update to(a[0:s])
#pragma omp target update from(a[0:s])
    }
#pragma omp target exit data map(delete : a[0:s])
  }
  printf("a[0]=%d\n", a[0]);
  free(a);
  bench_end();
  return 0;
}
