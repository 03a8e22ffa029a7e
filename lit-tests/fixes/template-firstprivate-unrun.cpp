//===- template-firstprivate-unrun.cpp - instances that never ran ---------===//
//
// A functor passed by value to a function template and used read-only by
// its kernel (`p(x)`, a const `operator()`: HeCBench aop's payoffs) is
// mapped `tofrom` at every call; `firstprivate(p)` sends it with the
// launch. The template's text is one for every instance, and the program
// runs only `price<Put>`: `price<Call>` exists but never ran. An instance
// that never ran has no run facts, but the rewrite's own conditions are
// the compiler's (the region only reads `p`, one trivially copyable object
// of at most 1 KiB), and its table holds them for each instance: Call's
// `p` qualifies too, so the rewrite stands. Negative: `weigh<Table>` never
// ran either, and its `p` is 2 KiB, which does not go with a launch's
// arguments: `weigh<Put>`'s rewrite is refused, with the reason.
// Applied, rebuilt, rerun: same output, also on the path that runs the
// other instances (`price<Call>` with its new clause).
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags prog.cpp -o before
// RUN: cd %t && ./before 1 2 3 4 5 > before-other.out
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags prog.cpp -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: cd %t && ./after 1 2 3 4 5 > after-other.out
// RUN: diff %t/before-other.out %t/after-other.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>

struct Put {
  double k;
  double operator()(double s) const { return s < k ? k - s : 0; }
};
struct Call {
  double k;
  double operator()(double s) const { return s > k ? s - k : 0; }
};
/* Too big to go with the launch's arguments (2 KiB). */
struct Table {
  double w[256];
  double operator()(double s) const { return w[(int)s & 255] * s; }
};

/* Each instance maps p (implicitly, tofrom) at every call. */
template <typename P> static double price(P p, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += p(i * 0.5);
  return s;
}

template <typename P> static double weigh(P p, int n) {
  double s = 0;
#pragma omp target teams distribute parallel for reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += p(i * 0.25);
  return s;
}

int main(int argc, char **argv) {
  static Table t;
  for (int i = 0; i < 256; ++i)
    t.w[i] = i % 5;
  double a = 0, b = 0;
  for (int r = 0; r < 4; ++r) {
    /* Only price<Put> and weigh<Put> run; the other instances exist. */
    a += argc > 5 ? price(Call{60.0}, 1000) : price(Put{60.0 + r}, 1000);
    b += argc > 5 ? weigh(t, 1000) : weigh(Put{30.0 + r}, 1000);
  }
  printf("%g %g\n", a, b);
  return 0;
}

// REPORT: round_trip {{.*}}prog.cpp:[[PRICE:[0-9]+]]:1 in price<Put>
// REPORT: rewrite (firstprivate): pass `p` (8 bytes) to the kernel at prog.cpp:[[PRICE]] as `firstprivate(p)`
// REPORT: overbroad_map {{.*}}prog.cpp:[[WEIGH:[0-9]+]]:1 in weigh<Put>
// REPORT-NEXT: variable: p clause: implicit map(tofrom: p)
// REPORT-NEXT: verdict: advice
// REPORT-NEXT: suggestion: the region only reads p: map it with `map(to: p)`, which drops the copies back from device 0. No rewrite: the construct is in a template that the program instantiates 2 times, each instance a construct of its own with its own types and values, and only one of them got this rewrite (its firstprivate rewrite): one edit of the template's text changes every instance.

// APPLY: prog.cpp: 1 edit(s) applied

// FIXED: #pragma omp target teams distribute parallel for reduction(+: s) firstprivate(p)
// FIXED-NEXT: for (int i = 0; i < n; ++i)
// FIXED-NEXT: s += p(i * 0.5);
// FIXED: #pragma omp target teams distribute parallel for reduction(+: s){{$}}
// FIXED-NEXT: for (int i = 0; i < n; ++i)
// FIXED-NEXT: s += p(i * 0.25);

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 4, predicted at least 4)
// PROOF-DAG: gone: round_trip of p: yes
// PROOF-DAG: gone: repeated_alloc of p: yes
// PROOF-DAG: gone: overbroad_map of p: yes
// PROOF: OK
