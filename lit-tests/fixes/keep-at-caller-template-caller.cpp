//===- keep-at-caller-template-caller.cpp - the caller's loop in a template ===//
//
// run<T>() calls step() in a loop, for T = float and T = double (HeCBench
// histogram's RunTest<...>, three instances). Each instance of the call is
// a region of its own, and the run plans each from its own buffers, calls
// and counts; but the loop's text is one for all instances, so one
// rewrite stands for them when every instance got the same edits, and it
// predicts the sum of theirs (counted once per instance, not once per
// construct of the callees: the copies carry the sum). Applied, rebuilt,
// rerun: the same output, 12 transfers and 6 allocations removed, as
// predicted. Negative: UNEVEN, the double overload of step() reads `x` on
// the host, so that instance keeps nothing, and neither does the float
// one: the edit would change both; the finding says so.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags -g prog.cpp -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags -g prog.cpp -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: rm -rf %t.n && mkdir -p %t.n && cp %s %t.n/prog.cpp
// RUN: cd %t.n && %clangxx %ompdp-plugin-flags %offload-flags -g -DUNEVEN prog.cpp -o uneven
// RUN: cd %t.n && %ompdp run -- ./uneven 2>&1 > /dev/null | FileCheck %s --check-prefix=UNEVEN

// APPLY: prog.cpp: 1 edit(s) applied

// FIXED: {{^}}template <typename T> static void run(T *x, int n) {
// FIXED-NEXT: {{^}}  #pragma omp target data map(tofrom: x[0:n]){{$}}
// FIXED-NEXT: {{^}}  for (int s = 0; s < 4; ++s)

// PROOF: rewrites: 1 for 4 finding(s)
// PROOF-NEXT: transfers: 16 -> 4 (removed 12, predicted 12)
// PROOF-NEXT: allocs: 8 -> 2 (removed 6, predicted 6)
// PROOF: OK

// UNEVEN-NOT: rewrite (keep_resident)
// UNEVEN-DAG: No rewrite: host code of step uses `x` (or the compiler cannot tell that it does not), and would no longer see the device's copy come back there.
// UNEVEN-DAG: No rewrite: the loop that calls it is in run<float> (prog.cpp:[[#]]), an instance of a template with 2 instances, and the run showed the data kept the same way in 1 of them: one edit there changes them all.
// UNEVEN-NOT: rewrite (keep_resident)

#include <cstdio>
#include <cstdlib>

static double last;

static void step(float *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] = 0.5f * x[i] + 1.0f;
}

static void step(double *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] = 0.25 * x[i] + 2.0;
#ifdef UNEVEN
  last = x[n - 1];
#endif
}

template <typename T> static void run(T *x, int n) {
  for (int s = 0; s < 4; ++s)
    step(x, n);
}

int main() {
  int n = 1000;
  float *a = (float *)malloc(n * sizeof(float));
  double *b = (double *)malloc(n * sizeof(double));
  for (int i = 0; i < n; ++i) {
    a[i] = (float)(i % 5);
    b[i] = (double)(i % 3);
  }
  run(a, n);
  run(b, n);
  std::printf("%.3f %.3f %.3f\n", a[1], b[n - 1], last);
  free(a);
  free(b);
  return 0;
}
