//===- crash_log_cap.c - the journal takes over when the event log stops ---===//
//
// REQUIRES: threads
//
// Under `ompdp run` the event log in shared memory keeps every event, so
// the runtime saves no journal and starts no thread for one while the log
// grows: a short run analyses its few events at exit (the program below,
// 5 updates, starts no thread: THREADS). When the log stops
// growing (here crash_log_mb=1, reached after some 40,000 of 60,000
// updates), the consumer thread starts with the next chunk and the journal
// saves what the log no longer holds: killed by SIGKILL after the journal
// holds every event, the program's report is recovered from the journal,
// with every duplicate transfer (JOURNAL). The runtime loaded without
// `ompdp run` keeps no such log, and starts the journal's thread at the
// first event (DIRECT). (One thread, or two where ThreadSanitizer starts its
// own with the first: its background thread.)
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --option journal_ms=50 -o %t.short.txt -- %t 5 | FileCheck %s --check-prefix=THREADS
// RUN: sh -c '%ompdp run --option crash_log_mb=1 --option journal_ms=50 --format=json -o %t.json -- %t 60000 kill; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC137 < %t.out
// RUN: FileCheck %s --check-prefix=JOURNAL < %t.err
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="output=%t.direct.txt journal_ms=50" %t 5 | FileCheck %s --check-prefix=DIRECT
//
// THREADS: 5 updates; threads started: 0
// RC137: 60000 updates; threads started: {{[12]$}}
// RC137: rc=137
// JOURNAL: ompdp: the program was killed by signal 9 (Killed) before it could write its report; its report is recovered from the journal flushed at {{[0-9:]+}} (60002 events) and is partial
// JSON: "exit_status": 137,
// JSON: "duplicate_transfers": 60000,
// JSON: "partial": true,
// DIRECT: 5 updates; threads started: {{[12]$}}
//===----------------------------------------------------------------------===//
#include "Inputs/journal_wait.h"

#include <dirent.h>
#include <signal.h>

static int a[256];

static int threads(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

int main(int argc, char **argv) {
  int before = threads(); // a sanitizer's own thread included
  long rounds = argc > 1 ? atol(argv[1]) : 5;
  for (int i = 0; i < 256; ++i)
    a[i] = i + 1;
#pragma omp target enter data map(to : a)
  for (long r = 0; r < rounds; ++r) {
#pragma omp target update to(a)
  }
  nap(200); // four journal intervals
  printf("%ld updates; threads started: %d\n", rounds, threads() - before);
  fflush(stdout);
  if (argc > 2 && !strcmp(argv[2], "kill")) {
    wait_for_journal(rounds + 2);
    raise(SIGKILL);
  }
#pragma omp target exit data map(release : a)
  return 0;
}
