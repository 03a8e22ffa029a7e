/*===- detect_unused.c - Algorithms 4 and 5: unused mappings --------*- C -*-===*\
|*
|* Both walk, device by device, the kernels and the mappings of that device
|* in time order. Devices are whatever numbers the OpenMP runtime used:
|* events are sorted by (device, time), never put in fixed-size arrays.
|*
|* Algorithm 4: an allocation is unused when no kernel on its device runs
|* at any time between the allocation and its delete.
|* Algorithm 5: a transfer into a device is unused when another transfer
|* overwrites the same device bytes before any kernel ran there, or when no
|* kernel runs on that device after it. Unlike the published version, the
|* candidate is keyed by its device address (what is overwritten) and must be
|* covered by the later transfer.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

typedef struct span {
  int32_t dev;
  uint64_t start, end;
  uint32_t idx; /* event index (kernels, transfers) or pair index (allocs) */
} span_t;

static int cmp_span(const void *a, const void *b) {
  const span_t *x = a, *y = b;
  if (x->dev != y->dev)
    return x->dev < y->dev ? -1 : 1;
  if (x->start != y->start)
    return x->start < y->start ? -1 : 1;
  return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Kernels sorted by (device, start). */
static span_t *kernel_spans(const ompdp_event_t *ev, size_t n, size_t *nk) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    k += ev[i].type == OMPDP_EV_KERNEL;
  span_t *s = malloc((k ? k : 1) * sizeof(*s));
  if (!s)
    return NULL;
  k = 0;
  for (size_t i = 0; i < n; ++i)
    if (ev[i].type == OMPDP_EV_KERNEL)
      s[k++] = (span_t){ev[i].dst_dev, ev[i].t_begin, ev[i].t_end, (uint32_t)i};
  qsort(s, k, sizeof(*s), cmp_span);
  *nk = k;
  return s;
}

int ompdp_find_unused_allocs(const ompdp_event_t *ev, size_t n, const ompdp_alloc_pair_t *pairs,
                             size_t num_pairs, ompdp_matches_t *out) {
  size_t nk;
  span_t *k = kernel_spans(ev, n, &nk);
  span_t *a = malloc((num_pairs ? num_pairs : 1) * sizeof(*a));
  if (!k || !a) {
    free(k);
    free(a);
    return -1;
  }
  for (size_t i = 0; i < num_pairs; ++i) {
    const ompdp_event_t *al = &ev[pairs[i].alloc];
    uint64_t end = pairs[i].del == OMPDP_NONE ? UINT64_MAX : ev[pairs[i].del].t_end;
    a[i] = (span_t){al->dst_dev, al->t_begin, end, (uint32_t)i};
  }
  qsort(a, num_pairs, sizeof(*a), cmp_span);
  int rc = 0;
  size_t ki = 0;
  for (size_t i = 0; i < num_pairs && !rc; ++i) {
    while (ki < nk && k[ki].dev < a[i].dev)
      ++ki;
    /* Kernels that ended before this allocation began cannot use it, nor any
     * later allocation of this device (they are sorted by start). */
    while (ki < nk && k[ki].dev == a[i].dev && k[ki].end < a[i].start)
      ++ki;
    if (ki == nk || k[ki].dev != a[i].dev || k[ki].start > a[i].end)
      rc = ompdp_matches_push(out, pairs[a[i].idx].alloc, OMPDP_NONE, pairs[a[i].idx].del);
  }
  free(k);
  free(a);
  return rc;
}

int ompdp_find_unused_transfers(const ompdp_event_t *ev, size_t n, int host_device,
                                ompdp_matches_t *out) {
  size_t nk, nt = 0;
  span_t *k = kernel_spans(ev, n, &nk);
  span_t *t = malloc((n ? n : 1) * sizeof(*t));
  ompdp_hmap_t cand; /* (device, device address) -> generation << 32 | index */
  if (!k || !t || ompdp_hmap_init(&cand, 256)) {
    free(k);
    free(t);
    return -1;
  }
  for (size_t i = 0; i < n; ++i) {
    const ompdp_event_t *e = &ev[i];
    if (e->type == OMPDP_EV_TRANSFER && (e->flags & OMPDP_EVF_COMPLETE) && e->bytes > 0 &&
        e->dst_dev != host_device)
      t[nt++] = (span_t){e->dst_dev, e->t_begin, e->t_end, (uint32_t)i};
  }
  qsort(t, nt, sizeof(*t), cmp_span);
  int rc = 0;
  size_t ki = 0;
  uint64_t gen = 1; /* bumping it empties the candidate map at no cost */
  for (size_t i = 0; i < nt && !rc; ++i) {
    const ompdp_event_t *tx = &ev[t[i].idx];
    if (i == 0 || t[i - 1].dev != t[i].dev) {
      ++gen;
      while (ki < nk && k[ki].dev < t[i].dev)
        ++ki;
    }
    while (ki < nk && k[ki].dev == t[i].dev && k[ki].end < t[i].start) {
      ++ki;
      ++gen; /* a kernel ran since: it may have read every candidate */
    }
    if (ki == nk || k[ki].dev != t[i].dev) {
      rc = ompdp_matches_push(out, t[i].idx, OMPDP_NONE, 0); /* after the last kernel */
    } else if (k[ki].start > t[i].start) {
      uint64_t *slot = ompdp_hmap_upsert(&cand, (uint64_t)(int64_t)t[i].dev, tx->dst_addr, 0, NULL);
      if (!slot) {
        rc = -1;
        break;
      }
      if (*slot >> 32 == gen) {
        uint32_t c = (uint32_t)*slot;
        if (tx->bytes >= ev[c].bytes)
          rc = ompdp_matches_push(out, c, t[i].idx, 0);
      }
      *slot = gen << 32 | t[i].idx;
    } else {
      ++gen; /* overlaps a running kernel, which may read anything */
    }
  }
  ompdp_hmap_free(&cand);
  free(k);
  free(t);
  return rc;
}
