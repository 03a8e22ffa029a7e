// A round trip that happens once, in one execution of a `target data`
// whose kernel writes the data only with some inputs (none this run): the
// copy back brought nothing new this time, but it carries the kernel's
// result, and nothing repeats to keep the data across: necessary, with
// words that say so (no "keep it where the calls repeat", no generic "no
// rule"). Negatives: the same construct in a loop of three gets the
// keep-resident words and its rewrite; a kernel that only reads, with host
// code that writes the data in the body (-DHOST_WRITE), is advice whose
// reason is that host code, not a kernel; a `target update to` that sends
// back, once, what a `target update from` of another function brought
// (-DUPDATE, gmm's copyClusterFromDevice and copyClusterToDevice) is
// advice whose words speak of dropping the update, not of a map.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t.once
// RUN: %ompdp run -- %t.once 2>&1 | FileCheck %s --check-prefix=ONCE
// RUN: %clang-ompdp -g -DREPEAT=3 %s -o %t.loop
// RUN: %ompdp run -- %t.loop 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: %clang-ompdp -g -DHOST_WRITE %s -o %t.host
// RUN: %ompdp run -- %t.host 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: %clang-ompdp -g -DUPDATE %s -o %t.update
// RUN: %ompdp run -- %t.update 2>&1 | FileCheck %s --check-prefix=UPDATE
#include <stdio.h>
#include <stdlib.h>

#ifndef REPEAT
#define REPEAT 1
#endif
#define N 4096

#ifdef UPDATE
static double peek(const double *a) { return a[N / 2]; }
static void fetch(double *a) {
#pragma omp target update from(a[0:N])
}
static void send(double *a) {
#pragma omp target update to(a[0:N])
}

static void step(double *a, int scale) {
  double seen;
#pragma omp target data map(alloc: a[0:N])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] = i + scale;
    fetch(a);
    seen = peek(a);
    send(a);
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      if (a[i] < 0)
        __builtin_trap();
  }
  if (seen < 0)
    printf("negative\n");
}
#else
static void step(double *a, int scale) {
#pragma omp target data map(tofrom: a[0:N])
  {
#ifdef HOST_WRITE
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      if (a[i] < 0)
        __builtin_trap();
    a[0] += scale;
#else
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      if (scale)
        a[i] *= scale;
#endif
  }
}
#endif

int main(int argc, char **argv) {
  double *a = malloc(N * sizeof(double));
  for (int i = 0; i < N; ++i)
    a[i] = i;
  int scale = argc > 5 ? 2 : 0;
  for (int r = 0; r < REPEAT; ++r)
    step(a, scale);
  printf("%g\n", a[N - 1]);
  return 0;
}

// ONCE: round_trip {{.*}} count=1
// ONCE: variable: a
// ONCE: verdict: necessary
// ONCE: suggestion: no saving: the construct's kernels may write a (the compiler sees them write it, or cannot tell that they do not), so the copy back carries their result; in this run it equalled what the host had, which other inputs need not give. It ran once: nothing repeats that keeping the data on the device would save
// ONCE-NOT: no rule for this case
// LOOP: round_trip {{.*}} count=3
// LOOP: suggestion: data copied back from device 0 returns unchanged: the construct's function has no loop around it, so keep the data on the device where the calls repeat
// HOST: round_trip {{.*}} count=1
// HOST: variable: a
// HOST: verdict: advice
// HOST: No rewrite: host code of the construct's body writes it or sends it again
// HOST-NOT: overbroad_map
// UPDATE: round_trip {{.*}} count=1
// UPDATE-NEXT: variable: a  clause: to(a[0:N])
// UPDATE-NEXT: outgoing copy at {{.*}} in fetch
// UPDATE-NEXT: verdict: advice
// UPDATE-NEXT: suggestion: data copied back from device 0 was sent back unchanged, once, by this `target update to`: the device still had those bytes, unless a kernel changed its copy in between; if none can, the update can go (where the host changes a in between, it is needed). No rewrite: dropping the update needs proof that no kernel changes the device's copy and no host code changes the host's between the copy back and this update
