/*===- detect_lifetime.c - device memory held while unused ----------*- C -*-===*\
|*
|* DrGPUM's early allocation and late release (ASPLOS'23), for OpenMP: an
|* allocation that exists long before its first use, or long after its last
|* one, counts toward its device's peak of memory in use (mem_track.c)
|* for nothing. A use is a transfer into or out of the allocation by
|* another construct than the one that allocated it (its own copy in comes
|* with it) or frees it (its own copy back goes with it), or a kernel whose
|* map arguments point into it (OMPDP_EV_USE, rt/uses.c). The kernel of the
|* construct that allocated the memory (or frees it) is its use but no
|* window: the memory was made for it, there is nowhere closer to move the
|* allocation to. A kernel whose
|* uses the runtime did not record (a program built without the compiler
|* plugin) is taken to use every allocation on its device, as the unused
|* allocation detection takes it.
|*
|* Per allocation: early, the window from its allocation to its first use;
|* late, from its last use to its delete (or the end of the run). Moving the
|* allocation (or the release) to the window's end takes its bytes off the
|* memory in use inside the window only, so the peak P becomes
|*   max(M_out, M_in - bytes)
|* where M_out is the most in use outside the window, M_in inside. The
|* saving is P minus that: min(bytes, P - M_out) when M_out < P, else 0
|* (the peak is reached outside the window too). M_out is the most in use
|* before the window (the device's running maximum when it opened, known
|* then) and after it (a checkpoint of the memory tracker when it closed,
|* read at the end). Only windows around the moment the current peak was
|* first reached can save anything: such a window closes after that moment
|* and opened at or before it, and is kept until the end; a new peak drops
|* what the older one kept. So the detection keeps each live allocation and
|* the windows of the last peak, never the events.
|*
|* A window is a finding when its saving is at least peak_min_bytes
|* (OMPDP_PEAK_MIN_BYTES); with lifetime_all, every window during which
|* another construct allocated on the device is one, whatever it saves
|* (peak_saved_bytes 0 says it saves nothing). An allocation never used
|* is none of these (an unused allocation, when no kernel ran there).
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"
#include "mem_track.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lt_dev lt_dev_t;

/* A use: its position, its operation (the finding's related location), the
 * device's running maximum then, its construct (the call site of the
 * transfer or kernel), and the allocation counters then (lifetime_all). */
typedef struct lt_use {
  uint64_t seq;
  uint32_t op;
  uint64_t pm;
  const void *codeptr;
  uint64_t dev_allocs, site_allocs;
} lt_use_t;

/* A window: from a position to where it closed, kept until the end (or a
 * new peak), or reported at once. */
typedef struct lt_window {
  int kind;         /* OMPDP_FK_*; -1: taken back */
  uint32_t op;      /* the allocation */
  uint64_t seq;
  uint64_t bytes;
  ompdp_xref_t ref; /* the use that ends (early) or begins (late) it */
  uint64_t side;    /* the most in use before it */
  uint32_t cp;      /* the checkpoint where it closed; OMPDP_NONE: the end of the run */
  int others;       /* another construct allocated on the device during it */
} lt_window_t;

enum { EARLY_NONE, EARLY_KEPT, EARLY_LATER };

typedef struct lt_alloc {
  struct lt_alloc *prev, *next; /* its device's allocations not used yet */
  lt_dev_t *dev;
  uint32_t op;
  uint64_t seq, dev_addr, bytes;
  const void *codeptr; /* its construct: its own copies are no use */
  uint64_t pm;         /* the device's running maximum before it */
  uint64_t dev_allocs, site_allocs; /* the counters after it (lifetime_all) */
  int used, has_last, has_prev;
  lt_use_t first, last, prev_last;
  /* Its early window: kept among its device's (index, generation), or to
   * report when it dies (lifetime_all), unless the only use was the copy
   * back of the construct that frees it. */
  int early;
  size_t early_ix;
  uint32_t early_gen;
  lt_window_t early_w;
} lt_alloc_t;

