/*===- kernel_bound.c - compute-bound kernels, almost no transfers --*- C -*-===*\
|*
|* Size K: ten kernels, each running K rounds of arithmetic over 64 Ki doubles
|* that stay on the device for the whole run (two transfers in all). The tool
|* sees a dozen events, so what this program measures is the cost of being
|* loaded at all: the OMPT callbacks registered, the tool's start-up and its
|* report at exit.
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"

#define N 65536

int main(int argc, char **argv) {
  long k = bench_size(argc, argv, 1000);
  static double v[N];
  for (int i = 0; i < N; i++)
    v[i] = i * 1e-6;
#pragma omp target data map(tofrom : v)
  for (int launch = 0; launch < 10; launch++) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; i++) {
      double x = v[i];
      for (long r = 0; r < k; r++)
        x = x * 0.999999 + 1e-7;
      v[i] = x;
    }
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += v[i];
  printf("sum=%g\n", s);
  bench_end();
  return 0;
}
