/*===- timeline_collect.c - what the engine keeps of the timeline -*- C -*-===*\
|*
|* The timeline (report/timeline.h) is for people: the operations that make
|* up each finding, in time, beside the rest of the run. Keeping every event
|* would undo the stream mode's bounded memory, so by default this keeps
|*   - the first `first` events (timeline_first), as the run began;
|*   - the avoidable operations of each finding, up to per_finding of each
|*     (timeline_per_finding), the first ones, and the operations they
|*     repeat or undo (the outgoing copy of a round trip, ...);
|*   - for every other event, counts, bytes and time per device and kind of
|*     operation, and counts in OMPDP_TLC_BINS time bins whose width doubles
|*     as the run goes on (adjacent bins merged).
|* A detection decides some matches late (an allocation is unused only once
|* its delete ended with no kernel in between; a transfer is unused when
|* the next kernel comes), so the last OMPDP_TLC_RING events wait in a ring
|* before they are counted: a decision that comes while its event is there
|* keeps it. One that comes later (a transfer left unused across more than
|* that many events) only counts: the page then shows fewer operations for
|* the finding than it has, and says so.
|*
|* Memory, bounded: the ring (OMPDP_TLC_RING * 40 bytes), 40 bytes per kept
|* event (plus 32 for finding its index by position), 16 per link, and the
|* bins (8 bytes * OMPDP_TLC_BINS per device and kind). With full (option
|* timeline=full) every event is kept, at 40 bytes each, and nothing waits.
|*
|* Deterministic: what is kept depends only on the events and matches in
|* analysis order, so the stream and full-log modes give the same timeline.
|*
\*===----------------------------------------------------------------------===*/
#include "timeline_collect.h"

#include <stdlib.h>
#include <string.h>

/* One event as kept: 40 bytes. */
typedef struct tl_ev {
  uint64_t seq;
  uint64_t start, end; /* ticks */
  uint32_t op;
  uint32_t thread;
  uint32_t kept; /* in the ring: its index in kept[], or OMPDP_NONE */
  uint8_t used;  /* in the ring: the slot holds an event */
} tl_ev_t;

typedef struct tl_link {
  uint64_t seq;
  uint32_t finding;
  uint32_t related;
} tl_link_t;

typedef struct tl_lane {
  int32_t device;
  uint8_t type;
  uint64_t count, bytes, ticks;
  uint64_t bins[OMPDP_TLC_BINS];
} tl_lane_t;

struct ompdp_tlc {
  ompdp_tlc_config_t cfg;
  uint64_t events;
  uint64_t t0;
  uint32_t threads;
  tl_ev_t *ring; /* bounded only */
  /* Slots below ring_ready are zeroed or hold events; the others were
   * never touched (ring_prepare). */
  size_t ring_ready;
  /* The lowest and highest seq put in the ring (ring_any: one was): the
   * slots the end must look at. A short run touches a few of the ring's 40
   * pages; visiting all of them at the end faulted each in (0.1 ms). */
  uint64_t ring_lo, ring_hi;
  int ring_any;
  tl_ev_t *kept;
  size_t nkept, capkept;
  int kept_sorted; /* kept[] is in seq order (always so in full mode) */
  ompdp_hmap_t where; /* bounded: (uint32) seq -> index in kept + 1 */
  tl_link_t *links;
  size_t nlinks, caplinks;
  uint32_t *shown; /* per engine finding: avoidable operations kept */
  size_t nshown;
  tl_lane_t **lanes;
  size_t nlanes;
  uint64_t bin_w; /* ticks per bin, a power of two */
};

ompdp_tlc_t *ompdp_tlc_create(const ompdp_tlc_config_t *cfg) {
  ompdp_tlc_t *t = calloc(1, sizeof(*t));
  if (!t)
    return NULL;
  t->cfg = *cfg;
  t->bin_w = 1;
  t->kept_sorted = 1;
  if (!cfg->full) {
    /* Not calloc: its zeroing faulted in all 40 pages of the ring at the
     * start of every analysis (ring_prepare). */
    t->ring = malloc(OMPDP_TLC_RING * sizeof(*t->ring));
    if (!t->ring || ompdp_hmap_init(&t->where, 64)) {
      free(t->ring);
      free(t);
      return NULL;
    }
  }
  return t;
}

