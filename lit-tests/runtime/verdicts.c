//===- verdicts.c - what each finding is worth ------------------------------===//
//
// One small program per verdict (docs/report-format.md, "Verdicts"). The
// counts of Table 1 stay as they were; each finding says whether it is a
// saving, and the summary's saving leaves out those that are not
// (Inputs/verdict_saving.py checks the JSON's sums).
// JACOBI, a reduction scalar `error` that the host resets to 0 and a kernel
// changes every iteration: its re-sent 0 is a duplicate transfer, but a
// necessary one (the copy back differed from what was sent), and its round
// trips bring back what the host reads: necessary too. Never "keep it
// resident".
// COUNTER, a counter reset with `target update to(count[0:1])` every
// iteration and read back with `target update from(count[0:1])`: no input
// ever makes the kernel count, so the same 0 goes out and comes back, yet
// both copies are necessary. The copy back's words never say `map(to: ...)`.
// COINCIDENCE, two different variables that hold 512 (hotspot's col and
// row): the second send is a duplicate of the first's bytes, no saving.
// TIMING, a benchmark's timing loop calling a function whose construct gets
// the same input and gives back the same output each repetition: the copy
// back is a repeated computation; the input's re-sends have no rewrite (the
// construct is in no loop of its function), so they are advice.
// FIX, the same timing loop with the construct in it: the planner keeps both
// arrays resident, and every finding there is a fix.
//
// REQUIRES: plugin
// RUN: %clang-ompdp -g -DJACOBI %s -o %t.jacobi
// RUN: %ompdp run -- %t.jacobi 2>&1 | FileCheck %s --check-prefix=JACOBI
// RUN: %ompdp run --format=json -o %t.jacobi.json -- %t.jacobi
// RUN: FileCheck %s --check-prefix=JACOBI-JSON < %t.jacobi.json
// RUN: %python %S/Inputs/verdict_saving.py %t.jacobi.json | FileCheck %s --check-prefix=JACOBI-SUM
// RUN: %clang-ompdp -g -DCOUNTER %s -o %t.counter
// RUN: %ompdp run -- %t.counter 2>&1 | FileCheck %s --check-prefix=COUNTER
// RUN: %ompdp run --format=json -o %t.counter.json -- %t.counter
// RUN: %python %S/Inputs/verdict_saving.py %t.counter.json | FileCheck %s --check-prefix=COUNTER-SUM
// RUN: %ompdp report --format=trace %t.counter.json | FileCheck %s --check-prefix=COUNTER-TRACE
// RUN: %ompdp report --format=html %t.counter.json | FileCheck %s --check-prefix=COUNTER-HTML
// RUN: %clang-ompdp -g -DCOINCIDENCE %s -o %t.coincidence
// RUN: %ompdp run -- %t.coincidence 2>&1 | FileCheck %s --check-prefix=COINCIDENCE
// RUN: %ompdp run --format=json -o %t.coincidence.json -- %t.coincidence
// RUN: FileCheck %s --check-prefix=COINCIDENCE-JSON < %t.coincidence.json
// RUN: %python %S/Inputs/verdict_saving.py %t.coincidence.json | FileCheck %s --check-prefix=COINCIDENCE-SUM
// RUN: %clang-ompdp -g -DTIMING %s -o %t.timing
// RUN: %ompdp run -- %t.timing 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: %ompdp run --format=json -o %t.timing.json -- %t.timing
// RUN: %python %S/Inputs/verdict_saving.py %t.timing.json | FileCheck %s --check-prefix=TIMING-SUM
// RUN: %ompdp report --format=sarif %t.timing.json | FileCheck %s --check-prefix=TIMING-SARIF
// RUN: %clang-ompdp -g -DFIX %s -o %t.fix
// RUN: %ompdp run -- %t.fix 2>&1 | FileCheck %s --check-prefix=FIX
// RUN: %ompdp run --format=json -o %t.fix.json -- %t.fix
// RUN: %python %S/Inputs/verdict_saving.py %t.fix.json | FileCheck %s --check-prefix=FIX-SUM
//===----------------------------------------------------------------------===//
// Table 1's counts are unchanged; the saving leaves out the necessary
// duplicate and says so.
// JACOBI: summary: duplicate_transfers=6 round_trips=0 repeated_allocs=4
// JACOBI-NEXT: time that the fixes would save: {{.*}}
// JACOBI-NEXT: time of findings that are no saving (necessary, coincidence, repeated computation): {{.*}}, not counted above
// JACOBI: duplicate_transfer {{.*}}verdicts.c:[[#JL:]]:1 in main count=6 bytes=48 B
// JACOBI-NEXT: variable: error clause: map(tofrom: error)
// JACOBI-NEXT: 6 from the same host buffer, 0 from other buffers with the same bytes
// JACOBI-NEXT: first sent at
// JACOBI-NEXT: verdict: necessary (not counted as a saving)
// JACOBI-NEXT: suggestion: no saving: the device changes its copy of error between the sends {{.*}}; keeping it resident without the send would break the program
// The repeated allocation is real, but allocated once outside, the copies
// need `always`.
// JACOBI: repeated_alloc {{.*}}verdicts.c:[[#JL]]:1 in main count=4
// JACOBI: verdict: advice
// JACOBI-NEXT: suggestion: {{.*}}allocate it once {{.*}}; the construct's map of error must then say `always` where its copies are still needed, because a present item is not copied
// JACOBI-NOT: keep it resident with
// JACOBI-JSON: "duplicate_transfers": 6,
// JACOBI-JSON: "time_saved_ns": {{[1-9][0-9]*}},
// JACOBI-JSON: "excluded_time_ns": [[#EXCL:]]
// JACOBI-JSON: "kind": "duplicate_transfer",
// JACOBI-JSON: "time_saved_ns": [[#EXCL]],
// JACOBI-JSON: "verdict": "necessary",
// JACOBI-JSON: "kind": "repeated_alloc",
// JACOBI-JSON: "verdict": "advice",
// JACOBI-SUM: advice 1
// JACOBI-SUM-NEXT: necessary 1
// JACOBI-SUM-NEXT: ok

