/*===- logbench.c - the event log and the analysis, without OpenMP --*- C -*-===*\
|*
|* Drives the runtime's own code (libompdp-rt-core: operation table, event
|* log, engine) the way the callbacks do, so that what ompdp costs per event
|* can be measured apart from what the OpenMP runtime costs:
|*
|*   logbench log N T      T threads each log N/T data ops as the data-op
|*                         callbacks do (intern the operation, hash 8 bytes,
|*                         begin and complete a record); prints events/s.
|*   logbench callbacks N T  T threads each make N/T `target update`s worth
|*                         of calls into the real OMPT callbacks (target
|*                         begin, data op begin and end, target end), 8-byte
|*                         transfers alternately to and from device 0; this
|*                         is the tool's whole per-event cost without the
|*                         OpenMP runtime's (built with rt/callbacks.c and
|*                         its dependencies; see run.py).
|*   logbench analyze N    logs N events of the small_events pattern (8-byte
|*                         updates to and from one device, every value new),
|*                         then times the analysis of the whole log (as at
|*                         exit in full mode); prints seconds and the peak
|*                         memory per event.
|*   logbench stream N CAP the same N events analysed while they are logged
|*                         (stream mode, content tables capped at CAP MiB);
|*                         prints the peak RSS.
|*
|*   logbench handover N WORK MODE
|*                         what the stream mode's hand-over to the consumer
|*                         thread costs the program's thread, without the
|*                         noise of an OpenMP runtime and a process start:
|*                         N events of the small_events pattern, each after
|*                         WORK random read-modify-writes of a 256 KiB table
|*                         of the thread's own (the OpenMP runtime's work
|*                         between two updates; 64 is about small_events'
|*                         0.5 us on host offload); MODE none (the work
|*                         alone), full (the log kept, analysed after the
|*                         timed part), stream (the runtime's default: a
|*                         consumer thread analyses beside), drop (the same
|*                         consumer, handing records to a sink that drops
|*                         them). Prints the program thread's seconds.
|*
|* Output is one line of key=value pairs. Times are CLOCK_MONOTONIC.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#ifdef LOGBENCH_CALLBACKS
#include "callbacks.h"
#include "shm.h"
#endif

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define HOST 4

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long peak_rss_kib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

static double cpu_s(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 +
         (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec * 1e-6;
}

static long rss_kib(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long pages = 0, res = 0;
  if (f) {
    if (fscanf(f, "%ld %ld", &pages, &res) != 2)
      res = 0;
    fclose(f);
  }
  return res * 4;
}

/* One data op as the callbacks record it: the operation interned (a hit in
 * the thread's cache after the first time), the host bytes hashed, a record
 * begun, and completed. */
static void log_op(int to_device, long *value, uint64_t dev_addr) {
  ompdp_op_t op;
  memset(&op, 0, sizeof(op));
  op.type = OMPDP_EV_TRANSFER;
  op.src_addr = to_device ? (uint64_t)(uintptr_t)value : dev_addr;
  op.dst_addr = to_device ? dev_addr : (uint64_t)(uintptr_t)value;
  op.src_dev = to_device ? HOST : 0;
  op.dst_dev = to_device ? 0 : HOST;
  op.bytes = sizeof(*value);
  op.codeptr = (const void *)(uintptr_t)(0x401000 + to_device);
  op.item = -1;
  op.construct = 4; /* ompt_target_update */
  uint64_t h = XXH3_64bits(value, sizeof(*value));
  uint32_t id = ompdp_op_intern(&op);
  ompdp_rec_t *r = ompdp_log_new();
  if (!r)
    return;
  r->x = h;
  uint64_t end = ompdp_ticks();
  r->dur = ompdp_rec_dur_encode(end - r->t_begin);
  ompdp_log_complete(r, ompdp_rec_word(id, OMPDP_EV_TRANSFER, 1, 0));
}

typedef struct job {
  long n;
  uint64_t dev_addr;
} job_t;

static void *worker(void *p) {
  job_t *j = p;
  long x = 0;
  for (long i = 0; i < j->n; i += 2) {
    x = i;
    log_op(1, &x, j->dev_addr);
    log_op(0, &x, j->dev_addr);
  }
  return NULL;
}

static int cmd_log(long n, int threads) {
  pthread_t t[64];
  job_t jobs[64];
  if (threads < 1 || threads > 64)
    return 2;
  double t0 = now_s();
  for (int i = 0; i < threads; ++i) {
    jobs[i] = (job_t){n / threads, 0x7f0000000000ull + (uint64_t)i * 4096};
    pthread_create(&t[i], NULL, worker, &jobs[i]);
  }
  for (int i = 0; i < threads; ++i)
    pthread_join(t[i], NULL);
  double dt = now_s() - t0;
  printf("threads=%d events=%ld seconds=%.4f events_per_s=%.0f ns_per_event=%.1f\n", threads,
         n, dt, (double)n / dt, dt * 1e9 / (double)n * threads);
  return 0;
}

