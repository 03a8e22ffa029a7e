//===- routines-cxx.cpp - routine calls in C++: templates, lambdas ---------===//
//
// The device memory routines called from a function template's instance
// (a cast of omp_target_alloc's result, a copy in an `if` condition, a
// vector's data()) and from a lambda, built with the plugin at -O2 without
// -g: each finding names its call, the instance or function, and the
// variable. The loop returns from inside, so the repeated allocation gets
// advice that says why there is no rewrite.
//
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -O2 %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <omp.h>
#include <vector>

template <typename T> static void run(std::vector<T> &h, int dev, int host) {
  size_t n = h.size();
  for (int it = 0; it < 3; ++it) {
    // CHECK-DAG: repeated_alloc  {{.*}}routines-cxx.cpp:[[@LINE+4]]:29 in run<double>  count=2
    // CHECK-DAG: variable: d  call: omp_target_alloc(n * sizeof(T), dev)
    // CHECK-DAG: No rewrite: a jump leaves the loop, and the free after it would not run.
    // CHECK-DAG: round_trip  {{.*}}routines-cxx.cpp:[[@LINE+2]]:9 in run<double>  count=2
    T *d = static_cast<T *>(omp_target_alloc(n * sizeof(T), dev));
    if (omp_target_memcpy(d, h.data(), n * sizeof(T), 0, 0, dev, host) != 0)
      return;
    // CHECK-DAG: variable: h  call: omp_target_memcpy(d, h.data(), n * sizeof(T), 0, 0, dev, host)
#pragma omp target is_device_ptr(d)
    for (size_t i = 0; i < n; ++i)
      d[i] += 1;
    omp_target_memcpy(h.data(), d, n * sizeof(T), 0, 0, host, dev);
    omp_target_free(d, dev);
  }
}

int main() {
  std::vector<double> h(4096, 1.0);
  run(h, omp_get_default_device(), omp_get_initial_device());
  // CHECK-DAG: unused_alloc  {{.*}}routines-cxx.cpp:[[@LINE+3]]:15 in main
  // CHECK-DAG: variable: p  call: omp_target_alloc(64, dev)
  auto lambda = [&](int dev) {
    void *p = omp_target_alloc(64, dev);
    omp_target_free(p, dev);
  };
  lambda(omp_get_default_device());
  std::printf("%g\n", h[0]);
  // CHECK-NOT: map(
}
