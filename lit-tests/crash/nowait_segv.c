//===- nowait_segv.c - a segfault inside a `nowait` target region ---------===//
//
// REQUIRES: threads
//
// The program offloads 200 `target nowait` regions four at a time; region
// number $CRASH_AT (random in each run) writes through a null pointer in
// its body, on the hidden helper thread that runs it, after its data was
// mapped and its kernel launched. The regions before it are waited for
// first, so the counts of the counting tool (Inputs/count_through.c,
// written through as they change) are exact. In 20 of 20 runs `ompdp run`
// dies by SIGSEGV, and its report, built from the event log, counts what
// the counting tool counted: the crashing region's allocations and
// transfer in, not its kernel (in flight) nor what would have followed.
// The same with the full-log mode, and with the compiler plugin's
// attribution when it is built (the report names the variable).
//
// RUN: rm -f %t.json && %clang-offload -g -I%omp-tools-include %s %S/Inputs/count_through.c -ldl -o %t
// RUN: %python %S/Inputs/crash_counts.py %ompdp %stress-runs SEGV program ITERS=200 -- %t | FileCheck %s
// RUN: env CRASH_AT=77 sh -c '%ompdp run --option mode=full --format=json -o %t.json -- %t; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefix=RC
// RUN: FileCheck %s --check-prefix=JSON < %t.json
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

// CHECK: {{[1-9][0-9]*}} runs died by SIGSEGV (program): every report's counts equal the counting tool's
// RC: ompdp: the program was killed by signal 11 (Segmentation fault) before it could write its report; ompdp rebuilt its report from the event log it kept
// RC: rc=139
// JSON: "exit_status": 139,
// JSON: "transfers": 155,
// JSON-NEXT: "allocs": 156,
// JSON-NEXT: "deletes": 154,
// JSON-NEXT: "kernels": 77,
// JSON: "partial": true,
// JSON-NEXT: "recovered": {"reason": "the program was killed by signal 11 (Segmentation fault) before it could write its report", "flushed_at_ns": {{[0-9]+}}, "events": 542, "source": "event_log"},

#define ITERS 200
#define M 64

static int in[ITERS][M], out[ITERS];

int main(void) {
  const char *at = getenv("CRASH_AT");
  int crash_at = at ? atoi(at) : -1;
  for (int i = 0; i < ITERS; ++i)
    for (int k = 0; k < M; ++k)
      in[i][k] = i + k;
  for (int i = 0; i < ITERS; ++i) {
    int *src = in[i], *dst = &out[i];
    int crash = i == crash_at;
    if (crash) {
#pragma omp taskwait
    }
#pragma omp target nowait map(to : src[0 : M]) map(from : dst[0 : 1])
    {
      int s = 0;
      for (int k = 0; k < M; ++k)
        s += src[k];
      if (crash)
        *(volatile int *)(unsigned long)s = 0; /* s is small: not mapped */
      *dst = s;
    }
    if (i % 4 == 3 || crash) {
#pragma omp taskwait
    }
  }
  long long sum = 0;
  for (int i = 0; i < ITERS; ++i)
    sum += out[i];
  printf("sum=%lld\n", sum);
  return 0;
}
