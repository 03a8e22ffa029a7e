//===- multi_device.c - findings name the device they happened on ---------===//
//
// PER, the Listing 1 pattern run on device 1 and then on device 3: each
// device receives `a` twice, so there is one duplicate and one repeated
// allocation per device (2 each), reported at the second region, on
// devices 1 and 3. The results differ per device and per region, so the
// host never receives the same bytes twice.
// CROSS, `a` is sent once to device 1 and once to device 3: the same bytes
// on two different devices are not a duplicate, and not a repeated
// allocation.
//
// RUN: %clang-offload -g -DPER %s -o %t.per
// RUN: %ompdp run -- %t.per 2>&1 | FileCheck %s --check-prefix=PER
// RUN: %ompdp run --format=json -- %t.per 2>&1 | FileCheck %s --check-prefix=PER-JSON
// RUN: %clang-offload -g -DCROSS %s -o %t.cross
// RUN: %ompdp run -- %t.cross 2>&1 | FileCheck %s --check-prefix=CROSS
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 300

static int a[N];
static int res[4]; // one result buffer per call: only `a` is reallocated

static int region(int dev, int extra, int k) {
#pragma omp target map(to : a) map(from : res[k:1]) device(dev)
  {
    res[k] = extra + dev;
    for (int i = 0; i < N; ++i)
      res[k] += a[i];
  }
  return res[k];
}

// PER: r=44851 44951 44853 44953
// PER: summary: duplicate_transfers=2 round_trips=0 repeated_allocs=2 unused_allocs=0 unused_transfers=0
// PER: duplicate_transfer {{.*}}multi_device.c:[[@LINE-11]]:1 in region count=2 bytes=2.3 KiB {{.*}} devices=1,3{{$}}
// PER-NOT: devices={{.*}}0
// PER-NOT: devices={{.*}}2
// PER: repeated_alloc {{.*}}multi_device.c:[[@LINE-14]]:1 in region count=2 bytes=2.3 KiB {{.*}} devices=1,3{{$}}
// PER-NOT: devices={{.*}}0
// PER-NOT: devices={{.*}}2

// PER-JSON: "duplicate_transfers": 2,
// PER-JSON-NEXT: "round_trips": 0,
// PER-JSON-NEXT: "repeated_allocs": 2,
// PER-JSON: "kind": "duplicate_transfer",
// PER-JSON-NEXT: "count": 2,
// PER-JSON-NEXT: "bytes": 2400,
// PER-JSON: "devices": [1, 3],
// PER-JSON: "kind": "repeated_alloc",
// PER-JSON-NEXT: "count": 2,
// PER-JSON-NEXT: "bytes": 2400,
// PER-JSON: "devices": [1, 3],

// CROSS: r=44851 44853
// CROSS: summary: duplicate_transfers=0 round_trips=0 repeated_allocs=0 unused_allocs=0 unused_transfers=0
// CROSS: no inefficient data movement found

int main(void) {
  for (int i = 0; i < N; ++i)
    a[i] = i;
#ifdef PER
  int r1 = region(1, 0, 0), r2 = region(1, 100, 1);
  int r3 = region(3, 0, 2), r4 = region(3, 100, 3);
  printf("r=%d %d %d %d\n", r1, r2, r3, r4);
#else
  int r1 = region(1, 0, 0), r3 = region(3, 0, 1);
  printf("r=%d %d\n", r1, r3);
#endif
  return 0;
}
