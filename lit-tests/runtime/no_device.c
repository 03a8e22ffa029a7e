//===- no_device.c - a run in which no device did anything ----------------===//
//
// A program built for offload whose target regions all ran on the host
// (here OMP_TARGET_OFFLOAD=DISABLED; on a machine without the GPU the
// program was built for, the same) moved no data: the report must not look
// clean. Its first warning says that nothing was checked and why, at the
// top of the text report, first in JSON's warnings, as an error first among
// SARIF's notifications, and as the HTML page's first banner. A build
// without -fopenmp-targets whose runtime starts (a parallel region) says
// that instead; one whose runtime never starts gets `ompdp run`'s own
// line. Negative: the same program offloading gets none of it.
//
// RUN: %clang-offload -g %s -o %t
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: env OMP_TARGET_OFFLOAD=DISABLED %ompdp run --format=json -o %t.json -- %t
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %ompdp report --format=sarif %t.json | FileCheck %s --check-prefix=SARIF
// RUN: %ompdp report --format=html %t.json -o %t.html
// RUN: FileCheck %s --check-prefix=HTML < %t.html
// RUN: %ompdp report %t.json | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=OFFLOADED
//
// Built without -fopenmp-targets: with a parallel region the runtime starts.
// RUN: %clang -fopenmp -DPARALLEL -g %s -o %t.host -Wl,-rpath,%llvm-libdir
// RUN: %ompdp run -- %t.host 2>&1 | FileCheck %s --check-prefix=HOSTONLY
// Without one, the OpenMP runtime never starts: ompdp run says why.
// RUN: %clang -fopenmp -g %s -o %t.plain -Wl,-rpath,%llvm-libdir
// RUN: %ompdp run -- %t.plain 2>&1 | FileCheck %s --check-prefix=NORUNTIME
//
// TEXT:      === ompdp report ===
// TEXT-NEXT: warning: no device activity: the program carries offload images for x86_64-pc-linux-gnu, but no kernel ran and no data moved on any device, so nothing was checked: OMP_TARGET_OFFLOAD=DISABLED is set, so every target region ran on the host
// TEXT-NEXT: program:
// TEXT-NOT:  no device activity
// TEXT:      nothing was checked: no data moved on any device (see the first warning)
// TEXT-NOT:  no inefficient data movement found
//
// JSON:      "warnings": [
// JSON-NEXT: "no device activity: the program carries offload images for x86_64-pc-linux-gnu
//
// SARIF:     "toolExecutionNotifications": [{"level": "error", "message": {"text": "no device activity: the program carries offload images
//
// HTML:      no device activity: the program carries offload images
// HTML:      /^(ranks? [^:]*: )?no device activity: /
//
// OFFLOADED-NOT: no device activity
// OFFLOADED: observed: 6 transfers
// OFFLOADED-NOT: no device activity
//
// HOSTONLY:      === ompdp report ===
// HOSTONLY-NEXT: warning: no device activity: the program was built without -fopenmp-targets: its 1 target region was compiled for the host only and ran as plain host code, moving no data, so nothing was checked
//
// NORUNTIME: ompdp: no report: {{.*}}.plain was built without -fopenmp-targets: its 1 target region is compiled for the host only, runs as plain host code and never starts the OpenMP runtime
//===----------------------------------------------------------------------===//
#include <stdio.h>

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = i;
#ifdef PARALLEL
#pragma omp parallel for
  for (int i = 0; i < 100; i++)
    a[i] *= 1;
#endif
  for (int step = 0; step < 3; step++) {
#pragma omp target map(tofrom : a)
    for (int i = 0; i < 100; i++)
      a[i] += 1;
  }
  printf("a[99]=%d\n", a[99]);
  return 0;
}
