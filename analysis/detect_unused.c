/*===- detect_unused.c - Algorithm 5: unused transfers --------------*- C -*-===*\
|*
|* A transfer into a device is unused when another transfer overwrites the
|* same device bytes before any kernel ran there, or when no kernel runs on
|* that device after it. Unlike the published version, the candidate is
|* keyed by its device address (what is overwritten) and must be covered by
|* the later transfer.
|*
|* Per device, a transfer that begins while a kernel there is running may be
|* read by it. Otherwise it joins the device's open segment: the transfers
|* since every kernel seen there ended. What becomes of the segment depends
|* on the future. If another kernel begins on the device, outcome B: within
|* the segment, a transfer overwritten by a later one that covers it is
|* unused (the candidates of the paper's algorithm, one per device address).
|* If the run ends first, outcome A: every transfer of the segment is unused
|* (after the last kernel). The engine keeps both outcomes as aggregates per
|* call site, decides the overwrites of B as they happen, and commits one
|* outcome when the segment resolves; only the current candidates and the
|* transfers that overlap others (their unions are not simple sums) are kept
|* one by one.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>
#include <string.h>

typedef struct ompdp_unused_tx ompdp_unused_tx_t;
static void unused_tx_destroy(void *p);

typedef struct seg_ent {
  struct seg_ent *prev, *next; /* every live entry of its segment */
  struct udev *dev;
  uint32_t op;
  uint64_t seq, dur, dst_addr, bytes;
  uint32_t agg_a;  /* its site's outcome-A aggregate */
  int is_cand;     /* the current candidate at its device address */
  int singleton;   /* its cluster closed with it alone: la.len/gdelta are set */
  ompdp_late_t la;
} seg_ent_t;

typedef struct aggs {
  ompdp_agg_t *v;
  size_t n, cap;
  ompdp_hmap_t by_site; /* (item, codeptr, region) -> index + 1 */
  uint64_t global;      /* what singletons add to the total */
  uint32_t last_op, last_ix; /* the last lookup: a loop repeats its operation */
} aggs_t;

typedef struct kspan {
  uint64_t start, end;
} kspan_t;

typedef struct udev {
  int dev;
  kspan_t *q; /* kernels seen, in begin order, that may still be running */
  size_t qh, qn, qcap;
  seg_ent_t *ents;
  size_t num_ents;
  ompdp_hmap_t cand; /* device address -> seg_ent_t * */
  aggs_t a, b;
  ompdp_matches_t ma, mb; /* tests: the matches of each outcome */
} udev_t;

struct ompdp_unused_tx {
  ompdp_hmap_t devs; /* device -> udev + 1 */
  udev_t **dv;
  size_t ndv;
  size_t ents;
  udev_t *last; /* the device of the last transfer */
  seg_ent_t *free_ents;
  size_t num_free;
};

static void *unused_tx_create(const ompdp_engine_config_t *cfg) {
  ompdp_unused_tx_t *u = calloc(1, sizeof(*u));
  if (!u || ompdp_hmap_init(&u->devs, 8)) {
    free(u);
    return NULL;
  }
  return u;
}

static void aggs_clear(aggs_t *s) {
  for (size_t i = 0; i < s->n; ++i)
    ompdp_agg_free(&s->v[i]);
  s->n = 0;
  s->global = 0;
  s->last_op = OMPDP_NONE;
  if (s->by_site.n) {
    ompdp_hmap_free(&s->by_site);
    ompdp_hmap_init(&s->by_site, 8);
  }
}

/* Entries come and go once per transfer: recycled, not freed. */
static seg_ent_t *new_ent(ompdp_unused_tx_t *u) {
  seg_ent_t *x = u->free_ents;
  if (x) {
    u->free_ents = x->next;
    u->num_free--;
    memset(x, 0, sizeof(*x));
  } else {
    x = calloc(1, sizeof(*x));
    if (!x)
      return NULL;
  }
  u->ents++;
  return x;
}

static void drop_ent(ompdp_unused_tx_t *u, seg_ent_t *x) {
  u->ents--;
  if (u->num_free >= 1024) {
    free(x);
    return;
  }
  x->next = u->free_ents;
  u->free_ents = x;
  u->num_free++;
}

static void free_entries(ompdp_unused_tx_t *u, udev_t *d) {
  for (seg_ent_t *x = d->ents; x;) {
    seg_ent_t *n = x->next;
    drop_ent(u, x);
    x = n;
  }
  d->ents = NULL;
  d->num_ents = 0;
}

