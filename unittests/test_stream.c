/*===- test_stream.c - stream mode and full-log mode agree ----------*- C -*-===*\
|*
|* The same records, analysed while they are logged (stream mode: consumer
|* passes between events, from several threads) and analysed from the whole
|* log afterwards (full-log mode), must give byte-identical JSON reports, and
|* the same as the engine fed from an array (ompdp_analyze). Sequences: the
|* five patterns one by one and together, on several devices, with
|* overlapping operations; and random workloads from four threads at once.
|* A second check makes sure the comparison can fail: a report from a
|* different sequence differs.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "check.h"
#include "ompdp_rt.h"
#include "detect.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define HOST 9

static char *render(const ompdp_report_t *r) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    return NULL;
  int rc = ompdp_report_write_json(r, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

/*--- events -----------------------------------------------------------------*/

typedef struct gen_ev {
  int type;
  int src_dev, dst_dev;
  uint64_t src, dst, bytes, hash;
  uint64_t dur;  /* ticks */
  uint64_t gap;  /* ticks before the next event (deterministic sequences) */
  uintptr_t site;
} gen_ev_t;

static uint32_t op_of(const gen_ev_t *g) {
  ompdp_op_t o;
  memset(&o, 0, sizeof(o));
  o.type = (uint8_t)g->type;
  o.src_dev = g->src_dev;
  o.dst_dev = g->dst_dev;
  o.src_addr = g->src;
  o.dst_addr = g->dst;
  o.bytes = g->bytes;
  o.codeptr = (const void *)g->site;
  o.item = -1;
  return ompdp_op_intern(&o);
}

/* Logs one event as the callbacks would: begun now (or at t when t is not
 * 0), completed with its end. */
static void log_event(const gen_ev_t *g, uint64_t t) {
  ompdp_rec_t *r = ompdp_log_new();
  if (!r)
    return;
  if (t)
    r->t_begin = t;
  int hashed = g->type == OMPDP_EV_TRANSFER && g->hash != 0;
  if (g->type == OMPDP_EV_TRANSFER) {
    r->x = g->hash;
    r->dur = ompdp_rec_dur_encode(g->dur);
  } else {
    r->x = r->t_begin + g->dur;
  }
  ompdp_log_complete(r, ompdp_rec_word(op_of(g), g->type, hashed, 0));
}

/*--- running both modes -------------------------------------------------------*/

static ompdp_engine_t *stream_engine;
static long streamed;      /* records the consumer handed over so far */
static long last_streamed; /* ... before the end, in the last run */

static int counting_sink(void *ctx, const ompdp_rec_t *r, uint32_t w, uint64_t seq) {
  __atomic_fetch_add(&streamed, 1, __ATOMIC_RELAXED);
  return ompdp_engine_sink(ctx, r, w, seq);
}

static void finish(ompdp_engine_t *g, ompdp_report_t *r) {
  ompdp_report_init(r);
  ompdp_engine_result_t res = {.wall_time_ns = 123456789, .tick_mult = 3ull << 31};
  CHECK(ompdp_engine_finish(g, r, &res) == 0);
  ompdp_engine_destroy(g);
}

static void start_stream(void) {
  ompdp_log_reset();
  ompdp_engine_config_t cfg = {.host_device = HOST};
  stream_engine = ompdp_engine_create(&cfg);
  CHECK(stream_engine != NULL);
  streamed = 0;
  ompdp_log_set_stream(counting_sink, ompdp_engine_ahead, stream_engine, 1);
}

/* Collects the expanded events in analysis order (for ompdp_analyze). */
typedef struct arr {
  ompdp_event_t *v;
  size_t n, cap;
} arr_t;

static int collect(void *ctx, const ompdp_rec_t *r, uint32_t w, uint64_t seq) {
  arr_t *a = ctx;
  (void)seq;
  if (a->n == a->cap) {
    a->cap = a->cap ? a->cap * 2 : 256;
    a->v = realloc(a->v, a->cap * sizeof(*a->v));
    if (!a->v)
      return -1;
  }
  ompdp_rec_expand(r, w, 1ull << 32, &a->v[a->n++]);
  return 0;
}

/* Ends the run: the stream report, then the full-log report of the same
 * records, then the array report; all three must be identical. Returns the
 * stream report's JSON. */
