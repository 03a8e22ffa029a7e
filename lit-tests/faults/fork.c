//===- fork.c - a program that forks gets one report per process ----------===//
//
// REQUIRES: threads
//
// The parent sends `a` twice, then forks; the child sends `b` twice and
// exits with 7. Each process sent 4 buffers with 1 duplicate. The child
// inherits the parent's event log, but its report holds only what it did
// after the fork (4 transfers, not 8) and says whose child it is; the
// parent's report is unchanged. Reports never share a file: the runtime
// alone writes the child's to <output>.<pid>, and never a second report on
// stderr; `ompdp run` prints the program's own report first, then the
// child's (with -o FILE: into FILE.<pid>).
//
// RUN: %clang-offload -g %s -o %t
// RUN: rm -f %t.json*
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.json" %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=JSON,PARENT < %t.json
// RUN: ls %t.json.* | count 1
// RUN: cat %t.json.* | FileCheck %s --check-prefixes=JSON,CHILD
// RUN: %ompdp report %t.json.* | FileCheck %s --check-prefix=CHILD-TEXT
//
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt %t 2>&1 >/dev/null | FileCheck %s --check-prefix=STDERR
//
// RUN: %ompdp run -- %t 2>&1 >/dev/null | FileCheck %s --check-prefix=DRV
// RUN: rm -f %t.drv.json*
// RUN: %ompdp run --format=json -o %t.drv.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefixes=JSON,PARENT < %t.drv.json
// RUN: cat %t.drv.json.* | FileCheck %s --check-prefixes=JSON,CHILD
// Two runs of the program from a shell: four processes, four reports, none
// written over another.
// RUN: %ompdp run -- sh -c '%t && %t' 2>&1 >/dev/null | FileCheck %s --check-prefix=TWICE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 100

// OUT-DAG: child: 19803
// OUT-DAG: parent: 9901 child status 7

// JSON: "ompdp_report_version"
// PARENT: "duplicate_transfers": 1,
// CHILD: "duplicate_transfers": 1,
// JSON: "transfers": 4,
// PARENT: "warnings": [],
// CHILD: "warnings": [
// CHILD-NEXT: "process {{[0-9]+}} is a child that process {{[0-9]+}} forked: this report covers only what it did after the fork"

// CHILD-TEXT: observed: 4 transfers
// CHILD-TEXT: warning: process {{[0-9]+}} is a child

// STDERR-COUNT-1: === ompdp report ===
// STDERR-NOT: === ompdp report ===

// DRV: === ompdp report ===
// DRV-NEXT: program: {{.*}}fork.c.tmp
// DRV-NEXT: exit status: 0
// DRV: observed: 4 transfers
// DRV-NOT: is a child
// DRV: ompdp: 2 processes wrote reports; those of the others follow
// DRV: === ompdp report ===
// DRV: observed: 4 transfers
// DRV: warning: process {{[0-9]+}} is a child
// DRV-NOT: === ompdp report ===

// TWICE: === ompdp report ===
// TWICE: ompdp: 4 processes wrote reports; those of the others follow
// TWICE-COUNT-3: === ompdp report ===
// TWICE-NOT: === ompdp report ===

static int send_twice(const int *a, int base) {
  int r[2];
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a[0:N]) map(from : r[k:1])
    {
      r[k] = base + k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  return r[0] + r[1];
}

int main(void) {
  static int a[N], b[N];
  for (int i = 0; i < N; ++i) {
    a[i] = i;
    b[i] = 2 * i;
  }
  int x = send_twice(a, 0);
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    printf("child: %d\n", send_twice(b, 1));
    exit(7);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  printf("parent: %d child status %d\n", x, WEXITSTATUS(status));
  return 0;
}
