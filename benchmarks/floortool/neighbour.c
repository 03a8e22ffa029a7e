/*===- neighbour.c - memory-bound work on another core ---------------*- C -*-===*\
|*
|* Not a tool: a process that does nothing but random read-modify-writes of a
|* 1 MiB table until it is killed. run.py runs the null-tool program beside
|* it, to measure what any work of this kind on another core costs the
|* program's thread through the memory system the cores share, with no tool
|* code on that thread at all. ompdp's stream consumer is such work (hash
|* tables of the analysis, on a thread of its own); the floor table puts the
|* two side by side.
|*
\*===----------------------------------------------------------------------===*/
#include <stdint.h>
#include <stdlib.h>

int main(void) {
  size_t n = (1u << 20) / sizeof(uint64_t);
  uint64_t *t = calloc(n, sizeof(*t));
  if (!t)
    return 1;
  uint64_t x = 1, s = 0;
  for (;;) {
    for (uint32_t i = 0; i < (1u << 24); ++i) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      s += t[(x >> 20) % n]++;
    }
    if (s == 42)
      return 2; /* keeps the loop from being removed */
  }
}
