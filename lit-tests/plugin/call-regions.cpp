// Calls of functions that hold constructs are regions of kind 'call' (the
// rewrites that keep data at the caller): the call as written, its loop,
// its arguments (the variable behind each, whether it stays the same in the
// loop, the host code of the loop that uses what a pointer points to), the
// callee with its symbol and parameters, and the globals the callee maps.
// A construct's item says whether it can be written at a caller
// (params-only), whether the function's host code leaves it alone
// (fn-host-unused) or only reads it (fn-host-reads: peek's x, region table
// 3.15) and whether its device code only reads it (fn-device-reads).
// Not recorded: a call of a function without constructs, of a virtual
// method, of one returning an object (the marker's comma would change it),
// or from a lambda. (fp's call: see the end.)
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s --check-prefix=NOT

struct Box {
  float v[4];
};

float table[64];

static void scale(float *x, int n, float w) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] *= w;
}

static void peek(float *x, int n, float *out) {
#pragma omp target enter data map(to: x[0:n])
#pragma omp target teams distribute parallel for map(tofrom: out[0:1])
  for (int i = 0; i < 1; ++i)
    out[0] = x[i];
#pragma omp target exit data map(release: x[0:n])
  out[0] += x[0]; // the host reads x here
}

static void fill_table(int lo) {
#pragma omp target teams distribute parallel for map(tofrom: table[lo:8])
  for (int i = 0; i < 8; ++i)
    table[lo + i] = 1.0f;
}

static void walk(float *x, int n) { scale(x, n, 2.0f); }

static float plain(float *x) { return x[0]; }

static Box boxed(float *x) {
#pragma omp target map(tofrom: x[0:1])
  x[0] = 1;
  return Box();
}

struct Base {
  virtual void run(float *x, int n) {
#pragma omp target map(tofrom: x[0:n])
    x[0] = 1;
  }
};

void driver(float *a, int n, Base *b, void (*fp)(float *, int, float)) {
  float out = 0;
  for (int s = 0; s < 4; ++s) {
    scale(a, n, 0.5f);
    peek(a + 1, n - s, &out);
    a[s] = plain(a);
    fill_table(8);
    walk(a, n);
    (void)boxed(a);
    b->run(a, n);
    fp(a, n, 1.0f);
  }
}

void from_lambda(float *a, int n) {
  for (int s = 0; s < 4; ++s)
    [&] { scale(a, n, 1.0f); }();
}

// CHECK-LABEL: 'target' at {{.*}}call-regions.cpp:24:1 in 'scale'
// CHECK:       item 0: tofrom 'x[0:n]' {{.*}} access read-write params-only fn-host-unused clause-bytes
// CHECK-LABEL: 'target enter data' at {{.*}}call-regions.cpp:30:1 in 'peek'
// CHECK:       item 0: to 'x[0:n]' {{.*}} access unknown params-only fn-device-reads fn-host-reads clause-bytes
// CHECK-LABEL: 'target' at {{.*}}call-regions.cpp:39:1 in 'fill_table'
// CHECK:       item 0: tofrom 'table[lo:8]' {{.*}} params-only fn-host-unused
// CHECK-LABEL: 'call' at {{.*}}call-regions.cpp:44:37 in 'walk'
// CHECK-NEXT:  call: 'scale(x, n, 2.0f)' end 44:54 args 'x' 'n' '2.0f'
// CHECK-NEXT:  callee: 'scale' symbol '_ZL5scalePfif' params 'x' 'n' 'w'
// CHECK-NEXT:  loop: none
// CHECK-LABEL: 'call' at {{.*}}call-regions.cpp:64:5 in 'driver'
// CHECK-NEXT:  call: 'scale(a, n, 0.5f)' end 64:22 in-loop-body args 'a' 'n' '0.5f'
// CHECK-NEXT:  callee: 'scale' symbol '_ZL5scalePfif' params 'x' 'n' 'w'
// CHECK-NEXT:  loop: for 63:3-72:4
// CHECK-NEXT:  item 0: none 'a' var 'a' {{.*}} access unknown arg-invariant clause-bytes
// CHECK-NEXT:  item 1: none 'n' var 'n' {{.*}} access unknown arg-invariant clause-bytes
// CHECK-NEXT:  item 2: none '0.5f' var '' {{.*}} access unknown arg-invariant clause-bytes
// peek reads x on the host; plain does not follow its pointer, boxed is not
// looked into as a call of the loop's, b->run cannot be seen, and fp's
// callees' host code is known only from their own tables (the call passes
// `a` to a function defined elsewhere, for the host access's count).
// CHECK:       host 0 'a' read at 65:5-65:30 {{.*}} statement every-time after at-most-once
// CHECK-NEXT:  host 0 'a' read-write at 66:5-66:21
// CHECK-NEXT:  host 0 'a' read-write at 70:5-70:18
// CHECK-NEXT:  host 0 'a' read-write at 71:5-71:20
// CHECK-LABEL: 'call' at {{.*}}call-regions.cpp:65:5 in 'driver'
// CHECK-NEXT:  call: 'peek(a + 1, n - s, &out)'
// CHECK:       item 0: none 'a + 1' var 'a' {{.*}} access unknown arg-invariant clause-bytes
// CHECK-NEXT:  item 1: none 'n - s' var '' {{.*}} access unknown clause-bytes
// CHECK-LABEL: 'call' at {{.*}}call-regions.cpp:67:5 in 'driver'
// CHECK-NEXT:  call: 'fill_table(8)'
// CHECK-NEXT:  callee: 'fill_table' symbol '_ZL10fill_tablei' params 'lo'
// CHECK:       item 0: none '8' var '' {{.*}} arg-invariant
// CHECK-NEXT:  item 1: none 'table' var 'table'
// CHECK:       host 1 'table' read-write at 70:5-70:18
// CHECK-LABEL: 'call' at {{.*}}call-regions.cpp:68:5 in 'driver'
// CHECK-NEXT:  call: 'walk(a, n)'

// NOT-NOT: call: 'plain(
// NOT-NOT: call: 'boxed(
// NOT-NOT: call: 'b->run(
// A call through a pointer to a function held in a variable is recorded
// as a call of a function defined elsewhere, flagged indirect-callee
// (region table 3.14): no symbol, the pointer type's parameters unnamed
// here (#k); the runtime names the functions it calls.
// CHECK-LABEL: 'call' at {{.*}}call-regions.cpp:71:5 in 'driver' extern-callee indirect-callee
// CHECK-NEXT:  call: 'fp(a, n, 1.0f)'
// CHECK-NEXT:  callee: 'fp' symbol '' params '#1' '#2' '#3'
// NOT-NOT: in 'from_lambda'
