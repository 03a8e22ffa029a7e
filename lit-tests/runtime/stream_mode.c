//===- stream_mode.c - stream and full-log analysis give the same report --===//
//
// The program shows all five patterns on two devices, from two host threads
// (one with -DTHREADS=1).
// CHECK, with mode=check one run is analysed both ways (online, and from the
// kept log at exit) and ompdp compares the two JSON reports byte for byte:
// it says they are identical (verbose) and adds no warning.
// DIFF, separate runs of the one-thread build in mode=full and mode=stream
// give the same report but for the fields that are timings of that run
// (wall_time_ns, time_ns, time_saved_ns, transfer_time_ns, predicted_speedup),
// and the order of the findings, which follows time saved:
// Inputs/normalize_report.py removes the former and sorts by location.
// (With two threads, two runs need not see the operations in the same
// order: mode=check is the test of that case.)
// BAD, an unknown mode is refused and the default, stream, used.
//
// RUN: rm -f %t.check.json %t.full.json %t.stream.json && %clang-offload -g %s -o %t
// RUN: %ompdp run --format=json -o %t.check.json --option mode=check --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: FileCheck %s --check-prefix=CHECK-JSON < %t.check.json
// RUN: %clang-offload -g -DTHREADS=1 %s -o %t.one
// RUN: %ompdp run --format=json -o %t.full.json --option mode=full -- %t.one
// RUN: %ompdp run --format=json -o %t.stream.json --option mode=stream --option memory_cap_mb=16 -- %t.one
// RUN: python3 %S/Inputs/normalize_report.py %t.full.json > %t.full.cmp
// RUN: python3 %S/Inputs/normalize_report.py %t.stream.json > %t.stream.cmp
// RUN: diff %t.full.cmp %t.stream.cmp
// RUN: FileCheck %s --check-prefix=DIFF < %t.stream.cmp
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="mode=sometimes" %t 2>&1 | FileCheck %s --check-prefix=BAD
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define N 2048
#ifndef THREADS
#define THREADS 2
#endif

// CHECK: ompdp: mode=check: the stream and full-log reports are identical
// CHECK-NOT: DIFFER
// CHECK-JSON: "warnings": [],
// CHECK-JSON-DAG: "kind": "duplicate_transfer",
// CHECK-JSON-DAG: "kind": "round_trip",
// CHECK-JSON-DAG: "kind": "repeated_alloc",
// CHECK-JSON-DAG: "kind": "unused_alloc",
// CHECK-JSON-DAG: "kind": "unused_transfer",

// DIFF-DAG: "duplicate_transfers": {{[1-9]}}
// DIFF-DAG: "unused_transfers": {{[1-9]}}

// BAD: ompdp: option 'mode' wants stream, full or check, not 'sometimes'; using stream
// BAD: summary: duplicate_transfers={{[1-9]}}

static double work(int dev, double *a, double *b, double *c, double *t) {
  double sum = 0;
  for (int r = 0; r < 6; ++r) {
    // a never changes but is sent for every kernel: duplicate transfers;
    // each construct allocates it again: repeated allocations.
#pragma omp target map(to : a[0:N]) map(tofrom : b[0:N]) device(dev)
    for (int i = 0; i < N; ++i)
      b[i] += a[i] + r;
    // c comes back and goes out again unchanged: a round trip.
#pragma omp target map(tofrom : c[0:N]) device(dev)
    for (int i = 0; i < N; ++i)
      c[i] = c[i] * 0.5 + b[i];
#pragma omp target map(tofrom : c[0:N]) device(dev)
    for (int i = 0; i < N; ++i)
      c[i] += 1.0;
    // t is allocated and freed with no kernel in between: unused.
#pragma omp target enter data map(alloc : t[0:N]) device(dev)
#pragma omp target exit data map(delete : t[0:N]) device(dev)
  }
  // Sent after the device's last kernel: an unused transfer.
#pragma omp target enter data map(to : b[0:N]) device(dev)
#pragma omp target exit data map(release : b[0:N]) device(dev)
  for (int i = 0; i < N; ++i)
    sum += b[i] + c[i];
  return sum;
}

int main(void) {
  static double a[2][N], b[2][N], c[2][N], t[2][N];
  double total = 0;
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < N; ++i)
      a[k][i] = i, b[k][i] = k, c[k][i] = 2 * i + k, t[k][i] = 0;
#pragma omp parallel for num_threads(THREADS) reduction(+ : total)
  for (int k = 0; k < 2; ++k)
    total += work(k, a[k], b[k], c[k], t[k]);
  printf("total=%g\n", total);
  return 0;
}
