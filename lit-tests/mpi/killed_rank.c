//===- killed_rank.c - a rank killed by SIGKILL, and a rank with no report -===//
//
// REQUIRES: mpi
//
// Three ranks send `a` unchanged in each of 4 steps (3 duplicate transfers
// each). Rank 1 then waits until the other two have written their reports
// and its own journal holds every event, and kills itself with SIGKILL:
// mpirun ends with a failure, and rank 1's `ompdp run` recovers its report
// from the journal, marked partial. The merge has all three ranks and says
// that rank 1 is partial, with the journal's reason; the finding counts
// what rank 1 did before it died. With the journal off, rank 1 leaves
// nothing: the merge of the other two says that rank 1 of 3 is missing,
// in one line on stderr and in the report (JSON, text and SARIF).
//
// RUN: %clang-offload -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: not %mpirun -np 3 %ompdp run --option crash_log_mb=0 --option journal_ms=50 --format=json -o %t.d/report.%r.json -- %t %t.d > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=ERR < %t.err
// RUN: FileCheck %s --check-prefix=RANK1 < %t.d/report.1.json
// RUN: %ompdp merge -o %t.d/merged.json %t.d/report.*.json 2> %t.merge.err
// RUN: FileCheck %s --check-prefix=MERGE-ERR < %t.merge.err
// RUN: FileCheck %s --check-prefix=JSON < %t.d/merged.json
// RUN: %ompdp report %t.d/merged.json | FileCheck %s --check-prefix=TEXT
//
// RUN: rm -rf %t.e && mkdir %t.e
// RUN: not %mpirun -np 3 %ompdp run --option crash_log_mb=0 --option journal_ms=0 --format=json -o %t.e/report.%r.json -- %t %t.e > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=NOJOURNAL < %t.err
// RUN: test ! -e %t.e/report.1.json
// RUN: %ompdp merge -o %t.e/merged.json %t.e/report.*.json 2> %t.merge.err
// RUN: FileCheck %s --check-prefix=MISSING-ERR < %t.merge.err
// RUN: FileCheck %s --check-prefix=MISSING < %t.e/merged.json
// RUN: %ompdp report %t.e/merged.json | FileCheck %s --check-prefix=MISSING-TEXT
// RUN: %ompdp report --format=sarif %t.e/merged.json | FileCheck %s --check-prefix=MISSING-SARIF
//
// With the default options (the event log in shared memory), rank 1's
// `ompdp run` rebuilds its report from the event log, and the report says
// which rank it was (DEFAULT): the merge has the three ranks.
//
// In a teardown, four ranks run with the default options; rank 1 kills
// itself while the others still run, and mpirun tears the job down: it
// ends the other ranks (SIGTERM, then SIGKILL), their `ompdp run`s included, so some may
// be killed before they rebuilt their program's report, or before they
// passed SIGTERM on (such a program runs on to its end, and its runtime
// writes its report where -o said). `ompdp recover --all` (in
// $OMPDP_RUN_DIR, this test's own) writes what the killed ones left, each
// report with its rank; the merge has all four ranks, rank 1 rebuilt from
// its event log.
//
// RUN: rm -rf %t.f && mkdir %t.f
// RUN: not %mpirun -np 3 %ompdp run --format=json -o %t.f/report.%r.json -- %t %t.f > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=DEFAULT-ERR < %t.err
// RUN: FileCheck %s --check-prefix=FROM-LOG < %t.f/report.1.json
// RUN: %ompdp merge -o %t.f/merged.json %t.f/report.*.json 2>&1 | FileCheck %s --check-prefix=DEFAULT-MERGE
//
// RUN: rm -rf %t.g %t.shm && mkdir %t.g %t.shm
// RUN: env OMPDP_RUN_DIR=%t.shm not %mpirun -np 4 %ompdp run --format=json -o %t.g/report.%r.json -- %t teardown > %t.out 2> %t.err
// RUN: %python %S/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp recover --all
// RUN: %python -c "import os; print(os.listdir('%t.shm'))" | FileCheck %s --check-prefix=EMPTY
// RUN: FileCheck %s --check-prefix=FROM-LOG < %t.g/report.1.json
// RUN: %ompdp merge -o %t.g/merged.json %t.g/report.0.json %t.g/report.1.json %t.g/report.2.json %t.g/report.3.json 2> %t.merge.err
// RUN: FileCheck %s --check-prefix=TEARDOWN-MERGE < %t.merge.err
// RUN: FileCheck %s --check-prefix=TEARDOWN < %t.g/merged.json
//===----------------------------------------------------------------------===//
#include "../faults/Inputs/journal_wait.h"

#include <omp.h>
#include <signal.h>

// ERR: ompdp: the program was killed by signal 9 (Killed) before it could write its report; its report is recovered from the journal flushed at {{[0-9:]+}} (5 events) and is partial
// RANK1: "process": {"rank": 1, "size": 3,
// RANK1: "partial": true,
// RANK1-NEXT: "recovered": {"reason": "the program was killed by signal 9 (Killed) before it could write its report",

