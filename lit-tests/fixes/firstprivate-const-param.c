//===- firstprivate-const-param.c - a const struct passed by value ---------===//
//
// `rotate` takes its axis as `const struct vec3 w`, a by-value parameter,
// and its kernel reads it: an implicit `map(tofrom: w)` that allocates,
// copies in and back and frees 12 bytes at every call. A const object is
// never filled (its fill facts say const-whole, region table 3.5), but it
// may be passed as firstprivate, which the rewrite does; so is `shift`'s
// own `w`, at the same stack address (another construct "uses the same
// buffer", but each launch allocated its own). Negative: `cfg`, a global
// that a `target data` makes present at one launch of `scale`, stays
// mapped; the
// plugin's dump shows no fill for `w` but `const`; `d`, mapped tofrom and
// written, is no firstprivate (it is kept resident at the caller instead).
// Applied, rebuilt, rerun: same output, w's transfers and allocations gone
// as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump -c prog.c -o /dev/null | FileCheck %s --check-prefix=DUMP
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=NOCFG
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

struct vec3 {
  float x, y, z;
};

static void rotate(int n, const struct vec3 w, float *d) {
#pragma omp target teams distribute parallel for map(tofrom: d[0:n])
  for (int i = 0; i < n; ++i)
    d[i] = d[i] * w.x + w.y - w.z;
}

/* Its own `w` at the same stack address as rotate's: another construct
 * maps "the same buffer", but every launch of each allocates its own. */
static void shift(int n, const struct vec3 w, float *e) {
#pragma omp target teams distribute parallel for map(tofrom: e[0:n])
  for (int i = 0; i < n; ++i)
    e[i] = e[i] + w.x;
}

struct vec3 cfg = {2.0f, 0.0f, 0.0f};

/* cfg is present at one of its launches (main's target data): no
 * firstprivate, whose copy would be the host's bytes, not the device's. */
static void scale(int n, float *e) {
#pragma omp target teams distribute parallel for map(tofrom: e[0:n])
  for (int i = 0; i < n; ++i)
    e[i] = e[i] * cfg.x;
}

int main(void) {
  int n = 1024;
  float *d = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i)
    d[i] = (float)(i % 13);
  float *e = calloc(n, sizeof(float));
  struct vec3 w = {0.5f, 1.0f, 0.25f};
  for (int r = 0; r < 4; ++r) {
    rotate(n, w, d);
    shift(n, w, e);
    scale(n, e);
  }
#pragma omp target data map(to: cfg)
  scale(n, e);
  double s = 0;
  for (int i = 0; i < n; ++i)
    s += d[i] + e[i];
  printf("%g\n", s);
  return 0;
}

// DUMP: item {{[0-9]+}}: tofrom 'w' var 'w' mods implicit clause 'implicit map(tofrom: w)' access read fill 'struct vec3' x12 *1 const
// REPORT: rewrite (firstprivate): pass `w` (12 bytes) to the kernel at prog.c:[[#]] as `firstprivate(w)`
// REPORT: rewrite (firstprivate): pass `w` (12 bytes) to the kernel at prog.c:[[#]] as `firstprivate(w)`
// NOCFG-NOT: {{[f]}}irstprivate(cfg)
// APPLY: prog.c: {{[0-9]+}} edit(s) applied
// FIXED: {{^}}#pragma omp target teams distribute parallel for map(tofrom: d[0:n]) firstprivate(w){{$}}
// FIXED: {{^}}#pragma omp target teams distribute parallel for map(tofrom: e[0:n]) firstprivate(w){{$}}
// FIXED-NOT: {{[f]}}irstprivate(cfg)
// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed {{[0-9]+}}, predicted at least {{[0-9]+}})
// PROOF-DAG: gone: {{[a-z_]+}} of w: yes
