//===- ahead_blocks.c - event blocks made ahead, and deaths among them ----===//
//
// REQUIRES: threads
//
// Under `ompdp run`, in stream mode, the consumer thread makes the crash
// log's event blocks ahead, and the program's thread takes one when its
// chunk fills instead of growing the file itself (rt/shm_linux.c,
// ompdp_shm_prepare); the blocks not taken stay in the file as SPARE
// blocks, which a reader skips (include/ompdp/crashlog.h). 100,000 updates
// of 8 bytes fill 19 chunks (the first of 680 records, the others of
// 5,461; the consumer first wakes at the eighth):
// - run to the end, the runtime says it made blocks ahead (AHEAD) and the
//   report counts every update (REPORT);
// - killed by SIGKILL at a random completion, inside the counting tool in
//   front of ompdp (Inputs/count_through.c; 20 runs), the report `ompdp
//   run` rebuilds from the file, where chunks in taken blocks lie beside
//   spare ones, counts exactly what the counting tool counted (KILL);
// - with crash_log_mb=2, where the log stops growing after some 80,000
//   updates: a block is made ahead only while the file has room for it and
//   10 more, so none is (the first wake comes at about 1 MiB: blocks made
//   ahead never take the room the program's own would have had), and the
//   report still counts every update (NOAHEAD).
//
// RUN: %clang-offload -g -I%omp-tools-include %s %S/Inputs/count_through.c -ldl -o %t
// RUN: %ompdp run --option verbose=1 -o %t.txt -- %t 2>&1 | FileCheck %s --check-prefix=AHEAD
// RUN: FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: %python %S/Inputs/crash_counts.py %ompdp %stress-runs KILL tool -- %t | FileCheck %s --check-prefix=KILL
// RUN: %ompdp run --option verbose=1 --option crash_log_mb=2 -o %t.cap.txt -- %t 2>&1 | FileCheck %s --check-prefix=NOAHEAD
// RUN: FileCheck %s --check-prefix=REPORT < %t.cap.txt
//===----------------------------------------------------------------------===//
#include <stdio.h>

// AHEAD: ompdp: time in the program: {{.*}}; beside it, crash-log blocks made ahead {{[1-9][0-9]*}} us
// AHEAD: 100000 updates
// REPORT: observed: 100001 transfers
// KILL: {{[1-9][0-9]*}} runs died by SIGKILL (tool): every report's counts equal the counting tool's
// NOAHEAD: ompdp: the crash log stopped growing (crash_log_mb reached)
// NOAHEAD: ompdp: time in the program: {{.*}}; beside it, crash-log blocks made ahead 0 us
// NOAHEAD: 100000 updates

#define UPDATES 100000

static double x;

int main(void) {
#pragma omp target enter data map(to : x)
  for (int i = 0; i < UPDATES; ++i) {
    x = i;
#pragma omp target update to(x)
  }
#pragma omp target exit data map(delete : x)
  printf("%d updates\n", UPDATES);
  return 0;
}
