//===- sigkill_journal.c - SIGKILL loses at most the last journal interval -===//
//
// REQUIRES: threads
//
// The program maps `a` once and sends it again, unchanged, in each of 5
// rounds (5 duplicate transfers, 7 events), sleeping 120 ms after each so
// that the journal (journal_ms=50) is flushed several times; after the last
// round it waits until the journal holds every event (it reads the journal
// the runtime writes: a fixed sleep is not enough on a loaded machine,
// where the tool's thread may not run for a while), and kills itself with
// SIGKILL, which no handler sees. `ompdp run` still dies by SIGKILL
// (the shell sees 137), says in one line that the report comes from the
// journal, and prints it marked partial with every finding of the events
// before the flush; in both stream and full mode. With the journal off,
// there is no report and the reason says so. The runtime alone leaves
// <report>.journal, which `ompdp report` reads; a truncated or corrupt
// journal is one line of error. _exit() leaves no report either: the
// journal stands in for it, and the status is kept. A program that ends
// normally leaves no journal behind. (`ompdp run` keeps the event log in
// shared memory instead, which loses nothing: lit-tests/crash/; here it is
// off, crash_log_mb=0, so that the journal is what `ompdp run` reads.)
//
// RUN: %clang-offload -g %s -o %t
//
// RUN: sh -c '%ompdp run --option crash_log_mb=0 --option journal_ms=50 -- %t; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC137 < %t.out
// RUN: FileCheck %s --check-prefixes=LINE,TEXT < %t.err
// RUN: sh -c '%ompdp run --option crash_log_mb=0 --option journal_ms=50 --option mode=full -- %t; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC137 < %t.out
// RUN: FileCheck %s --check-prefixes=LINE,TEXT < %t.err
// RUN: sh -c '%ompdp run --option crash_log_mb=0 --option journal_ms=50 --format=json -o %t.json -- %t; echo "rc=$?"' 2>/dev/null | FileCheck %s --check-prefix=RC137
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %ompdp report --format=sarif %t.json | FileCheck %s --check-prefix=SARIF
//
// RUN: sh -c '%ompdp run --option crash_log_mb=0 --option journal_ms=50 -- %t _exit; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC5 < %t.out
// RUN: FileCheck %s --check-prefixes=EXIT,TEXT < %t.err
// With the event log (the default under ompdp run), _exit() loses nothing:
// RUN: sh -c '%ompdp run --option journal_ms=0 -- %t _exit; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC5 < %t.out
// RUN: FileCheck %s --check-prefix=EXIT-LOG < %t.err
//
// RUN: sh -c '%ompdp run --option crash_log_mb=0 --option journal_ms=0 -- %t; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC137 < %t.out
// RUN: FileCheck %s --check-prefix=OFF < %t.err
//
// RUN: rm -f %t.direct.json %t.direct.json.journal
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.direct.json journal_ms=50" %t; echo "rc=$?"' | FileCheck %s --check-prefix=RC137
// RUN: test ! -e %t.direct.json
// RUN: %ompdp report %t.direct.json.journal | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp report --format=json %t.direct.json.journal | FileCheck %s --check-prefix=DIRECT
//
// RUN: head -c 100 %t.direct.json.journal > %t.short.journal
// RUN: not %ompdp report %t.short.journal 2>&1 | FileCheck %s --check-prefix=SHORT
// RUN: %python -c "import sys; d = bytearray(open(sys.argv[1], 'rb').read()); d[-20] ^= 1; open(sys.argv[2], 'wb').write(d)" %t.direct.json.journal %t.flip.journal
// RUN: not %ompdp report %t.flip.journal 2>&1 | FileCheck %s --check-prefix=FLIP
// RUN: printf 'ompdp-journal 2 flushed_at_ns=1 events=1 bytes=2 xxh64=0000000000000000\n{}' > %t.v2.journal
// RUN: not %ompdp report %t.v2.journal 2>&1 | FileCheck %s --check-prefix=V2
//
// RUN: rm -f %t.exit.json %t.exit.json.journal
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.exit.json journal_ms=50" %t exit
// RUN: test -e %t.exit.json && test ! -e %t.exit.json.journal
//===----------------------------------------------------------------------===//
#include "Inputs/journal_wait.h"

#include <omp.h>
#include <signal.h>

// RC137: killing myself
// RC137: rc=137
// RC5: rc=5
// EXIT-LOG: ompdp: the program ended (exit status 5) without writing its report; ompdp rebuilt its report from the event log it kept (7 events: every operation that completed), and it is partial
// EXIT-LOG: summary: duplicate_transfers=5
// EXIT: ompdp: the program ended (exit status 5) without writing its report; its report is recovered from the journal flushed at {{[0-9:]+}} (7 events) and is partial

// LINE: ompdp: the program was killed by signal 9 (Killed) before it could write its report; its report is recovered from the journal flushed at {{[0-9:]+}} (7 events) and is partial
// TEXT: === ompdp report ===
// TEXT: observed: 6 transfers ({{.*}}), 1 allocations, 0 kernels, 0 deletes
// TEXT: summary: duplicate_transfers=5
// TEXT: partial: recovered from the journal flushed at {{.*}} UTC (7 events); what happened after it is lost: {{.*}}
// TEXT: warning: this report is incomplete
// TEXT: duplicate_transfer {{.*}}sigkill_journal.c:[[#@LINE+26]]:1 in main  count=5

// JSON: "exit_status": 137,
// JSON: "duplicate_transfers": 5,
// JSON: "partial": true,
// JSON-NEXT: "recovered": {"reason": "the program was killed by signal 9 (Killed) before it could write its report", "flushed_at_ns": {{[1-9][0-9]*}}, "events": 7},
// SARIF: "toolExecutionNotifications": [{"level": "warning", "message": {"text": "this report is incomplete"}}, {"level": "warning", "message": {"text": "recovered from the journal flushed at {{[0-9-]+ [0-9:]+}} UTC (7 events); what happened after it is lost: the program was killed by signal 9 (Killed) before it could write its report"}}
// DIRECT: "exit_status": null,
// DIRECT: "partial": true,
// DIRECT-NEXT: "recovered": {"reason": "the process ended without writing its report", "flushed_at_ns": {{[1-9][0-9]*}}, "events": 7},

// OFF: ompdp: no report: {{.*}} was killed by signal 9 (Killed), which no program can catch, before ompdp could write one, and the event log and the journal were off (crash_log_mb=0, journal_ms=0)
// OFF-NOT: === ompdp report ===

// SHORT: ompdp: {{.*}}short.journal: the journal is truncated ({{[0-9]+}} of {{[0-9]+}} bytes)
// SHORT-NOT: ===
// FLIP: ompdp: {{.*}}flip.journal: the journal is corrupt (its checksum does not match)
// V2: ompdp: {{.*}}v2.journal: journal version 2 is not supported (this ompdp reads 1)

static int a[256];

int main(int argc, char **argv) {
  for (int i = 0; i < 256; ++i)
    a[i] = i + 1;
#pragma omp target enter data map(to : a)
  for (int r = 0; r < 5; ++r) {
#pragma omp target update to(a)
    nap(120);
  }
  wait_for_journal(7);
  printf("killing myself\n");
  fflush(stdout);
  if (argc > 1 && !strcmp(argv[1], "exit"))
    return 0;
  if (argc > 1 && !strcmp(argv[1], "_exit"))
    _exit(5);
  raise(SIGKILL);
  return 0;
}