void ompdp_tlc_destroy(ompdp_tlc_t *t) {
  if (!t)
    return;
  free(t->ring);
  free(t->kept);
  if (!t->cfg.full)
    ompdp_hmap_free(&t->where);
  free(t->links);
  free(t->shown);
  for (size_t i = 0; i < t->nlanes; ++i)
    free(t->lanes[i]);
  free(t->lanes);
  free(t);
}

size_t ompdp_tlc_memory(const ompdp_tlc_t *t) {
  return sizeof(*t) + (t->ring ? OMPDP_TLC_RING * sizeof(tl_ev_t) : 0) +
         t->capkept * sizeof(tl_ev_t) + (t->cfg.full ? 0 : ompdp_hmap_memory(&t->where)) +
         t->caplinks * sizeof(tl_link_t) + t->nshown * sizeof(uint32_t) +
         t->nlanes * (sizeof(tl_lane_t) + sizeof(tl_lane_t *));
}

/*===- what an operation is on the timeline ------------------------------------===*/

static int tl_type(const ompdp_op_t *o, int host) {
  switch (o->type) {
  case OMPDP_EV_ALLOC:
    return OMPDP_TL_ALLOC;
  case OMPDP_EV_DELETE:
    return OMPDP_TL_DELETE;
  case OMPDP_EV_KERNEL:
    return OMPDP_TL_KERNEL;
  default:
    if (o->src_dev == host && o->dst_dev != host)
      return OMPDP_TL_H2D;
    if (o->dst_dev == host && o->src_dev != host)
      return OMPDP_TL_D2H;
    return OMPDP_TL_D2D;
  }
}

/* The device whose lane shows the operation. */
static int32_t tl_device(const ompdp_op_t *o, int type) {
  switch (type) {
  case OMPDP_TL_D2H:
    return o->src_dev;
  case OMPDP_TL_DELETE:
    return o->src_dev;
  default:
    return o->dst_dev;
  }
}

/*===- the counts of what is not kept -------------------------------------------===*/

static void halve_bins(ompdp_tlc_t *t) {
  for (size_t i = 0; i < t->nlanes; ++i) {
    uint64_t *b = t->lanes[i]->bins;
    for (size_t k = 0; k < OMPDP_TLC_BINS / 2; ++k)
      b[k] = b[2 * k] + b[2 * k + 1];
    memset(b + OMPDP_TLC_BINS / 2, 0, OMPDP_TLC_BINS / 2 * sizeof(*b));
  }
  t->bin_w *= 2;
}

static int count_rest(ompdp_tlc_t *t, const tl_ev_t *ev) {
  const ompdp_op_t *o = ompdp_op_get(ev->op);
  int type = tl_type(o, t->cfg.host_device);
  int32_t dev = tl_device(o, type);
  tl_lane_t *l = NULL;
  for (size_t i = 0; i < t->nlanes && !l; ++i)
    if (t->lanes[i]->device == dev && t->lanes[i]->type == type)
      l = t->lanes[i];
  if (!l) {
    tl_lane_t **v = realloc(t->lanes, (t->nlanes + 1) * sizeof(*v));
    if (!v)
      return -1;
    t->lanes = v;
    l = calloc(1, sizeof(*l));
    if (!l)
      return -1;
    l->device = dev;
    l->type = (uint8_t)type;
    t->lanes[t->nlanes++] = l;
  }
  l->count++;
  l->bytes += type == OMPDP_TL_KERNEL ? 0 : o->bytes;
  l->ticks += ev->end - ev->start;
  uint64_t off = ev->start >= t->t0 ? ev->start - t->t0 : 0;
  while (off / t->bin_w >= OMPDP_TLC_BINS)
    halve_bins(t);
  l->bins[off / t->bin_w]++;
  return 0;
}

/*===- keeping -------------------------------------------------------------------===*/

/* Appends ev to kept[]; returns its index, or OMPDP_NONE when out of
 * memory. */
