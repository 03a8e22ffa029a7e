/*===- bench.h - shared helpers of the benchmark programs -----------*- C -*-===*\
|*
|* Every benchmark program takes one size argument and, as the last thing in
|* main, prints the CLOCK_MONOTONIC time to stderr. The runner subtracts it from
|* the time at which it reaps the process: the difference is what happens after
|* main (libomp teardown, and with ompdp the analysis and the report), which is
|* how "analysis time at exit" is measured without instrumenting the tool.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_BENCH_H
#define OMPDP_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

/* The size argument, or a default when there is none. Bad input is an error
 * rather than a silent default, so a typo in run.py cannot shrink a run. */
static inline long bench_size(int argc, char **argv, long dflt) {
  if (argc < 2)
    return dflt;
  char *end;
  long v = strtol(argv[1], &end, 10);
  if (*end || v <= 0) {
    fprintf(stderr, "%s: bad size '%s'\n", argv[0], argv[1]);
    exit(2);
  }
  return v;
}

/* Called last in main. Flushed explicitly: stderr is unbuffered, but the
 * line must be complete before exit handlers (and the tool) run. */
static inline void bench_end(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  fprintf(stderr, "ompdp-bench-end %lld\n",
          (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
  fflush(stderr);
}

#endif
