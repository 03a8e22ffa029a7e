//===- keep-at-caller-two-levels.c - the loop that repeats is two calls up -===//
//
// scale()'s `target data` maps a[0:n] and out[0:n]; step() calls scale()
// once, in no loop, and main() calls step() in a loop: every iteration
// allocates both on the device and sends a again unchanged. ompdp keeps data
// at one caller only, so these stay advice, but the run saw step()'s call of
// scale() run inside main()'s call of step() every time, and the words say
// where the `target data` belongs: around main()'s loop (ccsd-trpdrv's shape,
// where the loop is in another file). Negative cases, the words without a
// place:
//   TWOLOOPS main() calls step() from two loops: no one loop repeats it;
//   FPTR     main() calls step() through a pointer, which the compiler does
//            not tag: the run cannot tell which call scale()'s call ran in.
// (keep-at-caller-row.c's ONCE: the call one level up in no loop either.)
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t.plain && %ompdp run -- %t.plain 2>&1 | FileCheck %s --check-prefixes=PLAIN,NONE
// RUN: %clang-ompdp -DTWOLOOPS %s -o %t.twoloops && %ompdp run -- %t.twoloops 2>&1 | FileCheck %s --check-prefixes=NOPLACE,NONE
// RUN: %clang-ompdp -DFPTR %s -o %t.fptr && %ompdp run -- %t.fptr 2>&1 | FileCheck %s --check-prefixes=NOPLACE,NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define STEPS 4

static void scale(const float *a, float *out, int n) {
#pragma omp target data map(to: a[0:n]) map(from: out[0:n])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      out[i] = 2.0f * a[i];
  }
}

static void step(const float *a, float *out, int n) { scale(a, out, n); }

int main(void) {
  float *a = malloc(N * sizeof(float)), *out = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    a[i] = (float)i;
  float sum = 0.0f;
#ifdef FPTR
  void (*volatile fn)(const float *, float *, int) = step;
#endif
  for (int t = 0; t < STEPS; ++t) { // LOOP
#ifdef FPTR
    fn(a, out, N);
#else
    step(a, out, N);
#endif
    sum += out[t];
  }
#ifdef TWOLOOPS
  for (int t = 0; t < STEPS; ++t) {
    step(a, out, N);
    sum += out[t];
  }
#endif
  printf("%.1f\n", sum);
  free(a);
  free(out);
  return 0;
}

// The loop at line 46 (LOOP above), the call of scale() at line 36.
// PLAIN: duplicate_transfer {{.*}}keep-at-caller-two-levels.c:28:1 in scale
// PLAIN-DAG: No rewrite: the call at keep-at-caller-two-levels.c:36 that repeats it is in no loop of step either; main() calls step() in the for loop at keep-at-caller-two-levels.c:46 every time, and a `target data` around that loop, with `a[0:n]` written in main()'s terms, would keep it on the device from one call to the next, but ompdp keeps data at one caller only.
// PLAIN-DAG: repeated_alloc {{.*}}keep-at-caller-two-levels.c:28:1 in scale
// PLAIN-DAG: No rewrite: {{.*}}at keep-at-caller-two-levels.c:46 every time, and a `target data` around that loop, with `out[0:n]` written in main()'s terms,

// NOPLACE: repeated_alloc {{.*}} in scale
// NOPLACE: No rewrite: the call at keep-at-caller-two-levels.c:[[#]] that repeats it is in no loop of step either, and ompdp keeps data at one caller only.
// NOPLACE-NOT: written in main()'s terms

// NONE-NOT: rewrite (keep_resident)
