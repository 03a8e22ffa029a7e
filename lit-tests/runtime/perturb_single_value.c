// perturb_single_value.c - memory nobody initialised is no single value
//
// HeCBench backprop (held out of the corpus) sends `hidden_delta`, which
// malloc returned and nothing set, to the device. Under glibc's
// MALLOC_PERTURB_ (the realprogs harness sets it, as do users hunting for
// reads of uninitialised memory) malloc fills such memory with one byte,
// so the copy looked like one value repeated, and the single-value rule
// filled the device's copy with that byte pattern: a rewrite that bakes
// in garbage (backprop then printed FAIL where it had printed PASS, its
// result depending on what the heap held). Under MALLOC_PERTURB_ a copy
// whose bytes are all the allocator's fill byte is not noted as one value:
// `u` gets no finding, while `b` (every element 2.5, set by the program)
// still does. Negative: -DSET memsets `u` to the same byte itself, run
// without MALLOC_PERTURB_: then its one value is the program's, and found.
//
// An instrumented build's allocator is ASan's, which ignores MALLOC_PERTURB_
// and fills with a byte of its own:
// UNSUPPORTED: sanitizer
// REQUIRES: plugin
// RUN: %clang-ompdp -g %s -o %t
// RUN: env MALLOC_PERTURB_=165 %ompdp run -- %t 2>&1 | FileCheck %s
// RUN: %clang-ompdp -g -DSET %s -o %t.set
// RUN: env -u MALLOC_PERTURB_ %ompdp run -- %t.set 2>&1 | FileCheck %s --check-prefix=SET
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  int n = 1000;
  float *b = malloc(sizeof(float) * n);
  float *u = malloc(sizeof(float) * n);
  for (int i = 0; i < n; ++i)
    b[i] = 2.5f;
#ifdef SET
  memset(u, 0x5a, sizeof(float) * n);
#endif
  int nans = 0;
  double s = 0;
#pragma omp target map(to: b[0:n], u[0:n]) map(tofrom: s, nans)
  for (int i = 0; i < n; ++i) {
    s += b[i];
    nans += u[i] != u[i];
  }
  printf("s=%g nans=%d\n", s, nans);
  free(b);
  free(u);
  return 0;
}

// CHECK:     single_value_transfers=1
// CHECK-NOT: variable: u
// CHECK:     {{^}}single_value_transfer
// CHECK-NEXT:    variable: b  clause: map(to: b[0:n], u[0:n])
// CHECK-NOT: variable: u

// SET:       single_value_transfers=2
// SET:       {{^}}single_value_transfer
// SET-NEXT:      variable: {{[bu]}}  clause: map(to: b[0:n], u[0:n])
// SET:       {{^}}single_value_transfer
// SET-NEXT:      variable: {{[bu]}}  clause: map(to: b[0:n], u[0:n])
