/*===- analysis.c - the online analysis engine ---------------------*- C -*-===*\
|*
|* Fed the events one at a time in analysis order (begin time, thread,
|* position), the engine runs the detections (detect_*.c) and builds the
|* report model: Table 1 counts, one finding per (pattern, call site, map
|* item) with its avoidable bytes and time, and the time the fixes would
|* save. It keeps aggregates and what later events can still change, never
|* the events, so the same engine serves the full-log mode (fed from the log
|* at exit) and the stream mode (fed while the program runs); fed the same
|* records, both give byte-identical reports.
|*
|* Saved time is the length of the union of the avoidable intervals, per
|* finding and over the run. Intervals of data operations arrive in begin
|* order, so they are grouped into clusters: maximal runs in which each
|* interval begins before the ones so far have all ended. Unions never cross
|* clusters, so a cluster's contribution is final once it closes and all
|* its members' selections are known. Most clusters hold one operation (a
|* thread's operations do not overlap) and cost nothing to keep; a cluster
|* of overlapping operations is kept while one of them waits for a late
|* decision (an unused allocation or unused transfer is known only later).
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"
#include "mem_track.h"
#include "memory.h"
#include "op_account.h"
#include "timeline_collect.h"

#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { L_NONE, L_PENDING, L_YES, L_NO };

typedef struct member {
  uint64_t start, end;
  uint32_t imm[4]; /* findings that selected it when it happened (duplicate, round trip,
                    * zero, overbroad: at most four of them at once) */
  uint32_t late_f; /* L_YES: its late finding */
  uint8_t nimm, late, bsel;
  ompdp_late_t *lr;
  void *owner;
} member_t;

typedef struct ompdp_cluster {
  member_t *m;
  uint32_t n, cap;
  uint32_t pending; /* members with L_PENDING */
  int closed;
  uint64_t max_end;
} cluster_t;

typedef struct fstate {
  int kind;
  uint32_t site_op;
  uint64_t first_seq;
  uint32_t ref_op; /* OMPDP_NONE: no related operation */
  uint64_t ref_seq;
  uint64_t count, bytes, time, saved, same, other;
  uint32_t rule; /* overbroad maps: OMPDP_OVERBROAD_* */
  int peak;       /* device memory held while unused: no time, a peak saving */
  uint64_t peak_saved;
  ompdp_oc_t oc;  /* its operations by class (the cost model's input) */
  int *devices;
  size_t num_devices;
} fstate_t;

struct ompdp_engine {
  int host;
  int failed;
  int ended_early; /* finished as of a death (ompdp_engine_finish_early) */
  ompdp_matches_t *matches;
  fstate_t *f;
  size_t nf, capf;
  ompdp_hmap_t by_site; /* (kind << 48 | item, codeptr, region) -> finding + 1 */
  cluster_t *open;
  uint64_t saved; /* union over all findings, ticks */
  size_t cluster_bytes;
  uint64_t n_transfers, n_allocs, n_deletes, n_kernels, bytes_transferred, transfer_ticks;
  void **det; /* each detection's state, as ompdp_detections[] */
  ompdp_opacct_t acct; /* the run's operations by class, kernel time */
  uint32_t (*sink_thread)(void);
  ompdp_describe_fn describe; /* the region tables, for the words; or NULL */
  uint32_t last_op[OMPDP_FK_COUNT], last_f[OMPDP_FK_COUNT]; /* g_finding's last answer */
  ompdp_tlc_t *tl; /* the timeline's operations (timeline_collect.c), or NULL */
  ompdp_memtrack_t *mem; /* device memory in use (mem_track.c) */
};

int ompdp_g_host(const ompdp_engine_t *g) { return g->host; }
int ompdp_g_ended_early(const ompdp_engine_t *g) { return g->ended_early; }

uint64_t ompdp_host_addr(const ompdp_op_t *o, int host) {
  if (o->dst_dev == host && o->src_dev != host)
    return o->dst_addr;
  return o->src_addr;
}

/*===- findings ---------------------------------------------------------------===*/

static uint32_t find_or_add(ompdp_engine_t *g, int kind, uint32_t op, uint64_t seq);

static int add_device(fstate_t *f, int dev) {
  size_t i = 0;
  while (i < f->num_devices && f->devices[i] < dev)
    ++i;
  if (i < f->num_devices && f->devices[i] == dev)
    return 0;
  int *d = realloc(f->devices, (f->num_devices + 1) * sizeof(*d));
  if (!d)
    return -1;
  memmove(d + i + 1, d + i, (f->num_devices - i) * sizeof(*d));
  d[i] = dev;
  f->devices = d;
  ++f->num_devices;
  return 0;
}

uint32_t ompdp_g_finding(ompdp_engine_t *g, int kind, uint32_t op, uint64_t seq) {
  if (g->last_op[kind] == op)
    return g->last_f[kind];
  uint32_t f = find_or_add(g, kind, op, seq);
  if (f != OMPDP_NONE) {
    g->last_op[kind] = op;
    g->last_f[kind] = f;
  }
  return f;
}

