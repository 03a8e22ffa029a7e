//===- bounded.c - the timeline keeps what the page needs, within bounds ---===//
//
// 2000 iterations of a target region that maps `a` to the device and `b`
// tofrom: 8 events each (2 allocations, 2 copies in, a kernel, a copy back,
// 2 deletes), a duplicate transfer of `a` and repeated allocations of both
// at every iteration after the first.
// With BOUNDED (timeline_first=20, timeline_per_finding=10), the first 20
// events, the first 10 avoidable operations of each finding (an allocation
// with its delete), and counts of everything else; every event is either
// kept or counted. DEFAULT, the default bounds (1000 first events, 256 per
// finding). FULL (timeline=full), every event, every avoidable operation
// linked. OFF (timeline=off), no section. THREADS, two host threads, each
// with its own arrays: operations carry their thread. CHECK, mode=check
// compares the stream and full-log reports, timeline included, byte for
// byte. BAD, an unknown timeline value is said, and bounded used.
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run --format=json -o %t.b.json --option timeline_first=20 --option timeline_per_finding=10 -- %t
// RUN: %python %S/Inputs/timeline_stats.py %t.b.json | FileCheck %s --check-prefix=BOUNDED
// RUN: %ompdp run --format=json -o %t.d.json -- %t
// RUN: %python %S/Inputs/timeline_stats.py %t.d.json | FileCheck %s --check-prefix=DEFAULT
// RUN: %ompdp run --format=json -o %t.f.json --option timeline=full -- %t
// RUN: %python %S/Inputs/timeline_stats.py %t.f.json | FileCheck %s --check-prefix=FULL
// RUN: %ompdp run --format=json -o %t.o.json --option timeline=off -- %t
// RUN: %python %S/Inputs/timeline_stats.py %t.o.json | FileCheck %s --check-prefix=OFF
// RUN: %clang-ompdp -DTHREADS=2 %s -o %t.2
// RUN: %ompdp run --format=json -o %t.2.json --option timeline_first=0 -- %t.2
// RUN: %python %S/Inputs/timeline_stats.py %t.2.json | FileCheck %s --check-prefix=THREADS
// RUN: %ompdp run --format=json -o %t.c.json --option mode=check --option verbose=1 --option timeline_first=50 -- %t.2 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: %python %S/Inputs/timeline_stats.py %t.c.json | FileCheck %s --check-prefix=CHECKED
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="timeline=sometimes format=json output=%t.bad.json" %t 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: %python %S/Inputs/timeline_stats.py %t.bad.json | FileCheck %s --check-prefix=BOUNDED-DEFAULT
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 256
#define ITERS 2000
#ifndef THREADS
#define THREADS 1
#endif

static float a[THREADS][N], b[THREADS][N];

int main(void) {
#pragma omp parallel num_threads(THREADS)
  {
#ifdef _OPENMP
    extern int omp_get_thread_num(void);
    int t = omp_get_thread_num();
#else
    int t = 0;
#endif
    float *x = a[t], *y = b[t];
    for (int i = 0; i < N; ++i)
      x[i] = (float)i;
    for (int it = 0; it < ITERS / THREADS; ++it) {
#pragma omp target map(to : x[0:N]) map(tofrom : y[0:N])
      for (int i = 0; i < N; ++i)
        y[i] += x[i];
    }
  }
  printf("%f\n", b[0][N - 1]);
  return 0;
}

// BOUNDED: timeline kept=bounded events=16000 ops=[[OPS:[0-9]+]] omitted=[[OMITTED:[0-9]+]] total=16000
// BOUNDED: threads=1 max-thread=0
// BOUNDED-DAG: duplicate_transfer x: count=1999 linked=10 related=0
// BOUNDED-DAG: repeated_alloc x: count=1999 linked=20 related=1
// BOUNDED-DAG: repeated_alloc y: count=1999 linked=20 related=1
// BOUNDED: check: ops in seq order, links name findings, every event accounted

// DEFAULT: timeline kept=bounded events=16000 ops={{[0-9]+}} omitted={{[0-9]+}} total=16000
// DEFAULT-DAG: duplicate_transfer x: count=1999 linked=256
// DEFAULT-DAG: repeated_alloc x: count=1999 linked=512 related=1
// DEFAULT: check:

// FULL: timeline kept=all events=16000 ops=16000 omitted=0 total=16000
// FULL: ops by type: alloc=4000 d2h=2000 delete=4000 h2d=4000 kernel=2000
// FULL-DAG: duplicate_transfer x: count=1999 linked=1999 related=0
// FULL-DAG: repeated_alloc y: count=1999 linked=3998 related=1
// FULL: check:

// OFF: timeline: none

// THREADS: timeline kept=bounded events=16000
// THREADS: threads=2 max-thread=1
// THREADS: check:

// CHECK: ompdp: mode=check: the stream and full-log reports are identical
// CHECK-NOT: DIFFER
// CHECKED: threads=2 max-thread=1
// CHECKED: check:

// BAD: ompdp: option 'timeline' wants bounded, full or off, not 'sometimes'; using bounded
// BOUNDED-DEFAULT: timeline kept=bounded events=16000
// BOUNDED-DEFAULT: check:
