//===- json_rerender.c - a saved JSON report, rendered again --------------===//
//
// `ompdp run --format=json -o FILE` saves the report (the program's stderr
// stays its own); `ompdp report FILE` renders the same findings as text,
// as `ompdp run` would have printed them, and `--format=json` gives the
// JSON back. Program arguments after `--` reach the program unchanged.
//
// RUN: %clang-offload -g %s -o %t
// RUN: rm -f %t.json %t.txt %t.again.json
// RUN: %ompdp run --format=json -o %t.json -- %t one "two words" 2>&1 | FileCheck %s --check-prefix=PROG
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: %ompdp report %t.json | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp report -o %t.txt %t.json
// RUN: FileCheck %s --check-prefix=TEXT < %t.txt
// RUN: %ompdp run -- %t one "two words" 2>&1 | FileCheck %s --check-prefix=TEXT
// RUN: %ompdp report --format=json %t.json > %t.again.json
// RUN: FileCheck %s --check-prefix=JSON < %t.again.json
// RUN: %ompdp report %t.again.json | FileCheck %s --check-prefix=TEXT

// PROG: args=2 one|two words
// PROG-NOT: ompdp report
// PROG-NOT: "findings"

// JSON: "ompdp_report_version": 2,
// JSON: "argv": ["{{.*}}json_rerender.c.tmp", "one", "two words"],
// JSON-NEXT: "exit_status": 0,
// JSON: "duplicate_transfers": 1,
// JSON-NEXT: "round_trips": 4,
// JSON-NEXT: "repeated_allocs": 5,
// JSON-NEXT: "unused_allocs": 0,
// JSON-NEXT: "unused_transfers": 0,
// JSON: "kind": "duplicate_transfer",
// JSON: "kind": "round_trip",

// TEXT: === ompdp report ===
// TEXT-NEXT: program: {{.*}}json_rerender.c.tmp one {{"?}}two words{{"?}}
// TEXT-NEXT: exit status: 0
// TEXT: summary: duplicate_transfers=1 round_trips=4 repeated_allocs=5 unused_allocs=0 unused_transfers=0
// TEXT: duplicate_transfer {{.*}}json_rerender.c:[[@LINE+19]]:1 in main count=1 bytes=512 B {{.*}} devices=0{{$}}
// TEXT-NEXT: 1 from the same host buffer, 0 from other buffers with the same bytes
// TEXT: round_trip {{.*}}json_rerender.c:[[@LINE+22]]:1 in main count=4 bytes=2.0 KiB {{.*}} devices=0{{$}}
// TEXT-DAG: repeated_alloc {{.*}}json_rerender.c:[[@LINE+21]]:1 in main count=4 bytes=2.0 KiB {{.*}} devices=0{{$}}
// TEXT-DAG: repeated_alloc {{.*}}json_rerender.c:[[@LINE+15]]:1 in main count=1 bytes=512 B {{.*}} devices=0{{$}}
// TEXT-NOT: unused_

#include <stdio.h>

#define N 128

int main(int argc, char **argv) {
  static int a[N], b[N];
  fprintf(stderr, "args=%d %s|%s\n", argc - 1, argc > 1 ? argv[1] : "",
          argc > 2 ? argv[2] : "");
  // A duplicate: `b` sent twice, unchanged. (Not zeros: `a` starts as zeros.)
  for (int i = 0; i < N; ++i)
    b[i] = i + 1;
  for (int k = 0; k < 2; ++k) {
#pragma omp target map(to : b)
    b[0] += 0;
  }
  // Listing 2 with 5 iterations: 4 round trips.
  for (int it = 0; it < 5; ++it) {
#pragma omp target parallel for
    for (int j = 0; j < N; ++j)
      a[j] += j;
  }
  printf("a[1]=%d\n", a[1]);
  return 0;
}