static uint32_t find_or_add(ompdp_engine_t *g, int kind, uint32_t op, uint64_t seq) {
  const ompdp_op_t *o = ompdp_op_get(op);
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&g->by_site, (uint64_t)kind << 48 | (uint16_t)o->item,
                                     (uint64_t)(uintptr_t)o->codeptr, o->region, &inserted);
  if (!slot)
    return OMPDP_NONE;
  if (!inserted)
    return (uint32_t)(*slot - 1);
  if (g->nf == g->capf) {
    size_t cap = g->capf ? g->capf * 2 : 16;
    fstate_t *v = realloc(g->f, cap * sizeof(*v));
    if (!v) {
      ompdp_hmap_remove(&g->by_site, (uint64_t)kind << 48 | (uint16_t)o->item,
                        (uint64_t)(uintptr_t)o->codeptr, o->region);
      return OMPDP_NONE;
    }
    g->f = v;
    g->capf = cap;
  }
  fstate_t *f = &g->f[g->nf];
  memset(f, 0, sizeof(*f));
  f->kind = kind;
  f->site_op = op;
  f->first_seq = seq;
  f->ref_op = OMPDP_NONE;
  *slot = ++g->nf;
  return (uint32_t)(g->nf - 1);
}

static int transfer_devices(fstate_t *f, const ompdp_op_t *o, int host) {
  int rc = 0;
  if (o->src_dev != host)
    rc |= add_device(f, o->src_dev);
  if (o->dst_dev != host)
    rc |= add_device(f, o->dst_dev);
  if (!f->num_devices)
    rc |= add_device(f, o->dst_dev);
  return rc;
}

int ompdp_g_account(ompdp_engine_t *g, uint32_t fi, const ompdp_op_t *o, uint64_t dur,
                   const ompdp_xref_t *ref, uint32_t aux) {
  fstate_t *f = &g->f[fi];
  f->count += 1;
  f->bytes += o->bytes;
  f->time += dur;
  ompdp_oc_add(f->oc, ompdp_op_class_of(o->type, o->src_dev, o->dst_dev, g->host), 1, o->bytes,
               dur);
  if (ref && f->ref_op == OMPDP_NONE) {
    f->ref_op = ref->op;
    f->ref_seq = ref->seq;
  }
  const ompdp_detection_kind_t *k = ompdp_detection_kind((ompdp_finding_kind_t)f->kind);
  switch (k ? k->aux : OMPDP_AUX_NONE) {
  case OMPDP_AUX_SAME_BUFFER:
    if (aux)
      f->same++;
    else
      f->other++;
    break;
  case OMPDP_AUX_RULE:
    f->rule = aux;
    break;
  case OMPDP_AUX_NONE:
  case OMPDP_AUX_DELETE: /* the timeline's */
    break;
  }
  return k && k->transfer_devices ? transfer_devices(f, o, g->host) : add_device(f, o->dst_dev);
}

int ompdp_g_collecting(const ompdp_engine_t *g) { return g->matches != NULL; }

ompdp_memtrack_t *ompdp_g_memory(ompdp_engine_t *g) { return g->mem; }

uint32_t ompdp_g_peak_select(ompdp_engine_t *g, int kind, uint32_t op, uint64_t seq,
                             const ompdp_xref_t *ref, uint64_t saved) {
  uint32_t fi = ompdp_g_finding(g, kind, op, seq);
  if (fi == OMPDP_NONE)
    return OMPDP_NONE;
  fstate_t *f = &g->f[fi];
  const ompdp_op_t *o = ompdp_op_get(op);
  f->count += 1;
  f->bytes += o->bytes;
  f->peak = 1;
  if (saved > f->peak_saved)
    f->peak_saved = saved;
  if (ref && f->ref_op == OMPDP_NONE) {
    f->ref_op = ref->op;
    f->ref_seq = ref->seq;
  }
  return add_device(f, o->dst_dev) ? OMPDP_NONE : fi;
}

int ompdp_g_collect(ompdp_engine_t *g, ompdp_matches_t *m, uint32_t avoid, uint32_t ref,
                    uint32_t aux) {
  if (!g->matches && !g->tl)
    return 0;
  if (!g->matches && m->n >= 2 * OMPDP_TLC_RING) {
    /* The timeline alone: keep the last OMPDP_TLC_RING, which its ring may
     * still hold. */
    memmove(m->v, m->v + m->n - OMPDP_TLC_RING, OMPDP_TLC_RING * sizeof(*m->v));
    m->n = OMPDP_TLC_RING;
  }
  return ompdp_matches_push(m, avoid, ref, aux);
}

