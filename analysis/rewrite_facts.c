/*===- rewrite_facts.c - what the run did, for the rewrites -----------*- C -*-===*\
|*
|* The facts the rewrite policies decide from, collected while the events
|* stream by (or from a saved array), in analysis order: per map item of
|* each construct (a site) and per buffer, aggregates only, so memory grows
|* with the number of buffers and constructs, not of events. Which bytes
|* went in and came back say whether the host or the device changed the
|* data; who else touched a buffer says whether a rewrite would change what
|* they see.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"
#include "single_value.h"

#include <stdlib.h>
#include <string.h>

/* Sites (the plan's records, report.h) are per map item of a construct;
 * durations are in the events' time unit (converted by the planner): the
 * operations of one construct on one buffer follow each other, so their
 * sum is the union the analysis would compute. */
/* A small open-addressing map from three words to an index + 1. */
typedef struct imap {
  struct imap_slot {
    uint64_t k[3];
    uint32_t v; /* 0: empty */
  } * s;
  size_t cap, n;
} imap_t;

#define MAX_BUF_SITES OMPDP_PLAN_BUF_SITES
#define MAX_BUFFERS (1u << 20)

/* One buffer: a host address mapped to one device. */
typedef struct rw_buf {
  uint64_t addr;
  int dev;
  uint64_t last_hash; /* the bytes the device last had, when known */
  int known;
  uint32_t alloc_site; /* site + 1 of the live allocation */
  uint32_t sites[MAX_BUF_SITES];
  int num_sites; /* -1: too many, no longer tracked (all disqualified) */
  /* The live allocation's lifetime. */
  int lt_open, lt_ok, lt_in_known;
  uint64_t lt_in_hash;
  uint32_t lt_exit_region;
  int lt_exit_item;
  uint64_t lt_transfers, lt_bytes, lt_dur;
  uint32_t pending; /* site + 1 of a copy in not yet overwritten or freed */
  /* Its last copy back: the bytes, and the inputs clock then. */
  int back_known;
  uint64_t back_hash, back_clock;
  /* Kernel launches that used its device allocations (OMPDP_EV_USE): the
   * first two distinct (region, item), however the kernel found the data
   * present (in a function of another file, say). */
  uint32_t kuse_region[2];
  int32_t kuse_item[2];
} ompdp_rw_buf_t;

/* Devices whose inputs are followed one by one; the others share a slot. */
#define MAX_INPUT_DEVICES 64

struct ompdp_rw_facts {
  int host;
  int failed; /* out of memory or too many buffers: no rewrites */
  imap_t site_map, buf_map, dev_map;
  ompdp_rw_site_t *sites;
  size_t num_sites, cap_sites;
  ompdp_rw_buf_t *bufs;
  size_t num_bufs, cap_bufs;
  /* The last size asked of ompdp_zero_hash, and its hash. */
  uint64_t zero_bytes, zero_hash;
  /* When a device last received bytes it did not have, and last ran a
   * kernel: ticks of in_clock, per device. A copy back that returns the
   * bytes of the buffer's previous one, with no such transfer in between,
   * is the device giving back what it computed again from the same inputs
   * (d2h_recomputed), or, when no kernel ran either, what it merely still
   * held (d2h_idle). */
  uint64_t in_clock, in_last[MAX_INPUT_DEVICES + 1], kernel_last[MAX_INPUT_DEVICES + 1];
};



static uint64_t imap_hash(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full ^
               (c + 0x165667B19E3779F9ull) * 0xD6E8FEB86659FD93ull;
  return h ^ (h >> 29);
}

static uint32_t *imap_slot(imap_t *m, uint64_t a, uint64_t b, uint64_t c, int insert) {
  if (insert && (m->n + 1) * 4 > m->cap * 3) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct imap_slot *ns = calloc(cap, sizeof(*ns));
    if (!ns)
      return NULL;
    for (size_t i = 0; i < m->cap; ++i)
      if (m->s[i].v) {
        size_t j = imap_hash(m->s[i].k[0], m->s[i].k[1], m->s[i].k[2]) & (cap - 1);
        while (ns[j].v)
          j = (j + 1) & (cap - 1);
        ns[j] = m->s[i];
      }
    free(m->s);
    m->s = ns;
    m->cap = cap;
  }
  if (!m->cap)
    return NULL;
  size_t j = imap_hash(a, b, c) & (m->cap - 1);
  while (m->s[j].v) {
    if (m->s[j].k[0] == a && m->s[j].k[1] == b && m->s[j].k[2] == c)
      return &m->s[j].v;
    j = (j + 1) & (m->cap - 1);
  }
  if (!insert)
    return NULL;
  m->s[j].k[0] = a;
  m->s[j].k[1] = b;
  m->s[j].k[2] = c;
  m->n++;
  return &m->s[j].v; /* 0: the caller fills it */
}

