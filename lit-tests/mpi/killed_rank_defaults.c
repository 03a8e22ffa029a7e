//===- killed_rank_defaults.c - a SIGKILLed rank, with default options -----===//
//
// REQUIRES: mpi
//
// Four ranks run under `ompdp run` with its default options (the event log
// in shared memory, the journal). Rank 1 kills itself with SIGKILL while
// the others still wait for it, and mpirun tears the job down: it ends the
// other ranks (SIGTERM, then SIGKILL), their `ompdp run`s included, so some
// of them may be killed before they have rebuilt their program's report,
// or before they passed SIGTERM on: such a program runs on to its end and
// its runtime writes its report where `ompdp run -o` would have.
// Every report that exists carries its rank, the one rebuilt from rank 1's
// event log too; what a killed `ompdp run` left is found by `ompdp
// recover` (in $OMPDP_RUN_DIR, this test's own), which writes each report
// where `ompdp run -o` would have, with its rank. Then `ompdp merge` has
// all four ranks, rank 1 recovered (rebuilt from its event log).
//
// AFTER: the same with rank 1 killed once the other ranks have written
// their reports: its report, rebuilt by its `ompdp run`, has its rank, and
// the merge has three ranks, rank 1 partial.
//
// RUN: %clang-offload -g %s -o %t
// RUN: rm -rf %t.d %t.shm && mkdir %t.d %t.shm
// RUN: env OMPDP_RUN_DIR=%t.shm not %mpirun -np 4 %ompdp run --format=json -o %t.d/report.%r.json -- %t > %t.out 2> %t.err
// RUN: %python %S/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp recover --all 2> %t.recover.err
// RUN: %python -c "import glob; print(sorted(glob.glob('%t.shm/*')))" | FileCheck %s --check-prefix=EMPTY
// RUN: FileCheck %s --check-prefix=RANK1 < %t.d/report.1.json
// RUN: %ompdp merge -o %t.d/merged.json %t.d/report.0.json %t.d/report.1.json %t.d/report.2.json %t.d/report.3.json 2> %t.merge.err
// RUN: FileCheck %s --check-prefix=MERGE-ERR < %t.merge.err
// RUN: FileCheck %s --check-prefix=MERGED < %t.d/merged.json
//
// RUN: rm -rf %t.e %t.shm && mkdir %t.e %t.shm
// RUN: env OMPDP_RUN_DIR=%t.shm not %mpirun -np 3 %ompdp run --format=json -o %t.e/report.%r.json -- %t %t.e > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=AFTER-ERR < %t.err
// RUN: FileCheck %s --check-prefix=RANK1 < %t.e/report.1.json
// RUN: %ompdp merge -o %t.e/merged.json %t.e/report.0.json %t.e/report.1.json %t.e/report.2.json 2> %t.merge.err
// RUN: FileCheck %s --check-prefix=AFTER-MERGE < %t.merge.err
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

// GONE: gone
// EMPTY: []
// RANK1: "process": {"rank": 1, "size": {{[34]}},
// RANK1: "partial": true,
// RANK1: "source": "event_log"
// MERGE-ERR: ompdp: merged 4 of 4 ranks; partial: {{.*}}
// MERGE-ERR-NOT: missing
// MERGED: "merged": [0, 1, 2, 3], "partial": [{{.*}}1{{.*}}], "missing": [],
// MERGED: {"rank": 1, "status": "recovered", {{.*}} "exit_status": 137,
// MERGED: "kind": "duplicate_transfer",

// AFTER-ERR: ompdp: the program was killed by signal 9 (Killed) before it could write its report; ompdp rebuilt its report from the event log it kept
// AFTER-MERGE: ompdp: merged 3 of 3 ranks; partial: 1{{$}}

static int a[1024];

static void nap(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
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
  if (argc > 1) {
    // AFTER: rank 1 dies once the others have written their reports.
    if (rank == 1) {
      char path[4096];
      for (int other = 0; other < 3; other += 2)
        for (int waited = 0; waited < 30000; waited += 10) {
          snprintf(path, sizeof(path), "%s/report.%d.json", argv[1], other);
          if (access(path, R_OK) == 0)
            break;
          nap(10);
        }
      raise(SIGKILL);
    }
  } else if (rank == 1) {
    raise(SIGKILL);
  } else {
    nap(3000); // ended by mpirun (or, its ompdp run killed first, on its own)
  }
#pragma omp target exit data map(delete : a) device(dev)
  return 0;
}
