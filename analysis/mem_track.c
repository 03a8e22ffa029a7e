/*===- mem_track.c - device memory in use, as the engine follows it -*- C -*-===*\
|*
|* Each allocation adds its bytes to its device's memory in use, from its
|* begin; its delete (the first later delete of its device address on its
|* device, or a newer allocation there) takes them off. The peak is the
|* most in use at once; its moment, the first allocation that reached it.
|* An allocation of no bytes changes nothing. Times are begin times, so
|* that the series is in the analysis order the engine is fed in.
|*
|* What held the peak is per site (the construct and map item, or the
|* routine call, of the allocation: the finding's site key), summed over
|* the site's live allocations. The sites holding memory are kept in a
|* list per device; at the first change that lowers the memory in use after
|* a new peak (or when the detection asks for the peak's moment), that list
|* is copied: so a run that reaches a new peak again and again pays a copy
|* of the few sites that hold memory each time, never of its allocations.
|*
|* The series keeps at most OMPDP_MEM_SERIES_MAX points per device, each
|* the most in use from its time until the next point: when full, pairs of
|* neighbours become one with the larger value, so the series is an upper
|* envelope and never loses the peak.
|*
|* Checkpoints answer "the most in use from a moment to the end of the run"
|* in constant time per event: a stack of (checkpoint, most in use from it
|* until the next one) whose values decrease from the bottom up, since a
|* checkpoint followed by a larger value has the same answer as that later
|* one. A query takes the first entry at or after its checkpoint. Only the
|* detection's candidates make checkpoints, at most two each, and a new
|* peak drops them all.
|*
\*===----------------------------------------------------------------------===*/
#include "mem_track.h"

#include "memory.h"

#include <stdlib.h>
#include <string.h>

typedef struct mt_site {
  uint32_t op; /* the site's first allocation: its location and words */
  int32_t dev;
  uint64_t live_bytes, live_allocs;
  uint32_t pos; /* in its device's list of sites holding memory + 1; 0: not there */
} mt_site_t;

typedef struct mt_hold {
  uint32_t site;
  uint64_t bytes, allocs;
} mt_hold_t;

typedef struct mt_cp {
  uint32_t id;
  uint64_t value; /* the most in use from this checkpoint until the next entry's */
} mt_cp_t;

typedef struct mt_point {
  uint64_t t; /* ticks */
  uint64_t bytes;
} mt_point_t;

typedef struct mt_dev {
  int32_t dev;
  uint64_t in_use, max, max_before;
  uint64_t peak_seq, peak_ticks;
  uint32_t generation;
  int pending; /* a new peak whose holders are not copied yet */
  uint32_t *live;
  size_t nlive, caplive;
  mt_hold_t *snap;
  size_t nsnap, capsnap;
  uint64_t snap_allocs;
  mt_cp_t *cps;
  size_t ncps, capcps;
  uint32_t next_cp;
  int top_fresh; /* nothing changed since the top checkpoint was made */
  mt_point_t *series;
  size_t nseries;
  uint64_t allocated, allocs, live_allocs;
} mt_dev_t;

typedef struct mt_alloc {
  uint64_t bytes;
  uint32_t site;
  uint32_t next_free;
} mt_alloc_t;

struct ompdp_memtrack {
  int host;
  int have_t0;
  uint64_t t0, end;
  mt_dev_t **dv;
  size_t ndv;
  mt_dev_t *last;       /* the device get_dev found last (find_dev reads it) */
  ompdp_hmap_t devs;    /* device -> index + 1 */
  mt_site_t *sites;
  size_t nsites, capsites;
  ompdp_hmap_t by_site; /* (device << 32 | item, codeptr, region) -> site + 1 */
  mt_alloc_t *allocs;
  size_t nallocs, capallocs;
  uint32_t free_alloc;  /* + 1; 0: none */
  ompdp_hmap_t live;    /* (device address, device) -> allocation + 1 */
};

ompdp_memtrack_t *ompdp_mem_create(int host_device) {
  ompdp_memtrack_t *t = calloc(1, sizeof(*t));
  if (!t)
    return NULL;
  t->host = host_device;
  if (ompdp_hmap_init(&t->devs, 4) || ompdp_hmap_init(&t->by_site, 16) ||
      ompdp_hmap_init(&t->live, 16)) {
    ompdp_mem_destroy(t);
    return NULL;
  }
  return t;
}

