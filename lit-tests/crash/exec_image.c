//===- exec_image.c - a program that execs: the new image's own event log -===//
//
// A process that calls exec keeps its pid, so the new image's runtime finds
// the event log the old image left under that pid in the run directory: it
// replaces it (open with O_EXCL, then unlink and again when the name is
// taken) and logs into a file of its own. Here the first image offloads
// once and execs itself; the second offloads twice more, and its report
// counts 4 transfers, its own, not the first image's (REPORT). Killed by
// SIGKILL after its regions, the second image's report is rebuilt from its
// event log (KILLED, JSON).
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run -o %t.txt -- %t | FileCheck %s --check-prefix=OUT
// RUN: FileCheck %s --check-prefix=REPORT < %t.txt
// RUN: sh -c '%ompdp run --format=json -o %t.json -- %t kill; echo "rc=$?"' 2>&1 | FileCheck %s --check-prefix=KILLED
// RUN: FileCheck %s --check-prefix=JSON < %t.json
//
// OUT: first image: 2
// OUT-NEXT: second image: 2
// REPORT: program: {{.*}} second
// REPORT: observed: 4 transfers
// KILLED: ompdp: the program was killed by signal 9 (Killed) before it could write its report; ompdp rebuilt its report from the event log it kept
// KILLED: rc=137
// JSON: "argv": ["{{[^"]*}}", "second", "kill"]
// JSON: "transfers": 4,
// JSON: "source": "event_log"
//===----------------------------------------------------------------------===//
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  if (argc < 2 || strcmp(argv[1], "second")) {
    printf("first image: %d\n", x);
    fflush(stdout);
    char *args[] = {argv[0], "second", argc > 1 ? argv[1] : NULL, NULL};
    execv("/proc/self/exe", args);
    perror("execv");
    return 1;
  }
  double v[4] = {1, 2, 3, 4};
#pragma omp target map(to : v)
  v[0] += 1;
#pragma omp target map(to : v)
  v[0] += 1;
  printf("second image: %d\n", x);
  fflush(stdout);
  if (argc > 2 && !strcmp(argv[2], "kill"))
    raise(SIGKILL);
  return 0;
}
