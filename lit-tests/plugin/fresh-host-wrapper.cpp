// A pointer the function sets only from allocations points to a buffer of
// its own at each call (item flag fresh-host). Besides malloc and its kin,
// an allocation is posix_memalign(&p, ...), a call of a function with the
// malloc attribute, and a call of a function whose definition returns only
// allocations: HeCBench hexciton's allocate_aligned<T>(), a template over
// posix_memalign (its instance has no body yet when the plugin looks: the
// template's says the same), and a wrapper of that wrapper. A null
// initializer or assignment is no other buffer, and `n ? malloc(..) :
// NULL` an allocation. Negative cases: a wrapper
// that returns a buffer it keeps (`from_pool`), one that returns its
// argument (`pass`), one that lets the address of its pointer out
// (`escape`), and a pointer whose address a caller gets (`g`).
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -x c++ -c %s -o %t.o | FileCheck %s
#include <cstdio>
#include <cstdlib>

template <typename T> T *allocate_aligned(size_t size, size_t alignment = 64) {
  T *ptr = nullptr;
  int err = 0;
  if ((err = posix_memalign((void **)&ptr, alignment, size * sizeof(T))))
    fprintf(stderr, "posix_memalign: %d\n", err);
  return ptr;
}
static float *twice(size_t n) { return allocate_aligned<float>(n); }
__attribute__((malloc)) float *my_alloc(size_t n);

static float *pool;
static float *from_pool(size_t n) { return n ? pool : nullptr; }
static float *pass(float *p, size_t n) { return p; }
static float **leaked;
static float *escape(size_t n) {
  float *p = (float *)malloc(n * sizeof(float));
  leaked = &p;
  return p;
}
static void take(float **q, size_t n) { *q = (float *)malloc(n * sizeof(float)); }

void f(int n, float *q) {
  float *a = allocate_aligned<float>(n);
  float *b = twice(n);
  float *c = my_alloc(n);
  float *d = from_pool(n);
  float *e = pass(q, n);
  float *g = escape(n);
  float *h = NULL;
  h = (float *)malloc(n * sizeof(float));
  float *k;
  posix_memalign((void **)&k, 64, n * sizeof(float));
  float *m;
  take(&m, n);
  float *r = n ? (float *)malloc(n * sizeof(float)) : NULL;
#pragma omp target map(tofrom: a[0:n], b[0:n], c[0:n], d[0:n], e[0:n], g[0:n], h[0:n], k[0:n], m[0:n], r[0:n])
  a[0] = b[0] = c[0] = d[0] = e[0] = g[0] = h[0] = k[0] = m[0] = r[0] = 1;
}

// CHECK: region {{.*}} 'target' at {{.*}} in 'f'
// CHECK: item 0: tofrom 'a[0:n]' {{.*}} access write fresh-host
// CHECK: item 1: tofrom 'b[0:n]' {{.*}} access write fresh-host
// CHECK: item 2: tofrom 'c[0:n]' {{.*}} access write fresh-host
// CHECK: item 3: tofrom 'd[0:n]'
// CHECK-NOT: fresh-host
// CHECK-SAME: {{$}}
// CHECK: item 4: tofrom 'e[0:n]'
// CHECK-NOT: fresh-host
// CHECK-SAME: {{$}}
// CHECK: item 5: tofrom 'g[0:n]'
// CHECK-NOT: fresh-host
// CHECK-SAME: {{$}}
// CHECK: item 6: tofrom 'h[0:n]' {{.*}} access write fresh-host
// CHECK: item 7: tofrom 'k[0:n]' {{.*}} access write fresh-host
// CHECK: item 8: tofrom 'm[0:n]'
// CHECK-NOT: fresh-host
// CHECK-SAME: {{$}}
// CHECK: item 9: tofrom 'r[0:n]' {{.*}} access write fresh-host
