//===- routines.c - findings at calls of the device memory routines -------===//
//
// Code that manages device memory itself: omp_target_alloc, _memcpy and
// _free instead of map clauses. Built with the plugin and without -g, each
// finding names the call (file:line:col, the call as written) and the
// variable behind its host pointer, in text, JSON and SARIF, and its words
// speak of moving or replacing calls, never of map clauses.
// MEMCPY, h goes to the device, a kernel changes it there, and it comes
// back; the next iteration sends the host's copy, unchanged, out again:
// round trips at the copy to the device.
// ALLOC, a buffer of one size allocated and freed in every iteration:
// repeated allocations at the omp_target_alloc call.
// ZERO, a buffer of zeros copied in: omp_target_memset instead.
// ASYNC, the copy in is omp_target_memcpy_async (with offsets), which runs
// in a task after the call returns: still the call's round trips.
// MEMSET, omp_target_memset of zeros, which libomptarget 19 makes a copy of
// a host buffer of zeros: a fill kernel instead.
// DISTINCT, every copy carries other bytes (the host changes h each
// time): no finding at all.
// Without the plugin (-g), the same program is still attributed by DWARF.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -DMEMCPY %s -o %t.memcpy
// RUN: %ompdp run -- %t.memcpy 2>&1 | FileCheck %s --check-prefix=MEMCPY
// RUN: %ompdp run --format=json -- %t.memcpy 2>&1 | FileCheck %s --check-prefix=MEMCPY-JSON
// RUN: %ompdp run --format=sarif -- %t.memcpy 2>&1 | FileCheck %s --check-prefix=MEMCPY-SARIF
// RUN: %clang-ompdp -DALLOC %s -o %t.alloc
// RUN: %ompdp run -- %t.alloc 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: %clang-ompdp -DZERO %s -o %t.zero
// RUN: %ompdp run -- %t.zero 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: %clang-ompdp -DASYNC %s -o %t.async
// RUN: %ompdp run -- %t.async 2>&1 | FileCheck %s --check-prefix=ASYNC
// RUN: %clang-ompdp -DMEMSET %s -o %t.memset
// RUN: %ompdp run -- %t.memset 2>&1 | FileCheck %s --check-prefix=MEMSET
// RUN: %clang-ompdp -DDISTINCT %s -o %t.distinct
// RUN: %ompdp run -- %t.distinct 2>&1 | FileCheck %s --check-prefix=DISTINCT
// RUN: %clang-offload -g -DMEMCPY %s -o %t.dwarf
// RUN: %ompdp run -- %t.dwarf 2>&1 | FileCheck %s --check-prefix=DWARF
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

// MEMCPY-NOT: map(
// MEMCPY-NOT: <unknown file>
// MEMCPY-SARIF: "message": {"text": "Round trips of `h` (omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host)): 2 avoidable
// MEMCPY-SARIF: "properties": {{{.*}}"variable": "h", "call": "omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host)"
// DISTINCT: h[1]=
// DISTINCT: no inefficient data movement found
// DWARF: round_trip  {{.*}}routines.c:{{[0-9]+}}{{.*}} in main  count=2
// DWARF-NOT: call:

int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  double *h = calloc(N, sizeof(double));
  for (size_t i = 0; i < N; ++i)
    h[i] = 1.0 + (double)i;
#if defined(MEMCPY) || defined(DISTINCT)
  double *d = omp_target_alloc(N * sizeof(double), dev);
  for (int it = 0; it < 3; ++it) {
#ifdef DISTINCT
    h[0] += 1;
#endif
    // MEMCPY: summary: duplicate_transfers=0 round_trips=2 repeated_allocs=0 unused_allocs=0 unused_transfers=0 zero_transfers=0
    // MEMCPY: round_trip  {{.*}}routines.c:[[@LINE+11]]:5 in main  count=2
    // MEMCPY-NEXT: variable: h  call: omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host)
    // MEMCPY-NEXT: outgoing copy at {{.*}}routines.c:[[@LINE+13]]:5 in main
    // MEMCPY-NEXT: verdict: advice
    // MEMCPY-NEXT: suggestion: h comes back from device 0 unchanged and `omp_target_memcpy` sends it out again: copy it to the device once before the loop and back once after it
    // MEMCPY-JSON: "kind": "round_trip"
    // MEMCPY-JSON: "line": [[@LINE+5]],
    // MEMCPY-JSON-NEXT: "column": 5,
    // MEMCPY-JSON: "variable": "h",
    // MEMCPY-JSON-NEXT: "clause": null,
    // MEMCPY-JSON-NEXT: "call": "omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host)",
    omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host);
