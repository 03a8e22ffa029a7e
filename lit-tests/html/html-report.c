//===- html-report.c - the report as one self-contained HTML page ---------===//
//
// A program with Listing 1 and Listing 2, built with the plugin, so that
// findings have rewrites. PAGE, `ompdp report --format=html`: one file with
// a Content-Security-Policy that forbids every fetch, no reference outside
// itself, two inline scripts (its data and the drawing), the report's
// counts, every finding, each rewrite as a diff of this file's lines, and
// the timeline with every finding's operations. DIRECT, `ompdp run
// --format=html` writes the same page. CHANGED, a source file that changed
// since the build gets the bare edit and why. NOTIMELINE, a report written
// with timeline=off gives the page without one.
//
// REQUIRES: plugin
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %s %t.dir/prog.c && cd %t.dir
// RUN: %clang-ompdp prog.c -o prog
// RUN: %ompdp run --format=json -o r.json -- ./prog
// RUN: %ompdp report --format=html r.json -o r.html
// RUN: %page-check --diffs r.html | FileCheck %s --check-prefix=PAGE
// RUN: %ompdp run --format=html -o run.html -- ./prog > /dev/null
// RUN: %page-check run.html | FileCheck %s --check-prefix=DIRECT
// RUN: FileCheck %s --check-prefix=HTML < r.html
// RUN: echo "// changed" >> prog.c
// RUN: %ompdp report --format=html r.json -o changed.html
// RUN: %page-check changed.html | FileCheck %s --check-prefix=CHANGED
// RUN: %ompdp run --format=json --option timeline=off -o off.json -- ./prog
// RUN: %ompdp report --format=html off.json -o off.html
// RUN: %page-check off.html | FileCheck %s --check-prefix=NOTIMELINE
//===----------------------------------------------------------------------===//
#include <stdio.h>

#define N 4096
#define ITERS 10

static void listing1(void) {
  int a[N], sum = 0, prod = 1;
  for (int i = 0; i < N; ++i)
    a[i] = i % 3 == 0 ? 1 : 2;
#pragma omp target map(to : a) map(tofrom : sum)
  for (int i = 0; i < N; ++i)
    sum += a[i];
#pragma omp target map(to : a) map(tofrom : prod)
  for (int i = 0; i < 8; ++i)
    prod *= a[i];
  printf("listing1: sum=%d prod=%d\n", sum, prod);
}

static void listing2(void) {
  static int a2[N];
  for (int i = 0; i < ITERS; ++i) {
#pragma omp target
    for (int j = 0; j < N; ++j)
      a2[j] += j;
  }
  printf("listing2: a2[N-1]=%d\n", a2[N - 1]);
}

int main(void) {
  listing1();
  listing2();
  return 0;
}

// PAGE: csp: default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:
// PAGE-NEXT: external: none
// PAGE-NEXT: scripts: 2 inline
// PAGE-NEXT: program: ./prog
// PAGE-NEXT: partial: false
// PAGE-NEXT: summary: duplicate_transfer=1 round_trip=9 repeated_alloc=10 unused_alloc=0 unused_transfer=0
// PAGE: findings: {{[4-6]}}
// PAGE-DAG: finding {{[0-9]}} round_trip a2 shown=9 count=9 rewrites=1 verdict=fix saves=true
// PAGE-DAG: finding {{[0-9]}} duplicate_transfer a shown=1 count=1 rewrites=1 verdict=fix saves=true
// PAGE-DAG: finding {{[0-9]}} repeated_alloc a2 shown=9 count=9 rewrites=1 verdict=fix saves=true
// The round trip's rewrite: a target data region before the loop.
// PAGE-DAG: diff {{[0-9]}}.0 prog.c source=true -1 +2
// PAGE-DAG: - {{ *}}for (int i = 0; i < ITERS; ++i) {
// PAGE-DAG: + {{ *}}#pragma omp target data map(tofrom: a2)
// Listing 1's constructs in a row: one region around both.
// PAGE-DAG: + #pragma omp target data map(to: a)
// PAGE: timeline: ops=66 events=66 folded=0 rest=0 kept=bounded

// DIRECT: summary: duplicate_transfer=1 round_trip=9
// DIRECT: timeline: ops=66 events=66

// HTML: <!DOCTYPE html>
// HTML: <meta http-equiv="Content-Security-Policy" content="default-src 'none';
// HTML: <title>ompdp report: ./prog</title>
// HTML: <script id="ompdp-data" type="application/json">{
// HTML-NOT: <script src
// HTML-NOT: <link
// HTML: </html>

// CHANGED: diff {{.*}} prog.c source=false {{.*}}(the file changed since the program was built)
// CHANGED-NOT: source=true

// NOTIMELINE: summary: duplicate_transfer=1 round_trip=9
// NOTIMELINE: timeline: none
