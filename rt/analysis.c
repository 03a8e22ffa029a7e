/*===- analysis.c - from events to findings -----------------------*- C -*-===*\
|*
|* Runs the five detections over the chronological event log and builds the
|* report model: Table 1 counts for the summary, one finding per (pattern,
|* call site, map item) with its avoidable bytes and time, and the time the
|* fixes would save. Saved time is the union of the avoidable intervals, per
|* finding and over the whole run, so overlapping operations (concurrent
|* devices, a transfer that is both a duplicate and a round-trip return) are
|* never counted twice.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <omp-tools.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct interval {
  uint64_t start, end;
  uint32_t finding;
} interval_t;

typedef struct intervals {
  interval_t *v;
  size_t n, cap;
} intervals_t;

static int add_interval(intervals_t *iv, uint64_t s, uint64_t e, uint32_t f) {
  if (e < s)
    e = s;
  if (iv->n == iv->cap) {
    size_t cap = iv->cap ? iv->cap * 2 : 256;
    interval_t *v = realloc(iv->v, cap * sizeof(*v));
    if (!v)
      return -1;
    iv->v = v;
    iv->cap = cap;
  }
  iv->v[iv->n++] = (interval_t){s, e, f};
  return 0;
}

static int cmp_by_finding_start(const void *a, const void *b) {
  const interval_t *x = a, *y = b;
  if (x->finding != y->finding)
    return x->finding < y->finding ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_by_start(const void *a, const void *b) {
  const interval_t *x = a, *y = b;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* Length of the union of v[0..n), which is sorted by start. */
static uint64_t union_length(const interval_t *v, size_t n) {
  uint64_t total = 0, cur_s = 0, cur_e = 0;
  int open = 0;
  for (size_t i = 0; i < n; ++i) {
    if (open && v[i].start <= cur_e) {
      if (v[i].end > cur_e)
        cur_e = v[i].end;
      continue;
    }
    if (open)
      total += cur_e - cur_s;
    cur_s = v[i].start;
    cur_e = v[i].end;
    open = 1;
  }
  if (open)
    total += cur_e - cur_s;
  return total;
}