static void unused_tx_destroy(void *p) {
  ompdp_unused_tx_t *u = p;
  if (!u)
    return;
  for (size_t i = 0; i < u->ndv; ++i) {
    udev_t *d = u->dv[i];
    free_entries(u, d);
    aggs_clear(&d->a);
    aggs_clear(&d->b);
    free(d->a.v);
    free(d->b.v);
    ompdp_hmap_free(&d->a.by_site);
    ompdp_hmap_free(&d->b.by_site);
    ompdp_hmap_free(&d->cand);
    ompdp_matches_free(&d->ma);
    ompdp_matches_free(&d->mb);
    free(d->q);
    free(d);
  }
  free(u->dv);
  while (u->free_ents) {
    seg_ent_t *n = u->free_ents->next;
    free(u->free_ents);
    u->free_ents = n;
  }
  ompdp_hmap_free(&u->devs);
  free(u);
}

static size_t unused_tx_memory(const void *p) {
  const ompdp_unused_tx_t *u = p;
  size_t m = sizeof(*u) + ompdp_hmap_memory(&u->devs) + u->ents * sizeof(seg_ent_t);
  for (size_t i = 0; i < u->ndv; ++i) {
    const udev_t *d = u->dv[i];
    m += sizeof(*d) + d->qcap * sizeof(kspan_t) + ompdp_hmap_memory(&d->cand) +
         (d->a.cap + d->b.cap) * sizeof(ompdp_agg_t) + ompdp_hmap_memory(&d->a.by_site) +
         ompdp_hmap_memory(&d->b.by_site);
  }
  return m;
}

static udev_t *dev_of(ompdp_unused_tx_t *u, int dev) {
  if (u->last && u->last->dev == dev)
    return u->last;
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&u->devs, (uint64_t)(int64_t)dev, 0, 0, &inserted);
  if (!slot)
    return NULL;
  if (!inserted)
    return u->last = u->dv[*slot - 1];
  udev_t *d = calloc(1, sizeof(*d));
  udev_t **v = realloc(u->dv, (u->ndv + 1) * sizeof(*v));
  if (v)
    u->dv = v;
  if (!d || !v || ompdp_hmap_init(&d->cand, 16) || ompdp_hmap_init(&d->a.by_site, 8) ||
      ompdp_hmap_init(&d->b.by_site, 8)) {
    if (d) {
      ompdp_hmap_free(&d->cand);
      ompdp_hmap_free(&d->a.by_site);
    }
    free(d);
    ompdp_hmap_remove(&u->devs, (uint64_t)(int64_t)dev, 0, 0);
    return NULL;
  }
  d->dev = dev;
  d->a.last_op = d->b.last_op = OMPDP_NONE;
  u->dv[u->ndv++] = d;
  *slot = u->ndv;
  return u->last = d;
}

/* The aggregate of op's call site in s (created when new). */
static ompdp_agg_t *agg_for(aggs_t *s, uint32_t op, uint64_t seq, uint32_t *index) {
  if (op == s->last_op) {
    if (index)
      *index = s->last_ix;
    return &s->v[s->last_ix];
  }
  const ompdp_op_t *o = ompdp_op_get(op);
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&s->by_site, (uint16_t)o->item,
                                     (uint64_t)(uintptr_t)o->codeptr, o->region, &inserted);
  if (!slot)
    return NULL;
  if (!inserted) {
    s->last_op = op;
    s->last_ix = (uint32_t)(*slot - 1);
    if (index)
      *index = s->last_ix;
    return &s->v[s->last_ix];
  }
  if (s->n == s->cap) {
    size_t cap = s->cap ? s->cap * 2 : 4;
    ompdp_agg_t *v = realloc(s->v, cap * sizeof(*v));
    if (!v) {
      ompdp_hmap_remove(&s->by_site, (uint16_t)o->item, (uint64_t)(uintptr_t)o->codeptr,
                        o->region);
      return NULL;
    }
    s->v = v;
    s->cap = cap;
  }
  ompdp_agg_t *a = &s->v[s->n];
  memset(a, 0, sizeof(*a));
  a->op = op;
  a->first_seq = seq;
  a->ref_op = OMPDP_NONE;
  a->f = OMPDP_NONE;
  if (index)
    *index = (uint32_t)s->n;
  s->last_op = op;
  s->last_ix = (uint32_t)s->n;
  *slot = ++s->n;
  return a;
}

