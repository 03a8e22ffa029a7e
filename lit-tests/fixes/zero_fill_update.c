//===- zero_fill_update.c - a zero-filled `target update to`, filled instead -===//
//
// a, b and c are present (a `target data` maps them with `alloc`) and all
// zeros every time a `target update to` sends them: each update's item
// goes and a device loop that finds the section present writes the zeros
// in its place. a is its update's only item: the directive goes. b's
// update has a `device` clause, which the fill gets, and a member in its
// bounds, read on the host first (the kernel would otherwise map the
// struct at every fill). c shares its update with w, which stays. d's
// update has `nowait`, e is zero only the first time (computed: necessary):
// both keep their copies, and their suggestions say why. Applied, rebuilt and rerun: the
// same output, the three findings gone, exactly the three updates' copies
// fewer and as many allocations (the fills are kernels, not transfers).
// The recompile with the run as a profile shows the same rewrites as
// fix-its, and -fixit gives the same file as `ompdp fix`.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t/fixit && cp %s %t/prog.c && cp %s %t/fixit/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// Findings are ordered by the time they save, which varies from run to run:
// each is checked on its own.
// RUN: cd %t && %ompdp report before.json > before.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-A < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-AW < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-B < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-C < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-D < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-E < %t/before.txt
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=before.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t/fixit && %clang %ompdp-plugin-flags -fopenmp -fsyntax-only -Xclang -fixit -fplugin-arg-ompdp-profile=%t/before.json prog.c > /dev/null 2>&1
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: diff %t/fixit/prog.c %t/prog.c
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2048

struct Params {
  int n;
};

int main(void) {
  int n = N;
  struct Params p = {N};
  float *a = malloc(N * sizeof(float));
  float *b = malloc(N * sizeof(float));
  float *c = malloc(N * sizeof(float));
  float *d = malloc(N * sizeof(float));
  float *e = malloc(N * sizeof(float));
  float *w = malloc(N * sizeof(float));
  double sum = 0;
  for (int i = 0; i < n; ++i)
    w[i] = 1.0f / (i + 1);
#pragma omp target data map(alloc: a[0:n], b[0:p.n], c[0:n], d[0:n], e[0:n], w[0:n])
  {
    for (int it = 0; it < 3; ++it) {
      memset(a, 0, N * sizeof(float));
      memset(b, 0, N * sizeof(float));
      memset(c, 0, N * sizeof(float));
      memset(d, 0, N * sizeof(float));
      for (int i = 0; i < n; ++i)
        e[i] = it ? (float)it : 0.0f;
#pragma omp target update to(a[0:n])
#pragma omp target update to(b[0:p.n]) device(0)
#pragma omp target update to(c[0:n], w[0:n])
#pragma omp target update to(d[0:n]) nowait
#pragma omp taskwait
#pragma omp target update to(e[0:n])
#pragma omp target teams distribute parallel for
      for (int i = 0; i < n; ++i) {
        a[i] += i * w[i];
        b[i] += 2 * w[i];
        c[i] += a[i] + b[i];
        d[i] += 3 * w[i];
        e[i] += w[i];
      }
#pragma omp target update from(a[0:n], b[0:n], c[0:n], d[0:n], e[0:n])
      for (int i = 0; i < n; ++i)
        sum += a[i] + b[i] + c[i] + d[i] + e[i];
    }
  }
  printf("sum=%.3f\n", sum);
  free(a);
  free(b);
  free(c);
  free(d);
  free(e);
  free(w);
  return 0;
}

// REPORT: observed: 33 transfers
// REPORT: zero_transfers=13
// REPORT-AW: rewrite (alloc_and_fill): fill `a[0:n]` with zeros on the device instead of copying it with the `target update` at prog.c:73: every byte it copied in was zero, and the section is present there, so the fill moves nothing [saves {{.*}}: 3 transfers (24.0 KiB), 0 allocations]
// REPORT-A: zero_transfer {{.*}}prog.c:[[#@LINE-32]]:1 in main count=3 bytes=24.0 KiB
// REPORT-A-NEXT: variable: a clause: to(a[0:n])
// REPORT-A-NEXT: verdict: fix
// REPORT-A-NEXT: suggestion: every byte `target update to(a[0:n])` copied to device 0 was zero: fill the present section with zeros on the device instead of the update
// REPORT-A-NEXT: rewrite (alloc_and_fill): the one shown above for duplicate_transfer of `a` at prog.c:[[#@LINE-36]]:1 in main
// REPORT-AW-NEXT: assumes: the host's `a[0:n]` holds only zeros whenever the `target update` at prog.c:[[#@LINE-37]] runs (the run saw it so at all 3 copies); it is present on the device then
// REPORT-AW-NEXT: prog.c:[[#@LINE-38]]:1-[[#@LINE-37]]:1: delete "#pragma omp target update to(a[0:n])"
// REPORT-AW-NEXT: prog.c:[[#@LINE-38]]:1: insert "#pragma omp target teams distribute parallel for map(alloc: a[0:n])\nfor (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i)\n a[ompdp_i] = 0;\n"