static int add_device(ompdp_finding_t *f, int dev) {
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

static char *format_device_list(const ompdp_finding_t *f) {
  char buf[128];
  size_t off = 0;
  buf[0] = 0;
  for (size_t i = 0; i < f->num_devices && off < sizeof(buf) - 16; ++i)
    off += (size_t)snprintf(buf + off, sizeof(buf) - off, "%s%d", i ? ", " : "", f->devices[i]);
  return ompdp_strdup(buf);
}

/* The fix, in words. The compiler plugin refines this with the variable and
 * the exact clause; without it we can still say what to do. */
static char *suggestion(const ompdp_finding_t *f) {
  char buf[512];
  char *devs = format_device_list(f);
  const char *d = devs ? devs : "?";
  const char *plural = f->num_devices > 1 ? "s" : "";
  const char *v = f->variable ? f->variable : "...";
  switch (f->kind) {
  case OMPDP_FK_DUPLICATE_TRANSFER:
    if (f->other_buffer == 0)
      snprintf(buf, sizeof(buf),
               "the same host buffer is sent again with unchanged contents to device%s %s: "
               "keep it resident with `#pragma omp target data map(to: %s)` (or `target enter "
               "data`) around the constructs that use it, and drop the per-construct copy",
               plural, d, v);
    else if (f->same_buffer == 0)
      snprintf(buf, sizeof(buf),
               "other host buffers with identical bytes were already sent to device%s %s (e.g. "
               "zero-initialised arrays): map %s with `map(alloc: %s)` and initialise it "
               "on the device instead of copying",
               plural, d, f->variable ? f->variable : "these", v);
    else
      snprintf(buf, sizeof(buf),
               "%llu repeat(s) re-send the same host buffer (keep it resident with `target data`) "
               "and %llu copy other buffers holding identical bytes (initialise those on the "
               "device with `map(alloc: ...)`)",
               (unsigned long long)f->same_buffer, (unsigned long long)f->other_buffer);
    break;
  case OMPDP_FK_ROUND_TRIP:
    snprintf(buf, sizeof(buf),
             "data copied back from device%s %s returns unchanged: keep it on the device across "
             "the enclosing loop with `#pragma omp target data map(tofrom: %s)`, and use "
             "`#pragma omp target update from(%s)` only where the host reads it",
             plural, d, v, v);
    break;
  case OMPDP_FK_REPEATED_ALLOC:
    snprintf(buf, sizeof(buf),
             "the same host buffer is allocated and freed on device%s %s each time it is mapped: "
             "allocate it once with `#pragma omp target data` (or `target enter data`) outside "
             "the loop",
             plural, d);
    break;
  case OMPDP_FK_UNUSED_ALLOC:
    snprintf(buf, sizeof(buf),
             "no kernel runs on device%s %s while this memory is allocated: remove the mapping, "
             "or move it to where a kernel uses the data",
             plural, d);
    break;
  case OMPDP_FK_UNUSED_TRANSFER:
    snprintf(buf, sizeof(buf),
             "no kernel on device%s %s can read these bytes before they are overwritten or the "
             "device's last kernel has run: remove the transfer (use `map(alloc: ...)` if the "
             "memory is still needed)",
             plural, d);
    break;
  default:
    buf[0] = 0;
  }
  free(devs);
  return ompdp_strdup(buf);
}

typedef struct builder {
  const ompdp_analysis_input_t *in;
  const ompdp_event_t *ev;
  ompdp_report_t *r;
  ompdp_hmap_t by_site; /* (kind << 48 | item, codeptr, region) -> finding + 1 */
  const ompdp_event_t **sites;     /* per finding: an avoidable event */
  const ompdp_event_t **ref_sites; /* per finding: the related operation */
  intervals_t iv;
} builder_t;

static ompdp_finding_t *finding_for(builder_t *b, ompdp_finding_kind_t k, const ompdp_event_t *e,
                                    uint32_t *index) {
  uint64_t key0 = (uint64_t)k << 48 | (uint16_t)e->item;
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&b->by_site, key0, (uint64_t)(uintptr_t)e->codeptr, e->region,
                                     &inserted);
  if (!slot)
    return NULL;
  if (!inserted) {
    *index = (uint32_t)(*slot - 1);
    return &b->r->findings[*index];
  }
  size_t idx = b->r->num_findings;
  ompdp_finding_t *f = ompdp_report_add_finding(b->r, k);
  if (!f)
    return NULL;
  /* Grow the side arrays along with the findings. */
  const ompdp_event_t **c = realloc(b->sites, (idx + 1) * sizeof(*c));
  if (!c)
    return NULL;
  b->sites = c;
  const ompdp_event_t **rc = realloc(b->ref_sites, (idx + 1) * sizeof(*rc));
  if (!rc)
    return NULL;
  b->ref_sites = rc;
  b->sites[idx] = e;
  b->ref_sites[idx] = NULL;
  /* The slot pointer may have moved if the map grew: look it up again. */
  slot = ompdp_hmap_find(&b->by_site, key0, (uint64_t)(uintptr_t)e->codeptr, e->region);
  *slot = idx + 1;
  *index = (uint32_t)idx;
  return f;
}

static void transfer_devices(ompdp_finding_t *f, const ompdp_event_t *e, int host) {
  if (e->src_dev != host)
    add_device(f, e->src_dev);
  if (e->dst_dev != host)
    add_device(f, e->dst_dev);
  if (!f->num_devices)
    add_device(f, e->dst_dev);
}

static int record(builder_t *b, ompdp_finding_kind_t k, const ompdp_matches_t *m) {
  const ompdp_event_t *ev = b->ev;
  int host = b->in->host_device;
  for (size_t i = 0; i < m->n; ++i) {
    const ompdp_match_t *x = &m->v[i];
    const ompdp_event_t *e = &ev[x->avoid];
    uint32_t fi;
    ompdp_finding_t *f = finding_for(b, k, e, &fi);
    if (!f)
      return -1;
    f->count += 1;
    f->bytes += e->bytes;
    f->time_ns += e->t_end - e->t_begin;
    if (add_interval(&b->iv, e->t_begin, e->t_end, fi))
      return -1;
    switch (k) {
    case OMPDP_FK_DUPLICATE_TRANSFER:
      if (x->aux)
        f->same_buffer++;
      else
        f->other_buffer++;
      transfer_devices(f, e, host);
      break;
    case OMPDP_FK_ROUND_TRIP:
    case OMPDP_FK_UNUSED_TRANSFER:
      transfer_devices(f, e, host);
      break;
    case OMPDP_FK_REPEATED_ALLOC:
    case OMPDP_FK_UNUSED_ALLOC:
      add_device(f, e->dst_dev);
      if (x->aux != OMPDP_NONE) {
        const ompdp_event_t *d = &ev[x->aux];
        f->time_ns += d->t_end - d->t_begin;
        if (add_interval(&b->iv, d->t_begin, d->t_end, fi))
          return -1;
      }
      break;
    default:
      break;
    }
    if (x->ref != OMPDP_NONE && !b->ref_sites[fi])
      b->ref_sites[fi] = &ev[x->ref];
  }
  b->r->counts[k] += m->n;
  return 0;
}

