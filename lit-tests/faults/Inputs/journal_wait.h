//===- journal_wait.h - test programs that wait for what the runtime wrote -===//
//
// For the test programs that must not end before the runtime has written a
// file (the journal, on its own thread, or another rank's report): a
// fixed sleep is not enough on a loaded machine, where the tool's thread may
// not run for a while. Included by faults/sigkill_journal.c,
// faults/crash_log_cap.c and mpi/killed_rank.c.
//
//===----------------------------------------------------------------------===//
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void nap(int ms) {
  struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
  nanosleep(&ts, NULL);
}

// Waits (up to timeout_ms) until path exists and, when want is given, its
// first line holds it. 0, or -1 after saying on stderr what it waited for.
static int wait_for_line(const char *path, const char *want, int timeout_ms) {
  for (int waited = 0; waited < timeout_ms; waited += 10) {
    char head[256] = "";
    FILE *f = fopen(path, "r");
    if (f) {
      if (!fgets(head, sizeof(head), f))
        head[0] = 0;
      fclose(f);
      if (!want || strstr(head, want))
        return 0;
    }
    nap(10);
  }
  fprintf(stderr, "gave up waiting for %s%s%s\n", path, want ? " to hold" : "", want ? want : "");
  return -1;
}

// The journal's path: the report's (option `output` of OMPDP_OPTIONS, %p
// the process id) plus `.journal`. 0, or -1 when no output is set.
static int journal_path(char *path, size_t size) {
  const char *opts = getenv("OMPDP_OPTIONS");
  const char *o = opts ? strstr(opts, "output=") : NULL;
  if (!o)
    return -1;
  size_t n = 0;
  for (o += 7; *o && *o != ' ' && n + 32 < size; ++o) {
    if (o[0] == '%' && o[1] == 'p') {
      n += (size_t)snprintf(path + n, size - n, "%ld", (long)getpid());
      ++o;
    } else {
      path[n++] = *o;
    }
  }
  snprintf(path + n, size - n, ".journal");
  return 0;
}

// Waits (up to 20 s) until the journal says it holds `events` events; 300
// ms when there is none to wait for (journal_ms=0, or no output file).
static void wait_for_journal(long events) {
  const char *opts = getenv("OMPDP_OPTIONS");
  char path[4096], want[64];
  if ((opts && strstr(opts, "journal_ms=0")) || journal_path(path, sizeof(path))) {
    nap(300);
    return;
  }
  snprintf(want, sizeof(want), " events=%ld ", events);
  wait_for_line(path, want, 20000);
}
