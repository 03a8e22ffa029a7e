//===- listing1_unsafe.c - constructs in a row that must not be joined -----===//
//
// Listing 1's pattern (two constructs in a row map the same array) where
// one `target data` around both would be wrong or would not compile:
//   - in `host_write`, host code between them writes `b` (the second
//     construct must see it; the host-access facts place the write inside
//     the row): no rewrite;
//   - in `declared`, a declaration lies between them (the braces would end
//     its scope before its last use): no rewrite.
// The findings stay, with no keep_resident rewrite.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o prog | FileCheck %s --check-prefix=TABLE
// RUN: cd %t && %ompdp run --format=json -o r.json -- ./prog | FileCheck %s --check-prefix=OUT
// RUN: cd %t && %ompdp report r.json | FileCheck %s --check-prefix=REPB
// RUN: cd %t && %ompdp report r.json | FileCheck %s --check-prefix=REPC
// RUN: cd %t && %ompdp report r.json | FileCheck %s --check-prefix=NONE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

static void host_write(void) {
  static int b[N];
  int s1 = 0, s2 = 0;
  for (int i = 0; i < N; ++i)
    b[i] = 1;
#pragma omp target map(to : b) map(tofrom : s1)
  for (int i = 0; i < N; ++i)
    s1 += b[i];
  b[0] = 100;
#pragma omp target map(to : b) map(tofrom : s2)
  for (int i = 0; i < N; ++i)
    s2 += b[i];
  printf("host_write: s1=%d s2=%d\n", s1, s2);
}

static void declared(void) {
  static int c[N];
  int s1 = 0;
  for (int i = 0; i < N; ++i)
    c[i] = 2;
#pragma omp target map(to : c) map(tofrom : s1)
  for (int i = 0; i < N; ++i)
    s1 += c[i];
  int s2 = 0;
#pragma omp target map(to : c) map(tofrom : s2)
  for (int i = 0; i < N; ++i)
    s2 += c[i];
  printf("declared: s1=%d s2=%d\n", s1, s2);
}

int main(void) {
  host_write();
  declared();
  return 0;
}

// TABLE:      region {{.*}} 'target' at prog.c:[[#W:]]:1 in 'host_write'
// TABLE:      host 0 'b' write at [[#W+3]]:3-[[#W+3]]:14 bytes {{[0-9]+}}+11 statement after{{$}}
// TABLE:      region {{.*}} 'target' at prog.c:[[#D:]]:1 in 'declared'
// TABLE:      stmt: {{.*}} decls 2 jumps 0 own-lines
// TABLE:      region {{.*}} 'target' at prog.c:[[#D+4]]:1 in 'declared'
// TABLE:      stmt: {{.*}} decls 3 jumps 0 own-lines

// OUT: host_write: s1=1024 s2=1123
// OUT: declared: s1=2048 s2=2048

// Findings of one kind come out by time saved, which varies from run to run:
// each is checked on its own.
// REPB: repeated_alloc {{.*}} in host_write count=1 bytes=4.0 KiB
// REPB-NEXT: variable: b  clause: map(to : b)
// REPC: repeated_alloc {{.*}} in declared count=1 bytes=4.0 KiB
// REPC-NEXT: variable: c  clause: map(to : c)

// NONE-NOT: keep_resident
// NONE: summary:
// NONE-NOT: keep_resident
