// The address of a variable (`&r`, HeCBench deredundancy's counter) is
// the same at every call of a loop that does not declare the variable
// anew, whatever the loop stores in it: arg-invariant, also where the loop
// writes `r` (`written`). Not for a variable the loop's body declares
// (`fresh`: a new variable each iteration, loop-declared) nor for a
// reference. Where the function takes r's address only as call arguments
// in the loop, also addr-args-only (region table 3.15).
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -x c++ -c %s -o %t.o | FileCheck %s

void bump(int *r, int n) {
#pragma omp target map(tofrom: r[0:1])
  r[0] += n;
}

void counted(void) {
  int r = 0;
  while (r < 100)
    bump(&r, 3);
}

void written(void) {
  int r = 0;
  for (int k = 0; k < 4; ++k) {
    bump(&r, 3);
    r -= 1;
  }
}

void fresh(void) {
  for (int k = 0; k < 4; ++k) {
    int r = k;
    bump(&r, 3);
  }
}

void refd(int &q) {
  for (int k = 0; k < 4; ++k)
    bump(&q, 3);
}

// CHECK:      'call' at {{.*}} in 'counted'
// CHECK:      item 0: none '&r' var 'r' {{.*}} access unknown arg-invariant addr-args-only clause-bytes
// CHECK:      'call' at {{.*}} in 'written'
// CHECK:      item 0: none '&r' var 'r' {{.*}} access unknown arg-invariant addr-args-only clause-bytes
// CHECK:      'call' at {{.*}} in 'fresh'
// CHECK:      item 0: none '&r' var 'r' {{.*}} access unknown loop-declared addr-args-only clause-bytes
// CHECK:      'call' at {{.*}} in 'refd'
// CHECK:      item 0: none '&q' var 'q' {{.*}} access unknown clause-bytes
