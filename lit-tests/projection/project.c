//===- project.c - every saving projected for another device ---------------===//
//
// Listing 2 with 64 KiB of data: `b` goes to the device and comes back in
// every iteration (round trips, repeated allocations), and the plugin's
// rewrite keeps it resident. With --device every format gives, next to the
// measured figures, the projected ones, labelled as such:
// TEXT, `ompdp run --device=h100` (an alias of h100-sxm): the projection's
//   header line, projected_saved= on each finding, and the rewrite's
//   projected saving.
// PLAIN, a run without --device still records the operations by class
//   ("ops") and has no projection.
// JSON, `ompdp report --device=h100` of that report: the projection object,
//   projected_time_saved_ns on findings and rewrites; reading that output
//   back and projecting again gives the same bytes (the operations survive
//   the round trip). Inputs/check_projection.py checks the arithmetic that
//   ties the numbers together.
// SARIF, the projection in the run's properties, each result's message and
//   properties, and each fix.
// LABEL, another device, pinned host memory and kernels scaled.
// OLD, a version 1 report (no "ops"): projected from the finding kinds, and
//   said so.
// ERR-*, bad flags and profiles are one line each, before the program runs.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o prog
// RUN: cd %t && %ompdp run --device=h100 -- ./prog 2>&1 >/dev/null | FileCheck %s --check-prefix=TEXT
// RUN: cd %t && %ompdp run --format=json -o plain.json -- ./prog > /dev/null
// RUN: FileCheck %s --check-prefix=PLAIN < %t/plain.json
// RUN: cd %t && %ompdp report --device=h100 --format=json plain.json > h100.json
// RUN: FileCheck %s --check-prefix=JSON < %t/h100.json
// RUN: cd %t && %ompdp report --device=H100 --format=json h100.json > again.json
// RUN: diff %t/h100.json %t/again.json
// RUN: %python %S/Inputs/check_projection.py %t/h100.json | FileCheck %s --check-prefix=ARITH
// RUN: cd %t && %ompdp report --device=h100 --format=sarif plain.json | FileCheck %s --check-prefix=SARIF
// RUN: cd %t && %ompdp report --device=mi250x --host-memory=pinned --kernel-scale=0.1 plain.json | FileCheck %s --check-prefix=LABEL
// RUN: %ompdp report --device=a100 %S/Inputs/v1-round-trip.json | FileCheck %s --check-prefix=OLD
// RUN: cd %t && not %ompdp report --device=nope plain.json 2>&1 | FileCheck %s --check-prefix=ERR-NAME
// RUN: printf 'ompdp-device-profile 1\nname x\nh2d_pageable point 10 -5\n' > %t/bad.prof
// RUN: cd %t && not %ompdp run --device=%t/bad.prof -- ./prog 2>&1 | FileCheck %s --check-prefix=ERR-FILE
// RUN: cd %t && not %ompdp report --kernel-scale=2 plain.json 2>&1 | FileCheck %s --check-prefix=ERR-SCALE
// RUN: cd %t && not %ompdp report --device=h100 --kernel-scale=0 plain.json 2>&1 | FileCheck %s --check-prefix=ERR-ZERO
// RUN: cd %t && not %ompdp run --device=h100 --host-memory=gpu -- ./prog 2>&1 | FileCheck %s --check-prefix=ERR-MEM
// RUN: cd %t && not %ompdp report --device= plain.json 2>&1 | FileCheck %s --check-prefix=ERR-EMPTY
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 16384
#define ITERS 8

int main(void) {
  static int b[N];
  long seen = 0;
  for (int it = 0; it < ITERS; ++it) {
#pragma omp target teams distribute parallel for
    for (int j = 0; j < N; ++j)
      b[j] += j + it;
  }
  for (int j = 0; j < N; ++j)
    seen += b[j];
  printf("%ld\n", seen);
  return 0;
}

