/*===- boundary.c - one offload pattern per command line, sized exactly ---===*\
|*
|* The tests of lit-tests/boundaries/ run this program with the size (bytes)
|* and the count that a detection's threshold is about, at the threshold and
|* one step below it. Each pattern does only what its detection needs, so
|* that the report's summary line names exactly one finding, or none:
|*
|*   zero N [one]       N zero bytes to the device once (one: the last is 1)
|*   single N [one]     N bytes 0xab to the device once (one: the last is 0xac)
|*   dup N K [other]    the same N bytes to the device K times, a kernel
|*                      after each (other: the last time, the last byte
|*                      differs), into one allocation
|*   trip N [change]    N bytes to the device and back (change: the kernel
|*                      changes the last one)
|*   alloc N M          one host buffer allocated on the device with N bytes
|*                      and freed, then with M bytes (M = 0: not again), a
|*                      kernel using each allocation
|*   overwrite N M      N bytes to the device, then the first M of them
|*                      again, changed, before any kernel; then a kernel
|*   unused N [kernel]  N bytes allocated on the device and freed with no
|*                      kernel between (kernel: one kernel between)
|*   early N M          N bytes allocated on the device, then M bytes more
|*                      (the peak) freed again with no kernel (an unused
|*                      allocation), then the N bytes are first used (a
|*                      target update, a kernel) and freed: allocated at its
|*                      first use, the peak would be min(N, M) lower
|*   late N M           N bytes on the device, used by a kernel, then M bytes
|*                      more allocated and freed with no kernel (the peak, an
|*                      unused allocation), then the N bytes freed: released
|*                      after their last use, the peak would be min(N, M)
|*                      lower
|*
|* The bytes are never zero except for `zero`, and never one value repeated
|* except for `single`. Prints what the kernels saw.
|*
\*===----------------------------------------------------------------------===*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static size_t arg(char **argv, int i) { return argv[i] ? strtoul(argv[i], NULL, 0) : 0; }

static void fill(unsigned char *a, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; ++i)
    a[i] = (unsigned char)(1 + (i * 7 + seed) % 251);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: boundary zero|single|dup|trip|alloc|overwrite|unused N ...\n");
    return 2;
  }
  const char *what = argv[1];
  size_t n = arg(argv, 2), m = argc > 3 ? arg(argv, 3) : 0;
  const char *flag = argc > 3 ? argv[argc - 1] : "";
  size_t cap = (n > m ? n : m) + 1;
  unsigned char *a = malloc(cap);
  if (!a)
    return 1;
  unsigned long seen = 0;
  if (!strcmp(what, "zero")) {
    memset(a, 0, cap);
    if (!strcmp(flag, "one"))
      a[n - 1] = 1;
#pragma omp target map(to : a[0:n]) map(tofrom : seen)
    seen = a[n - 1] + 1;
  } else if (!strcmp(what, "single")) {
    memset(a, 0xab, cap);
    if (!strcmp(flag, "one"))
      a[n - 1] = 0xac;
#pragma omp target map(to : a[0:n]) map(tofrom : seen)
    seen = a[n - 1] + 1;
  } else if (!strcmp(what, "dup")) {
    fill(a, n, 0);
#pragma omp target enter data map(alloc : a[0:n])
    for (size_t k = 0; k < m; ++k) {
      if (k + 1 == m && k > 0 && !strcmp(flag, "other"))
        a[n - 1] ^= 0x80;
#pragma omp target update to(a[0:n])
#pragma omp target map(alloc : a[0:n])
      a[0] = a[n - 1];
    }
#pragma omp target exit data map(delete : a[0:n])
    seen = a[0];
  } else if (!strcmp(what, "trip")) {
    fill(a, n, 1);
    int change = !strcmp(flag, "change");
#pragma omp target map(tofrom : a[0:n])
    if (change)
      a[n - 1] ^= 0x80;
    seen = a[n - 1];
  } else if (!strcmp(what, "alloc")) {
    fill(a, cap, 2);
#pragma omp target enter data map(alloc : a[0:n])
#pragma omp target map(alloc : a[0:n])
    a[0] = 3;
#pragma omp target exit data map(delete : a[0:n])
    if (m) {
#pragma omp target enter data map(alloc : a[0:m])
#pragma omp target map(alloc : a[0:m])
      a[0] = 4;
#pragma omp target exit data map(delete : a[0:m])
    }
    seen = a[0];
  } else if (!strcmp(what, "overwrite")) {
    fill(a, n, 3);
#pragma omp target enter data map(to : a[0:n])
    fill(a, m, 4);
#pragma omp target update to(a[0:m])
#pragma omp target map(alloc : a[0:n])
    a[0] = a[n - 1];
#pragma omp target exit data map(from : a[0:1])
    seen = a[0];
  } else if (!strcmp(what, "unused")) {
    fill(a, n, 5);
#pragma omp target enter data map(alloc : a[0:n])
    if (!strcmp(flag, "kernel")) {
#pragma omp target map(alloc : a[0:n])
      a[0] = 6;
    }
#pragma omp target exit data map(delete : a[0:n])
    seen = 1;
  } else if (!strcmp(what, "early") || !strcmp(what, "late")) {
    unsigned char *b = malloc(m + 1);
    if (!b)
      return 1;
    fill(a, n, 7);
    fill(b, m, 8);
    int early = !strcmp(what, "early");
#pragma omp target enter data map(alloc : a[0:n])
    if (!early) {
#pragma omp target update to(a[0:n])
#pragma omp target map(alloc : a[0:n]) map(tofrom : seen)
      seen = a[n - 1];
    }
#pragma omp target enter data map(alloc : b[0:m])
#pragma omp target exit data map(delete : b[0:m])
    if (early) {
#pragma omp target update to(a[0:n])
#pragma omp target map(alloc : a[0:n]) map(tofrom : seen)
      seen = a[n - 1];
    }
#pragma omp target exit data map(delete : a[0:n])
    free(b);
  } else {
    fprintf(stderr, "boundary: unknown pattern '%s'\n", what);
    return 2;
  }
  printf("%s: seen %lu\n", what, seen);
  free(a);
  return 0;
}
