//===- sarif-fixes.c - SARIF 2.1.0 with locations and fixes ----------------===//
//
// A run with rewrites of two kinds (target data around a loop; a removed
// `target update`), as SARIF: the log is valid (Inputs/validate_sarif.py:
// the specification's structural rules that ompdp's output uses), has one
// rule per finding kind, results with locations, related locations,
// properties and fixes; `ompdp run --format=sarif` gives a valid log too.
// Applying the SARIF fixes as an editor would gives the very file that
// `ompdp fix --apply` gives. Built from an absolute path: file:// URIs.
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t/src && cp %s %t/src/prog.c && cp %s %t/pristine.c
// RUN: %clang-ompdp %t/src/prog.c -o %t/prog
// RUN: %ompdp run --format=json -o %t/r.json -- %t/prog > /dev/null
// RUN: %ompdp report --format=sarif %t/r.json > %t/r.sarif
// RUN: %validate-sarif %t/r.sarif | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=LOG -DDIR=%t < %t/r.sarif
// RUN: %ompdp run --format=sarif -o %t/run.sarif -- %t/prog > /dev/null
// RUN: %validate-sarif %t/run.sarif | FileCheck %s --check-prefix=VALID
// RUN: FileCheck %s --check-prefix=RUNLOG < %t/run.sarif
// RUN: %apply-sarif %t/r.sarif %t/src | FileCheck %s --check-prefix=APPLIED
// RUN: cp %t/src/prog.c %t/by-sarif.c && cp %t/pristine.c %t/src/prog.c
// RUN: %ompdp fix --apply %t/r.json
// RUN: diff %t/by-sarif.c %t/src/prog.c
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 128

int main(void) {
  static int b[N], y[N];
  int sum = 0;
#pragma omp target enter data map(alloc : y[0:N])
#pragma omp target update to(y[0:N])
  for (int i = 0; i < N; ++i)
    y[i] = i;
#pragma omp target update to(y[0:N])
  for (int it = 0; it < 3; ++it) {
#pragma omp target map(tofrom : sum)
    for (int j = 0; j < N; ++j) {
      b[j] += 3 * y[j];
      sum += b[j];
    }
  }
#pragma omp target exit data map(delete : y[0:N])
  printf("sum=%d b[9]=%d\n", sum, b[9]);
  return 0;
}

// VALID: valid: {{[0-9]+}} result(s), {{[1-9][0-9]*}} fix(es)

// LOG: "version": "2.1.0",
// LOG: "name": "ompdp",
// LOG: "rules": [
// LOG-NEXT: {"id": "duplicate_transfer", "name": "DuplicateTransfer",
// LOG-NEXT: {"id": "round_trip", "name": "RoundTrip",
// LOG-NEXT: {"id": "repeated_alloc",
// LOG-NEXT: {"id": "unused_alloc",
// LOG-NEXT: {"id": "unused_transfer", {{.*}}"help": {"text": "No kernel read these bytes{{.*}}"warningGroup": "ompdp-unused-transfer"
// LOG-NEXT: {"id": "zero_transfer", "name": "ZeroTransfer",
// LOG-NEXT: {"id": "overbroad_map", "name": "OverbroadMap",
// LOG: "columnKind": "unicodeCodePoints",
// LOG: "ruleId": "round_trip",
// LOG-NEXT: "ruleIndex": 1,
// LOG-NEXT: "level": "warning",
// LOG: "message": {"text": "Round trips of `b` (implicit map(tofrom: b)): 2 avoidable,
// LOG-NEXT: "locations": [{"physicalLocation": {"artifactLocation": {"uri": "file://[[DIR]]/src/prog.c"}, "region": {"startLine": [[#L:]], "startColumn": 1}}, "logicalLocations": [{"name": "main", "kind": "function"}]}],
// LOG-NEXT: "relatedLocations": [{"id": 1, "physicalLocation": {{.*}}"message": {"text": "the outgoing copy of the round trip"}}],
// LOG-NEXT: "partialFingerprints": {"ompdpSite/v1": "round_trip:{{[0-9a-f]+}}:{{[0-9]+}}"},
// LOG-NEXT: "properties": {"count": 2, "bytes": 1024, {{.*}}"devices": [0], "variable": "b", "clause": "implicit map(tofrom: b)", "verdict": "fix"},
// LOG-NEXT: "fixes": [
// LOG-NEXT: {"description": {"text": "keep `sum` and `b` {{.*}}"}, "artifactChanges": [{"artifactLocation": {"uri": "file://[[DIR]]/src/prog.c"}, "replacements": [{"deletedRegion": {"startLine": [[#L-1]], "startColumn": 1, "endLine": [[#L-1]], "endColumn": 6}, "insertedContent": {"text": "  #pragma omp target data map(tofrom: sum) map(tofrom: b)\n  for"}}]}], "properties": {"kind": "keep_resident", {{.*}}"allocs_removed": 4,
// LOG: "ruleId": "unused_transfer",
// LOG-NEXT: "ruleIndex": 4,
// LOG: "fixes": [
// LOG-NEXT: {"description": {"text": "remove `y[0:N]` from `target update` {{.*}}"}, "artifactChanges": [{"artifactLocation": {"uri": "file://[[DIR]]/src/prog.c"}, "replacements": [{"deletedRegion": {"startLine": [[#U:]], "startColumn": 1, "endLine": {{[0-9]+}}, "endColumn": 1}}]}],

// RUNLOG: "arguments": ["{{.*}}prog"], "exitCode": 0}],
// RUNLOG: "results": [

// APPLIED: prog.c: 2 replacement(s)
