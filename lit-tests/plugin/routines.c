//===- routines.c - calls of the device memory routines in the table ------===//
//
// Every call of omp_target_alloc, _free, _memcpy, _memcpy_rect, _memset,
// _associate_ptr and _disassociate_ptr is a region of the routine's kind:
// its call site (file, line, column, end), the function, the loop around
// it, the statement that holds it, the call and its arguments as written
// (a macro argument as written, not expanded), and one item per pointer
// argument named by its variable (for a copy: destination, then source;
// for omp_target_alloc: the variable assigned). A call that is not a
// statement of its own (a condition) is recorded without a statement. In
// the loop, the calls' other arguments do not change (args-invariant), and
// the first copy is a statement of the loop's body (in-loop-body).
// With TAG (no -g), the pass tags each call before it and after it.
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s
// RUN: %clang %ompdp-plugin-flags %offload-flags --offload-host-only -S -emit-llvm %s -o - | FileCheck %s --check-prefix=TAG
// RUN: %clang %ompdp-plugin-flags %offload-flags %s -o %t
// RUN: %t | FileCheck %s --check-prefix=EXEC
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define BYTES(n) ((n) * sizeof(double))

// CHECK: ompdp region table: 13 region(s), section ompdp_regions
int main(void) {
  int dev = omp_get_default_device(), host = omp_get_initial_device();
  size_t n = 64;
  double *h = calloc(n, sizeof(double));
  double *d;
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_alloc' at {{.*}}routines.c:[[@LINE+6]]:7 in 'main'
// CHECK-NEXT: call: 'omp_target_alloc(BYTES(n), dev)' end [[@LINE+5]]:38 args 'BYTES(n)' 'dev'
// CHECK-NEXT: loop: none
// CHECK-NEXT: item 0: none 'd' var 'd' mods - clause 'omp_target_alloc(BYTES(n), dev)' clause-range [[@LINE+3]]:7-[[@LINE+3]]:38 item-range [[@LINE+3]]:3-[[@LINE+3]]:4
// CHECK-NEXT: source: '{{.*}}routines.c' hash 0x{{[0-9a-f]+}} directive-bytes {{[0-9]+}}+31
// CHECK-NEXT: stmt: [[@LINE+1]]:3-[[@LINE+1]]:39 bytes {{[0-9]+}}+36 block {{[0-9]+}} #4 decls 4 jumps 0 own-lines text 'd = omp_target_alloc(BYTES(n), dev);'
  d = omp_target_alloc(BYTES(n), dev);
  for (int it = 0; it < 2; ++it) {
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_memcpy' at {{.*}}routines.c:[[@LINE+6]]:5 in 'main'
// CHECK-NEXT: call: 'omp_target_memcpy(d, h + 1, BYTES(n - 1), 0, 0, dev, host)' end [[@LINE+5]]:63 args-invariant in-loop-body args 'd' 'h + 1' 'BYTES(n - 1)' '0' '0' 'dev' 'host'
// CHECK-NEXT: loop: for [[@LINE-3]]:3-{{.*}}
// CHECK-NEXT: exit return at [[@LINE+10]]:7-[[@LINE+10]]:16 bytes {{[0-9]+}}+9 statement
// CHECK: item 0: none 'd' var 'd' mods - clause 'omp_target_memcpy(d, h + 1, BYTES(n - 1), 0, 0, dev, host)'
// CHECK-NEXT: item 1: none 'h + 1' var 'h' mods - clause 'omp_target_memcpy(d, h + 1, BYTES(n - 1), 0, 0, dev, host)'
    omp_target_memcpy(d, h + 1, BYTES(n - 1), 0, 0, dev, host);
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_memcpy' at {{.*}}routines.c:[[@LINE+5]]:9 in 'main'
// CHECK-NEXT: call: 'omp_target_memcpy(h, d, BYTES(n), 0, 0, host, dev)' end [[@LINE+4]]:59 args-invariant args 'h' 'd' 'BYTES(n)' '0' '0' 'host' 'dev'
// CHECK: item 0: none 'h' var 'h'
// CHECK: item 1: none 'd' var 'd'
// CHECK: stmt: 0:0-0:0 bytes 0+0{{$}}
    if (omp_target_memcpy(h, d, BYTES(n), 0, 0, host, dev))
      return 1;
  }
  size_t vol[1] = {n}, off[1] = {0}, dims[1] = {n};
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_memcpy_rect' at {{.*}}routines.c:[[@LINE+3]]:3
// CHECK: item 0: none 'h' var 'h'
// CHECK: item 1: none 'd' var 'd'
  omp_target_memcpy_rect(h, d, sizeof(double), 1, vol, off, off, dims, dims, host, dev);
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_memset' at {{.*}}routines.c:[[@LINE+3]]:3
// CHECK-NEXT: call: 'omp_target_memset(d, 0, BYTES(n), dev)'
// CHECK: item 0: none 'd' var 'd'
  omp_target_memset(d, 0, BYTES(n), dev);
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_associate_ptr' at {{.*}}routines.c:[[@LINE+3]]:3
// CHECK: item 0: none 'h' var 'h'
// CHECK: item 1: none 'd' var 'd'
  omp_target_associate_ptr(h, d, BYTES(n), 0, dev);
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_disassociate_ptr' at {{.*}}routines.c:[[@LINE+2]]:3
// CHECK: item 0: none 'h' var 'h'
  omp_target_disassociate_ptr(h, dev);
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_free' at {{.*}}routines.c:[[@LINE+3]]:3
// CHECK-NEXT: call: 'omp_target_free(d, dev)' end [[@LINE+2]]:26 args 'd' 'dev'
// CHECK: item 0: none 'd' var 'd'
  omp_target_free(d, dev);
  printf("done %g\n", h[0]);
  free(h);
  return 0;
}

