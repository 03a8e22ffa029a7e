//===- single_value.c - copies in that hold one value: allocate and fill ---===//
//
// Copies in whose elements all hold one value other than zero: a hash table
// initialised to 0xFF (`table`, `target enter data`), an array of ones
// (`ones`, tofrom on a `target`) and a weight the host sets to the same
// value before each `target update to` (`w`), and a `tofrom` of a `target
// data` whose copy back the host never reads (`h`, overwritten after it:
// an overbroad map too), and `grid`, a section whose length is a product
// of macros (`ROWS * COLS`: the fill covers all of it, not one macro's
// worth; a kernel reads every element). The runtime sees the value in
// the bytes (single_value_transfer findings), and the rewrite allocates and
// fills on the device with that value, as the zero fill does with zeros
// (a literal the element's type converts back to the same bytes: 0xFF..
// of an `unsigned` is 4294967295, `2.5`; byte by byte where no literal
// says it: `flags`, plain `char` 0xFF, whose value depends on whether the
// target's `char` is signed):
// `map(alloc:)` and a loop that writes the pattern after the enter data;
// `target enter data map(alloc:)`, the fill, the construct and `target exit
// data map(from:)` for the tofrom (`release` for `h`, whose copy back the
// overbroad map's rewrite drops: the overbroad finding shows the fill,
// which counts both copies); the fill in place of the update.
// Negative cases: `mixed` (one element differs: no finding), `z` (zeros: a
// zero_transfer, filled with zeros), `v` (one value at each update, but not
// the same one, computed by the host: a necessary copy, no rewrite), `small`
// (32 bytes, under
// zero_min_bytes). Applied, rebuilt and rerun: same output, the findings
// gone, the copies in removed as predicted.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=NOSINGLE
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
// RUN: cd %t && %ompdp report after.json | FileCheck %s --check-prefix=AFTER
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 4096
#define ROWS 64
#define COLS 48

int main(void) {
  unsigned *table = malloc(N * sizeof(unsigned));
  float *ones = malloc(N * sizeof(float));
  double *w = malloc(N * sizeof(double)), *v = malloc(N * sizeof(double));
  int *mixed = malloc(N * sizeof(int)), *z = calloc(N, sizeof(int));
  double *h = malloc(N * sizeof(double)), hs = 0;
  unsigned char *grid = malloc(ROWS * COLS);
  char *flags = malloc(ROWS * COLS);
  int *gout = malloc(ROWS * COLS * sizeof(int));
  long gsum = 0;
  memset(grid, 1, ROWS * COLS);
  memset(flags, 0xFF, ROWS * COLS);
  int small[8];
  double sum = 0;
  memset(table, 0xFF, N * sizeof(unsigned));
  for (int i = 0; i < N; ++i) {
    ones[i] = 1.0f;
    mixed[i] = 7;
    h[i] = 0.25;
  }
  mixed[N / 2] = 8;
  for (int i = 0; i < 8; ++i)
    small[i] = 5;
#pragma omp target enter data map(to: table[0:N])
  sum = table[0] == 0xFFFFFFFFu;
#pragma omp target teams distribute parallel for map(tofrom: ones[0:N]) map(to: mixed[0:N], z[0:N], small)
  for (int i = 0; i < N; ++i)
    ones[i] = ones[i] * 2 + mixed[i] + z[i] + small[i % 8];
#pragma omp target enter data map(alloc: w[0:N], v[0:N])
  for (int r = 0; r < 3; ++r) {
    for (int i = 0; i < N; ++i) {
      w[i] = 2.5;
      v[i] = r + 1;
    }
#pragma omp target update to(w[0:N])
#pragma omp target update to(v[0:N])
    sum += r;
#pragma omp target teams distribute parallel for map(tofrom: sum) map(present, alloc: table[0:N])
    for (int i = 0; i < 1; ++i)
      sum += w[N - 1] + v[N - 1] + (table[N - 1] == 0xFFFFFFFFu);
  }
#pragma omp target exit data map(release: table[0:N], w[0:N], v[0:N])
#pragma omp target data map(tofrom: h[0:N])
  {
#pragma omp target teams distribute parallel for map(tofrom: hs) reduction(+: hs)
    for (int i = 0; i < N; ++i) {
      h[i] += 1;
      hs += h[i];
    }
  }
  for (int i = 0; i < N; ++i)
    h[i] = 0;
#pragma omp target teams distribute parallel for map(to: grid[0:ROWS * COLS], flags[0:ROWS * COLS]) map(from: gout[0:ROWS * COLS])
  for (int i = 0; i < ROWS * COLS; ++i)
    gout[i] = grid[i] * (i % 5) + (flags[i] == (char)0xFF);
  for (int i = 0; i < ROWS * COLS; ++i)
    gsum += gout[i];
  printf("ones=%g sum=%g hs=%g gsum=%ld\n", ones[N / 2], sum, hs, gsum);
  free(grid);
  free(flags);
  free(gout);
  free(h);
  return 0;
}

