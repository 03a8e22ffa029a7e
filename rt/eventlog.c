/*===- eventlog.c - per-thread event logs and their merge ----------*- C -*-===*\
|*
|* Each thread appends 24-byte records to its own chain of 128 KiB chunks,
|* so logging takes no lock and records never move (a callback keeps a
|* pointer to the record it began and completes it at its end callback, on
|* whichever thread). A thread's log is linked into a global list once, with
|* a lock-free push, and outlives the thread.
|*
|* Within a thread, records are in begin-time order (a thread's clock is
|* clamped to never run backwards), so the analysis order (begin time, then
|* thread, then position) is a k-way merge of the threads' logs: no copy and
|* no sort.
|*
|* Full-log mode merges everything at exit, unmapping each chunk as soon as
|* it is read when nothing needs the log afterwards. Stream mode merges while
|* the program runs: the thread that fills its WAKE_CHUNKS-th chunk takes the
|* consumer lock if it is free (never per event) and hands over every
|* record that no other record can precede any more. A record may be handed
|* over when it is complete and begins before the watermark: the earliest of
|* (a) the clock when the pass starts, (b) the begin time of every thread's
|* oldest incomplete record, and (c) the last begin time of every thread
|* that is creating a record right now (its `busy` flag). A thread that is
|* not busy can only begin later records after (a). The consumed chunks are
|* unmapped, so memory stays bounded by what is in flight.
|*
|* That needs the busy flag's store ordered before the clock reading, as
|* seen by the consumer: a store-load fence, 30-50 cycles on every record.
|* Where the kernel has membarrier(2), the fence moves to the consumer, once
|* per pass: after its clock reading it makes every thread of the process
|* pass a full barrier (an interrupt on the CPUs running one). A producer
|* whose flag store came before that barrier is seen busy; one whose store
|* came after reads its clock after the barrier, so later than (a). The
|* record then costs a plain store and a plain clock read.
|*
|* In the runtime the passes run on a consumer thread of the tool's own,
|* which a producer wakes (one futex call per WAKE_CHUNKS chunks) and which
|* sleeps when it has caught up, so the analysis runs beside the program
|* instead of after it; tests run the passes inline.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "cpu_features.h"
#include "ompdp_rt.h"
#include "ompdp/crashlog.h"

#include <linux/futex.h>
#include <linux/membarrier.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CHUNK_BYTES (128u << 10)
/* A thread hands its chunks to the consumer every WAKE_CHUNKS chunks
 * (about 33,000 records), not at every one: each wake, and each pass's
 * barrier, is an interrupt between CPUs, which on a VM costs the program's
 * CPU far more than the pass costs the consumer's. small_events (10^6
 * events, 150 alternated rounds, to the end of main over the null tool):
 * a wake per chunk +43 ms, every 8 chunks +23, every 32 +17.5, no
 * consumer at all +15; an idle consumer woken per chunk cost as much as a
 * working one, a thread waking itself every 100 us nothing
 * (benchmarks/results-host.md, "twentieth session"). Beyond 8, the backlog
 * left for the end of the run grows faster than the gain. */
#define WAKE_CHUNKS 8

typedef struct chunk {
  struct chunk *_Atomic next;
  _Atomic uint32_t used;
  uint32_t cap;
  uint32_t shm; /* a block of the crash log (rt/shm_linux.c) */
  uint32_t pad[11]; /* records start on a cache line */
  ompdp_rec_t rec[];
} chunk_t;
_Static_assert(offsetof(chunk_t, rec) == OMPDP_CL_EVENTS_OFFSET, "include/ompdp/crashlog.h");
_Static_assert(offsetof(chunk_t, used) == OMPDP_CL_EVENTS_USED_OFFSET, "include/ompdp/crashlog.h");

#define CHUNK_RECS ((CHUNK_BYTES - sizeof(chunk_t)) / sizeof(ompdp_rec_t))

typedef struct thread_log {
  struct thread_log *next;
  uint32_t id; /* order of first event: breaks ties between threads */
  chunk_t *head;
  /* The stream consumer's position, and how far its search for the oldest
   * incomplete record got (every record before is complete, for good);
   * both under consumer_lock. */
  chunk_t *cc;
  uint32_t ci;
  chunk_t *sc;
  uint32_t si;
  /* Written by the thread at every record, on a cache line of their own:
   * the consumer reads them once a pass, and its writes above (and reads,
   * were they on this line) would take the line from the thread's core. */
  _Alignas(64) chunk_t *cur;
  uint32_t nchunks; /* chunks made so far (numbers them in the crash log) */
  _Atomic uint64_t last_t;
  atomic_int busy; /* stream mode: between reading the clock and publishing */
} thread_log_t;

