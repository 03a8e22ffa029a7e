//===- keep-at-caller.c - data kept on the device at the caller ----------===//
//
// main's loop calls advance(), whose construct maps x[0:n] tofrom, and
// relax(), which sends a prefix of the same array at its start and copies
// it back at its end: every call allocates the array on the device and
// moves it both ways, and what relax copies back is what advance sends
// again (a round trip across two functions). Neither function has a loop:
// the `target data` belongs around main's loop, with main's arguments for
// the parameters (a[0:n] for x[0:n]). The host reads and writes a between
// the calls, so a `target update from` goes before that statement and a
// `target update to` after it. The functions are not edited: their maps
// find the data present. Applied, rebuilt, rerun: the same output, the
// findings gone, transfers and allocations down as predicted. The YAML,
// applied by clang-apply-replacements, gives the same file.
//
// REQUIRES: plugin, clang-apply-replacements
// RUN: rm -rf %t && mkdir -p %t/car/yaml && cp %s %t/prog.c && cp %s %t/car/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: %ompdp fix --root %t/car -o %t/car/yaml/fixes.yaml %t/before.json
// RUN: clang-apply-replacements %t/car/yaml
// RUN: diff %t/car/prog.c %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// A fix of the fixed program has nothing left to apply.
// RUN: cd %t && %ompdp fix after.json | FileCheck %s --check-prefix=SECOND
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 1024
#define STEPS 6

// Maps the section tofrom: each call copies it in and back.
static void advance(float *x, int n, float w) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] = x[i] * w + 1.0f;
}

// Sends a prefix at its start and copies it back at its end.
static void relax(float *x, int m) {
#pragma omp target enter data map(to: x[0:m])
#pragma omp target teams distribute parallel for
  for (int i = 0; i < m; ++i)
    x[i] = 0.5f * x[i];
#pragma omp target exit data map(from: x[0:m])
}

int main(void) {
  float *a = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 7);
  int n = N;
  for (int s = 0; s < STEPS; ++s) {
    advance(a, n, 0.5f);
    relax(a, n / 2);
    a[s] += 1.0f; // the host reads and writes a between the calls
  }
  double sum = 0;
  for (int i = 0; i < N; ++i)
    sum += a[i];
  printf("sum=%.3f a[1]=%.3f\n", sum, a[1]);
  free(a);
  return 0;
}

// REPORT: repeated_alloc {{.*}}prog.c:[[#ADV:]]:1 in advance count=5
// REPORT: verdict: fix
// REPORT: rewrite (keep_resident): keep `a[0:n]` on device 0 for the whole for loop at prog.c:[[#LOOP:]] that calls advance() and relax(), where it is `x[0:n]`: `#pragma omp target data map(tofrom: a[0:n])` before it; the maps in advance() and relax() then find it present; `target update from(a[0:n])` before line [[#HOST:]], `target update to(a[0:n])` after line {{[0-9]+}}  [saves {{.*}}: 10 transfers (16.0 KiB), 11 allocations]
// REPORT-NEXT: assumes: no host code in the loop, in advance() or in relax() reaches `a` through another pointer (the compiler follows `a` itself)
// REPORT-NEXT: prog.c:[[#LOOP]]:1-[[#LOOP]]:6: replace "for" with "  #pragma omp target data map(tofrom: a[0:n])\n  for"
// REPORT-NEXT: prog.c:[[#HOST]]:1: insert "    #pragma omp target update from(a[0:n])\n"
// REPORT-NEXT: prog.c:[[#HOST+1]]:1: insert "    #pragma omp target update to(a[0:n])\n"
// REPORT: repeated_alloc {{.*}}prog.c:{{[0-9]+}}:1 in relax count=5
// REPORT: verdict: fix
// REPORT: rewrite (keep_resident): the one shown above

// APPLY: prog.c: 3 edit(s) applied (the old file is {{.*}}prog.c.orig)

// FIXED:      static void advance(float *x, int n, float w) {
// FIXED-NEXT: #pragma omp target teams distribute parallel for map(tofrom: x[0:n]){{$}}
// FIXED:      int n = N;
// FIXED-NEXT: {{^}}  #pragma omp target data map(tofrom: a[0:n]){{$}}
// FIXED-NEXT: {{^}}  for (int s = 0; s < STEPS; ++s) {
// FIXED-NEXT: {{^}}    advance(a, n, 0.5f);
// FIXED-NEXT: {{^}}    relax(a, n / 2);
// FIXED-NEXT: {{^}}    #pragma omp target update from(a[0:n]){{$}}
// FIXED-NEXT: {{^}}    a[s] += 1.0f; // the host reads and writes a between the calls
// FIXED-NEXT: {{^}}    #pragma omp target update to(a[0:n]){{$}}
// FIXED-NEXT: {{^}}  }

// PROOF: rewrites: 1 for 2 finding(s)
// PROOF-NEXT: transfers: 24 -> 14 (removed 10, predicted 10)
// PROOF-NEXT: allocs: 12 -> 1 (removed 11, predicted 11)
// PROOF-NEXT: gone: repeated_alloc of x: yes
// PROOF-NEXT: gone: repeated_alloc of x: yes
// PROOF-NEXT: OK

// SECOND: Diagnostics: []
