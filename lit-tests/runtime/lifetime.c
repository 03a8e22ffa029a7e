//===- lifetime.c - device memory held while nothing uses it ------------===//
//
// `big` (1 MiB) is mapped by `target enter data` before a `target data` of
// `a` and `b` (512 KiB each) whose kernel does not use it, and first used
// after: the device's peak (2 MiB) holds it for nothing. The kernel's map
// arguments say what it uses (the plugin's tag): an early_alloc, which
// would lower the peak by 1 MiB, in the JSON report with its saving in
// bytes of peak and no time (time_saved_ns 0), the device's peak with the
// fixes, and the first use as the related location. The call between
// passes `big`, so the compiler cannot show that a move past it keeps
// every use inside: advice, which says so.
// USED, the kernel of the `target data` uses `big` too: no finding.
// NOPLUGIN, built without the plugin the runtime does not know what a kernel
// uses and takes each to use everything: no finding either.
// TWICE, a second `target data` after big's first use reaches the same
// peak again: moving the allocation (or the release) would not lower it,
// so there is no finding; with --option lifetime_all=1 there are two, an
// early_alloc and a late_release, which say they save nothing
// (peak_saved=0 B).
// ROUTINE, the memory comes from omp_target_alloc: the words name the call
// (advice: no rewrite moves routine calls).
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run --format=json -o %t.json -- %t
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %ompdp report --format=sarif %t.json | FileCheck %s --check-prefix=SARIF
// RUN: %clang-ompdp -DUSED %s -o %t.used
// RUN: %ompdp run -- %t.used 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang-offload -g %s -o %t.np
// RUN: %ompdp run -- %t.np 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %clang-ompdp -DTWICE %s -o %t.twice
// RUN: %ompdp run -- %t.twice 2>&1 | FileCheck %s --check-prefix=NONE
// RUN: %ompdp run --option lifetime_all=1 -- %t.twice 2>&1 | FileCheck %s --check-prefix=ALL
// RUN: %clang-ompdp -DROUTINE %s -o %t.routine
// RUN: %ompdp run -- %t.routine 2>&1 | FileCheck %s --check-prefix=ROUTINE
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 17) /* big: 1 MiB */
#define M (1 << 16) /* a, b: 512 KiB each */

static void pair(double *a, double *b, double *big, double k) {
  #pragma omp target data map(to: a[0:M]) map(from: b[0:M])
  {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < M; ++i) {
#ifdef USED
      b[i] = k * a[i] + big[i];
#else
      b[i] = k * a[i];
#endif
    }
  }
  (void)big;
}

int main(void) {
  double *big = malloc(N * sizeof(double));
  double *a = malloc(M * sizeof(double)), *b = malloc(M * sizeof(double));
  for (int i = 0; i < M; ++i)
    a[i] = i % 5 + 1;
  for (int i = 0; i < N; ++i)
    big[i] = i % 3 + 1;
#ifdef ROUTINE
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  double *d = omp_target_alloc(N * sizeof(double), dev);
  pair(a, b, big, 2);
  omp_target_memcpy(d, big, N * sizeof(double), 0, 0, dev, host);
  #pragma omp target teams distribute parallel for is_device_ptr(d)
  for (int i = 0; i < N; ++i)
    d[i] += 1;
  omp_target_memcpy(big, d, N * sizeof(double), 0, 0, host, dev);
  omp_target_free(d, dev);
#else
  #pragma omp target enter data map(to: big[0:N])
  pair(a, b, big, 2);
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    big[i] += 1;
#ifdef TWICE
  pair(a, b, big, 3);
#endif
  #pragma omp target exit data map(from: big[0:N])
#endif
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += big[i];
  printf("%g %g\n", s, b[M - 1]);
  return 0;
}

// JSON: "early_allocs": 1,
// JSON-NEXT: "late_releases": 0,
// JSON: "device_memory": [
// JSON-NEXT: {"device": 0, "peak_bytes": 2097152, "peak_time_ns": {{[0-9]+}}, "peak_allocations": 3, "peak_saved_bytes": 1048576,
// JSON: "kind": "early_alloc",
// JSON-NEXT: "count": 1,
// JSON-NEXT: "bytes": 1048576,
// JSON-NEXT: "time_ns": 0,
// JSON-NEXT: "time_saved_ns": 0,
// JSON-NEXT: "devices": [0],
// JSON-NEXT: "file": "{{.*}}lifetime.c",
// JSON-NEXT: "line": [[#ENTER:]],
// JSON: "variable": "big",
// JSON-NEXT: "clause": "map(to: big[0:N])",
// JSON: "suggestion": "`big` is allocated on device 0 long before its first use at lifetime.c:[[#ENTER+2]], while the device reaches its peak: move its `target enter data` to just before that use to lower the peak by 1.0 MiB. No rewrite: the first statement that may use `big` (line [[#ENTER+1]]) is not, and does not begin with, the construct that first used its memory in this run (line [[#ENTER+2]]), so moving the directive there would not lower the peak as predicted.",
// JSON-NEXT: "verdict": "advice",
// JSON-NEXT: "related": {
// JSON-NEXT: "file": "{{.*}}lifetime.c",
// JSON-NEXT: "line": [[#ENTER+2]],
// JSON: "peak_saved_bytes": 1048576

// SARIF: "ruleId": "early_alloc"
// SARIF: "message": {"text": "Early device allocations of `big` (map(to: big[0:N])): 1 allocation, 1.0 MiB, the device's peak 1.0 MiB lower. `big` is allocated on device 0 long before its first use at lifetime.c:{{[0-9]+}}, while the device reaches its peak: move its `target enter data` to just before that use to lower the peak by 1.0 MiB{{.*}}"},
// SARIF: "properties": {"count": 1, "bytes": 1048576, "time_ns": 0, "time_saved_ns": 0, "devices": [0], "peakSavedBytes": 1048576, "variable": "big"

// NONE: summary: {{.*}} early_allocs=0 late_releases=0
// NONE-NOT: peak device memory with the fixes

// ALL: summary: {{.*}} early_allocs=1 late_releases=1
// ALL: early_alloc  {{.*}}lifetime.c:[[#ENTER:]]:3 in main  count=1 bytes=1.0 MiB time=0 ns saved=0 ns devices=0 peak_saved=0 B
// ALL: verdict: advice
// ALL-NEXT: suggestion: `big` is allocated on device 0 long before its first use at lifetime.c:[[#ENTER+2]], but the device reaches the same peak at another moment too: moving it would not lower the peak
// ALL: late_release  {{.*}}lifetime.c:[[#ENTER]]:3 in main  count=1 bytes=1.0 MiB time=0 ns saved=0 ns devices=0 peak_saved=0 B
// ALL-NOT: rewrite (shrink_lifetime)

// ROUTINE: early_alloc  {{.*}}lifetime.c:[[#ALLOC:]]:{{[0-9]+}} in main  count=1 bytes=1.0 MiB {{.*}} peak_saved=1.0 MiB
// ROUTINE: call: omp_target_alloc(N * sizeof(double), dev)
// ROUTINE: verdict: advice
// ROUTINE-NEXT: suggestion: `omp_target_alloc` allocates d on device 0 long before its first use at lifetime.c:[[#ALLOC+2]]: call it right before that use, which lowers the device's peak by 1.0 MiB