static uint32_t keep(ompdp_tlc_t *t, const tl_ev_t *ev) {
  if (t->nkept == t->capkept) {
    size_t cap = t->capkept ? t->capkept * 2 : 256;
    tl_ev_t *v = realloc(t->kept, cap * sizeof(*v));
    if (!v)
      return OMPDP_NONE;
    t->kept = v;
    t->capkept = cap;
  }
  uint32_t idx = (uint32_t)t->nkept;
  if (t->nkept && t->kept[t->nkept - 1].seq > ev->seq)
    t->kept_sorted = 0;
  t->kept[t->nkept++] = *ev;
  if (!t->cfg.full) {
    int inserted;
    uint64_t *slot = ompdp_hmap_upsert(&t->where, (uint32_t)ev->seq, 0, 0, &inserted);
    if (!slot) {
      t->nkept--;
      return OMPDP_NONE;
    }
    *slot = (uint64_t)idx + 1;
  }
  return idx;
}

/* Zeroes the ring up to slot i, a page at a time. A short run puts a few
 * events in the ring: zeroing all of it when the engine was made faulted
 * in its 40 pages, about three quarters of the analysis of a one-region
 * run (issue 30). Slots at or above ring_ready are never read. */
static void ring_prepare(ompdp_tlc_t *t, size_t i) {
  const size_t step = 4096, all = OMPDP_TLC_RING * sizeof(tl_ev_t);
  size_t from = t->ring_ready * sizeof(tl_ev_t);
  size_t to = ((i + 1) * sizeof(tl_ev_t) + step - 1) / step * step;
  if (to > all)
    to = all;
  memset((char *)t->ring + from, 0, to - from);
  t->ring_ready = to / sizeof(tl_ev_t);
}

int ompdp_tlc_event(ompdp_tlc_t *t, const ompdp_xev_t *e, uint32_t thread) {
  if (!t->events++)
    t->t0 = e->start;
  if (thread + 1 > t->threads)
    t->threads = thread + 1;
  tl_ev_t ev = {e->seq, e->start, e->end, e->op, thread, OMPDP_NONE, 1};
  if (t->cfg.full)
    return keep(t, &ev) == OMPDP_NONE ? -1 : 0;
  size_t at = (size_t)(e->seq % OMPDP_TLC_RING);
  if (__builtin_expect(at >= t->ring_ready, 0))
    ring_prepare(t, at);
  tl_ev_t *slot = &t->ring[at];
  if (slot->used && slot->kept == OMPDP_NONE && count_rest(t, slot))
    return -1;
  if (t->events <= t->cfg.first && (ev.kept = keep(t, &ev)) == OMPDP_NONE)
    return -1;
  *slot = ev;
  if (!t->ring_any || e->seq < t->ring_lo)
    t->ring_lo = e->seq;
  if (!t->ring_any || e->seq > t->ring_hi)
    t->ring_hi = e->seq;
  t->ring_any = 1;
  return 0;
}

/* The event of position seq (as detections pass it, possibly cut to 32
 * bits), wherever it is kept or waiting; NULL when it is gone. *idx: its
 * index in kept[] or OMPDP_NONE; *ring: its ring slot, or NULL. */
static tl_ev_t *find(ompdp_tlc_t *t, uint64_t seq, uint32_t *idx, tl_ev_t **ring) {
  *idx = OMPDP_NONE;
  *ring = NULL;
  if (t->cfg.full) {
    size_t lo = 0, hi = t->nkept;
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (t->kept[mid].seq < seq)
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == t->nkept || t->kept[lo].seq != seq)
      return NULL;
    *idx = (uint32_t)lo;
    return &t->kept[lo];
  }
  size_t at = (size_t)(seq % OMPDP_TLC_RING);
  tl_ev_t *s = at < t->ring_ready ? &t->ring[at] : NULL;
  if (s && s->used && (uint32_t)s->seq == (uint32_t)seq) {
    *ring = s;
    *idx = s->kept;
    return s->kept == OMPDP_NONE ? s : &t->kept[s->kept];
  }
  uint64_t *v = ompdp_hmap_find(&t->where, (uint32_t)seq, 0, 0);
  if (!v)
    return NULL;
  *idx = (uint32_t)(*v - 1);
  return &t->kept[*idx];
}

