// ===- device-memory.c - the peak on a GPU is the program's memory alone ---===//
//
// On an NVIDIA GPU, `a` (4 MiB) and `b` (8 MiB + 3) are on the device
// together, then `c` (2 MiB) alone. Their transfers are large enough to be
// hashed on the GPU (device_hash=2), whose own device memory (the hashing
// kernel's buffers, rt/devhash.c, allocated through the CUDA driver, not
// OpenMP: no OMPT event) must not count: the peak is exactly a + b, held by
// b and a, with and without device hashing; `big` mapped before them and
// first used after them is an early allocation, and the rewrite's predicted
// saving is its 1 MiB.
//
// REQUIRES: plugin, cuda, gpu
// RUN: %clang --config=%nvptx-cfg -O1 %s -o %t -Wl,-rpath,%llvm-libdir
// RUN: %ompdp run --option verbose=1 -- %t 2>&1 | FileCheck %s --check-prefixes=CHECK,GPU
// RUN: %ompdp run --option device_hash=0 -- %t 2>&1 | FileCheck %s
// GPU: ompdp: device_hash=2: {{[1-9][0-9]*}} transfers hashed on their device
// CHECK: peak device memory: 13.0 MiB on device 0 at {{.*}}, 3 allocations live: b 8.0 MiB (map(tofrom: b[0:NB]) at {{.*}}device-memory.c:[[#L:]]), a 4.0 MiB (map(to: a[0:NA]) at {{.*}}device-memory.c:[[#L]]), big 1.0 MiB (map(to: big[0:NBIG]) at {{.*}}device-memory.c:{{[0-9]+}}){{$}}
// CHECK: early_alloc  {{.*}}device-memory.c:{{[0-9]+}}:{{[0-9]+}} in main  count=1 bytes=1.0 MiB time=0 ns saved=0 ns devices=0 peak_saved=1.0 MiB
#include <stdio.h>
#include <stdlib.h>

#define NA (4 << 20)
#define NB ((8 << 20) + 3)
#define NC (2 << 20)
#define NBIG (1 << 20)

int main(void) {
  unsigned char *a = malloc(NA), *b = malloc(NB), *c = malloc(NC), *big = malloc(NBIG);
  for (size_t i = 0; i < NB; ++i)
    b[i] = (unsigned char)(i * 7 + 1);
  for (size_t i = 0; i < NA; ++i)
    a[i] = (unsigned char)(i * 3 + 1);
  for (size_t i = 0; i < NC; ++i)
    c[i] = (unsigned char)(i + 5);
  for (size_t i = 0; i < NBIG; ++i)
    big[i] = (unsigned char)(i + 9);
#pragma omp target enter data map(to: big[0:NBIG])
#pragma omp target data map(to: a[0:NA]) map(tofrom: b[0:NB])
  {
#pragma omp target teams distribute parallel for
    for (size_t i = 0; i < NA; ++i)
      b[i] = (unsigned char)(b[i] + a[i]);
  }
#pragma omp target data map(tofrom: c[0:NC])
  {
#pragma omp target teams distribute parallel for
    for (size_t i = 0; i < NC; ++i)
      c[i] = (unsigned char)(c[i] + 1);
  }
#pragma omp target teams distribute parallel for
  for (size_t i = 0; i < NBIG; ++i)
    big[i] = (unsigned char)(big[i] * 2);
#pragma omp target exit data map(from: big[0:NBIG])
  unsigned s = 0;
  for (size_t i = 0; i < NBIG; ++i)
    s += big[i] + b[i] + c[i % NC];
  printf("%u\n", s);
  return 0;
}
