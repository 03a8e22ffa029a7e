// A call the analysis cannot see into may reach globals and what pointers
// point to, so a `target data` whose block makes one (a timer, a logger
// of another file) used to make every item read-write: HeCBench
// hexciton's `sin`, sent `to`, then looked written by a kernel and its
// duplicates "necessary". But a buffer the function allocated, whose
// pointer never left it, is out of that call's reach: its pointer is the
// only name of it (every use an element read or written, a free, a map,
// or another local pointer of the same kind: `const real_t *sigma_in =
// (real_t *)sin;`). Negative cases: the pointer given to a function nobody
// can see into before (`kept`), an alias of it given to one (`aliased`), a
// parameter (`param`), and a buffer behind a pointer stored in the own
// buffer (`nested`).
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -x c++ -c %s -o %t.o | FileCheck %s
#include <cstdlib>

typedef double real_t;
struct real_2_t { real_t x, y; };
extern const char *look_up(int);
extern void log_line(const char *);
extern void keep(const void *);

void own(int n, int k) {
  real_2_t *sin = (real_2_t *)malloc(n * sizeof(real_2_t));
  for (int i = 0; i < n; ++i)
    sin[i].x = sin[i].y = i;
#pragma omp target data map(to: sin[0:n])
  {
    log_line(look_up(k));
    const real_t *sigma_in = (real_t *)sin;
    real_t s = 0;
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
    for (int i = 0; i < 2 * n; ++i)
      s += sigma_in[i];
  }
  free(sin);
}
// CHECK-LABEL: 'target data' at {{.*}} in 'own'
// CHECK: item 0: to 'sin[0:n]' {{.*}} access none fresh-host

void kept(int n, int k) {
  real_2_t *sin = (real_2_t *)malloc(n * sizeof(real_2_t));
  keep(sin);
#pragma omp target data map(to: sin[0:n])
  {
    log_line(look_up(k));
  }
  free(sin);
}
// CHECK-LABEL: 'target data' at {{.*}} in 'kept'
// CHECK: item 0: to 'sin[0:n]' {{.*}} access read-write

void aliased(int n, int k) {
  real_2_t *sin = (real_2_t *)malloc(n * sizeof(real_2_t));
#pragma omp target data map(to: sin[0:n])
  {
    const real_t *sigma_in = (real_t *)sin;
    keep(sigma_in);
    log_line(look_up(k));
  }
  free(sin);
}
// CHECK-LABEL: 'target data' at {{.*}} in 'aliased'
// CHECK: item 0: to 'sin[0:n]' {{.*}} access read-write

void param(real_2_t *sin, int n, int k) {
#pragma omp target data map(to: sin[0:n])
  {
    log_line(look_up(k));
  }
}
// CHECK-LABEL: 'target data' at {{.*}} in 'param'
// CHECK: item 0: to 'sin[0:n]' {{.*}} access read-write

void nested(int n, int k, real_t *far) {
  real_t **rows = (real_t **)malloc(2 * sizeof(real_t *));
  rows[0] = far;
#pragma omp target data map(to: rows[0][0:n])
  {
    log_line(look_up(k));
  }
  free(rows);
}
// CHECK-LABEL: 'target data' at {{.*}} in 'nested'
// CHECK: item 0: to 'rows[0][0:n]' {{.*}} access read-write
