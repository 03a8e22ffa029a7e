//===- exit_status.c - the report survives how the program ends -----------===//
//
// The program sends `a` twice (1 duplicate), then ends in one of three ways.
// RET3, main returns 3: `ompdp run` exits 3, and the full report is printed
// with that status.
// THREAD, exit(4) called from a worker thread while the initial thread waits
// at a barrier: the report is printed, the status is 4.
// ABORT, abort(): the report written from the signal handler is printed,
// and ompdp dies by SIGABRT too (the shell sees 134 = 128 + 6).
//
// RUN: %clang-offload -g -DRET3 %s -o %t.ret3
// RUN: not %ompdp run -- %t.ret3 2>&1 | FileCheck %s --check-prefixes=CHECK,RET3
// RUN: sh -c '%ompdp run -- %t.ret3 2>/dev/null; echo "rc=$?"' | FileCheck %s --check-prefix=RC3
// RUN: %clang-offload -g -DTHREAD %s -o %t.thread
// RUN: not %ompdp run -- %t.thread 2>&1 | FileCheck %s --check-prefixes=CHECK,THREAD
// RUN: sh -c '%ompdp run -- %t.thread 2>/dev/null; echo "rc=$?"' | FileCheck %s --check-prefix=RC4
// RUN: %clang-offload -g -DABORT %s -o %t.abort
// RUN: not --crash %ompdp run -- %t.abort 2>&1 | FileCheck %s --check-prefixes=CHECK,ABORT
// RUN: not --crash %ompdp run --format=json -- %t.abort 2>&1 | FileCheck %s --check-prefix=ABORT-JSON
// RUN: sh -c '%ompdp run -- %t.abort 2>/dev/null; echo "rc=$?"' | FileCheck %s --check-prefix=RC134
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <omp.h>
#include <stdlib.h>

#define N 100

// CHECK: sent twice
// CHECK: === ompdp report ===
// RET3: exit status: 3
// THREAD: exit status: 4
// ABORT: exit status: 134
// CHECK: summary: duplicate_transfers=1 round_trips=0 repeated_allocs=1
// ABORT: warning: this report is incomplete
// CHECK: duplicate_transfer {{.*}}exit_status.c:[[@LINE+17]]:1 in main count=1 bytes=400 B
// RET3-NOT: incomplete
// THREAD-NOT: incomplete

// ABORT-JSON: "exit_status": 134,
// ABORT-JSON: "duplicate_transfers": 1,
// ABORT-JSON: "partial": true,

// RC3: rc=3
// RC4: rc=4
// RC134: rc=134

int main(void) {
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
#if defined(RET3)
  return 3;
#elif defined(THREAD)
#pragma omp parallel num_threads(2)
  {
    if (omp_get_thread_num() == 1)
      exit(4);
#pragma omp barrier
  }
  return 0;
#else
  abort();
#endif
}
