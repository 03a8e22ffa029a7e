//===- ranks.c - four MPI ranks on four devices, their reports merged -----===//
//
// REQUIRES: mpi, plugin
//
// mpirun starts 4 ranks of `ompdp run -o report.%r.json`; each rank offloads
// to device <rank> (the host plugin has 4). Every rank maps `a` tofrom in
// each of 4 steps (3 round trips); odd ranks also send the unchanged `b` in
// each step (3 duplicate transfers, only there). Each report says its rank,
// host and device. `ompdp merge` makes the round trips one finding of all 4
// ranks with their sum and spread, the duplicates one finding of ranks 1
// and 3. The ranks' keep_resident rewrites of the loop are two: keeping
// `a` (even ranks) and keeping `b`, `a` and `c` (odd ranks, where the loop
// maps all three): the identical ones are one, with the savings of their
// ranks, and the finding says which ranks made which. `ompdp report` of the
// four reports prints the same as of the merged one, whatever their order;
// SARIF carries the spread; `ompdp fix` takes the rewrite of the loop that
// saves most (which one depends on the times measured) and leaves the
// other out.
//
// RUN: %clang-ompdp -g %s -o %t
// RUN: rm -rf %t.d && mkdir %t.d
// RUN: %mpirun -np 4 %ompdp run --format=json -o %t.d/report.%r.json -- %t > %t.out
// RUN: FileCheck %s --check-prefix=OUT < %t.out
// RUN: FileCheck %s --check-prefix=RANK2 < %t.d/report.2.json
// RUN: %ompdp merge -o %t.d/merged.json %t.d/report.0.json %t.d/report.1.json %t.d/report.2.json %t.d/report.3.json
// RUN: FileCheck %s --check-prefix=JSON < %t.d/merged.json
// RUN: %ompdp report %t.d/merged.json > %t.merged.txt
// RUN: FileCheck %s --check-prefix=TEXT < %t.merged.txt
// RUN: %ompdp report %t.d/report.3.json %t.d/report.1.json %t.d/report.0.json %t.d/report.2.json > %t.direct.txt
// RUN: diff %t.merged.txt %t.direct.txt
// RUN: %ompdp report --format=sarif %t.d/merged.json | FileCheck %s --check-prefix=SARIF
// RUN: %ompdp merge --format=sarif %t.d/report.*.json | FileCheck %s --check-prefix=SARIF
// RUN: not %ompdp fix %t.d/merged.json -o %t.yaml 2> %t.fix.err
// RUN: FileCheck %s --check-prefix=FIXERR < %t.fix.err
// RUN: FileCheck %s --check-prefix=YAML < %t.yaml
//===----------------------------------------------------------------------===//
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

// OUT-COUNT-4: rank {{[0-3]}} of 4 on device {{[0-3]}}

// RANK2: "process": {"rank": 2, "size": 4, "local_rank": 2, "launcher": "openmpi", "job": "{{[0-9]+}}", "host": "{{[^"]+}}", "pid": {{[0-9]+}}, "devices": [2], "executable": "{{.*}}ranks.c.tmp", "build_id": "{{[0-9a-f]+}}"},

// JSON: "exit_status": 0,
// JSON: "ranks": {"size": 4, "launcher": "openmpi", "job": "{{[0-9]+}}", "executable": "{{.*}}ranks.c.tmp", "build_id": "{{[0-9a-f]+}}", "merged": [0, 1, 2, 3], "partial": [], "missing": [],
// JSON-NEXT: "per_rank": [
// JSON-NEXT: {"rank": 0, "status": "complete", "file": "{{.*}}report.0.json", "host": "{{[^"]+}}", "pid": {{[0-9]+}}, "devices": [0], "exit_status": 0,
// JSON-NEXT: {"rank": 1, "status": "complete", "file": "{{.*}}report.1.json", {{.*}} "devices": [1],
// JSON:      "duplicate_transfers": 6,
// JSON:      "round_trips": 12,
// JSON:      "partial": false,
// JSON:      "kind": "duplicate_transfer",
// JSON-NEXT: "count": 6,
// JSON:      "devices": [1, 3],
// JSON:      "variable": "b",
// JSON:      "spread": {"ranks": [1, 3], "count": {"min": 3, "median": 3, "max": 3}, "bytes": {"min": 12288, "median": 12288, "max": 12288},
// JSON:      "kind": "round_trip",
// JSON-NEXT: "count": 12,
// JSON:      "devices": [0, 1, 2, 3],
// JSON:      "variable": "a",
// JSON:      "spread": {"ranks": [0, 1, 2, 3], "count": {"min": 3, "median": 3, "max": 3}, {{.*}}, "rewrite_ranks": {{\[}}[0, 2], [1, 3]]}