static int cmd_analyze(long n) {
  long rss0 = rss_kib();
  job_t j = {n, 0x7f0000000000ull};
  worker(&j);
  long rss_log = rss_kib();
  ompdp_engine_config_t cfg = {.host_device = HOST};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  double t0 = now_s(), c0 = cpu_s();
  int rc = ompdp_log_replay(ompdp_engine_sink, ompdp_engine_ahead, g, 1);
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_engine_result_t res = {.wall_time_ns = 1, .tick_mult = ompdp_tick_mult()};
  rc |= ompdp_engine_finish(g, &r, &res);
  double dt = now_s() - t0, dc = cpu_s() - c0;
  long peak = peak_rss_kib();
  printf("events=%ld analysis_s=%.3f analysis_cpu_s=%.3f log_bytes_per_event=%.1f "
         "peak_bytes_per_event=%.1f round_trips=%llu unused_transfers=%llu rc=%d\n",
         n, dt, dc, (double)(rss_log - rss0) * 1024 / (double)n,
         (double)(peak - rss0) * 1024 / (double)n,
         (unsigned long long)r.counts[OMPDP_FK_ROUND_TRIP],
         (unsigned long long)r.counts[OMPDP_FK_UNUSED_TRANSFER], rc);
  ompdp_report_free(&r);
  ompdp_engine_destroy(g);
  return rc ? 1 : 0;
}

#ifdef LOGBENCH_CALLBACKS
/* callbacks.c tells the event log file that `ompdp run` keeps
 * (rt/shm_linux.c) which device is the host; logbench keeps no such file,
 * and without this it did not link (run.py then left its rows out). */
void ompdp_shm_note_host(int host_device) { (void)host_device; }

typedef struct cjob {
  long n;
  int dev;
} cjob_t;

/* What one `target update` to or from the device costs the tool. */
static void *cb_worker(void *p) {
  cjob_t *j = p;
  long x = 0, devx = 0;
  const void *site_to = (const void *)(uintptr_t)0x401000, *site_from = (const void *)0x401100;
  for (long i = 0; i < j->n; ++i) {
    int to = !(i & 1);
    x = i;
    ompt_data_t target = {0}, task = {0};
    ompt_id_t op = 0;
    const void *site = to ? site_to : site_from;
    ompdp_cb_target_emi(ompt_target_update, ompt_scope_begin, j->dev, &task, NULL, &target, site);
    if (to) {
      ompdp_cb_target_data_op_emi(ompt_scope_begin, NULL, &target, &op,
                                  ompt_target_data_transfer_to_device, &x, HOST, &devx, j->dev,
                                  sizeof(x), site);
      devx = x;
      ompdp_cb_target_data_op_emi(ompt_scope_end, NULL, &target, &op,
                                  ompt_target_data_transfer_to_device, &x, HOST, &devx, j->dev,
                                  sizeof(x), site);
    } else {
      ompdp_cb_target_data_op_emi(ompt_scope_begin, NULL, &target, &op,
                                  ompt_target_data_transfer_from_device, &devx, j->dev, &x, HOST,
                                  sizeof(x), site);
      x = devx;
      ompdp_cb_target_data_op_emi(ompt_scope_end, NULL, &target, &op,
                                  ompt_target_data_transfer_from_device, &devx, j->dev, &x, HOST,
                                  sizeof(x), site);
    }
    ompdp_cb_target_emi(ompt_target_update, ompt_scope_end, j->dev, &task, NULL, &target, site);
  }
  return NULL;
}

/* The host device number, as libomptarget's omp_get_initial_device()
 * answers; the callbacks look it up by name. */
__attribute__((visibility("default"))) int omp_get_initial_device(void) { return HOST; }

static int cmd_callbacks(long n, int threads) {
  pthread_t t[64];
  cjob_t jobs[64];
  if (threads < 1 || threads > 64)
    return 2;
  ompdp_hash_init();
  ompdp_callbacks_set_submit(1);
  double t0 = now_s();
  for (int i = 0; i < threads; ++i) {
    jobs[i] = (cjob_t){n / threads, i % 4};
    pthread_create(&t[i], NULL, cb_worker, &jobs[i]);
  }
  for (int i = 0; i < threads; ++i)
    pthread_join(t[i], NULL);
  double dt = now_s() - t0;
  printf("threads=%d updates=%ld seconds=%.4f updates_per_s=%.0f ns_per_update=%.1f "
         "dropped=%llu\n",
         threads, n, dt, (double)n / dt, dt * 1e9 / (double)n * threads,
         (unsigned long long)ompdp_log_dropped());
  return 0;
}
#endif

