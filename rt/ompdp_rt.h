/*===- ompdp_rt.h - internal interfaces of the ompdp runtime -------*- C -*-===*\
|*
|* The entry points that tie the runtime's files together: clock, event
|* log, hashing and options. What an event records (records, the operation
|* table) and the engine that analyses them are the analysis library's
|* (analysis/engine.h), source locations from DWARF the attribution
|* library's (attribution/attribution.h). Nothing here is visible outside
|* libompdp-rt.so.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_RT_H
#define OMPDP_RT_H

#include "engine.h"
#include "report.h"
#include "ompdp/content_hash.h"

#include <stddef.h>
#include <stdint.h>

/*===- clock (time_linux.c) -----------------------------------------------===*/

/* Events are timed in ticks of the fastest trustworthy clock: the TSC where
 * the kernel itself uses it as its clocksource (invariant and synchronised
 * across CPUs), else CLOCK_MONOTONIC nanoseconds. Reading the TSC costs a
 * third of a vDSO clock_gettime. Ticks become nanoseconds only in the
 * report, through one scale fixed at report time, so that every way of
 * analysing the same records gives the same numbers. */
extern int ompdp_clock_is_tsc;
void ompdp_time_init(void);
uint64_t ompdp_now_ns(void);
uint64_t ompdp_ticks_slow(void);
/* Where ompdp's own time in the program goes (option verbose prints it;
 * the overhead suite's breakdown of a short run reads it): wall-clock
 * nanoseconds per part, from any thread. */
enum {
  OMPDP_COST_STARTUP,     /* the tool's initialisation */
  OMPDP_COST_LOG_BLOCKS,  /* growing the crash log (ompdp run's file) */
  OMPDP_COST_ANALYSIS,    /* at the end: analysis, findings, rewrites */
  OMPDP_COST_ATTRIBUTION, /* of which: source locations (DWARF, region tables) */
  OMPDP_COST_REPORT,      /* writing the report(s) */
  OMPDP_COST_N
};
void ompdp_cost_add(int part, uint64_t ns);
/* The same clock, ordered against the memory accesses around it (for the
 * stream consumer's watermark); and read only after every earlier
 * instruction is done (for a producer, after a sequentially consistent
 * store). */
uint64_t ompdp_ticks_ordered(void);
static inline uint64_t ompdp_ticks_after_fence(void) {
#if defined(__x86_64__)
  if (__builtin_expect(ompdp_clock_is_tsc, 1)) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence; rdtsc" : "=a"(lo), "=d"(hi)::"memory");
    return ((uint64_t)hi << 32) | lo;
  }
#endif
  return ompdp_ticks_ordered();
}
static inline uint64_t ompdp_ticks(void) {
#if defined(__x86_64__)
  if (__builtin_expect(ompdp_clock_is_tsc, 1)) {
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((uint64_t)hi << 32) | lo;
  }
#endif
  return ompdp_ticks_slow();
}
/* ns = ticks * mult >> 32 (ompdp_ticks_to_ns, analysis/engine.h).
 * Calibrated over the run so far (start to now); 1 << 32 when ticks are
 * nanoseconds. */
uint64_t ompdp_tick_mult(void);
/* The tick count at the moment CLOCK_MONOTONIC read ns (for times that
 * other parts of the runtime keep in nanoseconds, like a fork). */
uint64_t ompdp_ns_to_ticks(uint64_t ns);

/*===- event log (eventlog.c) ---------------------------------------------===*/

/* A new record in this thread's log, begun now (t_begin set, incomplete),
 * or NULL when out of memory. Records never move, so callbacks may keep
 * pointers to them until they complete them. */
ompdp_rec_t *ompdp_log_new(void);
/* Finishes a record: stores its operation word with COMPLETE set. */
static inline void ompdp_log_complete(ompdp_rec_t *r, uint32_t word) {
  __atomic_store_n(&r->op, word | OMPDP_REC_COMPLETE, __ATOMIC_RELEASE);
}
/* Number of events lost because memory ran out. */
uint64_t ompdp_log_dropped(void);
/* Where chunks come from besides anonymous memory (rt/shm_linux.c: the
 * crash log): chunk gives a zeroed one of at least 64 bytes of header and
 * a record, and its length (NULL: mmap); release takes back one whose
 * records are all analysed (reuse: a later chunk may take its memory; 0
 * at the end, when none will); dropped is told of every event lost. Set
 * once, before any event. */
typedef struct ompdp_log_store {
  void *(*chunk)(uint32_t log, uint32_t index, size_t *bytes);
  void (*release)(void *chunk, int reuse);
  void (*dropped)(void);
  /* 1 while the store keeps every event (ompdp run's crash log, until it
   * stops growing): no journal is needed meanwhile. NULL: never. */
  int (*keeps_all)(void);
} ompdp_log_store_t;
void ompdp_log_set_store(const ompdp_log_store_t *s);
void ompdp_log_note_dropped(void);

