//===- zero_fill.c - zero-filled copies in, allocated and filled instead --===//
//
// a is all zeros every time `target enter data map(to: a[0:n])` copies it
// in (the host clears it after each copy back): the enter maps it with
// `alloc` and a device loop right after it writes the zeros (`= 0`: a
// double). b (zeros, `target map(tofrom: ...)` in a block) gets `target
// enter data map(alloc: ...)` and the fill before the construct, which
// finds it present, and `target exit data map(from: ...)` after it, where
// the copy back now happens. s (an array of structs, `target data`) is
// filled byte by byte and released after the construct (after the comment
// that ends its line, which stays where it is). c is not zero: it
// keeps its copy. Applied, rebuilt and rerun: the same output, the zero
// findings gone, exactly the predicted transfers fewer and as many
// allocations. The recompile with the run as a profile shows the same
// rewrites as fix-its, and -fixit gives the same file as `ompdp fix`.
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
// RUN: FileCheck %s --check-prefix=REPORT-B < %t/before.txt
// RUN: FileCheck %s --check-prefix=REPORT-S < %t/before.txt
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

#define N 2048

struct P {
  int id;
  float w;
};

int main(void) {
  int n = N;
  double *a = calloc(N, sizeof(double));
  double *b = calloc(N, sizeof(double));
  double *c = malloc(N * sizeof(double));
  struct P *s = calloc(N, sizeof(struct P));
  double sum = 0;
  for (int i = 0; i < n; ++i)
    c[i] = 1.0 / (i + 1);
#pragma omp target enter data map(to: c[0:n])
  for (int it = 0; it < 3; ++it) {
#pragma omp target enter data map(to: a[0:n])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; ++i)
      a[i] += i * c[i];
#pragma omp target exit data map(from: a[0:n])
    for (int i = 0; i < n; ++i) {
      sum += a[i];
      a[i] = 0;
    }
  }
  {
#pragma omp target map(tofrom: b[0:n])
    for (int i = 0; i < n; ++i)
      b[i] += 2 * i;
  }
  {
#pragma omp target data map(to: s[0:n])
    {
#pragma omp target teams distribute parallel for map(tofrom: sum)
      for (int i = 0; i < n; ++i)
        sum += s[i].id + s[i].w;
    } // end of target data: the exit data goes after this comment
  }
#pragma omp target exit data map(release: c[0:n])
  for (int i = 0; i < n; ++i)
    sum += b[i];
  printf("sum=%.3f\n", sum);
  free(a);
  free(b);
  free(c);
  free(s);
  return 0;
}

// REPORT: observed: 12 transfers
// REPORT: zero_transfers=5
// REPORT-A: duplicate_transfer {{.*}}prog.c:[[#@LINE-36]]:1 in main count=2 bytes=32.0 KiB
// REPORT-A-NEXT: variable: a clause: map(to: a[0:n])
// REPORT-A: rewrite (alloc_and_fill): map `a[0:n]` with `alloc` at prog.c:[[#@LINE-38]] and fill it with zeros on the device right after: every byte copied in was zero [saves {{.*}}: 3 transfers (48.0 KiB), 0 allocations]
// REPORT-A-NEXT: assumes: `a[0:n]` is not on the device already when the `target enter data` runs
// REPORT-A-NEXT: prog.c:[[#@LINE-40]]:31-[[#@LINE-40]]:46: replace "map(to: a[0:n])" with "map(alloc: a[0:n])"
// REPORT-A-NEXT: prog.c:[[#@LINE-40]]:1: insert "#pragma omp target teams distribute parallel for map(alloc: a[0:n])\nfor (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i)\n a[ompdp_i] = 0;\n"
// REPORT-B: duplicate_transfer {{.*}}prog.c:[[#@LINE-31]]:1 in main count=1 bytes=16.0 KiB
// REPORT-B: rewrite (alloc_and_fill): allocate `b[0:n]` and fill it with zeros on the device before the target construct at prog.c:[[#@LINE-32]], which then finds it present; `target exit data map(from: b[0:n])` after it
// REPORT-B-NEXT: prog.c:[[#@LINE-33]]:1: insert "#pragma omp target enter data map(alloc: b[0:n])\n#pragma omp target teams distribute parallel for map(alloc: b[0:n])\nfor
// REPORT-B-NEXT: prog.c:[[#@LINE-32]]:21-[[#@LINE-31]]:1: insert "\n#pragma omp target exit data map(from: b[0:n])\n"
// REPORT-S: duplicate_transfer {{.*}}prog.c:[[#@LINE-30]]:1 in main count=1
// REPORT-S: rewrite (alloc_and_fill): allocate `s[0:n]` {{.*}} `target exit data map(release: s[0:n])` after it
// REPORT-S-NEXT: insert "{{.*}}for (long long ompdp_i = 0; ompdp_i < (n) * (long long)sizeof(struct P); ++ompdp_i)\n ((unsigned char *)s)[ompdp_i] = 0;\n"
// REPORT-S-NEXT: prog.c:[[#@LINE-28]]:6-[[#@LINE-27]]:1: insert "\n#pragma omp target exit data map(release: s[0:n])\n"
// REPORT-NOT: variable: c{{ }}

