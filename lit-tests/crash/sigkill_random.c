//===- sigkill_random.c - SIGKILL at random moments loses nothing complete -===//
//
// REQUIRES: threads
//
// 4 host threads each offload 300 `target nowait` regions round-robin to 4
// devices and wait for them (LIBOMP_USE_HIDDEN_HELPER_TASK=0: with hidden
// helpers libomp 19 itself crashes now and then under several threads,
// edges/concurrent_counts.c). The process is killed with SIGKILL, which no
// handler sees:
// - by the counting tool in front of ompdp (Inputs/count_through.c), at a
//   random completion, once it has written its counts through (20 runs):
//   `ompdp run`'s report, built from the event log, counts exactly what the
//   counting tool counted;
// - from outside, at a random time (20 runs): the same, except that the
//   kill may land while one operation completes (the counting tool marks it
//   pending), which the report may then count or not;
// - in the full-log mode, and with the journal off, the same (the event log
//   does not need them).
//
// RUN: rm -f %t.json && %clang-offload -g -I%omp-tools-include %s %S/Inputs/count_through.c -ldl -o %t
// RUN: env LIBOMP_USE_HIDDEN_HELPER_TASK=0 %python %S/Inputs/crash_counts.py %ompdp %stress-runs KILL tool -- %t | FileCheck %s --check-prefix=TOOL
// RUN: env LIBOMP_USE_HIDDEN_HELPER_TASK=0 %python %S/Inputs/crash_counts.py %ompdp %stress-runs KILL external -- %t | FileCheck %s --check-prefix=OUTSIDE
// RUN: env LIBOMP_USE_HIDDEN_HELPER_TASK=0 COUNT_CRASH_AT=1000 sh -c '%ompdp run --option mode=full --option journal_ms=0 --format=json -o %t.json -- %t; echo "rc=$?"' | FileCheck %s --check-prefix=RC
// RUN: FileCheck %s --check-prefix=JSON < %t.json
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

// TOOL: {{[1-9][0-9]*}} runs died by SIGKILL (tool): every report's counts equal the counting tool's
// OUTSIDE: SIGKILL from outside: every report's counts equal the counting tool's (but for the operation in flight)
// RC: started
// RC-NEXT: rc=137
// JSON: "exit_status": 137,
// JSON: "recovered": {"reason": "the program was killed by signal 9 (Killed) before it could write its report", "flushed_at_ns": {{[0-9]+}}, "events": 1000, "source": "event_log"},

#define THREADS 4
#define DEVICES 4
#define ITERS 300
#define M 16

static int in[THREADS][ITERS][M], out[THREADS][ITERS];

int main(void) {
  int devices = omp_get_num_devices() < DEVICES ? omp_get_num_devices() : DEVICES;
  for (int t = 0; t < THREADS; ++t)
    for (int i = 0; i < ITERS; ++i)
      for (int k = 0; k < M; ++k)
        in[t][i][k] = t + i + k;
  int started = 0;
#pragma omp target map(tofrom : started)
  started = 1;
  printf("started\n"); /* crash_counts.py kills from outside after this */
  fflush(stdout);
#pragma omp parallel num_threads(THREADS)
  {
    int t = omp_get_thread_num();
    for (int i = 0; i < ITERS; ++i) {
      int *src = in[t][i], *dst = &out[t][i];
#pragma omp target nowait device(i % devices) map(to : src[0 : M]) map(from : dst[0 : 1])
      {
        int s = 0;
        for (int k = 0; k < M; ++k)
          s += src[k];
        *dst = s;
      }
    }
#pragma omp taskwait
  }
  long long sum = 0;
  for (int t = 0; t < THREADS; ++t)
    for (int i = 0; i < ITERS; ++i)
      sum += out[t][i];
  printf("sum=%lld started=%d\n", sum, started);
  return 0;
}
