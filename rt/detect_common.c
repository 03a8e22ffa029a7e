/*===- detect_common.c - pieces shared by the detections -----------*- C -*-===*\
|*
|* The match vector, the definition of a usable transfer, and the pairing of
|* allocations with their deletes (GETALLOCDELETEPAIRS in the paper).
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

int ompdp_matches_push(ompdp_matches_t *m, uint32_t avoid, uint32_t ref, uint32_t aux) {
  if (m->n == m->cap) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    ompdp_match_t *v = realloc(m->v, cap * sizeof(*v));
    if (!v)
      return -1;
    m->v = v;
    m->cap = cap;
  }
  m->v[m->n++] = (ompdp_match_t){avoid, ref, aux};
  return 0;
}

void ompdp_matches_free(ompdp_matches_t *m) {
  free(m->v);
  m->v = NULL;
  m->n = m->cap = 0;
}

int ompdp_is_hashed_transfer(const ompdp_event_t *e) {
  return e->type == OMPDP_EV_TRANSFER && (e->flags & OMPDP_EVF_COMPLETE) &&
         (e->flags & OMPDP_EVF_HASHED) && e->bytes > 0;
}

uint64_t ompdp_host_addr(const ompdp_event_t *e, int host_device) {
  if (e->dst_dev == host_device && e->src_dev != host_device)
    return e->dst_addr;
  return e->src_addr;
}

int ompdp_alloc_pairs(const ompdp_event_t *ev, size_t n, ompdp_alloc_pair_t **pairs,
                      size_t *num_pairs) {
  /* open[(device address, device)] = index of the pair still live there + 1 */
  ompdp_hmap_t open;
  size_t np = 0, cap = 0;
  ompdp_alloc_pair_t *p = NULL;
  if (ompdp_hmap_init(&open, 64))
    return -1;
  for (size_t i = 0; i < n; ++i) {
    const ompdp_event_t *e = &ev[i];
    if (!(e->flags & OMPDP_EVF_COMPLETE))
      continue;
    if (e->type == OMPDP_EV_ALLOC) {
      if (np == cap) {
        cap = cap ? cap * 2 : 64;
        ompdp_alloc_pair_t *q = realloc(p, cap * sizeof(*q));
        if (!q)
          goto oom;
        p = q;
      }
      p[np] = (ompdp_alloc_pair_t){(uint32_t)i, OMPDP_NONE};
      uint64_t *slot = ompdp_hmap_upsert(&open, e->dst_addr, (uint64_t)(int64_t)e->dst_dev, 0, NULL);
      if (!slot)
        goto oom;
      *slot = np + 1; /* a newer allocation at the same address wins */
      ++np;
    } else if (e->type == OMPDP_EV_DELETE) {
      uint64_t *slot = ompdp_hmap_find(&open, e->src_addr, (uint64_t)(int64_t)e->src_dev, 0);
      if (slot && *slot) {
        p[*slot - 1].del = (uint32_t)i;
        *slot = 0;
      }
    }
  }
  ompdp_hmap_free(&open);
  *pairs = p;
  *num_pairs = np;
  return 0;
oom:
  ompdp_hmap_free(&open);
  free(p);
  return -1;
}