void ompdp_mem_destroy(ompdp_memtrack_t *t) {
  if (!t)
    return;
  for (size_t i = 0; i < t->ndv; ++i) {
    free(t->dv[i]->live);
    free(t->dv[i]->snap);
    free(t->dv[i]->cps);
    free(t->dv[i]->series);
    free(t->dv[i]);
  }
  free(t->dv);
  free(t->sites);
  free(t->allocs);
  ompdp_hmap_free(&t->devs);
  ompdp_hmap_free(&t->by_site);
  ompdp_hmap_free(&t->live);
  free(t);
}

size_t ompdp_mem_memory(const ompdp_memtrack_t *t) {
  size_t n = sizeof(*t) + ompdp_hmap_memory(&t->devs) + ompdp_hmap_memory(&t->by_site) +
             ompdp_hmap_memory(&t->live) + t->capsites * sizeof(*t->sites) +
             t->capallocs * sizeof(*t->allocs) + t->ndv * sizeof(*t->dv);
  for (size_t i = 0; i < t->ndv; ++i) {
    const mt_dev_t *d = t->dv[i];
    n += sizeof(*d) + d->caplive * sizeof(*d->live) + d->capsnap * sizeof(*d->snap) +
         d->capcps * sizeof(*d->cps) + (d->series ? OMPDP_MEM_SERIES_MAX * sizeof(mt_point_t) : 0);
  }
  return n;
}

/* Grows *v (of *cap elements of size elem) to hold n; 0, or -1. */
static int reserve(void **v, size_t *cap, size_t n, size_t elem) {
  if (n <= *cap)
    return 0;
  size_t c = *cap ? *cap * 2 : 8;
  while (c < n)
    c *= 2;
  void *p = realloc(*v, c * elem);
  if (!p)
    return -1;
  *v = p;
  *cap = c;
  return 0;
}

static mt_dev_t *find_dev(const ompdp_memtrack_t *t, int dev) {
  if (t->last && t->last->dev == dev)
    return t->last;
  uint64_t *slot = ompdp_hmap_find(&t->devs, (uint64_t)(int64_t)dev, 0, 0);
  return slot ? t->dv[*slot - 1] : NULL;
}

static mt_dev_t *get_dev(ompdp_memtrack_t *t, int dev) {
  mt_dev_t *d = find_dev(t, dev);
  if (d)
    return t->last = d;
  d = calloc(1, sizeof(*d));
  mt_dev_t **v = d ? realloc(t->dv, (t->ndv + 1) * sizeof(*v)) : NULL;
  if (!v) {
    free(d);
    return NULL;
  }
  t->dv = v;
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&t->devs, (uint64_t)(int64_t)dev, 0, 0, &inserted);
  if (!slot) {
    free(d);
    return NULL;
  }
  d->dev = dev;
  t->dv[t->ndv++] = d;
  *slot = t->ndv;
  return t->last = d;
}

/*--- sites ---*/

static uint32_t get_site(ompdp_memtrack_t *t, uint32_t op, int dev) {
  const ompdp_op_t *o = ompdp_op_get(op);
  uint64_t a = (uint64_t)(uint32_t)dev << 32 | (uint16_t)o->item;
  int inserted;
  uint64_t *slot =
      ompdp_hmap_upsert(&t->by_site, a, (uint64_t)(uintptr_t)o->codeptr, o->region, &inserted);
  if (!slot)
    return OMPDP_NONE;
  if (!inserted)
    return (uint32_t)(*slot - 1);
  if (reserve((void **)&t->sites, &t->capsites, t->nsites + 1, sizeof(*t->sites))) {
    ompdp_hmap_remove(&t->by_site, a, (uint64_t)(uintptr_t)o->codeptr, o->region);
    return OMPDP_NONE;
  }
  mt_site_t *s = &t->sites[t->nsites];
  memset(s, 0, sizeof(*s));
  s->op = op;
  s->dev = dev;
  *slot = ++t->nsites;
  return (uint32_t)(t->nsites - 1);
}

static int site_add(ompdp_memtrack_t *t, mt_dev_t *d, uint32_t si, uint64_t bytes) {
  mt_site_t *s = &t->sites[si];
  if (!s->pos) {
    if (reserve((void **)&d->live, &d->caplive, d->nlive + 1, sizeof(*d->live)))
      return -1;
    d->live[d->nlive++] = si;
    s->pos = (uint32_t)d->nlive;
  }
  s->live_bytes += bytes;
  s->live_allocs++;
  return 0;
}

