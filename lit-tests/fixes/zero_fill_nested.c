//===- zero_fill_nested.c - a zero fill where other constructs use the data -===//
//
// z is all zeros when `target data` copies it in; inside the region a
// `target update from(z[0:n])` copies it back at every step. The update only
// ever finds z as the region's allocation left it, so z is allocated and
// filled on the device before the region instead, each call with its own
// malloc'd buffer (a new host address each time). y is zero too, but a
// `target` construct maps it before the region does, outside the region's
// allocation: no rewrite (whether y is present when the region begins is
// not the region's to know). Applied, rebuilt and rerun: the same output,
// the transfers of z's copies in gone, as predicted.
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
// REPORT-NOT: rewrite (alloc_and_fill): allocate `y

// APPLY: prog.c: 2 edit(s) applied

// FIXED:      {{^}}#pragma omp target enter data map(alloc: z[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: z[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target data map(to: z[0:n], y[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target exit data map(release: z[0:n]){{$}}
// FIXED-NEXT: {{^}}  free(z);{{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 2, predicted 2)
// PROOF: OK