struct lt_dev {
  int32_t dev;
  lt_alloc_t *unused; /* live, not used yet */
  /* The last kernel here whose uses are not known: it used everything. */
  int blind;
  lt_use_t bk;
  uint64_t allocs;     /* allocations here */
  uint32_t generation; /* of the peak its windows belong to */
  lt_window_t *win;
  size_t nwin, capwin;
  /* Live allocations by device address, for transfers into their middle:
   * sorted when an address misses the exact lookup and something changed. */
  lt_alloc_t **sorted;
  size_t nsorted, capsorted;
  int dirty;
};

typedef struct ompdp_lifetime {
  int host;
  int all;
  uint64_t min_bytes;
  lt_dev_t **dv;
  size_t ndv;
  lt_dev_t *last;     /* the device dev_of found last (a kernel asks twice) */
  ompdp_hmap_t devs;  /* device -> index + 1 */
  ompdp_hmap_t live;  /* (device address, device) -> lt_alloc_t * */
  ompdp_hmap_t sites; /* (codeptr, device, 1) -> allocations there */
  size_t nlive;
} ompdp_lifetime_t;

static void lifetime_destroy(void *p);

static void *lifetime_create(const ompdp_engine_config_t *cfg) {
  ompdp_lifetime_t *l = calloc(1, sizeof(*l));
  if (!l)
    return NULL;
  l->host = cfg->host_device;
  l->all = cfg->lifetime_all;
  l->min_bytes = cfg->peak_min_bytes ? cfg->peak_min_bytes : OMPDP_PEAK_MIN_BYTES;
  if (ompdp_hmap_init(&l->devs, 4) || ompdp_hmap_init(&l->live, 16) ||
      ompdp_hmap_init(&l->sites, 16)) {
    lifetime_destroy(l);
    return NULL;
  }
  return l;
}

static void lifetime_destroy(void *p) {
  ompdp_lifetime_t *l = p;
  if (!l)
    return;
  for (size_t i = 0; i < l->live.cap; ++i)
    if (l->live.slots && l->live.slots[i].used)
      free((void *)(uintptr_t)l->live.slots[i].value);
  for (size_t i = 0; i < l->ndv; ++i) {
    free(l->dv[i]->win);
    free(l->dv[i]->sorted);
    free(l->dv[i]);
  }
  free(l->dv);
  ompdp_hmap_free(&l->devs);
  ompdp_hmap_free(&l->live);
  ompdp_hmap_free(&l->sites);
  free(l);
}

static size_t lifetime_memory(const void *p) {
  const ompdp_lifetime_t *l = p;
  size_t n = sizeof(*l) + ompdp_hmap_memory(&l->devs) + ompdp_hmap_memory(&l->live) +
             ompdp_hmap_memory(&l->sites) + l->nlive * sizeof(lt_alloc_t) +
             l->ndv * sizeof(*l->dv);
  for (size_t i = 0; i < l->ndv; ++i)
    n += sizeof(lt_dev_t) + l->dv[i]->capwin * sizeof(lt_window_t) +
         l->dv[i]->capsorted * sizeof(lt_alloc_t *);
  return n;
}

static lt_dev_t *dev_of(ompdp_lifetime_t *l, int dev) {
  if (l->last && l->last->dev == dev)
    return l->last;
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&l->devs, (uint64_t)(int64_t)dev, 0, 0, &inserted);
  if (!slot)
    return NULL;
  if (!inserted)
    return l->last = l->dv[*slot - 1];
  lt_dev_t *d = calloc(1, sizeof(*d));
  lt_dev_t **v = d ? realloc(l->dv, (l->ndv + 1) * sizeof(*v)) : NULL;
  if (!v) {
    free(d);
    ompdp_hmap_remove(&l->devs, (uint64_t)(int64_t)dev, 0, 0);
    return NULL;
  }
  d->dev = dev;
  l->dv = v;
  l->dv[l->ndv++] = d;
  *slot = l->ndv;
  return l->last = d;
}

/* How many allocations construct site made on device dev so far. */
static uint64_t site_allocs(const ompdp_lifetime_t *l, const void *site, int dev) {
  uint64_t *s = ompdp_hmap_find(&l->sites, (uint64_t)(uintptr_t)site, (uint64_t)(int64_t)dev, 1);
  return s ? *s : 0;
}

