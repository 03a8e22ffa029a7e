//===- section_boundary.c - a section longer than its loop by lo elements --===//
//
// `section_boundary lt LO`: `map(tofrom: a[lo : hi])` over `for (i = lo; i <
// hi; ++i)`, hi = 64: lo elements spare in each copy. `section_boundary le
// LO`: `map(tofrom: b[lo : hi])` over `for (i = lo; i <= hi; ++i)`, hi = 63:
// the loop reaches one element past the section's length, lo - 1 spare
// (section_end.test).
//
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void lt(double *a, int lo, int hi) {
#pragma omp target map(tofrom: a[lo : hi])
  for (int i = lo; i < hi; ++i)
    a[i] += 1;
}

static void le(double *b, int lo, int hi) {
#pragma omp target map(tofrom: b[lo : hi])
  for (int i = lo; i <= hi; ++i)
    b[i] += 1;
}

int main(int argc, char **argv) {
  if (argc != 3)
    return 2;
  int lo = atoi(argv[2]);
  double *x = calloc(256, sizeof(double));
  for (int i = 0; i < 256; ++i)
    x[i] = i % 3 + 1;
  if (!strcmp(argv[1], "lt"))
    lt(x, lo, 64);
  else
    le(x, lo, 63);
  printf("%s %d: %.1f\n", argv[1], lo, x[lo] + x[62]);
  return 0;
}