// REPORT: single_value_transfers=
// REPORT-DAG: rewrite (alloc_and_fill): map `table[0:N]` with `alloc` at prog.c:[[#]] and fill it with the bytes `ff` repeated on the device right after: every copy in held that value in every element  [saves {{.*}}: 1 transfer (16.0 KiB), 0 allocations]
// REPORT-DAG: rewrite (alloc_and_fill): allocate `ones[0:N]` and fill it with the bytes `00 00 80 3f` repeated on the device before the target construct at prog.c:[[#]], which then finds it present; `target exit data map(from: ones[0:N])` after it: every copy in held that value in every element; and allocate `z[0:N]` and fill it with zeros {{.*}}  [saves {{.*}}: 2 transfers (32.0 KiB), 0 allocations]
// REPORT-DAG: rewrite (alloc_and_fill): fill `w[0:N]` with the bytes `00 00 00 00 00 00 04 40` repeated on the device instead of copying it with the `target update` at prog.c:[[#]]: every copy it made held that value in every element, and the section is present there, so the fill moves nothing  [saves {{.*}}: 3 transfers (96.0 KiB), 0 allocations]
// REPORT-DAG: rewrite (alloc_and_fill): allocate `h[0:N]` and fill it with the bytes `00 00 00 00 00 00 d0 3f` repeated on the device before the target data construct at prog.c:[[#]], which then finds it present; `target exit data map(release: h[0:N])` after it: every copy in held that value in every element  [saves {{.*}}: 2 transfers (64.0 KiB), 0 allocations]
// REPORT-DAG: rewrite (alloc_and_fill): allocate `grid[0:ROWS * COLS]` and fill it with the bytes `01` repeated on the device before the target construct at prog.c:[[#]]
// REPORT-DAG: assumes: `table[0:N]` is not on the device already when the `target enter data` runs (the run saw it allocated with every copy); the host's `table[0:N]` holds that value in every element whenever the `target enter data` runs, with any input (the run saw it so at all 1 copies in)
// REPORT-DAG: assumes: the host's `w[0:N]` holds only the bytes `00 00 00 00 00 00 04 40` repeated whenever the `target update` at prog.c:[[#]] runs, with any input (the run saw it so at all 3 copies)
// REPORT-DAG: variable: v  clause: to(v[0:N])
// REPORT-DAG: suggestion: no saving: host code stores values into v that the compiler cannot evaluate to one constant {{.*}}
// NOSINGLE-NOT: variable: {{mixed|small}}

// APPLY: prog.c: {{[0-9]+}} edit(s) applied

// FIXED: {{^}}#pragma omp target enter data map(alloc: table[0:N]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: table[0:N]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (N); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  table[ompdp_i] = 4294967295;{{$}}
// FIXED: {{^}}#pragma omp target enter data map(alloc: ones[0:N]){{$}}
// FIXED: {{^}}#pragma omp target exit data map(from: ones[0:N]){{$}}
// FIXED: {{^}}  w[ompdp_i] = 2.5;{{$}}
// FIXED: {{^}}#pragma omp target update to(v[0:N]){{$}}
// FIXED: {{^}}#pragma omp target enter data map(alloc: h[0:N]){{$}}
// FIXED: {{^}}#pragma omp target data map(tofrom: h[0:N]){{$}}
// FIXED: {{^}}#pragma omp target exit data map(release: h[0:N]){{$}}
// FIXED: {{^}}#pragma omp target enter data map(alloc: grid[0:ROWS * COLS]){{$}}
// FIXED-NEXT: {{^}}#pragma omp target teams distribute parallel for map(alloc: grid[0:ROWS * COLS]){{$}}
// FIXED-NEXT: {{^}}for (long long ompdp_i = 0; ompdp_i < (ROWS * COLS); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  grid[ompdp_i] = 1;{{$}}
// FIXED: {{^}}for (long long ompdp_i = 0; ompdp_i < (ROWS * COLS) * (long long)sizeof(char); ++ompdp_i){{$}}
// FIXED-NEXT: {{^}}  ((unsigned char *)flags)[ompdp_i] = (unsigned char)(0xffffffffffffffffULL >> (8 * (ompdp_i & 7)));{{$}}
// FIXED: {{^}}#pragma omp target exit data map(release: grid[0:ROWS * COLS]){{$}}

// PROOF: transfers: {{[0-9]+}} -> {{[0-9]+}} (removed 10, predicted 10)
// PROOF-NEXT: allocs: {{[0-9]+}} -> {{[0-9]+}} (removed 0, predicted 0)
// PROOF-DAG: gone: single_value_transfer of table: yes
// PROOF-DAG: gone: single_value_transfer of ones: yes
// PROOF-DAG: gone: single_value_transfer of w: yes
// PROOF-DAG: gone: zero_transfer of z: yes
// PROOF-DAG: gone: single_value_transfer of h: yes
// PROOF-DAG: gone: single_value_transfer of grid: yes
// PROOF-DAG: gone: single_value_transfer of flags: yes
// PROOF-DAG: gone: overbroad_map of h: yes
// PROOF: OK

// AFTER: zero_transfers=0 overbroad_maps=0 early_allocs=0 late_releases=0 single_value_transfers=3
