// ===- device-hash.c - large transfers hashed on the GPU -------------------===//
//
// On an NVIDIA GPU the default (device_hash=2) hashes transfers of 2 MiB
// and more by a kernel over the device copy; verify_hashes=1 compares each
// with the host's hash of the same bytes, which must agree to the bit, and
// the findings must be those of a run hashed on the host (device_hash=0).
// Sizes: below the device threshold (512 KiB), exactly 2 MiB, and 6 MiB + 3
// (a short last chunk): 2 arrays hashed on the device, 3 iterations, both
// ways: 12 transfers. A copy back's time must not include the kernel before
// it: each kernel spins ~30 ms, and the 9 copies back (25.5 MiB in all) must
// take less than 20 ms together (device_sync, the default, waits for the
// kernel before the copy's clock starts).
//
// REQUIRES: plugin, cuda, gpu
// RUN: %clang --config=%nvptx-cfg -O1 %s -o %t -Wl,-rpath,%llvm-libdir
// RUN: %ompdp run --option verify_hashes=1 --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,GPU
// RUN: %ompdp run --option device_hash=0 --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,HOST
// RUN: %ompdp run --format=json -o %t.json -- %t
// RUN: %python -c "import json, sys; o = json.load(open(sys.argv[1]))['observed']['ops']; t = o['d2h']['time_ns']; print('d2h', o['d2h']['count'], t); sys.exit(not (o['d2h']['count'] == 9 and t < 20e6))" %t.json
// GPU: ompdp: device_hash=2: 12 transfers hashed on their device (12 verified equal to the host's hash, 0 differed,
// HOST: ompdp: device_hash=0: 0 transfers hashed on their device
// CHECK: observed: 18 transfers
// CHECK: summary: duplicate_transfers=12 round_trips=9
// CHECK-NOT: differ from the host's hash
// CHECK-NOT: device hashing stopped
#include <stdio.h>
#include <stdlib.h>

int main(void) {
  static const size_t Sizes[] = {512 << 10, 2 << 20, (6 << 20) + 3};
  unsigned char *buf[3];
  for (int k = 0; k < 3; ++k) {
    buf[k] = malloc(Sizes[k]);
    for (size_t i = 0; i < Sizes[k]; ++i)
      buf[k][i] = (unsigned char)(i * 13 + k);
  }
  for (int it = 0; it < 3; ++it)
    for (int k = 0; k < 3; ++k) {
      unsigned char *p = buf[k];
      size_t n = Sizes[k];
#pragma omp target map(tofrom : p[0:n])
      {
        // A kernel that takes a while, leaving the bytes unchanged.
        unsigned long long t0 = __builtin_readcyclecounter(), x = 0;
        while (__builtin_readcyclecounter() - t0 < 50000000ull)
          x += p[x % n];
        if (x == 42)
          p[0] = 0;
      }
    }
  unsigned sum = 0;
  for (int k = 0; k < 3; ++k)
    sum += buf[k][Sizes[k] - 1];
  printf("sum=%u\n", sum);
  return 0;
}
