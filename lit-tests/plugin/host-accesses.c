// Host accesses: for each item of a construct, the host statements of the
// innermost loop around it (or, in no loop, of its block) that use the
// item's storage, with read/write, the statement's range, and whether a
// directive can go around it (statement), it runs once per execution of
// the construct (every-time) or at most once (at-most-once: nothing before
// the construct leaves the iteration), and it comes after the construct
// (after). A use in the braces of one branch of an if whose conditions do
// not use the item is recorded there (adjacent statements as one).
// Also each construct's statement range and block.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#define N 64
void use(int *v);
int g[N];

void loop(int n) {
  static int a[N], b[N];
  int c[N];
  for (int it = 0; it < n && a[0] >= 0; ++it) {
    a[it] = it;
    int t = b[it] + 1;
#pragma omp target map(tofrom: a, b) map(to: c)
    for (int j = 0; j < N; ++j)
      b[j] += a[j] + c[j];
    c[0] = t; a[1] = 2;
    use(c);
    b[2]++;
  }
}

// CHECK:      region {{.*}} 'target' at {{.*}}host-accesses.c:[[#L:]]:1 in 'loop'
// CHECK:      stmt: [[#L]]:1-[[#L+2]]:27 bytes {{[0-9]+}}+{{[0-9]+}} block {{[0-9]+}} #2
// Loop condition: no place for a directive.
// CHECK-NEXT: host 0 'a' read at [[#L-3]]:20-[[#L-3]]:39 bytes {{[0-9]+}}+19{{$}}
// CHECK-NEXT: host 0 'a' write at [[#L-2]]:5-[[#L-2]]:16 bytes {{[0-9]+}}+11 statement every-time at-most-once{{$}}
// Two statements on one line: no line of its own.
// CHECK-NEXT: host 0 'a' write at [[#L+3]]:15-[[#L+3]]:24 bytes {{[0-9]+}}+9 every-time after at-most-once{{$}}
// A call the compiler cannot see into may touch static and global storage
// (unnamed: it is not passed the item; 3.11 records it for constructs too).
// CHECK-NEXT: host 0 'a' read-write at [[#L+4]]:5-[[#L+4]]:12 bytes {{[0-9]+}}+7 statement every-time after at-most-once unnamed{{$}}
// CHECK-NEXT: host 1 'b' read at [[#L-1]]:5-[[#L-1]]:23 bytes {{[0-9]+}}+18 statement every-time at-most-once{{$}}
// CHECK-NEXT: host 1 'b' read-write at [[#L+4]]:5-[[#L+4]]:12 bytes {{[0-9]+}}+7 statement every-time after at-most-once unnamed{{$}}
// CHECK-NEXT: host 1 'b' read-write at [[#L+5]]:5-[[#L+5]]:12 bytes {{[0-9]+}}+7 statement every-time after at-most-once{{$}}
// CHECK-NEXT: host 2 'c' write at [[#L+3]]:5-[[#L+3]]:14 bytes {{[0-9]+}}+9 every-time after at-most-once{{$}}
// The address of the local c escapes to the call: read and write; the
// statement only passes c itself to a function of another file, whose own
// table may say what it does with it (extern-args).
// CHECK-NEXT: host 2 'c' read-write at [[#L+4]]:5-[[#L+4]]:12 bytes {{[0-9]+}}+7 statement every-time after at-most-once extern-args 1{{$}}
// use() is defined in another file and passed a pointer: a call region of
// its own (extern-callee), after the construct's.
// CHECK-NOT:  {{^ *}}host {{[0-9]}}
// CHECK:      region {{.*}} 'call' at {{.*}}host-accesses.c:[[#L+4]]:5 in 'loop' extern-callee

void jumps(int n) {
  int d[N];
  for (int it = 0; it < n; ++it) {
    if (it == 3)
      continue;
    d[it] = it;
#pragma omp target map(tofrom: d)
    for (int j = 0; j < N; ++j)
      d[j]++;
  }
}

// A continue: the statements do not run once per execution of the construct.
// CHECK:      region {{.*}} 'target' at {{.*}}host-accesses.c:[[#J:]]:1 in 'jumps'
// CHECK:      host 0 'd' write at [[#J-1]]:5-[[#J-1]]:16 bytes {{[0-9]+}}+11 statement{{$}}
// CHECK-NOT:  host

