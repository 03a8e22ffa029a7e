//===- overbroad_bfs.c - `from` only when proved or confirmed -------------===//
//
// A breadth-first search shaped like Rodinia's bfs (written here from
// scratch): the host sets `stop` to false, the kernel sets it true only
// when it finds new nodes, and the search goes on while it is true. `stop`
// is mapped tofrom and only written by the region, so it is an overbroad
// map; but `map(from: stop)` would be wrong (a `from` map brings back
// whatever the device memory held when the kernel did not write it, and the
// fixed search never stops). The compiler cannot prove that the region
// writes `stop` on every path, and the run refutes it: in the last
// iteration `stop` came back with the bytes that went in. So no rewrite,
// and the suggestion says why.
//
// The negative case: `result`, which the host resets each iteration and the
// same kind of conditional write sets every time. The run confirms the
// assumption (every copy back differs from the copy in) and nothing
// contradicts it, so the narrowing is made, and what it assumes goes with
// the edit into every output: text, JSON, SARIF, the fix YAML, the
// compiler's fix-it notes and `ompdp fix --apply`. The fixed program is
// rebuilt and rerun under `timeout`: it ends, with the same output.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o before
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=RESULT
// RUN: cd %t && %ompdp report before.json | FileCheck %s --check-prefix=STOP
// RUN: FileCheck %s --check-prefix=JSON < %t/before.json
// RUN: cd %t && %ompdp report --format=sarif before.json | FileCheck %s --check-prefix=SARIF
// RUN: cd %t && %ompdp fix before.json | FileCheck %s --check-prefix=YAML
// RUN: cd %t && %clang-ompdp -c -o /dev/null prog.c -fplugin-arg-ompdp-profile=before.json -fdiagnostics-parseable-fixits 2>&1 | FileCheck %s --check-prefix=DIAG
// RUN: cd %t && %ompdp fix --apply before.json | FileCheck %s --check-prefix=APPLY
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && timeout 60 ./after > after.out
// RUN: diff %t/before.out %t/after.out
//===----------------------------------------------------------------------===//
#include <stdbool.h>
#include <stdio.h>

#define N 2048

int main(void) {
  static int level[N], edge_to[N][2];
  static char frontier[N], visited[N];
  for (int i = 0; i < N; ++i) {
    level[i] = -1;
    edge_to[i][0] = (i + 1) % N;
    edge_to[i][1] = (i * 7 + 3) % N;
  }
  level[0] = 0;
  frontier[0] = visited[0] = 1;
  bool stop;
  int iterations = 0, result;
  do {
    stop = false;
    result = -1;
#pragma omp target map(stop) map(tofrom : level, frontier, visited) map(to : edge_to)
    for (int i = 0; i < N; ++i)
      if (frontier[i] == 1) {
        frontier[i] = 0;
        for (int e = 0; e < 2; ++e) {
          int j = edge_to[i][e];
          if (!visited[j]) {
            visited[j] = 1;
            frontier[j] = 2;
            level[j] = level[i] + 1;
            stop = true;
          }
        }
      }
#pragma omp target map(tofrom : frontier) map(tofrom : result)
    for (int i = 0; i < N; ++i) {
      if (frontier[i] == 2)
        frontier[i] = 1;
      if (i == 0)
        result = iterations;
    }
    ++iterations;
  } while (stop);
  int maxlevel = 0;
  for (int i = 0; i < N; ++i)
    if (level[i] > maxlevel)
      maxlevel = level[i];
  printf("iterations=%d maxlevel=%d level[N-1]=%d result=%d\n", iterations, maxlevel,
         level[N - 1], result);
  return 0;
}

// Findings in order of their saving, which varies: one prefix each.
// RESULT: Overbroad maps:
// RESULT: variable: result  clause: map(tofrom : result)
// RESULT-NEXT: verdict: fix
// RESULT-NEXT: suggestion:
// RESULT-NEXT: rewrite (change_map_type): map `result` with `from` instead of `tofrom` at prog.c:[[#R:]]: the region only writes it
// RESULT-NEXT: assumes: the region writes `result` on every path, as it did in each of the 15 executions of this run (every copy back differed from the copy in; the compiler could not prove it for every input)
// RESULT-NEXT: prog.c:[[#R]]:43-[[#R]]:63: replace "map(tofrom : result)" with "map(from: result)"
// STOP: Overbroad maps:
// STOP: variable: stop  clause: map(stop)
// STOP-NEXT: verdict: advice
// STOP-NEXT: suggestion: the region only writes stop: if it writes every element, map it with `map(from: stop)` and drop the copy in to device 0. No rewrite: `map(from: stop)` is right only if the region writes every element of `stop` on every path before reading it; the compiler could not prove that, and in 1 of the 15 executions of this run `stop` came back with the bytes that went in (the region did not write it then, so a `from` map would have returned uninitialised device memory instead of the host's value).
// STOP-NOT: rewrite (change_map_type): map `stop`

// JSON: "variable": "result",
// JSON: "assumption": "the region writes `result` on every path, as it did in each of the 15 executions

// SARIF: assumes the region writes `result` on every path, as it did in each of the 15 executions
// SARIF-SAME: "insertedContent": {"text": "map(from: result)"}

// YAML: DiagnosticName:  "ompdp-overbroad-map"
// YAML-NEXT: DiagnosticMessage:
// YAML-NEXT: Message: "map `result` with `from` instead of `tofrom` at prog.c:{{[0-9]+}}: the region only writes it; it assumes the region writes `result` on every path, as it did in each of the 15 executions

// DIAG: fix-it:"prog.c":{{.*}}:"map(from: result)"
// DIAG: note: fix (change_map_type): map `result` with `from` {{.*}}; it assumes the region writes `result` on every path, as it did in each of the 15 executions
// DIAG-NOT: fix-it:{{.*}}map(from: stop)

// APPLY: prog.c: {{[0-9]+}} edit(s) applied
// APPLY: prog.c:{{[0-9]+}}:43: the change_map_type rewrite for overbroad_map assumes: the region writes `result` on every path

// FIXED: #pragma omp target map(stop) map(tofrom : level, frontier, visited) map(to : edge_to)
// FIXED: #pragma omp target map(tofrom : frontier) map(from: result)