// TEXT: ranks: 4 of 4 merged (0-3) from openmpi job {{[0-9]+}}
// TEXT-NEXT: rank 0: complete host={{.*}} devices=0 exit=0 wall={{.*}} findings={{[0-9]+}}  {{.*}}report.0.json
// TEXT-NEXT: rank 1: complete host={{.*}} devices=1 exit=0
// TEXT: time that the fixes would save: {{.*}} summed over 4 ranks; the slowest rank ran {{.*}} (predicted speedup of the job {{.*}})
// TEXT: duplicate_transfer {{.*}}ranks.c:{{[0-9]+}}:{{[0-9]+}} in main  count=6 bytes=24.0 KiB {{.*}} devices=1,3
// TEXT-NEXT: ranks: 1,3 (2)  per rank min/median/max: count=3/3/3 bytes=12.0 KiB/12.0 KiB/12.0 KiB saved=
// TEXT: rewrite (keep_resident): keep `a`, `b` and `c` on device 1 for the whole for loop
// TEXT: round_trip {{.*}}ranks.c:{{[0-9]+}}:{{[0-9]+}} in main  count=12 {{.*}} devices=0,1,2,3
// TEXT-NEXT: ranks: 0-3 (4)  per rank min/median/max: count=3/3/3
// TEXT-NEXT: rewrites by rank: 1. ranks 0,2; 2. ranks 1,3
// TEXT: rewrite (keep_resident): keep `a` on device 0 for the whole for loop
// TEXT: rewrite (keep_resident): the one shown above for duplicate_transfer of `b` at {{.*}}ranks.c:{{[0-9]+}}:1 in main{{$}}

// SARIF: "properties": {{.*}}"ranks": {"size": 4,
// SARIF: "ruleId": "duplicate_transfer",
// SARIF: "spread": {"ranks": [1, 3],
// SARIF: "ruleId": "round_trip",
// SARIF: "spread": {"ranks": [0, 1, 2, 3],

// FIXERR: ompdp: {{.*}}ranks.c:{{[0-9]+}}:1: the keep_resident rewrite for {{round_trip|duplicate_transfer}} overlaps the keep_resident rewrite for {{round_trip|duplicate_transfer}} at {{.*}}; it is left out
// FIXERR-NOT: ompdp:
// YAML: Replacements:
// YAML-COUNT-1: ReplacementText: "  #pragma omp target data {{map\(tofrom: a\)|map\(tofrom: a\) map\(to: b\) map\(from: c\)}}\n  for"
// YAML-NOT: ReplacementText:

static int a[1024], b[1024], c[1024];

int main(int argc, char **argv) {
  const char *r = getenv("OMPI_COMM_WORLD_RANK");
  int rank = r ? atoi(r) : 0;
  int dev = rank % omp_get_num_devices();
  for (int i = 0; i < 1024; ++i) {
    a[i] = i;
    b[i] = rank + 1 + i % 3; /* not one value repeated (a single_value_transfer) */
  }
  for (int step = 0; step < 4; ++step) {
#pragma omp target map(tofrom : a) device(dev)
    for (int i = 0; i < 1024; ++i)
      a[i] += 1;
    if (rank % 2) {
#pragma omp target map(to : b) map(from : c) device(dev)
      for (int i = 0; i < 1024; ++i)
        c[i] = 7 * b[i] + step + 1000;
    }
  }
  printf("rank %d of 4 on device %d\n", rank, dev);
  return 0;
}
