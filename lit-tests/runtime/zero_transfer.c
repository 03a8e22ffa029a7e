//===- zero_transfer.c - host-to-device copies of nothing but zeros -------===//
//
// A loop copies `zeros` (all zero), `one` (zero but for one byte) and
// `flag` (a zero int) to the device three times; a last construct copies
// `out` back from the device, where it was zeroed. Only `zeros` is a zero
// transfer: 3 copies of 32 KiB at one site. `one` differs in one byte, the
// copy back is the device's result, and `flag` is below zero_min_bytes
// (64 by default). With zero_min_bytes=1 the zero `flag` counts too, and
// so does `sum`, zero before the first iteration: 3 + 3 + 1 copies.
// The stream analysis and the full log's agree byte for byte (mode=check).
//
// RUN: rm -f %t.check.json && %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run --format=json -- %t 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %ompdp run --format=json -o %t.check.json --option mode=check --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: FileCheck %s --check-prefix=CHECK-JSON < %t.check.json
// RUN: %ompdp run --option zero_min_bytes=1 -- %t 2>&1 | FileCheck %s --check-prefix=MIN1
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  static double zeros[N], out[N];
  static unsigned char one[8 * N];
  int flag = 0;
  double sum = 0;
  one[4 * N] = 1;
  for (int it = 0; it < 3; ++it) {
#pragma omp target map(to : zeros[0:N], one[0:8 * N], flag) map(tofrom : sum)
    for (int i = 0; i < N; ++i)
      sum += zeros[i] + one[8 * i] + flag;
  }
#pragma omp target map(from : out[0:N])
  for (int i = 0; i < N; ++i)
    out[i] = 0;
  printf("sum=%g out=%g\n", sum, out[0]);
  return 0;
}

// TEXT: summary: {{.*}} zero_transfers=3 overbroad_maps=0
// TEXT: Zero-filled transfers: every byte copied to a device was zero
// TEXT-NEXT: zero_transfer  {{.*}}zero_transfer.c:30:1 in main  count=3 bytes=96.0 KiB time={{.*}} saved={{.*}} devices=0
// TEXT-NEXT: verdict: advice
// TEXT-NEXT: suggestion: every byte copied to device 0 was zero: map the buffer with `map(alloc: ...)` and fill it with zeros on the device
// TEXT-NOT: zero_transfer

// JSON: "zero_transfers": 3,
// JSON: "kind": "zero_transfer",
// JSON-NEXT: "count": 3,
// JSON-NEXT: "bytes": 98304,
// JSON-NEXT: "time_ns": [[T:[0-9]+]],
// JSON-NEXT: "time_saved_ns": [[T]],
// JSON-NEXT: "devices": [0],
// JSON-NOT: "kind": "zero_transfer"

// CHECK: ompdp: mode=check: the stream and full-log reports are identical
// CHECK-NOT: differ
// CHECK-JSON: "zero_transfers": 3,
// CHECK-JSON: "warnings": []

// MIN1: zero_transfers=7
// MIN1: zero_transfer  {{.*}}zero_transfer.c:30:1 in main  count=7 bytes=96.0 KiB
