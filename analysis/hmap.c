/*===- hmap.c - open-addressing hash map for the detections --------*- C -*-===*\
|*
|* Linear probing over a power-of-two table kept at most half full, with
|* backward-shift deletion (no tombstones, so a map whose keys come and go,
|* like the open round trips, stays as small as what is live). Keys are three
|* words; this is all the detections need and it allocates only when it
|* grows.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "detect.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

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

size_t ompdp_hmap_memory(const ompdp_hmap_t *m) { return m->cap * sizeof(*m->slots); }

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

void ompdp_hmap_remove(ompdp_hmap_t *m, uint64_t a, uint64_t b, uint64_t c) {
  if (!m->slots)
    return;
  size_t mask = m->cap - 1;
  size_t i = (size_t)(probe(m->slots, m->cap, a, b, c) - m->slots);
  if (!m->slots[i].used)
    return;
  /* Shift back every later entry of the run that may move into the hole. */
  for (size_t j = (i + 1) & mask; m->slots[j].used; j = (j + 1) & mask) {
    size_t home = mix(m->slots[j].k[0], m->slots[j].k[1], m->slots[j].k[2]) & mask;
    /* Entry j may fill hole i if its home is not in (i, j]. */
    if (((j - home) & mask) >= ((j - i) & mask)) {
      m->slots[i] = m->slots[j];
      i = j;
    }
  }
  m->slots[i].used = 0;
  --m->n;
}

/*===- content tables ---------------------------------------------------------===*/

/* Values are stored plus one, so that 0 marks an empty slot: fresh pages
 * from the kernel are an empty table without a pass to initialise them. */

/* Keys are read with memcpy: in 12-byte entries they are only 4-aligned. */
static unsigned char *ekey(const ompdp_ctab_t *t, const ompdp_ctab_sub_t *s, uint32_t i) {
  return s->e + (size_t)i * t->esize;
}
static uint32_t *eval(const ompdp_ctab_t *t, const ompdp_ctab_sub_t *s, uint32_t i) {
  return (uint32_t *)(void *)(s->e + (size_t)i * t->esize + 8);
}

#define HUGE_BYTES (2u << 20)

/* Faults p[0..bytes) in writable (see table_alloc); a hint where the
 * kernel has no MADV_POPULATE_WRITE (before Linux 5.14). */
static void populate(void *p, size_t bytes) {
#ifdef MADV_POPULATE_WRITE
  madvise(p, bytes, MADV_POPULATE_WRITE);
#else
  (void)p;
  (void)bytes;
#endif
}

/* The same for the whole pages inside a block of the heap, from 16 pages
 * on: its pages may be fresh from the kernel (malloc mapped the block or
 * grew the heap for it) or in use already, and the zeroes written next
 * then take no fault per page (benchmarks/faultbench: 4.8 against 11.5 us
 * a page on a VM whose faults leave the guest). */
static void populate_pages(void *p, size_t bytes) {
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  uintptr_t b = ((uintptr_t)p + page - 1) & ~(page - 1), e = ((uintptr_t)p + bytes) & ~(page - 1);
  if (e > b && e - b >= 16 * page)
    populate((void *)b, e - b);
}

/* Zeroed memory, written before it is read; large tables are mapped with
 * transparent huge pages. A fresh page that is read first is mapped to the
 * kernel's zero page, and the write that follows (a table is filled as it
 * is probed) replaces it, which in a process with threads on other CPUs
 * sends every one of them an interrupt to flush its TLB: 7% of the time of
 * small_events went there. So pages are faulted in writable at once:
 * MADV_POPULATE_WRITE for mapped tables, zeroes written into heap blocks
 * (their whole pages populated first). */
static void *table_alloc(size_t bytes) {
  if (bytes < HUGE_BYTES) {
    /* Not memset: the compiler would make malloc and memset a calloc. */
    void *p = malloc(bytes);
    if (p) {
      populate_pages(p, bytes);
      explicit_bzero(p, bytes);
    }
    return p;
  }
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
  populate(p, bytes);
  return p;
}

static void table_free(void *p, size_t bytes) {
  if (bytes < HUGE_BYTES)
    free(p);
  else if (p)
    munmap(p, bytes);
}

void ompdp_ctab_init(ompdp_ctab_t *t, int with_b) {
  memset(t, 0, sizeof(*t));
  t->esize = with_b ? 16 : 12;
}

