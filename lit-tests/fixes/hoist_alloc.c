//===- hoist_alloc.c - omp_target_alloc/free moved out of their loop ------===//
//
// A loop that allocates a device buffer with omp_target_alloc and frees it
// with omp_target_free in every iteration, with the same size and device
// each time: the rewrite moves the allocation (a declaration, moved whole)
// before the loop and the free after it. Applied, rebuilt and rerun: the
// same output, the repeated allocations gone, three allocations and frees
// fewer, as predicted.
// Where the move could change the program, the finding is advice and says
// why: DEVICE, the loop writes the variable that names the device (the run
// saw one device, but the compiler cannot prove it); JUMP, a `return` leaves the
// loop (the free after it would not run); STORED, the loop also stores to
// the pointer (an iteration's memory may still be in use).
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED --match-full-lines < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %clang-ompdp -DDEVICE %s -o device
// RUN: cd %t && %ompdp run -- ./device 2>&1 | FileCheck %s --check-prefix=DEVICE
// RUN: cd %t && %clang-ompdp -DJUMP %s -o jump
// RUN: cd %t && %ompdp run -- ./jump 2>&1 | FileCheck %s --check-prefix=JUMP
// RUN: cd %t && %clang-ompdp -DSTORED %s -o stored
// RUN: cd %t && %ompdp run -- ./stored 2>&1 | FileCheck %s --check-prefix=STORED
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 2048

static int scale(double *h, size_t n, int steps) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  for (int s = 0; s < steps; ++s) {
    double *d = omp_target_alloc(n * sizeof(double), dev);
    omp_target_memcpy(d, h, n * sizeof(double), 0, 0, dev, host);
#pragma omp target is_device_ptr(d)
    for (size_t i = 0; i < n; ++i)
      d[i] = d[i] * 0.5 + 1.0;
    omp_target_memcpy(h, d, n * sizeof(double), 0, 0, host, dev);
    omp_target_free(d, dev);
#if defined(DEVICE)
    dev = omp_get_default_device();
#elif defined(JUMP)
    if (h[0] > 1e9)
      return -1;
#elif defined(STORED)
    d = NULL;
#endif
  }
  return 0;
}

int main(void) {
  double *h = malloc(N * sizeof(double));
  for (size_t i = 0; i < N; ++i)
    h[i] = (double)i;
  int rc = scale(h, N, 4);
  printf("rc=%d h[1]=%g h[N-1]=%g\n", rc, h[1], h[N - 1]);
  free(h);
  return 0;
}

// REPORT: repeated_alloc {{.*}}prog.c:42:17 in scale count=3
// REPORT-NEXT: variable: d  call: omp_target_alloc(n * sizeof(double), dev)
// REPORT: verdict: fix
// REPORT: rewrite (hoist_alloc): move `omp_target_alloc(n * sizeof(double), dev)` before the loop at prog.c:41 and `omp_target_free(...)` at prog.c:48 after it
// REPORT-NEXT: assumes:
// REPORT-NEXT: prog.c:41:1: insert "  double *d = omp_target_alloc(n * sizeof(double), dev);\n"
// REPORT-NEXT: prog.c:42:1-43:1: delete "double *d = omp_target_alloc(n * sizeof(double), dev);"
// REPORT-NEXT: prog.c:48:1-49:1: delete "omp_target_free(d, dev);"
// REPORT-NEXT: prog.c:58:1: insert "  omp_target_free(d, dev);\n"

// APPLY: prog.c: 4 edit(s) applied

// FIXED:      static int scale(double *h, size_t n, int steps) {
// FIXED-NEXT:   int dev = omp_get_default_device(), host = omp_get_initial_device();
// FIXED-NEXT:   double *d = omp_target_alloc(n * sizeof(double), dev);
// FIXED-NEXT:   for (int s = 0; s < steps; ++s) {
// FIXED-NEXT:     omp_target_memcpy(d, h, n * sizeof(double), 0, 0, dev, host);
// FIXED:          omp_target_memcpy(h, d, n * sizeof(double), 0, 0, host, dev);
// FIXED-NEXT: #if defined(DEVICE)
// FIXED:      #endif
// FIXED-NEXT:   }
// FIXED-NEXT:   omp_target_free(d, dev);
// FIXED-NEXT:   return 0;

// PROOF: OK

// DEVICE: repeated_alloc {{.*}} in scale count=3
// DEVICE: verdict: advice
// DEVICE: No rewrite: the loop may change the size or the device of the allocation.
// DEVICE-NOT: rewrite (hoist_alloc)
// JUMP: repeated_alloc {{.*}} in scale count=3
// JUMP: verdict: advice
// JUMP: No rewrite: a jump leaves the loop, and the free after it would not run.
// STORED: repeated_alloc {{.*}} in scale count=3
// STORED: verdict: advice
// STORED: No rewrite: the loop also stores to the pointer elsewhere
