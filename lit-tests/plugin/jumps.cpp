// The jump check: for the innermost loop around each construct, the region
// table lists every jump out of it (return, goto to a label outside,
// break/continue of an outer loop or switch, throw, indirect goto) and
// every label inside that a goto outside reaches (jump in), with whether
// the jump is a statement a `target exit data` can go before (statement)
// and on lines of its own in a block (own-lines), and whether a throw is
// inside a try in the loop (in-try). Not jumps out: a break or continue of
// the loop itself or of a loop or switch inside it, a goto to a label
// inside, a return in a lambda's body. The loop's last line and whether it
// stands on lines of its own in a block come with it.
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#define N 64
#define CHECK(x) if (!(x)) return -1
void use(int *);

int returns(int n) {
  static int a[N];
  for (int it = 0; it < n; ++it) {
#pragma omp target map(tofrom: a)
    a[0] += it;
    if (a[0] > 100) {
      use(a);
      return -1;
    }
    if (a[0] > 200) return -2;
    CHECK(a[1] == 0);
    if (it == 3) break;
    if (it == 4) continue;
    for (int k = 0; k < 2; ++k) { if (k) break; else continue; }
    switch (it) { case 7: break; default: continue; }
    auto f = [](int x) { return x + 1; };
    use(&it + f(0) * 0);
  }
  return 0;
}
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#R:]]:1 in 'returns'
// CHECK-NEXT: loop: for [[#R-1]]:3-[[#R+14]]:4 bytes {{[0-9]+}}+{{[0-9]+}} last-line [[#R+14]] own-lines{{$}}
// CHECK-NEXT: exit return at [[#R+4]]:7-[[#R+4]]:17 bytes {{[0-9]+}}+10 statement own-lines{{$}}
// CHECK-NEXT: exit return at [[#R+6]]:21-[[#R+6]]:31 bytes {{[0-9]+}}+10 statement{{$}}
// A macro: no place for a directive.
// CHECK-NEXT: exit return at [[#R+7]]:5-[[#R+7]]:22 bytes {{[0-9]+}}+17{{$}}
// CHECK-NEXT: item 0

int gotos(int n) {
  static int b[N];
  int i = 0;
  if (n < 0)
    goto inside;
  for (i = 0; i < n; ++i) {
#pragma omp target map(tofrom: b)
    b[0] += i;
    if (b[0] == 5)
      goto done;
    if (b[0] == 6)
      goto again;
  again:
    use(b);
  inside:
    b[1] = 0;
  }
done:
  return i;
}
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#G:]]:1 in 'gotos'
// CHECK-NEXT: loop: for [[#G-1]]:3-[[#G+10]]:4
// CHECK-NEXT: exit goto at [[#G+3]]:7-[[#G+3]]:17 bytes {{[0-9]+}}+10 statement{{$}}
// CHECK-NEXT: exit jump in at [[#G+8]]:3-
// CHECK-NEXT: item 0

void outer_loop(int n) {
  static int c[N];
  for (int o = 0; o < n; ++o)
    while (c[0] < n) {
#pragma omp target map(tofrom: c)
      c[0] += 1;
      if (c[0] == 3)
        break;
      if (c[0] == 4) {
        continue;
      }
    }
  for (int o = 0; o < n; ++o)
    switch (o) {
    case 1:
      for (int k = 0; k < n; ++k) {
#pragma omp target map(tofrom: c)
        c[1] += 1;
      }
      break;
    }
}
// The while loop's own break and continue stay inside it; it is the body
// of a for, not a statement of a block; the second loop is the statement of
// a case label, not of a block either.
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#O:]]:1 in 'outer_loop'
// CHECK-NEXT: loop: while [[#O-1]]:5-[[#O+7]]:6 bytes {{[0-9]+}}+{{[0-9]+}} last-line [[#O+7]]{{$}}
// CHECK-NEXT: item 0
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#P:]]:1 in 'outer_loop'
// CHECK-NEXT: loop: for [[#P-1]]:7-[[#P+2]]:8 bytes {{[0-9]+}}+{{[0-9]+}} last-line [[#P+2]]{{$}}
// CHECK-NEXT: item 0

int throws(int n) {
  static int d[N];
  for (int it = 0; it < n; ++it) {
#pragma omp target map(tofrom: d)
    d[0] += it;
    try {
      if (d[0] == 9)
        throw 1;
    } catch (int) {
    }
    if (d[0] == 10)
      throw 2;
  }
  return d[0];
}
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#T:]]:1 in 'throws'
// CHECK-NEXT: loop: for
// CHECK-NEXT: exit throw at [[#T+4]]:9-[[#T+4]]:17 bytes {{[0-9]+}}+8 statement in-try{{$}}
// CHECK-NEXT: exit throw at [[#T+8]]:7-[[#T+8]]:15 bytes {{[0-9]+}}+8 statement{{$}}
// CHECK-NEXT: item 0

// Written only, every element, on every path: writes-all; not when a
// write may be skipped.
void writes(int n, double *p, double *q) {
  double x = 0, y = 0;
  bool flag = false;
#pragma omp target map(tofrom: x, flag, p[0:n], q[0:n])
  {
    x = 1;
    for (int i = 0; i < n; ++i)
      p[i] = 2 * i;
    for (int i = 0; i < n; ++i)
      if (i > 0)
        q[i] = i;
    if (n > 2)
      flag = true;
  }
#pragma omp target teams distribute parallel for map(tofrom: p[:n], y)
  for (int i = 0; i < n; ++i) {
    p[i] = i;
    y = 1;
  }
  use((int *)&x + (int)y);
}
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#W:]]:1 in 'writes'
// CHECK:      item 0: tofrom 'x' {{.*}} access write writes-all
// CHECK-NEXT: item 1: tofrom 'flag' {{.*}} access write automatic clause-bytes
// CHECK-NEXT: item 2: tofrom 'p[0:n]' {{.*}} access write writes-all
// CHECK-NEXT: item 3: tofrom 'q[0:n]' {{.*}} access write params-only clause-bytes
// CHECK:      region {{.*}} 'target' at {{.*}}jumps.cpp:[[#W+11]]:1 in 'writes'
// CHECK:      item 0: tofrom 'p[:n]' {{.*}} access write writes-all
// The loop body runs n times, maybe none: y is not proved written.
// CHECK-NEXT: item 1: tofrom 'y' {{.*}} access write automatic clause-bytes