/* Another construct than x's allocated on x's device since the counters
 * were (dev0, site0). */
static int others_since(const ompdp_lifetime_t *l, const lt_alloc_t *x, uint64_t dev0,
                        uint64_t site0) {
  return x->dev->allocs - dev0 > site_allocs(l, x->codeptr, x->dev->dev) - site0;
}

/*--- the windows of the current peak ---*/

/* Reports window w as a finding that lowers the peak by saved. */
static int commit(ompdp_engine_t *g, const lt_window_t *w, uint64_t saved) {
  if (ompdp_g_peak_select(g, w->kind, w->op, w->seq, w->ref.op == OMPDP_NONE ? NULL : &w->ref,
                          saved) == OMPDP_NONE)
    return -1;
  ompdp_g_match(g, w->kind, w->seq, w->ref.op == OMPDP_NONE ? OMPDP_NONE : w->ref.seq,
                OMPDP_NONE);
  return 0;
}

/* A new peak: the windows kept for the older one save nothing
 * (lifetime_all reports those another construct allocated in). */
static int flush(ompdp_lifetime_t *l, ompdp_engine_t *g, lt_dev_t *d, uint32_t gen) {
  int rc = 0;
  for (size_t i = 0; i < d->nwin && !rc; ++i)
    if (l->all && d->win[i].kind >= 0 && d->win[i].others)
      rc = commit(g, &d->win[i], 0);
  d->nwin = 0;
  d->generation = gen;
  return rc;
}

/* Window w of allocation x closes now; it opened at position open_seq.
 * Kept when the moment of the current peak is inside it (it may lower the
 * peak); else it saves nothing, and with lifetime_all is reported when
 * another construct allocated during it: *later says so (the caller
 * reports it, or leaves it to x's end). Returns 0, or -1 when out of
 * memory; *kept_ix: where it is kept (SIZE_MAX: not kept). */
static int close_window(ompdp_lifetime_t *l, ompdp_engine_t *g, lt_alloc_t *x, lt_window_t *w,
                        uint64_t open_seq, int at_end, int *later, size_t *kept_ix) {
  lt_dev_t *d = x->dev;
  ompdp_memtrack_t *mem = ompdp_g_memory(g);
  uint64_t peak_seq;
  uint32_t gen;
  *later = 0;
  *kept_ix = SIZE_MAX;
  if (ompdp_mem_peak(mem, d->dev, &peak_seq, &gen))
    return 0;
  if (gen != d->generation && flush(l, g, d, gen))
    return -1;
  /* The moment of the peak: an allocation at or after the opening (an
   * early window opens with its own allocation), before now. */
  int around = w->kind == OMPDP_FK_EARLY_ALLOC ? open_seq <= peak_seq : open_seq < peak_seq;
  if (!around) {
    *later = l->all && w->others;
    return 0;
  }
  w->cp = OMPDP_NONE;
  if (!at_end && (w->cp = ompdp_mem_checkpoint(mem, d->dev)) == OMPDP_NONE)
    return -1;
  if (d->nwin == d->capwin) {
    size_t cap = d->capwin ? d->capwin * 2 : 8;
    lt_window_t *v = realloc(d->win, cap * sizeof(*v));
    if (!v)
      return -1;
    d->win = v;
    d->capwin = cap;
  }
  *kept_ix = d->nwin;
  d->win[d->nwin++] = *w;
  return 0;
}

/*--- uses ---*/

static void unlink_unused(lt_alloc_t *x) {
  if (x->prev)
    x->prev->next = x->next;
  else if (x->dev->unused == x)
    x->dev->unused = x->next;
  if (x->next)
    x->next->prev = x->prev;
  x->prev = x->next = NULL;
}

