/*===- time_linux.c - the clock events are timed with --------------*- C -*-===*\
|*
|* Every data operation reads the clock twice, so its cost matters: a vDSO
|* clock_gettime takes about 27 ns on the development machine, rdtsc about
|* 10. The TSC is used only where the kernel itself chose it as the
|* clocksource, which is the kernel's own verdict that it is invariant and
|* synchronised across CPUs; otherwise ticks are CLOCK_MONOTONIC nanoseconds.
|*
|* Ticks are converted to nanoseconds once, at report time, with a scale
|* measured over the whole run (the TSC and CLOCK_MONOTONIC read at start
|* and at the end), so a run of a millisecond is already exact to a few
|* parts in a hundred thousand.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

int ompdp_clock_is_tsc;
static uint64_t base_ticks, base_ns;

uint64_t ompdp_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ompdp_ticks_slow(void) { return ompdp_now_ns(); }

uint64_t ompdp_ticks_ordered(void) {
#if defined(__x86_64__)
  if (ompdp_clock_is_tsc) {
    /* lfence keeps the read in program order with the loads around it. */
    uint32_t lo, hi;
    __asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
  }
#endif
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  uint64_t t = ompdp_now_ns();
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  return t;
}

static int kernel_uses_tsc(void) {
  FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
  if (!f)
    return 0;
  char buf[32] = {0};
  int ok = fgets(buf, sizeof(buf), f) && !strncmp(buf, "tsc", 3) && (buf[3] == '\n' || !buf[3]);
  fclose(f);
  return ok;
}

/* Both clocks read as close together as possible. */
static void read_pair(uint64_t *ticks, uint64_t *ns) {
  uint64_t t0 = ompdp_ticks_ordered();
  *ns = ompdp_now_ns();
  uint64_t t1 = ompdp_ticks_ordered();
  *ticks = t0 + (t1 - t0) / 2;
}

void ompdp_time_init(void) {
  if (base_ns)
    return;
#if defined(__x86_64__)
  ompdp_clock_is_tsc = kernel_uses_tsc();
#endif
  read_pair(&base_ticks, &base_ns);
}

uint64_t ompdp_tick_mult(void) {
  if (!ompdp_clock_is_tsc)
    return 1ull << 32;
  uint64_t t, ns;
  read_pair(&t, &ns);
  if (t <= base_ticks || ns <= base_ns)
    return 1ull << 32;
  return (uint64_t)(((unsigned __int128)(ns - base_ns) << 32) / (t - base_ticks));
}

uint64_t ompdp_ns_to_ticks(uint64_t ns) {
  if (!ompdp_clock_is_tsc)
    return ns;
  uint64_t mult = ompdp_tick_mult();
  if (ns <= base_ns)
    return base_ticks - (uint64_t)(((unsigned __int128)(base_ns - ns) << 32) / mult);
  return base_ticks + (uint64_t)(((unsigned __int128)(ns - base_ns) << 32) / mult);
}
