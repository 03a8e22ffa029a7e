/*===- lu.c - LU decomposition that moves the matrix every step -----*- C -*-===*\
|*
|* Size N (matrix order): Gaussian elimination without pivoting where every
|* elimination step is a kernel that maps the whole N x N matrix tofrom. This
|* is the transfer-heavy LU that the paper measures on host offload (about 25%
|* slowdown there), kept here so the two tools can be compared on one program.
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"

int main(int argc, char **argv) {
  long n = bench_size(argc, argv, 768);
  double *A = malloc(n * n * sizeof *A);
  if (!A)
    return 1;
  /* Diagonally dominant, so no pivoting is needed. */
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      A[i * n + j] = (i == j) ? (double)n : 1.0 / (double)(i + j + 1);
  for (long k = 0; k < n - 1; k++) {
#pragma omp target teams distribute parallel for map(tofrom : A[0:n * n])
    for (long i = k + 1; i < n; i++) {
      double f = A[i * n + k] / A[k * n + k];
      A[i * n + k] = f;
      for (long j = k + 1; j < n; j++)
        A[i * n + j] -= f * A[k * n + j];
    }
  }
  double d = 1;
  for (long i = 0; i < n; i++)
    d *= A[i * n + i] / (double)n;
  printf("scaled det=%g\n", d);
  free(A);
  bench_end();
  return 0;
}
