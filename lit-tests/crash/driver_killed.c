//===- driver_killed.c - SIGKILL of `ompdp run` itself --------------------===//
//
// A terminal that closes, or a job scheduler that kills the launcher, kills
// `ompdp run` and not the program, which runs on to its end. Here the
// program kills its parent, `ompdp run`, with SIGKILL after its first
// construct, waits until it is gone, and goes on. Its runtime finds that
// ompdp run is gone (the lock on the file `run` in ompdp run's directory
// is free) and writes the finished report itself where ompdp run would
// have: -o FILE (in text and in JSON, with the exit status and rewrites
// as ompdp run's; a relative FILE is ompdp run's, even when the program
// changed its directory), or the program's stderr without -o; and leaves
// nothing behind in the run directory ($OMPDP_RUN_DIR, this test's own).
//
// With --format=html, which the runtime does not write, the report stays
// in the run directory; the next `ompdp run` says that it waits, `ompdp
// recover` lists it and `ompdp recover --all`, run from another directory,
// writes the page where -o said. When the program dies too (SIGKILL) after
// ompdp run, its event log stays, and `ompdp recover -o FILE DIR` rebuilds
// the report from it, marked partial, into FILE. Negative: an ompdp run
// that is not killed leaves nothing, and nothing is said; what
// is not a run directory, and a bad command line, are refused.
//
// RUN: %clang-offload -g %s -o %t
// RUN: rm -rf %t.shm %t.d && mkdir %t.shm %t.d
// RUN: cd %t.d && env OMPDP_RUN_DIR=%t.shm not --crash %ompdp run -o r.txt -- %t kill-chdir > %t.d/out.txt 2> %t.d/err.txt
// RUN: %python %S/../mpi/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: FileCheck %s --check-prefix=TEXT < %t.d/r.txt
// RUN: FileCheck %s --check-prefix=OUT < %t.d/out.txt
// RUN: FileCheck %s --check-prefix=LANDED < %t.d/err.txt
// RUN: %python -c "import os; print(os.listdir('%t.shm'))" | FileCheck %s --check-prefix=EMPTY
//
// RUN: env OMPDP_RUN_DIR=%t.shm not --crash %ompdp run --format=json -o %t.d/r.%%p.json -- %t kill > %t.d/out.txt 2> %t.d/err.txt
// RUN: %python %S/../mpi/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: %ompdp report --format=json %t.d/r.*.json | FileCheck %s --check-prefix=JSON
// RUN: %python -c "import os; print(os.listdir('%t.shm'))" | FileCheck %s --check-prefix=EMPTY
//
// RUN: env OMPDP_RUN_DIR=%t.shm not --crash %ompdp run -- %t kill > %t.d/out.txt 2> %t.d/err.txt
// RUN: %python %S/../mpi/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: FileCheck %s --check-prefix=STDERR < %t.d/err.txt
//
// RUN: cd %t.d && env OMPDP_RUN_DIR=%t.shm not --crash %ompdp run --format=html -o r.html -- %t kill > %t.d/out.txt 2> %t.d/err.txt
// RUN: %python %S/../mpi/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: FileCheck %s --check-prefix=KEPT < %t.d/err.txt
// RUN: test ! -e %t.d/r.html
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp run -- true 2>&1 | FileCheck %s --check-prefix=NOTICE
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp recover | FileCheck %s --check-prefix=LIST
// RUN: cd %t.shm && env OMPDP_RUN_DIR=%t.shm %ompdp recover --all
// RUN: grep -c "ompdp-data" %t.d/r.html
// RUN: %python -c "import os; print(os.listdir('%t.shm'))" | FileCheck %s --check-prefix=EMPTY
//
// RUN: env OMPDP_RUN_DIR=%t.shm not --crash %ompdp run -o %t.d/died.txt -- %t kill-die > %t.d/out.txt 2> %t.d/err.txt
// RUN: %python %S/../mpi/Inputs/wait_for_run.py %t.shm | FileCheck %s --check-prefix=GONE
// RUN: test ! -e %t.d/died.txt
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp recover | FileCheck %s --check-prefix=LIST-DIED
// RUN: %python -c "import glob; print(glob.glob('%t.shm/ompdp.*')[0])" > %t.d/dir.txt
// RUN: env OMPDP_RUN_DIR=%t.shm %python -c "import subprocess; subprocess.run(['%ompdp', 'recover', '-o', '%t.d/here.txt', open('%t.d/dir.txt').read().strip()], check=True)" 2> %t.d/recover.err
// RUN: FileCheck %s --check-prefix=RECOVERED-ERR < %t.d/recover.err
// RUN: FileCheck %s --check-prefix=DIED < %t.d/here.txt
// RUN: test ! -e %t.d/died.txt
// RUN: %python -c "import os; print(os.listdir('%t.shm'))" | FileCheck %s --check-prefix=EMPTY
//
// Negative: not killed, nothing is left and nothing said.
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp run -o %t.d/fine.txt -- %t > %t.d/out.txt 2> %t.d/err.txt
// RUN: FileCheck %s --check-prefix=FINE-ERR --allow-empty < %t.d/err.txt
// RUN: %python -c "import os; print(os.listdir('%t.shm'))" | FileCheck %s --check-prefix=EMPTY
// RUN: env OMPDP_RUN_DIR=%t.shm %ompdp recover | FileCheck %s --check-prefix=NONE
// RUN: not %ompdp recover %t.d 2>&1 | FileCheck %s --check-prefix=NOTDIR
// RUN: not %ompdp recover -o x.txt 2>&1 | FileCheck %s --check-prefix=ONEDIR
// RUN: not %ompdp recover --frobnicate 2>&1 | FileCheck %s --check-prefix=BADFLAG
//===----------------------------------------------------------------------===//
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

