//===- host_unread_loop.c - a new buffer per iteration, its last copy unread ===//
//
// HeCBench channelSum's shape: each iteration of a loop allocates `sum`
// (declared in the loop body), maps it `from` on a `target data`, brings
// it back early with `target update from` to check it with a function that
// only reads it, and frees it after the region without reading it again.
// The region's copy back at its end brings bytes nobody reads: the next
// iteration reads another buffer under the same name, so the loop does not
// make the earlier reads "after" the copy. An unused label at the end of
// main is a name, not a way in. The copy back is overbroad and mapped
// `alloc` (its duplicate copies back, the same bytes again, show that
// rewrite too); applied, rebuilt, rerun: same output, the copies back gone.
// `want`, allocated once before the loop, is kept on the device around
// it. No `target data` is offered around the loop for the others: each
// pointer is declared in the loop's body (base-stored), a new variable in
// every iteration that does not exist before the loop, however often
// malloc gives the same address.
// Not reported: `kept` (read after the region), `lent` (given to a
// function that keeps the pointer, which may read it later).
//
// REQUIRES: plugin
// RUN: rm -rf %t && mkdir -p %t && cp %s %t/prog.c
// RUN: cd %t && %clang-ompdp -fplugin-arg-ompdp-dump prog.c -o before > table.txt
// RUN: FileCheck %s --check-prefix=TABLE < %t/table.txt
// RUN: cd %t && %ompdp run --format=json -o before.json -- ./before > before.out
// RUN: cd %t && %ompdp report before.json | grep -A1 '^overbroad_map' > over.txt
// RUN: FileCheck %s --check-prefix=OVER < %t/over.txt
// RUN: FileCheck %s --check-prefix=NOTOVER < %t/over.txt
// RUN: cd %t && %ompdp fix --apply before.json
// RUN: FileCheck %s --check-prefix=FIXED < %t/prog.c
// RUN: cd %t && %clang-ompdp prog.c -o after
// RUN: cd %t && %ompdp run --format=json -o after.json -- ./after > after.out
// RUN: diff %t/before.out %t/after.out
// RUN: %check-fix %t/before.json %t/after.json | FileCheck %s --check-prefix=PROOF
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define C 1024

static const float *kept_ptr;

static int check(int n, float *got, const float *want) {
  for (int i = 0; i < n; ++i)
    if (got[i] != want[i])
      return 0;
  return 1;
}

static void lend(float *p) { kept_ptr = p; }

int main(void) {
  float *want = malloc(C * sizeof(float));
  double total = 0;
  for (int i = 0; i < C; ++i)
    want[i] = 2.0f * i;
  for (int round = 1; round <= 3; ++round) {
    float *sum = malloc(C * sizeof(float));
    float *kept = malloc(C * sizeof(float));
    float *lent = malloc(C * sizeof(float));
#pragma omp target data map(from: sum[0:C], kept[0:C], lent[0:C]) map(to: want[0:C])
    {
#pragma omp target teams distribute parallel for
      for (int i = 0; i < C; ++i) {
        sum[i] = 2.0f * i;
        kept[i] = want[i] + round;
        lent[i] = i;
      }
#pragma omp target update from(sum[0:C])
      printf("round %d: %s\n", round, check(C, sum, want) ? "PASS" : "FAIL");
    }
    lend(lent);
    total += kept[C - 1] + kept_ptr[1];
    free(sum);
    free(kept);
    free(lent);
  }
  printf("total=%.1f\n", total);
  free(want);
done:
  return 0;
}

// TABLE: item 0: from 'sum[0:C]' {{.*}} fresh-host base-stored host-unread
// TABLE: item 1: from 'kept[0:C]' {{.*}} fresh-host base-stored{{ }}
// TABLE-NOT: host-unread
// TABLE: item 2: from 'lent[0:C]'
// OVER: variable: sum
// NOTOVER-NOT: variable: {{kept|lent}}
// FIXED: {{^}}  #pragma omp target data map(to: want[0:C]){{$}}
// FIXED: {{^}}#pragma omp target data map(from: kept[0:C], lent[0:C]) map(alloc: sum[0:C]) map(to: want[0:C]){{$}}
// PROOF: rewrites: 2 for 5 finding(s)
// PROOF-NEXT: transfers: 15 -> 10 (removed 5, predicted 5)
// PROOF: gone: duplicate_transfer of sum: yes
// PROOF: gone: overbroad_map of sum: yes
// PROOF-NEXT: OK
