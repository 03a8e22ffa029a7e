/*===- floortool.c - the least an exact tool does per event --------*- C -*-===*\
|*
|* The benchmark suite's "floor tool": an OMPT tool that registers the
|* callbacks ompdp registers (as benchmarks/nulltool does) and does, on the
|* program's thread, only what any tool that reports exact duplicate and
|* round-trip transfers with their times must do for each event:
|*   - read the clock when an operation or a kernel launch begins and
|*     ends (a construct's own begin and end only where the runtime does
|*     not deliver target_submit_emi and a `target` construct stands for
|*     its kernel, as in ompdp, rt/callbacks.c: every other construct is
|*     timed by its operations and kernels);
|*   - hash every transferred byte (XXH3-64, as ompdp) when a copy ends;
|*   - store what it saw: a 40-byte record (begin, end, hash, the addresses
|*     and size folded into a key) in a per-thread buffer.
|* It keeps nothing beyond a 1 MiB buffer per thread, which it reuses (a
|* real tool also hands full buffers to an analysis: not counted here),
|* interns nothing, analyses nothing and writes no report. Loaded with
|*
|*   OMP_TOOL=enabled OMP_TOOL_LIBRARIES=.../libfloortool.so ./prog
|*
|* its distance from the null tool is the floor of the per-event goal
|* (benchmarks/run.py, "per event: the floor"): a tool that stays exact
|* cannot cost less than this on the program's thread.
|*
|* That floor reads the TSC whatever the machine. Three variants, built
|* with their macro, add what a tool that can be trusted on any machine pays:
|*   - FLOOR_KERNEL_CLOCK: the clock as ompdp reads it (rt/time_linux.c):
|*     rdtsc only where the kernel's clocksource is the TSC, else
|*     clock_gettime(CLOCK_MONOTONIC). On a VM whose kernel distrusts the
|*     TSC that is a vDSO call of 20-30 ns, at every begin and end.
|*   - FLOOR_CONSUMER (with the kernel's clock): the records handed to an
|*     analysis on a thread beside the program, as ompdp's stream mode
|*     does: two buffers a thread, the full one passed to a consumer thread
|*     (started when the first buffer fills) that reads every record of
|*     the last one handed over (one it had no time for is skipped, which
|*     can only lower the floor). The consumer analyses nothing; what this
|*     adds is what having a second thread costs the program's: glibc's
|*     locks and malloc leave their single-thread fast paths once a process
|*     has made a thread, for the OpenMP runtime's every lock too, and the
|*     records' cache lines move to another core.
|*   - FLOOR_FILE (with the two above): every record kept where it outlives
|*     the process, as `ompdp run`'s crash log keeps them (rt/shm_linux.c):
|*     the two buffers are 128 KiB blocks of a file in /dev/shm, reserved
|*     (fallocate) and mapped populated once; the consumer reads the full
|*     block it is handed and copies it to the end of the file (pwrite),
|*     after which the program's thread fills it again. (Until the
|*     twenty-fourth session each block was a fresh one, mapped on the
|*     program's thread and never reused, as ompdp did then: on a VM
|*     whose page mappings leave the guest, 11-17 us a page.) The record is
|*     24 bytes here, as ompdp's (begin, hash, the duration and the key in
|*     32 bits each), so that the bytes written per event are ompdp's; the
|*     file is unlinked as soon as it is made, and its pages go at exit.
|*
|* Built by benchmarks/run.py as a shared library; depends on omp-tools.h
|* and xxhash.h (inline).
|*
\*===----------------------------------------------------------------------===*/
#define XXH_INLINE_ALL
#include <omp-tools.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif
#include <time.h>
#if defined(FLOOR_FILE)
#define FLOOR_CONSUMER 1
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#endif
#if defined(FLOOR_CONSUMER)
#define FLOOR_KERNEL_CLOCK 1
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif
#if defined(FLOOR_KERNEL_CLOCK)
#include <stdio.h>
#include <string.h>
#endif

#if defined(FLOOR_FILE)
typedef struct rec {
  uint64_t begin, hash;
  uint32_t dur, key;
} rec_t;
#define BLOCK_BYTES (128u << 10) /* pages: it is mapped at its offset in the file */
#define REC_MAX (BLOCK_BYTES / sizeof(rec_t))
#define MAKE_REC(begin, end, hash, key, kind, device)                                      \
  ((rec_t){(begin), (hash), (uint32_t)((end) - (begin)),                                   \
           (uint32_t)((key) ^ (key) >> 32 ^ (kind) ^ (uint64_t)(device) << 8)})
