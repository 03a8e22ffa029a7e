//===- zero_fill_combined.c - several zero-filled items of one construct --===//
//
// x, y and z are all zeros when `target data` copies them in: each gets an
// alloc-and-fill rewrite, and since the three put their directives at the
// same two places (before the construct, after its closing brace), they
// become one rewrite that every one of the three findings shows and that
// `ompdp fix` applies once, all together. w is not zero: it keeps its copy
// (the negative case). In the enter-data form, p and q share one clause:
// making both `alloc` would split the clause twice over, so their rewrites
// stay separate alternatives and one is applied. Applied, rebuilt and rerun:
// the same output, the combined findings gone, exactly the predicted
// transfers fewer.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out 2> run.err
// RUN: FileCheck %s --allow-empty --check-prefix=QUIET < %t/run.err
// RUN: cd %t && %ompdp report before.json > before.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/before.txt
// One of p and q is left out: `ompdp fix` says so and exits 1.
// RUN: cd %t && not %ompdp fix --apply before.json 2>&1 | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(void) {
  int n = N;
  double *x = calloc(N, sizeof(double));
  double *y = calloc(N, sizeof(double));
  double *z = calloc(N, sizeof(double));
  double *w = malloc(N * sizeof(double));
  double *p = calloc(N, sizeof(double));
  double *q = calloc(N, sizeof(double));
  for (int i = 0; i < n; ++i)
    w[i] = 1.0 + i;
  {
#pragma omp target data map(tofrom: x[0:n], y[0:n]) map(tofrom: z[0:n]) map(to: w[0:n])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i) {
        x[i] += 0.5 * w[i];
        y[i] += 2 * w[i];
        z[i] += 3 * w[i];
      }
    } // end of the data region
  }
#pragma omp target enter data map(to: p[0:n], q[0:n])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i) {
    p[i] += i;
    q[i] += 2 * i;
  }
#pragma omp target exit data map(from: p[0:n], q[0:n])
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += x[i] + y[i] + z[i] + p[i] + q[i];
  printf("s=%.1f\n", s);
  free(x);
  free(y);
  free(z);
  free(w);
  free(p);
  free(q);
  return 0;
}

// REPORT: zero_transfers=5
// The first of x, y and z in the report (a duplicate of zeros: the fill
// replaces it too) shows the one rewrite that fixes all three; the other
// duplicate and the three zero-filled transfers name it.
// REPORT: rewrite (alloc_and_fill): allocate `x[0:n]` {{.*}}; and allocate `y[0:n]` {{.*}}; and allocate `z[0:n]` {{.*}} [saves {{.*}}: 3 transfers (96.0 KiB), 0 allocations]
// REPORT-COUNT-4: rewrite (alloc_and_fill): the one shown above for duplicate_transfer of `{{[xyz]}}` at prog.c:{{[0-9]+}}:1 in main
// REPORT-NOT: allocate `w

// APPLY-DAG: prog.c: {{[0-9]+}} edit(s) applied
// APPLY-DAG: the alloc_and_fill rewrite for {{[a-z_]+}} overlaps the alloc_and_fill rewrite for {{[a-z_]+}}

// FIXED:      {{^}}#pragma omp target enter data map(alloc: x[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target enter data map(alloc: y[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target enter data map(alloc: z[0:n]){{$}}
// FIXED:      {{^}}#pragma omp target data map(tofrom: x[0:n], y[0:n]) map(tofrom: z[0:n]) map(to: w[0:n]){{$}}
// FIXED:      {{^}}    } // end of the data region{{$}}
// FIXED-NEXT: {{^}}#pragma omp target exit data map(from: x[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target exit data map(from: y[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target exit data map(from: z[0:n]){{$}}
// FIXED-NEXT: {{^}}  }{{$}}

// QUIET-NOT: ompdp

// AFTER: zero_transfers=1
// AFTER-NOT: variable: {{[xyzw]}} 
