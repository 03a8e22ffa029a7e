//===- peak-notes.c - a finding about the peak, as a compiler warning ------===//
//
// `big` is mapped long before its first kernel while a `target data` of `a`
// and `b` reaches the device's peak: an early allocation. Recompiled with
// the run's profile, the warning's note says how much lower the device's
// peak of memory in use would be and the rewrite's summary says it saves
// no time; a finding about time (NOTIME, `big` mapped where it is used)
// keeps its time.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog > /dev/null
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fno-caret-diagnostics 2>&1 | FileCheck %s
// RUN: cd %t && %clang-ompdp -DNOTIME prog.c -o late
// RUN: cd %t && %ompdp run --format=json -o l.json -- ./late > /dev/null
// RUN: cd %t && %clang-ompdp -DNOTIME -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=l.json -fno-caret-diagnostics 2>&1 | FileCheck %s --check-prefix=NONE --allow-empty
//
// CHECK: prog.c:[[L:[0-9]+]]:41: warning: early allocation: 'big' in map(to: big[0:N]) is allocated on the device long before its first use, while the device reaches its peak, once [-Wompdp-early-alloc]
// CHECK-NEXT: prog.c:[[L]]:41: note: measured: 1 early allocation, 2.0 MiB on device 0; the fix lowers the device's peak of memory in use by 1.0 MiB
// CHECK-NEXT: prog.c:[[L]]:41: note: fix (shrink_lifetime): allocate `big` on device 0 at its first use: {{.*}}  [lowers the peak of device memory by 1.0 MiB; saves no time]; it assumes {{.*}}
// CHECK-NOT: saves {{[0-9]}}
// NONE-NOT: warning: {{.*}}ompdp
// NONE-NOT: peak
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N (1 << 18) /* big: 2 MiB */
#define M (1 << 16) /* a and b: 512 KiB each */

int main(void) {
  double *big = malloc(N * sizeof(double));
  double *a = malloc(M * sizeof(double)), *b = malloc(M * sizeof(double));
  for (int i = 0; i < N; ++i)
    big[i] = i % 7;
  for (int i = 0; i < M; ++i)
    a[i] = i % 5;
#if !defined(NOTIME)
  #pragma omp target enter data map(to: big[0:N])
#endif
  #pragma omp target data map(to: a[0:M]) map(from: b[0:M])
  {
    #pragma omp target teams distribute parallel for
    for (int i = 0; i < M; ++i)
      b[i] = 2 * a[i];
  }
#if defined(NOTIME)
  #pragma omp target enter data map(to: big[0:N])
#endif
  #pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    big[i] += 1;
  #pragma omp target exit data map(from: big[0:N])
  printf("%g %g\n", b[1], big[1]);
  free(big);
  free(a);
  free(b);
  return 0;
}