ompdp_rw_facts_t *ompdp_rw_facts_create(int host_device) {
  ompdp_rw_facts_t *f = calloc(1, sizeof(*f));
  if (f)
    f->host = host_device;
  return f;
}

void ompdp_rw_facts_destroy(ompdp_rw_facts_t *f) {
  if (!f)
    return;
  free(f->site_map.s);
  free(f->buf_map.s);
  free(f->dev_map.s);
  free(f->sites);
  free(f->bufs);
  free(f);
}

static int is_h2d(int host, const ompdp_event_t *e) {
  return e->type == OMPDP_EV_TRANSFER && e->src_dev == host && e->dst_dev != host;
}
static int is_d2h(int host, const ompdp_event_t *e) {
  return e->type == OMPDP_EV_TRANSFER && e->dst_dev == host && e->src_dev != host;
}
static uint64_t dur(const ompdp_event_t *e) {
  return e->t_end > e->t_begin ? e->t_end - e->t_begin : 0;
}

static int dev_slot(int dev) {
  return dev >= 0 && dev < MAX_INPUT_DEVICES ? dev : MAX_INPUT_DEVICES;
}

/* Whether transfer e (complete) brings its device bytes it may not have:
 * anything but a copy in of the bytes its buffer last held (sent or
 * received). Decided before the transfer is followed, and for every
 * transfer to a device, those of no construct and device-to-device copies
 * too. */
static int new_input(ompdp_rw_facts_t *f, const ompdp_event_t *e) {
  if (!is_h2d(f->host, e) || !(e->flags & OMPDP_EVF_HASHED))
    return 1;
  uint32_t *v = imap_slot(&f->buf_map, e->src_addr, (uint64_t)(int64_t)e->dst_dev, 0, 0);
  const ompdp_rw_buf_t *b = v && *v ? &f->bufs[*v - 1] : NULL;
  return !b || !b->known || b->last_hash != e->hash;
}

static uint32_t site_of(ompdp_rw_facts_t *f, uint32_t region, int item) {
  uint32_t *v = imap_slot(&f->site_map, region, (uint64_t)(int64_t)item, 0, 1);
  if (!v)
    return 0;
  if (*v)
    return *v;
  if (f->num_sites == f->cap_sites) {
    size_t cap = f->cap_sites ? f->cap_sites * 2 : 16;
    ompdp_rw_site_t *ns = realloc(f->sites, cap * sizeof(*ns));
    if (!ns)
      return 0;
    f->sites = ns;
    f->cap_sites = cap;
  }
  ompdp_rw_site_t *s = &f->sites[f->num_sites];
  memset(s, 0, sizeof(*s));
  s->region = region;
  s->item = item;
  s->lt_exit_item = -1;
  return *v = (uint32_t)++f->num_sites;
}

/* The buffer's index + 1; 0 when it is not followed (create == 0) or on
 * failure (f->failed set). */
static uint32_t buf_of(ompdp_rw_facts_t *f, uint64_t addr, int dev, int create) {
  uint32_t *v = imap_slot(&f->buf_map, addr, (uint64_t)(int64_t)dev, 0, create);
  if (!v) {
    if (create)
      f->failed = -1;
    return 0;
  }
  if (*v || !create)
    return *v;
  if (f->num_bufs == MAX_BUFFERS) {
    f->failed = 1; /* too many to follow: no rewrites, but not an error */
    return 0;
  }
  if (f->num_bufs == f->cap_bufs) {
    size_t cap = f->cap_bufs ? f->cap_bufs * 2 : 16;
    ompdp_rw_buf_t *nb = realloc(f->bufs, cap * sizeof(*nb));
    if (!nb) {
      f->failed = -1;
      return 0;
    }
    f->bufs = nb;
    f->cap_bufs = cap;
  }
  ompdp_rw_buf_t *b = &f->bufs[f->num_bufs];
  memset(b, 0, sizeof(*b));
  b->addr = addr;
  b->dev = dev;
  b->lt_exit_item = -1;
  return *v = (uint32_t)++f->num_bufs;
}

