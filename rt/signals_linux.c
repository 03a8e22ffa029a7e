/*===- signals_linux.c - the process ends or forks ------------------*- C -*-===*\
|*
|* On a fatal signal (SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL) and on
|* SIGTERM/SIGINT/SIGHUP, write what was gathered, then restore the previous
|* disposition and re-raise, so the program dies exactly as it would have.
|* Only signals left at their default disposition are taken over: a program's
|* own handlers are never replaced. Writing the report from a handler is best
|* effort (it allocates); an alarm guards against a deadlock in that path so
|* the program still dies by its own signal.
|*
|* A child made by fork() inherits the parent's event log; it remembers when
|* it was made, so that its report holds only what it did itself.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#include "shm.h"
#include "tool.h"

#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

static const int signals[] = {SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL, SIGTERM, SIGINT, SIGHUP};
#define NUM_SIGNALS (sizeof(signals) / sizeof(signals[0]))
static struct sigaction previous[NUM_SIGNALS];
static volatile sig_atomic_t dying_signal;

static int slot_of(int sig) {
  for (size_t i = 0; i < NUM_SIGNALS; ++i)
    if (signals[i] == sig)
      return (int)i;
  return -1;
}

static void die_now(int sig) {
  int i = slot_of(sig);
  if (i >= 0)
    sigaction(sig, &previous[i], NULL);
  else
    signal(sig, SIG_DFL);
  /* Unblock it: we are inside its handler. */
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, sig);
  sigprocmask(SIG_UNBLOCK, &set, NULL);
  raise(sig);
}

static void on_alarm(int unused) { die_now(dying_signal ? dying_signal : SIGABRT); }

static void on_fatal(int sig) {
  /* Under `ompdp run` the crash log holds every event: ompdp run makes the
   * report, and the program dies at once, as without ompdp. */
  if (ompdp_shm_active())
    die_now(sig);
  dying_signal = sig;
  signal(SIGALRM, on_alarm);
  alarm(10);
  ompdp_write_report_once(sig);
  alarm(0);
  die_now(sig);
}

static uint64_t forked_at_ns;

static void on_fork_child(void) { forked_at_ns = ompdp_now_ns(); }

uint64_t ompdp_fork_time_ns(void) { return forked_at_ns; }

void ompdp_signals_install(void) {
  pthread_atfork(NULL, NULL, on_fork_child);
  for (size_t i = 0; i < NUM_SIGNALS; ++i) {
    struct sigaction old;
    if (sigaction(signals[i], NULL, &old) || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
      continue;
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_fatal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    previous[i] = old;
    sigaction(signals[i], &sa, NULL);
  }
}
