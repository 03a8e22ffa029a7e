//===- host_threads.c - two host threads offloading at once ---------------===//
//
// Two threads of a parallel region each send their own array (different
// bytes per thread) to device 0 three times in a row: per thread, 2
// duplicates and 2 repeated allocations, so 4 and 4 in all, and nothing
// across threads. Each result has its own buffer and its own value.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run --format=json -- %t 2>&1 | FileCheck %s --check-prefix=JSON
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define N 256
#define ITERS 3

// TEXT: threads=2
// TEXT: observed: 12 transfers ({{.*}}), 12 allocations, 6 kernels
// TEXT-NEXT: summary: duplicate_transfers=4 round_trips=0 repeated_allocs=4 unused_allocs=0 unused_transfers=0
// TEXT: duplicate_transfer {{.*}}host_threads.c:[[@LINE+22]]:1 in main  count=4 bytes=4.0 KiB {{.*}} devices=0{{$}}
// TEXT-NEXT: 4 from the same host buffer, 0 from other buffers with the same bytes
// TEXT-NOT: round_trip
// TEXT: repeated_alloc {{.*}}host_threads.c:[[@LINE+19]]:1 in main  count=4 bytes=4.0 KiB {{.*}} devices=0{{$}}
// TEXT-NOT: unused_

// JSON: "duplicate_transfers": 4,
// JSON-NEXT: "round_trips": 0,
// JSON-NEXT: "repeated_allocs": 4,
// JSON-NEXT: "unused_allocs": 0,
// JSON-NEXT: "unused_transfers": 0,
// JSON: "partial": false,

int main(void) {
  int nthreads = 0;
#pragma omp parallel num_threads(2)
  {
    int tid = omp_get_thread_num();
    int a[N], r[ITERS];
    for (int i = 0; i < N; ++i)
      a[i] = tid * 100000 + i;
    for (int it = 0; it < ITERS; ++it) {
#pragma omp target map(to : a) map(from : r[it:1])
      {
        r[it] = it;
        for (int i = 0; i < N; ++i)
          r[it] += a[i];
      }
    }
#pragma omp atomic
    nthreads += r[0] != r[1];
  }
  printf("threads=%d\n", nthreads);
  return 0;
}
