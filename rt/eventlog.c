/*===- eventlog.c - per-thread event buffers -----------------------*- C -*-===*\
|*
|* Each thread appends to its own chain of fixed-size chunks, so logging an
|* event takes no lock and records never move (callbacks keep pointers to
|* the record they started at begin and finish at end). A thread's buffer is
|* linked into a global list once, with a lock-free push; it outlives the
|* thread so that the events of helper threads survive until the report.
|*
\*===----------------------------------------------------------------------===*/
#include "ompdp_rt.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_EVENTS 4096

typedef struct chunk {
  struct chunk *next;
  _Atomic uint32_t used;
  ompdp_event_t ev[CHUNK_EVENTS];
} chunk_t;

typedef struct thread_buf {
  struct thread_buf *next;
  chunk_t *head;
  chunk_t *cur;
  uint32_t id; /* logging order between threads is by time; id breaks ties */
} thread_buf_t;

static _Atomic(thread_buf_t *) all_bufs;
static _Atomic uint32_t next_buf_id;
static _Atomic uint64_t dropped;
static _Thread_local thread_buf_t *tls_buf __attribute__((tls_model("initial-exec")));

static chunk_t *new_chunk(void) {
  chunk_t *c = malloc(sizeof(*c));
  if (!c)
    return NULL;
  c->next = NULL;
  atomic_init(&c->used, 0);
  return c;
}

static thread_buf_t *new_thread_buf(void) {
  thread_buf_t *b = calloc(1, sizeof(*b));
  if (!b)
    return NULL;
  b->head = b->cur = new_chunk();
  if (!b->head) {
    free(b);
    return NULL;
  }
  b->id = atomic_fetch_add(&next_buf_id, 1);
  thread_buf_t *old = atomic_load_explicit(&all_bufs, memory_order_relaxed);
  do {
    b->next = old;
  } while (!atomic_compare_exchange_weak_explicit(&all_bufs, &old, b, memory_order_release,
                                                  memory_order_relaxed));
  return b;
}

ompdp_event_t *ompdp_log_new_event(void) {
  thread_buf_t *b = tls_buf;
  if (__builtin_expect(!b, 0)) {
    b = tls_buf = new_thread_buf();
    if (!b)
      goto fail;
  }
  chunk_t *c = b->cur;
  uint32_t used = atomic_load_explicit(&c->used, memory_order_relaxed);
  if (__builtin_expect(used == CHUNK_EVENTS, 0)) {
    chunk_t *nc = new_chunk();
    if (!nc)
      goto fail;
    c->next = nc;
    b->cur = c = nc;
    used = 0;
  }
  ompdp_event_t *e = &c->ev[used];
  memset(e, 0, sizeof(*e));
  e->item = -1;
  atomic_store_explicit(&c->used, used + 1, memory_order_release);
  return e;
fail:
  atomic_fetch_add_explicit(&dropped, 1, memory_order_relaxed);
  return NULL;
}

uint64_t ompdp_log_dropped(void) { return atomic_load(&dropped); }

typedef struct keyed {
  uint64_t t;
  uint64_t order; /* buffer id << 40 | index within the buffer */
  const ompdp_event_t *e;
} keyed_t;

static int cmp_keyed(const void *a, const void *b) {
  const keyed_t *x = a, *y = b;
  if (x->t != y->t)
    return x->t < y->t ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

int ompdp_log_collect(ompdp_event_t **out, size_t *n) {
  size_t total = 0;
  thread_buf_t *head = atomic_load_explicit(&all_bufs, memory_order_acquire);
  for (thread_buf_t *b = head; b; b = b->next)
    for (chunk_t *c = b->head; c; c = c->next)
      total += atomic_load_explicit(&c->used, memory_order_acquire);
  keyed_t *k = malloc((total ? total : 1) * sizeof(*k));
  if (!k)
    return -1;
  size_t m = 0;
  for (thread_buf_t *b = head; b; b = b->next) {
    uint64_t idx = 0;
    for (chunk_t *c = b->head; c; c = c->next) {
      uint32_t used = atomic_load_explicit(&c->used, memory_order_acquire);
      for (uint32_t i = 0; i < used && m < total; ++i, ++idx) {
        const ompdp_event_t *e = &c->ev[i];
        if (!(e->flags & OMPDP_EVF_COMPLETE) && e->type != OMPDP_EV_TARGET)
          continue;
        k[m].t = e->t_begin;
        k[m].order = ((uint64_t)b->id << 40) | idx;
        k[m].e = e;
        ++m;
      }
    }
  }
  qsort(k, m, sizeof(*k), cmp_keyed);
  ompdp_event_t *ev = malloc((m ? m : 1) * sizeof(*ev));
  if (!ev) {
    free(k);
    return -1;
  }
  for (size_t i = 0; i < m; ++i)
    ev[i] = *k[i].e;
  free(k);
  *out = ev;
  *n = m;
  return 0;
}
