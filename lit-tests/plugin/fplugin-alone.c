//===- fplugin-alone.c - -fplugin=ompdp.so is enough, with no --config ------===//
//
// The design's own command: -fplugin=ompdp.so alone (no -fpass-plugin, no
// ompdp.cfg) registers the pass too, so findings name the variable, the
// clause and file:line:col, at -O0 and -O2. The offload driver's host
// compile from source runs no pipeline, so the plugin tags the calls there,
// before the bitcode is written: the host IR has the tags and no markers.
// With ompdp.cfg (both flags) the pass plugin does it, in the compile from
// IR, and the plugin adds nothing (the host IR keeps its markers: the pass
// is not registered twice). Without the plugin, nothing is named.
//
// REQUIRES: plugin
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cd %t.dir
// RUN: %clang -fplugin=%ompdp-so %offload-flags %s -o %t.o0
// RUN: %ompdp run -- %t.o0 2>&1 | FileCheck %s --check-prefix=NAMED
// RUN: %clang -O2 -fplugin=%ompdp-so %offload-flags %s -o %t.o2
// RUN: %ompdp run -- %t.o2 2>&1 | FileCheck %s --check-prefix=NAMED
//
// RUN: %clang -save-temps -fplugin=%ompdp-so %offload-flags -c %s -o alone.o
// RUN: llvm-dis fplugin-alone-host-x86_64-pc-linux-gnu.bc -o - | FileCheck %s --check-prefix=TAGGED
// RUN: rm -f *.bc && %clang -save-temps %ompdp-plugin-flags %offload-flags -c %s -o cfg.o
// RUN: llvm-dis fplugin-alone-host-x86_64-pc-linux-gnu.bc -o - | FileCheck %s --check-prefix=MARKERS
// RUN: %clang %ompdp-plugin-flags %offload-flags %s -o %t.cfg
// RUN: %ompdp run -- %t.cfg 2>&1 | FileCheck %s --check-prefix=NAMED
//
// Negative: no plugin, no -g: no variable, no file.
// RUN: %clang %offload-flags %s -o %t.plain
// RUN: %ompdp run -- %t.plain 2>&1 | FileCheck %s --check-prefix=PLAIN
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

int main(void) {
  int a[N], sum = 0, prod = 1;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 + 1;
#pragma omp target map(to : a) map(tofrom : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];
#pragma omp target map(to : a) map(tofrom : prod)
  for (int i = 0; i < 4; ++i)
    prod *= a[i];
  printf("%d %d\n", sum, prod);
  return 0;
}

// NAMED: duplicate_transfer {{.*}}fplugin-alone.c:41:1 in main count=1
// NAMED-NEXT: variable: a  clause: map(to : a)
// NAMED-NEXT: 1 from the same host buffer
// NAMED-NEXT: first sent at {{.*}}fplugin-alone.c:38:1 in main
// NAMED-NOT: <unknown file>

// TAGGED: __ompdp_tag
// TAGGED-NOT: call {{.*}}@__ompdp_marker

// MARKERS: call {{.*}}@__ompdp_marker

// PLAIN: duplicate_transfer  <unknown file> in main count=1
// PLAIN-NOT: variable:
