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

#include <stdlib.h>
#include <string.h>

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
  if (b->num_sites < 0)
    return;
  int found = 0;
  for (int i = 0; i < b->num_sites; ++i) {
    if (b->sites[i] == site)
      found = 1;
    else
      f->sites[b->sites[i] - 1].foreign = 1;
  }
  if (!site)
    return; /* an operation no site owns (no region table) */
  ompdp_rw_site_t *s = &f->sites[site - 1];
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
        f->sites[b->sites[i] - 1].interleaved = 1;
      s->interleaved = 1;
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
        }
      }
    } else {
      if (b->pending)
        f->sites[b->pending - 1].copied_back = 1;
      if (s) {
        if (!same)
          s->dev_changed = 1;
        s->d2h++;
        s->dur_d2h += dur(e);
        s->bytes_d2h += e->bytes;
      }
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

uint32_t ompdp_rw_site_find(const ompdp_rw_facts_t *f, uint32_t region, int item) {
  uint32_t *v = imap_slot((imap_t *)&f->site_map, region, (uint64_t)(int64_t)item, 0, 0);
  return v ? *v : 0;
}
