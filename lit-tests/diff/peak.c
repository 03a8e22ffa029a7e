//===- peak.c - ompdp diff gates on the peak of device memory --------------===//
//
// EARLY maps `big` before the `target data` of `a` that reaches the
// device's peak; MOVED maps it after, where it is first used: the same
// transfers and allocations, a peak lower by `a`'s 256 KiB (big is 512
// KiB). `ompdp diff` shows each device's peak before and after: the peak
// shrank (exit status 0); the other way round it grew, which fails the
// gate (exit status 1) as waste that grew does. JSON says it too.
//
// RUN: %clang-offload -g %s -o %t.early
// RUN: %clang-offload -g -DMOVED %s -o %t.moved
// RUN: %ompdp run --format=json -o %t.early.json -- %t.early
// RUN: %ompdp run --format=json -o %t.moved.json -- %t.moved
// RUN: %ompdp diff %t.early.json %t.moved.json | FileCheck %s --check-prefix=SHRANK
// RUN: not %ompdp diff %t.moved.json %t.early.json | FileCheck %s --check-prefix=GREW
// RUN: not %ompdp diff --format=json %t.moved.json %t.early.json | FileCheck %s --check-prefix=JSON
// RUN: %ompdp diff %t.early.json %t.early.json | FileCheck %s --check-prefix=SAME
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N (1 << 16) /* big: 512 KiB */
#define M (1 << 15) /* a: 256 KiB */

static double big[N], a[M];

int main(void) {
  for (int i = 0; i < N; ++i)
    big[i] = i % 3;
  for (int i = 0; i < M; ++i)
    a[i] = i % 5;
#ifndef MOVED
#pragma omp target enter data map(to : big[0:N])
#endif
#pragma omp target data map(tofrom : a[0:M])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < M; ++i)
      a[i] += 1;
  }
#ifdef MOVED
#pragma omp target enter data map(to : big[0:N])
#endif
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    big[i] += 1;
#pragma omp target exit data map(from : big[0:N])
  printf("%g %g\n", big[N - 1], a[M - 1]);
  return 0;
}

// SHRANK: allocations 2 2 =
// SHRANK: peak memory device 0 768.0 KiB 512.0 KiB -256.0 KiB (-33.3%)
// SHRANK: verdict: the waste {{.*}}; the peak of device memory shrank

// GREW: peak memory device 0 512.0 KiB 768.0 KiB +256.0 KiB (+50.0%)
// GREW: verdict: the waste {{.*}}; the peak of device memory grew

// JSON: "peak_grew": true,
// JSON-NEXT: "device_memory": [
// JSON-NEXT: {"device": 0, "peak_bytes": {"before": 524288, "after": 786432, "change": 262144}}
// JSON-NEXT: ],

// SAME: peak memory device 0 768.0 KiB 768.0 KiB =
// SAME: verdict: the waste is the same; the peak of device memory is the same
