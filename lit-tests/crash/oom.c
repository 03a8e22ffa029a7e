//===- oom.c - a program that allocates until memory runs out -------------===//
//
// REQUIRES: threads
// UNSUPPORTED: sanitizer
//
// After its first offload the program limits its own address space
// (RLIMIT_AS, as `ulimit -v` does, to what it has mapped plus 256 MiB), then
// allocates and fills 8 MiB at a time, offloading part of each block,
// until an allocation fails; then it dies the way the kernel's OOM killer
// ends a process, by SIGKILL, at its peak of memory. The limit is the
// program's own, not `ompdp run`'s; the blocks of the runtime's event log
// are mapped into the program, so they count against it too. 3 of 3 runs:
// a report built from the event log, whose counts are the counting tool's
// (Inputs/count_through.c, written through to a file). Not under a
// sanitizer, whose runtime reserves its shadow memory in the same address
// space and does not take a limit on it well.
//
// RUN: %clang-offload -g -I%omp-tools-include %s %S/Inputs/count_through.c -ldl -o %t
// RUN: %python %S/Inputs/crash_counts.py %ompdp 3 KILL self -- %t | FileCheck %s
// RUN: sh -c '%ompdp run -- %t; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=ERR < %t.err
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

// CHECK: 3 runs died by SIGKILL (self): every report's counts equal the counting tool's
// OUT: out of memory after {{[0-9]+}} MiB
// OUT-NEXT: rc=137
// ERR: ompdp: the program was killed by signal 9 (Killed) before it could write its report; ompdp rebuilt its report from the event log it kept
// ERR: duplicate_transfer

#define BLOCK ((size_t)8 << 20)

static size_t vm_size(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  size_t kb = 0;
  while (f && fgets(line, sizeof(line), f))
    if (!strncmp(line, "VmSize:", 7))
      kb = strtoull(line + 7, NULL, 10);
  if (f)
    fclose(f);
  return kb << 10;
}

int main(void) {
  static char seed[4096];
#pragma omp target enter data map(to : seed)
  struct rlimit lim = {vm_size() + ((size_t)256 << 20), RLIM_INFINITY};
  lim.rlim_max = lim.rlim_cur;
  if (setrlimit(RLIMIT_AS, &lim)) {
    perror("setrlimit");
    return 1;
  }
  for (size_t n = 1;; ++n) {
    char *p = malloc(BLOCK);
    if (!p) {
      printf("out of memory after %zu MiB\n", (n - 1) * (BLOCK >> 20));
      fflush(stdout);
      raise(SIGKILL);
    }
    memset(p, 0x5a, BLOCK); /* touched: resident, as the OOM killer sees it */
#pragma omp target enter data map(to : p[0 : 4096])
#pragma omp target update to(p[0 : 4096])
#pragma omp target exit data map(release : p[0 : 4096])
  }
}
