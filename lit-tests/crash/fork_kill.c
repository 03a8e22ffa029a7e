//===- fork_kill.c - a forked child and its parent both die by SIGKILL ----===//
//
// REQUIRES: threads
//
// The parent sends `a` twice, then forks; the child sends `b` twice and
// kills itself with SIGKILL; the parent waits for it, sends `a` twice more
// and kills itself too. The child inherits the mappings of its parent's
// event log, and must not write into it: before fork() returns it copies
// them into an event log of its own (rt/shm_linux.c). `ompdp run` rebuilds
// both reports from the two logs: the parent's with its 8 transfers and
// not the child's, the child's with the 4 it made after the fork, said to
// be a child's.
//
// RUN: %clang-offload -g %s -o %t
// RUN: sh -c '%ompdp run -- %t; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s < %t.err
//===----------------------------------------------------------------------===//
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define N 100

// OUT: child: 19803
// OUT-NEXT: parent: 9901 child killed by 9
// OUT-NEXT: rc=137

// CHECK: ompdp: the program was killed by signal 9 (Killed) before it could write its report; ompdp rebuilt its report from the event log it kept (28 events: every operation that completed), and it is partial
// CHECK: === ompdp report ===
// CHECK: exit status: 137
// CHECK: observed: 8 transfers ({{.*}}), 8 allocations, 4 kernels, 8 deletes
// CHECK-NOT: is a child
// CHECK: ompdp: 2 processes wrote reports; those of the others follow
// CHECK: ompdp: process {{[0-9]+}} ended without writing its report; ompdp rebuilt its report from the event log it kept (14 events: every operation that completed), and it is partial
// CHECK: === ompdp report ===
// CHECK: observed: 4 transfers ({{.*}}), 4 allocations, 2 kernels, 4 deletes
// CHECK: warning: process {{[0-9]+}} is a child that process {{[0-9]+}} forked: this report covers only what it did after the fork

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
    fflush(stdout);
    raise(SIGKILL);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  x = send_twice(a, 0);
  printf("parent: %d child killed by %d\n", x, WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  fflush(stdout);
  raise(SIGKILL);
}