// GONE: gone
// EMPTY: []
// OUT: a[0]=3
// TEXT: === ompdp report ===
// TEXT: exit status: 0
// TEXT: round_trip
// LANDED: ompdp: ompdp run is gone (killed?): the runtime wrote the report of process {{[0-9]+}} to {{.*}}r.txt
// JSON: "exit_status": 0,
// JSON: "kind": "round_trip",
// JSON-NOT: "plan"
// STDERR: === ompdp report ===
// STDERR: exit status: 0
// KEPT: ompdp: ompdp run is gone (killed?): the report of process {{[0-9]+}} is kept in {{.*}}.shm/ompdp.{{.*}}; 'ompdp recover {{.*}}' writes it where ompdp run would have
// NOTICE: ompdp: 1 earlier run of ompdp run was killed before printing its report ({{.*}} MiB in {{.*}}.shm): 'ompdp recover' lists them and writes them
// LIST: {{.*}}.shm/ompdp.{{.*}}: ompdp run of {{.*}} (process {{[0-9]+}}) was killed; {{.*}}; reports go to {{.*}}r.html
// LIST-NEXT: process {{[0-9]+}}: its report (report.{{[0-9]+}}.json)
// LIST: 'ompdp recover --all' writes them
// LIST-DIED: process {{[0-9]+}}: an event log (rebuilt into a report)
// RECOVERED-ERR: ompdp: ompdp run was killed, and the program ended without writing its report; ompdp rebuilt its report from the event log it kept
// DIED: exit status: unknown
// DIED: partial: rebuilt by ompdp run from the event log it kept
// DIED: round_trip
// FINE-ERR-NOT: ompdp
// NONE: no run of ompdp run was killed with reports left behind
// NOTDIR: ompdp: {{.*}}.d is not the directory of an ompdp run
// ONEDIR: ompdp: -o names one report: give the directory it comes from
// BADFLAG: ompdp: unknown option '--frobnicate' (see 'ompdp recover --help')

static int a[1024];

int main(int argc, char **argv) {
  int kill_parent = argc > 1;
  int move = argc > 1 && !strcmp(argv[1], "kill-chdir");
  for (int step = 0; step < 3; ++step) {
#pragma omp target map(tofrom : a)
    a[0] += 1;
    if (step == 0 && kill_parent) {
      pid_t parent = getppid();
      kill(parent, SIGKILL);
      for (int waited = 0; waited < 3000 && getppid() == parent; ++waited) {
        struct timespec ts = {0, 10000000};
        nanosleep(&ts, NULL);
      }
      if (move && chdir("/"))
        return 1;
    }
  }
  if (argc > 1 && !strcmp(argv[1], "kill-die"))
    raise(SIGKILL);
  printf("a[0]=%d\n", a[0]);
  return 0;
}
