//===- verdict-notes.c - findings that are no saving are remarks ----------===//
//
// A counter reset with `target update to(count[0:1])` every iteration and
// read back with `target update from(count[0:1])`: its duplicates and round
// trips are necessary (docs/report-format.md, Verdicts). Recompiled with the
// run's report as a profile, each is a remark that says so (with a note
// giving the measured cost), never a warning, and -Werror does not make it
// an error; the copy back is said to bring the host bytes, not to send the
// device any. The kernel's array `x`, kept in a `target data`, has no finding.
//
// The program is the COUNTER one of runtime/verdicts.c.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g -DCOUNTER %S/../runtime/verdicts.c -o %t
// RUN: %ompdp run --format=json -o %t.json -- %t
// RUN: %clang-ompdp -DCOUNTER -c -o /dev/null %S/../runtime/verdicts.c -fplugin-arg-ompdp-profile=%t.json 2>&1 | FileCheck %s
// RUN: %clang-ompdp -DCOUNTER -c -o /dev/null %S/../runtime/verdicts.c -Werror -Wno-unused-command-line-argument -fplugin-arg-ompdp-profile=%t.json 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//

// CHECK-NOT: {{warning|error}}: {{.*}}ompdp
// CHECK-DAG: remark: ompdp: duplicate transfer: 'count' in to(count[0:1]) sends the device bytes it already has, 3 times (verdict necessary: no saving) [-Wompdp-duplicate-transfer]
// CHECK-DAG: remark: ompdp: duplicate transfer: 'count' in from(count[0:1]) brings the host bytes it already has, 3 times (verdict necessary: no saving) [-Wompdp-duplicate-transfer]
// CHECK-DAG: note: measured: 3 repeated transfers, 12 B in {{.*}} on device 0; no saving: the data has to move
// CHECK-DAG: remark: ompdp: round trip: {{.*}}(verdict necessary: no saving) [-Wompdp-round-trip]
// CHECK-NOT: {{warning|error}}: {{.*}}ompdp
