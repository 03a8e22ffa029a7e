//===- by-value-struct.cpp - an object the kernel takes by value is read-only ===//
//
// `prm` reaches the kernel of `step` by value: passed to a function that
// takes it by value (a trivial copy) and used through a const method. The
// kernel only reads it, and the region table says `read` (it used to say
// read-write, as for any object given to a call, and the duplicate sends of
// `prm`, repeated at each call of `step` from main's loop, were then
// "necessary: a kernel writes it"). Now it is passed as `firstprivate(prm)`:
// applied, rebuilt, rerun, the same output, the transfers down as
// predicted (with `out`, which step() only produces, kept for main's loop
// and brought back after each call: keep-at-caller-produced.test).
// Negative: `q`, which the device writes through a reference, stays
// read-write and its re-sends stay necessary.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags prog.cpp -o before
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags -fplugin-arg-ompdp-dump -c prog.cpp -o /dev/null | FileCheck %s --check-prefix=ACCESS
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=REPORT
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.cpp
// RUN: cd %t && %clangxx %ompdp-plugin-flags %offload-flags prog.cpp -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <cstdio>

#define N 256

struct Params {
  int n;
  float scale, bias;
  float at(int i) const { return scale * i + bias; }
};

#pragma omp declare target
static float apply(Params p, int i) { return p.scale * i + p.bias; }
static void adjust(Params &p, float by) { p.bias += by; }
#pragma omp end declare target

static float out[N];

// `prm` goes to the kernel by value (apply) and through a const method:
// only read. Called from main's loop, so no loop of this function holds it.
static void step(Params prm, int it) {
#pragma omp target teams distribute parallel for map(from: out[0:N])
  for (int i = 0; i < N; ++i)
    out[i] = apply(prm, i) + prm.at(it);
}

// `q` is written through a reference on the device: its re-sends reset it.
static float reset(Params &q) {
  q.bias = 0.0f;
#pragma omp target map(tofrom: q)
  adjust(q, 1.0f);
  return q.bias;
}

int main() {
  Params prm = {N, 2.0f, 0.5f}, q = {N, 1.0f, 0.0f};
  float total = 0;
  for (int it = 0; it < 4; ++it) {
    step(prm, it);
    total += out[it] + reset(q);
  }
  printf("total=%g\n", total);
  return 0;
}

// ACCESS: region {{.*}} 'target' at {{.*}}prog.cpp:[[#STEP:]]:1 in 'step'
// ACCESS: item {{[0-9]+}}: tofrom 'prm' {{.*}} access read{{$| }}
// ACCESS: region {{.*}} 'target' at {{.*}}prog.cpp:{{[0-9]+}}:1 in 'reset'
// ACCESS: item 0: tofrom 'q' {{.*}} access read-write

// REPORT: duplicate_transfer {{.*}}prog.cpp:[[#STEP:]]:1 in step count=6
// REPORT-NEXT: variable: prm  clause: implicit map(tofrom: prm)
// REPORT: verdict: fix
// REPORT: rewrite (firstprivate): pass `prm` (12 bytes) to the kernel at prog.cpp:[[#STEP]] as `firstprivate(prm)`
// REPORT: duplicate_transfer {{.*}}prog.cpp:{{[0-9]+}}:1 in reset count=6
// REPORT-NEXT: variable: q  clause: map(tofrom: q)
// REPORT: verdict: necessary (not counted as a saving)
// REPORT: round_trip {{.*}}prog.cpp:[[#STEP]]:1 in step count=4
// REPORT: verdict: fix

// APPLY: prog.cpp: 3 edit(s) applied

// FIXED: #pragma omp target teams distribute parallel for map(from: out[0:N]) firstprivate(prm)
// FIXED: #pragma omp target map(tofrom: q)

// PROOF: transfers: 20 -> 16 (removed 4, predicted at least 4)
// PROOF: gone: duplicate_transfer of prm: yes
// PROOF: gone: round_trip of prm: yes
// PROOF: gone: repeated_alloc of out: yes
// PROOF: OK
