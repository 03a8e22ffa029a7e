//===- stale.c - a profile that no longer matches the source is not used ---===//
//
// After a line is added above the loop, the construct's region ID (file,
// line, column) is gone: one warning names the file and why, and nothing
// is placed on its lines (no finding warning, no fix-it). A change that
// moves nothing (a comment at the end) still changes the file's XXH3, which
// the rewrites' edits carry: the same. The file as fixed by -fixit is stale
// for the old profile too. Restored, the profile applies again. A run of a
// program built without the plugin has no region IDs: said, nothing placed.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog > /dev/null
// RUN: cd %t && %python -c "import sys; s = open('prog.c').read(); open('prog.c', 'w').write(s.replace('  static int ' + 'b[64];', '  int unused = 0;\n  static int ' + 'b[64];', 1))"
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=MOVED
// RUN: cp %s %t/prog.c && echo "// a comment" >> %t/prog.c
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=HASH
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fplugin-arg-ompdp-Wno-ompdp-stale-profile 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: cp %s %t/prog.c
// RUN: cd %t && %clang %ompdp-plugin-flags -fopenmp -fsyntax-only -Xclang -fixit -fplugin-arg-ompdp-profile=r.json prog.c 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=FRESH
// RUN: cd %t && %clang-offload -g prog.c -o plain
// RUN: cd %t && %ompdp run --format=json -o plain.json -- ./plain > /dev/null
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=plain.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=NOID
//===----------------------------------------------------------------------===//
#include <stdio.h>

int main(void) {
  static int b[64];
  for (int j = 0; j < 64; ++j) b[j] = 64 - j + j % 3; /* b[j] + j: not one value repeated */
  for (int it = 0; it < 3; ++it) {
#pragma omp target
    for (int j = 0; j < 64; ++j)
      b[j] += j;
  }
  printf("%d\n", b[63]);
  return 0;
}

// MOVED-NOT: fix-it:
// MOVED: warning: ompdp: the profile 'r.json' does not match 'prog.c' (the construct at prog.c:[[#@LINE-9]]:1, region ID {{[0-9a-f]+}}, is no longer there); its 2 finding(s) in this file are not shown and its fixes not offered; run the program under ompdp again [-Wompdp-stale-profile]
// MOVED-NOT: fix-it:
// MOVED-NOT: prog.c:{{[0-9]+}}:{{[0-9]+}}: warning
// MOVED: 1 warning generated.
// MOVED-NOT: warning:

// HASH-NOT: fix-it:
// HASH: warning: ompdp: the profile 'r.json' does not match 'prog.c' (it changed since the program was built: its XXH3 is {{[0-9a-f]+}}, the profile's {{[0-9a-f]+}}); its 2 finding(s) in this file are not shown {{.*}} [-Wompdp-stale-profile]
// HASH-NOT: fix-it:
// HASH-NOT: prog.c:{{[0-9]+}}:{{[0-9]+}}: warning
// HASH: 1 warning generated.

// QUIET-NOT: ompdp

// FIXIT: note: FIX-IT applied suggested code changes
// FIXED-NOT: fix-it:
// FIXED: warning: ompdp: the profile 'r.json' does not match 'prog.c' ({{.*}}); its 2 finding(s) in this file are not shown {{.*}} [-Wompdp-stale-profile]
// FIXED-NOT: fix-it:
// FIXED-NOT: prog.c:{{[0-9]+}}:{{[0-9]+}}: warning

// FRESH: prog.c:[[#@LINE-29]]:1: warning: round trip: 'b' in implicit map(tofrom: b) {{.*}} [-Wompdp-round-trip]
// FRESH: fix-it:"prog.c":{[[#@LINE-31]]:1-[[#@LINE-31]]:6}:"  #pragma omp target data map(tofrom: b)\n  for"
// FRESH: prog.c:[[#@LINE-31]]:1: warning: repeated allocation: 'b' in implicit map(tofrom: b) {{.*}} [-Wompdp-repeated-alloc]

// NOID-NOT: fix-it:
// NOID: warning: ompdp: the profile 'plain.json' has 2 finding(s) in '{{.*}}prog.c' without a region ID (the profiled program was not built with the ompdp plugin); they are not shown [-Wompdp-stale-profile]
// NOID-NOT: prog.c:{{[0-9]+}}:{{[0-9]+}}: warning