// The fill replaces every copy in at its construct, so the duplicate
// copies in there carry the same rewrite: its fix-its come with the first
// warning, the duplicate's, and the zero-filled one refers to it.
// DIAG: prog.c:[[#DA:]]:39: warning: duplicate transfer: 'a' in map(to: a[0:n]) {{.*}}[-Wompdp-duplicate-transfer]
// DIAG: fix-it:"prog.c":{[[#DA]]:31-[[#DA]]:46}:"map(alloc: a[0:n])"
// DIAG-NEXT: fix-it:"prog.c":{[[#DA+1]]:1-[[#DA+1]]:1}:"#pragma omp target teams distribute parallel for map(alloc: a[0:n])\nfor
// DIAG: note: fix (alloc_and_fill): map `a[0:n]` with `alloc`
// DIAG: prog.c:[[#DA]]:39: warning: zero-filled transfer: 'a' in map(to: a[0:n]) {{.*}}[-Wompdp-zero-transfer]
// DIAG: note: fix (alloc_and_fill): the same rewrite as for the duplicate_transfer warning at prog.c:[[#DA]]:39
// DIAG: warning: duplicate transfer: 'b' in map(tofrom: b[0:n])
// DIAG: fix-it:"prog.c":{{.*}}:"\n#pragma omp target exit data map(from: b[0:n])\n"
// DIAG: warning: zero-filled transfer: 'b' in map(tofrom: b[0:n])
// DIAG: warning: zero-filled transfer: 's' in map(to: s[0:n])

// APPLY: prog.c: 6 edit(s) applied

// FIXED:      {{^}}#pragma omp target enter data map(alloc: a[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: a[0:n]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  a[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for{{$}}
// FIXED:      {{^}}  {{{$}}
// FIXED-NEXT: {{^}}#pragma omp target enter data map(alloc: b[0:n]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: b[0:n]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (n); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  b[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target map(tofrom: b[0:n]){{$}}
// FIXED-NEXT: {{^}}    for (int i = 0; i < n; ++i){{$}}
// FIXED-NEXT: {{^}}      b[i] += 2 * i;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target exit data map(from: b[0:n]){{$}}
// FIXED-NEXT: {{^}}  }{{$}}
// FIXED:      {{^}}  ((unsigned char *)s)[ompdp_i] = 0;{{$}}
// FIXED-NEXT: {{^}}#pragma omp target data map(to: s[0:n]){{$}}
// FIXED:      {{^}}    } // end of target data: the exit data goes after this comment{{$}}
// FIXED-NEXT: {{^}}#pragma omp target exit data map(release: s[0:n]){{$}}

// AFTER: zero_transfers=0

// PROOF: rewrites: 3 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: 12 -> 7 (removed 5, predicted 5)
// PROOF-NEXT: allocs: 7 -> 7 (removed 0, predicted 0)
// PROOF: OK
