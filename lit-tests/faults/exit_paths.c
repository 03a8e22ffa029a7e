//===- exit_paths.c - every way the program can end keeps its status ------===//
//
// REQUIRES: threads
//
// The program sends `a` twice (1 duplicate transfer), then ends the way
// argv[1] says. Whatever the way, `ompdp run` exits with the program's own
// status (or dies by its signal: the shell sees 128+N) and prints the report
// gathered so far; a report written from a signal handler is marked partial.
// The ways: "ret3" returns 3 from main; "thread" calls exit(4) from a worker
// thread while the initial thread waits at a barrier; "abort"; "segv" writes
// through a null pointer; "wait" writes its pid into a file and waits for a
// signal: SIGTERM or SIGINT sent to the program, SIGTERM sent to `ompdp run`
// (which passes it on), or SIGKILL, which cannot be caught: `ompdp run`
// rebuilds the report from the event log the runtime kept in shared memory
// (lit-tests/crash/); with that log and the journal both off
// (crash_log_mb=0 journal_ms=0) no report, a clear reason, and the status
// is still the program's (sigkill_journal.c: what the journal recovers).
// Under `ompdp run` every report of a death comes from that event log.
// The runtime alone (no driver) keeps the status and writes its report too.
//
// RUN: %clang-offload -g %s -o %t
//
// RUN: sh -c '%ompdp run -- %t ret3; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=CHECK,FULL,RET3,RC3
// RUN: sh -c '%ompdp run -- %t thread; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=CHECK,FULL,THREAD,RC4
// RUN: sh -c '%ompdp run -- %t abort; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=CHECK,PARTIAL,ABORT,RC134
// RUN: sh -c '%ompdp run -- %t segv; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=CHECK,PARTIAL,SEGV,RC139
// RUN: sh -c '%ompdp run --format=json -o %t.segv.json -- %t segv; echo "rc=$?"' | FileCheck %s --check-prefix=RC139
// RUN: FileCheck %s --check-prefix=SEGV-JSON < %t.segv.json
//
// RUN: rm -f %t.pid && %python %S/Inputs/signal_run.py %t.pid TERM program -- %ompdp run -- %t wait %t.pid 2>%t.term.err | FileCheck %s --check-prefix=RC143
// RUN: FileCheck %s --check-prefixes=CHECK,PARTIAL,TERM < %t.term.err
// RUN: rm -f %t.pid && %python %S/Inputs/signal_run.py %t.pid TERM command -- %ompdp run -- %t wait %t.pid 2>%t.drv.err | FileCheck %s --check-prefix=RC143
// RUN: FileCheck %s --check-prefixes=CHECK,PARTIAL,TERM < %t.drv.err
// RUN: rm -f %t.pid && %python %S/Inputs/signal_run.py %t.pid INT program -- %ompdp run -- %t wait %t.pid 2>%t.int.err | FileCheck %s --check-prefix=RC130
// RUN: FileCheck %s --check-prefixes=CHECK,PARTIAL,INT < %t.int.err
// RUN: rm -f %t.pid && %python %S/Inputs/signal_run.py %t.pid KILL program -- %ompdp run --option journal_ms=0 -- %t wait %t.pid 2>%t.kill.err | FileCheck %s --check-prefix=RC137
// RUN: FileCheck %s --check-prefix=KILL < %t.kill.err
// RUN: FileCheck %s --check-prefixes=CHECK,PARTIAL < %t.kill.err
// RUN: rm -f %t.pid && %python %S/Inputs/signal_run.py %t.pid KILL program -- %ompdp run --option journal_ms=0 --option crash_log_mb=0 -- %t wait %t.pid 2>%t.kill.err | FileCheck %s --check-prefix=RC137
// RUN: FileCheck %s --check-prefix=KILL-ERR < %t.kill.err
//
// RUN: rm -f %t.direct.json
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.direct.json" %t segv; echo "rc=$?"' | FileCheck %s --check-prefix=RC139
// RUN: FileCheck %s --check-prefix=DIRECT-SEGV < %t.direct.json
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.direct.json" %t thread; echo "rc=$?"' | FileCheck %s --check-prefix=RC4
// RUN: FileCheck %s --check-prefix=DIRECT-THREAD < %t.direct.json
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 100

// CHECK: === ompdp report ===
// RET3: exit status: 3
// THREAD: exit status: 4
// ABORT: exit status: 134
// SEGV: exit status: 139
// TERM: exit status: 143
// INT: exit status: 130
// CHECK: duplicate_transfers=1
// FULL-NOT: incomplete
// PARTIAL: warning: this report is incomplete
// PARTIAL: warning: the program was stopped by signal
// CHECK: duplicate_transfer
// RC3: rc=3
// RC4: rc=4
// RC134: rc=134
// RC139: rc=139
// RC143: rc=143
// RC130: rc=130

// SEGV-JSON: "exit_status": 139,
// SEGV-JSON: "duplicate_transfers": 1,
// SEGV-JSON: "partial": true,

// RC137: rc=137
// KILL: ompdp: the program was killed by signal 9 (Killed) before it could write its report; ompdp rebuilt its report from the event log it kept ({{[0-9]+}} events: every operation that completed), and it is partial
// KILL: exit status: 137
// KILL-ERR: ompdp: no report: {{.*}} was killed by signal 9 (Killed), which no program can catch, before ompdp could write one, and the event log and the journal were off (crash_log_mb=0, journal_ms=0)
// KILL-ERR-NOT: === ompdp report ===

// DIRECT-SEGV: "exit_status": null,
// DIRECT-SEGV: "duplicate_transfers": 1,
// DIRECT-SEGV: "partial": true,
// DIRECT-THREAD: "duplicate_transfers": 1,
// DIRECT-THREAD: "partial": false,

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  static int a[N], r[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a) map(from : r[k:1])
    {
      r[k] = k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  printf("sent twice: %d %d\n", r[0], r[1]);
  fflush(stdout);
  if (!strcmp(how, "ret3"))
    return 3;
  if (!strcmp(how, "thread")) {
#pragma omp parallel num_threads(2)
    {
      if (omp_get_thread_num() == 1)
        exit(4);
#pragma omp barrier
    }
    return 0;
  }
  if (!strcmp(how, "abort"))
    abort();
  if (!strcmp(how, "segv")) {
    int *volatile p = NULL;
    *p = 1;
  }
  if (!strcmp(how, "wait") && argc > 2) {
    // If no signal comes, SIGALRM ends the wait (and fails the test)
    // rather than hanging it.
    alarm(60);
    char tmp[4096];
    snprintf(tmp, sizeof(tmp), "%s.tmp", argv[2]);
    FILE *f = fopen(tmp, "w");
    if (!f)
      return 9;
    fprintf(f, "%ld\n", (long)getpid());
    fclose(f);
    rename(tmp, argv[2]);
    for (;;)
      pause();
  }
  return 0;
}
