//===- sigkill_reused.c - SIGKILL after the event log reused its blocks -----===//
//
// REQUIRES: threads
//
// Under `ompdp run` a block of the event log whose records the analysis has
// read is copied to the end of the file, and its pages take a later chunk
// (rt/shm_linux.c): the file then holds a chunk twice (the copy, and the
// block until it is reused), and a reused block holds the earlier chunk's
// records past its count (include/ompdp/crashlog.h). One thread makes 60,000
// pairs of 8-byte updates (120,004 data operations, 22 chunks of the log):
//
// - ending normally, the runtime says (verbose=1) that blocks were copied
//   and their pages taken by later chunks;
// - killed by SIGKILL at a random completion, inside the counting tool in
//   front of ompdp (Inputs/count_through.c, 6 runs): the report that `ompdp
//   run` rebuilds from the file counts exactly what the counting tool
//   counted, and no record of the file is unreadable (crash_counts.py
//   fails on that warning): a copy read twice, or an earlier chunk's
//   records read past a reused block's count, would show as either;
// - killed at the 110,000th completion (past the first reuse), the same,
//   and the JSON says 110,000 events.
//
// RUN: rm -f %t.json && %clang-offload -g -I%omp-tools-include %s %S/Inputs/count_through.c -ldl -o %t
// RUN: %ompdp run --option verbose=1 -o %t.txt -- %t 2>&1 | FileCheck %s --check-prefix=REUSED
// RUN: %python %S/Inputs/crash_counts.py %ompdp 6 KILL tool -- %t | FileCheck %s --check-prefix=TOOL
// RUN: env COUNT_CRASH_AT=110000 sh -c '%ompdp run --format=json -o %t.json -- %t; echo "rc=$?"' | FileCheck %s --check-prefix=RC
// RUN: FileCheck %s --check-prefix=JSON < %t.json
//===----------------------------------------------------------------------===//
#include <stdio.h>

// REUSED: ompdp: crash log: {{.*}}; {{[1-9][0-9]*}} event blocks copied to its end, their pages taken {{[1-9][0-9]*}} times by later chunks
// TOOL: 6 runs died by SIGKILL (tool): every report's counts equal the counting tool's
// RC: started
// RC-NEXT: rc=137
// JSON: "exit_status": 137,
// JSON-NOT: unreadable
// JSON: "recovered": {"reason": "the program was killed by signal 9 (Killed) before it could write its report", "flushed_at_ns": {{[0-9]+}}, "events": 110000, "source": "event_log"},
// JSON-NOT: unreadable

#define ITERS 60000

int main(void) {
  long x = 0, sum = 0;
#pragma omp target enter data map(to : x)
  printf("started\n");
  fflush(stdout);
  for (long i = 0; i < ITERS; ++i) {
    x = i;
#pragma omp target update to(x)
#pragma omp target update from(x)
    sum += x;
  }
#pragma omp target exit data map(delete : x)
  printf("sum=%ld\n", sum);
  return 0;
}
