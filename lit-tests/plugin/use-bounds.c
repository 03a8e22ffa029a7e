// Use bounds (region table 3.3): for each item of `target enter data`,
// `target exit data` and `target data`, the statements of its block (of
// its body, for `target data`) that may use it: the first after the enter
// directive and the construct it is, or that its loop's body begins with
// (lead); the last before the exit directive and the construct it ends
// with (tail); whether a directive fits on a line of its own there; a
// label or jump out among the statements a move would pass (jump); none in
// the block (none).
// A statement may use an item when it names a variable of the item or of
// the directive's other clauses (a call passed it, host code, another
// construct), declares such a name, or, for a global, calls a function.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#define N 64
void use(double *v);
void other(void);
double g[N];

void local(int n, int dev) {
  double *x = (double *)__builtin_malloc(N * sizeof(double));
  double *y = (double *)__builtin_malloc(N * sizeof(double));
#pragma omp target enter data map(alloc: x[0:n]) map(to: y[0:N]) device(dev)
  other();                  /* uses neither: x is local, never passed */
  y[0] = 1;                 /* uses y: host code */
  for (int it = 0; it < 3; ++it) {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      x[i] = i + it;
  }
  n = 5;                    /* the section's bound: uses x's item */
  use(y);
#pragma omp target exit data map(delete: x[0:n]) map(from: y[0:N]) device(dev)
}

// CHECK:      region {{.*}} 'target enter data' at {{.*}}use-bounds.c:[[#E:]]:1 in 'local'
// CHECK:      item 0: alloc 'x[0:n]'
// CHECK-NEXT: uses: first [[#E+3]]:3 @{{[0-9]+}} lead [[#E+4]]:1 indent 3 begin-own-line{{$}}
// CHECK-NEXT: item 1: to 'y[0:N]'
// CHECK-NEXT: uses: first [[#E+2]]:3 @{{[0-9]+}} lead 0:0 indent 3 begin-own-line{{$}}
// CHECK:      region {{.*}} 'target exit data' at {{.*}}use-bounds.c:[[#X:]]:1 in 'local'
// CHECK:      item 0: delete 'x[0:n]'
// A block comment after it: no line of its own for a directive after it.
// CHECK-NEXT: uses: last-end [[#X-2]]:9 @{{[0-9]+}} tail 0:0 indent 3{{$}}
// CHECK-NEXT: item 1: from 'y[0:N]'
// CHECK-NEXT: uses: last-end [[#X-1]]:10 @{{[0-9]+}} tail 0:0 indent 3 end-own-line{{$}}

void global(void) {
#pragma omp target enter data map(to: g[0:N])
  other();                  /* may use g: any function may */
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N; ++i)
    g[i] += 1;
#pragma omp target exit data map(from: g[0:N])
}

// CHECK:      region {{.*}} 'target enter data' at {{.*}}use-bounds.c:[[#G:]]:1 in 'global'
// CHECK:      item 0: to 'g[0:N]'
// CHECK-NEXT: uses: first [[#G+1]]:3 @{{[0-9]+}} lead 0:0 indent 3 begin-own-line{{$}}
// CHECK:      region {{.*}} 'target exit data' at {{.*}}use-bounds.c:[[#G+5]]:1 in 'global'
// CHECK:      item 0: from 'g[0:N]'
// CHECK-NEXT: uses: last-end [[#G+4]]:15 @{{[0-9]+}} tail [[#G+2]]:1 indent 1 end-own-line{{$}}

int jumps(double *z, int n) {
#pragma omp target data map(tofrom: z[0:N])
  {
    int k = n;
  again:
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      z[i] += 1;
    if (--k > 0)
      goto again;
    z[0] += k; k = 0;
  }
  {
#pragma omp target enter data map(to: z[0:N])
    return 2;
  }
}

// CHECK:      region {{.*}} 'target data' at {{.*}}use-bounds.c:[[#D:]]:1 in 'jumps'
// CHECK:      item 0: tofrom 'z[0:N]'
// CHECK-NEXT: uses: first [[#D+3]]:3 @{{[0-9]+}} lead 0:0 last-end [[#D+9]]:15 @{{[0-9]+}} tail 0:0 indent 3 begin-own-line jump{{$}}
// CHECK:      region {{.*}} 'target enter data' at {{.*}}use-bounds.c:[[#D+12]]:1 in 'jumps'
// CHECK:      item 0: to 'z[0:N]'
// CHECK-NEXT: uses: indent 0 none{{$}}