/* Use u of allocation x. */
static int note_use(ompdp_lifetime_t *l, ompdp_engine_t *g, lt_alloc_t *x, lt_use_t u) {
  u.site_allocs = site_allocs(l, x->codeptr, x->dev->dev);
  if (!x->used && u.codeptr == x->codeptr) {
    /* The allocating construct's own kernel: the memory was made for it,
     * there is nowhere closer to move the allocation to. */
    x->used = 1;
    x->first = u;
    unlink_unused(x);
  } else if (!x->used) {
    x->used = 1;
    x->first = u;
    unlink_unused(x);
    lt_window_t w = {OMPDP_FK_EARLY_ALLOC, x->op, x->seq, x->bytes, {u.seq, u.op}, x->pm,
                     OMPDP_NONE, others_since(l, x, x->dev_allocs, x->site_allocs)};
    int later;
    size_t ix;
    if (close_window(l, g, x, &w, x->seq, 0, &later, &ix))
      return -1;
    x->early = ix != SIZE_MAX ? EARLY_KEPT : later ? EARLY_LATER : EARLY_NONE;
    x->early_ix = ix;
    x->early_gen = x->dev->generation;
    x->early_w = w;
  }
  if (x->has_last) {
    x->prev_last = x->last;
    x->has_prev = 1;
  }
  x->last = u;
  x->has_last = 1;
  return 0;
}

/* The use that event e makes on device dev now (codeptr: a transfer's). */
static lt_use_t use_now(ompdp_lifetime_t *l, ompdp_engine_t *g, const ompdp_xev_t *e, int dev,
                        const void *codeptr) {
  lt_dev_t *d = dev_of(l, dev);
  lt_use_t u = {e->seq, e->op, ompdp_mem_max(ompdp_g_memory(g), dev), codeptr,
                d ? d->allocs : 0, 0};
  return u;
}

static int cmp_addr(const void *a, const void *b) {
  const lt_alloc_t *x = *(lt_alloc_t *const *)a, *y = *(lt_alloc_t *const *)b;
  return (x->dev_addr > y->dev_addr) - (x->dev_addr < y->dev_addr);
}

/* The live allocation of device dev that holds address addr (*out, NULL for
 * none). 0, or -1 when out of memory. */
static int holding(ompdp_lifetime_t *l, int dev, uint64_t addr, lt_alloc_t **out) {
  *out = NULL;
  uint64_t *slot = ompdp_hmap_find(&l->live, addr, (uint64_t)(int64_t)dev, 0);
  if (slot) {
    *out = (lt_alloc_t *)(uintptr_t)*slot;
    return 0;
  }
  uint64_t *di = ompdp_hmap_find(&l->devs, (uint64_t)(int64_t)dev, 0, 0);
  if (!di)
    return 0;
  lt_dev_t *d = l->dv[*di - 1];
  if (d->dirty) {
    d->nsorted = 0;
    for (size_t i = 0; i < l->live.cap; ++i) {
      if (!l->live.slots[i].used)
        continue;
      lt_alloc_t *x = (lt_alloc_t *)(uintptr_t)l->live.slots[i].value;
      if (x->dev != d)
        continue;
      if (d->nsorted == d->capsorted) {
        size_t cap = d->capsorted ? d->capsorted * 2 : 16;
        lt_alloc_t **v = realloc(d->sorted, cap * sizeof(*v));
        if (!v)
          return -1;
        d->sorted = v;
        d->capsorted = cap;
      }
      d->sorted[d->nsorted++] = x;
    }
    if (d->nsorted > 1)
      qsort(d->sorted, d->nsorted, sizeof(*d->sorted), cmp_addr);
    d->dirty = 0;
  }
  size_t lo = 0, hi = d->nsorted;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (d->sorted[mid]->dev_addr <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo && addr - d->sorted[lo - 1]->dev_addr < d->sorted[lo - 1]->bytes)
    *out = d->sorted[lo - 1];
  return 0;
}

/*--- the stream ---*/

/* The end of x's life: its delete (del), a newer allocation at its address
 * (del, rel_codeptr NULL), or the end of the run (del NULL). rel_codeptr:
 * the releasing construct, whose own copy back is no use. */
