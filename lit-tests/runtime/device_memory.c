//===- device_memory.c - the peak of device memory and what held it -------===//
//
// `a` (32 KiB) is mapped by `target enter data`, then `b` (64 KiB) and `c`
// (16 KiB) by a `target data` whose kernel uses all three: the device's
// memory in use peaks at 112 KiB when `c` is allocated, held by b, a and c,
// largest first, each with its clause and line. Every allocation is used
// while it exists, so nothing is held for nothing: no early_alloc, no
// late_release. The same line comes back from the JSON report (ompdp
// report); the JSON has the peak, its holders and the series of the bytes
// in use.
// NOPLUGIN, without the compiler plugin the holders are named by their
// location. TWO, device 1 gets an allocation of its own: a line per device.
// NONE, a kernel that maps nothing allocates nothing: no line at all.
//
// REQUIRES: plugin
// RUN: %clang-ompdp %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefixes=TEXT,ONE
// RUN: %ompdp run --format=json -o %t.json -- %t
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %ompdp report %t.json | FileCheck %s --check-prefixes=TEXT,ONE
// RUN: %clang-offload -g %s -o %t.np
// RUN: %ompdp run -- %t.np 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// RUN: %clang-ompdp -DTWO %s -o %t.two
// RUN: %ompdp run -- %t.two 2>&1 | FileCheck %s --check-prefixes=TEXT,TWO
// RUN: %clang-ompdp -DNONE %s -o %t.none
// RUN: %ompdp run -- %t.none 2>&1 | FileCheck %s --check-prefix=NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

static double a[N], b[2 * N], c[N / 2];

int main(void) {
  double s = 0;
#ifdef NONE
  int x = 3;
#pragma omp target firstprivate(x)
  {
    volatile int y = x * 2;
    (void)y;
  }
  s = x;
#else
  for (int i = 0; i < N; ++i)
    a[i] = b[i] = b[N + i] = i + 1;
#pragma omp target enter data map(to: a[0:N])
#pragma omp target data map(tofrom: b[0:2*N]) map(alloc: c[0:N/2])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N / 2; ++i) {
      c[i] = a[i];
      b[i] += c[i] + a[i + N / 2];
    }
  }
#pragma omp target exit data map(delete: a[0:N])
  for (int i = 0; i < 2 * N; ++i)
    s += b[i];
#ifdef TWO
#pragma omp target map(tofrom: c[0:N/2]) device(1)
  c[0] += 1;
#endif
#endif
  printf("s=%g\n", s);
  return 0;
}

// TEXT: summary: {{.*}} early_allocs=0 late_releases=0
// ONE: peak device memory: 112.0 KiB on device 0 at {{[0-9.]+ [mun]?s}}, 3 allocations live: b 64.0 KiB (map(tofrom: b[0:2*N]) at {{.*}}device_memory.c:48), a 32.0 KiB (map(to: a[0:N]) at {{.*}}device_memory.c:47), c 16.0 KiB (map(alloc: c[0:N/2]) at {{.*}}device_memory.c:48){{$}}
// TWO: peak device memory: 112.0 KiB on device 0 at
// TWO-NEXT: peak device memory: 16.0 KiB on device 1 at {{[0-9.]+ [mun]?s}}, 1 allocation live: c 16.0 KiB (map(tofrom: c[0:N/2]) at {{.*}}device_memory.c:60){{$}}
// TEXT-NOT: peak device memory with the fixes
// TEXT-NOT: early_alloc
// TEXT-NOT: late_release

// JSON: "device_memory": [
// JSON-NEXT: {"device": 0, "peak_bytes": 114688, "peak_time_ns": {{[0-9]+}}, "peak_allocations": 3, "peak_saved_bytes": 0,
// JSON-NEXT: "final_bytes": 0, "allocated_bytes": {{[0-9]+}}, "allocations": {{[0-9]+}}, "end_ns": {{[0-9]+}},
// JSON-NEXT: "holders": [
// JSON-NEXT: {"variable": "b", "clause": "map(tofrom: b[0:2*N])", "file": "{{.*}}device_memory.c", "line": 48, "column": 1, "function": "main", "bytes": 65536, "allocations": 1},
// JSON-NEXT: {"variable": "a", "clause": "map(to: a[0:N])", "file": "{{.*}}device_memory.c", "line": 47, "column": 1, "function": "main", "bytes": 32768, "allocations": 1},
// JSON-NEXT: {"variable": "c", "clause": "map(alloc: c[0:N/2])", "file": "{{.*}}device_memory.c", "line": 48, "column": 1, "function": "main", "bytes": 16384, "allocations": 1}
// JSON-NEXT: ],
// JSON-NEXT: "other_bytes": 0, "other_allocations": 0,
// JSON-NEXT: "series": {{\[\[}}{{[0-9]+}}, 32768], [{{[0-9]+}}, 98304], [{{[0-9]+}}, 114688],

// NOPLUGIN: peak device memory: 112.0 KiB on device 0 at {{[0-9.]+ [mun]?s}}, 3 allocations live: 80.0 KiB in 2 allocations ({{.*}}device_memory.c:48 in main), 32.0 KiB ({{.*}}device_memory.c:47 in main){{$}}

// NONE: s=3
// NONE-NOT: peak device memory