// TEXT: time that the fixes would save: {{.*}} (predicted speedup {{[0-9.]+}}x)
// TEXT-NEXT: projected for h100-sxm (built-in profile; pageable host memory; kernels x1): {{[0-9.]+ [mun]?s}} of {{[0-9.]+ [mun]?s}} (predicted speedup {{[0-9.]+}}x); data movement {{[0-9.]+ [mun]?s}} projected, {{[0-9.]+ [mun]?s}} measured
// TEXT: round_trip  prog.c:{{[0-9]+}}:1 in main  count={{[0-9]+}} bytes={{.*}} saved={{.*}} devices=0 projected_saved={{[0-9.]+ [mun]?s$}}
// TEXT: rewrite (keep_resident): keep `b` {{.*}}[saves {{.*}} allocations; projected: saves {{[0-9.]+ [mun]?s}}]

// PLAIN: "observed": {
// PLAIN: "kernel_time_ns": {{[0-9]+}},
// PLAIN-NEXT: "ops": {"h2d": {"count": {{[1-9][0-9]*}}, "bytes": {{[0-9]+}}, "time_ns": {{[0-9]+}}}, "d2h": {"count": {{[1-9]}}
// PLAIN-NOT: "projection"
// PLAIN: "kind": "round_trip",
// PLAIN: "ops": {"h2d": {"count": {{[1-9]}}
// PLAIN-NOT: projected

// JSON: "projection": {
// JSON-NEXT: "device": "h100-sxm",
// JSON-NEXT: "profile": "built-in",
// JSON-NEXT: "host_memory": "pageable",
// JSON-NEXT: "kernel_scale": 1.0,
// JSON-NEXT: "wall_time_ns": {{[0-9]+}},
// JSON-NEXT: "time_saved_ns": {{[0-9]+}},
// JSON-NEXT: "predicted_speedup": {{[0-9.]+}},
// JSON-NEXT: "data_time_ns": {{[0-9]+}},
// JSON-NEXT: "projected_data_time_ns": {{[0-9]+}},
// JSON-NEXT: "kernel_time_ns": {{[0-9]+}},
// JSON-NEXT: "inferred": false
// JSON: "kind": "round_trip",
// JSON: "ops_added":
// JSON-NEXT: "projected_time_saved_ns": {{[1-9][0-9]*}}
// JSON: "projected_time_saved_ns": {{[1-9][0-9]*}}

// ARITH: findings: {{[1-9][0-9]*}}, every one projected
// ARITH: rewrites: {{[1-9][0-9]*}}, every one projected
// ARITH: summary: consistent

// SARIF: "properties": {{{.*}}"partial": false, "projection": {
// SARIF-NEXT: "device": "h100-sxm",
// SARIF: "text": "Round trips of `b` {{.*}} to save. Projected for h100-sxm: {{[0-9.]+ [mun]?s}} to save.
// SARIF: "projected_time_saved_ns": {{[1-9][0-9]*}}}
// SARIF: "fixes": [
// SARIF-NEXT: {"description": {"text": "keep `b` {{.*}}; projected for h100-sxm: saves {{.*}}"projected_time_saved_ns": {{[1-9][0-9]*}}}}

// LABEL: projected for mi250x (built-in profile; pinned host memory; kernels x0.1):

// OLD: projected for a100 (built-in profile; pageable host memory; kernels x1):
// OLD-NEXT: warning: the projection infers operations from the finding kinds: this report has no per-operation breakdown
// OLD: round_trip {{.*}} projected_saved=

// ERR-NAME: ompdp: unknown device 'nope': not a built-in profile (a100, h100-pcie, h100-sxm, h200, host, mi250x, mi300a; 'ompdp devices' lists them with their aliases) nor a profile file
// ERR-FILE: ompdp: {{.*}}bad.prof:3: the time must not be negative: -5
// ERR-FILE-NOT: {{^[0-9]+$}}
// ERR-SCALE: ompdp: --kernel-scale needs --device (the device to project for)
// ERR-ZERO: ompdp: --kernel-scale wants a number above 0 (at most 1e6), not '0'
// ERR-MEM: ompdp: unknown --host-memory 'gpu' (use pageable or pinned)
// ERR-EMPTY: ompdp: --device needs a device name or a profile file