static char *end_and_compare(const char *what, size_t *num_findings) {
  long before_end = streamed;
  CHECK(ompdp_log_stream_finish() == 0);
  ompdp_report_t rs, rf, ra;
  finish(stream_engine, &rs);
  arr_t a = {0};
  CHECK(ompdp_log_replay(collect, NULL, &a, 0) == 0);
  ompdp_engine_config_t cfg = {.host_device = HOST};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  CHECK(ompdp_log_replay(ompdp_engine_sink, ompdp_engine_ahead, g, 1) == 0);
  finish(g, &rf);
  ompdp_report_init(&ra);
  ompdp_analysis_input_t in = {.events = a.v, .num_events = a.n, .host_device = HOST,
                               .wall_time_ns = 123456789, .tick_mult = 3ull << 31};
  CHECK(ompdp_analyze(&in, &ra, NULL) == 0);
  char *js = render(&rs), *jf = render(&rf), *ja = render(&ra);
  CHECK(js && jf && ja);
  int same = js && jf && ja && !strcmp(js, jf) && !strcmp(js, ja);
  if (!same)
    fprintf(stderr, "%s: reports differ\n--- stream\n%s\n--- full\n%s\n--- array\n%s\n", what,
            js ? js : "", jf ? jf : "", ja ? ja : "");
  CHECK(same);
  if (num_findings)
    *num_findings = rs.num_findings;
  last_streamed = before_end;
  free(jf);
  free(ja);
  free(a.v);
  ompdp_report_free(&rs);
  ompdp_report_free(&rf);
  ompdp_report_free(&ra);
  ompdp_log_reset();
  return js;
}

/*--- deterministic sequences --------------------------------------------------*/

typedef struct seq {
  gen_ev_t ev[512];
  int n;
} seq_t;

static gen_ev_t *add(seq_t *s, int type, int src_dev, int dst_dev, uint64_t src, uint64_t dst,
                     uint64_t bytes, uint64_t hash, uint64_t dur, uint64_t gap, uintptr_t site) {
  gen_ev_t *g = &s->ev[s->n++];
  *g = (gen_ev_t){type, src_dev, dst_dev, src, dst, bytes, hash, dur, gap, site};
  return g;
}

#define H2D(s, dev, host, da, b, h, site) \
  add(s, OMPDP_EV_TRANSFER, HOST, dev, host, da, b, h, 100, 20, site)
#define D2H(s, dev, da, host, b, h, site) \
  add(s, OMPDP_EV_TRANSFER, dev, HOST, da, host, b, h, 100, 20, site)
#define ALLOC(s, dev, host, da, b, site) \
  add(s, OMPDP_EV_ALLOC, HOST, dev, host, da, b, 0, 40, 20, site)
#define DEL(s, dev, da, site) add(s, OMPDP_EV_DELETE, dev, -1, da, 0, 0, 0, 30, 20, site)
#define KERNEL(s, dev, site) add(s, OMPDP_EV_KERNEL, HOST, dev, 0, 0, 0, 0, 500, 20, site)

/* Logs s from one thread, with a consumer pass every `every` events, at
 * times spaced by the events' gaps (a gap shorter than the duration makes
 * the next operation overlap). */
static void play(const seq_t *s, int every) {
  uint64_t t = 1000;
  for (int i = 0; i < s->n; ++i) {
    log_event(&s->ev[i], t);
    t += s->ev[i].gap;
    if (every && (i + 1) % every == 0)
      ompdp_log_poll();
  }
}

/* All five patterns, Listing 1 and 2 style, on devices 0 and 1, with a
 * cluster of overlapping operations and allocations never freed. */
static void patterns(seq_t *s) {
  s->n = 0;
  for (int it = 0; it < 6; ++it) {
    int dev = it & 1;
    uint64_t da = 0xd000 + (uint64_t)dev * 0x10000;
    ALLOC(s, dev, 0x1000, da, 64, 0x10);                 /* repeated allocation */
    H2D(s, dev, 0x1000, da, 64, 7, 0x11);                /* duplicate after the first */
    H2D(s, dev, 0x2000, da + 0x100, 32, 100 + it, 0x12); /* overwritten below: unused */
    H2D(s, dev, 0x2000, da + 0x100, 32, 200 + it, 0x12);
    KERNEL(s, dev, 0x13);
    D2H(s, dev, da + 0x100, 0x2000, 32, 300 + it, 0x14); /* goes back out: round trip */
    H2D(s, dev, 0x2000, da + 0x100, 32, 300 + it, 0x15)->gap = 40; /* the next overlaps */
    H2D(s, dev, 0x3000, da + 0x200, 16, 400 + it, 0x16);
    DEL(s, dev, da, 0x17);
    ALLOC(s, 3, 0x4000 + (uint64_t)it * 64, 0xe000 + (uint64_t)it * 64, 64, 0x18); /* unused */
    DEL(s, 3, 0xe000 + (uint64_t)it * 64, 0x19);
  }
  ALLOC(s, 2, 0x5000, 0xf000, 8, 0x1a); /* never freed, no kernel */
  H2D(s, 2, 0x5000, 0xf000, 8, 7, 0x1b); /* after the last kernel: unused; other buffer */
  KERNEL(s, 0, 0x13); /* the next transfer happens while it runs */
  H2D(s, 0, 0x6000, 0xd000, 64, 999, 0x1c);
}