/* Another site's operation on b, or this site's: updates who interleaves
 * with whom. */
static void touch(ompdp_rw_facts_t *f, ompdp_rw_buf_t *b, uint32_t bi, uint32_t site) {
  if (b->num_sites < 0) { /* too many sites to follow: none is sure of it */
    if (site)
      f->sites[site - 1].outside = 1;
    return;
  }
  int found = 0;
  for (int i = 0; i < b->num_sites; ++i) {
    if (b->sites[i] == site) {
      found = 1;
      continue;
    }
    ompdp_rw_site_t *o = &f->sites[b->sites[i] - 1];
    o->foreign = 1;
    /* Inside o's own allocation (a `target update` in its `target data`)
     * the operation cannot have found the buffer missing or present
     * otherwise than o left it. */
    if (!(b->lt_open && b->alloc_site == b->sites[i]))
      o->outside = 1;
  }
  if (!site)
    return; /* an operation no site owns (no region table) */
  ompdp_rw_site_t *s = &f->sites[site - 1];
  if (!found && b->num_sites != 0)
    s->outside = 1; /* others had the buffer before this site's first use */
  if (s->touched && s->foreign)
    s->interleaved = 1;
  s->foreign = 0;
  s->touched = 1;
  if (s->buf && s->buf != bi)
    s->multi_buf = 1;
  s->buf = bi;
  if (!found) {
    if (b->num_sites == MAX_BUF_SITES) {
      for (int i = 0; i < b->num_sites; ++i)
        f->sites[b->sites[i] - 1].interleaved = f->sites[b->sites[i] - 1].outside = 1;
      s->interleaved = s->outside = 1;
      b->num_sites = -1;
    } else {
      b->sites[b->num_sites++] = site;
    }
  }
}

/* Ends the live allocation of b at delete e: credits its lifetime to the
 * site that allocated. */
static void end_lifetime(ompdp_rw_facts_t *f, ompdp_rw_buf_t *b, const ompdp_event_t *e) {
  if (!b->lt_open || !b->alloc_site)
    return;
  ompdp_rw_site_t *s = &f->sites[b->alloc_site - 1];
  int ok = b->lt_ok && (!b->lt_exit_region || b->lt_exit_region == e->region);
  s->lt_count++;
  s->lt_bad += !ok;
  if (s->lt_exit_region && s->lt_exit_region != e->region)
    s->lt_exit_mixed = 1;
  s->lt_exit_region = e->region;
  if (b->lt_exit_item >= 0)
    s->lt_exit_item = b->lt_exit_item;
  s->lt_transfers += b->lt_transfers;
  s->lt_bytes += b->lt_bytes;
  s->lt_dur += b->lt_dur + dur(e);
  b->lt_open = 0;
}

