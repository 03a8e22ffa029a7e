// firstprivate_buffer.cpp - an object passed firstprivate: libomptarget's buffer
//
// HeCBench unfold's shape (held out of the corpus): a functor passed by
// value to a function template whose `target` loop calls it. The lambda
// (three captures, 24 bytes) is `implicit firstprivate(f)`, and an object
// that does not fit in a pointer goes in a buffer libomptarget allocates,
// fills and frees at every launch: the run sees the same bytes sent again
// and the same host buffer allocated again. That is what firstprivate is
// (each launch its private copy), not a map clause to change: the findings
// are `necessary`, with that reason (they were advice to "allocate it once
// with `target data`", which would share one copy among the launches).
// Negative: -DMAPPED maps `k` `to` at each launch instead: its repeats
// stay a saving (the firstprivate rewrite fixes them).
//
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -g -DMAPPED %s -o %t.mapped
// RUN: %ompdp run -- %t.mapped 2>&1 | FileCheck %s --check-prefix=MAPPED
#include <cstdio>
#include <cstdlib>

template <typename F> static void run(int n, F f) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i)
    f(i);
}

int main() {
  int n = 1000;
  float *a = (float *)malloc(sizeof(float) * n), *b = (float *)malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    a[i] = i, b[i] = 1;
  double k = 0.5;
#pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
  for (int it = 0; it < 4; ++it) {
#ifdef MAPPED
#pragma omp target teams distribute parallel for map(to: k)
    for (int i = 0; i < n; ++i)
      a[i] += b[i] * k;
#else
    run(n, [=](int i) { a[i] += b[i] * k; });
#endif
  }
  printf("a[7]=%g\n", a[7]);
  free(a);
  free(b);
  return 0;
}

// CHECK:      {{^}}repeated_alloc {{.*}} in run<
// CHECK-NEXT:     variable: f  clause: implicit firstprivate(f)
// CHECK-NEXT:     first allocated at
// CHECK-NEXT:     verdict: necessary (not counted as a saving)
// CHECK-NEXT:     suggestion: no saving: f is passed `firstprivate`, so each launch gets a private copy of its bytes, which libomptarget puts in a buffer of its own
// CHECK-NOT:  verdict: advice

// MAPPED-NOT: passed `firstprivate`
// MAPPED:     {{^}}repeated_alloc
// MAPPED-NEXT:    variable: k  clause: map(to: k)
// MAPPED-NEXT:    first allocated at
// MAPPED-NEXT:    verdict: fix
// MAPPED-NOT: passed `firstprivate`