static void deterministic(void) {
  static seq_t s;
  patterns(&s);
  const int everies[] = {0, 1, 2, 7, 64};
  char *first = NULL;
  for (size_t i = 0; i < sizeof(everies) / sizeof(everies[0]); ++i) {
    start_stream();
    play(&s, everies[i]);
    size_t nf = 0;
    char *js = end_and_compare("patterns", &nf);
    CHECK(nf >= 5);
    /* And the poll frequency changes nothing either. */
    if (!first)
      first = js;
    else {
      CHECK(js && !strcmp(first, js));
      free(js);
    }
  }
  /* A different sequence gives a different report: the comparison can
   * fail. */
  s.ev[1].hash = 8;
  start_stream();
  play(&s, 3);
  char *other = end_and_compare("patterns, changed", NULL);
  CHECK(first && other && strcmp(first, other) != 0);
  free(other);
  free(first);
}

/*--- four threads at once -------------------------------------------------------*/

typedef struct worker {
  int id;
  unsigned seed;
  int n;
} worker_t;

static uint64_t rnd(unsigned *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 8) & 0xffffff;
}

/* Random operations on a few buffers and devices, hashes from a small set
 * so that every pattern occurs; times are the real clock (the stream
 * consumer relies on it), durations long enough to overlap other
 * threads' operations. */
static void *work(void *p) {
  worker_t *w = p;
  uint64_t live[4] = {0};
  for (int i = 0; i < w->n; ++i) {
    gen_ev_t g = {0};
    int dev = (int)(rnd(&w->seed) % 3);
    int buf = (int)(rnd(&w->seed) % 4);
    uint64_t host = 0x100000 * (uint64_t)(w->id + 1) + (uint64_t)buf * 0x1000;
    uint64_t da = 0x900000 * (uint64_t)(dev + 1) + 0x10000 * (uint64_t)w->id + (uint64_t)buf * 0x100;
    g.site = 0x100 + (uintptr_t)(rnd(&w->seed) % 5);
    g.dur = 50 + rnd(&w->seed) % 4000;
    switch (rnd(&w->seed) % 7) {
    case 0:
      g.type = OMPDP_EV_ALLOC, g.src_dev = HOST, g.dst_dev = dev, g.src = host, g.dst = da;
      g.bytes = 64;
      live[buf] = da | (uint64_t)dev << 60 | 1ull << 63;
      break;
    case 1:
      if (!(live[buf] >> 63))
        continue;
      g.type = OMPDP_EV_DELETE, g.src_dev = (int)(live[buf] >> 60 & 7), g.dst_dev = -1;
      g.src = live[buf] & 0xfffffffffffull;
      live[buf] = 0;
      break;
    case 2:
      g.type = OMPDP_EV_KERNEL, g.src_dev = HOST, g.dst_dev = dev;
      break;
    case 3:
    case 4:
      g.type = OMPDP_EV_TRANSFER, g.src_dev = HOST, g.dst_dev = dev, g.src = host, g.dst = da;
      g.bytes = 64 >> (rnd(&w->seed) % 2), g.hash = 1 + rnd(&w->seed) % 6;
      break;
    default:
      g.type = OMPDP_EV_TRANSFER, g.src_dev = dev, g.dst_dev = HOST, g.src = da, g.dst = host;
      g.bytes = 64, g.hash = 1 + rnd(&w->seed) % 6;
      break;
    }
    log_event(&g, 0);
    if (rnd(&w->seed) % 5 == 0)
      ompdp_log_poll();
  }
  return NULL;
}

static void threads(void) {
  for (int round = 0; round < 4; ++round) {
    start_stream();
    pthread_t t[4];
    worker_t w[4];
    for (int i = 0; i < 4; ++i) {
      w[i] = (worker_t){i, 17u * (unsigned)(round * 4 + i) + 1u, 3000};
      CHECK(pthread_create(&t[i], NULL, work, &w[i]) == 0);
    }
    for (int i = 0; i < 4; ++i)
      pthread_join(t[i], NULL);
    size_t nf = 0;
    free(end_and_compare("four threads", &nf));
    CHECK(nf >= 5);
    CHECK(last_streamed > 0); /* analysed while the threads were logging */
  }
}

