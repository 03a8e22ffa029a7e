//===- runtime_bad_option_value.c - a bad option value is reported --------===//
//
// OMPDP_OPTIONS="format=xml" names a known option with a value it cannot
// take: like an unknown name, that must be reported ("ompdp: ..."), not
// silently replaced by the default.
//
// A bad value is reported, and the default (text) is used instead.
//
// RUN: %clang-offload -g %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=xml" %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

// CHECK: ompdp: {{.*}}format{{.*}}xml
int main(void) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  printf("x=%d\n", x);
  return 0;
}