int ompdp_rw_facts_feed(ompdp_rw_facts_t *f, const ompdp_event_t *e) {
  if (f->failed)
    return f->failed < 0 ? -1 : 0;
  if (e->type == OMPDP_EV_TRANSFER && (e->flags & OMPDP_EVF_COMPLETE) && e->dst_dev != f->host &&
      new_input(f, e))
    f->in_last[dev_slot(e->dst_dev)] = ++f->in_clock;
  if (e->type == OMPDP_EV_KERNEL && (e->flags & OMPDP_EVF_COMPLETE)) {
    f->kernel_last[dev_slot(e->dst_dev)] = ++f->in_clock;
    /* Launches per construct (key c = 1 beside the sites' c = 0): a
     * `target` whose every launch allocated its item never found it
     * present. */
    if (e->region) {
      uint32_t *n = imap_slot(&f->site_map, e->region, 0, 1, 1);
      if (!n) {
        f->failed = -1;
        return -1;
      }
      if (*n != UINT32_MAX)
        ++*n;
    }
  }
  if (e->type == OMPDP_EV_USE) {
    /* A launch used an allocation: the buffer that lives there. */
    const uint32_t *d =
        imap_slot(&f->dev_map, e->dst_addr, (uint64_t)(int64_t)e->dst_dev, 0, 0);
    if (d && *d && e->region) {
      ompdp_rw_buf_t *b = &f->bufs[*d - 1];
      for (int k = 0; k < 2; ++k) {
        if (b->kuse_region[k] == e->region && b->kuse_item[k] == e->item)
          break;
        if (!b->kuse_region[k]) {
          b->kuse_region[k] = e->region;
          b->kuse_item[k] = e->item;
          break;
        }
      }
    }
    return 0;
  }
  if (!(e->flags & OMPDP_EVF_COMPLETE) ||
      (e->type != OMPDP_EV_ALLOC && e->type != OMPDP_EV_TRANSFER && e->type != OMPDP_EV_DELETE))
    return 0;
  int host = f->host;
  uint32_t bi = 0;
  int create = e->region != 0;
  if (e->type == OMPDP_EV_DELETE) {
    uint32_t *d = imap_slot(&f->dev_map, e->src_addr, (uint64_t)(int64_t)e->src_dev, 0, 0);
    if (d) {
      bi = *d;
      *d = 0; /* freed: a later allocation there may be another buffer */
    }
  } else if (e->type == OMPDP_EV_ALLOC || is_h2d(host, e)) {
    bi = buf_of(f, e->src_addr, e->dst_dev, create);
  } else if (is_d2h(host, e)) {
    bi = buf_of(f, e->dst_addr, e->src_dev, create);
  }
  if (e->type == OMPDP_EV_ALLOC) {
    /* Remember which buffer lives at this device address (or forget an
     * older one that lived there). */
    uint32_t *d = imap_slot(&f->dev_map, e->dst_addr, (uint64_t)(int64_t)e->dst_dev, 0, bi != 0);
    if (d)
      *d = bi;
    else if (bi)
      goto oom;
  }
  if (!bi)
    return f->failed < 0 ? -1 : 0;
  ompdp_rw_buf_t *b = &f->bufs[bi - 1];

  /* The site: deletes carry no item; one by the construct that allocated
   * belongs to that allocation's site. */
  uint32_t si = 0;
  if (e->region) {
    if (e->type == OMPDP_EV_DELETE && b->alloc_site &&
        f->sites[b->alloc_site - 1].region == e->region)
      si = b->alloc_site;
    else
      si = site_of(f, e->region, e->type == OMPDP_EV_DELETE ? -1 : e->item);
    if (!si)
      goto oom;
    b = &f->bufs[bi - 1];
  }
  touch(f, b, bi, si);
  ompdp_rw_site_t *s = si ? &f->sites[si - 1] : NULL;

  /* Lifetime of the live allocation: only its own copy in, and copies
   * back that return what went in, may happen while it is unused. */
  if (b->lt_open && e->type == OMPDP_EV_TRANSFER) {
    if (is_h2d(host, e) && si && si == b->alloc_site) {
      b->lt_in_known = (e->flags & OMPDP_EVF_HASHED) != 0;
      b->lt_in_hash = e->hash;
    } else if (is_d2h(host, e) && e->region &&
               (!b->lt_exit_region || b->lt_exit_region == e->region) && b->lt_in_known &&
               (e->flags & OMPDP_EVF_HASHED) && e->hash == b->lt_in_hash) {
      b->lt_exit_region = e->region;
      if (e->item >= 0)
        b->lt_exit_item = e->item;
    } else {
      b->lt_ok = 0;
    }
    b->lt_transfers++;
    b->lt_bytes += e->bytes;
    b->lt_dur += dur(e);
  }

  switch (e->type) {
  case OMPDP_EV_ALLOC:
    b->pending = 0;
    b->alloc_site = si;
    b->lt_open = 1;
    b->lt_ok = 1;
    b->lt_in_known = 0;
    b->lt_exit_region = 0;
    b->lt_exit_item = -1;
    b->lt_transfers = b->lt_bytes = 0;
    b->lt_dur = dur(e);
    if (s) {
      if (s->allocs && s->alloc_bytes != e->bytes)
        s->sizes_differ = 1;
      if (!s->allocs)
        s->dur_alloc_first = dur(e);
      s->alloc_bytes = e->bytes;
      s->allocs++;
      s->dur_alloc += dur(e);
    }
    break;
  case OMPDP_EV_DELETE:
    b->pending = 0;
    end_lifetime(f, b, e);
    b->alloc_site = 0;
    if (s) {
      s->deletes++;
      s->dur_delete += dur(e);
      s->dur_delete_last = dur(e);
    }
    break;
  default: {
    int hashed = (e->flags & OMPDP_EVF_HASHED) != 0;
    int same = b->known && hashed && e->hash == b->last_hash;
    if (is_h2d(host, e)) {
      b->pending = si;
      if (s) {
        if (s->h2d && !same)
          s->host_changed = 1;
        if (!same)
          s->in_changed = 1;
        if (!s->h2d) {
          s->dur_h2d_first = dur(e);
          s->bytes_h2d_first = e->bytes;
        }
        s->h2d++;
        s->dur_h2d += dur(e);
        s->bytes_h2d += e->bytes;
        if (hashed && e->bytes) {
          if (f->zero_bytes != e->bytes) {
            f->zero_bytes = e->bytes;
            f->zero_hash = ompdp_zero_hash(e->bytes);
          }
          s->h2d_zero += e->hash == f->zero_hash;
          uint64_t pattern;
          uint32_t period;
          if (e->hash != f->zero_hash && ompdp_single_value_find(e->hash, &pattern, &period)) {
            /* One value in every element: the same at every copy, or -1. */
            if (!s->h2d_single) {
              s->single_pattern = pattern;
              s->single_period = (int32_t)period;
            } else if (s->single_pattern != pattern || s->single_period != (int32_t)period) {
              s->single_period = -1;
            }
            s->h2d_single++;
          }
        }
      }
    } else {
      if (b->pending)
        f->sites[b->pending - 1].copied_back = 1;
      if (s) {
        if (!same)
          s->dev_changed = 1;
        s->d2h_same += same;
        s->d2h_unhashed += !(b->known && hashed);
        /* The shared slot counts too: it holds devices the event did not
         * number, which may be this one. */
        int d = dev_slot(e->src_dev);
        uint64_t in = f->in_last[d] > f->in_last[MAX_INPUT_DEVICES] ? f->in_last[d]
                                                                      : f->in_last[MAX_INPUT_DEVICES];
        if (b->back_known && hashed && e->hash == b->back_hash && in <= b->back_clock) {
          if (f->kernel_last[d] > b->back_clock)
            s->d2h_recomputed++;
          else if (f->kernel_last[MAX_INPUT_DEVICES] <= b->back_clock)
            s->d2h_idle++;
        }
        s->d2h++;
        s->dur_d2h += dur(e);
        s->bytes_d2h += e->bytes;
      }
      b->back_known = hashed;
      b->back_hash = e->hash;
      b->back_clock = f->in_clock;
    }
    b->known = hashed;
    b->last_hash = e->hash;
    break;
  }
  }
  return 0;
oom:
  f->failed = -1;
  return -1;
}

