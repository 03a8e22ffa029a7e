//===- fix-recompile.c - `ompdp fix --apply` leaves no file that fails ----===//
//
// Two keep-resident rewrites: `g` and `h` (globals) compile. `buf[0:m]`
// names `m`, which the loop declares: a `target data` put before the loop
// would not compile ("use of undeclared identifier"), and the plugin says
// so (loop-declared), so the planner offers none and says why. `ompdp fix
// --apply` compiles the changed file again with the command the plugin
// recorded (the report's compile_commands, a -fsyntax-only run of the same
// compile): here it compiles, and the file builds and gives the same
// output. A rewrite that breaks the compile anyway (here the report's `h`
// rewrite edited to name `h_undeclared`, standing for what no check
// foresees) is taken back with one line saying which and why (exit status
// 1), and the one that compiles is kept (the negative case).
//
// A file that does not compile as it was, with its recorded command (here
// the command is given a macro that makes the file an #error), gets no
// rewrite at all: nothing there can be checked.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: FileCheck %s --check-prefix=JSON -DDIR=%t < %t/before.json
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=ADVICE
// RUN: cd %t && %ompdp fix --apply before.json > apply.out 2> apply.err
// RUN: FileCheck %s --check-prefix=APPLY < %t/apply.out
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && ./after > after.out
// RUN: diff %t/before.out %t/after.out
//
// RUN: cd %t && cp prog.c.orig prog.c && rm prog.c.orig
// RUN: sed 's/map(tofrom: h)/map(tofrom: h_undeclared)/g' %t/before.json > %t/takeback.json
// RUN: cd %t && not %ompdp fix --apply takeback.json > takeback.out 2> takeback.err
// RUN: FileCheck %s --check-prefix=TAKEN < %t/takeback.err
// RUN: FileCheck %s --check-prefix=KEPT < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o kept
// RUN: cd %t && ./kept > kept.out
// RUN: diff %t/before.out %t/kept.out
//
// RUN: cd %t && cp prog.c.orig prog.c && rm prog.c.orig
// RUN: sed 's/"-cc1", /"-cc1", "-DFIX_RECOMPILE_BROKEN", /' %t/before.json > %t/broken.json
// RUN: cd %t && not %ompdp fix --apply broken.json > broken.out 2> broken.err
// RUN: FileCheck %s --check-prefix=BROKEN < %t/broken.err
// RUN: FileCheck %s --check-prefix=BROKEN-OUT < %t/broken.out
// RUN: diff %t/prog.c %s
// RUN: not test -e %t/prog.c.orig
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#ifdef FIX_RECOMPILE_BROKEN
#error the recorded command is not what built this file
#endif

#define N 1024
static double g[N], h[N];

int main(void) {
  double *buf = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    buf[i] = g[i] = h[i] = i;
  for (int it = 0; it < 4; ++it) {
    int m = N;
#pragma omp target map(tofrom : buf[0:m])
    for (int i = 0; i < m; ++i)
      buf[i] += 1;
  }
  for (int it = 0; it < 4; ++it) {
#pragma omp target map(tofrom : g)
    for (int i = 0; i < N; ++i)
      g[i] *= 2;
  }
  for (int it = 0; it < 4; ++it) {
#pragma omp target map(tofrom : h)
    for (int i = 0; i < N; ++i)
      h[i] += 3;
  }
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += buf[i] + g[i] + h[i];
  printf("s=%g\n", s);
  free(buf);
  return 0;
}

// JSON: "compile_commands": [
// JSON-NEXT: {"file": "prog.c", "directory": "[[DIR]]", "arguments": ["{{[^"]*}}clang{{[^"]*}}", "-cc1", {{.*}}"-fsyntax-only",{{.*}}"prog.c"

// ADVICE:      variable: buf  clause: map(tofrom : buf[0:m])
// ADVICE:      No rewrite: the item as written names a variable that the loop declares

// APPLY: prog.c: 2 edit(s) applied
// APPLY: prog.c:[[#]]:1: the keep_resident rewrite for {{[a-z_]+}} assumes: no host code in the loop reaches `{{[gh]}}`

// FIXED-NOT: target data map(tofrom: buf
// FIXED: #pragma omp target data map(tofrom: g)
// FIXED-NEXT: for (int it = 0; it < 4; ++it) {
// FIXED: #pragma omp target data map(tofrom: h)
// FIXED-NEXT: for (int it = 0; it < 4; ++it) {

// TAKEN: ompdp: prog.c:{{[0-9]+}}:1: the keep_resident rewrite for {{[a-z_]+}} is taken back: prog.c does not compile with it (prog.c:{{[0-9]+}}:{{[0-9]+}}: error: use of undeclared identifier 'h_undeclared')
// TAKEN-NOT: taken back

// KEPT-NOT: {{^ *#pragma omp target data map\(tofrom: h}}
// KEPT: {{^ *#pragma omp target data map\(tofrom: g\)}}
// KEPT-NOT: {{^ *#pragma omp target data map\(tofrom: h}}

// BROKEN: ompdp: prog.c: does not compile as it was, with the command it was built with (prog.c:[[#]]:2: error: the recorded command is not what built this file); none of its rewrites is applied
// BROKEN-OUT: prog.c: no edit applied
