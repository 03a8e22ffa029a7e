//===- runtime_direct.c - the runtime without the driver ------------------===//
//
// The runtime is an OMPT tool: OMP_TOOL_LIBRARIES loads it into any offload
// program, and OMPDP_OPTIONS (space-separated name=value) says where and how
// it writes its report. The program's own exit status is kept.
// TEXT, the default: a text report on stderr.
// JSON, format=json output=FILE: the JSON report in FILE, nothing on stderr.
// UNKNOWN, an unknown option name is reported, not ignored; the run goes on.
// VERIFY, verify_hashes=1 keeps copies and counts collisions: none here.
//
// RUN: %clang-offload -g %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: rm -f %t.json
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.json" %t 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="bogus=1" %t 2>&1 | FileCheck %s --check-prefixes=UNKNOWN,TEXT
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="verify_hashes=1 format=json" %t 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="verbose=1" %t 2>&1 | FileCheck %s --check-prefix=VERBOSE
// Without the tool, the program runs as usual and nothing is reported.
// RUN: %t 2>&1 | FileCheck %s --check-prefix=NOTOOL
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 100

// UNKNOWN: ompdp: unknown option 'bogus' in OMPDP_OPTIONS
// TEXT: r=4950 4951
// TEXT: === ompdp report ===
// TEXT: summary: duplicate_transfers=1 round_trips=0 repeated_allocs=1 unused_allocs=0 unused_transfers=0
// TEXT: duplicate_transfer {{.*}}runtime_direct.c:[[@LINE+33]]:1 in main count=1 bytes=400 B

// QUIET: r=4950 4951
// QUIET-NOT: {{.}}

// JSON: "ompdp_report_version": 2,
// JSON: "argv": ["{{.*}}runtime_direct.c.tmp"],
// JSON: "duplicate_transfers": 1,
// JSON-NEXT: "round_trips": 0,
// JSON-NEXT: "repeated_allocs": 1,
// JSON: "transfers": 4,
// JSON-NEXT: "allocs": 4,
// JSON-NEXT: "deletes": 4,
// JSON-NEXT: "kernels": 2,
// JSON: "partial": false,
// JSON: "kind": "duplicate_transfer",
// JSON-NEXT: "count": 1,
// JSON-NEXT: "bytes": 400,

// VERIFY: "hash_collisions": 0
// VERIFY: "kind": "duplicate_transfer",

// VERBOSE: ompdp: {{.+}}
// VERBOSE: === ompdp report ===

// NOTOOL: r=4950 4951
// NOTOOL-NOT: ompdp

int main(void) {
  static int a[N], r[2];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : a) map(from : r[k:1])
    {
      r[k] = k;
      for (int i = 0; i < N; ++i)
        r[k] += a[i];
    }
  }
  printf("r=%d %d\n", r[0], r[1]);
  // The runtime writes its report when the OpenMP runtime shuts down, which
  // may come before the C library flushes a piped stdout.
  fflush(stdout);
  return 0;
}