void ompdp_g_match(ompdp_engine_t *g, int kind, uint64_t avoid, uint64_t ref, uint64_t aux) {
  if (g->matches && ompdp_matches_push(&g->matches[kind], (uint32_t)avoid, (uint32_t)ref,
                                       (uint32_t)aux))
    g->failed = 1;
  if (g->tl && ompdp_tlc_match(g->tl, g, kind, avoid, ref, aux))
    g->failed = 1;
}

uint32_t ompdp_g_select(ompdp_engine_t *g, int kind, const ompdp_xev_t *e,
                        const ompdp_xref_t *ref, uint32_t aux) {
  uint32_t fi = ompdp_g_finding(g, kind, e->op, e->seq);
  if (fi == OMPDP_NONE || ompdp_g_account(g, fi, e->d, e->end - e->start, ref, aux))
    return OMPDP_NONE;
  member_t *m = &g->open->m[e->member];
  if (m->nimm < 4)
    m->imm[m->nimm++] = fi;
  return fi;
}

uint32_t ompdp_g_select_part(ompdp_engine_t *g, int kind, const ompdp_xev_t *e, uint32_t aux,
                             uint64_t bytes) {
  uint32_t fi = ompdp_g_finding(g, kind, e->op, e->seq);
  if (fi == OMPDP_NONE)
    return OMPDP_NONE;
  ompdp_op_t part = *e->d;
  uint64_t dur = e->end - e->start;
  if (part.bytes)
    dur = (uint64_t)((unsigned __int128)dur * (bytes < part.bytes ? bytes : part.bytes) /
                     part.bytes);
  part.bytes = bytes;
  if (ompdp_g_account(g, fi, &part, dur, NULL, aux))
    return OMPDP_NONE;
  /* The finding's own saving; the run's total keeps only whole intervals
   * (another finding may select the whole transfer). */
  g->f[fi].saved += dur;
  return fi;
}

void ompdp_g_add_saved(ompdp_engine_t *g, uint64_t ticks) { g->saved += ticks; }

void ompdp_g_move_to_delete(ompdp_engine_t *g, uint32_t fi, uint64_t bytes, uint64_t ticks) {
  uint64_t(*oc)[3] = g->f[fi].oc;
  oc[OMPDP_OC_ALLOC][2] -= ticks < oc[OMPDP_OC_ALLOC][2] ? ticks : oc[OMPDP_OC_ALLOC][2];
  ompdp_oc_add(oc, OMPDP_OC_DELETE, 1, bytes, ticks);
}

static int add_dev(int **v, size_t *n, int dev) {
  size_t i = 0;
  while (i < *n && (*v)[i] < dev)
    ++i;
  if (i < *n && (*v)[i] == dev)
    return 0;
  int *d = realloc(*v, (*n + 1) * sizeof(*d));
  if (!d)
    return -1;
  memmove(d + i + 1, d + i, (*n - i) * sizeof(*d));
  d[i] = dev;
  *v = d;
  ++*n;
  return 0;
}

int ompdp_agg_note(ompdp_agg_t *a, const ompdp_op_t *o, uint64_t dur, int host) {
  a->count += 1;
  a->bytes += o->bytes;
  a->time += dur;
  ompdp_oc_add(a->oc, ompdp_op_class_of(o->type, o->src_dev, o->dst_dev, host), 1, o->bytes, dur);
  int rc = 0;
  if (o->src_dev != host)
    rc |= add_dev(&a->devs, &a->ndevs, o->src_dev);
  if (o->dst_dev != host)
    rc |= add_dev(&a->devs, &a->ndevs, o->dst_dev);
  if (!a->ndevs)
    rc |= add_dev(&a->devs, &a->ndevs, o->dst_dev);
  return rc;
}

void ompdp_agg_free(ompdp_agg_t *a) {
  free(a->devs);
  a->devs = NULL;
  a->ndevs = 0;
}

uint32_t ompdp_g_commit(ompdp_engine_t *g, int kind, ompdp_agg_t *a) {
  uint32_t fi = ompdp_g_finding(g, kind, a->op, a->first_seq);
  a->f = fi;
  if (fi == OMPDP_NONE)
    return OMPDP_NONE;
  fstate_t *f = &g->f[fi];
  f->count += a->count;
  f->bytes += a->bytes;
  f->time += a->time;
  f->saved += a->saved;
  ompdp_oc_merge(f->oc, (const uint64_t(*)[3])a->oc);
  for (size_t i = 0; i < a->ndevs; ++i)
    if (add_device(f, a->devs[i]))
      return a->f = OMPDP_NONE;
  if (a->ref_op != OMPDP_NONE && f->ref_op == OMPDP_NONE) {
    f->ref_op = a->ref_op;
    f->ref_seq = a->ref_seq;
  }
  return fi;
}