static void site_sub(ompdp_memtrack_t *t, mt_dev_t *d, uint32_t si, uint64_t bytes) {
  mt_site_t *s = &t->sites[si];
  s->live_bytes -= bytes < s->live_bytes ? bytes : s->live_bytes;
  if (s->live_allocs)
    s->live_allocs--;
  if (s->live_allocs || !s->pos)
    return;
  uint32_t last = d->live[--d->nlive];
  d->live[s->pos - 1] = last;
  t->sites[last].pos = s->pos;
  s->pos = 0;
}

/*--- the peak, its holders, checkpoints, the series ---*/

/* Copies what holds the peak now (the state is the peak's). */
static int materialize(mt_dev_t *d, const ompdp_memtrack_t *t) {
  if (!d->pending)
    return 0;
  if (reserve((void **)&d->snap, &d->capsnap, d->nlive, sizeof(*d->snap)))
    return -1;
  d->nsnap = 0;
  for (size_t i = 0; i < d->nlive; ++i) {
    const mt_site_t *s = &t->sites[d->live[i]];
    d->snap[d->nsnap++] = (mt_hold_t){d->live[i], s->live_bytes, s->live_allocs};
  }
  d->snap_allocs = d->live_allocs;
  d->pending = 0;
  return 0;
}

/* The memory in use changed to d->in_use at ticks now. */
static int changed(ompdp_memtrack_t *t, mt_dev_t *d, uint64_t seq, uint64_t now) {
  (void)t;
  if (d->in_use > d->max) {
    d->max = d->in_use;
    d->peak_seq = seq;
    d->peak_ticks = now;
    d->pending = 1;
    d->generation++;
    d->ncps = 0; /* checkpoints belong to the last peak */
    d->top_fresh = 0;
  }
  /* The top checkpoint's segment takes the new value; an older one that it
   * now dominates has its answer. */
  if (d->ncps) {
    mt_cp_t *top = &d->cps[d->ncps - 1];
    if (d->in_use > top->value)
      top->value = d->in_use;
    while (d->ncps >= 2 && d->cps[d->ncps - 2].value <= d->cps[d->ncps - 1].value) {
      d->cps[d->ncps - 2].value = d->cps[d->ncps - 1].value; /* the older id answers both */
      d->ncps--;
    }
  }
  d->top_fresh = 0;
  if (!d->series && !(d->series = malloc(OMPDP_MEM_SERIES_MAX * sizeof(*d->series))))
    return -1;
  if (d->nseries && d->series[d->nseries - 1].t == now) {
    /* Changes at one tick: the point holds the most of them. */
    if (d->in_use > d->series[d->nseries - 1].bytes)
      d->series[d->nseries - 1].bytes = d->in_use;
    return 0;
  }
  if (d->nseries == OMPDP_MEM_SERIES_MAX) {
    size_t k = 0;
    for (size_t i = 0; i + 1 < d->nseries; i += 2) {
      mt_point_t a = d->series[i], b = d->series[i + 1];
      d->series[k++] = (mt_point_t){a.t, a.bytes > b.bytes ? a.bytes : b.bytes};
    }
    d->nseries = k;
  }
  d->series[d->nseries++] = (mt_point_t){now, d->in_use};
  return 0;
}

/* Frees live allocation ai (its delete, or a newer allocation at its
 * address) at ticks now. */
static int release(ompdp_memtrack_t *t, mt_dev_t *d, uint32_t ai, uint64_t seq, uint64_t now) {
  mt_alloc_t *a = &t->allocs[ai];
  if (materialize(d, t))
    return -1;
  d->in_use -= a->bytes < d->in_use ? a->bytes : d->in_use;
  if (d->live_allocs)
    d->live_allocs--;
  site_sub(t, d, a->site, a->bytes);
  a->next_free = t->free_alloc;
  t->free_alloc = ai + 1;
  d->max_before = d->max;
  return changed(t, d, seq, now);
}

