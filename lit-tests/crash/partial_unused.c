//===- partial_unused.c - a crash's report counts only what it proves ------===//
//
// The program maps `p` and frees it with no kernel in between (unused, and
// proved: both ends completed), sends `b` twice with no kernel in between
// (the first copy overwritten unread: proved), then runs a kernel that
// reads `a`, then maps `c` and keeps it. With `kernel`, that kernel dies
// inside its body (SIGSEGV on host offload); with `host`, the program
// aborts after mapping `c`. The report, rebuilt from the event log by
// `ompdp run` (and, the runtime alone, written from its signal handler),
// calls unused only what the events prove: `p`'s allocation and `b`'s
// first copy. `a`'s allocation and copy are not unused (their kernel began
// and never ended: it may have read them), nor is `c`'s mapping (alive at
// the death: the process might have used it next); before, both were, and
// the saving counted them. The run that does not crash (the negative case)
// decides what a completed run decides: `c` was never used.
//
// RUN: rm -f %t.*.json && %clang-offload -g %s -o %t
// RUN: sh -c '%ompdp run --format=json -o %t.kernel.json -- %t kernel; echo "rc=$?"' | FileCheck %s --check-prefix=RC139
// RUN: %python %S/Inputs/unused_findings.py %t.kernel.json | FileCheck %s --check-prefix=CRASH
// RUN: %ompdp report %t.kernel.json | FileCheck %s --check-prefix=WORDS
// RUN: sh -c 'OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.direct.json" %t kernel; echo "rc=$?"' | FileCheck %s --check-prefix=RC139
// RUN: %python %S/Inputs/unused_findings.py %t.direct.json | FileCheck %s --check-prefix=CRASH
// RUN: sh -c '%ompdp run --format=json -o %t.host.json -- %t host; echo "rc=$?"' | FileCheck %s --check-prefix=RC134
// RUN: %python %S/Inputs/unused_findings.py %t.host.json | FileCheck %s --check-prefix=CRASH
// RUN: %ompdp run --format=json -o %t.done.json -- %t
// RUN: %python %S/Inputs/unused_findings.py %t.done.json | FileCheck %s --check-prefix=DONE
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096

static double a[N], b[N], c[N], p[N];

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = c[i] = p[i] = i;
#pragma omp target enter data map(to: p)
#pragma omp target exit data map(release: p)
#pragma omp target enter data map(alloc: b)
#pragma omp target update to(b)
  b[0] = 1;
#pragma omp target update to(b)
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    b[i] *= 2;
#pragma omp target exit data map(from: b)
  double s = 0;
  int die = !strcmp(how, "kernel");
#pragma omp target map(to: a) map(tofrom: s)
  {
    for (int i = 0; i < N; ++i)
      s += a[i];
    if (die)
      *(volatile int *)(unsigned long)(s < 0) = 0; /* s >= 0: a null pointer */
  }
#pragma omp target enter data map(to: c)
  if (!strcmp(how, "host"))
    abort();
  printf("s=%g b=%g\n", s, b[1]);
  return 0;
}

// RC139: rc=139
// RC134: rc=134

// CRASH: partial
// CRASH-DAG: unused_alloc p
// CRASH-DAG: unused_transfer b
// CRASH-NOT: {{unused_(alloc|transfer) [ac]$}}
// CRASH: saving ok

// WORDS: warning: unused allocations and unused transfers are only those the event log proves (freed, or overwritten, with no kernel in between): a mapping still alive at the death, or one a kernel in flight could read, is not called unused

// DONE: complete
// DONE-DAG: unused_alloc p
// DONE-DAG: unused_transfer b
// DONE-DAG: unused_alloc c
// DONE-DAG: unused_transfer c
// DONE-NOT: {{unused_(alloc|transfer) a$}}
// DONE: saving ok
