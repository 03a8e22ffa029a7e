//===- update_to_other_file.c - a reset whose kernel is in another file ===//
//
// HeCBench tqs's shape: in a `target data`, each iteration sends `cnt` and
// `hits` (0 and 7 on the host, never changed there) and `lim` with `target update
// to`, and calls a function of another file whose kernel finds them
// present, counts into `cnt` (mapped) and `hits` (a pointer it gets by
// value, as tqs's `consumed`: the compiler records that the region writes
// what it points to, `pointee-written`) and only reads `lim`. Compiling this file, the compiler sees
// no kernel write either; the run sees the kernel use their device memory,
// and that kernel's region table (its own file's) says it writes `cnt`:
// each update of `cnt` and `hits` resets the counter, a necessary copy, never advice
// to move it out of the loop (which would break the program: the second
// iteration would count on). `lim`, only read by that kernel, keeps its
// advice. Built with the plugin, both files.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-ompdp -c %s -o %t/main.o
// (-g, as ompdp asks; below, without it.)
// RUN: %clang-ompdp -g -c %S/Inputs/kernel_other_file.c -o %t/kernel.o
// RUN: %clang-ompdp %t/main.o %t/kernel.o -o %t/prog
// RUN: %ompdp run -- %t/prog > %t/report.txt 2>&1
// RUN: FileCheck %s --check-prefix=CNT < %t/report.txt
// RUN: FileCheck %s --check-prefix=LIM < %t/report.txt
// RUN: FileCheck %s --check-prefix=HITS < %t/report.txt
// RUN: %clang-ompdp -fplugin-arg-ompdp-dump -c %S/Inputs/kernel_other_file.c -o /dev/null | FileCheck %s --check-prefix=DUMP
// Without -g (tqs's Makefile, -O2): the pointer is tied to its item by its
// address computation (the region's marker takes `&hits`), no map names.
// RUN: %clang-ompdp -O2 -c %S/Inputs/kernel_other_file.c -o %t/kernel-nog.o
// RUN: %clang-ompdp %t/main.o %t/kernel-nog.o -o %t/prog-nog
// RUN: %ompdp run -- %t/prog-nog > %t/report-nog.txt 2>&1
// RUN: FileCheck %s --check-prefix=HITS < %t/report-nog.txt
// RUN: FileCheck %s --check-prefix=CNT < %t/report-nog.txt
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

void count_above(int *cnt, int *hits, const int *lim, const int *q, int n);

int main(void) {
  int n = 4096;
  int *cnt = malloc(sizeof(int)), *lim = malloc(sizeof(int)), *hits = malloc(sizeof(int));
  int *q = malloc(n * sizeof(int));
  cnt[0] = 0;
  hits[0] = 7;
  lim[0] = 100;
  long s = 0;
#pragma omp target data map(alloc: cnt[0:1], hits[0:1], lim[0:1], q[0:n])
  for (int r = 0; r < 5; ++r) {
    for (int i = 0; i < n; ++i)
      q[i] = (i * 7 + r) % 1000;
#pragma omp target update to(q[0:n])
#pragma omp target update to(cnt[0:1])
#pragma omp target update to(hits[0:1])
#pragma omp target update to(lim[0:1])
    count_above(cnt, hits, lim, q, n);
#pragma omp target update from(q[0:n])
    s += q[n - 1];
  }
  printf("s=%ld\n", s);
  free(cnt);
  free(hits);
  free(lim);
  free(q);
  return 0;
}

// CNT: variable: cnt  clause: to(cnt[0:1])
// CNT: verdict: necessary (not counted as a saving)
// CNT-NEXT: suggestion: no saving: a kernel that runs between the updates writes cnt (the run saw it use the device's copy, a kernel of another file that finds it present, and that kernel's compiler sees it write it), so each `target update to` resets the device's copy and is needed; moving it or dropping it would break the program

// HITS: variable: hits  clause: to(hits[0:1])
// HITS: verdict: necessary (not counted as a saving)
// HITS-NEXT: suggestion: no saving: a kernel that runs between the updates writes hits

// DUMP: firstprivate 'hits' {{.*}} pointee-written
// DUMP-NOT: firstprivate 'n' {{.*}} pointee-written

// LIM: variable: lim  clause: to(lim[0:1])
// LIM: verdict: advice
// LIM-NEXT: suggestion: `target update to(lim[0:1])` sends device 0 the bytes it was sent last time{{.*}}No rewrite: moving the update needs proof that no kernel changes the data between two of them