static int on_alloc(ompdp_memtrack_t *t, const ompdp_xev_t *e) {
  const ompdp_op_t *o = e->d;
  if (!o->bytes)
    return 0;
  mt_dev_t *d = get_dev(t, o->dst_dev);
  if (!d)
    return -1;
  int inserted;
  uint64_t *slot =
      ompdp_hmap_upsert(&t->live, o->dst_addr, (uint64_t)(int64_t)o->dst_dev, 0, &inserted);
  if (!slot)
    return -1;
  if (!inserted) {
    /* A newer allocation at a live address: the older one is gone. */
    uint32_t old = (uint32_t)(*slot - 1);
    if (release(t, d, old, e->seq, e->start))
      return -1;
  }
  /* The slot stays where it is: nothing below inserts into the live map. */
  uint32_t si = get_site(t, e->op, o->dst_dev);
  uint32_t ai;
  if (si == OMPDP_NONE)
    goto oom;
  if (t->free_alloc) {
    ai = t->free_alloc - 1;
    t->free_alloc = t->allocs[ai].next_free;
  } else {
    if (reserve((void **)&t->allocs, &t->capallocs, t->nallocs + 1, sizeof(*t->allocs)))
      goto oom;
    ai = (uint32_t)t->nallocs++;
  }
  t->allocs[ai] = (mt_alloc_t){o->bytes, si, 0};
  if (site_add(t, d, si, o->bytes)) {
    t->allocs[ai].next_free = t->free_alloc;
    t->free_alloc = ai + 1;
    goto oom;
  }
  *slot = ai + 1;
  d->max_before = d->max;
  d->in_use += o->bytes;
  d->live_allocs++;
  d->allocated += o->bytes;
  d->allocs++;
  return changed(t, d, e->seq, e->start);
oom:
  ompdp_hmap_remove(&t->live, o->dst_addr, (uint64_t)(int64_t)o->dst_dev, 0);
  return -1;
}

static int on_delete(ompdp_memtrack_t *t, const ompdp_xev_t *e) {
  const ompdp_op_t *o = e->d;
  uint64_t *slot = ompdp_hmap_find(&t->live, o->src_addr, (uint64_t)(int64_t)o->src_dev, 0);
  if (!slot)
    return 0; /* frees nothing we saw allocated */
  uint32_t ai = (uint32_t)(*slot - 1);
  ompdp_hmap_remove(&t->live, o->src_addr, (uint64_t)(int64_t)o->src_dev, 0);
  mt_dev_t *d = find_dev(t, o->src_dev);
  return d ? release(t, d, ai, e->seq, e->start) : 0;
}

int ompdp_mem_event(ompdp_memtrack_t *t, const ompdp_xev_t *e) {
  if (e->type == OMPDP_EV_USE)
    return 0;
  if (!t->have_t0) {
    t->t0 = e->start;
    t->have_t0 = 1;
  }
  if (e->end > t->end)
    t->end = e->end;
  switch ((ompdp_event_type_t)e->type) {
  case OMPDP_EV_ALLOC:
    return on_alloc(t, e);
  case OMPDP_EV_DELETE:
    return on_delete(t, e);
  case OMPDP_EV_TRANSFER:
  case OMPDP_EV_KERNEL:
  case OMPDP_EV_USE:
  case OMPDP_EV_TARGET:
    break;
  }
  return 0;
}

uint64_t ompdp_mem_in_use(const ompdp_memtrack_t *t, int dev) {
  const mt_dev_t *d = find_dev(t, dev);
  return d ? d->in_use : 0;
}

uint64_t ompdp_mem_max(const ompdp_memtrack_t *t, int dev) {
  const mt_dev_t *d = find_dev(t, dev);
  return d ? d->max : 0;
}

uint64_t ompdp_mem_max_before(const ompdp_memtrack_t *t, int dev) {
  const mt_dev_t *d = find_dev(t, dev);
  return d ? d->max_before : 0;
}

int ompdp_mem_peak(ompdp_memtrack_t *t, int dev, uint64_t *seq, uint32_t *generation) {
  mt_dev_t *d = find_dev(t, dev);
  if (!d || !d->max)
    return -1;
  if (materialize(d, t))
    return -1;
  *seq = d->peak_seq;
  *generation = d->generation;
  return 0;
}

uint32_t ompdp_mem_generation(const ompdp_memtrack_t *t, int dev) {
  const mt_dev_t *d = find_dev(t, dev);
  return d ? d->generation : 0;
}

uint32_t ompdp_mem_checkpoint(ompdp_memtrack_t *t, int dev) {
  mt_dev_t *d = find_dev(t, dev);
  if (!d)
    return OMPDP_NONE;
  if (d->ncps && d->top_fresh)
    return d->cps[d->ncps - 1].id;
  if (reserve((void **)&d->cps, &d->capcps, d->ncps + 1, sizeof(*d->cps)))
    return OMPDP_NONE;
  uint32_t id = d->next_cp++;
  d->cps[d->ncps++] = (mt_cp_t){id, d->in_use};
  while (d->ncps >= 2 && d->cps[d->ncps - 2].value <= d->cps[d->ncps - 1].value) {
    d->cps[d->ncps - 2].value = d->cps[d->ncps - 1].value;
    d->ncps--;
  }
  d->top_fresh = 1;
  return id;
}

