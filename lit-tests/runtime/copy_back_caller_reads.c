//===- copy_back_caller_reads.c - the caller's loop reads what comes back -===//
//
// HeCBench gmm's shape: copy_from() is a function with one `target update
// from` of its parameter and no loop; main calls it once in each iteration
// of its loop, after a kernel that computes the same values every time from
// an input the host changes (an element the kernel does not read), and
// then reads the data, by another name: `float *cn = c.N;` is what the
// call is given, `c.N[i]` what the loop reads. Every copy back after the
// first brings bytes the host had, but the host reads them after each
// call, and only the copy tells it they did not change: necessary, not
// "copy it back only where the host reads it".
// - The compiler records the loop's read for the call's argument `cn`
//   (what `cn` points to is what `c.N` points to): the dump.
// - BYNAME: the loop reads `cn[i]` itself: necessary too.
// - OTHER (negative): the loop reads `c.R`, another field, another buffer:
//   nothing in the loop reads what comes back: advice, to copy it back
//   where the host reads it.
// - TWOCALLS (gmm's other call, before its loop): main also calls
//   copy_from() once before the loop and reads `c.N[1]` after it: every
//   call is followed by a read, necessary. With NOREAD (negative), that
//   call stands in a block of its own and nothing reads after it there:
//   advice.
//
// REQUIRES: plugin
// RUN: %clang %ompdp-plugin-flags -fplugin-arg-ompdp-dump %offload-flags -c %s -o %t.o | FileCheck %s --check-prefix=DUMP
// RUN: %clang-ompdp -g %s -o %t
// RUN: %ompdp run -- %t 2>&1 | FileCheck %s --check-prefix=READ
// RUN: %clang-ompdp -g -DBYNAME %s -o %t.byname
// RUN: %ompdp run -- %t.byname 2>&1 | FileCheck %s --check-prefix=READ
// RUN: %clang-ompdp -g -DOTHER %s -o %t.other
// RUN: %ompdp run -- %t.other 2>&1 | FileCheck %s --check-prefix=OTHER
// RUN: %clang-ompdp -g -DTWOCALLS %s -o %t.two
// RUN: %ompdp run -- %t.two 2>&1 | FileCheck %s --check-prefix=TWO
// RUN: %clang-ompdp -g -DTWOCALLS -DNOREAD %s -o %t.noread
// RUN: %ompdp run -- %t.noread 2>&1 | FileCheck %s --check-prefix=NOREAD
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>

#define LEN 1024

typedef struct {
  float *N;
  float *R;
} clusters_t;

static void copy_from(float *n, int k) {
#pragma omp target update from(n[0:k])
}

int main(void) {
  clusters_t c;
  c.N = malloc(LEN * sizeof(float));
  c.R = malloc(LEN * sizeof(float));
  for (int i = 0; i < LEN; ++i)
    c.N[i] = c.R[i] = 1;
  float *cn = c.N;
  float *in = malloc(LEN * sizeof(float));
  for (int i = 0; i < LEN; ++i)
    in[i] = i % 3;
  int k = LEN;
  float s = 0;
#pragma omp target data map(to: cn[0:LEN], in[0:LEN])
  {
#ifdef TWOCALLS
#pragma omp target teams distribute parallel for
    for (int i = 0; i < LEN - 1; ++i)
      cn[i] = in[i];
#ifdef NOREAD
    { copy_from(cn, k); }
#else
    copy_from(cn, k);
    s += c.N[1];
#endif
#endif
  for (int it = 0; it < 6; ++it) {
    in[LEN - 1] = it; /* new input, which the kernel does not read */
#pragma omp target update to(in[0:LEN])
#pragma omp target teams distribute parallel for
    for (int i = 0; i < LEN - 1; ++i)
      cn[i] = in[i];
    copy_from(cn, k);
    for (int i = 0; i < k; ++i)
#if defined(BYNAME)
      s += cn[i] < 0.5f;
#elif defined(OTHER)
      s += c.R[i] < 0.5f;
#else
      s += c.N[i] < 0.5f;
#endif
  }
  }
  printf("s=%g\n", s);
  free(c.N);
  free(c.R);
  free(in);
  return 0;
}

// DUMP: region {{.*}} 'call' at {{.*}}copy_back_caller_reads.c:[[#CALL:]]:5 in 'main'
// DUMP: item 0: none 'cn' var 'cn'
// DUMP: host 0 'cn' read at [[#CALL+1]]:5-[[#CALL+7]]:26 {{.*}}every-time after

// READ: duplicate_transfer {{.*}}copy_back_caller_reads.c:[[#]]:1 in copy_from count=5
// READ-NEXT: variable: n clause: from(n[0:k])
// READ: verdict: necessary (not counted as a saving)
// READ-NEXT: suggestion: no saving: the host reads n after each copy back (the loop that calls its function reads it after the call), and only the copy tells it that the value did not change

// OTHER: duplicate_transfer {{.*}}copy_back_caller_reads.c:[[#]]:1 in copy_from count=5
// OTHER-NEXT: variable: n clause: from(n[0:k])
// OTHER: verdict: advice
// OTHER-NEXT: suggestion: the copy back brought the host the bytes of n it already had: the kernels computed the same result again, from data the device received since the last copy back; copy it back only where the host reads it

// TWO: duplicate_transfer {{.*}}copy_back_caller_reads.c:[[#]]:1 in copy_from count=6
// TWO-NEXT: variable: n clause: from(n[0:k])
// TWO: verdict: necessary (not counted as a saving)
// TWO-NEXT: suggestion: no saving: the host reads n after each copy back (the loop that calls its function reads it after the call)

// NOREAD: duplicate_transfer {{.*}}copy_back_caller_reads.c:[[#]]:1 in copy_from count=6
// NOREAD-NEXT: variable: n clause: from(n[0:k])
// NOREAD: verdict: advice
// NOREAD-NEXT: suggestion: the copy back brought the host the bytes of n it already had
