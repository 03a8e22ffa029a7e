// ===- host-only-warning.c - the plugin says when nothing will be offloaded -===//
//
// With the plugin but without -fopenmp, `#pragma omp` lines are ignored;
// without -fopenmp-targets, target regions are compiled for the host only.
// Either way `ompdp run` would find no data movement, so the plugin warns
// once per compile, at the first pragma or target construct. Negative: a
// full offload build, and a file without OpenMP pragmas, get no warning.
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOOMP
// RUN: %clang %ompdp-plugin-flags -fopenmp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOTARGETS
// RUN: %clang-ompdp -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
// RUN: %clang %ompdp-plugin-flags -DNO_PRAGMAS -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=CLEAN --allow-empty
//
// NOOMP: host-only-warning.c:[[@LINE+9]]:1: warning: ompdp: this file is compiled without -fopenmp: its OpenMP pragmas are ignored, nothing is offloaded and ompdp records nothing; add -fopenmp -fopenmp-targets=<device triple>
// NOOMP-NOT: warning:
// NOTARGETS: host-only-warning.c:[[@LINE+12]]:1: warning: ompdp: 2 target constructs of this file are compiled without -fopenmp-targets: they run on the host as plain code and move no data, so ompdp has nothing to measure
// NOTARGETS-NOT: warning:
// CLEAN-NOT: ompdp:
//===----------------------------------------------------------------------===//

void scale(double *a, int n) {
#ifndef NO_PRAGMAS
#pragma omp parallel for
#endif
  for (int i = 0; i < n; i++)
    a[i] *= 2;
#ifndef NO_PRAGMAS
#pragma omp target map(tofrom : a[0:n])
#endif
  for (int i = 0; i < n; i++)
    a[i] += 1;
#ifndef NO_PRAGMAS
#pragma omp target update to(a[0:n])
#endif
}
