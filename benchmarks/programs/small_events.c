/*===- small_events.c - a flood of tiny data operations -------------*- C -*-===*\
|*
|* Size N: N `target update` operations of 8 bytes each, half to the device and
|* half back, on a buffer that stays mapped. Each update is one data-op event
|* whose transfer is almost free, so the run time is dominated by the OpenMP
|* runtime and by what the tool does per event; with N = 10^7 the tool's memory
|* per event and its analysis time at exit become measurable.
|* The value changes between updates so that most transfers carry new bytes, as
|* a real program's would; a tool that only counted duplicates would see few.
|* An optional second argument P makes the values repeat every P updates (a
|* loop over a bounded set of states): the bytes the tool must remember to
|* find duplicates then stay bounded however long the run, which is what the
|* stream mode's memory measurement uses besides the all-new default.
|*
\*===----------------------------------------------------------------------===*/
#include "bench.h"

int main(int argc, char **argv) {
  long n = bench_size(argc, argv, 1000000);
  long period = argc > 2 ? bench_size(argc - 1, argv + 1, 1) : 0;
  long x = 0;
#pragma omp target enter data map(to : x)
  for (long i = 0; i < n; i += 2) {
    x = period ? i % period : i;
#pragma omp target update to(x)
#pragma omp target update from(x)
  }
#pragma omp target exit data map(release : x)
  printf("x=%ld\n", x);
  bench_end();
  return 0;
}
