//===- ignored_signals.c - the program starts with its own signal actions -===//
//
// `ompdp run` handles SIGHUP, SIGINT, SIGQUIT and SIGTERM while the program
// runs (it forwards SIGHUP and SIGTERM, and ignores SIGINT and SIGQUIT,
// which the terminal sends the program too). The program sees the actions
// it would have had with the runtime loaded by hand, without the driver
// (its line is the same both ways: the runtime's own handlers, for the
// report at a SIGTERM, are in both); in particular a signal ompdp was
// started with ignored (nohup, `trap '' ...` in a script) stays ignored for
// the program (IGNORED): the driver sets its handler and takes the old
// action in one call, and puts an ignored one back.
//
// RUN: %clang-offload %s -o %t
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.direct.txt %t > %t.plain.out
// RUN: %ompdp run -o %t.txt -- %t > %t.run.out
// RUN: diff %t.plain.out %t.run.out
// RUN: sh -c "trap '' HUP INT; OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS=output=%t.direct.txt exec %t" > %t.ign-plain.out
// RUN: sh -c "trap '' HUP INT; exec %ompdp run -o %t.ign.txt -- %t" > %t.ign-run.out
// RUN: diff %t.ign-plain.out %t.ign-run.out
// RUN: FileCheck %s --check-prefix=IGNORED < %t.ign-run.out
// RUN: FileCheck %s --check-prefix=REPORT < %t.ign.txt
//
// IGNORED: HUP ignored, INT ignored,
// REPORT: observed: 2 transfers
//===----------------------------------------------------------------------===//
#include <signal.h>
#include <stdio.h>

static const char *action(int sig) {
  struct sigaction sa;
  if (sigaction(sig, NULL, &sa))
    return "?";
  return sa.sa_handler == SIG_IGN ? "ignored" : sa.sa_handler == SIG_DFL ? "default" : "handled";
}

int main(void) {
  printf("HUP %s, INT %s, QUIT %s, TERM %s\n", action(SIGHUP), action(SIGINT), action(SIGQUIT),
         action(SIGTERM));
  fflush(stdout);
  int x = 1;
#pragma omp target map(tofrom : x)
  x += 1;
  return x == 2 ? 0 : 1;
}
