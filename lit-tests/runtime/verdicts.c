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
// row): the second send is a duplicate of the first's bytes, no saving
// (mapped `always`, so that no firstprivate rewrite takes the finding).
// TIMING, a benchmark's timing loop calling a function whose construct gets
// the same input and gives back the same output each repetition, which the
// loop reads: the copy back is a repeated computation (each call's result
// still comes back, by a `target update from` right after the call, so
// keeping b at the caller removes none of these copies); the input is kept
// on the device around the caller's loop, and b, which the device only
// produces, is allocated once for it (its repeated allocations: a fix).
// FIX, the same timing loop with the construct in it: the planner keeps both
// arrays resident, and every finding there is a fix.
// RESIDENT, matern's timing loop: the data stays in a `target data`, a
// function's kernel computes from it and `target update from` brings the
// result back; called three times for each of two scale factors. Nothing
// new reaches the device between two copies back of the same bytes: a
// repeated computation (the first copy back for a new factor brings other
// bytes and is no duplicate).
// IDLE, memcpy's timing loop of `target update from` with no kernel in it:
// the copies back repeat data movement, not a computation: advice.
// OWNVAR, atomicIntrinsics' testcase<int> and testcase<unsigned int>: two
// functions each map an array of their own stack frame once, and the second
// gets the first's address: a repeated allocation by the detection's count,
// but of different variables, so a coincidence.
// SAMEVAR, one of those functions called twice (its construct allocated
// twice: advice, the words say the array is each call's own), and one
// static array that two functions map once each, called in a row (the same
// variable): kept on the device across the two calls, a `target data` and
// braces around them.
// NEWIN, the same with one new element of the input sent before each call:
// the copies back repeat, but the device got new data, and the loop that
// calls scale() reads `r` after each call (the compiler records the read
// for the call's argument): each copy back is how the host knows, so the
// verdict is necessary.
//
// REQUIRES: plugin
// RUN: rm -f %t.coincidence.json %t.counter.json %t.fix.json %t.jacobi.json %t.ownvar.json %t.resident.json %t.timing.json && %clang-ompdp -g -DJACOBI %s -o %t.jacobi
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
// RUN: %clang-ompdp -g -DRESIDENT %s -o %t.resident
// RUN: %ompdp run -- %t.resident 2>&1 | FileCheck %s --check-prefix=RESIDENT
// RUN: %ompdp run --format=json -o %t.resident.json -- %t.resident
// RUN: FileCheck %s --check-prefix=RESIDENT-JSON < %t.resident.json
// RUN: %python %S/Inputs/verdict_saving.py %t.resident.json | FileCheck %s --check-prefix=RESIDENT-SUM
// RUN: %ompdp report --format=sarif %t.resident.json | FileCheck %s --check-prefix=RESIDENT-SARIF
// RUN: %clang-ompdp -g -DNEWIN %s -o %t.newin
// RUN: %ompdp run -- %t.newin 2>&1 | FileCheck %s --check-prefix=NEWIN
// RUN: %clang-ompdp -g -DIDLE %s -o %t.idle
// RUN: %ompdp run -- %t.idle 2>&1 | FileCheck %s --check-prefix=IDLE
// RUN: %clang-ompdp -g -DOWNVAR %s -o %t.ownvar
// RUN: %ompdp run -- %t.ownvar 2>&1 | FileCheck %s --check-prefix=OWNVAR
// RUN: %ompdp run --format=json -o %t.ownvar.json -- %t.ownvar
// RUN: FileCheck %s --check-prefix=OWNVAR-JSON < %t.ownvar.json
// RUN: %python %S/Inputs/verdict_saving.py %t.ownvar.json | FileCheck %s --check-prefix=OWNVAR-SUM
// RUN: %ompdp report --format=sarif %t.ownvar.json | FileCheck %s --check-prefix=OWNVAR-SARIF
// RUN: %clang-ompdp -g -DSAMEVAR %s -o %t.samevar
// RUN: %clang-ompdp -fplugin-arg-ompdp-dump -DSAMEVAR %s -o %t.samevar-dump | FileCheck %s --check-prefix=AUTO
// RUN: %ompdp run -- %t.samevar 2>&1 | FileCheck %s --check-prefix=SAMEVAR
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
// COUNTER-DAG: suggestion: no saving: device code that runs between the updates writes count (the compiler sees a kernel write it, here or in a function the code calls), so each `target update to` resets the device's copy and is needed
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
// COINCIDENCE-NEXT: variable: row clause: map(always, to: row)
// COINCIDENCE-NEXT: 0 from the same host buffer, 1 from other buffers with the same bytes
// COINCIDENCE-NEXT: first sent at
// COINCIDENCE-NEXT: verdict: coincidence (not counted as a saving)
// COINCIDENCE-NEXT: suggestion: no saving: row holds bytes that another variable sent before, and nothing the compiler sees copies one into the other: each is an input of its own that the device needs (mapping it with `map(alloc: ...)` would break the program); nothing to change
// COINCIDENCE-JSON: "kind": "duplicate_transfer",
// COINCIDENCE-JSON: "variable": "row",
// COINCIDENCE-JSON: "verdict": "coincidence",
// COINCIDENCE-SUM: advice 2
// COINCIDENCE-SUM-NEXT: coincidence 1
// COINCIDENCE-SUM-NEXT: fix 2
// COINCIDENCE-SUM-NEXT: ok