// TAG-NOT: __ompdp_marker
// TAG: call {{.*}}void @__ompdp_tag1(i32 [[A:[0-9]+]])
// TAG-NEXT: call {{.*}}@omp_target_alloc(
// TAG-NEXT: call {{.*}}void @__ompdp_tag2(i32 [[A]], ptr inttoptr (i64 1 to ptr))
// TAG: call {{.*}}void @__ompdp_tag1(i32 [[C:[0-9]+]])
// TAG-NEXT: call {{.*}}@omp_target_memcpy(
// TAG-NEXT: call {{.*}}void @__ompdp_tag2(i32 [[C]], ptr inttoptr (i64 1 to ptr))
// TAG: call {{.*}}@omp_target_disassociate_ptr(
// TAG: call {{.*}}void @__ompdp_tag1(i32 [[F:[0-9]+]])
// TAG-NEXT: call {{.*}}@omp_target_free(
// TAG-NEXT: call {{.*}}void @__ompdp_tag2(i32 [[F]], ptr inttoptr (i64 1 to ptr))
// EXEC: done 0

// A target region copies m back in the loop: m's allocation may change
// size; n's may not.
void variant(int dev, int n) {
  int m = n;
  for (int it = 0; it < 3; ++it) {
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_alloc' at {{.*}}routines.c:[[@LINE+3]]:17 in 'variant'
// CHECK-NEXT: call: 'omp_target_alloc(m, dev)' end [[@LINE+2]]:41 in-loop-body decl-stmt args 'm' 'dev'
// CHECK: text 'double *d = omp_target_alloc(m, dev);'
    double *d = omp_target_alloc(m, dev);
// CHECK: region 0x{{[0-9a-f]+}} 'omp_target_alloc' at {{.*}}routines.c:[[@LINE+2]]:17 in 'variant'
// CHECK-NEXT: call: 'omp_target_alloc(n, dev)' end [[@LINE+1]]:41 args-invariant in-loop-body decl-stmt args 'n' 'dev'
    double *e = omp_target_alloc(n, dev);
#pragma omp target map(from: m)
    m = 8;
    omp_target_free(d, dev);
    omp_target_free(e, dev);
  }
}
