//===- update_extern_fill.c - a host routine of another file fills the data ===//
//
// HeCBench tqs's host side: each iteration a routine of another file fills
// `tasks` (the same values every time, this run), then `target update to`
// sends it. The compiler of this file cannot see the routine write it, but
// it is handed the array: the equal bytes say only that the host computed
// the same values again. A repeated computation, never advice to move the
// update out of the loop (which would break the program whenever the
// routine's values change). Negatives: `lut`, sent again each iteration
// and handed only to this file's `checksum`, which reads it (the routine
// of another file in the next statement might reach it only through
// another pointer, which is no evidence): advice to move the update;
// `ro`, handed to a routine of another file that only reads it, but whose
// file has no table to say so: a repeated computation too (ompdp cannot
// tell), with the same words.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang-ompdp -g -c %s -o %t/main.o
// RUN: %clang-ompdp -g -c %S/Inputs/fill_other_file.c -o %t/fill.o
// RUN: %clang-ompdp %t/main.o %t/fill.o -o %t/prog
// RUN: %ompdp run -- %t/prog > %t/report.txt 2>&1
// RUN: FileCheck %s --check-prefix=TASKS < %t/report.txt
// RUN: FileCheck %s --check-prefix=LUT < %t/report.txt
// RUN: FileCheck %s --check-prefix=RO < %t/report.txt
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024

void fill_tasks(int *t, int n, int base);
long sum_tasks(const int *t, int n);

static long checksum(const int *t, int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += t[i];
  return s;
}

int main(void) {
  int *tasks = malloc(N * sizeof(int)), *lut = malloc(N * sizeof(int));
  int *ro = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
  for (int i = 0; i < N; ++i) {
    lut[i] = i % 5;
    ro[i] = i % 3;
  }
  long total = 0;
#pragma omp target data map(alloc: tasks[0:N], lut[0:N], ro[0:N]) map(from: out[0:N])
  {
    for (int it = 0; it < 4; ++it) {
      fill_tasks(tasks, N, 3);
#pragma omp target update to(tasks[0:N])
#pragma omp target update to(lut[0:N])
#pragma omp target update to(ro[0:N])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        out[i] = tasks[i] + lut[i] + ro[i];
      total += checksum(lut, N);
      total += sum_tasks(ro, N);
    }
  }
  printf("%ld %d\n", total, out[N - 1]);
  free(tasks);
  free(lut);
  free(ro);
  free(out);
  return 0;
}

// TASKS: variable: tasks clause: to(tasks[0:N])
// TASKS-NEXT: 3 from the same host buffer
// TASKS-NEXT: first sent at
// TASKS-NEXT: verdict: repeated_computation (not counted as a saving)
// TASKS-NEXT: suggestion: a repeated computation, as far as ompdp can tell: host code that can run between these sends may write tasks (it passes it to a function the compiler cannot see into

// LUT: variable: lut clause: to(lut[0:N])
// LUT-NEXT: 3 from the same host buffer
// LUT-NEXT: first sent at
// LUT-NEXT: verdict: advice

// RO: variable: ro clause: to(ro[0:N])
// RO-NEXT: 3 from the same host buffer
// RO-NEXT: first sent at
// RO-NEXT: verdict: repeated_computation (not counted as a saving)