// TIMING: time of findings that are no saving {{.*}}, not counted above
// TIMING-DAG: verdict: repeated_computation (not counted as a saving)
// TIMING-DAG: suggestion: a repeated computation: the construct got the same inputs and gave back the same b every time; a timing loop, or real recomputation the programmer may remove
// TIMING-DAG: keep `a[0:N]` on device 0 for the whole for loop at verdicts.c:[[#]] that calls kernel()
// TIMING-DAG: keep `b[0:N]` on device 0 for the whole for loop at verdicts.c:[[#]] that calls kernel(), where it is `b[0:N]`: `#pragma omp target data map(alloc: b[0:N])` before it; the maps in kernel() then find it present; `target update from(b[0:N])` after line [[#]]
// TIMING-SUM: fix 3
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

// RESIDENT: duplicate_transfer {{.*}} in scale count=4
// RESIDENT-NEXT: variable: r clause: from(r[0:N])
// RESIDENT-NEXT: 4 from the same host buffer, 0 from other buffers with the same bytes
// RESIDENT-NEXT: first copied back at {{.*}}verdicts.c:[[#]]:1 in scale
// RESIDENT-NEXT: verdict: repeated_computation (not counted as a saving)
// RESIDENT-NEXT: suggestion: a repeated computation: no transfer brought the device new data between the copies back, and the same bytes of r came back each time; a timing loop, or recomputation the programmer may remove
// RESIDENT-NOT: verdict: advice
// RESIDENT-JSON: "kind": "duplicate_transfer",
// RESIDENT-JSON: "verdict": "repeated_computation",
// RESIDENT-SUM: repeated_computation 1
// RESIDENT-SUM-NEXT: ok
// RESIDENT-SARIF: "level": "note",
// RESIDENT-SARIF: no saving (repeated_computation).

// NEWIN: duplicate_transfer {{.*}} in scale count=4
// NEWIN-NEXT: variable: r clause: from(r[0:N])
// NEWIN: verdict: necessary (not counted as a saving)
// NEWIN-NEXT: suggestion: no saving: the host reads r after each copy back (the loop that calls its function reads it after the call), and only the copy tells it that the value did not change
// NEWIN-NOT: repeated_computation

// IDLE: duplicate_transfer {{.*}} in main count=2
// IDLE-NEXT: variable: a clause: from(a)
// IDLE-NEXT: 2 from the same host buffer, 0 from other buffers with the same bytes
// IDLE-NEXT: first copied back at
// IDLE-NEXT: verdict: advice
// IDLE-NEXT: suggestion: the copy back brought the host the bytes of a it already had, and neither a kernel nor a transfer of new data ran on the device since it last copied them back: drop it, or copy it back only where the host needs it, e.g. `target update from(a)` after the loop
// IDLE-NOT: repeated_computation

// OWNVAR: repeated_alloc {{.*}}verdicts.c:[[#]]:1 in sub_int count=1
// OWNVAR-NEXT: variable: d clause: map(tofrom: d[0:7])
// OWNVAR-NEXT: first allocated at {{.*}}verdicts.c:[[#]]:1 in add_int
// OWNVAR-NEXT: verdict: coincidence (not counted as a saving)
// OWNVAR-NEXT: suggestion: no saving: different variables that got the same host address: d in sub_int is storage of its own at each call of its function, allocated once there, and the earlier allocation was another function's own variable in add_int; nothing to change
// OWNVAR-JSON: "kind": "repeated_alloc",
// OWNVAR-JSON: "verdict": "coincidence",
// OWNVAR-SUM: coincidence 1
// OWNVAR-SUM-NEXT: necessary 1
// OWNVAR-SUM-NEXT: ok
// OWNVAR-SARIF: "ruleId": "repeated_alloc",
// OWNVAR-SARIF: "level": "note",
// OWNVAR-SARIF: no saving (coincidence).

