// listings.c - the OMPDataPerf paper's Listing 1 and Listing 2, for host offload.
//
// Listing 1: array `a` is copied to the device for two target regions in a
// row (a duplicate transfer, and a repeated allocation).
// Listing 2: a kernel inside a loop with no map clause: `a2` is implicitly
// mapped tofrom each iteration, so it goes back and forth unchanged (round
// trips) and is reallocated every time.
#include <stdio.h>

#define N 4096
#define ITERS 10

static void listing1(void) {
  int a[N], sum = 0, prod = 1;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 == 0 ? 1 : 2;
#pragma omp target map(to : a) map(tofrom : sum)
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];

#pragma omp target map(to : a) map(tofrom : prod)
#pragma omp parallel for reduction(* : prod)
  for (int i = 0; i < 8; ++i)
    prod *= a[i];
  printf("listing1: sum=%d prod=%d\n", sum, prod);
}

static void listing2(void) {
  static int a2[N];
  for (int i = 0; i < ITERS; ++i) {
#pragma omp target parallel for
    for (int j = 0; j < N; ++j)
      a2[j] += j;
  }
  printf("listing2: a2[N-1]=%d\n", a2[N - 1]);
}

int main(void) {
  listing1();
  listing2();
  return 0;
}
