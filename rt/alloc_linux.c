/*===- alloc_linux.c - the runtime's own allocations, counted ---*- C -*-===*\
|*
|* The runtime is linked with -Wl,--wrap for the allocating calls it makes
|* (rt/CMakeLists.txt), so that its own calls, and only those (not the
|* program's, libomp's or libdw's), come through here. An allocation that
|* fails is counted, and the report says how many did and that what needed
|* them is missing (the crash log carries the count, for a report that
|* `ompdp run` rebuilds). For tests, test_fail_alloc=N makes the N-th
|* allocation after the options are read fail, and test_fail_alloc_count-1
|* after it (0: all), as if memory had run out there: the program must not
|* notice, and ompdp must say what it lost.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#include "shm.h"
#include "tool.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void *__real_aligned_alloc(size_t align, size_t n);
char *__real_strdup(const char *s);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off);
FILE *__real_fdopen(int fd, const char *mode);
FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_open_memstream(char **buf, size_t *len);

static _Atomic uint64_t calls, failures;
static uint64_t fail_from, fail_until; /* [from, until); until 0: no end */

void ompdp_alloc_arm(int from, int count) {
  atomic_store(&calls, 0);
  fail_from = from > 0 ? (uint64_t)from : 0;
  fail_until = fail_from && count > 0 ? fail_from + (uint64_t)count : 0;
}

uint64_t ompdp_alloc_calls(void) { return atomic_load_explicit(&calls, memory_order_relaxed); }
uint64_t ompdp_alloc_failures(void) {
  return atomic_load_explicit(&failures, memory_order_relaxed);
}

static void failed(void) {
  atomic_fetch_add_explicit(&failures, 1, memory_order_relaxed);
  ompdp_shm_note_alloc_failure();
}

/* 1 when this allocation is to fail (counted as a failure). */
static int refuse(void) {
  uint64_t n = atomic_fetch_add_explicit(&calls, 1, memory_order_relaxed) + 1;
  if (__builtin_expect(!fail_from, 1) || n < fail_from || (fail_until && n >= fail_until))
    return 0;
  failed();
  errno = ENOMEM;
  return 1;
}

/* A NULL from a stream call is a lack of memory only with ENOMEM (fopen
 * of a file that is not there is not). */
#define CHECKED(type, call)                                                                    \
  do {                                                                                         \
    if (refuse())                                                                              \
      return NULL;                                                                             \
    type r_ = call;                                                                            \
    if (!r_ && errno == ENOMEM)                                                                \
      failed();                                                                                \
    return r_;                                                                                 \
  } while (0)

void *__wrap_malloc(size_t n) { CHECKED(void *, __real_malloc(n)); }
void *__wrap_calloc(size_t n, size_t size) { CHECKED(void *, __real_calloc(n, size)); }
void *__wrap_aligned_alloc(size_t align, size_t n) {
  CHECKED(void *, __real_aligned_alloc(align, n));
}
char *__wrap_strdup(const char *s) { CHECKED(char *, __real_strdup(s)); }
FILE *__wrap_fdopen(int fd, const char *mode) { CHECKED(FILE *, __real_fdopen(fd, mode)); }
FILE *__wrap_fopen(const char *path, const char *mode) {
  CHECKED(FILE *, __real_fopen(path, mode));
}
FILE *__wrap_open_memstream(char **buf, size_t *len) {
  CHECKED(FILE *, __real_open_memstream(buf, len));
}

void *__wrap_realloc(void *p, size_t n) {
  if (refuse())
    return NULL; /* p stays the caller's, as when realloc fails */
  void *r = __real_realloc(p, n);
  if (!r && n)
    failed();
  return r;
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
  /* Only new memory counts: a mapping over a given address (a forked
   * child's copy of the crash log) is not an allocation. */
  if (!(flags & MAP_FIXED) && refuse())
    return MAP_FAILED;
  void *r = __real_mmap(addr, len, prot, flags, fd, off);
  if (r == MAP_FAILED && errno == ENOMEM)
    failed();
  return r;
}
