//===- finished_report.c - the runtime finishes the report ompdp run prints ===//
//
// Under `ompdp run` the runtime writes, besides its report, the report as the
// driver would print it (rewrites planned, findings sorted, the exit status
// that on_exit() gave it) in the format asked for, and the driver prints
// those bytes instead of reading the report back: most of what ompdp added
// to a short run. OMPDP_CHECK_FINAL=1 makes the driver complete the report
// itself as well and compare: the two must be identical, in each format the
// runtime can write, for a report with a rewrite and an exit status of 3.
// Where the runtime cannot finish it (an HTML page or a trace, which only
// the driver renders; a projection for another device; a program killed by
// a signal), nothing is compared and the driver completes the report as
// before.
//
// REQUIRES: plugin
// RUN: rm -f %t.abort.json %t.fast.json %t.json %t.long.json %t.proj.json && %clang-ompdp %s -o %t
// RUN: env OMPDP_CHECK_FINAL=1 not %ompdp run --format=json -o %t.json -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: env OMPDP_CHECK_FINAL=1 not %ompdp run --format=text -o %t.txt -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: env OMPDP_CHECK_FINAL=1 not %ompdp run --format=sarif -o %t.sarif -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=SAME
// RUN: env OMPDP_CHECK_FINAL=1 not %ompdp run -- %t 2>&1 | FileCheck %s --check-prefixes=SAME,TEXT
//
// The printed report is the finished one: same content as above.
// RUN: sh -c '%ompdp run --format=json -o %t.fast.json -- %t; echo rc=$?' | FileCheck %s --check-prefix=RC3
// RUN: FileCheck %s --check-prefix=JSON < %t.fast.json
// An existing longer file is overwritten in place and cut to the report.
// RUN: %python -c "print('x' * 400000)" > %t.long.json
// RUN: not %ompdp run --format=json -o %t.long.json -- %t
// RUN: %python -c "import json,sys; json.load(open(sys.argv[1]))" %t.long.json
// RUN: FileCheck %s --check-prefix=JSON < %t.long.json
//
// RUN: env OMPDP_CHECK_FINAL=1 not %ompdp run --format=html -o %t.html -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: env OMPDP_CHECK_FINAL=1 not %ompdp run --device=h100-sxm --format=json -o %t.proj.json -- %t 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=PROJ < %t.proj.json
// RUN: %clang-ompdp -DABORT %s -o %t.abort
// RUN: env OMPDP_CHECK_FINAL=1 not --crash %ompdp run --format=json -o %t.abort.json -- %t.abort 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NONE
// RUN: FileCheck %s --check-prefix=ABORT < %t.abort.json
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 4096

// SAME: ompdp: check: the runtime's finished report is identical
// NONE-NOT: ompdp: check
// RC3: rc=3
// TEXT: exit status: 3
// TEXT: duplicate_transfer {{.*}}finished_report.c:[[@LINE+17]]
// JSON: "exit_status": 3,
// JSON: "kind": "duplicate_transfer",
// JSON: "variable": "a",
// JSON: "rewrites": [
// PROJ: "projection": {
// ABORT: "exit_status": 134,
// ABORT: "kind": "duplicate_transfer",

int main(void) {
  static double a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int it = 0; it < 4; ++it) {
    // a is sent again, unchanged, by every iteration: keep it on the device
    // across the loop (a rewrite); b comes back each time and the host
    // reads it.
#pragma omp target teams distribute parallel for map(to : a) map(from : b)
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
    if (b[N - 1] < 0)
      return 1;
  }
  printf("b[1]=%g\n", b[1]);
#ifdef ABORT
  abort();
#endif
  return 3;
}
