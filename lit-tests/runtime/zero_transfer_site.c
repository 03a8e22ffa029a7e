//===- zero_transfer_site.c - a zero transfer names its map item ----------===//
//
// Built with the plugin, the zero transfer of `zeros` is the item's own
// finding (not shared with `one`, which goes to the same construct): its
// variable and clause, the region ID, the item's index and source range,
// so that a rewrite (or the compiler, given the report as a profile) finds
// the item. The compiler warns at the item, in -Wompdp-zero-transfer.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --format=json -o r.json --option mode=check --option verbose=1 -- ./prog 2>&1 | FileCheck %s --check-prefix=CHECK
// RUN: FileCheck %s --check-prefix=JSON < %t/r.json
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=r.json -fno-caret-diagnostics 2>&1 | FileCheck %s --check-prefix=DIAG
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096

int main(void) {
  static double zeros[N];
  static unsigned char one[8 * N];
  double sum = 1;
  one[4 * N] = 1;
  for (int it = 0; it < 3; ++it) {
#pragma omp target map(to : one[0:8 * N], zeros[0:N]) map(tofrom : sum)
    for (int i = 0; i < N; ++i)
      sum += zeros[i] + one[8 * i];
  }
  printf("sum=%g\n", sum);
  return 0;
}

// CHECK: ompdp: mode=check: the stream and full-log reports are identical

// JSON: "zero_transfers": 3,
// JSON: "kind": "zero_transfer",
// JSON-NEXT: "count": 3,
// JSON-NEXT: "bytes": 98304,
// JSON: "line": 26,
// JSON-NEXT: "column": 1,
// JSON-NEXT: "function": "main",
// JSON-NEXT: "variable": "zeros",
// JSON-NEXT: "clause": "map(to : one[0:8 * N], zeros[0:N])",
// JSON: "region_id": "{{[0-9a-f]+}}",
// JSON-NEXT: "item": 1,
// JSON-NEXT: "range": {"line": 26, "column": 43, "end_line": 26, "end_column": 53,
// JSON-NOT: "kind": "zero_transfer"

// DIAG: prog.c:26:43: warning: zero-filled transfer: 'zeros' in map(to : one[0:8 * N], zeros[0:N]) copies only zero bytes to the device, 3 times [-Wompdp-zero-transfer]
// DIAG-NEXT: prog.c:26:43: note: measured: 3 zero-filled transfers, 96.0 KiB in {{.*}} on device 0
// DIAG-NOT: 'one'{{.*}}-Wompdp-zero-transfer
