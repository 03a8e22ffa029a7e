//===- fill-host-values.c - no fill from values the input decides ---------===//
//
// A device fill replaces a copy whose bytes the run saw to be zeros or one
// value repeated; that holds for other inputs only when the host stores
// constants there. `b` holds ones when the program makes its input and
// what `read_values` reads (fscanf, defined after main: seen at the end of
// the file) when given a file, as HeCBench gaussian's right-hand side; the
// construct is in `solve`, which gets `b` as a parameter, so the stores
// are the caller's. `g` is a global that main sets to `argc - 1` (zeros
// with no argument). `c` is a copy (memcpy) of `tmp`, which holds what
// the file gives, zeros without one: the copy is followed to its source.
// Their single-value and zero findings are necessary copies, not
// advice, and say why (dump: fill flag host-values). `m`, zeroed by a helper
// with a constant (`*(m + i) = 0.0`), and `w`, set by memset to a constant,
// get their fills (the pointers compared to NULL and freed, which stores
// nothing in them; main's computed stores into `w` after the call, which
// runs once, come after the copy): applied, rebuilt and rerun, the output is the same, and
// with an input file too (the fix did not touch `b`). `h` holds what a
// function of the file computes from a constant alone (`to_unit(1.0f)`:
// no global, no pointer; HeCBench relu's `float_to_half(1.f)`): a constant
// too, filled. `u` holds `scaled(1.0f)`, whose function reads a global
// that main sets from argc: computed, necessary.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump -c prog.c -o /dev/null | FileCheck %s --check-prefix=DUMP
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && printf '3 1 4 1 5 9 2 6\n' > input.txt && ./before input.txt > before-file.out
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json > before.txt
// RUN: grep -B1 'host code stores values into b that' %t/before.txt | FileCheck %s --check-prefix=NEC-B
// RUN: grep -B1 'host code stores values into q that' %t/before.txt | FileCheck %s --check-prefix=NEC-Q
// RUN: grep -B1 'host code stores values into c that' %t/before.txt | FileCheck %s --check-prefix=NEC-C
// RUN: grep -B1 'host code stores values into g that' %t/before.txt | FileCheck %s --check-prefix=NEC-G
// RUN: grep -B1 'host code stores values into d that' %t/before.txt | FileCheck %s --check-prefix=NEC-D
// RUN: grep -B1 'host code stores values into u that' %t/before.txt | FileCheck %s --check-prefix=NEC-U
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: cd %t && ./after input.txt > after-file.out && diff %t/before-file.out %t/after-file.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N 2048

float g[N];

void read_values(FILE *fp, float *v, int n);

void zero(float *m, int n) {
  for (int i = 0; i < n; ++i)
    *(m + i) = 0.0;
}

void set_all(float *v, float x, int n) {
  for (int i = 0; i < n; ++i)
    v[i] = x;
}

static float half_of(float x) { return x * 0.5f; }
static float to_unit(float x) { return half_of(x) + 0.5f; }

float scale_by = 1.0f;
static float scaled(float x) { return x * scale_by; }

void solve(float *b, float *m, float *w, float *c, float *k, float *q, float *d, float *h,
           float *u, int n, double *out) {
  double s = 0;
#pragma omp target data map(to: b[0:n], m[0:n], w[0:n], g[0:N], c[0:n], k[0:n], q[0:n], d[0:n], h[0:n], u[0:n])
  {
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < n; ++i)
      s += b[i % 8] + m[i] + w[i] + g[i] + c[i] + k[i] + q[i] + d[i] + h[i] + u[i];
  }
  *out = s;
}