uint64_t ompdp_mem_max_since(const ompdp_memtrack_t *t, int dev, uint32_t cp) {
  const mt_dev_t *d = find_dev(t, dev);
  if (!d || !d->ncps)
    return d ? d->in_use : 0;
  /* The last entry made at or before cp: entries' ids ascend, and an entry
   * that was merged into its predecessor left that one's (older) id to
   * answer for both. */
  size_t lo = 0, hi = d->ncps;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (d->cps[mid].id < cp)
      lo = mid + 1;
    else
      hi = mid;
  }
  /* The entry before covers cp when cp falls inside its merged run. */
  if (lo && (lo == d->ncps || d->cps[lo].id > cp))
    --lo;
  return d->cps[lo].value;
}

/*===- the report's entries -----------------------------------------------------===*/

static int cmp_dev(const void *a, const void *b) {
  const mt_dev_t *x = *(mt_dev_t *const *)a, *y = *(mt_dev_t *const *)b;
  return (x->dev > y->dev) - (x->dev < y->dev);
}

static int cmp_hold(const void *a, const void *b) {
  const mt_hold_t *x = a, *y = b;
  if (x->bytes != y->bytes)
    return x->bytes < y->bytes ? 1 : -1;
  return (x->site > y->site) - (x->site < y->site);
}

int ompdp_mem_fill(ompdp_memtrack_t *t, ompdp_report_t *r, uint64_t mult,
                   ompdp_attribute_fn attribute) {
  if (!mult)
    mult = 1ull << 32;
  if (t->ndv > 1) /* qsort wants a pointer even for none */
    qsort(t->dv, t->ndv, sizeof(*t->dv), cmp_dev);
  for (size_t i = 0; i < t->ndv; ++i) /* the index follows the sort */
    *ompdp_hmap_find(&t->devs, (uint64_t)(int64_t)t->dv[i]->dev, 0, 0) = i + 1;
  for (size_t i = 0; i < t->ndv; ++i) {
    mt_dev_t *d = t->dv[i];
    if (!d->max || materialize(d, t))
      continue;
    ompdp_device_memory_t *m = ompdp_report_add_memory(r, d->dev);
    if (!m)
      return -1;
    m->peak_bytes = d->max;
    m->peak_time_ns = ompdp_ticks_to_ns(d->peak_ticks - t->t0, mult);
    m->peak_allocations = d->snap_allocs;
    m->final_bytes = d->in_use;
    m->allocated_bytes = d->allocated;
    m->allocations = d->allocs;
    m->end_ns = ompdp_ticks_to_ns(t->end - t->t0, mult);
    if (d->nsnap > 1)
      qsort(d->snap, d->nsnap, sizeof(*d->snap), cmp_hold);
    size_t keep = d->nsnap < OMPDP_MEM_HOLDERS ? d->nsnap : OMPDP_MEM_HOLDERS;
    if (keep && !(m->holders = calloc(keep, sizeof(*m->holders))))
      return -1;
    for (size_t k = 0; k < d->nsnap; ++k) {
      const mt_hold_t *h = &d->snap[k];
      if (k >= keep) {
        m->other_bytes += h->bytes;
        m->other_allocations += h->allocs;
        continue;
      }
      ompdp_mem_holder_t *out = &m->holders[m->num_holders++];
      out->bytes = h->bytes;
      out->allocations = h->allocs;
      if (attribute) {
        /* The site's words, as a finding there would have them. */
        ompdp_finding_t site;
        memset(&site, 0, sizeof(site));
        site.item = -1;
        attribute(ompdp_op_get(t->sites[h->site].op), &out->loc, &site);
        out->variable = site.variable;
        out->clause = site.clause;
        out->call = site.call;
        site.variable = site.clause = site.call = NULL;
        ompdp_finding_free(&site);
      }
    }
    if (d->nseries && !(m->series = malloc(d->nseries * sizeof(*m->series))))
      return -1;
    for (size_t k = 0; k < d->nseries; ++k)
      m->series[m->num_series++] = (ompdp_mem_point_t){
          ompdp_ticks_to_ns(d->series[k].t - t->t0, mult), d->series[k].bytes};
  }
  return 0;
}