#pragma omp target is_device_ptr(d)
    for (size_t i = 0; i < N; ++i)
      d[i] += 1;
    omp_target_memcpy(h, d, N * sizeof(double), 0, 0, host, dev);
  }
  omp_target_free(d, dev);
#elif defined(ASYNC)
  double *d = omp_target_alloc(N * sizeof(double), dev);
  for (int it = 0; it < 3; ++it) {
    // ASYNC: round_trip  {{.*}}routines.c:[[@LINE+3]]:5 in main  count=2
    // ASYNC-NEXT: variable: h  call: omp_target_memcpy_async(d, h, (N - 1) * sizeof(double), sizeof(double), sizeof(double), dev, host, 0, NULL)
    // ASYNC-NOT: <unknown file>
    omp_target_memcpy_async(d, h, (N - 1) * sizeof(double), sizeof(double), sizeof(double), dev, host, 0, NULL);
#pragma omp taskwait
#pragma omp target is_device_ptr(d)
    for (size_t i = 1; i < N; ++i)
      d[i] += 1;
    omp_target_memcpy(h, d, (N - 1) * sizeof(double), sizeof(double), sizeof(double), host, dev);
  }
  omp_target_free(d, dev);
#elif defined(MEMSET)
  double *d = omp_target_alloc(N * sizeof(double), dev);
  // MEMSET: zero_transfer  {{.*}}routines.c:[[@LINE+4]]:3 in main  count=1 bytes=32.0 KiB
  // MEMSET-NEXT: variable: d  call: omp_target_memset(d, 0, N * sizeof(double), dev)
  // MEMSET: suggestion: this libomptarget implements `omp_target_memset` as a copy of a host buffer of the value to device 0: a kernel that fills the memory (`#pragma omp target is_device_ptr(d)` with a loop writing zeros) avoids the copy
  // MEMSET-NOT: map(
  omp_target_memset(d, 0, N * sizeof(double), dev);
#pragma omp target is_device_ptr(d)
  for (size_t i = 0; i < N; ++i)
    d[i] += h[i];
  omp_target_memcpy(h, d, N * sizeof(double), 0, 0, host, dev);
  omp_target_free(d, dev);
#elif defined(ALLOC)
  for (int it = 0; it < 4; ++it) {
    // ALLOC: repeated_alloc  {{.*}}routines.c:[[@LINE+4]]:17 in main  count=3
    // ALLOC-NEXT: variable: d  call: omp_target_alloc(N * sizeof(double), dev)
    // ALLOC: suggestion: `omp_target_alloc` allocates d on device 0 again each time, and `omp_target_free` frees it: allocate it once before the loop and free it after the loop
    // ALLOC-NOT: map(
    double *d = omp_target_alloc(N * sizeof(double), dev);
    omp_target_memcpy(d, h, N * sizeof(double), 0, 0, dev, host);
#pragma omp target is_device_ptr(d)
    for (size_t i = 0; i < N; ++i)
      d[i] *= 2;
    omp_target_memcpy(h, d, N * sizeof(double), 0, 0, host, dev);
    omp_target_free(d, dev);
  }
#elif defined(ZERO)
  double *z = calloc(N, sizeof(double));
  double *d = omp_target_alloc(N * sizeof(double), dev);
  // ZERO: zero_transfer  {{.*}}routines.c:[[@LINE+4]]:3 in main  count=1 bytes=32.0 KiB
  // ZERO-NEXT: variable: z  call: omp_target_memcpy(d, z, N * sizeof(double), 0, 0, dev, host)
  // ZERO: suggestion: every byte of z that `omp_target_memcpy` copied to device 0 was zero: fill the device memory there instead, `omp_target_memset(d, 0, N * sizeof(double), dev)`, or a kernel `#pragma omp target is_device_ptr(d)` that writes zeros
  // ZERO-NOT: map(
  omp_target_memcpy(d, z, N * sizeof(double), 0, 0, dev, host);
#pragma omp target is_device_ptr(d)
  for (size_t i = 0; i < N; ++i)
    d[i] += 1;
  omp_target_memcpy(h, d, N * sizeof(double), 0, 0, host, dev);
  omp_target_free(d, dev);
  free(z);
#endif
  printf("h[1]=%g\n", h[1]);
  free(h);
  return 0;
}
