//===- plugin_args_hostile.c - plugin arguments nobody should pass --------===//
//
// REQUIRES: plugin
//
// Arguments to the compiler plugin come from build scripts: an argument
// with terminal control characters, one of 20000 bytes, and a dump file on
// a full disk are each one clear error from clang ("ompdp: ..."), exit
// status 1, never a crash or an "error in backend". (lit-tests/plugin/
// bad-args.c has the ordinary mistakes.)
//
// RUN: sh -c '%clang %ompdp-plugin-flags "-fplugin-arg-ompdp-$(printf "\033[31mred\007")" %offload-flags -c %s -o %t.o; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=CTRL,RC
// RUN: sh -c '%clang %ompdp-plugin-flags "-fplugin-arg-ompdp-$(head -c 20000 /dev/zero | tr "\0" x)" %offload-flags -c %s -o %t.o; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=LONG,RC
// RUN: sh -c '%clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump=/dev/full %offload-flags -c %s -o %t.o; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefixes=FULL,RC
//===----------------------------------------------------------------------===//

// CTRL: error: ompdp: unknown plugin argument '{{.*}}red{{.*}}' (valid:
// LONG: error: ompdp: unknown plugin argument 'xxxxxxxxxxxxxxxx{{x*}}' (valid:
// FULL: error: ompdp: cannot write the region table dump to '/dev/full': No space left on device
// RC-NOT: error in backend
// RC-NOT: Stack dump
// RC-NOT: PLEASE submit
// RC: rc=1

int main(void) {
  int x = 0;
#pragma omp target map(tofrom : x)
  x++;
  return x;
}