#else
typedef struct rec {
  uint64_t begin, end, hash, key;
  uint32_t kind, device;
} rec_t;
#define REC_MAX ((1u << 20) / sizeof(rec_t))
#define MAKE_REC(begin, end, hash, key, kind, device)                                      \
  ((rec_t){(begin), (end), (hash), (key), (kind), (device)})
#endif

static _Thread_local rec_t *buf __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t pos __attribute__((tls_model("initial-exec")));
#if defined(FLOOR_CONSUMER)
static _Thread_local rec_t *other __attribute__((tls_model("initial-exec")));
#endif
/* The records must be observable, or the compiler could drop them. */
volatile uint64_t floortool_records;

#if defined(FLOOR_KERNEL_CLOCK)
static int use_tsc;

/* As rt/time_linux.c decides, once, when the tool is loaded. */
__attribute__((constructor)) static void pick_clock(void) {
  FILE *f = fopen("/sys/devices/system/clocksource/clocksource0/current_clocksource", "re");
  char cs[32] = {0};
  if (f) {
    use_tsc = fgets(cs, sizeof(cs), f) && !strncmp(cs, "tsc", 3) && (cs[3] == '\n' || !cs[3]);
    fclose(f);
  }
}
#endif

static inline uint64_t now(void) {
#if defined(__x86_64__)
#if defined(FLOOR_KERNEL_CLOCK)
  if (use_tsc)
#endif
    return __rdtsc();
#endif
#if !defined(__x86_64__) || defined(FLOOR_KERNEL_CLOCK)
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

#if defined(FLOOR_FILE)
static void copy_to_end(const rec_t *block);
#endif

#if defined(FLOOR_CONSUMER)
/* The last full buffer and how many were handed over; the consumer sleeps
 * on the count. */
static _Atomic(rec_t *) handed;
static _Atomic uint32_t handed_count;
static atomic_int consumer_started;
volatile uint64_t floortool_read;

static void *consume(void *arg) {
  (void)arg;
  uint32_t seen = 0;
  for (;;) {
    uint32_t n = atomic_load_explicit(&handed_count, memory_order_acquire);
    if (n == seen) {
      syscall(SYS_futex, (uint32_t *)&handed_count, FUTEX_WAIT_PRIVATE, n, NULL, NULL, 0);
      continue;
    }
    seen = n;
    const rec_t *b = atomic_load_explicit(&handed, memory_order_acquire);
    uint64_t sum = 0;
    for (uint32_t i = 0; b && i < REC_MAX; ++i)
      sum += b[i].hash ^ b[i].key ^ b[i].begin;
    floortool_read += sum;
#if defined(FLOOR_FILE)
    if (b)
      copy_to_end(b);
#endif
  }
  return NULL;
}

static void hand_over(rec_t *full) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&consumer_started, &expected, 1)) {
    pthread_t t;
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, &old);
    if (pthread_create(&t, NULL, consume, NULL) == 0)
      pthread_detach(t);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
  }
  atomic_store_explicit(&handed, full, memory_order_release);
  atomic_fetch_add_explicit(&handed_count, 1, memory_order_release);
  syscall(SYS_futex, (uint32_t *)&handed_count, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}
#endif

#if defined(FLOOR_FILE)
static int file_fd = -1;
static pthread_once_t file_once = PTHREAD_ONCE_INIT;
static _Atomic uint64_t file_end;

/* In /dev/shm, as `ompdp run`'s run directory, else in the temporary
 * directory. A floor that kept nothing would be no floor: no file is an
 * error that ends the program (run.py then says which side failed). */
static void open_file(void) {
  const char *tmp = getenv("TMPDIR");
  const char *dirs[] = {"/dev/shm", tmp && *tmp ? tmp : "/tmp", "/tmp"};
  char path[4096];
  for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && file_fd < 0; ++i) {
    snprintf(path, sizeof(path), "%s/ompdp-floor.%ld", dirs[i], (long)getpid());
    file_fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  }
  if (file_fd < 0) {
    fprintf(stderr, "floortool: cannot make its file (%s): %s\n", path, strerror(errno));
    _exit(1);
  }
  unlink(path);
}

