//===- runtime_bad_option_value.c - a bad option value is reported --------===//
//
// OMPDP_OPTIONS="format=xml" names a known option with a value it cannot
// take: like an unknown name, that must be reported ("ompdp: ..."), not
// silently replaced by the default.
//
// A bad value is one line naming the option, the values it takes and the
// value given; the default (text) is used instead, the program's own
// output and exit status are unchanged. A number option given a word says
// so too. A good value says nothing and is used (JSON).
//
// RUN: %clang-offload -g %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=xml" %t 2> %t.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s < %t.err
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="verify_hashes=abc" %t 2>&1 >/dev/null | FileCheck %s --check-prefix=NUMBER
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json" %t 2> %t.good.err | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=GOOD --implicit-check-not=ompdp: < %t.good.err
//===----------------------------------------------------------------------===//
#include <stdio.h>

// OUT: x=2
// CHECK: ompdp: option 'format' wants text, json or sarif, not 'xml'; using text
// CHECK-NEXT: === ompdp report ===
// CHECK-NEXT: program: {{.*}}runtime_bad_option_value.c.tmp
// CHECK: summary: duplicate_transfers=0
// NUMBER: ompdp: option 'verify_hashes' wants a number or true/false, not 'abc'
// NUMBER-NEXT: === ompdp report ===
// GOOD: "ompdp_report_version":
// GOOD: "program":
int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  printf("x=%d\n", x);
  return 0;
}
