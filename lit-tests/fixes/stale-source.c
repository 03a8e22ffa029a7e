//===- stale-source.c - a source that changed since the run is not edited --===//
//
// After a line is added above the loop, the file no longer has the content
// hash the compiler recorded (and the loop is no longer where the report
// says): `ompdp fix` names the file and line, writes no YAML for it,
// applies nothing, keeps no backup, and exits with status 1. Restoring the
// file makes the same report apply.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog > /dev/null
// RUN: cd %t && %python -c "import sys; s = open('prog.c').read(); open('prog.c', 'w').write(s.replace('int main(void) {', 'int main(void) {\n  int unused = 0;', 1))"
// RUN: cp %t/prog.c %t/edited.c
// RUN: cd %t && not %ompdp fix --apply r.json 2>&1 | FileCheck %s --check-prefix=STALE
// RUN: cmp %t/prog.c %t/edited.c
// RUN: not test -e %t/prog.c.orig
// RUN: cd %t && not %ompdp fix r.json 2>/dev/null | FileCheck %s --check-prefix=YAML
// RUN: cp %s %t/prog.c
// RUN: cd %t && %ompdp fix --apply r.json | FileCheck %s --check-prefix=APPLY
//===----------------------------------------------------------------------===//
#include <stdio.h>

int main(void) {
  static int b[64];
  for (int it = 0; it < 3; ++it) {
#pragma omp target
    for (int j = 0; j < 64; ++j)
      b[j] += j;
  }
  printf("%d\n", b[63]);
  return 0;
}

// STALE: ompdp: prog.c:[[#@LINE-9]]:1: the file does not match the report (it changed since the program was built: its XXH3 is {{[0-9a-f]+}}, the report's {{[0-9a-f]+}}); no edit is applied to prog.c
// YAML: Diagnostics: []
// APPLY: prog.c: 1 edit(s) applied