static void unlink_ent(ompdp_unused_tx_t *u, seg_ent_t *x) {
  udev_t *d = x->dev;
  if (x->prev)
    x->prev->next = x->next;
  else
    d->ents = x->next;
  if (x->next)
    x->next->prev = x->prev;
  d->num_ents--;
  drop_ent(u, x);
}

/* Outcome B selects candidate c, overwritten by t. */
static int select_b(ompdp_engine_t *g, udev_t *d, seg_ent_t *c, const ompdp_xev_t *t) {
  ompdp_agg_t *b = agg_for(&d->b, c->op, c->seq, NULL);
  if (!b || ompdp_agg_note(b, ompdp_op_get(c->op), c->dur, ompdp_g_host(g)))
    return -1;
  if (b->ref_op == OMPDP_NONE) {
    b->ref_op = t->op;
    b->ref_seq = t->seq;
  }
  if (c->singleton) {
    b->saved += c->la.len;
    d->b.global += c->la.gdelta;
  } else {
    ompdp_g_late_mark(&c->la);
  }
  return ompdp_g_collect(g, &d->mb, (uint32_t)c->seq, (uint32_t)t->seq, 0);
}

static void unused_tx_singleton(ompdp_engine_t *g, void *owner, ompdp_late_t *lr, int bsel) {
  (void)g;
  seg_ent_t *x = owner;
  udev_t *d = x->dev;
  x->singleton = 1;
  d->a.v[x->agg_a].saved += lr->len;
  d->a.global += lr->gdelta;
  if (bsel) {
    ompdp_agg_t *b = agg_for(&d->b, x->op, x->seq, NULL);
    if (b) { /* it exists: the selection created it */
      b->saved += lr->len;
      d->b.global += lr->gdelta;
    }
  }
}

/* Frees what the segment no longer needs: a transfer accounted as a lone
 * interval that is not the current candidate. */
static void maybe_free(ompdp_unused_tx_t *u, seg_ent_t *x) {
  if (x->singleton && !x->is_cand)
    unlink_ent(u, x);
}

static int unused_tx_feed(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_unused_tx_t *u = p;
  const ompdp_op_t *o = e->d;
  if (o->dst_dev == ompdp_g_host(g) || !o->bytes)
    return 0;
  udev_t *d = dev_of(u, o->dst_dev);
  if (!d)
    return -1;
  /* Kernels that ended before this transfer cannot read it. */
  while (d->qn && d->q[d->qh].end < e->start) {
    d->qh++;
    d->qn--;
  }
  if (d->qn)
    return 0; /* a kernel is running there: it may read anything */

  seg_ent_t *x = new_ent(u);
  if (!x)
    return -1;
  x->dev = d;
  x->op = e->op;
  x->seq = e->seq;
  x->dur = e->end - e->start;
  x->dst_addr = o->dst_addr;
  x->bytes = o->bytes;
  x->next = d->ents;
  if (d->ents)
    d->ents->prev = x;
  d->ents = x;
  d->num_ents++;
  ompdp_agg_t *a = agg_for(&d->a, e->op, e->seq, &x->agg_a);
  if (!a || ompdp_agg_note(a, o, x->dur, ompdp_g_host(g)) ||
      ompdp_g_collect(g, &d->ma, (uint32_t)e->seq, OMPDP_NONE, 0))
    return -1;
  ompdp_g_late_begin(g, e, &x->la, unused_tx_singleton, x);

  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&d->cand, o->dst_addr, 0, 0, &inserted);
  if (!slot)
    return -1;
  if (!inserted) {
    seg_ent_t *c = (seg_ent_t *)(uintptr_t)*slot;
    if (o->bytes >= c->bytes && select_b(g, d, c, e))
      return -1;
    c->is_cand = 0;
    maybe_free(u, c);
  }
  *slot = (uint64_t)(uintptr_t)x;
  x->is_cand = 1;
  return 0;
}

