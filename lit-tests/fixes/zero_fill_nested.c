//===- zero_fill_nested.c - a zero fill where other constructs use the data -===//
//
// z is all zeros when `target data` copies it in; inside the region a
// `target update from(z[0:n])` copies it back at every step. The update only
// ever finds z as the region's allocation left it, so z is allocated and
// filled on the device before the region instead, each call with its own
// malloc'd buffer (a new host address each time). y is zero where the
// `target` construct before the region copies it in: another construct
// (the region) maps y outside that construct's allocation, but each of the
// construct's executions allocated y (the run counts them: it never found
// y present), so the fill before it finds nothing to overwrite and y is
// filled there too (its copy back stays: the kernel writes y). Applied,
// rebuilt and rerun: the same output, the transfers of z's and y's copies
// in gone, as predicted. (A construct that found its item present at some
// execution gets no fill: fill-address-reuse.c. Nor does the region's y:
// ones that the kernel before it computed and copied back.)
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

static double step(int n, double scale) {
  double *z = calloc(n, sizeof(double));
  double *y = calloc(n, sizeof(double));
  double s = 0;
#pragma omp target map(tofrom: y[0:n])
  for (int i = 0; i < n; ++i)
    y[i] += 1;
#pragma omp target data map(to: z[0:n], y[0:n])
  {
    for (int it = 0; it < 3; ++it) {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i)
        z[i] += scale * i + y[i];
#pragma omp target update from(z[0:n])
      s += z[n - 1];
    }
  }
  free(z);
  free(y);
  return s;
}

int main(void) {
  double s = step(4096, 1.0);
  s += step(2048, 0.5);
  printf("s=%.1f\n", s);
  return 0;
}

// y is zero where the `target` construct copies it in (and not after).
// REPORT-DAG: variable: y  clause: map(tofrom: y[0:n])
// REPORT-DAG: variable: z  clause: map(to: z[0:n], y[0:n])
// REPORT-DAG: rewrite (alloc_and_fill): allocate `z[0:n]` and fill it with zeros on the device before the target data construct at prog.c:{{[0-9]+}}, which then finds it present; `target exit data map(release: z[0:n])` after it
// REPORT-DAG: rewrite (alloc_and_fill): allocate `y[0:n]` and fill it with zeros on the device before the target construct at prog.c:{{[0-9]+}}, which then finds it present; `target exit data map(from: y[0:n])` after it

// APPLY: prog.c: 4 edit(s) applied

// FIXED:      {{^}}#pragma omp target enter data map(alloc: y[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target exit data map(from: y[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target enter data map(alloc: z[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: z[0:n]){{$}}
// y holds ones where the region sends it, which the `target` construct's
// kernel computed and copied back: the host's memory holds device results
// there, so no fill of them (what one run's kernel gave is no constant):
// FIXED-NOT: y{{[[]}}ompdp_i] = 1;
// FIXED:      {{^}}#pragma omp target data map(to: z[0:n], y[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target exit data map(release: z[0:n]){{$}}
// FIXED-NEXT: {{^}}  free(z);{{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 4, predicted 4)
// PROOF: OK