// The compiler's fact: d is each call's own; g and the parameter n are not.
// AUTO:      'target data' at {{.*}} in 'add_int'
// AUTO:      item 0: tofrom 'd[0:7]' var 'd' {{.*}} access read-write automatic
// AUTO:      'target data' at {{.*}} in 'add_g1'
// AUTO:      item 0: tofrom 'g[0:7]' var 'g' {{.*}} access read-write params-only fn-host-unused body-host-reads clause-bytes
// AUTO:      'target' at {{.*}} in 'add_g1'
// AUTO:      item 0: firstprivate 'n' var 'n' {{.*}} access read fill

// SAMEVAR: repeated_alloc {{.*}} in add_int count=1
// SAMEVAR-NEXT: variable: d
// SAMEVAR-NEXT: first allocated at {{.*}} in add_int
// SAMEVAR-NEXT: verdict: advice
// SAMEVAR-NEXT: suggestion: `d` is a new host buffer each time (a variable of the function's own at each call; the stack may put one where the last one was), so mapping it allocates it on device {{[0-9]+}} again too: allocate it once, before the calls
// SAMEVAR: repeated_alloc {{.*}} in add_g2 count=1
// SAMEVAR-NEXT: variable: g
// SAMEVAR-NEXT: first allocated at {{.*}} in add_g1
// SAMEVAR-NEXT: verdict: fix
// SAMEVAR-NEXT: suggestion: the same host buffer is allocated and freed on device {{[0-9]+}} each time it is mapped
// SAMEVAR-NEXT: rewrite (keep_resident): the one shown above for duplicate_transfer of `g`
// SAMEVAR-NOT: coincidence

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
#pragma omp target map(always, to: row) map(tofrom: t)
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
  float check = 0;
  for (int rep = 0; rep < 4; ++rep) {
    kernel(a, b);
    check += b[rep];
  }
  printf("b=%g check=%g\n", b[N - 1], check);
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

#if defined(RESIDENT) || defined(NEWIN)
static void scale(const float *a, float *r, float l) {
#pragma omp target teams distribute parallel for
  for (int i = 0; i < N - 1; ++i)
    r[i] = l * a[i];
#pragma omp target update from(r[0:N])
}

int main(void) {
  static float a[N], r[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
  float sum = 0;
#pragma omp target data map(to: a) map(alloc: r)
  for (int k = 1; k <= 2; ++k)
    for (int rep = 0; rep < 3; ++rep) {
#ifdef NEWIN
      /* A new last element each time, which the kernel never reads. */
      a[N - 1] = (float)(k * 10 + rep);
#pragma omp target update to(a[0:N])
#endif
      scale(a, r, (float)k);
      sum += r[N - 2];
    }
  printf("sum=%g\n", sum);
  return 0;
}
#endif

#if defined(OWNVAR) || defined(SAMEVAR)
/* Each works on an array of its own on the device and prints it. */
static void add_int(int n) {
  int d[7] = {0};
#pragma omp target data map(tofrom: d[0:7])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 7; ++i)
      d[i] += n * i;
  }
  printf("int %d\n", d[6]);
}

/* The same frame as add_int's: its array where add_int's was. */
static void sub_int(int n) {
  int d[7] = {0};
#pragma omp target data map(tofrom: d[0:7])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 7; ++i)
      d[i] -= n * i;
  }
  printf("int %d\n", d[6]);
}

/* One array that two functions map, once each. */
static int g[7];
static void add_g1(int n) {
#pragma omp target data map(tofrom: g[0:7])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 7; ++i)
      g[i] += n * i;
  }
}
static void add_g2(int n) {
#pragma omp target data map(tofrom: g[0:7])
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < 7; ++i)
      g[i] -= n;
  }
}

int main(void) {
#ifdef OWNVAR
  add_int(1);
  sub_int(2);
#else
  add_int(1);
  add_int(2);
  add_g1(1);
  add_g2(1);
  printf("g %d\n", g[6]);
#endif
  return 0;
}
#endif

#ifdef IDLE
int main(void) {
  static float a[N];
  for (int i = 0; i < N; ++i)
    a[i] = i;
#pragma omp target data map(to: a)
  {
#pragma omp target teams distribute parallel for
    for (int i = 0; i < N; ++i)
      a[i] *= 2;
    for (int rep = 0; rep < 3; ++rep) {
#pragma omp target update from(a)
    }
  }
  printf("a=%g\n", a[N - 1]);
  return 0;
}
#endif
