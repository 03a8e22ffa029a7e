//===- keep-resident-fresh.c - a pointer the loop points at new buffers ===//
//
// The first loop allocates `t` anew in every iteration, fills it with the
// same values and maps it: malloc puts each new buffer where the freed one
// was, so the run sees one host address copied with unchanged bytes and
// allocated again, which alone would call for `#pragma omp target data
// map(to: t[0:n])` before the loop, where `t` does not point anywhere yet.
// The plugin records that the loop stores to the pointer (base-stored) and
// that the function sets it only from allocations (fresh-host): no
// keep_resident rewrite for `t`, its repeated allocation says what it is
// (advice), and its duplicate transfer, which the loop's fill writes again
// each time, is a repeated computation. `s`, in the same loop, is still
// kept resident. Negative case: `u`, allocated once before the second loop
// (fresh-host, not base-stored), is kept resident around that loop.
// Applied, rebuilt, rerun: same output. Under a sanitizer freed memory
// waits in quarantine and each malloc gets another address, so the run
// shows other buffers and nothing of the above: only the facts are
// checked there.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before | FileCheck %s --check-prefix=TABLE
// RUN: %if !sanitizer %{ cd %t && %ompdp run --format=json -o before.json -- ./before > before.out %}
// RUN: %if !sanitizer %{ cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT %}
// RUN: %if !sanitizer %{ cd %t && %ompdp report before.json | FileCheck %s --check-prefix=NOFRESH %}
// RUN: %if !sanitizer %{ cd %t && %ompdp report before.json | FileCheck %s --check-prefix=DUP %}
// RUN: %if !sanitizer %{ cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REWRITES %}
// RUN: %if !sanitizer %{ cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY %}
// RUN: %if !sanitizer %{ FileCheck %s --check-prefix=FIXED < %t/prog.c %}
// RUN: %if !sanitizer %{ cd %t && %clang-ompdp prog.c -o after %}
// RUN: %if !sanitizer %{ cd %t && ./after > after.out %}
// RUN: %if !sanitizer %{ diff %t/before.out %t/after.out %}
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  int n = 1000;
  double s = 0;
  float *t;
  for (int it = 0; it < 4; ++it) {
    t = malloc(sizeof(float) * n);
    for (int i = 0; i < n; ++i)
      t[i] = i;
#pragma omp target data map(to: t[0:n])
    {
#pragma omp target teams distribute parallel for reduction(+: s)
      for (int i = 0; i < n; ++i)
        s += t[i];
    }
    free(t);
  }
  float *u = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    u[i] = 2 * i;
  double v = 0;
  for (int it = 0; it < 4; ++it) {
#pragma omp target data map(to: u[0:n])
    {
#pragma omp target teams distribute parallel for reduction(+: v)
      for (int i = 0; i < n; ++i)
        v += u[i];
    }
  }
  free(u);
  printf("s=%g v=%g\n", s, v);
  return 0;
}

// TABLE:      item 0: to 't[0:n]' {{.*}} fresh-host base-stored
// TABLE:      item 0: to 'u[0:n]'
// TABLE-NOT:  base-stored
// TABLE-SAME: fresh-host

// REPORT-NOT: keep `t[0:n]`
// REPORT:     Repeated device allocations
// REPORT:         variable: t clause
// REPORT-NEXT:    first allocated at
// REPORT-NEXT:    verdict: advice
// REPORT-NEXT:    suggestion: `t` is a new host buffer each time (the loop around the construct sets it; malloc may put one where the last one was), so mapping it allocates it on device {{[0-9]+}} again too
// REPORT-NOT: keep `t[0:n]`
// REWRITES-DAG: rewrite (keep_resident): keep `s` on device {{[0-9]+}} for the whole for loop at prog.c:{{[0-9]+}}: `#pragma omp target data map(tofrom: s)`
// REWRITES-DAG: rewrite (keep_resident): keep `u[0:n]` and `v` on device {{[0-9]+}} for the whole for loop at prog.c:{{[0-9]+}}: `#pragma omp target data map(to: u[0:n]) map(tofrom: v)`

// The loop fills each new `t` with the same values (host-written): its
// re-sends are a repeated computation, never advice to keep it resident.
// DUP:      Duplicate transfers
// DUP:      variable: t clause: map(to: t[0:n])
// DUP:      verdict: repeated_computation (not counted as a saving)
// DUP-NEXT: suggestion: a repeated computation: host code that can run between these sends writes t
// DUP:      Round trips

// NOFRESH: duplicate_transfer
// NOFRESH-NOT: `u` is a new host buffer

// APPLY: prog.c: 2 edit(s) applied

// FIXED:      #pragma omp target data map(tofrom: s)
// FIXED-NEXT: for (int it = 0; it < 4; ++it) {
// FIXED-NEXT:   t = malloc(sizeof(float) * n);
// FIXED:      #pragma omp target data map(to: u[0:n]) map(tofrom: v)
// FIXED-NEXT: for (int it = 0; it < 4; ++it) {