// MERGE-ERR: ompdp: merged 3 of 3 ranks; partial: 1
// JSON: "exit_status": null,
// JSON: "merged": [0, 1, 2], "partial": [1], "missing": [],
// JSON: {"rank": 1, "status": "recovered", "file": "{{.*}}report.1.json", {{.*}} "devices": [1], "exit_status": 137,
// JSON: "duplicate_transfers": 9,
// JSON: "partial": true,
// JSON: "warnings": [
// JSON-NEXT: "rank 1: partial: recovered from the journal flushed at {{.*}} UTC (5 events); what happened after it is lost: the program was killed by signal 9 (Killed) before it could write its report"
// JSON: "kind": "duplicate_transfer",
// JSON-NEXT: "count": 9,
// JSON: "devices": [0, 1, 2],
// JSON: "spread": {"ranks": [0, 1, 2], "count": {"min": 3, "median": 3, "max": 3},
// TEXT: ranks: 3 of 3 merged (0-2) from openmpi job {{[0-9]+}}; partial: 1
// TEXT: rank 1: recovered host={{.*}} devices=1 exit=137
// TEXT: warning: this report is incomplete
// TEXT: warning: rank 1: partial: recovered from the journal

// NOJOURNAL: ompdp: no report: {{.*}} was killed by signal 9 (Killed), which no program can catch, before ompdp could write one, and the event log and the journal were off (crash_log_mb=0, journal_ms=0)
// MISSING-ERR: ompdp: merged 2 of 3 ranks; missing: 1
// MISSING: "merged": [0, 2], "partial": [], "missing": [1],
// MISSING: {"rank": 1, "status": "missing", "file": null,
// MISSING: "rank 1 of 3 is missing: no report or journal of it was merged"
// MISSING: "count": 6,
// MISSING: "spread": {"ranks": [0, 2],
// MISSING-TEXT: ranks: 2 of 3 merged (0,2) from openmpi job {{[0-9]+}}; missing: 1
// MISSING-TEXT: rank 1: missing (no report or journal)
// MISSING-TEXT: warning: rank 1 of 3 is missing
// MISSING-SARIF: {"level": "warning", "message": {"text": "rank 1 of 3 is missing: no report or journal of it was merged"}}

// DEFAULT-ERR: ompdp: the program was killed by signal 9 (Killed) before it could write its report; ompdp rebuilt its report from the event log it kept
// FROM-LOG: "process": {"rank": 1, "size": {{[34]}},
// FROM-LOG: "partial": true,
// FROM-LOG: "source": "event_log"
// DEFAULT-MERGE: ompdp: merged 3 of 3 ranks; partial: 1{{$}}
// GONE: gone
// EMPTY: []
// TEARDOWN-MERGE: ompdp: merged 4 of 4 ranks; partial: {{.*}}
// TEARDOWN-MERGE-NOT: missing
// TEARDOWN: "merged": [0, 1, 2, 3], "partial": [{{.*}}1{{.*}}], "missing": [],
// TEARDOWN: {"rank": 1, "status": "recovered", {{.*}} "exit_status": 137,
// TEARDOWN: "kind": "duplicate_transfer",

static int a[1024];

// Up to 30 s for another rank's report or this rank's journal.
static void wait_for(const char *path, const char *want) { wait_for_line(path, want, 30000); }

// Nothing to wait for when the journal is off, or not written (the event
// log is on: it holds every event).
static void wait_for_rank_journal(const char *events) {
  const char *opts = getenv("OMPDP_OPTIONS");
  char path[4096];
  if (!opts || strstr(opts, "journal_ms=0") || !strstr(opts, "crash_log_mb=0") ||
      journal_path(path, sizeof(path)))
    return;
  wait_for(path, events);
}

int main(int argc, char **argv) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  int rank = r ? atoi(r) : 0;
  int dev = rank % omp_get_num_devices();
  for (int i = 0; i < 1024; ++i)
    a[i] = i + 1;
#pragma omp target enter data map(alloc : a) device(dev)
  for (int step = 0; step < 4; ++step) {
#pragma omp target update to(a) device(dev)
  }
  if (argc > 1 && !strcmp(argv[1], "teardown")) {
    if (rank == 1)
      raise(SIGKILL);
    nap(3000); // ended by mpirun (or, its ompdp run killed first, on its own)
  } else if (rank == 1 && argc > 1) {
    char path[4096];
    for (int other = 0; other < 3; other += 2) {
      snprintf(path, sizeof(path), "%s/report.%d.json", argv[1], other);
      wait_for(path, NULL);
    }
    wait_for_rank_journal(" events=5 ");
    raise(SIGKILL);
  }
#pragma omp target exit data map(delete : a) device(dev)
  return 0;
}
