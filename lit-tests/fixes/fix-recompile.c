//===- fix-recompile.c - `ompdp fix --apply` leaves no file that fails ----===//
//
// Two keep-resident rewrites: `g` (a global) compiles; `buf[0:m]` names `m`,
// which is declared inside the loop, so the `target data` put before the
// loop does not compile ("use of undeclared identifier"): the rewrite's
// checks cannot see that, the compile can. `ompdp fix --apply` compiles
// the changed file again with the command the plugin recorded (the
// report's compile_commands, a -fsyntax-only run of the same compile),
// takes back the rewrite that fails with one line saying which and why
// (exit status 1), and keeps the one that compiles (the negative case).
// The file it leaves builds and gives the same output.
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
// RUN: cd %t && not %ompdp fix --apply before.json > apply.out 2> apply.err
// RUN: FileCheck %s --check-prefix=APPLY < %t/apply.out
// RUN: FileCheck %s --check-prefix=TAKEN < %t/apply.err
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && ./after > after.out
// RUN: diff %t/before.out %t/after.out
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
static double g[N];

int main(void) {
  double *buf = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    buf[i] = g[i] = i;
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
  double s = 0;
  for (int i = 0; i < N; ++i)
    s += buf[i] + g[i];
  printf("s=%g\n", s);
  free(buf);
  return 0;
}

// JSON: "compile_commands": [
// JSON-NEXT: {"file": "prog.c", "directory": "[[DIR]]", "arguments": ["{{[^"]*}}clang{{[^"]*}}", "-cc1", {{.*}}"-fsyntax-only",{{.*}}"prog.c"

// APPLY: prog.c: 1 edit(s) applied
// APPLY: prog.c:[[#]]:1: the keep_resident rewrite for {{[a-z_]+}} assumes: no host code in the loop reaches `g`

// TAKEN: ompdp: prog.c:[[L:[0-9]+]]:1: the keep_resident rewrite for {{[a-z_]+}} is taken back: prog.c does not compile with it (prog.c:[[L]]:{{[0-9]+}}: error: use of undeclared identifier 'm')
// TAKEN-NOT: taken back

// FIXED-NOT: target data map(tofrom: buf
// FIXED: #pragma omp target data map(tofrom: g)
// FIXED-NEXT: for (int it = 0; it < 4; ++it) {

// BROKEN: ompdp: prog.c: does not compile as it was, with the command it was built with (prog.c:[[#]]:2: error: the recorded command is not what built this file); none of its rewrites is applied
// BROKEN-OUT: prog.c: no edit applied
