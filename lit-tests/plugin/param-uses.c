//===- param-uses.c - what a function's host code does with its parameters -===//
//
// Region table 3.9. Each construct records, per parameter of its function,
// what the function's host code does with it (FnParamUses, dumped as
// `param-uses` when a letter is not '-'): 'u' never names it, 'm' names it
// only in OpenMP clauses and device code (a pointer never assigned nor its
// address taken, whose pointee no host code reads, writes or lets escape;
// a `target update` moves data the same whether it is kept on the device
// or not), '-' anything else. A caller in another file may keep what it
// passes for an 'u' or 'm' parameter on the device across the call.
// And per host statement of a call's loop that uses a pointer argument:
// `extern-args N` when it only passes the variable itself to N calls of
// functions without a body here, `unnamed` when it never names it (only
// an opaque call there may reach it). Negative: `a + 1`, `a[0]` beside the
// call, or a call of a function whose body is here (seen()), are other
// uses; so are assigning a parameter, taking its address, passing it to an
// opaque call or storing it (others(): all '-').
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

float *saved;
void opaque(const float *p);
void other(const float *p, int n);
void seen(const float *p) { (void)p; }

// n is read on the host, x only mapped, unused never named.
void maps_only(int n, const float *x, float *unused) {
#pragma omp target teams distribute parallel for map(to: x[0:n])
  for (int i = 0; i < n; ++i)
    (void)x[i];
}
// CHECK: region {{.*}} 'target' at {{.*}}param-uses.c:[[#@LINE-4]]:1 in 'maps_only' param-uses '-mu'

// A target update is data motion, not a host use; a host read is.
void motion(int n, float *x, float *y) {
#pragma omp target enter data map(to: x[0:n], y[0:n])
#pragma omp target update from(x[0:n])
  y[0] += 1.0f;
#pragma omp target exit data map(delete: x[0:n], y[0:n])
}
// CHECK: region {{.*}} 'target enter data' at {{.*}}param-uses.c:[[#@LINE-5]]:1 in 'motion' param-uses '-m-'

// Assigned, address taken, escaped to an opaque call, stored in a global.
void others(int n, float *a, float *b, float *c, float *d) {
  a = a + 1;
  float **pb = &b;
  (void)pb;
  opaque(c);
  saved = d;
#pragma omp target teams distribute parallel for map(tofrom: a[0:n], b[0:n], c[0:n], d[0:n])
  for (int i = 0; i < n; ++i)
    a[i] = b[i] + c[i] + d[i];
}
// CHECK: region {{.*}} 'target' at {{.*}}param-uses.c:[[#@LINE-4]]:1 in 'others'{{$}}

// The caller's loop: extern-args for plain passes to functions defined
// elsewhere, unnamed where a statement never names the argument.
void kernel_call(float *x, int n);
void caller(float *a, float *b, int n) {
  for (int s = 0; s < 4; ++s) {
    kernel_call(a, n);
    other(a, n);
    opaque(b);
    other(a + 1, n);
    other(a, (int)a[0]);
    seen(a);
  }
}
// CHECK: region {{.*}} 'call' at {{.*}}param-uses.c:[[#CALL:@LINE-8]]:5 in 'caller' extern-callee
// CHECK: host 0 'a' read-write at [[#CALL+1]]:5-{{.*}} statement every-time after at-most-once extern-args 1
// CHECK-NEXT: host 0 'a' read-write at [[#CALL+2]]:5-{{.*}} statement every-time after at-most-once unnamed
// CHECK-NEXT: host 0 'a' read-write at [[#CALL+3]]:5-{{.*}} statement every-time after at-most-once{{$}}
// CHECK-NEXT: host 0 'a' read-write at [[#CALL+4]]:5-{{.*}} statement every-time after at-most-once{{$}}
// CHECK-NEXT: host 0 'a' read-write at [[#CALL+5]]:5-{{.*}} statement every-time after at-most-once{{$}}
// CHECK: region {{.*}} 'call' at {{.*}}param-uses.c:[[#CALL+2]]:5 in 'caller' extern-callee
// CHECK: host 0 'b' read-write at [[#CALL]]:5-{{.*}} unnamed
