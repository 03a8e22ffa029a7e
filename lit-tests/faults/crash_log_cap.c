//===- crash_log_cap.c - the journal takes over when the event log stops ---===//
//
// REQUIRES: threads
//
// Under `ompdp run` the event log in shared memory keeps every event, so
// the runtime saves no journal and starts no thread for one while the log
// grows: a short run analyses its few events at exit (the program below,
// 5 updates, has no thread besides its own: THREADS). When the log stops
// growing (here crash_log_mb=1, reached after some 40,000 of 60,000
// updates), the consumer thread starts with the next chunk and the journal
// saves what the log no longer holds: killed by SIGKILL after the journal
// holds every event, the program's report is recovered from the journal,
// with every duplicate transfer (JOURNAL). The runtime loaded without
// `ompdp run` keeps no such log, and starts the journal's thread at the
// first event (DIRECT).
//
// RUN: %clang-offload -g %s -o %t
// RUN: %ompdp run --option journal_ms=50 -o %t.short.txt -- %t 5 | FileCheck %s --check-prefix=THREADS
// RUN: sh -c '%ompdp run --option crash_log_mb=1 --option journal_ms=50 --format=json -o %t.json -- %t 60000 kill; echo "rc=$?"' >%t.out 2>%t.err
// RUN: FileCheck %s --check-prefix=RC137 < %t.out
// RUN: FileCheck %s --check-prefix=JOURNAL < %t.err
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: env OMP_TOOL_LIBRARIES=%ompdp-rt OMPDP_OPTIONS="output=%t.direct.txt journal_ms=50" %t 5 | FileCheck %s --check-prefix=DIRECT
//
// THREADS: 5 updates; threads: 1
// RC137: 60000 updates; threads: 2
// RC137: rc=137
// JOURNAL: ompdp: the program was killed by signal 9 (Killed) before it could write its report; its report is recovered from the journal flushed at {{[0-9:]+}} (60002 events) and is partial
// JSON: "exit_status": 137,
// JSON: "duplicate_transfers": 60000,
// JSON: "partial": true,
// DIRECT: 5 updates; threads: 2
//===----------------------------------------------------------------------===//
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int a[256];

static void nap(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

static int threads(void) {
  int n = 0;
  DIR *d = opendir("/proc/self/task");
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += e->d_name[0] != '.';
  if (d)
    closedir(d);
  return n;
}

// Waits (up to 20 s) until the journal beside the report (option output,
// %p the process id, plus .journal) says it holds `events` events.
static void wait_for_journal(long events) {
  const char *opts = getenv("OMPDP_OPTIONS");
  const char *o = opts ? strstr(opts, "output=") : NULL;
  char path[4096], want[64];
  size_t n = 0;
  for (o = o ? o + 7 : ""; *o && *o != ' ' && n + 32 < sizeof(path); ++o) {
    if (o[0] == '%' && o[1] == 'p') {
      n += (size_t)snprintf(path + n, sizeof(path) - n, "%ld", (long)getpid());
      ++o;
    } else {
      path[n++] = *o;
    }
  }
  snprintf(path + n, sizeof(path) - n, ".journal");
  snprintf(want, sizeof(want), " events=%ld ", events);
  for (int waited = 0; waited < 20000; waited += 10) {
    char head[256] = "";
    FILE *f = fopen(path, "r");
    if (f) {
      if (!fgets(head, sizeof(head), f))
        head[0] = 0;
      fclose(f);
    }
    if (strstr(head, want))
      return;
    nap(10);
  }
  fprintf(stderr, "no journal with%s at %s\n", want, path);
}

int main(int argc, char **argv) {
  long rounds = argc > 1 ? atol(argv[1]) : 5;
  for (int i = 0; i < 256; ++i)
    a[i] = i + 1;
#pragma omp target enter data map(to : a)
  for (long r = 0; r < rounds; ++r) {
#pragma omp target update to(a)
  }
  nap(200); // four journal intervals
  printf("%ld updates; threads: %d\n", rounds, threads());
  fflush(stdout);
  if (argc > 2 && !strcmp(argv[2], "kill")) {
    wait_for_journal(rounds + 2);
    raise(SIGKILL);
  }
#pragma omp target exit data map(release : a)
  return 0;
}
