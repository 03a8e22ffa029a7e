// unused_attached_pointer.c - the pointer a map attaches, which no kernel reads
//
// HeCBench tsa's shape: ping-pong buffers held in an array of pointers,
// `map(to: d[0][0:N]) map(alloc: d[1][0:N])`, and kernels given the
// pointers as arguments. Mapping `d[0][0:N]` also attaches `d[0]` (the
// device's copy of that pointer, set to the section's device address: 8
// bytes sent), which no kernel reads. The unused transfer's words say that
// those are the pointer's bytes, not the section's (they used to say
// "1 of the 2 copies in of d ... the others were read: the copy is needed
// in some executions", as if the section had gone unread once), and what
// would avoid them. Negative: -DVAR maps the section through a pointer
// variable of its own: no attachment, no unused transfer.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s
// RUN: %clang-ompdp -g -DVAR %s -o %t.var
// RUN: %ompdp run -- %t.var 2>&1 | FileCheck %s --check-prefix=VAR
#include <stdio.h>
#include <stdlib.h>

#define N 4096

int main(void) {
  float *d[2];
  d[0] = malloc(N * sizeof(float));
  d[1] = malloc(N * sizeof(float));
  for (int i = 0; i < N; ++i)
    d[0][i] = (float)i;
#ifdef VAR
  float *d0 = d[0], *d1 = d[1];
#pragma omp target data map(to: d0[0:N]) map(alloc: d1[0:N])
#else
#pragma omp target data map(to: d[0][0:N]) map(alloc: d[1][0:N])
#endif
  {
    for (int s = 0; s < 4; ++s) {
      float *in = d[s % 2], *out = d[1 - s % 2];
#pragma omp target teams distribute parallel for
      for (int i = 0; i < N; ++i)
        out[i] = in[i] + 1.0f;
    }
#ifdef VAR
#pragma omp target update from(d0[0:N])
#else
#pragma omp target update from(d[0][0:N])
#endif
  }
  printf("%g\n", d[0][10]);
  free(d[0]);
  free(d[1]);
  return 0;
}

// CHECK: unused_transfer {{.*}}unused_attached_pointer.c:[[#]]:1 in main count=1 bytes=8 B
// CHECK-NEXT: variable: d clause: map(to: d[0][0:N])
// CHECK: verdict: advice
// CHECK-NEXT: suggestion: the unread copies in are of the pointer `d[0]` itself (8 bytes each), which the map of its section attaches (OpenMP's pointer attachment: the device's copy of the pointer, set to the section's device address), and no kernel read it; the section's own copy is another transfer; only mapping the section through a pointer variable of its own avoids this one, a change of the host code that ompdp does not make

// VAR: === ompdp report ===
// VAR: summary: {{.*}} unused_transfers=0
// VAR-NOT: unused_transfer
