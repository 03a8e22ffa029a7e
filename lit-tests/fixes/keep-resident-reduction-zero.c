//===- keep-resident-reduction-zero.c - a reduction that added nothing -----===//
//
// The kernel reduces into `s` (implicit map(tofrom: s)), and in this run the
// data is all zeros: every copy back of s brought the bytes the host had
// sent. The keep-resident rule took that as "the device never changed s" and
// kept it with `map(to: s)`, nothing coming back: right for this input only,
// the sum lost for any other. A reduction's variable is changed by its
// kernel whatever one run's bytes say: kept with `map(tofrom: s)`, one copy
// back after the loop. Applied to the source, built with other data
// (-DNONZERO), the fixed program prints what the original prints.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c && cd %t
// RUN: %clang-ompdp prog.c -o before && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: %ompdp report before.json | FileCheck %s
// RUN: %ompdp fix --apply before.json > /dev/null
// RUN: FileCheck %s --check-prefix=FIXED < prog.c
// RUN: %clang-ompdp -DNONZERO -x c prog.c.orig -o orig-nonzero
// RUN: %clang-ompdp -DNONZERO prog.c -o fixed-nonzero
// RUN: ./orig-nonzero > orig.out && ./fixed-nonzero > fixed.out && diff orig.out fixed.out
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

int main(void) {
  static float a[N];
#ifdef NONZERO
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 3);
#endif
  float s = 0.0f;
  for (int t = 0; t < 4; ++t) {
#pragma omp target teams distribute parallel for map(to: a[0:N]) reduction(+: s)
    for (int i = 0; i < N; ++i)
      s += a[i];
  }
  printf("%.1f\n", s);
  return 0;
}

// CHECK: rewrite (keep_resident): keep {{.*}}`s`{{.*}}`#pragma omp target data map({{.*}}tofrom: s)
// CHECK-NOT: the device never changed `s`
// FIXED: #pragma omp target data map({{.*}}tofrom: s)
