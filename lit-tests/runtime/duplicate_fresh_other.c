// A buffer its function allocates anew at each call (hexciton's ham and
// sout): the bytes an earlier call's buffer at another address held come
// again. The run tells an earlier allocation of the same variable from
// another variable only by address, so the coincidence's words name both;
// variables that are not allocated in their function (the globals ga, gb,
// r1, r2, two inputs and two results alike), and buffers main allocates
// once (c, d, e1, e2: each mapped at one address only, as moe-sum's
// output_vec is), keep the words of another variable alone.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 > /dev/null | FileCheck %s
#include <stdio.h>
#include <stdlib.h>

#define N 2048
#define CALLS 3

static float *kept[2 * CALLS];
static float ga[N], gb[N], r1[N], r2[N];

static float step(int call) {
  float *in = malloc(N * sizeof(float));
  float *out = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    in[i] = (float)(i % 7);
#pragma omp target teams distribute parallel for map(to: in[0:N]) map(from: out[0:N])
  for (int i = 0; i < N; ++i)
    out[i] = 2.0f * in[i];
  float s = out[N - 1];
  /* Kept until the end: each call's buffers are at other addresses. */
  kept[2 * call] = in;
  kept[2 * call + 1] = out;
  return s;
}

int main(void) {
  float s = 0;
  for (int c = 0; c < CALLS; ++c)
    s += step(c);
  for (int i = 0; i < N; ++i)
    ga[i] = gb[i] = (float)(i % 5);
#pragma omp target teams distribute parallel for map(to: ga) map(from: r1)
  for (int i = 0; i < N; ++i)
    r1[i] = ga[i] + 1.0f;
#pragma omp target teams distribute parallel for map(to: gb) map(from: r2)
  for (int i = 0; i < N; ++i)
    r2[i] = gb[i] + 1.0f;
  float *c = malloc(N * sizeof(float)), *d = malloc(N * sizeof(float));
  float *e1 = malloc(N * sizeof(float)), *e2 = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    c[i] = d[i] = (float)(i % 3);
#pragma omp target teams distribute parallel for map(to: c[0:N]) map(from: e1[0:N])
  for (int i = 0; i < N; ++i)
    e1[i] = c[i] * 3.0f;
#pragma omp target teams distribute parallel for map(to: d[0:N]) map(from: e2[0:N])
  for (int i = 0; i < N; ++i)
    e2[i] = d[i] * 3.0f;
  s += e1[N - 1] + e2[N - 1];
  free(c);
  free(d);
  free(e1);
  free(e2);
  for (int k = 0; k < 2 * CALLS; ++k)
    free(kept[k]);
  printf("%g %g %g\n", s, r1[N - 1], r2[N - 1]);
  return 0;
}

// CHECK-DAG: suggestion: no saving: in holds bytes that another variable sent before (or an earlier allocation of this one: its function allocates it anew at each call), and nothing the compiler sees copies one into the other
// CHECK-DAG: suggestion: no saving: the copy back of out brought bytes that another variable's copy back brought before (or an earlier allocation of this one: its function allocates it anew at each call); each is a result
// CHECK-DAG: suggestion: no saving: d holds bytes that another variable sent before, and nothing
// CHECK-DAG: suggestion: no saving: the copy back of e2 brought bytes that another variable's copy back brought before; each is a result
// CHECK-DAG: suggestion: no saving: gb holds bytes that another variable sent before, and nothing
// CHECK-DAG: suggestion: no saving: the copy back of r2 brought bytes that another variable's copy back brought before; each is a result
