// Two results computed alike: y2's copy back brings the bytes y1's brought.
// Each is a result the host gets in its own memory: coincidence, with the
// words of a copy back (not those of an input the device needs).
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 > /dev/null | FileCheck %s
#include <stdio.h>

#define N 2048

int main(void) {
  static float y1[N], y2[N];
#pragma omp target teams distribute parallel for map(from: y1)
  for (int i = 0; i < N; ++i)
    y1[i] = (float)(i % 9);
#pragma omp target teams distribute parallel for map(from: y2)
  for (int i = 0; i < N; ++i)
    y2[i] = (float)(i % 9);
  printf("%g %g\n", y1[N - 1], y2[N - 1]);
  return 0;
}

// CHECK: duplicate_transfer
// CHECK: variable: y2
// CHECK: verdict: coincidence (not counted as a saving)
// CHECK: suggestion: no saving: the copy back of y2 brought bytes that another variable's copy back brought before; each is a result of its own that the host receives in its own memory; nothing to change
// CHECK-NOT: would break the program
