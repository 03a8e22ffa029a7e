/*===- faultbench.c - what a fresh page costs, faulted or populated -*- C -*-===*\
|*
|* The runtime writes every event into fresh memory (the crash log's blocks
|* in a tmpfs file under `ompdp run`, anonymous chunks without it) and the
|* analysis grows its tables into fresh memory. What a fresh page costs
|* depends on the machine far more than on ompdp: on bare metal a page fault
|* is a fraction of a microsecond, on a VM whose faults leave the guest it
|* can be tens of times that. This prints, per 4 KiB page of a 16 MiB
|* region, the cost of
|*   - touching an anonymous mapping (one fault per page),
|*   - populating one (MAP_POPULATE: one call for all its pages),
|*   - touching a shared mapping of a tmpfs file whose space fallocate
|*     reserved (as rt/shm_linux.c maps a crash-log block),
|*   - populating that mapping (MAP_POPULATE),
|*   - MADV_POPULATE_WRITE on an anonymous mapping (as analysis/hmap.c
|*     populates a table's block), where the kernel has it,
|* each the median of 7 runs (the time includes writing one byte a page
|* after populating), so that results-host.md can say which of
|* them a change removed and what that is worth on the machine measured.
|*
|*   clang-19 -O2 -o faultbench benchmarks/faultbench/faultbench.c && ./faultbench [DIR]
|*
|* DIR: where the tmpfs file goes (default /dev/shm).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define BYTES (16u << 20)
#define RUNS 7

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void touch(volatile char *p) {
  for (size_t i = 0; i < BYTES; i += 4096)
    p[i] = 1;
}

/* One measurement of `how` (0..4, the rows of main's table, in order),
 * microseconds per page, the mapping's own call included; < 0 where it
 * cannot run. */
static double once(int how, int fd) {
  int shared = how == 2 || how == 3;
  int flags = shared ? MAP_SHARED : MAP_PRIVATE | MAP_ANONYMOUS;
  if (how == 1 || how == 3)
    flags |= MAP_POPULATE;
#ifndef MADV_POPULATE_WRITE
  if (how == 4)
    return -1;
#endif
  if (shared && (fd < 0 || ftruncate(fd, 0) || posix_fallocate(fd, 0, BYTES)))
    return -1;
  double t0 = now_us();
  char *p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, flags, shared ? fd : -1, 0);
  if (p == MAP_FAILED)
    return -1;
#ifdef MADV_POPULATE_WRITE
  if (how == 4 && madvise(p, BYTES, MADV_POPULATE_WRITE)) {
    munmap(p, BYTES);
    return -1;
  }
#endif
  touch(p);
  double t1 = now_us();
  munmap(p, BYTES);
  return (t1 - t0) / (BYTES / 4096);
}

int main(int argc, char **argv) {
  const char *dir = argc > 1 ? argv[1] : "/dev/shm";
  char path[4096];
  snprintf(path, sizeof(path), "%s/faultbench.%d", dir, (int)getpid());
  int fd = open(path, O_RDWR | O_CREAT | O_EXCL, 0600);
  if (fd >= 0)
    unlink(path);
  static const char *const names[] = {
      "anonymous, touched (a fault per page)",
      "anonymous, MAP_POPULATE",
      "tmpfs file, fallocate, touched (a fault per page)",
      "tmpfs file, fallocate, MAP_POPULATE",
      "anonymous, MADV_POPULATE_WRITE",
  };
  printf("| fresh memory, 16 MiB | us per 4 KiB page (median of %d) |\n|---|---:|\n", RUNS);
  for (int how = 0; how < 5; ++how) {
    double t[RUNS];
    int ok = 1;
    for (int r = 0; r < RUNS && ok; ++r)
      ok = (t[r] = once(how, fd)) >= 0;
    if (!ok) {
      printf("| %s | - |\n", names[how]);
      continue;
    }
    qsort(t, RUNS, sizeof(t[0]), cmp);
    printf("| %s | %.2f |\n", names[how], t[RUNS / 2]);
  }
  if (fd >= 0)
    close(fd);
  return 0;
}
