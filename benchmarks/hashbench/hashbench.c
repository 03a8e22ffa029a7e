/*===- hashbench.c - XXH3 throughput against memcpy per size --------*- C -*-===*\
|*
|* ompdp hashes every transferred buffer with XXH3_64bits. On host offload a
|* transfer is a memcpy, so hashing is cheap enough only if it runs at least at
|* memcpy speed for every size. For each power of four from 8 B up to the size
|* argument (bytes, default 256 MiB) this prints one line
|*   size=<bytes> hash_gbps=<GB/s> memcpy_gbps=<GB/s>
|* Both go through a call that the compiler cannot inline or elide (as in the
|* runtime, where the hash is reached through a dispatch and the copy through
|* libomptarget), and each is timed by doubling the repetitions until a run
|* lasts long enough, best of three. Built with -O2 and the flags of the
|* variant the runtime picks by default on the CPU (run.py: -O3 -mavx512f
|* -mavx512dq on an AMD CPU with AVX-512, else -mavx2 where the CPU has it).
|*
|* A third number, read_gbps, is the floor of any hash: reading the bytes
|* once and doing nothing else with them (the XOR of every 8-byte word,
|* which the compiler vectorises). No function of every byte, exact or not,
|* can read them faster on one thread, so hash_gbps against read_gbps is
|* what a faster hash function could still buy.
|*
|* With its hash_helper option, the runtime hashes buffers from 256 KiB on a
|* helper thread while the OpenMP runtime copies them (rt/hash.c). For those
|* sizes a third number, overlap_gbps, is the throughput of exactly that:
|* the copy on this thread
|* while a second thread hashes the same source, both finished (handed over
|* by spinning, as the runtime's helper does between close transfers; a job
|* the helper has not started when the copy ends is hashed by the copying
|* thread, as in the runtime).
|*
\*===----------------------------------------------------------------------===*/
#define XXH_INLINE_ALL
#include <xxhash.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

__attribute__((noinline)) static uint64_t do_hash(const void *p, size_t n) {
  return XXH3_64bits(p, n);
}

/* The XOR of the buffer's 8-byte words (a tail shorter than 8 is skipped):
 * every byte read once, the least work a function of all of them does. */
__attribute__((noinline)) static uint64_t do_read(const void *p, size_t n) {
  const unsigned char *b = p;
  uint64_t acc = 0;
  for (size_t i = 0; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, b + i, 8);
    acc ^= w;
  }
  return acc;
}

/* Through a volatile pointer so the copy stays a real libc memcpy call. */
static void *(*volatile copy_fn)(void *, const void *, size_t) = memcpy;

static volatile uint64_t sink;

/* Best GB/s of three timings, each long enough (min_s) to be trusted. */
enum { COPY, HASH, READ };

static double measure(int what, char *dst, const char *src, size_t n,
                      double min_s) {
  double best = 0;
  for (int trial = 0; trial < 3; trial++) {
    long reps = 1;
    for (;;) {
      uint64_t acc = 0;
      double t0 = now();
      for (long r = 0; r < reps; r++) {
        if (what == HASH)
          acc += do_hash(src, n);
        else if (what == READ)
          acc += do_read(src, n);
        else
          copy_fn(dst, src, n);
        __asm__ volatile("" ::: "memory");
      }
      double dt = now() - t0;
      sink = acc;
      if (dt >= min_s) {
        double gbps = (double)n * reps / dt / 1e9;
        if (gbps > best)
          best = gbps;
        break;
      }
      reps *= 2;
    }
  }
  return best;
}

#define OVERLAP_MIN (256u << 10)

/* The helper: takes job number job_seq (by moving taken_seq to it) and
 * hashes job_p[0..job_n), as the runtime's helper does; the copying thread
 * takes a job back that the helper has not started. */
static const char *job_p;
static size_t job_n;
static _Atomic long job_seq, taken_seq, done_seq;
static _Atomic int stop;

static void *helper(void *arg) {
  (void)arg;
  while (!atomic_load(&stop)) {
    long s = atomic_load_explicit(&job_seq, memory_order_acquire);
    long t = atomic_load_explicit(&taken_seq, memory_order_acquire);
    if (s == t || !atomic_compare_exchange_strong(&taken_seq, &t, s)) {
      __builtin_ia32_pause();
      continue;
    }
    sink = do_hash(job_p, job_n);
    atomic_store_explicit(&done_seq, s, memory_order_release);
  }
  return NULL;
}

/* Copy here while the helper hashes the source; best GB/s of three. */
static double measure_overlap(char *dst, const char *src, size_t n, double min_s) {
  double best = 0;
  job_p = src;
  job_n = n;
  for (int trial = 0; trial < 3; trial++) {
    long reps = 1;
    for (;;) {
      double t0 = now();
      for (long r = 0; r < reps; r++) {
        long s = atomic_fetch_add_explicit(&job_seq, 1, memory_order_release) + 1;
        copy_fn(dst, src, n);
        long t = s - 1;
        if (atomic_compare_exchange_strong(&taken_seq, &t, s)) {
          sink = do_hash(src, n); /* not started: hash here */
          atomic_store_explicit(&done_seq, s, memory_order_release);
        }
        while (atomic_load_explicit(&done_seq, memory_order_acquire) != s)
          __builtin_ia32_pause();
      }
      double dt = now() - t0;
      if (dt >= min_s) {
        double gbps = (double)n * reps / dt / 1e9;
        if (gbps > best)
          best = gbps;
        break;
      }
      reps *= 2;
    }
  }
  return best;
}

int main(int argc, char **argv) {
  size_t max = argc > 1 ? strtoull(argv[1], NULL, 10) : (size_t)256 << 20;
  double min_s = argc > 2 ? atof(argv[2]) : 0.05;
  if (max < 8)
    max = 8;
  char *src = malloc(max), *dst = malloc(max);
  if (!src || !dst)
    return 1;
  for (size_t i = 0; i < max; i++)
    src[i] = (char)(i * 131 + 7);
  memset(dst, 0, max);
  for (size_t n = 8;; n *= 4) {
    if (n > max)
      n = max;
    double h = measure(HASH, dst, src, n, min_s);
    double m = measure(COPY, dst, src, n, min_s);
    double rd = measure(READ, dst, src, n, min_s);
    printf("size=%zu hash_gbps=%.3f memcpy_gbps=%.3f read_gbps=%.3f", n, h, m,
           rd);
    /* The helper spins while it waits, taking a core: it runs only while
     * the overlap is measured, not during the other measurements. */
    pthread_t t;
    atomic_store(&stop, 0);
    if (n >= OVERLAP_MIN && pthread_create(&t, NULL, helper, NULL) == 0) {
      printf(" overlap_gbps=%.3f", measure_overlap(dst, src, n, min_s));
      atomic_store(&stop, 1);
      pthread_join(t, NULL);
    }
    printf("\n");
    fflush(stdout);
    if (n == max)
      break;
  }
  free(src);
  free(dst);
  return 0;
}
