// A function template's instantiation the plugin sees before the
// instantiations of the templates it calls have bodies (maxFlops: `test<T>`
// calls `Add1<T>`): the callee's own template body says what it does with
// its parameters, so the `target update to` between calls of a kernel that
// writes the data is device-written; the one before a kernel that only
// reads it is not.
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#include <cstdlib>

template <class T> void add1(T *data, int n) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < n; i++) {
    T s = data[i];
    data[i] = s + 1;
  }
}

template <class T> void sum(const T *data, T *out, int n) {
  T s = 0;
#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)
  for (int i = 0; i < n; i++)
    s += data[i];
  *out = s;
}

template <typename T> void test(int n) {
  T *h = (T *)malloc(sizeof(T) * n), *r = (T *)malloc(sizeof(T) * n), out;
#pragma omp target data map(alloc: h[0:n], r[0:n])
  for (int it = 0; it < 3; ++it) {
// CHECK: 'target update' at {{.*}}call-summaries-template.cpp:[[@LINE+2]]:1 in 'test<float>'
// CHECK: item 0: update to 'h[0:n]' {{.*}} device-written
#pragma omp target update to(h[0:n])
    add1<T>(h, n);
// CHECK: 'target update' at {{.*}}call-summaries-template.cpp:[[@LINE+3]]:1 in 'test<float>'
// CHECK: item 0: update to 'r[0:n]'
// CHECK-NOT: device-written
#pragma omp target update to(r[0:n])
    sum<T>(r, &out, n);
  }
  free(h);
  free(r);
}

// sosfil's shape, where following a callee into its template's body once
// crashed the plugin (nodes of dependent code without a type): a
// `target data` of a template calls another template's kernel, with a
// team-local array sized by a template argument and a parallel region.
template <typename T, int M> void filter(const T *__restrict__ c, T *__restrict__ x, int n) {
#pragma omp target teams num_teams(n) thread_limit(4)
  {
    T smem[M];
#pragma omp parallel
    {
      T *s = smem;
      T *t = &s[M / 2];
      int tx = 0;
      T v(c[tx]); // direct-initialised: a ParenListExpr, no type, in the template
      s[tx] = v;
      t[tx] = s[tx] * 2;
#pragma unroll
      for (int i = 0; i < M / 2; i++)
        x[i] += t[i];
    }
  }
}

template <typename T> void filtering(const T *c, T *x, int n) {
  const int m = 8;
// CHECK: 'target data' at {{.*}}call-summaries-template.cpp:[[@LINE+3]]:1 in 'filtering<double>'
// CHECK: item 0: to 'c[0:n]'
// CHECK: item 1: to 'x[0:n]'
#pragma omp target data map(to: c[0:n]) map(to: x[0:n])
  {
    for (int k = 0; k < 3; k++) {
// CHECK: 'target update' at {{.*}}call-summaries-template.cpp:[[@LINE+2]]:1 in 'filtering<double>'
// CHECK: item 0: update to 'x[0:n]' {{.*}} device-written
#pragma omp target update to(x[0:n])
      filter<T, m>(c, x, n);
    }
#pragma omp target update from(x[0:n])
  }
}

int main() {
  test<float>(16);
  double c[16] = {0}, x[16] = {0};
  filtering<double>(c, x, 16);
}