int ompdp_g_add_interval(ompdp_engine_t *g, uint32_t fi, const ompdp_xev_t *e) {
  g->f[fi].time += e->end - e->start;
  ompdp_oc_add(g->f[fi].oc, ompdp_op_class_of(e->type, e->d->src_dev, e->d->dst_dev, g->host), 1,
               e->d->bytes, e->end - e->start);
  member_t *m = &g->open->m[e->member];
  if (m->nimm < 4)
    m->imm[m->nimm++] = fi;
  return 0;
}

/*===- clusters ---------------------------------------------------------------===*/

static cluster_t *new_cluster(ompdp_engine_t *g) {
  cluster_t *c = calloc(1, sizeof(*c));
  if (c)
    g->cluster_bytes += sizeof(*c);
  return c;
}

static void free_cluster(ompdp_engine_t *g, cluster_t *c) {
  g->cluster_bytes -= sizeof(*c) + c->cap * sizeof(member_t);
  free(c->m);
  free(c);
}

static int selected(const member_t *m) { return m->nimm || m->late == L_YES; }

typedef struct fm {
  uint32_t f, idx;
} fm_t;

static int cmp_fm(const void *a, const void *b) {
  const fm_t *x = a, *y = b;
  if (x->f != y->f)
    return x->f < y->f ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Unions of a closed cluster whose selections are all known. Members are
 * in begin order. */
static int finalize(ompdp_engine_t *g, cluster_t *c) {
  uint64_t total = 0, cs = 0, ce = 0;
  int open = 0;
  size_t nsel = 0;
  for (uint32_t i = 0; i < c->n; ++i) {
    const member_t *m = &c->m[i];
    if (!selected(m))
      continue;
    nsel += m->nimm + (m->late == L_YES);
    if (open && m->start <= ce) {
      if (m->end > ce)
        ce = m->end;
      continue;
    }
    if (open)
      total += ce - cs;
    cs = m->start;
    ce = m->end;
    open = 1;
  }
  if (open)
    total += ce - cs;
  g->saved += total;
  if (!nsel)
    return 0;
  fm_t *v = malloc(nsel * sizeof(*v));
  if (!v)
    return -1;
  size_t k = 0;
  for (uint32_t i = 0; i < c->n; ++i) {
    const member_t *m = &c->m[i];
    for (uint8_t j = 0; j < m->nimm; ++j)
      v[k++] = (fm_t){m->imm[j], i};
    if (m->late == L_YES)
      v[k++] = (fm_t){m->late_f, i};
  }
  qsort(v, k, sizeof(*v), cmp_fm);
  for (size_t i = 0; i < k;) {
    size_t j = i;
    uint64_t t = 0;
    cs = c->m[v[i].idx].start;
    ce = c->m[v[i].idx].end;
    for (++j; j < k && v[j].f == v[i].f; ++j) {
      const member_t *m = &c->m[v[j].idx];
      if (m->start <= ce) {
        if (m->end > ce)
          ce = m->end;
        continue;
      }
      t += ce - cs;
      cs = m->start;
      ce = m->end;
    }
    t += ce - cs;
    g->f[v[i].f].saved += t;
    i = j;
  }
  free(v);
  return 0;
}

/* The open cluster ends: a lone member is accounted at once (and a pending
 * selection of it learns what it would add); otherwise the cluster is
 * finalized now or when its last pending member is decided. */
static int close_open(ompdp_engine_t *g) {
  cluster_t *c = g->open;
  if (!c->n)
    return 0;
  if (c->n == 1) {
    member_t *m = &c->m[0];
    uint64_t len = m->end - m->start;
    for (uint8_t j = 0; j < m->nimm; ++j)
      g->f[m->imm[j]].saved += len;
    if (m->late == L_YES)
      g->f[m->late_f].saved += len;
    if (selected(m))
      g->saved += len;
    if (m->late == L_PENDING) {
      ompdp_late_t *lr = m->lr;
      lr->cl = NULL;
      lr->len = len;
      lr->gdelta = m->nimm ? 0 : len;
      if (lr->single)
        lr->single(g, m->owner, lr, m->bsel);
    }
    c->n = 0;
    c->pending = 0;
    return 0;
  }
  if (c->pending) {
    /* Kept until its pending members are decided. */
    c->closed = 1;
    cluster_t *nc = new_cluster(g);
    if (!nc)
      return -1;
    g->open = nc;
    return 0;
  }
  int rc = finalize(g, c);
  c->n = 0;
  return rc;
}

static int add_member(ompdp_engine_t *g, ompdp_xev_t *e) {
  cluster_t *c = g->open;
  if (c->n && e->start > c->max_end && close_open(g))
    return -1;
  c = g->open;
  if (c->n == c->cap) {
    uint32_t cap = c->cap ? c->cap * 2 : 8;
    member_t *m = realloc(c->m, cap * sizeof(*m));
    if (!m)
      return -1;
    g->cluster_bytes += (cap - c->cap) * sizeof(*m);
    c->m = m;
    c->cap = cap;
  }
  if (!c->n || e->end > c->max_end)
    c->max_end = e->end;
  member_t *m = &c->m[c->n];
  memset(m, 0, sizeof(*m));
  m->start = e->start;
  m->end = e->end;
  e->member = c->n++;
  return 0;
}

void ompdp_g_late_begin(ompdp_engine_t *g, const ompdp_xev_t *e, ompdp_late_t *lr,
                        ompdp_late_single_fn single, void *owner) {
  cluster_t *c = g->open;
  member_t *m = &c->m[e->member];
  m->late = L_PENDING;
  m->owner = owner;
  lr->single = single;
  m->lr = lr;
  c->pending++;
  lr->cl = c;
  lr->idx = e->member;
  lr->len = lr->gdelta = 0;
}

/* A selection made while the member's cluster is open (B outcome of a
 * segment): remembered on the member until the segment resolves. */
void ompdp_g_late_mark(ompdp_late_t *lr) {
  if (lr->cl)
    lr->cl->m[lr->idx].bsel = 1;
}
int ompdp_g_late_marked(const ompdp_late_t *lr) { return lr->cl && lr->cl->m[lr->idx].bsel; }

int ompdp_g_late_decide(ompdp_engine_t *g, ompdp_late_t *lr, uint32_t fi) {
  cluster_t *c = lr->cl;
  if (!c) {
    if (fi != OMPDP_NONE) {
      g->f[fi].saved += lr->len;
      g->saved += lr->gdelta;
    }
    return 0;
  }
  member_t *m = &c->m[lr->idx];
  if (m->late != L_PENDING)
    return 0;
  m->late = fi == OMPDP_NONE ? L_NO : L_YES;
  m->late_f = fi;
  m->lr = NULL;
  lr->cl = NULL;
  lr->len = lr->gdelta = 0;
  if (--c->pending == 0 && c->closed) {
    int rc = finalize(g, c);
    free_cluster(g, c);
    return rc;
  }
  return 0;
}

/*===- the engine --------------------------------------------------------------===*/

ompdp_engine_t *ompdp_engine_create(const ompdp_engine_config_t *cfg) {
  ompdp_engine_t *g = calloc(1, sizeof(*g));
  if (!g)
    return NULL;
  g->host = cfg->host_device;
  g->sink_thread = cfg->sink_thread;
  g->describe = cfg->describe;
  g->matches = cfg->matches;
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    g->last_op[k] = OMPDP_NONE;
  g->open = new_cluster(g);
  g->det = calloc(ompdp_num_detections, sizeof(*g->det));
  g->mem = ompdp_mem_create(cfg->host_device);
  int ok = g->open && g->det && g->mem && ompdp_hmap_init(&g->by_site, 64) == 0;
  for (size_t i = 0; ok && i < ompdp_num_detections; ++i)
    ok = (g->det[i] = ompdp_detections[i]->create(cfg)) != NULL;
  if (ok && cfg->timeline && cfg->timeline_mode != OMPDP_TIMELINE_OFF) {
    ompdp_tlc_config_t tc = {.full = cfg->timeline_mode == OMPDP_TIMELINE_FULL,
                             .first = cfg->timeline_first,
                             .per_finding = cfg->timeline_per_finding,
                             .host_device = cfg->host_device};
    ok = (g->tl = ompdp_tlc_create(&tc)) != NULL;
  }
  if (!ok) {
    ompdp_engine_destroy(g);
    return NULL;
  }
  return g;
}

void ompdp_engine_destroy(ompdp_engine_t *g) {
  if (!g)
    return;
  for (size_t i = 0; g->det && i < ompdp_num_detections; ++i)
    if (g->det[i])
      ompdp_detections[i]->destroy(g->det[i]);
  free(g->det);
  ompdp_tlc_destroy(g->tl);
  ompdp_mem_destroy(g->mem);
  if (g->open)
    free_cluster(g, g->open);
  for (size_t i = 0; i < g->nf; ++i)
    free(g->f[i].devices);
  free(g->f);
  ompdp_hmap_free(&g->by_site);
  free(g);
}

static size_t detections_memory(const ompdp_engine_t *g) {
  size_t n = 0;
  for (size_t i = 0; i < ompdp_num_detections; ++i)
    n += ompdp_detections[i]->memory(g->det[i]);
  return n;
}

size_t ompdp_engine_memory(const ompdp_engine_t *g) {
  return sizeof(*g) + g->capf * sizeof(fstate_t) + ompdp_hmap_memory(&g->by_site) +
         g->cluster_bytes + detections_memory(g) + ompdp_mem_memory(g->mem) +
         (g->tl ? ompdp_tlc_memory(g->tl) : 0);
}

uint64_t ompdp_engine_forgotten(const ompdp_engine_t *g) {
  uint64_t n = 0;
  for (size_t i = 0; i < ompdp_num_detections; ++i)
    if (ompdp_detections[i]->forgotten)
      n += ompdp_detections[i]->forgotten(g->det[i]);
  return n;
}

/* The hook of detection d for events of type t (NULL: none). */
static ompdp_detection_event_fn event_hook(const ompdp_detection_t *d, int t) {
  switch ((ompdp_event_type_t)t) {
  case OMPDP_EV_TRANSFER:
    return d->on_transfer;
  case OMPDP_EV_ALLOC:
    return d->on_alloc;
  case OMPDP_EV_DELETE:
    return d->on_delete;
  case OMPDP_EV_KERNEL:
    return d->on_kernel;
  case OMPDP_EV_USE:
    return d->on_use;
  case OMPDP_EV_TARGET:
    return NULL;
  }
  return NULL;
}

/* A kernel that began and was never seen to end (the process died in it,
 * or exited while it ran): it may read anything on its device from its
 * start on, so the detections see it running to the end of time. It did
 * not complete: nothing counts it, times it or puts it in a cluster. */
static int feed_in_flight(ompdp_engine_t *g, const ompdp_rec_t *r, uint32_t word, uint64_t seq) {
  ompdp_xev_t e;
  memset(&e, 0, sizeof(e));
  e.seq = seq;
  e.op = ompdp_rec_op_id(word);
  e.d = ompdp_op_get(e.op);
  e.type = OMPDP_EV_KERNEL;
  e.start = r->t_begin;
  e.end = UINT64_MAX;
  e.member = OMPDP_NONE;
  int rc = 0;
  for (size_t i = 0; i < ompdp_num_detections && !rc; ++i)
    if (ompdp_detections[i]->advance)
      rc = ompdp_detections[i]->advance(g->det[i], g, e.start);
  for (size_t i = 0; i < ompdp_num_detections && !rc; ++i)
    if (ompdp_detections[i]->on_kernel)
      rc = ompdp_detections[i]->on_kernel(g->det[i], g, &e);
  if (rc)
    g->failed = 1;
  return rc;
}

int ompdp_engine_feed(ompdp_engine_t *g, const ompdp_rec_t *r, uint32_t word, uint64_t seq) {
  if (g->failed)
    return -1;
  if (!(word & OMPDP_REC_COMPLETE)) /* only kernels in flight come so */
    return ompdp_rec_type(word) == OMPDP_EV_KERNEL ? feed_in_flight(g, r, word, seq) : 0;
  ompdp_xev_t e;
  e.seq = seq;
  e.op = ompdp_rec_op_id(word);
  e.d = ompdp_op_get(e.op);
  e.type = ompdp_rec_type(word);
  e.start = r->t_begin;
  e.end = ompdp_rec_end(r, word);
  if (e.end < e.start)
    e.end = e.start;
  e.hash = e.type == OMPDP_EV_TRANSFER ? r->x : 0;
  e.hashed = e.type == OMPDP_EV_TRANSFER && (word & OMPDP_REC_HASHED) && e.d->bytes > 0;
  e.member = OMPDP_NONE;
  /* A kernel's use of an allocation is no operation: it has no time of its
   * own to save, and no place on the timeline. */
  int op = e.type != OMPDP_EV_USE;
  /* First, so that the event is there for the matches it makes. */
  if (op && g->tl && ompdp_tlc_event(g->tl, &e, g->sink_thread ? g->sink_thread() : 0)) {
    g->failed = 1;
    return -1;
  }
  if (op)
    ompdp_opacct_feed(&g->acct, e.d, e.type, e.start, e.end, g->host);
  int rc = ompdp_mem_event(g->mem, &e);
  for (size_t i = 0; i < ompdp_num_detections && !rc; ++i)
    if (ompdp_detections[i]->advance)
      rc = ompdp_detections[i]->advance(g->det[i], g, e.start);
  if (!rc && op && e.type != OMPDP_EV_KERNEL)
    rc = add_member(g, &e);
  if (rc) {
    g->failed = 1;
    return rc;
  }
  switch ((ompdp_event_type_t)e.type) {
  case OMPDP_EV_TRANSFER:
    g->n_transfers++;
    g->bytes_transferred += e.d->bytes;
    g->transfer_ticks += e.end - e.start;
    break;
  case OMPDP_EV_ALLOC:
    g->n_allocs++;
    break;
  case OMPDP_EV_DELETE:
    g->n_deletes++;
    break;
  case OMPDP_EV_KERNEL:
    g->n_kernels++;
    break;
  case OMPDP_EV_USE:
  case OMPDP_EV_TARGET:
    break;
  }
  for (size_t i = 0; i < ompdp_num_detections && !rc; ++i) {
    ompdp_detection_event_fn fn = event_hook(ompdp_detections[i], e.type);
    if (fn)
      rc = fn(g->det[i], g, &e);
  }
  if (rc)
    g->failed = 1;
  return rc;
}

int ompdp_engine_sink(void *ctx, const ompdp_rec_t *r, uint32_t word, uint64_t seq) {
  return ompdp_engine_feed(ctx, r, word, seq);
}

/* The duplicate table's line for a transfer about to come: on a run of
 * distinct contents every lookup misses the cache otherwise. */
void ompdp_engine_ahead(void *ctx, const ompdp_rec_t *r) {
  ompdp_engine_t *g = ctx;
  uint32_t w = __atomic_load_n(&r->op, __ATOMIC_ACQUIRE);
  if ((w & (OMPDP_REC_COMPLETE | OMPDP_REC_HASHED)) != (OMPDP_REC_COMPLETE | OMPDP_REC_HASHED))
    return;
  int dev = ompdp_op_get(ompdp_rec_op_id(w))->dst_dev;
  for (size_t i = 0; i < ompdp_num_detections; ++i)
    if (ompdp_detections[i]->ahead)
      ompdp_detections[i]->ahead(g->det[i], r->x, dev);
}

/*===- the report ---------------------------------------------------------------===*/

static char *format_device_list(const ompdp_finding_t *f) {
  char buf[128];
  size_t off = 0;
  buf[0] = 0;
  for (size_t i = 0; i < f->num_devices && off < sizeof(buf) - 16; ++i)
    off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d", i ? ", " : "", f->devices[i]);
  return ompdp_strdup(buf);
}

/* The fix, in words, by the detection that found it. The compiler plugin
 * refines this with the variable and the exact clause; without it we can
 * still say what to do. */
static const ompdp_region_info_t *describe_item(const ompdp_engine_t *g, uint32_t region,
                                                int item, ompdp_region_info_t *out) {
  return g->describe && region && item >= 0 && g->describe(region, item, out) == 0 ? out : NULL;
}

static char *suggestion(const ompdp_engine_t *g, const ompdp_finding_t *f, uint32_t ref_op,
                        uint32_t rule) {
  const ompdp_detection_t *d = ompdp_kind_detection(f->kind);
  if (!d)
    return ompdp_strdup("");
  /* The items as the region table describes them (without a table, none):
   * the finding's, and the one of the operation it repeats or undoes. */
  ompdp_region_info_t it, rit;
  const ompdp_region_info_t *item = describe_item(g, f->rt_region, f->item, &it);
  const ompdp_region_info_t *related = NULL;
  if (ref_op != OMPDP_NONE) {
    const ompdp_op_t *r = ompdp_op_get(ref_op);
    related = describe_item(g, r->region, r->item, &rit);
  }
  char *devs = format_device_list(f);
  /* A routine call's fix moves or replaces calls, whatever the detection
   * would say of a map clause. */
  char *t = f->call ? ompdp_routine_text(f, item, devs ? devs : "?") : NULL;
  if (!t)
    t = d->text(f, item, related, rule, devs ? devs : "?");
  free(devs);
  return t;
}

/* Findings go to the report in a canonical order (kind, then the first
 * event of each), so that the final sort sees the same input however the
 * engine was fed and in which order it happened to decide things. */
static const fstate_t *sort_base;
static int cmp_order(const void *a, const void *b) {
  const fstate_t *x = &sort_base[*(const uint32_t *)a], *y = &sort_base[*(const uint32_t *)b];
  if (x->kind != y->kind)
    return x->kind < y->kind ? -1 : 1;
  return x->first_seq < y->first_seq ? -1 : x->first_seq > y->first_seq;
}

static int fill_report(ompdp_engine_t *g, ompdp_report_t *r, const ompdp_engine_result_t *res,
                       int rc, int snapshot);

int ompdp_engine_finish_early(ompdp_engine_t *g, ompdp_report_t *r,
                              const ompdp_engine_result_t *res) {
  g->ended_early = 1;
  return ompdp_engine_finish(g, r, res);
}

int ompdp_engine_finish(ompdp_engine_t *g, ompdp_report_t *r, const ompdp_engine_result_t *res) {
  int rc = g->failed ? -1 : 0;
  for (size_t i = 0; i < ompdp_num_detections && !rc; ++i)
    if (ompdp_detections[i]->finish)
      rc = ompdp_detections[i]->finish(g->det[i], g);
  if (!rc)
    rc = close_open(g);
  if (rc)
    g->failed = 1;
  rc = fill_report(g, r, res, rc, 0);
  if (!rc && g->tl && !(r->timeline = ompdp_tlc_finish(g->tl, res->tick_mult)))
    rc = -1;
  return rc;
}

/* The findings decided so far, without deciding what only the end can (an
 * allocation or transfer not used yet is not called unused) and without
 * closing the open cluster: the engine goes on as if nothing happened. */
int ompdp_engine_snapshot(ompdp_engine_t *g, ompdp_report_t *r,
                          const ompdp_engine_result_t *res) {
  return fill_report(g, r, res, g->failed ? -1 : 0, 1);
}

/* snapshot: copy what finish may hand over (the device lists). */
static int fill_report(ompdp_engine_t *g, ompdp_report_t *r, const ompdp_engine_result_t *res,
                       int rc, int snapshot) {
  uint64_t mult = res->tick_mult ? res->tick_mult : 1ull << 32;
  r->num_transfers = g->n_transfers;
  r->num_allocs = g->n_allocs;
  r->num_deletes = g->n_deletes;
  r->num_kernels = g->n_kernels;
  r->bytes_transferred = g->bytes_transferred;
  r->transfer_time_ns = ompdp_ticks_to_ns(g->transfer_ticks, mult);
  r->wall_time_ns = res->wall_time_ns;
  r->time_saved_ns = ompdp_ticks_to_ns(g->saved, mult);
  ompdp_opacct_fill(&g->acct, mult, r);
  uint32_t *order = malloc((g->nf ? g->nf : 1) * sizeof(*order));
  if (!order)
    return -1;
  for (size_t i = 0; i < g->nf; ++i)
    order[i] = (uint32_t)i;
  sort_base = g->f;
  qsort(order, g->nf, sizeof(*order), cmp_order);
  for (size_t i = 0; i < g->nf; ++i) {
    fstate_t *s = &g->f[order[i]];
    r->counts[s->kind] += s->count;
    ompdp_finding_t *f = ompdp_report_add_finding(r, (ompdp_finding_kind_t)s->kind);
    if (!f) {
      rc = -1;
      break;
    }
    f->count = s->count;
    f->bytes = s->bytes;
    f->time_ns = ompdp_ticks_to_ns(s->time, mult);
    f->time_saved_ns = ompdp_ticks_to_ns(s->saved, mult);
    ompdp_oc_to_ops((const uint64_t(*)[3])s->oc, mult, &f->ops);
    if (snapshot && s->num_devices) {
      f->devices = malloc(s->num_devices * sizeof(*f->devices));
      if (!f->devices) {
        rc = -1;
        break;
      }
      memcpy(f->devices, s->devices, s->num_devices * sizeof(*f->devices));
      f->num_devices = s->num_devices;
    } else {
      f->devices = s->devices;
      f->num_devices = s->num_devices;
      s->devices = NULL;
      s->num_devices = 0;
    }
    f->same_buffer = s->same;
    f->other_buffer = s->other;
    f->peak = s->peak;
    f->peak_saved_bytes = s->peak_saved;
    /* The site, for the rewrites (analysis/rewrite_policy.c). */
    f->rt_region = ompdp_op_get(s->site_op)->region;
    f->item = ompdp_op_get(s->site_op)->item;
    f->timeline_id = order[i];
    if (res->attribute) {
      res->attribute(ompdp_op_get(s->site_op), &f->loc, f);
      if (s->ref_op != OMPDP_NONE)
        res->attribute(ompdp_op_get(s->ref_op), &f->related, NULL);
    }
    f->suggestion = suggestion(g, f, s->ref_op, s->rule);
  }
  free(order);
  /* Device memory in use; the peak savings of the findings. */
  if (!rc && ompdp_mem_fill(g->mem, r, res->tick_mult, res->attribute))
    rc = -1;
  ompdp_report_memory_savings(r);
  ompdp_report_update_speedup(r);
  ompdp_report_sort(r);
  return rc;
}

/*===- from memory ----------------------------------------------------------------===*/

static int feed_array(ompdp_engine_t *g, const ompdp_event_t *ev, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    ompdp_rec_t rec;
    if (!(ev[i].flags & OMPDP_EVF_COMPLETE) || ev[i].type > OMPDP_EV_STORED_LAST)
      continue;
    if (ompdp_rec_from_event(&ev[i], &rec) || ompdp_engine_feed(g, &rec, rec.op, i))
      return -1;
  }
  return 0;
}

int ompdp_analyze(const ompdp_analysis_input_t *in, ompdp_report_t *r,
                  ompdp_attribute_fn attribute) {
  ompdp_engine_config_t cfg = {.host_device = in->host_device,
                               .describe = in->describe,
                               .section_lower = in->section_lower};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  if (!g)
    return -1;
  int rc = feed_array(g, in->events, in->num_events);
  ompdp_engine_result_t res = {
      .wall_time_ns = in->wall_time_ns, .tick_mult = in->tick_mult, .attribute = attribute};
  if (ompdp_engine_finish(g, r, &res))
    rc = -1;
  ompdp_engine_destroy(g);
  return rc;
}

int ompdp_find_matches(const ompdp_event_t *ev, size_t n, const ompdp_engine_config_t *config,
                       ompdp_matches_t out[OMPDP_FK_COUNT]) {
  ompdp_engine_config_t cfg = *config;
  cfg.matches = out;
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  if (!g)
    return -1;
  int rc = feed_array(g, ev, n);
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_engine_result_t res = {0};
  if (ompdp_engine_finish(g, &r, &res))
    rc = -1;
  ompdp_report_free(&r);
  ompdp_engine_destroy(g);
  return rc;
}
