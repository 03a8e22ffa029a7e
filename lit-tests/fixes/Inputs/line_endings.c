// Inputs/line_endings.c - a round trip that keep_resident fixes, for
// line-endings.test, which writes it with CRLF, CR and LF line breaks (and
// one stray CR in this comment's place: LINE_MARK) before compiling it.
#include <stdio.h>

#define N 512
#define ITERS 6

int main(void) {
  static double b[N];
  double sum = 0;
  // LINE_MARK
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; ++j)
      b[j] += 0.5 * j + it;
    sum += b[it];
  }
  printf("b[1]=%g b[N-1]=%g sum=%g\n", b[1], b[N - 1], sum);
  return 0;
}
