/*===- events.h - hand-written event sequences for unit tests ------*- C -*-===*\
|*
|* A tiny builder: each helper appends one complete event at the next time
|* step, so a test reads as the sequence of operations it models. Device 9
|* plays the host. Events are the expanded view (ompdp_event_t), times in
|* ticks of one nanosecond; the engine interns their operations and stores
|* them as records exactly as the runtime does. seq_matches() runs the
|* engine and returns the matches of one detection, by event index.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_UNITTEST_EVENTS_H
#define OMPDP_UNITTEST_EVENTS_H

#include "detect.h"

#include <string.h>

#define HOST 9
#define MAX_EVENTS 256

typedef struct seq {
  ompdp_event_t ev[MAX_EVENTS];
  size_t n;
  uint64_t t;
} seq_t;

static inline void seq_init(seq_t *s) {
  memset(s, 0, sizeof(*s));
  s->t = 1000;
}

static inline ompdp_event_t *seq_add(seq_t *s, int type, uint64_t duration) {
  ompdp_event_t *e = &s->ev[s->n++];
  memset(e, 0, sizeof(*e));
  e->type = (uint8_t)type;
  e->flags = OMPDP_EVF_COMPLETE;
  e->item = -1;
  e->t_begin = s->t;
  e->t_end = s->t + duration;
  s->t += duration + 10;
  return e;
}

/* Host buffer `host` with content `hash` to device `dev`. */
static inline uint32_t h2d(seq_t *s, int dev, uint64_t host, uint64_t devaddr, uint64_t bytes,
                    uint64_t hash) {
  ompdp_event_t *e = seq_add(s, OMPDP_EV_TRANSFER, 100);
  e->src_dev = HOST;
  e->dst_dev = dev;
  e->src_addr = host;
  e->dst_addr = devaddr;
  e->bytes = bytes;
  e->hash = hash;
  e->flags |= OMPDP_EVF_HASHED;
  return (uint32_t)(s->n - 1);
}

static inline uint32_t d2h(seq_t *s, int dev, uint64_t devaddr, uint64_t host, uint64_t bytes,
                    uint64_t hash) {
  ompdp_event_t *e = seq_add(s, OMPDP_EV_TRANSFER, 100);
  e->src_dev = dev;
  e->dst_dev = HOST;
  e->src_addr = devaddr;
  e->dst_addr = host;
  e->bytes = bytes;
  e->hash = hash;
  e->flags |= OMPDP_EVF_HASHED;
  return (uint32_t)(s->n - 1);
}

static inline uint32_t alloc(seq_t *s, int dev, uint64_t host, uint64_t devaddr, uint64_t bytes) {
  ompdp_event_t *e = seq_add(s, OMPDP_EV_ALLOC, 50);
  e->src_dev = HOST;
  e->dst_dev = dev;
  e->src_addr = host;
  e->dst_addr = devaddr;
  e->bytes = bytes;
  return (uint32_t)(s->n - 1);
}

static inline uint32_t del(seq_t *s, int dev, uint64_t devaddr) {
  ompdp_event_t *e = seq_add(s, OMPDP_EV_DELETE, 50);
  e->src_dev = dev;
  e->dst_dev = -1;
  e->src_addr = devaddr;
  return (uint32_t)(s->n - 1);
}

static inline uint32_t kernel(seq_t *s, int dev) {
  ompdp_event_t *e = seq_add(s, OMPDP_EV_KERNEL, 1000);
  e->dst_dev = dev;
  return (uint32_t)(s->n - 1);
}

/* The matches of one kind for the sequence, from an engine configured as
 * cfg (its host_device is HOST); 0 on success. */
static inline int seq_matches_cfg(const seq_t *s, int kind, ompdp_matches_t *out,
                                  ompdp_engine_config_t cfg) {
  ompdp_matches_t all[OMPDP_FK_COUNT];
  memset(all, 0, sizeof(all));
  cfg.host_device = HOST;
  int rc = ompdp_find_matches(s->ev, s->n, &cfg, all);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k) {
    if (k == kind)
      *out = all[k];
    else
      ompdp_matches_free(&all[k]);
  }
  return rc;
}

/* The same with the default configuration. */
static inline int seq_matches(const seq_t *s, int kind, ompdp_matches_t *out) {
  ompdp_engine_config_t cfg = {0};
  return seq_matches_cfg(s, kind, out, cfg);
}

/* The matches of one kind for a run that ended early (a death): every
 * event is fed as the crash log's reader feeds it, a kernel without
 * OMPDP_EVF_COMPLETE as one in flight, and the engine is finished with
 * ompdp_engine_finish_early; 0 on success. */
static inline int seq_matches_early(const seq_t *s, int kind, ompdp_matches_t *out) {
  ompdp_matches_t all[OMPDP_FK_COUNT];
  memset(all, 0, sizeof(all));
  ompdp_engine_config_t cfg = {.host_device = HOST, .matches = all};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  int rc = g ? 0 : -1;
  for (size_t i = 0; i < s->n && !rc; ++i) {
    ompdp_rec_t rec;
    if (!(s->ev[i].flags & OMPDP_EVF_COMPLETE) && s->ev[i].type != OMPDP_EV_KERNEL)
      continue;
    rc = ompdp_rec_from_event(&s->ev[i], &rec) || ompdp_engine_feed(g, &rec, rec.op, i);
  }
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_engine_result_t res = {0};
  if (g && ompdp_engine_finish_early(g, &r, &res))
    rc = -1;
  ompdp_report_free(&r);
  ompdp_engine_destroy(g);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k) {
    if (k == kind)
      *out = all[k];
    else
      ompdp_matches_free(&all[k]);
  }
  return rc;
}

#endif
