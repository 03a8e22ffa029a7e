/*===- hash.c - XXH3 hashing of transferred bytes -------------------*- C -*-===*\
|*
|* xxHash is included inline (XXH_INLINE_ALL), so the runtime has no link-time
|* dependency on libxxhash. The portable build uses SSE2 on x86-64; where the
|* CPU has AVX2 the variant compiled in hash_avx2.c is chosen once at start
|* for buffers long enough to use vectors (XXH3 hashes up to 240 bytes with
|* scalar code, called directly here: no indirect call for small buffers).
|*
|* Large buffers are hashed while they are copied (hash_helper: always,
|* never, or by default when the transfer runs alone, see below). Hashing
|* a buffer costs about as much as copying it once it no longer fits in
|* the cache, and on host offload a transfer is exactly such a copy, so
|* hashing after the copy would double the transfer. Instead the data-op
|* begin callback hands the buffer to a helper thread (ompdp_hash_start),
|* the OpenMP runtime copies it meanwhile, and the end callback, after
|* reading the clock, finishes the job with it (ompdp_hash_finish). Such
|* buffers are hashed in chunks (include/ompdp/content_hash.h), which the
|* helper and the end callback take one at a time from the same counter:
|* the value does not depend on who hashed which, and a helper slowed down
|* (a core shared with an OpenMP worker that spins between kernels) costs
|* the transfer at most the chunk it is on, not the rest of the buffer.
|* One helper, one job at a time: a begin that finds the helper busy
|* hashes inline, and an end that finds its job not yet started takes all
|* of it back, so a transfer never waits for the helper to be scheduled.
|* The helper spins briefly after a job (a loop's next transfer is usually
|* near) and then sleeps on a futex; it takes no lock and calls nothing of
|* OpenMP.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#include "cpu_features.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "ompdp/content_hash.h"

#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <time.h>
#include <string.h>
#include <unistd.h>

uint64_t ompdp_xxh3_avx2(const void *p, size_t n);
uint64_t ompdp_xxh3_avx512(const void *p, size_t n);

static uint64_t hash_portable(const void *p, size_t n) { return XXH3_64bits(p, n); }

static uint64_t (*hash_fn)(const void *, size_t) = hash_portable;
static const char *hash_name = "xxh3-portable";

/* Option hash_isa: the widest variant asked for that the CPU has. By
 * default AVX-512 only on AMD's CPUs (analysis/cpu_features.h says why). */
void ompdp_hash_init(void) {
  hash_fn = hash_portable;
  hash_name = "xxh3-portable";
#if defined(__x86_64__)
  const char *isa = ompdp_opts.hash_isa ? ompdp_opts.hash_isa : "auto";
#if defined(OMPDP_HAVE_AVX512_HASH)
  int wide = !strcmp(isa, "avx512") || (!strcmp(isa, "auto") && ompdp_cpu_is_amd());
  if (wide && ompdp_cpu_has_avx512()) {
    hash_fn = ompdp_xxh3_avx512;
    hash_name = "xxh3-avx512";
    return;
  }
#endif
#if defined(OMPDP_HAVE_AVX2_HASH)
  if (strcmp(isa, "portable") && ompdp_cpu_has_avx2()) {
    hash_fn = ompdp_xxh3_avx2;
    hash_name = "xxh3-avx2";
  }
#endif
  (void)isa;
#endif
}

/* Chunk i of p[0..n) (include/ompdp/content_hash.h). */
static uint64_t chunk_hash(const unsigned char *p, size_t n, size_t i) {
  return hash_fn(p + i * OMPDP_HASH_CHUNK, ompdp_hash_chunk_len(n, i));
}

typedef struct buffer {
  const unsigned char *p;
  size_t n;
} buffer_t;

static uint64_t buffer_chunk(const void *ctx, size_t i) {
  const buffer_t *b = ctx;
  return chunk_hash(b->p, b->n, i);
}

uint64_t ompdp_hash(const void *p, size_t n) {
  if (n <= 240)
    return XXH3_64bits(p, n); /* scalar in every variant */
  if (n < OMPDP_HASH_CHUNKED_MIN)
    return hash_fn(p, n);
  buffer_t b = {p, n};
  return ompdp_hash_chunked(n, buffer_chunk, &b);
}

const char *ompdp_hash_impl_name(void) { return hash_name; }

/*===- the helper ---------------------------------------------------------------===*/

enum { IDLE, CLAIMED, POSTED, RUNNING, DONE };

/* The job: p[0..n)'s chunks, claimed one at a time (next) by the helper
 * and, once its copy is over, by the transfer's own thread, into h. */