static int end_life(ompdp_lifetime_t *l, ompdp_engine_t *g, lt_alloc_t *x,
                    const ompdp_xev_t *del, const void *rel_codeptr) {
  lt_dev_t *d = x->dev;
  int rc = 0;
  if (!x->used)
    unlink_unused(x);
  lt_use_t last = x->last;
  int has_last = x->has_last;
  if (has_last && rel_codeptr && last.codeptr == rel_codeptr) {
    if (x->has_prev) {
      last = x->prev_last;
    } else {
      /* Its only use was that copy back: it was never used, and its early
       * window was none. */
      has_last = 0;
      if (x->early == EARLY_KEPT && x->early_gen == d->generation && x->early_ix < d->nwin)
        d->win[x->early_ix].kind = -1;
      x->early = EARLY_NONE;
    }
  }
  if (d->blind && d->bk.seq > x->seq && (!has_last || d->bk.seq > last.seq)) {
    last = d->bk;
    last.site_allocs = x->site_allocs;
    has_last = 1;
  }
  if (x->early == EARLY_LATER)
    rc = commit(g, &x->early_w, 0);
  if (has_last && !rc) {
    lt_window_t w = {OMPDP_FK_LATE_RELEASE, x->op, x->seq, x->bytes, {last.seq, last.op},
                     last.pm, OMPDP_NONE, others_since(l, x, last.dev_allocs, last.site_allocs)};
    int later;
    size_t ix;
    rc = close_window(l, g, x, &w, last.seq, del == NULL, &later, &ix);
    if (!rc && later)
      rc = commit(g, &w, 0);
  }
  ompdp_hmap_remove(&l->live, x->dev_addr, (uint64_t)(int64_t)d->dev, 0);
  d->dirty = 1;
  l->nlive--;
  free(x);
  return rc;
}

static int lifetime_alloc(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_lifetime_t *l = p;
  const ompdp_op_t *o = e->d;
  if (!o->bytes)
    return 0;
  lt_dev_t *d = dev_of(l, o->dst_dev);
  if (!d)
    return -1;
  /* A new peak: what the last one kept saves nothing now. */
  uint32_t gen = ompdp_mem_generation(ompdp_g_memory(g), d->dev);
  if (gen != d->generation && flush(l, g, d, gen))
    return -1;
  uint64_t *slot = ompdp_hmap_find(&l->live, o->dst_addr, (uint64_t)(int64_t)o->dst_dev, 0);
  if (slot && end_life(l, g, (lt_alloc_t *)(uintptr_t)*slot, e, NULL))
    return -1;
  int inserted;
  lt_alloc_t *x = calloc(1, sizeof(*x));
  uint64_t *sc = x ? ompdp_hmap_upsert(&l->sites, (uint64_t)(uintptr_t)o->codeptr,
                                       (uint64_t)(int64_t)o->dst_dev, 1, &inserted)
                    : NULL;
  if (!sc) {
    free(x);
    return -1;
  }
  ++*sc;
  d->allocs++;
  x->dev = d;
  x->op = e->op;
  x->seq = e->seq;
  x->dev_addr = o->dst_addr;
  x->bytes = o->bytes;
  x->codeptr = o->codeptr;
  x->pm = ompdp_mem_max_before(ompdp_g_memory(g), d->dev);
  x->dev_allocs = d->allocs;
  x->site_allocs = *sc;
  uint64_t *ls =
      ompdp_hmap_upsert(&l->live, o->dst_addr, (uint64_t)(int64_t)o->dst_dev, 0, &inserted);
  if (!ls) {
    free(x);
    return -1;
  }
  *ls = (uint64_t)(uintptr_t)x;
  x->next = d->unused;
  if (d->unused)
    d->unused->prev = x;
  d->unused = x;
  l->nlive++;
  d->dirty = 1;
  return 0;
}

static int lifetime_delete(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_lifetime_t *l = p;
  const ompdp_op_t *o = e->d;
  uint64_t *slot = ompdp_hmap_find(&l->live, o->src_addr, (uint64_t)(int64_t)o->src_dev, 0);
  return slot ? end_life(l, g, (lt_alloc_t *)(uintptr_t)*slot, e, o->codeptr) : 0;
}