static ompdp_engine_t *stream_engine;

static int cmd_stream(long n, int cap_mb) {
  long rss0 = rss_kib();
  ompdp_engine_config_t cfg = {.host_device = HOST, .content_limit = (uint64_t)cap_mb << 19};
  stream_engine = ompdp_engine_create(&cfg);
  ompdp_log_set_stream(ompdp_engine_sink, ompdp_engine_ahead, stream_engine, 0);
  double t0 = now_s();
  job_t j = {n, 0x7f0000000000ull};
  worker(&j);
  int rc = ompdp_log_stream_finish();
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_engine_result_t res = {.wall_time_ns = 1, .tick_mult = ompdp_tick_mult()};
  rc |= ompdp_engine_finish(stream_engine, &r, &res);
  double dt = now_s() - t0;
  printf("events=%ld seconds=%.3f peak_rss_mib=%.1f tool_peak_mib=%.1f forgotten=%llu "
         "round_trips=%llu rc=%d\n",
         n, dt, (double)peak_rss_kib() / 1024, (double)(peak_rss_kib() - rss0) / 1024,
         (unsigned long long)ompdp_engine_forgotten(stream_engine),
         (unsigned long long)r.counts[OMPDP_FK_ROUND_TRIP], rc);
  ompdp_report_free(&r);
  ompdp_engine_destroy(stream_engine);
  return rc ? 1 : 0;
}

static int drop_sink(void *ctx, const ompdp_rec_t *r, uint32_t w, uint64_t seq) {
  (void)ctx, (void)r, (void)w, (void)seq;
  return 0;
}

static int cmd_handover(long n, long work, const char *mode) {
  int none = !strcmp(mode, "none"), full = !strcmp(mode, "full");
  int stream = !strcmp(mode, "stream"), drop = !strcmp(mode, "drop");
  if (!(none || full || stream || drop) || work < 0)
    return 2;
  ompdp_engine_config_t cfg = {.host_device = HOST};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  if (!g)
    return 1;
  if (stream || drop) {
    ompdp_log_set_background(1);
    ompdp_log_set_stream(stream ? ompdp_engine_sink : drop_sink,
                         stream ? ompdp_engine_ahead : NULL, g, 0);
  }
  size_t tn = (256u << 10) / sizeof(uint64_t);
  uint64_t *t = calloc(tn, sizeof(*t));
  if (!t)
    return 1;
  uint64_t x = 1, sum = 0;
  long v = 0;
  double t0 = now_s();
  for (long i = 0; i < n; ++i) {
    for (long k = 0; k < work; ++k) {
      x = x * 6364136223846793005ull + 1442695040888963407ull;
      sum += t[(x >> 33) % tn]++;
    }
    v = i / 2;
    if (!none)
      log_op(!(i & 1), &v, 0x7f0000000000ull);
  }
  double dt = now_s() - t0;
  int rc = 0;
  if (stream || drop)
    rc = ompdp_log_stream_finish();
  else if (full)
    rc = ompdp_log_replay(ompdp_engine_sink, ompdp_engine_ahead, g, 1);
  printf("mode=%s events=%ld work=%ld program_s=%.4f ns_per_event=%.1f check=%llu rc=%d\n", mode,
         n, work, dt, dt * 1e9 / (double)n, (unsigned long long)(sum & 1), rc);
  ompdp_engine_destroy(g);
  free(t);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  ompdp_time_init();
  int rc;
  if (argc >= 5 && !strcmp(argv[1], "handover") &&
      (rc = cmd_handover(atol(argv[2]), atol(argv[3]), argv[4])) != 2)
    return rc;
  if (argc >= 3 && !strcmp(argv[1], "log"))
    return cmd_log(atol(argv[2]), argc > 3 ? atoi(argv[3]) : 1);
#ifdef LOGBENCH_CALLBACKS
  if (argc >= 3 && !strcmp(argv[1], "callbacks"))
    return cmd_callbacks(atol(argv[2]), argc > 3 ? atoi(argv[3]) : 1);
#endif
  if (argc >= 3 && !strcmp(argv[1], "analyze"))
    return cmd_analyze(atol(argv[2]));
  if (argc >= 3 && !strcmp(argv[1], "stream"))
    return cmd_stream(atol(argv[2]), argc > 3 ? atoi(argv[3]) : 256);
  fprintf(stderr, "usage: logbench log N [THREADS] | callbacks N [THREADS] | analyze N | "
                  "stream N [CAP_MIB] | handover N WORK none|full|stream|drop\n");
  return 2;
}