static _Atomic(thread_log_t *) all_logs;
static _Atomic uint32_t next_log_id;
static _Atomic uint64_t dropped;
static _Atomic size_t chunks_mapped;
static _Thread_local thread_log_t *tls_log __attribute__((tls_model("initial-exec")));

static int stream_mode, stream_keep;
static ompdp_log_sink_t stream_sink;
static ompdp_log_ahead_t stream_ahead;
static void *stream_ctx;
static int stream_error;
static int stream_done; /* the final pass ran, or the stream stopped: no more passes */
/* What the merge writes for every record it hands over, on a cache line of
 * its own: beside the flags that every callback reads (stream_mode,
 * asym_fence), each of its stores took the line from the program's thread,
 * whose next callback then missed in its cache. */
static struct {
  _Alignas(64) uint64_t seq;
  uint32_t thread;
} merge_hot;
#define stream_seq merge_hot.seq
static uint64_t skip_before;
static pthread_mutex_t consumer_lock = PTHREAD_MUTEX_INITIALIZER;
static int background;               /* passes on the consumer thread */
static _Atomic uint32_t wake_word;   /* bumped to wake it (futex word) */
static atomic_int consumer_started;  /* 0 no, 1 yes, -1 could not */
/* The journal (rt/journal.c): the consumer also wakes every journal_ns and
 * calls journal_fn, under consumer_lock, when events came since the last. */
static ompdp_log_journal_t journal_fn;
static uint64_t journal_ns, journal_next, journal_seq = UINT64_MAX;
/* verbose=1: flushes, and the consumer's CPU time in them (its wall time
 * would count the time it waited for a core). */
static uint64_t journal_flushes, journal_total_ns, journal_max_ns;
static int start_consumer(void);
static ompdp_log_store_t store; /* the crash log's, or none */
/* 1: the consumer's membarrier orders producers' busy flags (top); 0: each
 * producer fences its own. Set before any stream record. */
static int asym_fence;
static int asym_fence_off; /* tests: the per-record fence, whatever the kernel has */

void ompdp_log_set_store(const ompdp_log_store_t *s) { store = *s; }

/* Consumed anonymous chunks kept for the next new_chunk, at most
 * MAX_SPARE (what two passes free): unmapping each one (every 5,000
 * events) made the kernel flush the other CPUs' TLBs by interrupt, every
 * CPU running one of the program's threads (small_events: 237 TLB
 * shootdowns a run, 38 with the spares; see /proc/interrupts), and
 * mapping the next one zeroed 32 fresh pages on the program's thread.
 * They stay counted in chunks_mapped. */
#define MAX_SPARE (2 * WAKE_CHUNKS)
static pthread_mutex_t spare_lock = PTHREAD_MUTEX_INITIALIZER;
static chunk_t *spare;
static unsigned num_spare;

static chunk_t *take_spare(void) {
  pthread_mutex_lock(&spare_lock);
  chunk_t *c = spare;
  if (c) {
    spare = atomic_load_explicit(&c->next, memory_order_relaxed);
    --num_spare;
  }
  pthread_mutex_unlock(&spare_lock);
  return c;
}

static void drop_spares(void) {
  pthread_mutex_lock(&spare_lock);
  chunk_t *c = spare;
  spare = NULL;
  num_spare = 0;
  pthread_mutex_unlock(&spare_lock);
  while (c) {
    chunk_t *n = atomic_load_explicit(&c->next, memory_order_relaxed);
    munmap(c, CHUNK_BYTES);
    atomic_fetch_sub_explicit(&chunks_mapped, 1, memory_order_relaxed);
    c = n;
  }
}

