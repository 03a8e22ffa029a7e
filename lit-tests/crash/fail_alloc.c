//===- fail_alloc.c - ompdp's own allocations fail ------------------------===//
//
// REQUIRES: threads
//
// The runtime's N-th allocation fails (--option test_fail_alloc=N: malloc,
// calloc, realloc, aligned_alloc, strdup, mmap and the stdio streams it
// opens, counted through -Wl,--wrap, rt/alloc_linux.c), for N from 1 to 15
// (start-up) and %stress-runs more up to the number the runtime makes, and
// from N on for good for a few N (none at all from the first: no crash log, no
// engine, no stream for the report): the program's output is byte for byte
// its output without ompdp and its exit status the same; there is always a
// report that `ompdp report` reads; a report that is not the normal one is
// partial and says in one warning "ompdp ran out of memory: " and what was
// lost (events dropped or the analysis stopped, if its counts differ); with
// N past the last allocation, the report is the normal one. Built without
// and with the compiler plugin (region tables, the planner's input and
// rewrites: more to allocate), in the default stream mode and in full mode,
// and on 4 host threads issuing `nowait` regions (Inputs/fail_alloc_threads.c,
// whose timeline varies from run to run: without one; and so does how
// much device memory its threads hold at once: --concurrent leaves the
// peak and the findings measured against it out of the comparison).
//
// A ThreadSanitizer build (feature tsan) runs only the threaded program.
// RUN: %if !tsan %{ %clang-offload -g %s -o %t %}
// RUN: %if !tsan %{ %python %S/Inputs/fail_alloc.py %ompdp %stress-runs -- %t 2>%t.err | FileCheck %s %}
// RUN: %if plugin && !tsan %{ %clang-ompdp %s -o %t.plugin %}
// RUN: %if plugin && !tsan %{ %python %S/Inputs/fail_alloc.py %ompdp %stress-runs -- %t.plugin 2>%t.err | FileCheck %s %}
// RUN: %if plugin && !tsan %{ %python %S/Inputs/fail_alloc.py %ompdp 10 --option mode=full -- %t.plugin 2>%t.err | FileCheck %s %}
// RUN: %clang-offload -g %S/Inputs/fail_alloc_threads.c -o %t.threads
// RUN: %python %S/Inputs/fail_alloc.py %ompdp --concurrent 5 --option timeline=off -- %t.threads 2>%t.err | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

// CHECK: runs with an allocation of ompdp failing: the program's output and exit status unchanged, a report every time, and each report that differs says ompdp ran out of memory

#define N 256

int main(void) {
  static int a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int r = 0; r < 4; ++r) {
#pragma omp target map(to : a) map(tofrom : b)
    for (int i = 0; i < N; ++i)
      b[i] += a[i];
  }
  long s = 0;
  for (int i = 0; i < N; ++i)
    s += b[i];
  printf("sum=%ld\n", s);
  return 3;
}