void ompdp_ctab_free(ompdp_ctab_t *t) {
  uint32_t esize = t->esize;
  for (int i = 0; i < OMPDP_CTAB_SUBS; ++i)
    table_free(t->sub[i].e, (size_t)t->sub[i].cap * esize);
  memset(t, 0, sizeof(*t));
  t->esize = esize;
}

static uint32_t home_of(const ompdp_ctab_sub_t *s, uint64_t k) { return (uint32_t)k & (s->cap - 1); }

/* Doubling into a new table: for small tables, and when a table first
 * reaches huge-page size. */
static int grow_copy(ompdp_ctab_t *t, ompdp_ctab_sub_t *s, uint32_t cap) {
  ompdp_ctab_sub_t ns = {.cap = cap, .n = s->n};
  ns.e = table_alloc((size_t)cap * t->esize);
  if (!ns.e)
    return -1;
  for (uint32_t i = 0; i < s->cap; ++i) {
    if (!eval(t, s, i)[0])
      continue;
    uint64_t k;
    memcpy(&k, ekey(t, s, i), 8);
    uint32_t p = home_of(&ns, k);
    while (eval(t, &ns, p)[0])
      p = (p + 1) & (cap - 1);
    memcpy(ns.e + (size_t)p * t->esize, s->e + (size_t)i * t->esize, t->esize);
  }
  table_free(s->e, (size_t)s->cap * t->esize);
  *s = ns;
  return 0;
}

/* Doubling in place: the mapping is extended (the new half arrives zeroed,
 * that is empty) and the entries of the old half are reinserted where the
 * wider mask puts them, which is either where they are or at most where
 * they were (their old slot is free by then) or in the new half. Walking
 * the old half from just after an empty slot, an entry is never put into a
 * slot not yet walked, so no later removal can cut the probe run of an
 * entry already placed; the only exception, a run in the new half that
 * wraps past the end, is set aside and inserted at the end. Half the fresh
 * memory and half the copying of grow_copy. */
static int grow_in_place(ompdp_ctab_t *t, ompdp_ctab_sub_t *s) {
  uint32_t old = s->cap, cap = old * 2;
  size_t es = t->esize;
  void *e = mremap(s->e, (size_t)old * es, (size_t)cap * es, MREMAP_MAYMOVE);
  if (e == MAP_FAILED)
    return -1;
  madvise(e, (size_t)cap * es, MADV_HUGEPAGE);
  populate((unsigned char *)e + (size_t)old * es, (size_t)old * es);
  s->e = e;
  s->cap = cap;
  uint32_t start = 0;
  while (eval(t, s, start)[0]) /* an empty slot: load is at most 3/4 */
    ++start;
  unsigned char *spill = NULL, tmp[16];
  size_t nspill = 0, capspill = 0;
  for (uint32_t n = 1; n <= old; ++n) {
    uint32_t i = (start + n) & (old - 1);
    uint32_t *v = eval(t, s, i);
    if (!v[0])
      continue;
    memcpy(tmp, s->e + (size_t)i * es, es);
    v[0] = 0;
    uint64_t k;
    memcpy(&k, tmp, 8);
    uint32_t p = home_of(s, k);
    int wrapped = 0;
    while (eval(t, s, p)[0]) {
      p = (p + 1) & (cap - 1);
      wrapped |= p == 0;
    }
    if (wrapped && p < old) {
      if (nspill == capspill) {
        capspill = capspill ? capspill * 2 : 8;
        unsigned char *ns = realloc(spill, capspill * es);
        if (!ns) {
          free(spill);
          return -1; /* cannot happen for want of a few bytes in practice */
        }
        spill = ns;
      }
      memcpy(spill + nspill++ * es, tmp, es);
      continue;
    }
    memcpy(s->e + (size_t)p * es, tmp, es);
  }
  for (size_t i = 0; i < nspill; ++i) {
    uint64_t k;
    memcpy(&k, spill + i * es, 8);
    uint32_t p = home_of(s, k);
    while (eval(t, s, p)[0])
      p = (p + 1) & (cap - 1);
    memcpy(s->e + (size_t)p * es, spill + i * es, es);
  }
  free(spill);
  return 0;
}

