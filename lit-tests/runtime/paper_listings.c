//===- paper_listings.c - Listings 1 and 2 of the OMPDataPerf paper -------===//
//
// Listing 1: `a` is sent to device 0 by two target regions in a row: one
// duplicate transfer and one repeated allocation (sum and prod are different
// buffers holding different values). Listing 2: a kernel in a loop of 10
// with `a2` implicitly mapped tofrom: 9 round trips and 9 repeated
// allocations. In all: duplicates 1, round trips 9, repeated allocations 10.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run --format=json -- %t 2>&1 | FileCheck %s --check-prefix=JSON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024
#define ITERS 10

// TEXT: listing1: sum=1706 prod=32
// TEXT-NEXT: listing2: a2[N-1]=10230
// TEXT: observed: 26 transfers ({{.*}}), 14 allocations, 12 kernels
// TEXT-NEXT: summary: duplicate_transfers=1 round_trips=9 repeated_allocs=10 unused_allocs=0 unused_transfers=0

// JSON: "summary": {
// JSON-NEXT: "duplicate_transfers": 1,
// JSON-NEXT: "round_trips": 9,
// JSON-NEXT: "repeated_allocs": 10,
// JSON-NEXT: "unused_allocs": 0,
// JSON-NEXT: "unused_transfers": 0,
// JSON: "findings": [
// JSON: "kind": "duplicate_transfer",
// JSON-NEXT: "count": 1,
// JSON-NEXT: "bytes": 4096,
// JSON: "devices": [0],
// JSON-NEXT: "file": "{{.*}}paper_listings.c",
// JSON-NEXT: "line": [[#@LINE+27]],
// JSON-NEXT: "column": 1,
// JSON-NEXT: "function": "listing1",
// JSON: "kind": "round_trip",
// JSON-NEXT: "count": 9,
// JSON-NEXT: "bytes": 36864,
// JSON: "function": "listing2",
// Findings of one kind come in an order of their own (time saved): the two
// repeated allocations are checked in any order.
// JSON: "kind": "repeated_alloc",
// JSON: "kind": "repeated_alloc",
// `a2` is static: its first copy in holds only zeros (a zero transfer, the
// ValueExpert pattern, which Table 1 of the paper does not count).
// JSON: "kind": "zero_transfer",
// JSON-NEXT: "count": 1,
// JSON-NEXT: "bytes": 4096,
// JSON-NOT: "kind":

static void listing1(void) {
  int a[N], sum = 0, prod = 1;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 == 0 ? 1 : 2;
#pragma omp target map(to : a) map(tofrom : sum)
#pragma omp parallel for reduction(+ : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];

#pragma omp target map(to : a) map(tofrom : prod)
#pragma omp parallel for reduction(* : prod)
  for (int i = 0; i < 8; ++i)
    prod *= a[i];
  printf("listing1: sum=%d prod=%d\n", sum, prod);
}
// TEXT: duplicate_transfer {{.*}}paper_listings.c:[[@LINE-6]]:1 in listing1 count=1 bytes=4.0 KiB {{.*}} devices=0{{$}}
// TEXT-NEXT: 1 from the same host buffer, 0 from other buffers with the same bytes
// TEXT-NEXT: first sent at {{.*}}paper_listings.c:[[@LINE-13]]:1 in listing1

static void listing2(void) {
  static int a2[N];
  for (int i = 0; i < ITERS; ++i) {
#pragma omp target parallel for
    for (int j = 0; j < N; ++j)
      a2[j] += j;
  }
  printf("listing2: a2[N-1]=%d\n", a2[N - 1]);
}
// TEXT: round_trip {{.*}}paper_listings.c:[[@LINE-6]]:1 in listing2 count=9 bytes=36.0 KiB {{.*}} devices=0{{$}}
// TEXT-NEXT: outgoing copy at {{.*}}paper_listings.c:[[@LINE-7]]:1 in listing2
// TEXT-DAG: repeated_alloc {{.*}}paper_listings.c:[[@LINE-21]]:1 in listing1 count=1 bytes=4.0 KiB {{.*}} devices=0{{$}}
// TEXT-DAG: first allocated at {{.*}}paper_listings.c:[[@LINE-27]]:1 in listing1
// TEXT-DAG: repeated_alloc {{.*}}paper_listings.c:[[@LINE-10]]:1 in listing2 count=9 bytes=36.0 KiB {{.*}} devices=0{{$}}
// TEXT-NOT: unused_

int main(void) {
  listing1();
  listing2();
  return 0;
}