/* Commits one outcome of d's segment and empties it. */
static int resolve(ompdp_unused_tx_t *u, ompdp_engine_t *g, udev_t *d, int outcome_a) {
  aggs_t *s = outcome_a ? &d->a : &d->b;
  int rc = 0;
  for (size_t i = 0; i < s->n && !rc; ++i)
    if (ompdp_g_commit(g, OMPDP_FK_UNUSED_TRANSFER, &s->v[i]) == OMPDP_NONE)
      rc = -1;
  if (!rc)
    ompdp_g_add_saved(g, s->global);
  for (seg_ent_t *x = d->ents; x && !rc; x = x->next) {
    if (x->singleton)
      continue;
    uint32_t f = OMPDP_NONE;
    if (outcome_a) {
      f = d->a.v[x->agg_a].f;
    } else if (ompdp_g_late_marked(&x->la)) {
      ompdp_agg_t *b = agg_for(&d->b, x->op, x->seq, NULL);
      f = b ? b->f : OMPDP_NONE;
      if (f == OMPDP_NONE)
        rc = -1;
    }
    if (!rc)
      rc = ompdp_g_late_decide(g, &x->la, f);
  }
  const ompdp_matches_t *m = outcome_a ? &d->ma : &d->mb;
  for (size_t i = 0; i < m->n; ++i)
    ompdp_g_match(g, OMPDP_FK_UNUSED_TRANSFER, m->v[i].avoid, m->v[i].ref, 0);
  d->ma.n = d->mb.n = 0;
  free_entries(u, d);
  if (d->cand.n) {
    ompdp_hmap_free(&d->cand);
    if (ompdp_hmap_init(&d->cand, 16))
      rc = -1;
  }
  aggs_clear(&d->a);
  aggs_clear(&d->b);
  return rc;
}

static int unused_tx_kernel(void *p, ompdp_engine_t *g, const ompdp_xev_t *k) {
  ompdp_unused_tx_t *u = p;
  udev_t *d = dev_of(u, k->d->dst_dev);
  if (!d)
    return -1;
  if (d->num_ents && resolve(u, g, d, 0))
    return -1;
  /* Kernels that ended before this one began would be passed over by the
   * next transfer anyway. */
  while (d->qn && d->q[d->qh].end < k->start) {
    d->qh++;
    d->qn--;
  }
  if (d->qh + d->qn == d->qcap) {
    if (d->qh) {
      memmove(d->q, d->q + d->qh, d->qn * sizeof(*d->q));
      d->qh = 0;
    } else {
      size_t cap = d->qcap ? d->qcap * 2 : 8;
      kspan_t *v = realloc(d->q, cap * sizeof(*v));
      if (!v)
        return -1;
      d->q = v;
      d->qcap = cap;
    }
  }
  d->q[d->qh + d->qn++] = (kspan_t){k->start, k->end};
  return 0;
}

/* The end of the run is outcome A; a run that ended early has no such end:
 * whatever came next would have been a kernel (B) or the end (A), and only
 * the overwrites, unused either way, are proved. */
static int unused_tx_finish(void *p, ompdp_engine_t *g) {
  ompdp_unused_tx_t *u = p;
  int outcome_a = !ompdp_g_ended_early(g);
  for (size_t i = 0; i < u->ndv; ++i)
    if (u->dv[i]->num_ents && resolve(u, g, u->dv[i], outcome_a))
      return -1;
  return 0;
}

/*===- the detection ------------------------------------------------------------===*/

static char *unused_tx_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                            const ompdp_region_info_t *related, uint32_t rule, const char *d) {
  (void)related; /* the repeated operation's item: only fresh buffers need it */
  char buf[512];
  const char *plural = f->num_devices > 1 ? "s" : "";
  snprintf(buf, sizeof(buf),
           "no kernel on device%s %s can read these bytes before they are overwritten or the "
           "device's last kernel has run: remove the transfer (use `map(alloc: ...)` if the "
           "memory is still needed)",
           plural, d);
  return ompdp_strdup(buf);
}

/* At a routine call: the call that sends goes, or moves. */
static char *unused_tx_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024];
  snprintf(buf, sizeof(buf),
           "no kernel reads the bytes this `%s` sends to device%s %s before they are "
           "overwritten or the last kernel there ran: remove the call, or move it to where a "
           "kernel reads %s",
           c->routine, c->plural, c->devices, c->variable);
  return ompdp_strdup(buf);
}

/* Algorithm 5. */
const ompdp_detection_t ompdp_detect_unused_transfer = {
    .name = "unused transfers",
    .kinds = {{.kind = OMPDP_FK_UNUSED_TRANSFER,
               .transfer_devices = 1,
               .aux = OMPDP_AUX_NONE,
               .rewrite = OMPDP_RR_SKIP_COPY_IN,
               .rewrites = 1u << OMPDP_RK_REMOVE_ITEM | 1u << OMPDP_RK_CHANGE_MAP_TYPE,
               .routine_text = unused_tx_routine_text}},
    .num_kinds = 1,
    .create = unused_tx_create,
    .on_transfer = unused_tx_feed,
    .on_kernel = unused_tx_kernel,
    .finish = unused_tx_finish,
    .memory = unused_tx_memory,
    .destroy = unused_tx_destroy,
    .text = unused_tx_text,
};