// Nothing here is a saving: both duplicates and the round trip are
// necessary, and the copy back is not told to `map(to: ...)`.
// COUNTER: total=0
// COUNTER: summary: duplicate_transfers=6 round_trips=4
// COUNTER-NEXT: time that the fixes would save: 0 ns of
// COUNTER-NEXT: time of findings that are no saving {{.*}}, not counted above
// COUNTER-DAG: clause: to(count[0:1])
// COUNTER-DAG: clause: from(count[0:1])
// COUNTER-DAG: suggestion: no saving: the device changes its copy of count between the sends
// COUNTER-DAG: suggestion: no saving: the host reads count after each copy back, and only the copy tells it that the value did not change
// COUNTER: round_trip {{.*}} count=4
// COUNTER: verdict: necessary (not counted as a saving)
// COUNTER-NOT: map(to: count)
// COUNTER-NOT: verdict: {{fix|advice}}
// COUNTER-SUM: necessary 3
// COUNTER-SUM-NEXT: ok
// The trace and the HTML page carry the verdicts and the excluded time.
// COUNTER-TRACE: "excluded_time_ns": {{[1-9]}}
// COUNTER-TRACE-COUNT-3: "verdict": "necessary"
// COUNTER-HTML-COUNT-3: "verdict":"necessary","saves":false
// COUNTER-HTML: "excluded_time_ns":{{[1-9]}}

// COINCIDENCE: time of findings that are no saving {{.*}}, not counted above
// COINCIDENCE: duplicate_transfer {{.*}} count=1 bytes=4 B
// COINCIDENCE-NEXT: variable: row clause: map(to: row)
// COINCIDENCE-NEXT: 0 from the same host buffer, 1 from other buffers with the same bytes
// COINCIDENCE-NEXT: first sent at
// COINCIDENCE-NEXT: verdict: coincidence (not counted as a saving)
// COINCIDENCE-NEXT: suggestion: no saving: different variables that happen to hold equal bytes; nothing to change
// COINCIDENCE-JSON: "kind": "duplicate_transfer",
// COINCIDENCE-JSON: "variable": "row",
// COINCIDENCE-JSON: "verdict": "coincidence",
// COINCIDENCE-SUM: advice 1
// COINCIDENCE-SUM-NEXT: coincidence 1
// COINCIDENCE-SUM-NEXT: fix 2
// COINCIDENCE-SUM-NEXT: ok

