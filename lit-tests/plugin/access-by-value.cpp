// Objects a kernel gets by value (passed to a function by value, captured
// by copy, the object of a const method, a const member operator such as
// a functor's `operator()`: HeCBench aop's payoffs, any method of an
// empty class: pool's `AvgPoolGrad`) are read, not read-write: a
// trivial copy reads the bytes and nothing else. What their pointers point
// to goes along with the copy, so a pointee the callee writes through is
// still written. Negative cases: a non-trivial copy constructor, a
// non-const method, a mutable member and a reference the callee writes
// keep the object read-write, and so do a non-const `operator()` and a
// const one of a class with a mutable member.
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

struct Params {
  int n;
  float scale;
  float *data;
  float at(int i) const { return scale * i; }
  void bump() { ++n; }
};
struct Float3 {
  float x, y, z;
};
struct Counted { // a copy constructor of its own: it may do anything
  int v;
  Counted(int x) : v(x) {}
  Counted(const Counted &o) : v(o.v + 1) {}
};
struct Cached {
  mutable int hits;
  int v;
  int get() const { return ++hits, v; }
};
struct Scale { // a functor
  float k;
  float operator()(int i) const { return k * i; }
  float operator[](int i) const { return k + i; }
};
struct Doubler { // no data: a method has nothing of it to write
  float twice(float v) { return 2 * v; }
};
struct Tally {
  int n;
  int operator()(int i) { return n += i; }
};
struct Memo {
  mutable float last;
  float operator()(float x) const { return last = x; }
};

#pragma omp declare target
static float apply(Params p, int i) { return p.scale * i; }
static float dot(Float3 a, Float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static void through(Params p, int i) { p.data[i] = (float)i; }
static int counted(Counted c) { return c.v; }
static void grow(Float3 &a) { a.x += 1; }
#pragma omp end declare target

int main() {
  float buf[64], out[64];
  Params prm = {64, 2.0f, buf};
  Float3 f = {1, 2, 3}, g = {0, 0, 0};
  Counted c(3);
  Cached k = {0, 5};
  Scale sc = {0.5f};
  Doubler dbl;
  Tally t = {0};
  Memo m = {0};

// CHECK: region {{.*}} 'target' at {{.*}}access-by-value.cpp:[[@LINE+7]]:1 in 'main'
// CHECK: item 0: from 'out[0:64]' {{.*}} access write
// CHECK: item {{[0-9]+}}: tofrom 'prm' {{.*}} access read{{$| }}
// CHECK: item {{[0-9]+}}: tofrom 'f' {{.*}} access read{{$| }}
// CHECK: item {{[0-9]+}}: tofrom 'sc' {{.*}} access read{{$| }}
// CHECK: item {{[0-9]+}}: tofrom 'dbl' {{.*}} access read{{$| }}
// CHECK-NOT: access read-write
#pragma omp target map(from: out[0:64])
  for (int i = 0; i < 64; ++i)
    out[i] = apply(prm, i) + dot(f, f) + prm.at(i) + [=]() { return f.y; }() + sc(i) + sc[i] +
             dbl.twice(i);

// A pointee written through the copy is written.
// CHECK: region {{.*}} 'target' at {{.*}}access-by-value.cpp:[[@LINE+3]]:1 in 'main'
// CHECK: item 0: tofrom 'prm.data[0:64]' {{.*}} access read-write
// CHECK: item 1: to 'prm' {{.*}} access read{{$| }}
#pragma omp target map(tofrom: prm.data[0:64]) map(to: prm)
  for (int i = 0; i < 64; ++i)
    through(prm, i);

// CHECK: region {{.*}} 'target' at {{.*}}access-by-value.cpp:[[@LINE+7]]:1 in 'main'
// CHECK: item {{[0-9]+}}: tofrom 'c' {{.*}} access read-write
// CHECK: item {{[0-9]+}}: tofrom 'k' {{.*}} access read-write
// CHECK: item {{[0-9]+}}: tofrom 't' {{.*}} access read-write
// CHECK: item {{[0-9]+}}: tofrom 'm' {{.*}} access read-write
// CHECK: item {{[0-9]+}}: tofrom 'g' {{.*}} access read-write
// CHECK: item {{[0-9]+}}: tofrom 'prm' {{.*}} access read-write
#pragma omp target map(from: out[0:64])
  for (int i = 0; i < 64; ++i) {
    out[i] = counted(c) + k.get() + t(i) + m(i);
    grow(g);
    if (i == 0)
      prm.bump();
  }
  return (int)(out[1] + buf[0]);
}
