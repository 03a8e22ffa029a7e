//===- memory-track.c - the page draws each device's memory in use --------===//
//
// `x` (256 KiB) and `y` (128 KiB) are on device 0 together, then `y`
// alone: the page's data has the device's peak (384 KiB, held by x and y,
// largest first), the series of the bytes in use in time order with the
// peak in it, which the timeline draws as a track with the peak marked,
// and no saving (both are used at the peak). TIMELINE_OFF, a report
// without a timeline still has the device's memory (the summary's line).
// NONE, a run that allocates nothing has no device memory on the page.
//
// REQUIRES: plugin
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/prog.c && cd %t.dir
// RUN: %clang-ompdp prog.c -o prog
// RUN: %ompdp run --format=json -o r.json -- ./prog
// RUN: %ompdp report --format=html r.json -o r.html
// RUN: %page-check r.html | FileCheck %s --check-prefix=PAGE
// RUN: %ompdp run --format=json --option timeline=off -o off.json -- ./prog
// RUN: %ompdp report --format=html off.json -o off.html
// RUN: %page-check off.html | FileCheck %s --check-prefix=OFF
// RUN: %clang-ompdp -DNONE prog.c -o none
// RUN: %ompdp run --format=html -o none.html -- ./none
// RUN: %page-check none.html | FileCheck %s --check-prefix=NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N (1 << 15)

static double x[N], y[N / 2];

int main(void) {
  double s = 0;
#ifndef NONE
  for (int i = 0; i < N; ++i)
    x[i] = i;
#pragma omp target data map(to: y[0:N/2])
  {
#pragma omp target data map(tofrom: x[0:N])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N / 2; ++i)
        x[i] += y[i] + x[i + N / 2];
    }
#pragma omp target teams distribute parallel for reduction(+ : s)
    for (int i = 0; i < N / 2; ++i)
      s += y[i];
  }
#endif
  printf("%g %g\n", x[1], s);
  return 0;
}

// PAGE: timeline: ops={{[0-9]+}}
// PAGE: memory device 0 peak=393216 at={{[0-9]+}} saved=0 holders=x:262144,y:131072 series={{[0-9]+}}{{$}}
// PAGE-NOT: error:

// OFF: timeline: none
// OFF: memory device 0 peak=393216 at={{[0-9]+}} saved=0 holders=x:262144,y:131072 series={{[0-9]+}}{{$}}

// NONE: timeline: ops=
// NONE-NOT: memory device