/* Receives complete records in analysis order: by begin time, then thread,
 * then order of logging. seq numbers them from 0 in that order. */
typedef int (*ompdp_log_sink_t)(void *ctx, const ompdp_rec_t *r, uint32_t word, uint64_t seq);
/* Told about a record a few places ahead of the one being handed over (it
 * may not be complete yet), so that the reader can prefetch what it will
 * need for it. May be NULL. */
typedef void (*ompdp_log_ahead_t)(void *ctx, const ompdp_rec_t *r);

/* Stream mode: records are handed to sink as soon as no earlier one can
 * still appear, by whichever thread fills a chunk of the log; consumed
 * chunks are released unless keep is set (then ompdp_log_replay can read
 * the whole log again at the end). Called once, before any event. */
void ompdp_log_set_stream(ompdp_log_sink_t sink, ompdp_log_ahead_t ahead, void *ctx, int keep);
/* Stream mode orders each record's busy flag before its clock reading with
 * a fence per record (per_record 1) or, where the kernel has membarrier(2),
 * with a process-wide barrier per consumer pass (0, the default). Before
 * ompdp_log_set_stream; tests run both. */
void ompdp_log_set_fence(int per_record);
/* 1 when stream records pay their own fence (no membarrier here). */
int ompdp_log_fence_per_record(void);
/* Stream mode: hands everything still waiting to the sink (incomplete
 * records are dropped), as at exit. Returns the sink's first error. */
int ompdp_log_stream_finish(void);
/* Stream mode: no more passes, and nothing more for the sink (full mode's
 * journal engine, which the exit does not need). */
void ompdp_log_stream_stop(void);
/* Stream mode: asks for a consumer pass (callbacks do when a chunk fills):
 * wakes the consumer thread, or runs the pass now without one. */
void ompdp_log_poll(void);
/* Stream mode: passes run on a consumer thread of the tool's own (started
 * at the first poll) instead of inline in the thread that polls. */
void ompdp_log_set_background(int on);
/* Stream mode with a consumer thread: it also calls fn(events consumed) at
 * most every interval_ns, under its lock, when events came since the last
 * call (the journal, rt/journal.c). Called once, before any event. */
typedef void (*ompdp_log_journal_t)(uint64_t events);
void ompdp_log_set_journal(ompdp_log_journal_t fn, uint64_t interval_ns);
/* Flushes so far, and the time they took in all and at most. */
void ompdp_log_journal_stats(uint64_t *flushes, uint64_t *total_ns, uint64_t *max_ns);
/* Full-log mode: hands every complete record to sink, in order. With
 * release set, chunks are unmapped as soon as they are read (the log is
 * gone afterwards). Returns the sink's first error. */
int ompdp_log_replay(ompdp_log_sink_t sink, ompdp_log_ahead_t ahead, void *ctx, int release);
/* The host thread (0 for the first that logged) whose record the merge is
 * handing to its sink now. */
uint32_t ompdp_log_sink_thread(void);
/* Records begun before this tick count are ignored (a forked child reports
 * only what it did itself). */
void ompdp_log_skip_before(uint64_t ticks);
/* Memory the log holds now, in bytes. */
size_t ompdp_log_memory(void);
/* Forgets everything (tests). Only when no other thread logs. */
void ompdp_log_reset(void);

/*===- hashing (hash.c) ---------------------------------------------------===*/

void ompdp_hash_init(void);
uint64_t ompdp_hash(const void *p, size_t n);
/* Hashing on the helper thread while the caller does something else (the
 * copy): returns 1 if the helper took p[0..n), then ompdp_hash_finish (on
 * the same thread, exactly once) hashes the chunks the helper has not
 * reached, waits for its last one and returns ompdp_hash(p, n); 0 if the
 * caller must hash itself (small buffer, helper busy or unavailable). Only
 * buffers hashed in chunks (include/ompdp/content_hash.h) go to it. */
#define OMPDP_HASH_ASYNC_MIN OMPDP_HASH_CHUNKED_MIN
int ompdp_hash_start(const void *p, size_t n);
uint64_t ompdp_hash_finish(void);
/* The end of a transfer that called ompdp_hash_start, once its bytes are
 * hashed (or it was dropped): with hash_helper=2, it no longer counts as
 * in flight. */
void ompdp_hash_done(void);
/* verbose: how many large transfers hash_helper=2 sent where, on out. */
void ompdp_hash_say_choice(FILE *out);
/* 1 if another thread is inside a target construct (callbacks.c). */
int ompdp_constructs_elsewhere(void);
/* 1 if a kernel on a device whose memory is the host's (host offload: its
 * threads are the host's cores) ended less than OMPDP_HOST_KERNEL_NS ago,
 * or is running (callbacks.c). */