static int lifetime_transfer(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_lifetime_t *l = p;
  const ompdp_op_t *o = e->d;
  for (int end = 0; end < 2; ++end) {
    int dev = end ? o->dst_dev : o->src_dev;
    uint64_t addr = end ? o->dst_addr : o->src_addr;
    if (dev == l->host || (end && o->src_dev == o->dst_dev && o->src_addr == o->dst_addr))
      continue;
    lt_alloc_t *x;
    if (holding(l, dev, addr, &x))
      return -1;
    /* The allocating construct's own copies come with the allocation. */
    if (!x || x->codeptr == o->codeptr)
      continue;
    if (note_use(l, g, x, use_now(l, g, e, dev, o->codeptr)))
      return -1;
  }
  return 0;
}

static int lifetime_use(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_lifetime_t *l = p;
  const ompdp_op_t *o = e->d;
  uint64_t *slot = ompdp_hmap_find(&l->live, o->dst_addr, (uint64_t)(int64_t)o->dst_dev, 0);
  if (!slot)
    return 0;
  return note_use(l, g, (lt_alloc_t *)(uintptr_t)*slot, use_now(l, g, e, o->dst_dev, o->codeptr));
}

static int lifetime_kernel(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_lifetime_t *l = p;
  if (e->d->src_addr == OMPDP_KERNEL_USES_RECORDED)
    return 0; /* its uses come as events of their own */
  lt_dev_t *d = dev_of(l, e->d->dst_dev);
  if (!d)
    return -1;
  /* It may have used everything here: the first use of what was not used
   * yet, now; the last use of everything live, read when each ends. */
  lt_use_t u = use_now(l, g, e, d->dev, e->d->codeptr);
  d->blind = 1;
  d->bk = u;
  while (d->unused)
    if (note_use(l, g, d->unused, u))
      return -1;
  return 0;
}

static int lifetime_finish(void *p, ompdp_engine_t *g) {
  ompdp_lifetime_t *l = p;
  ompdp_memtrack_t *mem = ompdp_g_memory(g);
  /* Allocations never freed: their late window ends with the run. */
  if (l->nlive) {
    lt_alloc_t **v = malloc(l->nlive * sizeof(*v));
    if (!v)
      return -1;
    size_t n = 0;
    for (size_t i = 0; i < l->live.cap; ++i)
      if (l->live.slots[i].used)
        v[n++] = (lt_alloc_t *)(uintptr_t)l->live.slots[i].value;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; ++i)
      rc = end_life(l, g, v[i], NULL, NULL);
    free(v);
    if (rc)
      return -1;
  }
  for (size_t i = 0; i < l->ndv; ++i) {
    lt_dev_t *d = l->dv[i];
    uint64_t seq;
    uint32_t gen;
    if (ompdp_mem_peak(mem, d->dev, &seq, &gen))
      continue;
    if (gen != d->generation && flush(l, g, d, gen))
      return -1;
    uint64_t peak = ompdp_mem_max(mem, d->dev);
    for (size_t k = 0; k < d->nwin; ++k) {
      const lt_window_t *w = &d->win[k];
      if (w->kind < 0)
        continue;
      uint64_t out = w->side;
      if (w->cp != OMPDP_NONE) {
        uint64_t after = ompdp_mem_max_since(mem, d->dev, w->cp);
        if (after > out)
          out = after;
      }
      uint64_t saved = out < peak ? (peak - out < w->bytes ? peak - out : w->bytes) : 0;
      int report = l->all ? saved || w->others : saved >= l->min_bytes;
      if (report && commit(g, w, saved))
        return -1;
    }
    d->nwin = 0;
  }
  return 0;
}

/*===- the words --------------------------------------------------------------===*/

static const char *base_name(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path ? path : "?";
}

/* "at prog.c:25" (the related location), or "" when unknown. */
static void use_at(char *buf, size_t n, const ompdp_finding_t *f) {
  if (f->related.line)
    snprintf(buf, n, " at %s:%" PRIu32, base_name(f->related.file), f->related.line);
  else
    buf[0] = '\0';
}

