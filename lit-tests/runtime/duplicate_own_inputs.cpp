// Equal bytes sent from one address by different functions' own storage:
// each instance of test<B> (HeCBench's adjacent) allocates its input anew
// and fills it with the same values, which malloc puts where the last
// instance's was. Two inputs computed alike, each needed: coincidence, no
// saving. Negative (ONE): one function called twice re-sends the same
// values: advice to keep them (or to allocate once).
//
// ASan's allocator does not give an address back soon (its quarantine),
// and the shape needs malloc to.
// UNSUPPORTED: sanitizer
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 > /dev/null | FileCheck %s
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -g -DONE %s -o %t.one
// RUN: %ompdp run -- %t.one 2>&1 > /dev/null | FileCheck %s --check-prefix=ONE
#include <cstdio>
#include <cstdlib>

template <int B> static double test(int n) {
  int *in = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; ++i)
    in[i] = i % 17;
  double s = 0;
#pragma omp target teams distribute parallel for map(to: in[0:n]) reduction(+: s)
  for (int i = 0; i < n; ++i)
    s += in[i] * B;
  free(in);
  return s;
}

int main() {
#ifdef ONE
  double t = test<64>(4096) + test<64>(4096);
#else
  double t = test<64>(4096) + test<256>(4096);
#endif
  printf("%g\n", t);
  return 0;
}

// CHECK: duplicate_transfer {{.*}} in test<256>
// CHECK: variable: in
// CHECK: verdict: coincidence (not counted as a saving)
// CHECK: suggestion: no saving: in in test<256> is storage of its own at each call of its function, which fills it; the bytes equal what another function's own variable in test<64> sent from the same address, because both computed the same values: two inputs, each needed; nothing to change
// ONE: duplicate_transfer {{.*}} in test<64>
// ONE: variable: in
// ONE-NOT: verdict: coincidence