static int add_link(ompdp_tlc_t *t, uint64_t seq, uint32_t f, uint32_t related) {
  if (t->nlinks == t->caplinks) {
    size_t cap = t->caplinks ? t->caplinks * 2 : 256;
    tl_link_t *v = realloc(t->links, cap * sizeof(*v));
    if (!v)
      return -1;
    t->links = v;
    t->caplinks = cap;
  }
  t->links[t->nlinks++] = (tl_link_t){seq, f, related};
  return 0;
}

/* Links the event at seq to finding f, keeping it if it is still waiting
 * and may be kept. Returns 1 if linked, 0 if not, -1 when out of memory. */
static int link_event(ompdp_tlc_t *t, uint64_t seq, uint32_t f, uint32_t related,
                      int may_keep) {
  uint32_t idx;
  tl_ev_t *ring;
  tl_ev_t *ev = find(t, seq, &idx, &ring);
  if (!ev)
    return 0;
  if (idx == OMPDP_NONE) {
    if (!may_keep)
      return 0;
    if ((idx = keep(t, ev)) == OMPDP_NONE)
      return -1;
    ring->kept = idx;
    ev = &t->kept[idx];
  }
  return add_link(t, ev->seq, f, related) ? -1 : 1;
}

int ompdp_tlc_match(ompdp_tlc_t *t, ompdp_engine_t *g, int kind, uint64_t avoid, uint64_t ref,
                    uint64_t aux) {
  uint32_t idx;
  tl_ev_t *ring;
  tl_ev_t *ev = find(t, avoid, &idx, &ring);
  if (!ev)
    return 0; /* gone: only counted */
  uint32_t f = ompdp_g_finding(g, kind, ev->op, ev->seq);
  if (f == OMPDP_NONE)
    return -1;
  if (f >= t->nshown) {
    size_t n = t->nshown ? t->nshown : 16;
    while (n <= f)
      n *= 2;
    uint32_t *v = realloc(t->shown, n * sizeof(*v));
    if (!v)
      return -1;
    memset(v + t->nshown, 0, (n - t->nshown) * sizeof(*v));
    t->shown = v;
    t->nshown = n;
  }
  int may_keep = t->cfg.full || t->shown[f] < t->cfg.per_finding;
  int rc = link_event(t, avoid, f, 0, may_keep);
  if (rc <= 0)
    return rc;
  t->shown[f]++;
  /* The delete of an avoidable allocation is avoidable with it. */
  const ompdp_detection_kind_t *k = ompdp_detection_kind((ompdp_finding_kind_t)kind);
  if (k && k->aux == OMPDP_AUX_DELETE && (uint32_t)aux != OMPDP_NONE &&
      link_event(t, aux, f, 0, 1) < 0)
    return -1;
  /* The operation it repeats or undoes (a match's ref is always a
   * position, detect.h). */
  if ((uint32_t)ref != OMPDP_NONE && link_event(t, ref, f, 1, 1) < 0)
    return -1;
  return 0;
}

/*===- the end ---------------------------------------------------------------------===*/

