//===- duplicate_transfer.c - the same bytes sent to a device twice -------===//
//
// SAME, one host array mapped `to` by two target regions in a row (Listing 1):
// the second copy is a duplicate of the first, and the array is allocated
// twice on device 0. The sums start at different values so that nothing else
// repeats: 1 duplicate, 1 repeated allocation, nothing more.
// OTHER, two different zero-filled arrays sent by one region: the second
// holds the same bytes as the first, so it is a duplicate "from another
// buffer"; two different host buffers are not a repeated allocation. It is
// reported at the region's line.
// NONE, the array changes on the host between the two regions: nothing is
// sent twice (but it is still allocated twice).
//
// RUN: %clang-offload -g -DSAME %s -o %t.same
// RUN: %ompdp run -- %t.same 2>&1 | FileCheck %s --check-prefix=SAME
// RUN: %ompdp run --format=json -- %t.same 2>&1 | FileCheck %s --check-prefix=SAME-JSON
// RUN: %clang-offload -g -DOTHER %s -o %t.other
// RUN: %ompdp run -- %t.other 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %ompdp run --format=json -- %t.other 2>&1 | FileCheck %s --check-prefix=OTHER-JSON
// RUN: %clang-offload -g -DNONE %s -o %t.none
// RUN: %ompdp run --format=json -- %t.none 2>&1 | FileCheck %s --check-prefix=NONE-JSON
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

// SAME: s1=523777 s2=523778
// SAME: summary: duplicate_transfers=1 round_trips=0 repeated_allocs=1 unused_allocs=0 unused_transfers=0
// SAME-JSON: "summary": {
// SAME-JSON-NEXT: "duplicate_transfers": 1,
// SAME-JSON-NEXT: "round_trips": 0,
// SAME-JSON-NEXT: "repeated_allocs": 1,
// SAME-JSON-NEXT: "unused_allocs": 0,
// SAME-JSON-NEXT: "unused_transfers": 0,
// SAME-JSON: "findings": [
// SAME-JSON-NEXT: {
// SAME-JSON-NEXT: "kind": "duplicate_transfer",
// SAME-JSON-NEXT: "count": 1,
// SAME-JSON-NEXT: "bytes": 4096,
// SAME-JSON: "devices": [0],
// SAME-JSON: "same_buffer": 1,
// SAME-JSON-NEXT: "other_buffer": 0
// SAME-JSON: "kind": "repeated_alloc",
// SAME-JSON-NEXT: "count": 1,
// SAME-JSON-NEXT: "bytes": 4096,
// SAME-JSON-NOT: "kind":

// OTHER: z=1029
// OTHER: summary: duplicate_transfers=1 round_trips=0 repeated_allocs=0 unused_allocs=0 unused_transfers=0
// OTHER-JSON: "duplicate_transfers": 1,
// OTHER-JSON: "repeated_allocs": 0,
// OTHER-JSON: "kind": "duplicate_transfer",
// OTHER-JSON-NEXT: "count": 1,
// OTHER-JSON-NEXT: "bytes": 4096,
// OTHER-JSON: "same_buffer": 0,
// OTHER-JSON-NEXT: "other_buffer": 1
// Both arrays hold only zeros: two zero transfers at the region.
// OTHER-JSON: "kind": "zero_transfer",
// OTHER-JSON-NEXT: "count": 2,
// OTHER-JSON-NEXT: "bytes": 8192,
// OTHER-JSON-NOT: "kind":

// NONE-JSON: "duplicate_transfers": 0,
// NONE-JSON-NEXT: "round_trips": 0,
// NONE-JSON-NEXT: "repeated_allocs": 1,
// NONE-JSON-NOT: "duplicate_transfer"

int main(void) {
#if defined(SAME) || defined(NONE)
  int a[N], s1 = 1, s2 = 2;
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target map(to : a) map(tofrom : s1)
  for (int i = 0; i < N; ++i)
    s1 += a[i];
#ifdef NONE
  a[0] = 7;
#endif
#pragma omp target map(to : a) map(tofrom : s2)
  for (int i = 0; i < N; ++i)
    s2 += a[i];
  // SAME: Duplicate transfers:
  // SAME-NEXT: duplicate_transfer {{.*}}duplicate_transfer.c:[[@LINE-4]]:1 in main count=1 bytes=4.0 KiB {{.*}} devices=0{{$}}
  // SAME-NEXT: 1 from the same host buffer, 0 from other buffers with the same bytes
  // SAME-NEXT: first sent at {{.*}}duplicate_transfer.c:[[@LINE-12]]:1 in main
  // SAME-NEXT: verdict: advice
  // SAME-NEXT: suggestion: {{.*}}target data
  // SAME-NOT: duplicate_transfer
  // SAME-NOT: round_trip
  // SAME: repeated_alloc {{.*}}duplicate_transfer.c:[[@LINE-11]]:1 in main count=1 bytes=4.0 KiB {{.*}} devices=0{{$}}
  // SAME-NEXT: first allocated at {{.*}}duplicate_transfer.c:[[@LINE-18]]:1 in main
  // SAME-NOT: unused_
  // SAME-NOT: repeated_alloc
  printf("s1=%d s2=%d\n", s1, s2);
#else
  static int z1[N], z2[N];
  int z = 5;
#pragma omp target map(to : z1, z2) map(tofrom : z)
  for (int i = 0; i < N; ++i)
    z += z1[i] + z2[i] + 1;
  // OTHER: duplicate_transfer {{.*}}duplicate_transfer.c:[[@LINE-3]]:1 in main count=1 bytes=4.0 KiB {{.*}} devices=0{{$}}
  // OTHER-NEXT: 0 from the same host buffer, 1 from other buffers with the same bytes
  // OTHER-NOT: repeated_alloc
  // OTHER-NOT: round_trip
  printf("z=%d\n", z);
#endif
  return 0;
}