static char *lifetime_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                           const ompdp_region_info_t *related, uint32_t rule, const char *d) {
  (void)related; /* the repeated operation's item: only fresh buffers need it */
  (void)rule;
  char buf[1024], at[600], saved[OMPDP_UNIT_BUF], what[300];
  const char *plural = f->num_devices > 1 ? "s" : "";
  int early = f->kind == OMPDP_FK_EARLY_ALLOC;
  use_at(at, sizeof(at), f);
  if (f->variable)
    snprintf(what, sizeof(what), "`%s`", f->variable);
  else
    snprintf(what, sizeof(what), "the memory mapped here");
  int enter = item && item->construct == OMPDP_CK_TARGET_ENTER_DATA;
  int region = item && item->construct == OMPDP_CK_TARGET_DATA;
  const char *how =
      early ? (enter ? "move its `target enter data` to just before that use"
               : region ? "map it with `target enter data` just before that use and `target exit "
                          "data` after its last use instead of for the whole `target data` region"
                        : "map it where it is first used")
            : (enter || (item && item->construct == OMPDP_CK_TARGET_EXIT_DATA)
                   ? "move its `target exit data` to just after that use"
               : region ? "map it with `target enter data` at its first use and `target exit "
                          "data` just after that last use instead of for the whole `target data` "
                          "region"
                        : "release it (`target exit data`) right after that use");
  if (!f->peak_saved_bytes)
    snprintf(buf, sizeof(buf),
             "%s %s on device%s %s %s its %s use%s, but the device reaches the same peak at "
             "another moment too: moving it would not lower the peak",
             what, early ? "is allocated" : "stays allocated", plural, d,
             early ? "long before" : "long after", early ? "first" : "last", at);
  else
    snprintf(buf, sizeof(buf),
             "%s %s on device%s %s %s its %s use%s, while the device reaches its peak: %s to "
             "lower the peak by %s",
             what, early ? "is allocated" : "stays allocated", plural, d,
             early ? "long before" : "long after", early ? "first" : "last", at, how,
             ompdp_format_bytes(saved, f->peak_saved_bytes));
  return ompdp_strdup(buf);
}

static char *lifetime_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024], at[600], saved[OMPDP_UNIT_BUF];
  int early = f->kind == OMPDP_FK_EARLY_ALLOC;
  use_at(at, sizeof(at), f);
  snprintf(buf, sizeof(buf),
           "`%s` allocates %s on device%s %s %s its %s use%s: %s%s%s",
           c->routine, c->variable, c->plural, c->devices, early ? "long before" : "and it is freed long after",
           early ? "first" : "last", at,
           early ? "call it right before that use" : "call `omp_target_free` right after that use",
           f->peak_saved_bytes ? ", which lowers the device's peak by " : " (the device reaches "
                                                                          "the same peak at another "
                                                                          "moment too)",
           f->peak_saved_bytes ? ompdp_format_bytes(saved, f->peak_saved_bytes) : "");
  return ompdp_strdup(buf);
}

/* Early allocations and late releases: one state of live allocations and
 * their uses, and the windows around the current peak. */
const ompdp_detection_t ompdp_detect_lifetime = {
    .name = "early allocations and late releases",
    .kinds = {{.kind = OMPDP_FK_EARLY_ALLOC,
               .aux = OMPDP_AUX_NONE,
               .rewrite = OMPDP_RR_SHRINK_LIFETIME,
               .rewrites = 1u << OMPDP_RK_SHRINK_LIFETIME,
               .routine_text = lifetime_routine_text},
              {.kind = OMPDP_FK_LATE_RELEASE,
               .aux = OMPDP_AUX_NONE,
               .rewrite = OMPDP_RR_SHRINK_LIFETIME,
               .rewrites = 1u << OMPDP_RK_SHRINK_LIFETIME,
               .routine_text = lifetime_routine_text}},
    .num_kinds = 2,
    .create = lifetime_create,
    .on_alloc = lifetime_alloc,
    .on_delete = lifetime_delete,
    .on_transfer = lifetime_transfer,
    .on_kernel = lifetime_kernel,
    .on_use = lifetime_use,
    .finish = lifetime_finish,
    .memory = lifetime_memory,
    .destroy = lifetime_destroy,
    .text = lifetime_text,
};