static void compute_times(builder_t *b) {
  intervals_t *iv = &b->iv;
  qsort(iv->v, iv->n, sizeof(*iv->v), cmp_by_finding_start);
  for (size_t i = 0; i < iv->n;) {
    size_t j = i;
    while (j < iv->n && iv->v[j].finding == iv->v[i].finding)
      ++j;
    b->r->findings[iv->v[i].finding].time_saved_ns = union_length(iv->v + i, j - i);
    i = j;
  }
  qsort(iv->v, iv->n, sizeof(*iv->v), cmp_by_start);
  b->r->time_saved_ns = union_length(iv->v, iv->n);
}

/* Without the submit callback, a `target` construct stands for its kernel. */
static ompdp_event_t *kernels_from_targets(const ompdp_event_t *ev, size_t n) {
  ompdp_event_t *c = malloc((n ? n : 1) * sizeof(*c));
  if (!c)
    return NULL;
  memcpy(c, ev, n * sizeof(*c));
  for (size_t i = 0; i < n; ++i)
    if (c[i].type == OMPDP_EV_TARGET &&
        (c[i].flags == ompt_target || c[i].flags == ompt_target_nowait)) {
      c[i].type = OMPDP_EV_KERNEL;
      c[i].flags = OMPDP_EVF_COMPLETE;
    }
  return c;
}

int ompdp_analyze(const ompdp_analysis_input_t *in, ompdp_report_t *r,
                  ompdp_attribute_fn attribute) {
  builder_t b = {.in = in, .ev = in->events, .r = r};
  ompdp_event_t *owned = NULL;
  ompdp_alloc_pair_t *pairs = NULL;
  size_t num_pairs = 0, n = in->num_events;
  ompdp_matches_t m[OMPDP_FK_COUNT];
  int rc = -1;
  memset(m, 0, sizeof(m));
  if (in->kernels_from_targets) {
    owned = kernels_from_targets(in->events, n);
    if (!owned)
      return -1;
    b.ev = owned;
  }
  const ompdp_event_t *ev = b.ev;
  if (ompdp_hmap_init(&b.by_site, 64))
    goto out;

  for (size_t i = 0; i < n; ++i) {
    const ompdp_event_t *e = &ev[i];
    if (e->type == OMPDP_EV_TRANSFER) {
      r->num_transfers++;
      r->bytes_transferred += e->bytes;
      r->transfer_time_ns += e->t_end - e->t_begin;
    } else if (e->type == OMPDP_EV_ALLOC) {
      r->num_allocs++;
    } else if (e->type == OMPDP_EV_KERNEL) {
      r->num_kernels++;
    }
  }
  r->wall_time_ns = in->wall_time_ns;

  if (ompdp_alloc_pairs(ev, n, &pairs, &num_pairs) ||
      ompdp_find_duplicate_transfers(ev, n, in->host_device, &m[OMPDP_FK_DUPLICATE_TRANSFER]) ||
      ompdp_find_round_trips(ev, n, &m[OMPDP_FK_ROUND_TRIP]) ||
      ompdp_find_repeated_allocs(ev, pairs, num_pairs, &m[OMPDP_FK_REPEATED_ALLOC]) ||
      ompdp_find_unused_allocs(ev, n, pairs, num_pairs, &m[OMPDP_FK_UNUSED_ALLOC]) ||
      ompdp_find_unused_transfers(ev, n, in->host_device, &m[OMPDP_FK_UNUSED_TRANSFER]))
    goto out;

  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    if (record(&b, (ompdp_finding_kind_t)k, &m[k]))
      goto out;
  compute_times(&b);

  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    if (attribute) {
      attribute(b.sites[i], &f->loc, &f->variable, &f->clause);
      if (b.ref_sites[i])
        attribute(b.ref_sites[i], &f->related, NULL, NULL);
    }
    f->suggestion = suggestion(f);
  }
  ompdp_report_update_speedup(r);
  ompdp_report_sort(r);
  rc = 0;
out:
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    ompdp_matches_free(&m[k]);
  free(pairs);
  free(owned);
  free(b.iv.v);
  free(b.sites);
  free(b.ref_sites);
  ompdp_hmap_free(&b.by_site);
  return rc;
}