/*===- the planner's input ---------------------------------------------------------===*/

/* The site of (region, item) in f, index + 1, or 0. */
static uint32_t site_find(const ompdp_rw_facts_t *f, uint32_t region, int item) {
  uint32_t *v = imap_slot((imap_t *)&f->site_map, region, (uint64_t)(int64_t)item, 0, 0);
  return v ? *v : 0;
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return (x > y) - (x < y);
}

/* The records of one region, copied out of the tables describe reads. */
static int copy_region(ompdp_describe_fn describe, uint32_t handle, ompdp_plan_region_t *g) {
  ompdp_region_info_t head, it;
  memset(g, 0, sizeof(*g));
  if (describe(handle, -1, &head) || head.num_items > 4096)
    return 1; /* no such region: the planner leaves its sites alone */
  g->handle = handle;
  if (ompdp_region_info_copy(&g->head, &head))
    return -1;
  if (!head.num_items)
    return 0;
  g->items = calloc(head.num_items, sizeof(*g->items));
  if (!g->items)
    return -1;
  for (uint32_t j = 0; j < head.num_items; ++j) {
    if (describe(handle, (int)j, &it)) {
      ompdp_plan_region_free(g);
      return 1;
    }
    if (ompdp_region_info_copy(&g->items[j], &it))
      return -1;
  }
  return 0;
}

/* Which sites the planner may read for r's findings: their own, every
 * site of a buffer one of those used (constructs in a row), again for
 * those, and so on. need[i] = new index + 1. */