void block(int *p) {
  int e[N];
  e[0] = 1;
#pragma omp target map(tofrom: e)
  e[1] = e[0];
  p[0] = 0;
#pragma omp target map(tofrom: e)
  {
    e[2] = e[1];
  }
  p[1] = e[2];
}

// Not in a loop: the block's statements; g is a global that any call may
// touch, p[...] does not name e.
// CHECK:      region {{.*}} 'target' at {{.*}}host-accesses.c:[[#B:]]:1 in 'block'
// CHECK-NEXT: loop: none
// CHECK:      stmt: [[#B]]:1-[[#B+1]]:15 bytes {{[0-9]+}}+{{[0-9]+}} block [[#BLK:]] #2
// CHECK-NEXT: host 0 'e' write at [[#B-1]]:3-[[#B-1]]:12 bytes {{[0-9]+}}+9 statement{{$}}
// CHECK-NEXT: host 0 'e' read at [[#B+7]]:3-[[#B+7]]:15 bytes {{[0-9]+}}+12 statement after{{$}}
// CHECK-NOT:  host
// CHECK:      region {{.*}} 'target' at {{.*}}host-accesses.c:[[#B+3]]:1 in 'block'
// CHECK:      stmt: [[#B+3]]:1-[[#B+6]]:4 bytes {{[0-9]+}}+{{[0-9]+}} block [[#BLK]] #4
// CHECK-NEXT: host 0 'e' write at [[#B-1]]:3-[[#B-1]]:12 bytes {{[0-9]+}}+9 statement{{$}}
// CHECK-NEXT: host 0 'e' read at [[#B+7]]:3-[[#B+7]]:15 bytes {{[0-9]+}}+12 statement after{{$}}
// CHECK-NOT:  host

void update(void) {
  int u[N];
  u[0] = 1;
#pragma omp target update to(u)
}

// A standalone directive's statement is its line; the block before it
// holds one declaration.
// CHECK:      region {{.*}} 'target update' at {{.*}}host-accesses.c:[[#U:]]:1 in 'update'
// CHECK:      stmt: [[#U]]:1-[[#U]]:32 bytes {{[0-9]+}}+31 block {{[0-9]+}} #2 decls 1 jumps 0 own-lines
// CHECK-NEXT: host 0 'u' write at [[#U-1]]:3-[[#U-1]]:12 bytes {{[0-9]+}}+9 statement{{$}}

void branches(int n) {
  int h[N], q[N], r[N], s = 0;
  for (int it = 0; it < n; ++it) {
#pragma omp target map(tofrom: h, q, r)
    for (int j = 0; j < N; ++j)
      h[j] += q[j] + r[j];
    if (it % 4 == 3) {
      s += h[0];
      s += h[1];
    } else if (it == 5) {
      if (q[0] > 5) {
        q[0] = 0;
        break;
      }
    }
    if (s > 100)
      s -= r[0];
    if (r[1] > 0) {
      s++;
    }
  }
}

// A break after the construct: at most once, not every time. `h`: the two
// adjacent statements in the first branch, as one. `q`: the inner if
// (its condition uses `q`), which can leave the iteration after writing
// `q`: no statement (an update after it might not run). `r`: an if with no
// braces, and an if whose condition uses `r`: the whole ifs.
// CHECK:      region {{.*}} 'target' at {{.*}}host-accesses.c:[[#R:]]:1 in 'branches'
// CHECK:      host 0 'h' read at [[#R+4]]:7-[[#R+5]]:17 bytes {{[0-9]+}}+{{[0-9]+}} statement after at-most-once{{$}}
// CHECK-NEXT: host 1 'q' read-write at [[#R+7]]:7-[[#R+10]]:8 bytes {{[0-9]+}}+{{[0-9]+}} after at-most-once{{$}}
// CHECK-NEXT: host 2 'r' read at [[#R+12]]:5-[[#R+13]]:17 bytes {{[0-9]+}}+{{[0-9]+}} statement after at-most-once{{$}}
// CHECK-NEXT: host 2 'r' read at [[#R+14]]:5-[[#R+16]]:6 bytes {{[0-9]+}}+{{[0-9]+}} statement after at-most-once{{$}}
// CHECK-NOT:  host
