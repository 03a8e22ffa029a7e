// A duplicate transfer in a program built without the ompdp plugin: no
// region table says whether a kernel writes the data, so the advice to keep
// it resident is conditional (here the kernel does write it, and a kept
// copy would accumulate: the resend is needed), and says how to know.
// Negative: built with the plugin, the same program's sends are necessary
// (the compiler sees the kernel write `a`), with no advice to keep it.
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 > /dev/null | FileCheck %s
// RUN: %clang-ompdp -g %s -o %t.plugin
// RUN: %ompdp run -- %t.plugin 2>&1 > /dev/null | FileCheck %s --check-prefix=PLUGIN
// REQUIRES: plugin
#include <stdio.h>

#define N 1024

int main(void) {
  static float a[N];
  double s = 0;
  for (int i = 0; i < N; ++i)
    a[i] = (float)(i % 5);
  for (int r = 0; r < 4; ++r) {
#pragma omp target map(to: a) map(tofrom: s)
    {
      for (int i = 0; i < N; ++i)
        a[i] += 1.0f;
      s += a[0];
    }
  }
  printf("%g\n", s);
  return 0;
}

// CHECK: duplicate_transfer
// CHECK: suggestion: the same host buffer is sent again with unchanged contents to device {{[0-9]+}}: if no kernel writes it on the device between the sends, keep it resident with `#pragma omp target data map(to: {{.*}})` (or `target enter data`) around the constructs that use it and drop the per-construct copy; if one does, each send resets it and is needed (built with the ompdp plugin, ompdp tells which)
// PLUGIN: duplicate_transfer
// PLUGIN: verdict: necessary
// PLUGIN-NOT: keep it resident
