// Calls followed into the functions whose bodies the translation unit has
// (clang-plugin/AccessAnalysis.cpp, call summaries):
// - a kernel calling a device function that only reads its pointer reads
//   the item; one calling a function without a body may do anything;
// - a `target data` item's access is what the device code of its body (and
//   of the functions the body calls) may do with it;
// - a `target update to` item is `device-written` when device code that can
//   run between two of its executions writes it (in a function its loop
//   calls, through a local pointer set from the parameter, or before it in
//   its block, or, in no loop, anywhere in the function, which may be
//   called again); not when the kernels only read it, when only the host
//   writes it, or when the writing kernel runs only after the loop of
//   updates.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#include <string.h>

#pragma omp declare target
static double first(const double *v, int j) { return v[j]; }
void unknown(double *v);
#pragma omp end declare target

static void scale(float *d, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; ++i) {
    float *q = d + 0; // a local pointer into the parameter's buffer
    q[i] *= 2;
  }
}

static void sum(const float *d, float *out, int n) {
  float s = 0;
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += d[i];
  *out = s;
}

void kernels(double *a, double *b, double *c, int n) {
// CHECK: region {{.*}} 'target' at {{.*}}call-summaries.c:[[@LINE+3]]:1 in 'kernels'
// CHECK: item 0: tofrom 'a[0:n]' {{.*}} access read{{$| }}
// CHECK-NEXT: item 1: tofrom 'c[0:n]' {{.*}} access write{{$| }}
#pragma omp target map(a[0:n], c[0:n])
  for (int i = 0; i < n; ++i)
    c[i] = first(a, i);
// A function without a body may reach anything behind a pointer.
// CHECK: region {{.*}} 'target' at {{.*}}call-summaries.c:[[@LINE+3]]:1 in 'kernels'
// CHECK: item 0: tofrom 'a[0:n]' {{.*}} access read-write{{$| }}
// CHECK-NEXT: item 1: tofrom 'b[0:n]' {{.*}} access read-write{{$| }}
#pragma omp target map(a[0:n], b[0:n])
  for (int i = 0; i < n; ++i) {
    unknown(b);
    b[i] += first(a, i);
  }
}

void loops(float *h, float *k, float *m, float *p, float *o, int n, int iters) {
  float out;
// CHECK: region {{.*}} 'target data' at {{.*}}call-summaries.c:[[@LINE+3]]:1 in 'loops'
// CHECK: item 0: alloc 'h[0:n]' {{.*}} access read-write{{$| }}
// CHECK-NEXT: item 1: alloc 'k[0:n]' {{.*}} access read{{$| }}
#pragma omp target data map(alloc: h[0:n], k[0:n], m[0:n])
  for (int it = 0; it < iters; ++it) {
// CHECK: 'target update' at {{.*}}call-summaries.c:[[@LINE+2]]:1
// CHECK: item 0: update to 'h[0:n]' {{.*}} device-written
#pragma omp target update to(h[0:n])
// CHECK: 'target update' at {{.*}}call-summaries.c:[[@LINE+3]]:1
// CHECK: item 0: update to 'k[0:n]'
// CHECK-NOT: device-written
#pragma omp target update to(k[0:n])
    memset(m, 0, n * sizeof(float)); // the host writes m: no device code
// CHECK: 'target update' at {{.*}}call-summaries.c:[[@LINE+3]]:1
// CHECK: item 0: update to 'm[0:n]'
// CHECK-NOT: device-written
#pragma omp target update to(m[0:n])
    scale(h, n);
    sum(k, &out, n);
    sum(m, &out, n);
  }
// Before the update in its block: a reset.
#pragma omp target data map(to: p[0:n])
  {
    scale(p, n);
// CHECK: 'target update' at {{.*}}call-summaries.c:[[@LINE+2]]:1
// CHECK: item 0: update to 'p[0:n]' {{.*}} device-written
#pragma omp target update to(p[0:n])
    sum(p, &out, n);
  }
// In no loop: a kernel after the update runs before the next call's.
#pragma omp target data map(to: o[0:n])
  {
// CHECK: 'target update' at {{.*}}call-summaries.c:[[@LINE+2]]:1
// CHECK: item 0: update to 'o[0:n]' {{.*}} device-written
#pragma omp target update to(o[0:n])
    scale(o, n);
  }
}

// The kernel that writes runs only after the loop of updates: nothing to
// reset.
void after_loop(float *o, int n, int iters) {
  float out;
#pragma omp target data map(alloc: o[0:n])
  {
    for (int it = 0; it < iters; ++it) {
// CHECK: 'target update' at {{.*}}call-summaries.c:[[@LINE+3]]:1
// CHECK: item 0: update to 'o[0:n]'
// CHECK-NOT: device-written
#pragma omp target update to(o[0:n])
      sum(o, &out, n);
    }
    scale(o, n);
  }
}
