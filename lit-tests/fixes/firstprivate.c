//===- firstprivate.c - small objects a kernel only reads, passed firstprivate ===//
//
// `p` and `q` (structs passed by value, 12 and 8 bytes) are mapped
// implicitly tofrom at every launch of the kernel in `step`, which only
// reads them: each launch allocates, copies in, copies back and frees
// each. Passed as `firstprivate(q) firstprivate(p)` at the end of the
// directive, they go in the one buffer of firstprivate objects that
// libomptarget copies in with each launch: the saving is at least that, as
// the rewrite says. Negative cases: `big` (2 KiB) is too big to go with a
// launch and gets `map(to: big)` instead; `acc`, which the kernel writes,
// keeps its mapping. Everything added at the end of the directive (also
// `map(from: out)`) is one rewrite. Applied, rebuilt and rerun: the same
// output, the transfers and allocations down as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 1024

typedef struct { float x, y, z; } vec3;
typedef struct { int lo, hi; } range;
typedef struct { double w[256]; } weights;
typedef struct { double sum; int calls; } accum;

static double out[N];

static void step(vec3 p, range q, weights big, accum *res) {
  accum acc = *res;
  double sum = 0;
#pragma omp target teams distribute parallel for reduction(+: sum)
  for (int i = 0; i < N; ++i) {
    double v = (i >= q.lo && i < q.hi) ? p.x * i + p.y - p.z : big.w[i % 256];
    out[i] = v;
    sum += v;
    if (i == 0)
      acc.calls += 1;
  }
  acc.sum += sum;
  *res = acc;
}

int main(void) {
  weights big;
  for (int i = 0; i < 256; ++i)
    big.w[i] = 0.5 * i;
  accum res = {0, 0};
  for (int it = 0; it < 4; ++it) {
    vec3 p = {1.0f + it, 2.0f, 0.5f};
    range q = {it, N - it};
    step(p, q, big, &res);
  }
  printf("sum=%.1f calls=%d out=%.1f\n", res.sum, res.calls, out[N - 1]);
  return 0;
}

// One rewrite for everything that goes at the end of the directive: p and q
// as firstprivate, big with `to` and out with `from` (a map-type change for
// each of those), shown at one finding and named at the others.
// REPORT: rewrite (firstprivate): {{.*}}pass `p` (12 bytes) to the kernel at prog.c:[[#L:]] as `firstprivate(p)`: the region only reads it, and its bytes go in the buffer of firstprivate objects that each launch copies in once, instead of an allocation, a copy in and a copy back of their own{{.*}}  [saves at least {{.*}}: 20 transfers ({{.*}}), 4 allocations]
// REPORT-NEXT: prog.c:[[#L]]:{{[0-9]+}}-[[#L+1]]:1: insert " firstprivate(q) firstprivate(p) map(to: big) map(from: out)\n"
// REPORT: rewrite (firstprivate): the one shown above
// REPORT-NOT: firstprivate(big)
// REPORT-NOT: firstprivate(acc)

// APPLY: prog.c: {{[0-9]+}} edit(s) applied

// FIXED: {{^}}#pragma omp target teams distribute parallel for reduction(+: sum) firstprivate(q) firstprivate(p) map(to: big) map(from: out){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}}
// PROOF: OK
