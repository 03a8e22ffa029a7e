/*===- hmap.c - open-addressing hash map for the detections --------*- C -*-===*\
|*
|* Linear probing over a power-of-two table kept at most half full. The
|* detections group up to millions of events by small tuples of words; this
|* is all they need and it allocates only when it grows.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

static uint64_t mix(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9E3779B97F4A7C15ULL;
  h ^= (b + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
  h ^= (c + 0x165667B19E3779F9ULL) * 0x94D049BB133111EBULL;
  h ^= h >> 31;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 29;
  return h;
}

int ompdp_hmap_init(ompdp_hmap_t *m, size_t expected) {
  size_t cap = 16;
  while (cap < expected * 2)
    cap <<= 1;
  m->slots = calloc(cap, sizeof(*m->slots));
  m->cap = m->slots ? cap : 0;
  m->n = 0;
  return m->slots ? 0 : -1;
}

void ompdp_hmap_free(ompdp_hmap_t *m) {
  free(m->slots);
  m->slots = NULL;
  m->cap = m->n = 0;
}

static ompdp_hmap_slot_t *probe(ompdp_hmap_slot_t *s, size_t cap, uint64_t a, uint64_t b,
                                uint64_t c) {
  size_t i = mix(a, b, c) & (cap - 1);
  while (s[i].used && !(s[i].k[0] == a && s[i].k[1] == b && s[i].k[2] == c))
    i = (i + 1) & (cap - 1);
  return &s[i];
}

static int grow(ompdp_hmap_t *m) {
  size_t cap = m->cap * 2;
  ompdp_hmap_slot_t *s = calloc(cap, sizeof(*s));
  if (!s)
    return -1;
  for (size_t i = 0; i < m->cap; ++i)
    if (m->slots[i].used)
      *probe(s, cap, m->slots[i].k[0], m->slots[i].k[1], m->slots[i].k[2]) = m->slots[i];
  free(m->slots);
  m->slots = s;
  m->cap = cap;
  return 0;
}

uint64_t *ompdp_hmap_upsert(ompdp_hmap_t *m, uint64_t a, uint64_t b, uint64_t c, int *inserted) {
  if (!m->slots)
    return NULL;
  ompdp_hmap_slot_t *s = probe(m->slots, m->cap, a, b, c);
  if (s->used) {
    if (inserted)
      *inserted = 0;
    return &s->value;
  }
  if ((m->n + 1) * 2 > m->cap) {
    if (grow(m))
      return NULL;
    s = probe(m->slots, m->cap, a, b, c);
  }
  s->used = 1;
  s->k[0] = a;
  s->k[1] = b;
  s->k[2] = c;
  s->value = 0;
  ++m->n;
  if (inserted)
    *inserted = 1;
  return &s->value;
}

uint64_t *ompdp_hmap_find(const ompdp_hmap_t *m, uint64_t a, uint64_t b, uint64_t c) {
  if (!m->slots)
    return NULL;
  ompdp_hmap_slot_t *s = probe(m->slots, m->cap, a, b, c);
  return s->used ? &s->value : NULL;
}