static chunk_t *new_chunk(thread_log_t *b) {
  /* Under `ompdp run`, in the crash log, so that the records outlive the
   * process (its pages mapped as they are written: shm_linux.c); else
   * anonymous, populated at once: one fault for the chunk instead of one
   * per page. */
  size_t got = 0;
  uint32_t n = b->nchunks++;
  void *p = store.chunk ? store.chunk(b->id, n, &got) : NULL;
  if (p) {
    chunk_t *c = p;
    /* A block the store reuses holds an earlier chunk's records, past
     * `used` (which it set to 0 first, for readers of the file). */
    atomic_init(&c->next, NULL);
    atomic_init(&c->used, 0);
    c->cap = (uint32_t)((got - sizeof(chunk_t)) / sizeof(ompdp_rec_t));
    c->shm = 1;
    atomic_fetch_add_explicit(&chunks_mapped, 1, memory_order_relaxed);
    return c;
  }
  chunk_t *c = take_spare();
  if (!c) {
    p = mmap(NULL, CHUNK_BYTES, PROT_READ | PROT_WRITE,
             MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    if (p == MAP_FAILED)
      return NULL;
    c = p;
    atomic_fetch_add_explicit(&chunks_mapped, 1, memory_order_relaxed);
  }
  /* A spare's old records are never read: a record is written before
   * `used` counts it. */
  atomic_init(&c->next, NULL);
  atomic_init(&c->used, 0);
  c->cap = (uint32_t)CHUNK_RECS;
  c->shm = 0;
  return c;
}

static void free_chunk(chunk_t *c, int reuse) {
  if (c->shm) {
    store.release(c, reuse);
  } else {
    pthread_mutex_lock(&spare_lock);
    int keep = num_spare < MAX_SPARE;
    if (keep) {
      atomic_store_explicit(&c->next, spare, memory_order_relaxed);
      spare = c;
      ++num_spare;
    }
    pthread_mutex_unlock(&spare_lock);
    if (keep)
      return;
    munmap(c, CHUNK_BYTES);
  }
  atomic_fetch_sub_explicit(&chunks_mapped, 1, memory_order_relaxed);
}

static thread_log_t *new_thread_log(void) {
  thread_log_t *b = aligned_alloc(_Alignof(thread_log_t), sizeof(*b));
  if (!b)
    return NULL;
  memset(b, 0, sizeof(*b));
  b->id = atomic_fetch_add(&next_log_id, 1);
  b->head = b->cur = b->cc = new_chunk(b);
  if (!b->head) {
    free(b);
    return NULL;
  }
  /* Flushes must come on time, even before a chunk fills; but while the
   * crash log keeps every event, the journal saves nothing (tool.c,
   * journal_snapshot) and the consumer starts when a chunk fills, as
   * without a journal: a short run under ompdp run starts no thread, and
   * analyses its few events at exit. A log that stops growing does so when
   * a chunk fills, and the poll after it starts the consumer. */
  if (journal_fn && background && !(store.keeps_all && store.keeps_all()))
    start_consumer();
  thread_log_t *old = atomic_load_explicit(&all_logs, memory_order_relaxed);
  do {
    b->next = old;
  } while (!atomic_compare_exchange_weak_explicit(&all_logs, &old, b, memory_order_release,
                                                  memory_order_relaxed));
  return b;
}

void ompdp_log_note_dropped(void) {
  atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
  if (store.dropped)
    store.dropped();
}

uint64_t ompdp_log_dropped(void) { return atomic_load(&dropped); }

size_t ompdp_log_memory(void) {
  return atomic_load_explicit(&chunks_mapped, memory_order_relaxed) * (size_t)CHUNK_BYTES;
}

/* A record's line was last read by the stream consumer, on another core,
 * or its chunk came back from it as a spare: a store to the line waits
 * until the line comes over from that core. Asking for the line after the
 * new record, owned (PREFETCHW), has it here by the next event, hundreds
 * of ns later. `logbench handover 1000000 64 stream`, 12 alternated runs:
 * the program's thread 182 ns an event (174-193) -> 171 (165-184); with
 * prefetcht0, which __builtin_prefetch gives on x86-64 without -mprfchw,
 * the line came in shared and the store still waited (no change). */
static int prefetch_owned;
__attribute__((constructor)) static void note_prefetch_owned(void) {
  prefetch_owned = ompdp_cpu_has_prefetchw();
}

static inline void prefetch_line_after(const ompdp_rec_t *r) {
  /* Past the chunk's end at its last records: a prefetch never faults. */
  const char *p = (const char *)((uintptr_t)(r + 1) + 64);
#if defined(__x86_64__)
  if (prefetch_owned)
    __asm__ volatile("prefetchw %0" : : "m"(*p));
#else
  __builtin_prefetch(p, 1, 3);
#endif
}

ompdp_rec_t *ompdp_log_new(void) {
  thread_log_t *b = tls_log;
  if (__builtin_expect(!b, 0)) {
    b = tls_log = new_thread_log();
    if (!b)
      goto fail;
  }
  chunk_t *c = b->cur;
  uint32_t used = atomic_load_explicit(&c->used, memory_order_relaxed);
  if (__builtin_expect(used == c->cap, 0)) {
    chunk_t *nc = new_chunk(b);
    if (!nc)
      goto fail;
    atomic_store_explicit(&c->next, nc, memory_order_release);
    b->cur = c = nc;
    used = 0;
    if (stream_mode && b->nchunks % WAKE_CHUNKS == 0)
      ompdp_log_poll();
  }
  ompdp_rec_t *r = &c->rec[used];
  prefetch_line_after(r);
  uint64_t t;
  if (stream_mode) {
    /* The flag must be visible before the clock is read: a consumer that
     * does not see it may hand over everything before its own clock
     * reading (rt/eventlog.c, top). */
    if (asym_fence) {
      atomic_store_explicit(&b->busy, 1, memory_order_relaxed);
      atomic_signal_fence(memory_order_seq_cst);
      t = ompdp_ticks();
    } else {
      atomic_store_explicit(&b->busy, 1, memory_order_seq_cst);
      t = ompdp_ticks_after_fence();
    }
  } else {
    t = ompdp_ticks();
  }
  uint64_t last = atomic_load_explicit(&b->last_t, memory_order_relaxed);
  if (t < last)
    t = last;
  atomic_store_explicit(&b->last_t, t, memory_order_relaxed);
  r->t_begin = t;
  r->x = 0;
  r->dur = 0;
  r->op = 0;
  atomic_store_explicit(&c->used, used + 1, memory_order_release);
  if (stream_mode)
    atomic_store_explicit(&b->busy, 0, memory_order_release);
  return r;
fail:
  ompdp_log_note_dropped();
  return NULL;
}

/*===- the merge ------------------------------------------------------------===*/

typedef struct cursor {
  thread_log_t *log;
  uint32_t id; /* log->id, read here for every record */
  chunk_t *c;
  uint32_t i;
  const ompdp_rec_t *r; /* the record at (c, i) when it can be handed over */
  uint32_t w;           /* its operation word */
  int pinned;           /* c holds a skipped incomplete record: never unmap it */
} cursor_t;

typedef struct merge {
  cursor_t *cur;
  size_t n;
  uint64_t watermark; /* hand over records that begin strictly before */
  int final;          /* skip incomplete records instead of waiting */
  int release;        /* unmap chunks once read */
} merge_t;

/* Positions k at its next record that may be handed over now; k->r = NULL
 * when there is none (exhausted, or waiting for an incomplete record). */
static void settle(merge_t *m, cursor_t *k) {
  k->r = NULL;
  for (;;) {
    chunk_t *c = k->c;
    uint32_t used = atomic_load_explicit(&c->used, memory_order_acquire);
    if (k->i == used) {
      chunk_t *next = used == c->cap ? atomic_load_explicit(&c->next, memory_order_acquire) : NULL;
      if (!next)
        return;
      /* A thread still running at exit may yet complete a skipped record:
       * its chunk must stay mapped. */
      if (k->log->sc == c) { /* never left pointing at an unmapped chunk */
        k->log->sc = next;
        k->log->si = 0;
      }
      if (m->release && !k->pinned) {
        if (k->log->head == c)
          k->log->head = next;
        free_chunk(c, !m->final); /* at the end, no later chunk will take it */
      }
      k->c = next;
      k->i = 0;
      k->pinned = 0;
      continue;
    }
    const ompdp_rec_t *r = &c->rec[k->i];
    uint32_t w = __atomic_load_n(&r->op, __ATOMIC_ACQUIRE);
    /* At the end, a kernel begun and not finished (a thread still in it, a
     * fatal signal inside it) goes over as it is: the engine takes it as
     * running to the end, and counts it nowhere. */
    int in_flight = m->final && !(w & OMPDP_REC_COMPLETE) &&
                    ompdp_rec_type(w) == OMPDP_EV_KERNEL && r->t_begin >= skip_before;
    if (r->t_begin < skip_before || (m->final && !(w & OMPDP_REC_COMPLETE) && !in_flight)) {
      /* Before a fork, or never finished: not part of the analysis. */
      k->pinned |= !(w & OMPDP_REC_COMPLETE);
      ++k->i;
      continue;
    }
    if (in_flight) {
      k->pinned = 1; /* the thread may yet complete it */
      k->r = r;
      k->w = w;
      return;
    }
    if (!(w & OMPDP_REC_COMPLETE) || r->t_begin >= m->watermark)
      return;
    k->r = r;
    k->w = w;
    return;
  }
}

static int before(const cursor_t *a, const cursor_t *b) {
  if (a->r->t_begin != b->r->t_begin)
    return a->r->t_begin < b->r->t_begin;
  return a->id < b->id;
}

#define AHEAD 8

/* The thread of the record being handed over (one merge at a time: the
 * consumer's lock, or the exit). Written for every record: on a cache line
 * of its own (see merge_hot). */
#define sink_thread merge_hot.thread
uint32_t ompdp_log_sink_thread(void) { return sink_thread; }

/* Hands over records in order until no cursor has one. */
static int run_merge(merge_t *m, ompdp_log_sink_t sink, ompdp_log_ahead_t ahead, void *ctx,
                     uint64_t *seq) {
  for (size_t i = 0; i < m->n; ++i)
    settle(m, &m->cur[i]);
  for (;;) {
    cursor_t *best = NULL, *second = NULL;
    for (size_t i = 0; i < m->n; ++i) {
      cursor_t *k = &m->cur[i];
      if (!k->r)
        continue;
      if (!best || before(k, best)) {
        second = best;
        best = k;
      } else if (!second || before(k, second)) {
        second = k;
      }
    }
    if (!best)
      return 0;
    /* Hand over best's records while they stay ahead of the runner-up. */
    do {
      if (ahead && best->i + AHEAD < atomic_load_explicit(&best->c->used, memory_order_relaxed))
        ahead(ctx, &best->c->rec[best->i + AHEAD]);
      sink_thread = best->id;
      int rc = sink(ctx, best->r, best->w, (*seq)++);
      if (rc)
        return rc;
      ++best->i;
      settle(m, best);
    } while (best->r && (!second || before(best, second)));
  }
}

static int collect_cursors(merge_t *m, int stream) {
  size_t n = 0;
  thread_log_t *head = atomic_load_explicit(&all_logs, memory_order_acquire);
  for (thread_log_t *b = head; b; b = b->next)
    ++n;
  m->cur = calloc(n ? n : 1, sizeof(*m->cur));
  if (!m->cur)
    return -1;
  m->n = 0;
  for (thread_log_t *b = head; b; b = b->next) {
    cursor_t *k = &m->cur[m->n++];
    k->log = b;
    k->id = b->id;
    k->c = stream ? b->cc : b->head;
    k->i = stream ? b->ci : 0;
  }
  return 0;
}

/* The process-wide barrier of the consumer's side (top). */
static int process_barrier(void) {
  if (syscall(SYS_membarrier, MEMBARRIER_CMD_PRIVATE_EXPEDITED, 0, 0) == 0)
    return 1;
  /* Not registered (a kernel that lost it?): the slow global form needs
   * no registration. */
  return syscall(SYS_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0) == 0;
}

static int register_barrier(void) {
  if (asym_fence_off)
    return 0;
  long have = syscall(SYS_membarrier, MEMBARRIER_CMD_QUERY, 0, 0);
  if (have < 0 || !(have & MEMBARRIER_CMD_PRIVATE_EXPEDITED))
    return 0;
  return syscall(SYS_membarrier, MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED, 0, 0) == 0;
}

void ompdp_log_set_fence(int per_record) {
  asym_fence_off = per_record;
  if (per_record)
    asym_fence = 0;
}

int ompdp_log_fence_per_record(void) { return !asym_fence; }

/* Stream mode, under consumer_lock. */
static int stream_pass(int final) {
  merge_t m = {.final = final, .release = !stream_keep};
  m.watermark = final ? UINT64_MAX : ompdp_ticks_ordered();
  if (!final && asym_fence && !process_barrier())
    return 0; /* no barrier, no order: nothing handed over this time */
  if (collect_cursors(&m, 1))
    return -1;
  if (!final) {
    for (size_t i = 0; i < m.n; ++i) {
      thread_log_t *b = m.cur[i].log;
      if (atomic_load_explicit(&b->busy, memory_order_seq_cst)) {
        uint64_t t = atomic_load_explicit(&b->last_t, memory_order_relaxed);
        if (t < m.watermark)
          m.watermark = t;
      }
    }
    /* The oldest incomplete record of each thread, searched from where the
     * last pass left off. */
    for (size_t i = 0; i < m.n; ++i) {
      thread_log_t *b = m.cur[i].log;
      chunk_t *c = m.cur[i].c;
      uint32_t ix = m.cur[i].i;
      if (b->sc) {
        /* The search position is ahead of the cursor unless the cursor
         * passed it; a chunk behind the cursor may be unmapped. */
        for (chunk_t *x = c; x; x = atomic_load_explicit(&x->next, memory_order_acquire)) {
          if (x == b->sc) {
            if (x != c || b->si > ix)
              c = b->sc, ix = b->si;
            break;
          }
          if (atomic_load_explicit(&x->used, memory_order_acquire) < x->cap)
            break;
        }
      }
      while (c) {
        uint32_t used = atomic_load_explicit(&c->used, memory_order_acquire);
        for (; ix < used; ++ix)
          if (!(__atomic_load_n(&c->rec[ix].op, __ATOMIC_ACQUIRE) & OMPDP_REC_COMPLETE) &&
              c->rec[ix].t_begin >= skip_before)
            break;
        b->sc = c;
        b->si = ix;
        if (ix < used) {
          if (c->rec[ix].t_begin < m.watermark)
            m.watermark = c->rec[ix].t_begin;
          break;
        }
        chunk_t *next = used == c->cap ? atomic_load_explicit(&c->next, memory_order_acquire) : NULL;
        if (!next)
          break;
        c = next;
        ix = 0;
      }
    }
  }
  int rc = run_merge(&m, stream_sink, stream_ahead, stream_ctx, &stream_seq);
  for (size_t i = 0; i < m.n; ++i) {
    m.cur[i].log->cc = m.cur[i].c;
    m.cur[i].log->ci = m.cur[i].i;
  }
  free(m.cur);
  return rc;
}

void ompdp_log_set_stream(ompdp_log_sink_t sink, ompdp_log_ahead_t ahead, void *ctx, int keep) {
  stream_sink = sink;
  stream_ahead = ahead;
  stream_ctx = ctx;
  stream_keep = keep;
  if (sink && !stream_mode)
    asym_fence = register_barrier();
  stream_mode = sink != NULL;
}

static void inline_pass(void) {
  if (pthread_mutex_trylock(&consumer_lock))
    return; /* a pass is running: it will see our records, or the next one will */
  if (!stream_error && !stream_done)
    stream_error = stream_pass(0);
  pthread_mutex_unlock(&consumer_lock);
}

static uint64_t clock_ns(clockid_t id) {
  struct timespec ts;
  clock_gettime(id, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static uint64_t monotonic_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

/* Under consumer_lock, after a pass: a flush when one is due and events
 * came since the last. Returns the ns until the next one is due. */
static uint64_t journal_tick(void) {
  uint64_t now = monotonic_ns();
  if (now >= journal_next) {
    if (stream_seq != journal_seq) {
      uint64_t cpu = clock_ns(CLOCK_THREAD_CPUTIME_ID);
      journal_fn(stream_seq);
      journal_seq = stream_seq;
      uint64_t took = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu;
      journal_flushes++;
      journal_total_ns += took;
      if (took > journal_max_ns)
        journal_max_ns = took;
    }
    journal_next = now + journal_ns;
  }
  return journal_next - now;
}

static void *consumer_main(void *arg) {
  (void)arg;
  for (;;) {
    uint32_t w = atomic_load_explicit(&wake_word, memory_order_acquire);
    uint64_t wait_ns = 0;
    pthread_mutex_lock(&consumer_lock);
    int done = stream_done;
    if (!stream_error && !done)
      stream_error = stream_pass(0);
    if (!stream_error && !done && journal_fn)
      wait_ns = journal_tick();
    pthread_mutex_unlock(&consumer_lock);
    if (done)
      return NULL;
    struct timespec ts = {(time_t)(wait_ns / 1000000000u), (long)(wait_ns % 1000000000u)};
    if (atomic_load_explicit(&wake_word, memory_order_acquire) == w)
      syscall(SYS_futex, (uint32_t *)&wake_word, FUTEX_WAIT_PRIVATE, w, wait_ns ? &ts : NULL,
              NULL, 0);
  }
  return NULL;
}

static int start_consumer(void) {
  int s = atomic_load_explicit(&consumer_started, memory_order_acquire);
  if (s)
    return s;
  int expected = 0;
  if (!atomic_compare_exchange_strong(&consumer_started, &expected, 2))
    return expected == 2 ? 1 : expected; /* another thread is starting it */
  pthread_t t;
  pthread_attr_t attr;
  sigset_t all, old;
  sigfillset(&all); /* the program's signals are not for this thread */
  pthread_sigmask(SIG_BLOCK, &all, &old);
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  s = pthread_create(&t, &attr, consumer_main, NULL) == 0 ? 1 : -1;
  pthread_attr_destroy(&attr);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  atomic_store_explicit(&consumer_started, s, memory_order_release);
  return s;
}

void ompdp_log_poll(void) {
  if (!stream_mode)
    return;
  if (background && start_consumer() == 1) {
    atomic_fetch_add_explicit(&wake_word, 1, memory_order_release);
    syscall(SYS_futex, (uint32_t *)&wake_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
    return;
  }
  inline_pass();
}

void ompdp_log_set_background(int on) { background = on; }

void ompdp_log_journal_stats(uint64_t *flushes, uint64_t *total_ns, uint64_t *max_ns) {
  pthread_mutex_lock(&consumer_lock);
  *flushes = journal_flushes;
  *total_ns = journal_total_ns;
  *max_ns = journal_max_ns;
  pthread_mutex_unlock(&consumer_lock);
}

void ompdp_log_set_journal(ompdp_log_journal_t fn, uint64_t interval_ns) {
  journal_fn = fn;
  journal_ns = interval_ns ? interval_ns : 1;
  journal_next = monotonic_ns() + journal_ns;
  journal_seq = UINT64_MAX;
}

void ompdp_log_stream_stop(void) {
  pthread_mutex_lock(&consumer_lock);
  stream_done = 1;
  pthread_mutex_unlock(&consumer_lock);
}

int ompdp_log_stream_finish(void) {
  if (!stream_mode)
    return 0;
  pthread_mutex_lock(&consumer_lock);
  if (!stream_error && !stream_done)
    stream_error = stream_pass(1);
  stream_done = 1;
  pthread_mutex_unlock(&consumer_lock);
  return stream_error;
}

int ompdp_log_replay(ompdp_log_sink_t sink, ompdp_log_ahead_t ahead, void *ctx, int release) {
  merge_t m = {.final = 1, .release = release, .watermark = UINT64_MAX};
  if (collect_cursors(&m, 0))
    return -1;
  uint64_t seq = 0;
  int rc = run_merge(&m, sink, ahead, ctx, &seq);
  free(m.cur);
  return rc;
}

void ompdp_log_skip_before(uint64_t ticks) { skip_before = ticks; }

static void after_fork_child(void) {
  pthread_mutex_init(&consumer_lock, NULL);
  pthread_mutex_init(&spare_lock, NULL);
  stream_seq = 0;
  stream_error = 0;
  stream_done = 0;
  journal_seq = UINT64_MAX;
  journal_flushes = journal_total_ns = journal_max_ns = 0;
  atomic_store(&consumer_started, 0); /* the parent's thread is not here */
  /* The registration is the parent's process's; this thread is the only
   * one, so the fence can change here. */
  if (asym_fence)
    asym_fence = register_barrier();
}

__attribute__((constructor)) static void register_fork_handler(void) {
  pthread_atfork(NULL, NULL, after_fork_child);
}

void ompdp_log_reset(void) {
  thread_log_t *b = atomic_exchange(&all_logs, NULL);
  while (b) {
    thread_log_t *next = b->next;
    chunk_t *c = b->head;
    while (c) {
      chunk_t *n = atomic_load(&c->next);
      free_chunk(c, 0);
      c = n;
    }
    free(b);
    b = next;
  }
  drop_spares();
  tls_log = NULL;
  stream_mode = stream_keep = 0;
  stream_sink = NULL;
  stream_ctx = NULL;
  stream_error = 0;
  stream_done = 0;
  stream_seq = 0;
  skip_before = 0;
  background = 0;
  journal_fn = NULL;
  journal_seq = UINT64_MAX;
  atomic_store(&dropped, 0);
}