static size_t needed_sites(const ompdp_rw_facts_t *f, const ompdp_report_t *r, uint32_t *need) {
  uint32_t *queue = malloc((f->num_sites ? f->num_sites : 1) * sizeof(*queue));
  size_t nq = 0, n = 0;
  if (!queue)
    return SIZE_MAX;
  for (size_t i = 0; i < r->num_findings; ++i) {
    const ompdp_finding_t *x = &r->findings[i];
    uint32_t si = x->rt_region && x->item >= 0 ? site_find(f, x->rt_region, x->item) : 0;
    if (si && !need[si - 1]) {
      need[si - 1] = 1;
      queue[nq++] = si - 1;
    }
  }
  for (size_t q = 0; q < nq; ++q) {
    const ompdp_rw_site_t *s = &f->sites[queue[q]];
    const ompdp_rw_buf_t *b = s->buf ? &f->bufs[s->buf - 1] : NULL;
    for (int k = 0; b && k < b->num_sites; ++k)
      if (!need[b->sites[k] - 1]) {
        need[b->sites[k] - 1] = 1;
        queue[nq++] = b->sites[k] - 1;
      }
  }
  free(queue);
  for (size_t i = 0; i < f->num_sites; ++i) /* renumber, in the facts' order */
    if (need[i])
      need[i] = (uint32_t)++n;
  return n;
}

/* The tagged call that call (a handle) began in every time, one level up:
 * its handle, or 0 where it began outside any, in several, or the run does
 * not know. */
static uint32_t outer_call_of(ompdp_context_fn context, uint32_t call) {
  ompdp_context_t x;
  if (context(call, &x) || x.other || x.calls[1])
    return 0;
  return x.calls[0];
}

