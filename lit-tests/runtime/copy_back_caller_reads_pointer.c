//===- copy_back_caller_reads_pointer.c - the same, through a pointer ----===//
//
// copy_back_caller_reads.c's shape with the function that copies back
// called through a pointer (`get(cn, k)`, get = copy_from) in the loop:
// the call is recorded (indirect-callee), its argument binds copy_from's
// parameter `n` by position (as for a callee of another file: the call's
// own parameter names are the pointer type's, unnamed here), and the loop
// reads what comes back after each call: necessary. OTHER (negative): the
// loop reads another buffer: advice.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=READ
// RUN: %clang-ompdp -g -DOTHER %s -o %t.other
// RUN: %ompdp run -- %t.other 2>&1 | FileCheck %s --check-prefix=OTHER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define LEN 1024

static void copy_from(float *n, int k) {
#pragma omp target update from(n[0:k])
}

int main(void) {
  float *cn = malloc(LEN * sizeof(float)), *other = malloc(LEN * sizeof(float));
  float *in = malloc(LEN * sizeof(float));
  for (int i = 0; i < LEN; ++i) {
    in[i] = i % 3;
    cn[i] = other[i] = 1;
  }
  void (*get)(float *, int) = copy_from;
  int k = LEN;
  float s = 0;
#pragma omp target data map(to: cn[0:LEN], in[0:LEN])
  {
  for (int it = 0; it < 6; ++it) {
    in[LEN - 1] = it; /* new input, which the kernel does not read */
#pragma omp target update to(in[0:LEN])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < LEN - 1; ++i)
      cn[i] = in[i];
    get(cn, k);
    for (int i = 0; i < k; ++i)
#if defined(OTHER)
      s += other[i] < 0.5f;
#else
      s += cn[i] < 0.5f;
#endif
  }
  }
  printf("s=%g\n", s);
  free(cn);
  free(other);
  free(in);
  return 0;
}

// READ: duplicate_transfer {{.*}}copy_back_caller_reads_pointer.c:[[#]]:1 in copy_from count=5
// READ-NEXT: variable: n clause: from(n[0:k])
// READ: verdict: necessary (not counted as a saving)
// READ-NEXT: suggestion: no saving: the host reads n after each copy back (the loop that calls its function reads it after the call), and only the copy tells it that the value did not change

// OTHER: duplicate_transfer {{.*}}copy_back_caller_reads_pointer.c:[[#]]:1 in copy_from count=5
// OTHER-NEXT: variable: n clause: from(n[0:k])
// OTHER: verdict: advice
