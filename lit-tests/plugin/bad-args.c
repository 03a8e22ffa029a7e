// Bad plugin arguments are errors with a message, not crashes.
// REQUIRES: plugin
// RUN: not %clang %ompdp-plugin-flags -fplugin-arg-ompdp-bogus %offload-flags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump= %offload-flags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump=%t.nodir/x.txt %offload-flags -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=NOFILE
// UNKNOWN: error: ompdp: unknown plugin argument 'bogus' (valid: -fplugin-arg-ompdp-dump, -fplugin-arg-ompdp-dump=<file>{{.*}})
// EMPTY: error: ompdp: '-fplugin-arg-ompdp-dump=' needs a file name
// NOFILE: error: ompdp: cannot write the region table dump to '{{.*}}x.txt'
// UNKNOWN-NOT: Stack dump
int main(void) {
  int x = 0;
#pragma omp target map(tofrom: x)
  x++;
  return x;
}
