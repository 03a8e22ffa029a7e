//===- hash_helper.c - large buffers hashed on the helper thread -----------===//
//
// Buffers of 256 KiB and more are hashed on ompdp's helper thread while the
// OpenMP runtime copies them, by default when the transfer runs alone
// (hash_helper=2), always (1) or never (0). The hash is the same XXH3 of the
// same bytes whichever thread computes it, so the findings are the same in
// the three modes: `a` (1 MiB) is sent unchanged by each of 4 iterations
// and `b` (2 MiB) goes and comes back unchanged each time (duplicates and
// round trips), and two host threads then send arrays of their own, whose
// copies may overlap (those are hashed inline in the default mode). The
// default mode says in verbose mode how many large transfers ran alone and
// how many came within 200 ms of a kernel on the host's cores (host
// offload: hashed inline, the kernel's threads being on the cores the
// helper would take): the first iteration's copies to the device come
// before any kernel, the later ones after one.
//
// REQUIRES: threads
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,AUTO
// RUN: %ompdp run --option hash_helper=1 -- %t 2>&1 | FileCheck %s
// RUN: %ompdp run --option hash_helper=0 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,INLINE
// RUN: %ompdp run --option hash_helper=1 --option verify_hashes=1 --format=json -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=VERIFY
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define NA (1 << 17) /* doubles: 1 MiB */
#define NB (1 << 18) /* 2 MiB */
#define NT (1 << 16) /* 512 KiB per thread */

// AUTO: ompdp: hash_helper=2: {{[1-9][0-9]*}} large transfers ran alone (hashed on the helper while it was free), {{[0-9]+}} beside others (hashed inline), {{[1-9][0-9]*}} within 200 ms of a kernel on host cores (hashed inline)
// INLINE-NOT: hash_helper=2
// CHECK: summary: duplicate_transfers=18 round_trips=7 repeated_allocs=13
// The report orders findings by the time they cost, which the copies'
// times decide (under ThreadSanitizer the 2 MiB ones can take longer):
// CHECK-DAG: duplicate_transfer {{.*}}hash_helper.c:[[@LINE+16]]:1 in main  count=14 bytes=15.0 MiB
// CHECK-DAG: duplicate_transfer {{.*}}hash_helper.c:[[@LINE+28]]:1 in main  count=4 bytes=2.0 MiB
// CHECK-DAG: round_trip {{.*}}hash_helper.c:[[@LINE+14]]:1 in main  count=7 bytes=8.0 MiB
// VERIFY: "hash_collisions": 0,

static double a[NA], b[NB];

int main(void) {
  for (int i = 0; i < NA; ++i)
    a[i] = i;
  for (int i = 0; i < NB; ++i)
    b[i] = 0.5 * i;
  double sum = 0;
  for (int it = 0; it < 4; ++it) {
    // a: sent again, unchanged (duplicates); b: sent, copied back
    // unchanged and sent again (round trips).
#pragma omp target map(to : a) map(tofrom : b) map(tofrom : sum)
    {
      sum = 0;
      for (int i = 0; i < NA; i += 4096)
        sum += a[i] + b[2 * i];
    }
  }
  static double t[2][NT];
#pragma omp parallel for num_threads(2)
  for (int me = 0; me < 2; ++me) {
    for (int i = 0; i < NT; ++i)
      t[me][i] = me * 1000.0 + i;
    for (int r = 0; r < 3; ++r) {
#pragma omp target map(to : t[me][0 : NT])
      { t[me][0] += 0; }
    }
  }
  printf("sum=%g\n", sum);
  return 0;
}