int main(int argc, char **argv) {
  float *b = malloc(N * sizeof(float)), *m = malloc(N * sizeof(float));
  float *w = malloc(N * sizeof(float)), *c = malloc(N * sizeof(float));
  float *tmp = calloc(N, sizeof(float));
  float *k = malloc(N * sizeof(float)), *q = malloc(N * sizeof(float));
  float *d = malloc(N * sizeof(float));
  float *h = malloc(N * sizeof(float)), *u = malloc(N * sizeof(float));
  if (m == NULL || !w) // looks at the pointers: stores nothing
    return 1;
  if (argc > 1) {
    FILE *fp = fopen(argv[1], "r");
    if (!fp)
      return 1;
    for (int i = 0; i < N; ++i)
      b[i] = 0;
    read_values(fp, b, 8);
    rewind(fp);
    read_values(fp, tmp, 8);
    fclose(fp);
  } else {
    for (int i = 0; i < N; ++i)
      b[i] = 1.0f;
  }
  for (int i = 0; i < N; ++i)
    g[i] = argc - 1;
  memcpy(c, tmp, N * sizeof(float));
  set_all(k, 2.5f, N);
  set_all(q, (float)(argc - 1) + 2.0f, N);
  for (int i = 0; i < N; ++i) {
    if (argc > 1)
      d[i] = 3.0f;
    else
      d[i] = 1.0f;
  }
  scale_by = argc;
  for (int i = 0; i < N; ++i) {
    h[i] = to_unit(1.0f);
    u[i] = scaled(1.0f);
  }
  zero(m, N);
  memset(w, 0, N * sizeof(float));
  double out = 0;
  solve(b, m, w, c, k, q, d, h, u, N, &out);
  for (int i = 0; i < N; ++i) // after the offload: not what it copied
    w[i] = i * 0.5f;
  printf("sum=%.1f last=%.1f\n", out, w[N - 1]);
  free(b);
  free(m);
  free(w);
  free(c);
  free(tmp);
  free(k);
  free(q);
  free(d);
  free(h);
  free(u);
  return 0;
}

void read_values(FILE *fp, float *v, int n) {
  for (int i = 0; i < n; ++i)
    if (fscanf(fp, "%f", &v[i]) != 1)
      v[i] = 0;
}

// DUMP: item 0: to 'b[0:n]' {{.*}} fill 'float' x4 [0:n] scalar host-values
// DUMP: item 1: to 'm[0:n]' {{.*}} fill 'float' x4 [0:n] scalar{{$}}
// DUMP: item 2: to 'w[0:n]' {{.*}} fill 'float' x4 [0:n] scalar{{$}}
// DUMP: item 3: to 'g[0:N]' {{.*}} fill 'float' x4 [0:N] scalar host-values
// DUMP: item 4: to 'c[0:n]' {{.*}} fill 'float' x4 [0:n] scalar host-values
// DUMP: item 5: to 'k[0:n]' {{.*}} fill 'float' x4 [0:n] scalar{{$}}
// DUMP: item 6: to 'q[0:n]' {{.*}} fill 'float' x4 [0:n] scalar host-values
// DUMP: item 7: to 'd[0:n]' {{.*}} fill 'float' x4 [0:n] scalar host-values
// DUMP: item 8: to 'h[0:n]' {{.*}} fill 'float' x4 [0:n] scalar{{$}}
// DUMP: item 9: to 'u[0:n]' {{.*}} fill 'float' x4 [0:n] scalar host-values

// Each is necessary (the line before its suggestion):
// NEC-B: verdict: necessary (not counted as a saving)
// NEC-B-NEXT: suggestion: no saving: host code stores values into b that the compiler cannot evaluate to one constant (read from input, computed, or other constants on other paths), so the single value this run copied can be other values with other inputs, and the copy is how the device gets them; a fill on the device would give it wrong data then
// NEC-Q: verdict: necessary (not counted as a saving)
// NEC-Q-NEXT: suggestion: no saving: host code stores values into q that the compiler cannot evaluate {{.*}} the single value this run copied
// NEC-C: verdict: necessary (not counted as a saving)
// NEC-C-NEXT: suggestion: no saving: host code stores values into c that the compiler cannot evaluate {{.*}} the zeros this run copied
// NEC-D: verdict: necessary (not counted as a saving)
// NEC-D-NEXT: suggestion: no saving: host code stores values into d that the compiler cannot evaluate {{.*}} the single value this run copied
// NEC-U: verdict: necessary (not counted as a saving)
// NEC-U-NEXT: suggestion: no saving: host code stores values into u that the compiler cannot evaluate {{.*}} the single value this run copied
// NEC-G: verdict: necessary (not counted as a saving)
// NEC-G-NEXT: suggestion: no saving: host code stores values into g that the compiler cannot evaluate {{.*}} the zeros this run copied

// APPLY: prog.c: 2 edit(s) applied

// PROOF: rewrites: 1 for {{[0-9]+}} finding(s)
// PROOF-NEXT: transfers: 12 -> 8 (removed 4, predicted 4)
// PROOF-DAG: gone: zero_transfer of m: yes
// PROOF-DAG: gone: zero_transfer of w: yes
// PROOF-DAG: gone: single_value_transfer of k: yes
// PROOF-DAG: gone: single_value_transfer of h: yes
// PROOF: OK
