//===- compile-directory.c - ompdp fix finds sources where they were built ===//
//
// The program is compiled in %t/src as `prog.c`, a relative name, and its
// report is moved to %t/elsewhere. `ompdp fix`, run from there, finds
// prog.c in the directory the report records as the compile's (the YAML
// names %t/src/prog.c), and --apply edits that file, not a `prog.c` of the
// current directory (which stays as it was). Negative cases: where the
// recorded directory no longer has the file (the sources moved too), the
// current directory's file is used (from %t/moved, the moved source; from
// %t/elsewhere, the other prog.c, which does not match the report and gets
// no edit); --root overrides both.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t/src %t/elsewhere %t/moved %t/root && cp %s %t/src/prog.c
// RUN: cd %t/src && %clang-ompdp prog.c -o %t/prog
// RUN: cd %t/src && %ompdp run --format=json -o %t/elsewhere/report.json -- %t/prog > /dev/null
// RUN: echo 'int not_the_program;' > %t/elsewhere/prog.c
// RUN: cd %t/elsewhere && %ompdp fix report.json | FileCheck %s --check-prefix=RECORDED -DDIR=%t
// RUN: cd %t/elsewhere && %ompdp fix --apply --no-recompile report.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/src/prog.c
// RUN: echo 'int not_the_program;' | cmp - %t/elsewhere/prog.c
//
// The sources moved: the recorded directory has no prog.c any more.
// RUN: mv %t/src/prog.c.orig %t/moved/prog.c && rm %t/src/prog.c
// RUN: cp %t/elsewhere/report.json %t/moved/report.json && cd %t/moved && %ompdp fix report.json 2>&1 | FileCheck %s --check-prefix=MOVED -DDIR=%t
// RUN: cd %t/elsewhere && not %ompdp fix report.json 2>&1 | FileCheck %s --check-prefix=MISSING -DDIR=%t
// RUN: cp %t/moved/prog.c %t/root/prog.c
// RUN: cd %t/moved && %ompdp fix --root %t/root report.json | FileCheck %s --check-prefix=ROOT -DDIR=%t
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256

int main(void) {
  static int b[N];
  long seen = 0;
  for (int it = 0; it < 4; ++it) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; ++j)
      b[j] += j + it;
    seen += b[it];
  }
  printf("seen=%ld\n", seen);
  return 0;
}

// RECORDED: MainSourceFile: "[[DIR]]/src/prog.c"
// RECORDED: - FilePath: "[[DIR]]/src/prog.c"
// APPLY: prog.c: 2 edit(s) applied
// FIXED: #pragma omp target data map(to: b)
// MOVED: MainSourceFile: "[[DIR]]/moved/prog.c"
// MISSING: ompdp: prog.c:{{[0-9]+}}:1: the file does not match the report
// ROOT: MainSourceFile: "[[DIR]]/root/prog.c"
