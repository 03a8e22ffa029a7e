//===- profile_hostile.c - corrupt profiles given to the compiler plugin --===//
//
// REQUIRES: plugin
//
// -fplugin-arg-ompdp-profile=<report.json> makes the plugin place a run's
// findings in the source as warnings with fix-its. The profile is a file a
// user may have edited, kept from another version of the source, or been
// given: Inputs/hostile_profiles.py makes 18 corrupt variants of this
// program's real profile (indices, ranges and offsets out of bounds, edits
// in other files, huge strings, thousands of findings, unknown regions,
// truncated, an old version; a region ID of all ones crashed clang). With
// each, clang must end normally (status 0 or 1), every error being one
// "ompdp: ..." line, never a crash.
//
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run --format=json -o %t.json -- %t | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/hostile_profiles.py %t.json %t.d %s -- %clang %ompdp-plugin-flags %offload-flags | FileCheck %s
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 100

// OUT: 4953
// CHECK: truncated: status 1, 1 errors
// CHECK: 18 profiles, no crash

int main(void) {
  static int a[N], r[4];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 4; ++k) {
#pragma omp target map(to : a) map(from : r[k:1])
    {
      r[k] = k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  printf("%d\n", r[3]);
  return 0;
}