/* Many events from one thread, so that filling chunks triggers the
 * consumer and releases them, as in a long run. */
static void long_run(void) {
  start_stream();
  worker_t w = {0, 99u, 40000};
  work(&w);
  free(end_and_compare("long run", NULL));
  CHECK(last_streamed > 30000);
}

/* Without keeping the log (the runtime's stream mode), the chunks a pass
 * consumed are released, and new records go into the ones kept as spares
 * (rt/eventlog.c, MAX_SPARE): the stream report must still be that of
 * every record, in order. The sink keeps a copy of each record it is
 * handed, for ompdp_analyze. */
typedef struct tee {
  ompdp_engine_t *g;
  arr_t a;
} tee_t;

static int tee_sink(void *ctx, const ompdp_rec_t *r, uint32_t w, uint64_t seq) {
  tee_t *t = ctx;
  if (collect(&t->a, r, w, seq))
    return -1;
  return ompdp_engine_sink(t->g, r, w, seq);
}

static void recycled_chunks(void) {
  ompdp_log_reset();
  ompdp_engine_config_t cfg = {.host_device = HOST};
  tee_t t = {ompdp_engine_create(&cfg), {0}};
  CHECK(t.g != NULL);
  ompdp_log_set_stream(tee_sink, NULL, &t, 0);
  worker_t w = {0, 7u, 60000};
  work(&w);
  CHECK(ompdp_log_stream_finish() == 0);
  /* About ten 128 KiB chunks of records went through; what stays mapped is
   * the one being written and the spares. */
  CHECK(t.a.n > 50000);
  CHECK(ompdp_log_memory() <= 5 * (128u << 10));
  ompdp_report_t rs, ra;
  finish(t.g, &rs);
  ompdp_report_init(&ra);
  ompdp_analysis_input_t in = {.events = t.a.v, .num_events = t.a.n, .host_device = HOST,
                               .wall_time_ns = 123456789, .tick_mult = 3ull << 31};
  CHECK(ompdp_analyze(&in, &ra, NULL) == 0);
  char *js = render(&rs), *ja = render(&ra);
  CHECK(js && ja && !strcmp(js, ja));
  CHECK(rs.num_findings >= 5);
  free(js);
  free(ja);
  free(t.a.v);
  ompdp_report_free(&rs);
  ompdp_report_free(&ra);
  ompdp_log_reset();
  CHECK(ompdp_log_memory() == 0);
}

/* One thread holds an incomplete record (a long kernel) while another logs
 * chunks' worth of events: the consumer must wait for it, then hand
 * everything over in order. */
static ompdp_rec_t *held;
static _Atomic int held_ready, other_done;

static void *holder(void *p) {
  (void)p;
  gen_ev_t k = {OMPDP_EV_KERNEL, HOST, 1, 0, 0, 0, 0, 0, 0, 0x300};
  held = ompdp_log_new();
  held->x = held->t_begin;
  held->op = ompdp_rec_word(op_of(&k), OMPDP_EV_KERNEL, 0, 0);
  atomic_store(&held_ready, 1);
  while (!atomic_load(&other_done))
    ;
  held->x = ompdp_ticks();
  ompdp_log_complete(held, held->op);
  gen_ev_t t = {OMPDP_EV_TRANSFER, HOST, 1, 0x10, 0x20, 8, 77, 10, 0, 0x301};
  log_event(&t, 0);
  return NULL;
}

static void held_record(void) {
  start_stream();
  atomic_store(&held_ready, 0);
  atomic_store(&other_done, 0);
  pthread_t t;
  CHECK(pthread_create(&t, NULL, holder, NULL) == 0);
  while (!atomic_load(&held_ready))
    ;
  worker_t w = {1, 7u, 20000};
  work(&w);
  long during = streamed;
  atomic_store(&other_done, 1);
  pthread_join(t, NULL);
  free(end_and_compare("held record", NULL));
  CHECK(during == 0); /* everything waited for the kernel that began first */
}

int main(void) {
  ompdp_time_init();
  deterministic();
  /* Both orders of the busy flag and the clock (rt/eventlog.c, top): the
   * consumer's process-wide barrier where the kernel has one, and the
   * per-record fence. */
  for (int per_record = 0; per_record < 2; ++per_record) {
    ompdp_log_set_fence(per_record);
    threads();
    CHECK(ompdp_log_fence_per_record() >= per_record);
    long_run();
    held_record();
    recycled_chunks();
  }
  return CHECK_DONE();
}
