// What each target region does with its map items (the dump's "access"):
// read only, written only, both, untouched, escaping to a function call or
// to another pointer (read-write: the analysis cannot follow it), members
// through this, pointees of struct members, a reduction, a firstprivate.
// Constructs without a device body say unknown.
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#include <cmath>

void opaque(double *p);
double g[8];
struct S {
  double *a, *b;
  int n;
};

struct Grid {
  double *x, *y;
  int n;
  void step() {
// CHECK: region {{.*}} 'target' at {{.*}}access.cpp:[[@LINE+5]]:1 in 'Grid::step'
// CHECK: item 0: to 'this->x[0:n]' {{.*}} access read{{$| }}
// CHECK-NEXT: item 1: tofrom 'this->y[0:n]' {{.*}} access write{{$| }}
// CHECK-NEXT: item 2: tofrom 'this->n' {{.*}} access read{{$| }}
// CHECK-NEXT: item 3: tofrom 'this' {{.*}} access read{{$| }}
#pragma omp target map(to: this->x[0:n]) map(tofrom: this->y[0:n])
    for (int i = 0; i < n; ++i)
      y[i] = 2 * x[i];
  }
};

int main() {
  double r[8] = {0}, w[8], rw[8] = {0}, none[8], esc[8], sum = 0;
  double *u = new double[8];
  S s = {new double[8], new double[8], 8};
  int k = 2;
// CHECK: region {{.*}} 'target' at {{.*}}access.cpp:[[@LINE+12]]:1 in 'main'
// CHECK: item 0: tofrom 'r' {{.*}} access read{{$| }}
// CHECK-NEXT: item 1: tofrom 'w' {{.*}} access write{{$| }}
// CHECK-NEXT: item 2: tofrom 'rw' {{.*}} access read-write{{$| }}
// CHECK-NEXT: item 3: tofrom 'none' {{.*}} access none{{$| }}
// CHECK-NEXT: item 4: tofrom 'sum' {{.*}} access read-write{{$| }}
// The struct itself: its pointers are read, what they point to is not it.
// CHECK-NEXT: item 5: tofrom 's' {{.*}} access read{{$| }}
// CHECK-NEXT: item 6: tofrom 'u[0:8]' {{.*}} access write{{$| }}
// CHECK-NEXT: item 7: tofrom 's.a[0:8]' {{.*}} access read{{$| }}
// CHECK-NEXT: item 8: tofrom 's.b[0:8]' {{.*}} access read{{$| }}
// CHECK-NEXT: item 9: firstprivate 'k' {{.*}} access read{{$| }}
#pragma omp target map(tofrom: r, w, rw, none) map(tofrom: sum, s) map(tofrom: u[0:8], s.a[0:8], s.b[0:8])
  for (int i = 0; i < 8; ++i) {
    w[i] = r[i] + std::sqrt(r[i]);
    rw[i] += 1;
    u[i] = s.a[i];
    sum += s.b[i] * k;
  }
// A call the analysis cannot see into gets esc, and may reach the global g.
// CHECK: region {{.*}} 'target' at {{.*}}access.cpp:[[@LINE+5]]:1 in 'main'
// CHECK: item 0: tofrom 'esc' {{.*}} access read-write{{$| }}
// CHECK-NEXT: item 1: tofrom 'g' {{.*}} access read-write{{$| }}
// CHECK-NEXT: item 2: tofrom 'r' {{.*}} access write{{$| }}
// CHECK-NEXT: item 3: firstprivate 'k' {{.*}} access read{{$| }}
#pragma omp target map(tofrom: esc, g, r)
  {
    opaque(esc);
    r[0] = k;
  }
// CHECK: region {{.*}} 'target' at {{.*}}access.cpp:[[@LINE+2]]:1 in 'main'
// CHECK: item 0: tofrom 'r' {{.*}} access read-write{{$| }}
#pragma omp target map(tofrom: r)
  {
    double *q = r;
    q[0] = 1;
  }
// The reduction variable is mapped as a capture.
// CHECK: region {{.*}} 'target' at {{.*}}access.cpp:[[@LINE+4]]:1 in 'main'
// CHECK: item 0: to 'w' {{.*}} access read{{$| }}
// CHECK-NEXT: item 1: tofrom 'sum' var 'sum' mods implicit clause 'implicit map(tofrom: sum)' access read-write{{$| }}
// CHECK-NOT: item
#pragma omp target teams distribute parallel for reduction(+ : sum) map(to : w)
  for (int i = 0; i < 8; ++i)
    sum += w[i];
// CHECK: region {{.*}} 'target update' at {{.*}}access.cpp:[[@LINE+2]]:1 in 'main'
// CHECK: item 0: update from 'r' {{.*}} access unknown{{$| }}
#pragma omp target update from(r)
  Grid grid{u, w, 8};
  grid.step();
  return (int)(sum + r[0] + rw[0]);
}
