//===- few_teams.c - a kernel that ran with far fewer teams than it asked ==//
//
// On offload to the host a kernel's teams and threads are libomp's, as
// many as the machine's processors allow: the first kernel asks for 1024
// teams of 1024 threads, more than any host gives, and the report warns
// that it ran with fewer (its data's findings may not be what a GPU run
// shows). Built with the plugin, the warning names the thread limit too
// (the compiler's kernel arguments); built without it, the teams only
// (the launch's requested_num_teams). Negative cases: a kernel with no
// clause asks for nothing, and one asking for 1 team of 1 thread gets
// them: no warning for either. A GPU's kernels run no host region.
//
// UNSUPPORTED: gpu
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefixes=COMMON,NOPLUGIN
// RUN: %ompdp run --format=json -- %t 2>&1 | FileCheck %s --check-prefix=JSON
// RUN: %if plugin %{ %clang-ompdp %s -o %t.p && %ompdp run -- %t.p 2>&1 | FileCheck %s --check-prefixes=COMMON,PLUGIN %}
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>

#define N 4096

static float a[N];

int main(void) {
  int teams = 0;
#pragma omp target teams distribute parallel for num_teams(1024) thread_limit(1024) map(tofrom: a, teams)
  for (int i = 0; i < N; ++i) {
    a[i] += 1;
    if (i == 0)
      teams = omp_get_num_teams();
  }
#pragma omp target teams distribute parallel for map(tofrom: a)
  for (int i = 0; i < N; ++i)
    a[i] += 2;
#pragma omp target teams distribute parallel for num_teams(1) thread_limit(1) map(tofrom: a)
  for (int i = 0; i < N; ++i)
    a[i] += 3;
  printf("a[7]=%g fewer=%d\n", a[7], teams < 1024);
  return 0;
}

// COMMON: a[7]=6 fewer=1
// NOPLUGIN: warning: the kernel at {{.*}}few_teams.c:28 (main) asked for 1024 teams and ran with {{[0-9]+}} team{{s?}} of {{[0-9]+}} thread{{s?}} on device {{[0-9]+}}: code that divides its work by the number of teams or threads did other work than it would on a GPU, so what this report says of its data may not be representative
// PLUGIN: warning: the kernel at {{.*}}few_teams.c:28 (main) asked for 1024 teams of 1024 threads and ran with {{[0-9]+}} team{{s?}} of {{[0-9]+}} thread{{s?}} on device {{[0-9]+}}: code
// COMMON-NOT: warning: the kernel at
// JSON: "warnings": [
// JSON-NEXT: "the kernel at {{.*}}few_teams.c:28 (main) asked for 1024 teams and ran with
// JSON-NEXT: ]
