//===- attribution-cxx.cpp - C++ constructs, any -O, with and without -g --===//
//
// Members through this, a template with two instantiations (each finding
// naming the instance that ran), a class template's member, a lambda,
// _Pragma in a macro, two constructs on one line, a declare target global,
// and a construct in a parallel region (an outlined function): every finding
// names its construct, variable and clause, the same way at -O0 and -O2,
// with and without -g (debug info plays no part in the matching).
//
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -O0 %s -o %t.O0
// RUN: %ompdp run --format=json -o %t.O0.json -- %t.O0 | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.O0.json | FileCheck %s
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -O2 %s -o %t.O2
// RUN: %ompdp run --format=json -o %t.O2.json -- %t.O2 | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.O2.json | FileCheck %s
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -O0 -g %s -o %t.g
// RUN: %ompdp run --format=json -o %t.g.json -- %t.g | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.g.json | FileCheck %s
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -O2 -g %s -o %t.O2g
// RUN: %ompdp run --format=json -o %t.O2g.json -- %t.O2g | FileCheck %s --check-prefix=OUT
// RUN: %python %S/Inputs/findings.py %t.O2g.json | FileCheck %s
//===----------------------------------------------------------------------===//
#include <cstdio>

#define N 64
#define PRAGMA(x) _Pragma(#x)
#define SEND(v) PRAGMA(omp target update to(v))

// OUT: 12110

int g[N];
#pragma omp declare target(g)

class Grid {
  double *x;
  int n;

public:
  Grid(double *x, int n) : x(x), n(n) {}
  double step() {
    double s = 0;
    // The pointer x (attached to the copy of this) and its pointee go out
    // twice; so do s (0) and n, which the region only reads (its copies back
    // are an overbroad map).
    // CHECK: duplicate_transfer attribution-cxx.cpp:[[@LINE+8]]:1 in Grid::step devices=0 variable=s clause=map(tofrom: s)
    // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+7]]:1 in Grid::step devices=0 variable=this->n clause=implicit map(tofrom: this->n)
    // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+6]]:1 in Grid::step devices=0 variable=this->x clause=map(to: this->x[0:n])
    // CHECK-NEXT: overbroad_map attribution-cxx.cpp:[[@LINE+5]]:1 in Grid::step devices=0 variable=this->n clause=implicit map(tofrom: this->n)
    // CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+4]]:1 in Grid::step devices=0 variable=s clause=map(tofrom: s)
    // CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+3]]:1 in Grid::step devices=0 variable=this->x clause=map(to: this->x[0:n])
    // CHECK-NEXT: round_trip attribution-cxx.cpp:[[@LINE+2]]:1 in Grid::step devices=0 variable=this->n clause=implicit map(tofrom: this->n)
    // CHECK-NOT: variable=-
#pragma omp target map(to: this->x[0:n]) map(tofrom: s)
    for (int i = 0; i < n; ++i)
      s += x[i];
    return s;
  }
};

// Instantiated for double and for float: one construct, found in both, each
// finding naming the instance that ran.
// CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+10]]:3 in total<double> devices=0 variable=s clause=map(tofrom: s)
// CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+9]]:3 in total<double> devices=0 variable=v clause=map(to: v[0:n])
// CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+8]]:3 in total<float> devices=0 variable=s clause=map(tofrom: s)
// CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+7]]:3 in total<float> devices=0 variable=v clause=map(to: v[0:n])
// CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+6]]:3 in total<double> devices=0 variable=s clause=map(tofrom: s)
// CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+5]]:3 in total<double> devices=0 variable=v clause=map(to: v[0:n])
// CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+4]]:3 in total<float> devices=0 variable=s clause=map(tofrom: s)
// CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+3]]:3 in total<float> devices=0 variable=v clause=map(to: v[0:n])
template <typename T> T total(T *v, int n) {
  T s = 0;
  #pragma omp target map(to: v[0:n]) map(tofrom: s)
  for (int i = 0; i < n; ++i)
    s += v[i];
  return s;
}

// A class template's member, instantiated for float first (in the source)
// but run only for double: its findings name Box<double>::sum, never the
// instance that did not run.
// CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+8]]:5 in Box<double>::sum devices=0 variable=s clause=map(tofrom: s)
// CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+7]]:5 in Box<double>::sum devices=0 variable=this->v clause=map(to: v[0:4])
// CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+6]]:5 in Box<double>::sum devices=0 variable=s clause=map(tofrom: s)
// CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+5]]:5 in Box<double>::sum devices=0 variable=this->v clause=map(to: v[0:4])
template <typename T> struct Box {
  T *v;
  T sum() {
    T s = 0;
    #pragma omp target map(to: v[0:4]) map(tofrom: s)
    for (int i = 0; i < 4; ++i)
      s += v[i];
    return s;
  }
};

int main(int argc, char **argv) {
  (void)argv;
  static double d[N];
  static float f[N];
  static int a[N], b[N];
  for (int i = 0; i < N; ++i)
    d[i] = f[i] = a[i] = b[i] = g[i] = i;
  Grid grid(d, N);
  double r = 0;
  for (int k = 0; k < 2; ++k) {
    r += grid.step();
    r += total(d, N) + total(f, N);
    Box<float> bf = {f};
    if (argc > 99)
      r += bf.sum();
    Box<double> bd = {d};
    r += bd.sum();
    auto lam = [&]() {
      // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+3]]:7 in main devices=0 variable=b clause=map(to: b)
      // CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+2]]:7 in main devices=0 variable=b clause=map(to: b)
      // CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+1]]:7 in main devices=0 variable=r clause=map(tofrom: r)
      #pragma omp target map(to: b) map(tofrom: r)
      r += b[1];
    };
    lam();
    // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+1]]:5 in main devices=0 variable=g clause=to(g)
    SEND(g)
    // a and b stay on the device here; each update sends them again.
    // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+7]]:5 in main devices=0 variable=a clause=map(to: a, b)
    // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+6]]:5 in main devices=0 variable=b clause=map(to: a, b)
    // CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+5]]:5 in main devices=0 variable=a clause=map(to: a, b)
    // CHECK-NEXT: repeated_alloc attribution-cxx.cpp:[[@LINE+4]]:5 in main devices=0 variable=b clause=map(to: a, b)
    // CHECK-NEXT: unused_transfer attribution-cxx.cpp:[[@LINE+3]]:5 in main devices=0 variable=a clause=map(to: a, b)
    // CHECK-NEXT: unused_transfer attribution-cxx.cpp:[[@LINE+2]]:5 in main devices=0 variable=b clause=map(to: a, b)
    // The end of the region (its own call) deletes both: no finding.
    #pragma omp target data map(to: a, b)
    {
      // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+3]]:7 in main devices=0 variable=a clause=to(a)
      // CHECK-NEXT: unused_transfer attribution-cxx.cpp:[[@LINE+2]]:7 in main devices=0 variable=a clause=to(a)
      // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+1]]:42 in main devices=0 variable=b clause=to(b)
      _Pragma("omp target update to(a)") _Pragma("omp target update to(b)")
#pragma omp parallel num_threads(1)
      {
        // CHECK-NEXT: duplicate_transfer attribution-cxx.cpp:[[@LINE+1]]:1 in main devices=0 variable=a clause=map(always, to: a)
#pragma omp target map(always, to: a)
        a[0] += 0;
      }
    }
  }
  std::printf("%g\n", r);
  return 0;
}
// CHECK-NOT: {{.}}