int ompdp_rw_facts_to_plan(const ompdp_rw_facts_t *f, const ompdp_report_t *r,
                           ompdp_describe_fn describe, ompdp_context_fn context,
                           uint64_t tick_mult, ompdp_plan_t *out) {
  memset(out, 0, sizeof(*out));
  if (!f || f->failed)
    return f && f->failed < 0 ? -1 : 1;
  int rc = -1;
  uint32_t *need = calloc(f->num_sites ? f->num_sites : 1, sizeof(*need));
  uint32_t *bufmap = calloc(f->num_bufs ? f->num_bufs : 1, sizeof(*bufmap));
  uint32_t *handles = NULL, *unrun = NULL;
  size_t ns = need ? needed_sites(f, r, need) : SIZE_MAX;
  if (!bufmap || ns == SIZE_MAX)
    goto out;
  out->host_device = f->host;
  out->tick_mult = tick_mult;
  out->sites = calloc(ns ? ns : 1, sizeof(*out->sites));
  out->bufs = calloc(ns ? ns : 1, sizeof(*out->bufs));
  handles = calloc((4 + 8 * OMPDP_CONTEXT_CALLS + OMPDP_CONTEXT_UNRUN) * (ns ? ns : 1),
                   sizeof(*handles));
  unrun = calloc(OMPDP_CONTEXT_UNRUN * (ns ? ns : 1), sizeof(*unrun));
  if (!out->sites || !out->bufs || !handles || !unrun)
    goto out;
  size_t nh = 0, nu = 0;
  for (size_t i = 0; i < f->num_sites; ++i) {
    if (!need[i])
      continue;
    ompdp_rw_site_t *s = &out->sites[need[i] - 1];
    *s = f->sites[i];
    const uint32_t *launches = imap_slot((imap_t *)&f->site_map, s->region, 0, 1, 0);
    s->launches = launches ? *launches : 0;
    s->kuse_region = s->kuse_region2 = 0;
    s->kuse_item = s->kuse_item2 = -1;
    if (s->buf) {
      const ompdp_rw_buf_t *b = &f->bufs[s->buf - 1];
      /* The kernels that used its buffer on the device: their records
       * say whether they write it. */
      s->kuse_region = b->kuse_region[0];
      s->kuse_item = b->kuse_region[0] ? b->kuse_item[0] : -1;
      s->kuse_region2 = b->kuse_region[1];
      s->kuse_item2 = b->kuse_region[1] ? b->kuse_item[1] : -1;
      uint32_t *nb = &bufmap[s->buf - 1];
      if (!*nb) {
        /* Once per buffer: those kernels' records, and the calls they ran
         * in (what those callees do with the data on the host: a
         * statement that passes it to a function of another file asks the
         * callee's table). */
        for (int k = 0; k < 2; ++k) {
          uint32_t kr = b->kuse_region[k];
          ompdp_context_t kx;
          if (!kr)
            continue;
          handles[nh++] = kr;
          if (context && !context(kr, &kx))
            for (int q = 0; q < OMPDP_CONTEXT_CALLS; ++q)
              if (kx.calls[q])
                handles[nh++] = kx.calls[q];
        }
        ompdp_plan_buf_t *pb = &out->bufs[out->num_bufs];
        pb->device = b->dev;
        pb->num_sites = b->num_sites;
        for (int k = 0; k < b->num_sites; ++k)
          pb->sites[k] = need[b->sites[k] - 1];
        *nb = (uint32_t)++out->num_bufs;
      }
      s->buf = *nb;
    }
    if (s->region)
      handles[nh++] = s->region;
    if (s->lt_exit_region)
      handles[nh++] = s->lt_exit_region;
    /* The calls the construct ran in: their records say where the caller
     * is, for the rewrites that keep data there. */
    ompdp_context_t cx;
    s->call = s->call2 = s->call3 = s->call4 = 0;
    s->call_mixed = 0;
    s->calls = 0;
    s->runs = 0;
    s->call_runs = s->call2_runs = s->call3_runs = s->call4_runs = 0;
    if (s->region && context && !context(s->region, &cx)) {
      s->runs = cx.runs;
      s->call = cx.calls[0];
      s->call2 = cx.calls[1];
      s->call3 = cx.calls[2];
      s->call4 = cx.calls[3];
      s->call_mixed = cx.other;
      s->calls = cx.count;
      s->call_runs = cx.call_runs[0];
      s->call2_runs = cx.call_runs[1];
      s->call3_runs = cx.call_runs[2];
      s->call4_runs = cx.call_runs[3];
      for (int k = 0; k < OMPDP_CONTEXT_CALLS; ++k) {
        if (!cx.calls[k])
          continue;
        handles[nh++] = cx.calls[k];
        /* The call one level up: what repeats a call in no loop
         * (rewrite_caller.c says where). */
        uint32_t up = outer_call_of(context, cx.calls[k]);
        if (up)
          handles[nh++] = up;
        /* A call through a pointer: a construct of each function it
         * called, whose records say what that function's host code does
         * with its parameters. */
        ompdp_context_t tx;
        if (!context(cx.calls[k], &tx))
          for (int q = 0; q < OMPDP_CONTEXT_CALLS; ++q)
            if (tx.targets[q])
              handles[nh++] = tx.targets[q];
      }
      /* The other instances of its template that never ran: what their
       * own tables say is all there is of them (template_instances_agree
       * in rewrite_policy.c). */
      for (uint32_t k = 0; k < cx.num_unrun && k < OMPDP_CONTEXT_UNRUN && !cx.unrun_more; ++k)
        handles[nh++] = unrun[nu++] = cx.unrun[k];
    }
  }
  out->num_sites = ns;
  qsort(handles, nh, sizeof(*handles), cmp_u32);
  out->regions = calloc(nh ? nh : 1, sizeof(*out->regions));
  if (!out->regions)
    goto out;
  for (size_t i = 0; i < nh; ++i) {
    if (i && handles[i] == handles[i - 1])
      continue;
    int crc = copy_region(describe, handles[i], &out->regions[out->num_regions]);
    if (crc < 0) {
      ++out->num_regions; /* freed with the others */
      goto out;
    }
    out->num_regions += crc == 0;
  }
  for (size_t i = 0; i < out->num_regions; ++i) {
    ompdp_plan_region_t *g = &out->regions[i];
    uint32_t up =
        context && g->head.construct == OMPDP_CK_CALL ? outer_call_of(context, g->handle) : 0;
    if (!up || !ompdp_plan_region_find(out, up))
      continue; /* (the outer call of an outer call is not in the plan) */
    g->head.outer_call = up;
    for (uint32_t k = 0; k < g->head.num_items; ++k)
      g->items[k].outer_call = up;
  }
  /* Which instances of a template ran: those the run saw begin, and
   * those it named as never begun; the others' are not known. */
  qsort(unrun, nu, sizeof(*unrun), cmp_u32);
  for (size_t i = 0; i < out->num_regions; ++i) {
    ompdp_plan_region_t *g = &out->regions[i];
    ompdp_context_t x;
    if (g->head.instances < 2)
      continue;
    if (bsearch(&g->handle, unrun, nu, sizeof(*unrun), cmp_u32))
      g->head.run_state = 2;
    else if (context && !context(g->handle, &x))
      g->head.run_state = 1;
  }
  out->present = 1;
  rc = 0;
out:
  if (rc)
    ompdp_plan_free(out);
  free(need);
  free(bufmap);
  free(handles);
  free(unrun);
  return rc;
}
