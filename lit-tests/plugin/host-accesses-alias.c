// Host accesses of an item named through a local pointer initialised from
// a field (its other name, as HeCBench divergence's `const real *Dvv =
// deriv.Dvv;`): a statement that uses the field is a use of the item, but
// the pointer's own declaration only names the storage and is no use of
// it (it was recorded as a read-write, and the duplicates of `Dvv` called
// a repeated computation). Another declaration in the same statement
// still counts.
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s

#define N 64
struct Grid { float a[N]; float *b; };

void step(struct Grid *g, int n) {
  for (int it = 0; it < n; ++it) {
    float *p = g->a;
    float *q = g->b, s = g->b[0];
#pragma omp target map(tofrom: p[0:N]) map(to: q[0:N]) firstprivate(s)
    for (int j = 0; j < N; ++j)
      p[j] += q[j] + s;
    g->a[0] = 1.f;
  }
}

// CHECK:      region {{.*}} 'target' at {{.*}}host-accesses-alias.c:[[#L:]]:1 in 'step'
// CHECK-NOT:  host 0 'p' {{.*}} at [[#L-2]]:
// The field written through its own name: a write of `p`'s storage.
// CHECK:      host 0 'p' write at [[#L+3]]:5-[[#L+3]]:19 bytes {{[0-9]+}}+14 statement every-time after at-most-once{{$}}
// `s = g->b[0]` reads what q points to; q's own declaration adds nothing.
// CHECK-NEXT: host 1 'q' read at [[#L-1]]:5-[[#L-1]]:34 bytes {{[0-9]+}}+29 statement every-time at-most-once{{$}}
// CHECK-NOT:  host