/* The next block of the file: reserved, then mapped with its pages. */
static rec_t *file_block(void) {
  pthread_once(&file_once, open_file); /* it exits when it cannot */
  const size_t size = BLOCK_BYTES;
  uint64_t off = atomic_fetch_add(&file_end, size);
  if (posix_fallocate(file_fd, (off_t)off, (off_t)size))
    return NULL;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, file_fd,
                 (off_t)off);
  return p == MAP_FAILED ? NULL : p;
}

/* A block the consumer has read, kept at the end of the file. */
static void copy_to_end(const rec_t *block) {
  uint64_t off = atomic_fetch_add(&file_end, BLOCK_BYTES);
  for (size_t done = 0; done < BLOCK_BYTES;) {
    ssize_t n = pwrite(file_fd, (const char *)block + done, BLOCK_BYTES - done,
                       (off_t)(off + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return; /* no room: kept nothing more, as ompdp then does */
    done += (size_t)n;
  }
}
#endif

static void store(uint64_t begin, uint64_t end, uint64_t hash, uint64_t key, uint32_t kind,
                  uint32_t device) {
  if (__builtin_expect(!buf, 0)) {
#if defined(FLOOR_FILE)
    buf = file_block(); /* two blocks, one handed over and copied */
    other = buf ? file_block() : NULL;
    if (!other)
      buf = NULL;
#elif defined(FLOOR_CONSUMER)
    buf = malloc(2 * REC_MAX * sizeof(rec_t)); /* two buffers, one handed over */
    other = buf ? buf + REC_MAX : NULL;
#else
    buf = malloc(REC_MAX * sizeof(rec_t));
#endif
    if (!buf)
      return;
  }
  buf[pos] = MAKE_REC(begin, end, hash, key, kind, device);
  if (++pos == REC_MAX) {
    pos = 0;
    floortool_records += REC_MAX;
#if defined(FLOOR_CONSUMER)
    /* The buffer just filled goes to the consumer; the thread goes on in
     * the other (at the other's end the two swap back). */
    rec_t *full = buf;
    buf = other;
    other = full;
    hand_over(full);
#endif
  }
}

static int tool_have_submit; /* ../nulltool/tool_start.h */

static void cb_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra) {
  (void)task_data, (void)target_task_data;
  if (tool_have_submit || (kind != ompt_target && kind != ompt_target_nowait))
    return;
  if (endpoint == ompt_scope_begin)
    target_data->value = now();
  else
    store(target_data->value, now(), 0, (uint64_t)(uintptr_t)codeptr_ra, (uint32_t)kind,
          (uint32_t)device_num);
}

static void cb_target_data_op_emi(ompt_scope_endpoint_t endpoint,
                                  ompt_data_t *target_task_data, ompt_data_t *target_data,
                                  ompt_id_t *host_op_id, ompt_target_data_op_t optype,
                                  void *src_addr, int src_device_num, void *dest_addr,
                                  int dest_device_num, size_t bytes, const void *codeptr_ra) {
  (void)target_task_data, (void)target_data;
  /* The begin time rides in the operation's id, which the EMI interface
   * hands back at its end. */
  if (endpoint == ompt_scope_begin) {
    *host_op_id = now();
    return;
  }
  uint64_t end = now(), hash = 0;
  /* The host's copy of the bytes, once the copy is done. */
  if (optype == ompt_target_data_transfer_to_device ||
      optype == ompt_target_data_transfer_to_device_async)
    hash = XXH3_64bits(src_addr, bytes);
  else if (optype == ompt_target_data_transfer_from_device ||
           optype == ompt_target_data_transfer_from_device_async)
    hash = XXH3_64bits(dest_addr, bytes);
  uint64_t key = (uint64_t)(uintptr_t)src_addr ^ ((uint64_t)(uintptr_t)dest_addr << 1) ^
                 ((uint64_t)bytes << 7) ^ (uint64_t)(uintptr_t)codeptr_ra;
  store(*host_op_id, end, hash, key, (uint32_t)optype,
        (uint32_t)src_device_num << 16 | (uint32_t)dest_device_num);
}

static void cb_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                 ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  (void)target_data;
  if (endpoint == ompt_scope_begin)
    *host_op_id = now();
  else
    store(*host_op_id, now(), 0, 0, 100, requested_num_teams);
}

static void cb_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation) {
  (void)device_num, (void)type, (void)device, (void)lookup, (void)documentation;
}

static void finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  floortool_records += pos;
}

#include "../nulltool/tool_start.h"
