//===- overbroad_target_data.c - tofrom items of `target data` nobody changes -===//
//
// A `target data` maps four arrays tofrom; the data comes back once,
// unchanged, for each. Only `a` is proved unchanged: its body's kernels
// only read it and its host code does not touch it, so the copy back
// brings the host what it has: overbroad_map, `map(to: a[0:N])` (the round
// trip of `a` shows that rewrite). Negatives, each a round trip once and
// no rewrite:
//   h  host code of the body writes it (the same value, this run): the
//      copy back at the end restores the device's copy over what the host
//      wrote, so `to` would keep other bytes: advice that says so;
//   u  the body sends it again with `target update to` (data motion is a
//      write of the device's copy): advice;
//   w  a kernel of the body writes it (by 1 this run): the copy back
//      carries the kernel's result, necessary.
// Applied, rebuilt and rerun: same output, one transfer fewer, as
// predicted. Mutation: without BODY_HOST_READS's host check, h gets the
// `to` rewrite and the output changes.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -g prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp -g prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static void step(double *a, double *h, double *u, double *w, double *out, int scale) {
#pragma omp target data map(tofrom: a[0:N], h[0:N], u[0:N], w[0:N]) map(from: out[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      out[i] = a[i] + h[i] + u[i];
    h[0] = out[0] - a[0] - u[0];
#pragma omp target update to(u[0:N])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      w[i] = w[i] * scale + out[i] - out[i];
  }
}

int main(int argc, char **argv) {
  double *a = malloc(N * sizeof(double)), *h = malloc(N * sizeof(double));
  double *u = malloc(N * sizeof(double)), *w = malloc(N * sizeof(double));
  double *out = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    h[i] = 2 * i;
    u[i] = 3 * i;
    w[i] = 4 * i;
  }
  step(a, h, u, w, out, argc > 5 ? 2 : 1);
  printf("%g %g %g %g %g\n", a[N - 1], h[0], u[N - 1], w[N - 1], out[N - 1]);
  free(a);
  free(h);
  free(u);
  free(w);
  free(out);
  return 0;
}

// REPORT-DAG: overbroad_map  prog.c:[[#L:]]:1 in step  count=1
// REPORT-DAG: suggestion: the kernels of the `target data` region at most read a and its host code does not change it (the compiler proved both), so the copy back from device 0 brings the host what it already has: map it with `map(to: a)`
// REPORT-DAG: rewrite (change_map_type): map `a[0:N]` with `to` instead of `tofrom` at prog.c:[[#L]]: the region's kernels at most read it and its host code does not change it
// REPORT-DAG: suggestion: fixed by the rewrite below (change_map_type): map `a[0:N]` with `to`
// REPORT-DAG: variable: h {{.*}}
// REPORT-DAG: No rewrite: host code of the construct's body writes it or sends it again
// REPORT-DAG: variable: u {{.*}}
// REPORT-DAG: No rewrite: host code of the construct's body writes it or sends it again
// REPORT-DAG: suggestion: no saving: the construct's kernels may write w (the compiler sees them write it, or cannot tell that they do not), so the copy back carries their result
// REPORT-NOT: overbroad_map  {{.*}}
// REPORT-NOT: map it with `map(to: {{[huw]}})`

// APPLY: prog.c: 2 edit(s) applied

// FIXED: {{^}}#pragma omp target data map(tofrom: h[0:N], u[0:N], w[0:N]) map(to: a[0:N]) map(from: out[0:N]){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 1, predicted 1)
// PROOF-DAG: gone: overbroad_map of a: yes
// PROOF: OK

// AFTER: overbroad_maps=0