// REPORT-B: duplicate_transfer {{.*}}prog.c:[[#@LINE-40]]:1 in main count=3
// REPORT-B: rewrite (alloc_and_fill): fill `b[0:p.n]` with zeros
// REPORT-B: prog.c:[[#@LINE-42]]:1-[[#@LINE-41]]:1: delete "#pragma omp target update to(b[0:p.n]) device(0)"
// REPORT-B-NEXT: prog.c:[[#@LINE-42]]:1: insert "{\n const long long ompdp_n = (p.n);\n #pragma omp target teams distribute parallel for map(alloc: b[0:p.n]) device(0)\n for (long long ompdp_i = 0; ompdp_i < ompdp_n; ++ompdp_i)\n b[ompdp_i] = 0;\n}\n"

// REPORT-C: duplicate_transfer {{.*}}prog.c:[[#@LINE-44]]:1 in main count=3
// REPORT-C-NEXT: variable: c clause: to(c[0:n], w[0:n])
// REPORT-C: rewrite (alloc_and_fill): fill `c[0:n]` with zeros
// REPORT-C: prog.c:[[#@LINE-47]]:30-[[#@LINE-47]]:38: delete "c[0:n],"
// REPORT-C-NEXT: prog.c:[[#@LINE-47]]:1: insert "#pragma omp target teams distribute parallel for map(alloc: c[0:n])\n

// REPORT-D: zero_transfer {{.*}}prog.c:[[#@LINE-49]]:1 in main count=3
// REPORT-D-NEXT: variable: d clause: to(d[0:n])
// REPORT-D-NEXT: verdict: advice
// REPORT-D-NEXT: suggestion: every byte `target update to(d[0:n])` copied to device 0 was zero: fill the present section with zeros on the device instead of the update {{.*}}. No rewrite: the `target update` has `nowait`, which a fill in its place would have to follow too (only `device` is carried over).

// REPORT-E: zero_transfer {{.*}}prog.c:[[#@LINE-52]]:1 in main count=1
// REPORT-E-NEXT: variable: e clause: to(e[0:n])
// REPORT-E-NEXT: verdict: necessary (not counted as a saving)
// REPORT-E-NEXT: suggestion: no saving: host code stores values into e that the compiler cannot evaluate to one constant {{.*}}

// DIAG: prog.c:[[#@LINE-62]]:30: warning: duplicate transfer: 'a' in to(a[0:n]) {{.*}}[-Wompdp-duplicate-transfer]
// DIAG: fix-it:"prog.c":{[[#@LINE-63]]:1-[[#@LINE-62]]:1}:"#pragma omp target teams distribute parallel for map(alloc: a[0:n])\nfor
// DIAG: note: fix (alloc_and_fill): fill `a[0:n]` with zeros on the device
// DIAG: warning: duplicate transfer: 'b' in to(b[0:p.n])
// DIAG: fix-it:"prog.c":{[[#@LINE-65]]:1-[[#@LINE-64]]:1}:"{\n  const long long ompdp_n = (p.n);
// DIAG: warning: duplicate transfer: 'c' in to(c[0:n], w[0:n])
// DIAG: fix-it:"prog.c":{[[#@LINE-66]]:30-[[#@LINE-66]]:38}:""
// DIAG-NEXT: fix-it:"prog.c":{[[#@LINE-66]]:1-[[#@LINE-66]]:1}:"#pragma omp target teams distribute parallel for map(alloc: c[0:n])
// DIAG: warning: zero-filled transfer: 'd' in to(d[0:n])
// DIAG-NOT: fix-it:"prog.c":{[[#@LINE-68]]:
// DIAG-NOT: warning: zero-filled transfer: 'e' in to(e[0:n])
// DIAG-NOT: fix-it:"prog.c":{[[#@LINE-68]]:

// APPLY: prog.c: 6 edit(s) applied

// FIXED:      {{^}}        e[i] = it ? (float)it : 0.0f;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: a[0:n]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  a[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}{{{$}}
// FIXED-NEXT: {{^}}  const long long ompdp_n = (p.n);{{$}}
// FIXED-NEXT: {{^}}  #pragma omp target teams distribute parallel for map(alloc: b[0:p.n]) device(0){{$}}
// FIXED-NEXT: {{^}}  for (long long ompdp_i = 0; ompdp_i < ompdp_n; ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}    b[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}}{{$}}
// FIXED-NEXT: {{^}}#pragma omp target update to(w[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: c[0:n]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  c[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target update to(d[0:n]) nowait{{$}}
// FIXED-NEXT: {{^}}#pragma omp taskwait{{$}}
// FIXED-NEXT: {{^}}#pragma omp target update to(e[0:n]){{$}}

// AFTER: observed: 24 transfers
// AFTER: zero_transfers=4

// PROOF: rewrites: 3 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: 33 -> 24 (removed 9, predicted 9)
// PROOF-NEXT: allocs: 6 -> 6 (removed 0, predicted 0)
// PROOF-DAG: gone: zero_transfer of a: yes
// PROOF-DAG: gone: zero_transfer of b: yes
// PROOF-DAG: gone: zero_transfer of c: yes
// PROOF: OK
