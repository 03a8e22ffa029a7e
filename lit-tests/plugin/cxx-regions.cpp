// C++: members through this, templates (a region per instance, same ID),
// lambdas, _Pragma in macros, declare mapper, declare target globals.
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#define PRAGMA(x) _Pragma(#x)
#define OFFLOAD(v, n)                                                          \
  PRAGMA(omp target teams distribute parallel for map(tofrom: v[0:n]))          \
  for (int i = 0; i < n; ++i)                                                  \
    v[i] *= 2;

struct S { double *a; int n; };
#pragma omp declare mapper(S s) map(s, s.a[0:s.n])
int g[16];
#pragma omp declare target(g)

class Grid {
  double *x; int n;
public:
  void step() {
#pragma omp target map(tofrom: this->x[0:n])
    for (int i = 0; i < n; ++i) x[i] += 1;
  }
};
// CHECK: region {{.*}} 'target' at {{.*}}cxx-regions.cpp:21:1 in 'Grid::step'
// CHECK: item 0: tofrom 'this->x[0:n]' var 'this->x' mods - clause 'map(tofrom: this->x[0:n])'
// CHECK: 'this' var 'this' mods implicit clause 'implicit map(tofrom: this[:1])'

template <typename T> void scale(T *v, int n) {
  for (int it = 0; it < 2; ++it) {
#pragma omp target map(tofrom: v[0:n])
    for (int i = 0; i < n; ++i) v[i] *= 2;
  }
}
// CHECK: region [[ID:0x[0-9a-f]+]] 'target' at {{.*}}:31:1 in 'scale<double>' template
// CHECK-NEXT: loop: for 30:3-33:4
// CHECK-NEXT: item 0: tofrom 'v[0:n]' {{.*}} fill 'double' x8
// CHECK: region [[ID]] 'target' at {{.*}}:31:1 in 'scale<float>' template
// CHECK-NEXT: loop: for 30:3-33:4
// CHECK-NEXT: item 0: tofrom 'v[0:n]' {{.*}} fill 'float' x4
// CHECK-NOT: :31:1

int main() {
  S s; double d[8]; s.a = d; s.n = 8;
  int k = 3;
  Grid grid;
  grid.step();
  auto f = [&]() {
#pragma omp target map(to: s.a[0:s.n]) map(always, tofrom: k)
    { s.a[0] = k; }
  };
  f();
// CHECK: 'target' at {{.*}}:[[@LINE-4]]:1 in 'main
// CHECK: item 0: to 's.a[0:s.n]' var 's.a'
// CHECK: item 1: tofrom 'k' var 'k' mods always clause 'map(always, tofrom: k)'
#pragma omp target update to(g)
// CHECK: 'target update' at {{.*}}:[[@LINE-1]]:1
// CHECK-NEXT: loop: none
// CHECK-NEXT: item 0: update to 'g' var 'g' mods - clause 'to(g)'
#pragma omp target map(mapper(default), tofrom: s)
  { s.a[0] = 1; }
// CHECK: 'target' at {{.*}}:[[@LINE-2]]:1
// CHECK: item 0: tofrom 's' var 's' mods mapper clause 'map(mapper(default), tofrom: s)'
  scale(d, 8);
  scale((float *)d, 4);
  OFFLOAD(d, 8)
// CHECK: 'target' at {{.*}}:[[@LINE-1]]:3 in 'main' macro
// CHECK-NEXT: loop: none
// CHECK-NEXT: item 0: tofrom 'd[0:8]' var 'd'
  return 0;
}