static int sub_grow(ompdp_ctab_t *t, ompdp_ctab_sub_t *s) {
  uint32_t old = s->cap, cap = old ? old * 2 : 16;
  int rc = (size_t)old * t->esize >= HUGE_BYTES ? grow_in_place(t, s) : grow_copy(t, s, cap);
  if (!rc)
    t->bytes += (size_t)(cap - old) * t->esize;
  return rc;
}

static ompdp_ctab_sub_t *sub_of(ompdp_ctab_t *t, uint64_t k) { return &t->sub[k >> OMPDP_CTAB_SHIFT]; }

int ompdp_ctab_find(ompdp_ctab_t *t, uint64_t k, ompdp_ctab_same_fn same, const void *ctx,
                    uint32_t **a, uint32_t **b) {
  ompdp_ctab_sub_t *s = sub_of(t, k);
  if (!s->cap)
    return -1;
  for (uint32_t p = home_of(s, k);; p = (p + 1) & (s->cap - 1)) {
    uint32_t *v = eval(t, s, p);
    if (!v[0])
      return -1;
    uint64_t pk;
    memcpy(&pk, ekey(t, s, p), 8);
    if (pk == k && same(ctx, v[0] - 1)) {
      *a = v;
      if (b)
        *b = t->esize == 16 ? v + 1 : NULL;
      return 0;
    }
  }
}

/* Stores key k with values a (as a + 1) and b in the empty slot p of s. */
static inline uint32_t *fill_slot(ompdp_ctab_t *t, ompdp_ctab_sub_t *s, uint32_t p, uint64_t k,
                                  uint32_t a, uint32_t b) {
  memcpy(ekey(t, s, p), &k, 8);
  uint32_t *v = eval(t, s, p);
  v[0] = a + 1;
  if (t->esize == 16)
    v[1] = b;
  s->n++;
  t->n++;
  return v;
}

int ompdp_ctab_upsert(ompdp_ctab_t *t, uint64_t k, ompdp_ctab_same_fn same, const void *ctx,
                      uint32_t a, uint32_t b, uint32_t **va, uint32_t **vb) {
  ompdp_ctab_sub_t *s = sub_of(t, k);
  if ((uint64_t)(s->n + 1) * 4 > (uint64_t)s->cap * 3 && sub_grow(t, s))
    return -1;
  uint32_t p = home_of(s, k);
  for (;; p = (p + 1) & (s->cap - 1)) {
    uint32_t *v = eval(t, s, p);
    if (!v[0])
      break;
    uint64_t pk;
    memcpy(&pk, ekey(t, s, p), 8);
    if (pk == k && same(ctx, v[0] - 1)) {
      *va = v;
      if (vb)
        *vb = t->esize == 16 ? v + 1 : NULL;
      return 0;
    }
  }
  uint32_t *v = fill_slot(t, s, p, k, a, b);
  *va = v;
  if (vb)
    *vb = t->esize == 16 ? v + 1 : NULL;
  return 1;
}

int ompdp_ctab_insert(ompdp_ctab_t *t, uint64_t k, uint32_t a, uint32_t b) {
  ompdp_ctab_sub_t *s = sub_of(t, k);
  if ((uint64_t)(s->n + 1) * 4 > (uint64_t)s->cap * 3 && sub_grow(t, s))
    return -1;
  uint32_t p = home_of(s, k);
  while (eval(t, s, p)[0])
    p = (p + 1) & (s->cap - 1);
  fill_slot(t, s, p, k, a, b);
  return 0;
}

void ompdp_ctab_remove(ompdp_ctab_t *t, uint64_t k, uint32_t *a) {
  ompdp_ctab_sub_t *s = sub_of(t, k);
  uint32_t mask = s->cap - 1;
  uint32_t i = (uint32_t)(((unsigned char *)a - 8 - s->e) / t->esize);
  for (uint32_t j = (i + 1) & mask; eval(t, s, j)[0]; j = (j + 1) & mask) {
    uint64_t kj;
    memcpy(&kj, ekey(t, s, j), 8);
    uint32_t home = home_of(s, kj);
    if (((j - home) & mask) >= ((j - i) & mask)) {
      memcpy(s->e + (size_t)i * t->esize, s->e + (size_t)j * t->esize, t->esize);
      i = j;
    }
  }
  eval(t, s, i)[0] = 0;
  s->n--;
  t->n--;
}
