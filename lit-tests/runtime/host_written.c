//===- host_written.c - sends of data the host computes again ---------------===//
//
// A host routine fills `a` and `b` in every iteration, then `target update
// to` sends them (tqs', particles' shape): the same bytes go again only
// because the host wrote the same values again. The plugin sees the host
// write them in the loop (flag `host-written`, calls followed), so the
// repeats are a repeated computation, not a saving, and the words never
// say to move the update out of the loop: with other values it would leave
// the device stale. The same for `t`, refilled only under a condition (the
// update may carry the refill), for `u`, which the inner loop that sends it
// changes under a condition and the outer timing loop restores by memcpy
// (hwt1d), and for
// a map of `c` in a function whose caller's loop repeats it, filled before
// the construct on every call. Negative case: `s`, filled once before the
// loop, is not host-written: advice, with why ompdp did not move the update.
//
// REQUIRES: plugin
// RUN: rm -f %t.json && %clang-ompdp %s -o %t
// RUN: %clang-ompdp -fplugin-arg-ompdp-dump -c %s -o /dev/null | FileCheck %s --check-prefix=TABLE
// RUN: %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %ompdp report %t.json | grep -A4 "variable: a  clause: to(a, b)" | FileCheck %s --check-prefix=HW
// RUN: %ompdp report %t.json | grep -A4 "variable: b  clause: to(a, b)" | FileCheck %s --check-prefix=HW
// RUN: %ompdp report %t.json | grep -A4 "variable: c  clause: map(to: c)" | FileCheck %s --check-prefix=HW
// RUN: %ompdp report %t.json | grep -A4 "variable: t  clause: to(t)" | FileCheck %s --check-prefix=HW
// RUN: %ompdp report %t.json | grep -A4 "variable: u  clause: to(u)" | FileCheck %s --check-prefix=HW
// RUN: %ompdp report %t.json | grep -A4 "variable: s  clause: to(s)" | FileCheck %s --check-prefix=NOT-HW
// RUN: %ompdp report --format=sarif %t.json | FileCheck %s --check-prefix=SARIF
// RUN: %python %S/Inputs/verdict_saving.py %t.json | FileCheck %s --check-prefix=SUM
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <string.h>

#define N 2048

static double a[N], b[N], c[N], s[N], t[N], u[N], keep[N], out[N];

static void fill(double *p, double *q, int n) {
  for (int i = 0; i < n; ++i) {
    p[i] = 0.5 * i;
    q[i] = 2.0 * i;
  }
}

static void refill(double *p, int n, double k) {
  for (int i = 0; i < n; ++i)
    p[i] = i + k;
}

static double step(void) {
  refill(c, N, 3);
#pragma omp target teams distribute parallel for map(to: c) map(from: out[0:N])
  for (int i = 0; i < N; ++i)
    out[i] = c[i] * 3;
  return out[N - 1];
}

int main(void) {
  double total = 0;
  refill(s, N, 1);
  refill(t, N, 2);
#pragma omp target enter data map(alloc: a, b, s, t, u, out)
  for (int it = 0; it < 5; ++it) {
    fill(a, b, N);
    if (it == 3)
      refill(t, N, 2);
#pragma omp target update to(a, b)
#pragma omp target update to(s)
#pragma omp target update to(t)
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      out[i] = a[i] + b[i] + s[i] + t[i];
#pragma omp target update from(out)
    total += out[it] + step();
  }
  refill(u, N, 4);
  memcpy(keep, u, sizeof(u));
  for (int rep = 0; rep < 3; ++rep) {
    for (int step = 0; step < 2; ++step) {
#pragma omp target update to(u)
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        out[i] = u[i] * 0.5 + i;
#pragma omp target update from(out)
      if (step == 0)
        memcpy(u, out, sizeof(u));
    }
    total += u[rep];
    memcpy(u, keep, sizeof(u));
  }
#pragma omp target exit data map(release: a, b, s, t, u, out)
  printf("total=%g\n", total);
  return 0;
}

// OUT: total=

// TABLE: region {{.*}} 'target' {{.*}} in 'step'
// TABLE: item 0: to 'c' {{.*}} host-written
// TABLE: update to 'a' {{.*}} host-written
// TABLE: update to 'b' {{.*}} host-written
// TABLE: item 0: update to 's'
// TABLE-NOT: host-written
// TABLE: item 0: update to 't' {{.*}} host-written
// TABLE: item 0: update to 'u' {{.*}} host-written

// HW: verdict: repeated_computation (not counted as a saving)
// HW-NEXT: suggestion: a repeated computation: host code that can run between these sends writes {{[abctu]}} (the compiler sees the writes, in the loops around the construct or in a function they call), {{.*}}; the send stays in the loop, since moving it out would leave the device a stale copy whenever the host's values change

// The words for s: advice, and why no rewrite moved the update.
// NOT-HW: verdict: advice
// NOT-HW-NEXT: suggestion: `target update to(s)` sends device 0 the bytes it was sent last time: {{.*}}move the update before the loop{{.*}} No rewrite: moving the update needs proof

// SARIF: "verdict": "repeated_computation"
// SARIF: host code that can run between these sends writes

// u's `target enter data` (line 61) maps it long before its first use: an
// early allocation (issue 31), advice since moving it lowers no peak.
// SUM: advice 4
// SUM-NEXT: necessary 2
// SUM-NEXT: repeated_computation 5
// SUM-NEXT: ok
