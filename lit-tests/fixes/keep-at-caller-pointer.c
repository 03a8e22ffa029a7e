//===- keep-at-caller-pointer.c - calls through a pointer to a function ---===//
//
// HeCBench histogram's shape: a timing loop calls the function under test
// through a pointer (`t += f(p, n, h)`), and each function it may call maps
// its pointer parameters in a `target data`. The call is recorded as one
// whose callee has no body here (indirect-callee, region table 3.14): the
// arguments bind by position to the parameters of the functions whose
// constructs run in it. The pass tags the call through the pointer after
// its marker, and passes the function called; the runtime names the
// functions it called (run_sum, run_max) by the constructs that ran in them
// directly. One rewrite keeps `p` and `h` on the device around main's loop,
// with the assumption that the call calls only those functions. Applied,
// rebuilt, rerun: same output, the copies and allocations removed as
// predicted.
// Negatives: BLIND, the pointer also calls run_host(), which has no
// construct and writes `out` on the host (the device's copy kept around the
// loop would then overwrite it): an execution of the call ran no construct
// of the function it called, so the constructs count as run outside the
// calls followed, and nothing is kept (the output would change).
// NESTED, the pointer calls wrapper(), which calls run_sum() through an
// element of an array (a call the plugin does not record): run_sum's
// constructs are not of the function called, and nothing is kept.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump -c prog.c -o /dev/null | FileCheck %s --check-prefix=DUMP
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: rm -rf %t.n && mkdir -p %t.n && cp %s %t.n/prog.c
// RUN: cd %t.n && %clang-ompdp -DBLIND prog.c -o blind
// RUN: cd %t.n && %ompdp run -- ./blind 2>&1 > /dev/null | FileCheck %s --check-prefix=BLIND
// RUN: cd %t.n && %clang-ompdp -DNESTED prog.c -o nested
// RUN: cd %t.n && %ompdp run -- ./nested 2>&1 > /dev/null | FileCheck %s --check-prefix=NESTED

// DUMP: 'call' at prog.c:[[#CALL:]]:10 in 'main' extern-callee indirect-callee
// DUMP-NEXT: call: 'f(p, n, h)'
// DUMP-NEXT: callee: 'f' symbol '' params '#1' '#2' '#3'

// APPLY: prog.c: 1 edit(s) applied
// APPLY: the call through a pointer at prog.c:[[#]] calls run_sum() or run_max() only, as in the run

// FIXED: {{^}}  double t = 0;
// FIXED-NEXT: {{^}}  #pragma omp target data map(to: p[0:n]){{$}}
// FIXED-NEXT: {{^}}  #pragma omp target data map(from: h[0:4]){{$}}
// FIXED-NEXT: {{^}}  for (int i = 0; i < 8; i++) {

// PROOF: transfers: 16 -> 2 (removed 14, predicted 14)
// PROOF-NEXT: allocs: 16 -> 2 (removed 14, predicted 14)
// PROOF: OK

// BLIND-NOT: verdict: fix
// BLIND: a call through a pointer that also called a function none of whose constructs ran
// BLIND-NOT: verdict: fix

// NESTED-NOT: verdict: fix
// NESTED: No rewrite: the repeats come from calls of the construct's function
// NESTED-NOT: verdict: fix

#include <stdio.h>
#include <stdlib.h>

typedef double (*run_fn)(const float *, int, float *);

static double run_sum(const float *img, int n, float *out) {
#pragma omp target data map(to: img[0:n]) map(from: out[0:4])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 4; i++) {
      float s = 0;
      for (int j = i; j < n; j += 4)
        s += img[j];
      out[i] = s;
    }
  }
  return 1.0;
}

static double run_max(const float *img, int n, float *out) {
#pragma omp target data map(to: img[0:n]) map(from: out[0:4])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 4; i++) {
      float m = img[i];
      for (int j = i; j < n; j += 4)
        m = img[j] > m ? img[j] : m;
      out[i] = m;
    }
  }
  return 2.0;
}

#ifdef BLIND
static double run_host(const float *img, int n, float *out) {
  for (int i = 0; i < 4; i++)
    out[i] = img[i] + 1000;
  return 3.0;
}
#endif

#ifdef NESTED
static run_fn table[1] = {run_sum};
static double wrapper(const float *img, int n, float *out) {
  return table[0](img, n, out) + 10;
}
#endif

int main(void) {
  int n = 1 << 16;
  float *p = malloc(n * sizeof(float)), h[4];
  for (int i = 0; i < n; i++)
    p[i] = (float)(i % 97);
  double t = 0;
  for (int i = 0; i < 8; i++) {
    double (*f)(const float *, int, float *) = i % 2 ? run_max : run_sum;
#ifdef BLIND
    if (i == 5)
      f = run_host;
#endif
#ifdef NESTED
    f = wrapper;
#endif
    t += f(p, n, h);
  }
  printf("t %.1f h %.1f %.1f\n", t, h[0], h[3]);
  free(p);
  return 0;
}