static int cmp_ev(const void *a, const void *b) {
  const tl_ev_t *x = a, *y = b;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int cmp_link(const void *a, const void *b) {
  const tl_link_t *x = a, *y = b;
  if (x->seq != y->seq)
    return x->seq < y->seq ? -1 : 1;
  if (x->finding != y->finding)
    return x->finding < y->finding ? -1 : 1;
  return x->related < y->related ? -1 : x->related > y->related;
}

static int cmp_lane(const void *a, const void *b) {
  const tl_lane_t *x = *(tl_lane_t *const *)a, *y = *(tl_lane_t *const *)b;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  return x->type < y->type ? -1 : x->type > y->type;
}

ompdp_timeline_t *ompdp_tlc_finish(ompdp_tlc_t *t, uint64_t mult) {
  if (!mult)
    mult = 1ull << 32;
  /* What still waits and was not kept is counted now. */
  if (!t->cfg.full && t->ring_any) {
    /* In slot order, as a walk over the whole ring would go, over the
     * slots of seqs ring_lo..ring_hi: one range, or two when it wraps. */
    size_t lo = (size_t)(t->ring_lo % OMPDP_TLC_RING), hi = (size_t)(t->ring_hi % OMPDP_TLC_RING);
    size_t span[2][2] = {{0, OMPDP_TLC_RING}, {0, 0}};
    if (t->ring_hi - t->ring_lo < OMPDP_TLC_RING) {
      if (lo <= hi) {
        span[0][0] = lo;
        span[0][1] = hi + 1;
      } else {
        span[0][1] = hi + 1;
        span[1][0] = lo;
        span[1][1] = OMPDP_TLC_RING;
      }
    }
    for (int k = 0; k < 2; ++k) {
      for (size_t i = span[k][0]; i < span[k][1] && i < t->ring_ready; ++i) {
        tl_ev_t *s = &t->ring[i];
        if (s->used && s->kept == OMPDP_NONE && count_rest(t, s))
          return NULL;
        s->used = 0;
      }
    }
    t->ring_any = 0;
  }
  if (!t->kept_sorted) {
    qsort(t->kept, t->nkept, sizeof(*t->kept), cmp_ev);
    t->kept_sorted = 1;
  }
  if (t->nlinks)
    qsort(t->links, t->nlinks, sizeof(*t->links), cmp_link);
  ompdp_timeline_t *tl = calloc(1, sizeof(*tl));
  if (!tl)
    return NULL;
  tl->full = t->cfg.full;
  tl->events = t->events;
  tl->first = t->cfg.first;
  tl->per_finding = t->cfg.per_finding;
  tl->host_device = t->cfg.host_device;
  tl->threads = t->threads;
  tl->ops = calloc(t->nkept ? t->nkept : 1, sizeof(*tl->ops));
  tl->links = calloc(t->nlinks ? t->nlinks : 1, sizeof(*tl->links));
  tl->lanes = calloc(t->nlanes ? t->nlanes : 1, sizeof(*tl->lanes));
  if (!tl->ops || !tl->links || !tl->lanes)
    goto oom;
  size_t li = 0;
  for (size_t i = 0; i < t->nkept; ++i) {
    const tl_ev_t *ev = &t->kept[i];
    const ompdp_op_t *o = ompdp_op_get(ev->op);
    ompdp_tl_op_t *op = &tl->ops[tl->num_ops++];
    op->seq = ev->seq;
    op->start_ns = ompdp_ticks_to_ns(ev->start - t->t0, mult);
    op->dur_ns = ompdp_ticks_to_ns(ev->end - ev->start, mult);
    op->type = (uint8_t)tl_type(o, t->cfg.host_device);
    op->device = tl_device(o, op->type);
    op->src_device = op->type == OMPDP_TL_D2D ? o->src_dev : op->device;
    op->bytes = op->type == OMPDP_TL_KERNEL ? 0 : o->bytes;
    op->thread = ev->thread;
    while (li < t->nlinks && t->links[li].seq < ev->seq)
      ++li; /* a link to an event not kept: none are made */
    op->first_link = tl->num_links;
    for (; li < t->nlinks && t->links[li].seq == ev->seq; ++li) {
      if (li && t->links[li].seq == t->links[li - 1].seq &&
          t->links[li].finding == t->links[li - 1].finding &&
          t->links[li].related == t->links[li - 1].related)
        continue; /* the same link twice */
      tl->links[tl->num_links++] =
          (ompdp_tl_link_t){t->links[li].finding, t->links[li].related};
    }
    op->num_links = tl->num_links - op->first_link;
  }
  if (t->nlanes)
    qsort(t->lanes, t->nlanes, sizeof(*t->lanes), cmp_lane);
  tl->num_bins = OMPDP_TLC_BINS;
  tl->bin_ns = (double)t->bin_w * (double)mult / 4294967296.0;
  for (size_t i = 0; i < t->nlanes; ++i) {
    const tl_lane_t *l = t->lanes[i];
    ompdp_tl_lane_t *d = &tl->lanes[tl->num_lanes];
    d->bins = malloc(OMPDP_TLC_BINS * sizeof(*d->bins));
    if (!d->bins)
      goto oom;
    tl->num_lanes++;
    memcpy(d->bins, l->bins, OMPDP_TLC_BINS * sizeof(*d->bins));
    d->device = l->device;
    d->type = l->type;
    d->count = l->count;
    d->bytes = l->bytes;
    d->time_ns = ompdp_ticks_to_ns(l->ticks, mult);
  }
  return tl;
oom:
  ompdp_timeline_free(tl);
  free(tl);
  return NULL;
}
