//===- firstprivate_explicit.c - scalars and small structs mapped by value ===//
//
// The kernel in the loop maps small objects that it only reads with
// explicit map clauses, so every launch allocates, copies in (and back)
// and frees each: `n` and `scale` (`map(to: n, scale)`, scalars), `p` (a
// 24-byte struct, `map(tofrom: p)`) and `k` (beside an array section in
// `map(to: k, buf[0:N])`). They are passed as `firstprivate(...)`: the
// scalars go with the launch's arguments by value, the struct in the one
// buffer of firstprivate objects each launch copies in (the saving is at
// least that). The items of one clause that qualify become one
// `firstprivate` clause in its place, after what remains of it. Negative
// cases, kept mapped: `cnt` (the kernel writes it), `tag` (a pointer),
// `big` (2 KiB, too big to go with a launch), `m` (present: an enclosing
// `target data` maps it), `s` (a reduction variable), `q` (a struct
// mapped `to`: in a buffer of its own at every launch it would save
// nothing; it is kept resident across the loop instead). Applied, rebuilt and
// rerun: the same output, the findings of the objects gone, the
// transfers and allocations down as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=NOFP
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=KEEP
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define N 512

typedef struct { double a, b; int k; } params;
typedef struct { double w[256]; } weights;

static double out[N];

int main(void) {
  params p = {1.5, 2.0, 3}, q = {0.25, 0.5, 1};
  weights big;
  for (int i = 0; i < 256; ++i)
    big.w[i] = i;
  int n = N, k = 7, m = 3, cnt = 0;
  double scale = 0.5, s = 0;
  const char *tag = "x";
  double *buf = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    buf[i] = i;
#pragma omp target data map(to: m)
  for (int it = 0; it < 4; ++it) {
    scale += 1;
#pragma omp target teams distribute parallel for map(to: n, scale) map(tofrom: p) map(to: k, buf[0:N]) map(tofrom: out[0:N]) map(tofrom: cnt) map(to: tag) map(to: big) map(to: m) reduction(+: s) map(tofrom: s) map(to: q)
    for (int i = 0; i < n; ++i) {
      out[i] = p.a * buf[i] + p.b * scale + p.k + k + m + big.w[i % 256] + (tag != 0) + q.a;
      s += out[i];
      if (i == 0) {
#pragma omp atomic
        cnt += 1;
      }
    }
  }
  printf("out=%g %g cnt=%d s=%g\n", out[N - 1], out[0], cnt, s);
  free(buf);
  return 0;
}

// `p` and `k` do not change in the loop: the keep_resident rewrite keeps them on
// the device for the whole loop (one copy in, a better plan than a firstprivate
// copy at every launch; `n` too, which the rewrite of `scale` then leaves in its
// map: counted once), so only `scale` (which changes) goes firstprivate.
// REPORT: rewrite (firstprivate): pass `scale` (8 bytes) to the kernel at prog.c:[[#L:]] as `firstprivate(scale)` instead of `map(to: n, scale)`: the region only reads it, and its value goes with the launch's arguments, instead of an allocation, a copy in and a copy back of their own  [saves {{.*}}]
// REPORT: prog.c:[[#L]]:50-[[#L]]:67: replace "map(to: n, scale)" with "map(to: n) firstprivate(scale)"
// KEEP: rewrite (keep_resident): keep `n`, `p`, `k`, {{.*}} for the whole for loop
// NOFP-NOT: firstprivate({{cnt|tag|big|m|s|q}})

// APPLY: prog.c: {{[0-9]+}} edit(s) applied

// FIXED: {{^}}  #pragma omp target data map(to: n) map(to: p) map(to: k) map(to: buf[0:N]) map(tofrom: out[0:N]) map(tofrom: cnt) map(to: tag) map(to: big) map(tofrom: s) map(to: q){{$}}
// FIXED: {{^}}#pragma omp target teams distribute parallel for map(to: n) firstprivate(scale) map(tofrom: p) map(to: k, buf[0:N]) map(tofrom: out[0:N]) map(tofrom: cnt) map(to: tag) map(to: big) map(to: m) reduction(+: s) map(tofrom: s) map(to: q){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed [[T:[0-9]+]], predicted [[T]])
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed [[A:[0-9]+]], predicted [[A]])
// PROOF-DAG: gone: duplicate_transfer of p: yes
// PROOF-DAG: gone: repeated_alloc of n: yes
// PROOF-DAG: gone: repeated_alloc of scale: yes
// PROOF-DAG: gone: repeated_alloc of k: yes
// PROOF: OK