static struct {
  _Atomic uint32_t state; /* also the futex word */
  const unsigned char *p;
  size_t n, chunks;
  _Atomic size_t next;
  uint64_t *h;
  size_t cap; /* of h */
} job;

/* Hashes chunks of the job until none is left. */
static void work_on_job(void) {
  for (;;) {
    size_t i = atomic_fetch_add_explicit(&job.next, 1, memory_order_relaxed);
    if (i >= job.chunks)
      return;
    job.h[i] = chunk_hash(job.p, job.n, i);
  }
}

static atomic_int helper_state; /* 0 not started, 1 running, -1 could not start */
static pthread_mutex_t helper_start_lock = PTHREAD_MUTEX_INITIALIZER;

static void futex_wait(_Atomic uint32_t *w, uint32_t v) {
  syscall(SYS_futex, (uint32_t *)w, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}
static void futex_wake(_Atomic uint32_t *w) {
  syscall(SYS_futex, (uint32_t *)w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static inline void cpu_relax(void) {
#if defined(__x86_64__)
  __builtin_ia32_pause();
#endif
}

static uint64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#define HELPER_SPIN_NS 20000

static void *helper(void *arg) {
  (void)arg;
  for (;;) {
    uint64_t idle_since = now_ns();
    while (atomic_load_explicit(&job.state, memory_order_acquire) != POSTED) {
      if (now_ns() - idle_since < HELPER_SPIN_NS) {
        cpu_relax();
        continue;
      }
      uint32_t s = atomic_load_explicit(&job.state, memory_order_acquire);
      if (s != POSTED)
        futex_wait(&job.state, s);
    }
    uint32_t posted = POSTED;
    if (!atomic_compare_exchange_strong_explicit(&job.state, &posted, RUNNING,
                                                 memory_order_acquire, memory_order_relaxed))
      continue; /* taken back by its owner */
    work_on_job();
    atomic_store_explicit(&job.state, DONE, memory_order_release);
    futex_wake(&job.state);
  }
  return NULL;
}

static int start_helper(void) {
  int s = atomic_load_explicit(&helper_state, memory_order_acquire);
  if (s)
    return s;
  pthread_mutex_lock(&helper_start_lock);
  s = atomic_load_explicit(&helper_state, memory_order_relaxed);
  if (!s) {
    pthread_t t;
    pthread_attr_t attr;
    sigset_t all, old;
    /* The helper takes no signal of the program's. */
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    s = pthread_create(&t, &attr, helper, NULL) == 0 ? 1 : -1;
    pthread_attr_destroy(&attr);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    atomic_store_explicit(&helper_state, s, memory_order_release);
  }
  pthread_mutex_unlock(&helper_start_lock);
  return s;
}

/* A forked child has no helper: it starts its own when it needs one. */
static void after_fork_child(void) {
  atomic_store(&helper_state, 0);
  atomic_store(&job.state, IDLE);
  pthread_mutex_init(&helper_start_lock, NULL);
}

__attribute__((constructor)) static void register_fork_handler(void) {
  pthread_atfork(NULL, NULL, after_fork_child);
}

/*===- choosing: hash_helper=2 (auto) ------------------------------------------===*/

/* hash_helper=2 (auto, the default): a transfer of AUTO_MIN bytes or more
 * goes to the helper when the process may run on two CPUs or more and the
 * transfer runs alone: no other large transfer in flight and no construct
 * on another thread, whose copies and kernels the helper would take CPU
 * from (on threads_nowait, four threads on two cores, the helper cost
 * 1.54x plain against 1.44x inline); and no kernel of host offload running
 * or ended within OMPDP_HOST_KERNEL_NS, whose threads are on the cores the
 * helper would take (lu and patterns 1 Mi, whose kernels come between
 * their transfers, were faster inline, transfer_torture, with none, on the
 * helper: results-host.md, "Issue 30, nineteenth session"). The others are
 * hashed inline. On the 2-core machine of benchmarks/results-host.md that
 * is 1.04-1.14x plain against 1.27-1.48x inline for the programs whose
 * transfers run one at a time; on an earlier 2-core AMD machine the helper
 * bought nothing there (docs/runtime.md, Hashing). Choosing the way by
 * timing the run's own transfers was tried, per transfer and in
 * alternating epochs, and dropped: both chose inline on programs that ran
 * 1.1x plain with the helper and 1.4x inline, since a transfer's cost
 * depends on the way of those long before it (a helper that slept, a CPU
 * the hypervisor descheduled). */
static _Atomic int in_flight;
static int cpus = -1;
static _Atomic unsigned long long alone_count, shared_count, kernel_count;

/* Whether this thread has a transfer between its begin and end callbacks
 * that counts in in_flight. */
static _Thread_local int ticket __attribute__((tls_model("initial-exec")));

/* Auto mode: below this, inline. A buffer that fits in the caches is
 * hashed inline faster than a sleeping helper wakes up: patterns at 256
 * KiB, 512 KiB and 1 MiB per array took 1.14, 1.15 and 1.18x plain inline
 * against 1.27, 1.32 and 1.22x on the helper; at 2 MiB 1.22 against 1.12,
 * and lu's 4.6 MB 1.5 against 1.1. */
#define AUTO_MIN ((size_t)2 << 20)

/* Whether this transfer of n bytes should go to the helper. */
static int want_helper(size_t n) {
  int mode = ompdp_opts.hash_helper;
  if (mode != 2)
    return mode == 1;
  if (n < AUTO_MIN)
    return 0;
  if (cpus < 0) {
    cpu_set_t set;
    int c = sched_getaffinity(0, sizeof(set), &set) == 0 ? CPU_COUNT(&set) : 1;
    __atomic_store_n(&cpus, c, __ATOMIC_RELAXED);
  }
  if (__atomic_load_n(&cpus, __ATOMIC_RELAXED) < 2)
    return 0; /* no second core to hash on */
  ticket = 1;
  int alone = atomic_fetch_add_explicit(&in_flight, 1, memory_order_relaxed) == 0 &&
              !ompdp_constructs_elsewhere();
  /* Host offload whose kernels come between its transfers: the kernels'
   * threads are on the cores the helper would take (libomp's workers spin
   * for its blocktime after each one), and hashing inline was faster. */
  int after_kernel = alone && ompdp_host_kernel_recent();
  atomic_fetch_add_explicit(after_kernel ? &kernel_count : alone ? &alone_count : &shared_count,
                            1, memory_order_relaxed);
  return alone && !after_kernel;
}

void ompdp_hash_say_choice(FILE *out) {
  unsigned long long a = atomic_load(&alone_count), b = atomic_load(&shared_count),
                     k = atomic_load(&kernel_count);
  if (ompdp_opts.hash_helper == 2 && (a || b || k))
    fprintf(out,
            "ompdp: hash_helper=2: %llu large transfers ran alone (hashed on the helper while "
            "it was free), %llu beside others (hashed inline), %llu within 200 ms of a kernel "
            "on host cores (hashed inline)\n",
            a, b, k);
}

void ompdp_hash_done(void) {
  if (!ticket)
    return;
  ticket = 0;
  atomic_fetch_sub_explicit(&in_flight, 1, memory_order_relaxed);
}

int ompdp_hash_start(const void *p, size_t n) {
  if (n < OMPDP_HASH_ASYNC_MIN || !want_helper(n) || start_helper() != 1)
    return 0;
  uint32_t idle = IDLE;
  if (!atomic_compare_exchange_strong_explicit(&job.state, &idle, CLAIMED, memory_order_acquire,
                                               memory_order_relaxed))
    return 0; /* busy with another thread's buffer */
  /* Published by the release store of POSTED, which the helper acquires. */
  size_t chunks = ompdp_hash_chunks(n);
  if (chunks > job.cap) {
    uint64_t *h = realloc(job.h, chunks * sizeof(*h));
    if (!h) {
      atomic_store_explicit(&job.state, IDLE, memory_order_release);
      return 0; /* hashed inline */
    }
    job.h = h;
    job.cap = chunks;
  }
  job.p = p;
  job.n = n;
  job.chunks = chunks;
  atomic_store_explicit(&job.next, 0, memory_order_relaxed);
  atomic_store_explicit(&job.state, POSTED, memory_order_release);
  futex_wake(&job.state);
  return 1;
}

uint64_t ompdp_hash_finish(void) {
  uint32_t posted = POSTED;
  if (atomic_compare_exchange_strong_explicit(&job.state, &posted, CLAIMED,
                                              memory_order_acquire, memory_order_relaxed)) {
    work_on_job(); /* the helper never started it */
  } else {
    /* The chunks the helper has not reached, then its last one. */
    work_on_job();
    for (int spins = 0; atomic_load_explicit(&job.state, memory_order_acquire) != DONE; ++spins) {
      if (spins < 4096) {
        cpu_relax();
        continue;
      }
      uint32_t s = atomic_load_explicit(&job.state, memory_order_acquire);
      if (s != DONE)
        futex_wait(&job.state, s);
    }
  }
  uint64_t h = ompdp_hash_combine(job.h, job.n);
  atomic_store_explicit(&job.state, IDLE, memory_order_release);
  return h;
}
