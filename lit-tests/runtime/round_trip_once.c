// A round trip that happens once, in one execution of a `target data`
// whose kernel writes the data only with some inputs (none this run): the
// copy back brought nothing new, but nothing repeats to keep the data
// across, and the compiler cannot prove the kernel never writes it. The
// advice says exactly that (no "keep it where the calls repeat", no generic
// "no rule"). Negative: the same construct in a loop of three gets the
// keep-resident words and its rewrite.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t.once
// RUN: %ompdp run -- %t.once 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %clang-ompdp -g -DREPEAT=3 %s -o %t.loop
// RUN: %ompdp run -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP
#include <stdio.h>
#include <stdlib.h>

#ifndef REPEAT
#define REPEAT 1
#endif
#define N 4096

static void step(double *a, int scale) {
#pragma omp target data map(tofrom: a[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      if (scale)
        a[i] *= scale;
  }
}

int main(int argc, char **argv) {
  double *a = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    a[i] = i;
  int scale = argc > 5 ? 2 : 0;
  for (int r = 0; r < REPEAT; ++r)
    step(a, scale);
  printf("%g\n", a[N - 1]);
  return 0;
}

// ONCE: round_trip {{.*}} count=1
// ONCE: variable: a
// ONCE: suggestion: data copied back from device 0 returned unchanged, once: the copy back brought the host nothing it did not have. If no kernel of the construct ever writes a, map it `to` instead and the copy back goes; if one may (with other inputs), it is needed. No rewrite: the data went out and came back once, in one execution of the construct: nothing repeats for a `target data` to keep it across
// ONCE-NOT: no rule for this case
// LOOP: round_trip {{.*}} count=3
// LOOP: suggestion: data copied back from device 0 returns unchanged: the construct's function has no loop around it, so keep the data on the device where the calls repeat
