//===- duplicate_other_buffer.c - the same bytes from another buffer -----===//
//
// With -DSEED, `run` mallocs `in`, fills it from a fixed seed and sends it (main
// frees it after both calls): the second call sends another buffer with
// the bytes of the first, as scan's runTest does at each block size. And
// `b`, 64 KiB filled the way `a` is, goes with `a`. Each is an input of its
// own that the device needs, whatever its size: nothing the compiler sees
// copies one into the other, so both are a coincidence, not counted in the
// saving, and the words never say `map(alloc:)` (which would break the
// program). COPY, the negative case: `c` is a memcpy of `a` (and `d` a loop
// `d[i] = a[i]`), which the plugin records (`copy-of-other`): the device
// could make that copy from what it has, so it stays advice, in words that
// say so and why ompdp did not rewrite it.
//
// REQUIRES: plugin
// RUN: rm -f %t.seed.json %t.copy.json && %clang-ompdp -g -DSEED %s -o %t.seed
// RUN: %ompdp run --format=json -o %t.seed.json -- %t.seed | FileCheck %s --check-prefix=OUT
// RUN: %ompdp report %t.seed.json | FileCheck %s --check-prefix=SEED
// RUN: %ompdp report %t.seed.json | FileCheck %s --check-prefix=SEED-IN
// RUN: %python %S/Inputs/verdict_saving.py %t.seed.json | FileCheck %s --check-prefix=SEED-SUM
// RUN: %clang-ompdp -g -DCOPY %s -o %t.copy
// RUN: %clang-ompdp -DCOPY -fplugin-arg-ompdp-dump -c %s -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: %ompdp run --format=json -o %t.copy.json -- %t.copy | FileCheck %s --check-prefix=OUT
// RUN: %ompdp report %t.copy.json | FileCheck %s --check-prefix=COPY
// RUN: %ompdp report --format=sarif %t.copy.json | FileCheck %s --check-prefix=COPY-SARIF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 8192
#define M 16384

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

static float a[M], b[M], c[M], d[M];

int main(void) {
  for (int i = 0; i < M; ++i)
    a[i] = 0.25f * i;
#ifdef SEED
  int *x, *y;
  long r1 = run(&x);
  long r2 = run(&y);
  free(x);
  free(y);
  for (int i = 0; i < M; ++i)
    b[i] = 0.25f * i;
  float s = 0;
#pragma omp target teams distribute parallel for map(to: a, b) reduction(+: s)
  for (int i = 0; i < M; ++i)
    s += a[i] - b[i];
  printf("%s %g\n", r1 == r2 ? "same" : "different", s);
#else
  memcpy(c, a, sizeof(a));
  for (int i = 0; i < M; ++i)
    d[i] = a[i];
  float s = 0;
#pragma omp target teams distribute parallel for map(to: a, c, d) reduction(+: s)
  for (int i = 0; i < M; ++i)
    s += a[i] - c[i] + d[i];
  printf("same %g\n", s);
#endif
  return 0;
}

// OUT: same

// SEED: duplicate_transfer {{.*}}duplicate_other_buffer.c:{{[0-9]+}}:1 in main count=1 bytes=64.0 KiB
// SEED-NEXT: variable: b  clause: map(to: a, b)
// SEED-NEXT: 0 from the same host buffer, 1 from other buffers with the same bytes
// SEED: verdict: coincidence (not counted as a saving)
// SEED-NEXT: suggestion: no saving: b holds bytes that another variable sent before, and nothing the compiler sees copies one into the other: each is an input of its own that the device needs (mapping it with `map(alloc: ...)` would break the program); nothing to change
// The findings come in the order of their savings, which the machine's load
// can swap: each is checked on its own.
// SEED-IN: duplicate_transfer {{.*}}duplicate_other_buffer.c:{{[0-9]+}}:1 in run count=1 bytes=32.0 KiB
// SEED-IN-NEXT: variable: in  clause: map(to: in[0:N])
// SEED-IN-NEXT: 0 from the same host buffer, 1 from other buffers with the same bytes
// SEED-IN: verdict: coincidence (not counted as a saving)
// SEED-NOT: initialise it on the device
// SEED-NOT: the same host buffer is sent again

// SEED-SUM: coincidence 2
// SEED-SUM: ok

// TABLE: item 0: to 'a' {{.*}}
// TABLE-NOT: copy-of-other
// TABLE: item 1: to 'c' {{.*}} copy-of-other
// TABLE: item 2: to 'd' {{.*}} copy-of-other

// COPY-DAG: variable: c  clause: map(to: a, c, d)
// COPY-DAG: variable: d  clause: map(to: a, c, d)
// COPY: verdict: advice
// COPY-NEXT: suggestion: {{[cd]}} is a host copy of another variable (the compiler sees a memcpy, std::copy or element-by-element copy into it), and the device already has those bytes: map {{[cd]}} with `map(alloc: ...)` and make the copy on the device, from the variable it copies, instead of sending it; ompdp does not write that device copy
// COPY-NOT: verdict: coincidence

// COPY-SARIF: "verdict": "advice"
// COPY-SARIF: is a host copy of another variable
