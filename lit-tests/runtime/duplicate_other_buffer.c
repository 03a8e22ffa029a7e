//===- duplicate_other_buffer.c - the same bytes from another buffer -----===//
//
// `run` mallocs `in`, fills it from a fixed seed and sends it (main frees
// it after both calls): the second call sends another buffer with the bytes
// of the first, as scan's runTest does at each block size. The words do not
// assume zeros: compute a pattern on the device, or build the same input
// once and keep one copy. The CHECK-NOT is the negative case: these are not
// the words of a same-buffer repeat (keep it resident).
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 8192

static long run(int **keep) {
  int *in = malloc(N * sizeof(int));
  srand(123);
  for (int i = 0; i < N; ++i)
    in[i] = rand() % 5 + 1;
  long s = 0;
#pragma omp target teams distribute parallel for map(to: in[0:N]) map(tofrom: s) reduction(+: s)
  for (int i = 0; i < N; ++i)
    s += in[i];
  *keep = in; /* freed by main: the second call's `in` lands elsewhere */
  return s;
}

int main(void) {
  int *x, *y;
  long a = run(&x);
  long b = run(&y);
  printf("%s\n", a == b ? "same" : "different");
  free(x);
  free(y);
  return 0;
}

// CHECK: same
// CHECK: duplicate_transfer {{.*}}duplicate_other_buffer.c:[[#L:]]:1 in run count=1 bytes=32.0 KiB
// CHECK-NEXT: variable: in clause: map(to: in[0:N])
// CHECK-NEXT: 0 from the same host buffer, 1 from other buffers with the same bytes
// CHECK: suggestion: other host buffers with identical bytes were already sent to device 0: if they are a pattern the device can compute (zeros, a constant, an index), map in with `map(alloc: in)` and initialise it on the device; if the program builds the same input again (the same seed at each call), build it once and keep one copy on the device for all its uses. No rewrite: ompdp cannot tell a pattern the device could compute from an input the program builds again, and either change is the programmer's.
// CHECK-NOT: the same host buffer is sent again
