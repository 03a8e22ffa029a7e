/*===- zero_other_tu.c - an update of zeros once, filled in another file ---===*\
|*
|* For advice_every_reason.test: `step` sends `e` with a `target update`
|* inside its `target data`; main, in the other file (-DCALLER), fills `e`
|* with zeros the first time and other values after. The zero copy's
|* finding is advice: its file shows no host store into `e` (the caller's
|* are in the other file), and the run saw the other copies hold other
|* bytes, which is the reason it gives.
|*
\*===----------------------------------------------------------------------===*/
#include <stdio.h>

#define N 2048

#ifdef CALLER
void step(float *e, int n, double *sum);

int main(void) {
  static float e[N];
  double sum = 0;
  for (int it = 0; it < 3; ++it) {
    for (int i = 0; i < N; ++i)
      e[i] = it ? (float)it : 0.0f;
    step(e, N, &sum);
  }
  printf("sum=%.1f\n", sum);
  return 0;
}
#else
void step(float *e, int n, double *sum) {
  double s = 0;
#pragma omp target data map(alloc: e[0:n])
  {
#pragma omp target update to(e[0:n])
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < n; ++i)
      s += e[i];
  }
  *sum += s;
}
#endif