// TIMING: time of findings that are no saving {{.*}}, not counted above
// TIMING-DAG: verdict: repeated_computation (not counted as a saving)
// TIMING-DAG: suggestion: a repeated computation: the construct got the same inputs and gave back the same b every time; a timing loop, or real recomputation the programmer may remove
// TIMING-DAG: suggestion: the same host buffer is sent again with unchanged contents to device 0: keep it resident with `#pragma omp target data map(to: a)`
// TIMING-SUM: advice 3
// TIMING-SUM-NEXT: repeated_computation 1
// TIMING-SUM-NEXT: ok
// A SARIF result that is no saving is a note.
// TIMING-SARIF: "excluded_time_ns": {{[1-9]}}
// TIMING-SARIF: "level": "note",
// TIMING-SARIF: no saving (repeated_computation).
// TIMING-SARIF: "verdict": "repeated_computation"

// The copy back's words fit its direction and the rewrite below them.
// FIX-NOT: time of findings that are no saving
// FIX: variable: b clause: map(from: b)
// FIX: first copied back at {{.*}}verdicts.c
// FIX-NEXT: verdict: fix
// FIX-NEXT: suggestion: the copy back from device 0 brought the host the bytes of b it already had (the kernel computed the same result again): copy it back only where it can change
// FIX-NEXT: rewrite (keep_resident):
// FIX-NOT: verdict: {{advice|necessary|coincidence|repeated}}
// FIX-SUM: fix 4
// FIX-SUM-NEXT: ok

#include <stdio.h>

#define N 1024

#ifdef JACOBI
int main(void) {
  static double a[N], b[N];
  double error = 1.0;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3;
#pragma omp target data map(tofrom: a) map(alloc: b)
  for (int it = 0; it < 5; ++it) {
    error = 0.0;
#pragma omp target map(tofrom: error)
#pragma omp teams distribute parallel for reduction(max: error)
    for (int i = 1; i < N - 1; ++i) {
      b[i] = (a[i - 1] + a[i + 1]) / 2;
      double d = b[i] > a[i] ? b[i] - a[i] : a[i] - b[i];
      error = error > d ? error : d;
    }
#pragma omp target teams distribute parallel for
    for (int i = 1; i < N - 1; ++i)
      a[i] = b[i];
    printf("error=%g\n", error);
  }
  return 0;
}
#endif

#ifdef COUNTER
int main(void) {
  static int x[N];
  int count[1] = {0};
  for (int i = 0; i < N; ++i)
    x[i] = i % 7;
  int total = 0;
#pragma omp target data map(to: x) map(alloc: count[0:1])
  for (int it = 0; it < 4; ++it) {
    count[0] = 0;
#pragma omp target update to(count[0:1])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      if (x[i] == it + 10) {
#pragma omp atomic
        count[0]++;
      }
#pragma omp target update from(count[0:1])
    total += count[0];
  }
  printf("total=%d\n", total);
  return 0;
}
#endif

#ifdef COINCIDENCE
int main(void) {
  int col = 512, row = 512;
  static float t[N];
#pragma omp target map(to: col) map(tofrom: t)
  for (int i = 0; i < N; ++i)
    t[i] += col;
#pragma omp target map(to: row) map(tofrom: t)
  for (int i = 0; i < N; ++i)
    t[i] -= row - 1;
  printf("t=%g\n", t[5]);
  return 0;
}
#endif

#ifdef TIMING
static void kernel(const float *a, float *b) {
#pragma omp target map(to: a[0:N]) map(from: b[0:N])
  for (int i = 0; i < N; ++i)
    b[i] = 2 * a[i];
}

int main(void) {
  static float a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int rep = 0; rep < 4; ++rep)
    kernel(a, b);
  printf("b=%g\n", b[N - 1]);
  return 0;
}
#endif

#ifdef FIX
int main(void) {
  static float a[N], b[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  for (int rep = 0; rep < 4; ++rep) {
#pragma omp target map(to: a) map(from: b)
    for (int i = 0; i < N; ++i)
      b[i] = 2 * a[i];
  }
  printf("b=%g\n", b[N - 1]);
  return 0;
}
#endif
