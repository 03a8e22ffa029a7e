//===- call_context.cpp - the calls each construct ran in -----------------===//
//
// The pass tags each call of a function that holds constructs, before it
// and on every path out of it (after a call; after an invoke, at its normal
// destination and in its landing pad), and the runtime notes, per
// construct, the innermost tagged calls it ran in (up to four, the first
// seen first), and "other" when it also ran outside them. kern()'s
// construct runs in main's loop (three calls of one call site) and once
// more inside thrower(), which throws out of the call: two calls. The
// construct in main after the exception runs in no call: the landing pad
// closed thrower's call (without it, the construct would seem to run in
// it). twice() runs in two calls of two call sites. A call through a
// pointer is tagged too, and is named by the function it called (3.14).
//
// REQUIRES: plugin
// RUN: %clangxx %ompdp-plugin-flags %offload-flags -g %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="format=json output=%t.json" %t
// RUN: %python %S/Inputs/plan_calls.py %t.json | FileCheck %s
//===----------------------------------------------------------------------===//
#include <cstdio>

#define N 256

static void kern(float *x, int n) {
#pragma omp target teams distribute parallel for map(tofrom: x[0:n])
  for (int i = 0; i < n; ++i)
    x[i] += 1.0f;
}

static void thrower(float *x, int n) {
  kern(x, n);
  if (n > 0)
    throw n;
}

static void twice(float *x) {
#pragma omp target map(tofrom: x[0:2])
  x[0] += x[1];
}

static void via_pointer(float *x) {
#pragma omp target map(tofrom: x[0:3])
  x[2] += 1.0f;
}

int main() {
  static float a[N];
  for (int s = 0; s < 3; ++s)
    kern(a, N);
  try {
    thrower(a, N);
  } catch (int) {
  }
#pragma omp target map(tofrom: a[0:4])
  a[3] += 1.0f;
  twice(a);
  twice(a);
  void (*volatile fp)(float *) = via_pointer;
  fp(a);
  std::printf("a[0]=%.1f a[3]=%.1f\n", a[0], a[3]);
  return 0;
}

// CHECK:      target kern:25: calls kern() at line 49 in main, kern() at line 31 in thrower, 3 calls
// CHECK-NEXT: target main:54: no call (other)
// CHECK-NEXT: target twice:37: calls twice() at line 56 in main, twice() at line 57 in main, 1 calls
// CHECK-NEXT: target via_pointer:42: call via_pointer() at line 59 in main, 1 calls