int ompdp_host_kernel_recent(void);
#define OMPDP_HOST_KERNEL_NS 200000000ull /* libomp's default KMP_BLOCKTIME */
const char *ompdp_hash_impl_name(void);
/* verify_hashes debug mode (hash_verify.c): remember the bytes behind each
 * hash and count the hashes that stand for different bytes. */
void ompdp_hash_verify(uint64_t h, const void *p, size_t n);
uint64_t ompdp_hash_collisions(void);

/*===- hashing on the device (devhash.c) -----------------------------------===*/

/* What a device's memory is, from its device_initialize callback. */
enum {
  OMPDP_DEVKIND_UNKNOWN,
  OMPDP_DEVKIND_HOSTMEM, /* libomptarget's host plugin: device copies are host memory */
  OMPDP_DEVKIND_CUDA,    /* an NVIDIA GPU (sm_XX) */
  OMPDP_DEVKIND_OTHER
};
void ompdp_devhash_note_device(int device_num, const char *type);
int ompdp_device_kind(int device_num);
/* Only buffers hashed in chunks are hashed on a device. */
#define OMPDP_DEVHASH_MIN OMPDP_HASH_CHUNKED_MIN
/* Copies of at least this many bytes end with a device synchronisation
 * (device_sync): below it the enqueue of a pageable copy is its cost. */
#define OMPDP_SYNC_MIN ((size_t)64 << 10)
/* Whether a transfer of n bytes whose device copy is on device_num should
 * be hashed there (device_hash, device_hash_min_kb). */
int ompdp_devhash_wanted(int device_num, size_t n);
/* The content hash of n bytes at device_addr on device_num, computed where
 * they are; the copy that put them there (or reads them) must be complete.
 * 0, or -1 when the host must hash instead. */
int ompdp_devhash(int device_num, const void *device_addr, size_t n, uint64_t *h);
/* The same in two halves on a GPU, so that the kernel runs while the copy
 * does: start launches it for owner (the transfer's record), finish (with
 * the same device address and owner, on any thread) waits and gives the
 * hash. The bytes must not change between the two: a copy back only reads
 * them. 0, or -1 when the host must hash (start: nothing to finish). */
int ompdp_devhash_start(int device_num, const void *device_addr, size_t n, const void *owner);
int ompdp_devhash_finish(const void *device_addr, const void *owner, uint64_t *h);
/* Waits until every operation queued on the GPU that owns device_addr is
 * done (cuCtxSynchronize). 0, or -1 when device_num is no GPU or it failed. */
int ompdp_device_sync(int device_num, const void *device_addr);
/* verify_hashes: compares a device hash with the host's of the same bytes. */
void ompdp_devhash_verify(uint64_t device_hash, const void *host_addr, size_t n);
/* Warnings for the report: hashes that differed, a GPU whose kernel failed. */
int ompdp_devhash_warn(ompdp_report_t *r);
/* verbose: how many transfers were hashed on a device, on out. */
void ompdp_devhash_say(FILE *out);
/* When the run had no device activity at all, says so first in r's
 * warnings, with the likeliest cause (no_device.c). 0, or -1 when out of
 * memory. */
int ompdp_no_device_warn(ompdp_report_t *r);

/*===- options (options.c) ------------------------------------------------===*/

typedef struct ompdp_options {
#define OMPDP_OPTION(Type, Name, Default, Description) Type Name;
#include "options.inc"
} ompdp_options_t;

extern ompdp_options_t ompdp_opts;
/* Parses OMPDP_OPTIONS-style text into ompdp_opts (after defaults). Unknown
 * names and bad values are reported on stderr and make it return -1; valid
 * settings are still applied. */
int ompdp_options_parse(const char *text);
/* The rules of the options' values (option_values.c), which `ompdp run`
 * applies to --option too: a number option's value into *out (0, or -1 when
 * it is none); the words an option of a few takes ("stream, full or check",
 * *first its default; NULL for another option); whether value is one of
 * them (1 also for another option); one setting checked, 0 or -1 with the
 * reason ("option 'x' wants ..., not '...'", "unknown option 'x'") in err;
 * untrusted text for a message, printable and short, in buf. */
int ompdp_option_int(const char *value, int *out);
const char *ompdp_option_words(const char *name, const char **first);
int ompdp_option_word_ok(const char *name, const char *value);
int ompdp_option_check(const char *name, const char *value, char *err, size_t errlen);
const char *ompdp_option_shown(const char *text, size_t len, char buf[80]);
void ompdp_options_reset(void);
void ompdp_options_free(void);

/* Adds a warning per kernel that ran with at most half the teams or
 * threads it asked for (provision.c). 0, or -1 when out of memory. */
int ompdp_provision_warn(ompdp_report_t *r);

#endif /* OMPDP_RT_H */
