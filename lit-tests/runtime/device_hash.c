//===- device_hash.c - transfers hashed on the device, as on a GPU ---------===//
//
// device_hash=1 hashes every transfer of 256 KiB and more from its device
// copy, with the lanes of include/ompdp/xxh3_lanes.h that the GPU kernel
// runs (here, on host offload, the device copy is host memory and the same
// code runs on the host). The value must be the host path's to the bit:
// with verify_hashes=1 every device hash is compared with the host's hash
// of the same bytes (verbose mode counts them), and the findings are the
// same as with device_hash=0. Sizes on each side of the chunked threshold
// (256 KiB - 1, 256 KiB, 256 KiB + 1) and one of several chunks with a short
// last chunk (3 MiB + 5): 3 arrays of 256 KiB and more, 2 iterations, both
// directions: 12 transfers hashed on the device. The default (2) hashes on
// NVIDIA GPUs only: none here.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --option device_hash=1 --option verify_hashes=1 --option verbose=1 -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,DEVICE
// RUN: %ompdp run --option device_hash=0 --option verbose=1 -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: %ompdp run --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=device_hash=3 %t 2>&1 | FileCheck %s --check-prefix=BAD
//
// DEVICE: ompdp: device_hash=1: 12 transfers hashed on their device (12 verified equal to the host's hash, 0 differed,
// HOST-NOT: transfers hashed on their device
// CHECK-NOT: hash collisions
// CHECK: summary: duplicate_transfers=8 round_trips=8 repeated_allocs=4
// CHECK-NOT: differ from the host's hash
// CHECK: duplicate_transfer {{.*}}device_hash.c:[[@LINE+20]]:1 in main  count=8 bytes=7.5 MiB
// CHECK: round_trip {{.*}}device_hash.c:[[@LINE+19]]:1 in main  count=8 bytes=7.5 MiB
// BAD: ompdp: option device_hash wants 0, 1 or 2
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static const size_t Sizes[] = {(256 << 10) - 1, 256 << 10, (256 << 10) + 1, (3 << 20) + 5};
  unsigned char *buf[4];
  for (int k = 0; k < 4; ++k) {
    buf[k] = malloc(Sizes[k]);
    for (size_t i = 0; i < Sizes[k]; ++i)
      buf[k][i] = (unsigned char)(i * 7 + k);
  }
  for (int it = 0; it < 2; ++it)
    for (int k = 0; k < 4; ++k) {
      unsigned char *p = buf[k];
      size_t n = Sizes[k];
      // Sent and copied back unchanged each time: duplicates and round trips.
#pragma omp target map(tofrom : p[0:n])
      { p[0] = p[0]; }
    }
  unsigned sum = 0;
  for (int k = 0; k < 4; ++k)
    sum += buf[k][Sizes[k] - 1];
  printf("sum=%u\n", sum);
  return 0;
}
