/*===- detect_allocs.c - Algorithms 3 and 4: allocations ------------*- C -*-===*\
|*
|* Pairs each allocation with the first later delete of its device address
|* on its device (a newer allocation at the same address wins; one never
|* freed ends with the run), then:
|*
|* Algorithm 3, repeated allocations: pairs grouped by (host address,
|* device, bytes), the same variable mapped again and again. Bytes are part
|* of the key so that a host address reused for a different variable does
|* not count. In a group of n, the n-1 later allocations (and their deletes)
|* are avoidable. Decided when the allocation happens.
|*
|* Algorithm 4, unused allocations: no kernel on the device runs at any time
|* between the allocation and the end of its delete. Online, a kernel that
|* began before the allocation counts if it was still running; every later
|* kernel on the device before the delete ends counts. So an allocation
|* waits in its device's list until a kernel arrives there (used) or the
|* stream passes the end of its delete, or ends, with none (unused).
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

typedef struct ompdp_allocs ompdp_allocs_t;
static void allocs_destroy(void *p);

typedef struct alloc_ent {
  struct alloc_ent *prev, *next; /* in its device's list while undecided */
  struct adev *dev;
  uint32_t op;
  uint64_t seq, dur;
  uint32_t repeated_f; /* its repeated-allocation finding, or OMPDP_NONE */
  ompdp_xref_t first;  /* repeated: the first allocation of its key */
  int pending;         /* unused or not: not known yet */
  int live;            /* in the live map (not deleted, not replaced) */
  int has_delete;
  uint64_t del_seq, del_dur, del_end;
  size_t heap_ix; /* in the closing heap + 1, 0 = not there */
  ompdp_late_t la, ld;
} alloc_ent_t;

typedef struct adev {
  int dev;
  int any_kernel;
  uint64_t kmax_end; /* latest end of a kernel seen on the device */
  alloc_ent_t *pending; /* undecided allocations */
} adev_t;

struct ompdp_allocs {
  ompdp_hmap_t devs;   /* device -> adev + 1 */
  adev_t **dv;
  size_t ndv;
  adev_t *last;        /* the device dev_of found last */
  ompdp_hmap_t live;   /* (device address, device) -> alloc_ent_t * */
  ompdp_hmap_t first;  /* (host address, device, bytes) -> firsts[] + 1 */
  ompdp_xref_t *firsts;
  size_t nfirst, capfirst;
  alloc_ent_t **heap;  /* deleted, undecided: by delete end */
  size_t nheap, capheap;
  size_t ents;
};

static void *allocs_create(const ompdp_engine_config_t *cfg) {
  ompdp_allocs_t *a = calloc(1, sizeof(*a));
  if (!a)
    return NULL;
  if (ompdp_hmap_init(&a->devs, 8) || ompdp_hmap_init(&a->live, 64) ||
      ompdp_hmap_init(&a->first, 64)) {
    allocs_destroy(a);
    return NULL;
  }
  return a;
}

static void free_ent(ompdp_allocs_t *a, alloc_ent_t *x) {
  free(x);
  a->ents--;
}

static void allocs_destroy(void *p) {
  ompdp_allocs_t *a = p;
  if (!a)
    return;
  /* Entries are reachable from the live map or a device list or the heap. */
  for (size_t i = 0; i < a->live.cap; ++i)
    if (a->live.slots && a->live.slots[i].used) {
      alloc_ent_t *x = (alloc_ent_t *)(uintptr_t)a->live.slots[i].value;
      x->live = 0;
      if (!x->pending)
        free(x);
    }
  for (size_t i = 0; i < a->ndv; ++i) {
    for (alloc_ent_t *x = a->dv[i]->pending; x;) {
      alloc_ent_t *n = x->next;
      free(x);
      x = n;
    }
    free(a->dv[i]);
  }
  free(a->dv);
  free(a->heap);
  free(a->firsts);
  ompdp_hmap_free(&a->devs);
  ompdp_hmap_free(&a->live);
  ompdp_hmap_free(&a->first);
  free(a);
}

static size_t allocs_memory(const void *p) {
  const ompdp_allocs_t *a = p;
  return sizeof(*a) + ompdp_hmap_memory(&a->devs) + ompdp_hmap_memory(&a->live) +
         ompdp_hmap_memory(&a->first) + a->capfirst * sizeof(*a->firsts) +
         a->capheap * sizeof(*a->heap) + a->ents * sizeof(alloc_ent_t) +
         a->ndv * (sizeof(adev_t) + sizeof(adev_t *));
}

static adev_t *dev_of(ompdp_allocs_t *a, int dev) {
  if (a->last && a->last->dev == dev)
    return a->last;
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&a->devs, (uint64_t)(int64_t)dev, 0, 0, &inserted);
  if (!slot)
    return NULL;
  if (!inserted)
    return a->last = a->dv[*slot - 1];
  adev_t *d = calloc(1, sizeof(*d));
  adev_t **v = realloc(a->dv, (a->ndv + 1) * sizeof(*v));
  if (!d || !v) {
    free(d);
    if (v)
      a->dv = v;
    ompdp_hmap_remove(&a->devs, (uint64_t)(int64_t)dev, 0, 0);
    return NULL;
  }
  d->dev = dev;
  a->dv = v;
  a->dv[a->ndv++] = d;
  *slot = a->ndv;
  return a->last = d;
}

static void list_remove(alloc_ent_t *x) {
  if (x->prev)
    x->prev->next = x->next;
  else
    x->dev->pending = x->next;
  if (x->next)
    x->next->prev = x->prev;
  x->prev = x->next = NULL;
}

/*--- deleted, undecided allocations: a binary heap by (delete end, seq) ---*/

static int heap_less(const alloc_ent_t *x, const alloc_ent_t *y) {
  if (x->del_end != y->del_end)
    return x->del_end < y->del_end;
  return x->seq < y->seq;
}

static void heap_set(ompdp_allocs_t *a, size_t i, alloc_ent_t *x) {
  a->heap[i] = x;
  x->heap_ix = i + 1;
}

static void heap_up(ompdp_allocs_t *a, size_t i) {
  alloc_ent_t *x = a->heap[i];
  while (i && heap_less(x, a->heap[(i - 1) / 2])) {
    heap_set(a, i, a->heap[(i - 1) / 2]);
    i = (i - 1) / 2;
  }
  heap_set(a, i, x);
}

static void heap_down(ompdp_allocs_t *a, size_t i) {
  alloc_ent_t *x = a->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= a->nheap)
      break;
    if (c + 1 < a->nheap && heap_less(a->heap[c + 1], a->heap[c]))
      ++c;
    if (!heap_less(a->heap[c], x))
      break;
    heap_set(a, i, a->heap[c]);
    i = c;
  }
  heap_set(a, i, x);
}

static int heap_push(ompdp_allocs_t *a, alloc_ent_t *x) {
  if (a->nheap == a->capheap) {
    size_t cap = a->capheap ? a->capheap * 2 : 16;
    alloc_ent_t **v = realloc(a->heap, cap * sizeof(*v));
    if (!v)
      return -1;
    a->heap = v;
    a->capheap = cap;
  }
  a->heap[a->nheap++] = x;
  heap_up(a, a->nheap - 1);
  return 0;
}

static void heap_remove(ompdp_allocs_t *a, alloc_ent_t *x) {
  size_t i = x->heap_ix - 1;
  x->heap_ix = 0;
  alloc_ent_t *last = a->heap[--a->nheap];
  if (i == a->nheap)
    return;
  heap_set(a, i, last);
  heap_up(a, i);
  heap_down(a, last->heap_ix - 1);
}

/*--- decisions ---*/

/* No kernel in its lifetime: the allocation and its delete are avoidable. */
static int decide_unused(ompdp_allocs_t *a, ompdp_engine_t *g, alloc_ent_t *x) {
  x->pending = 0;
  list_remove(x);
  if (x->heap_ix)
    heap_remove(a, x);
  uint32_t f = ompdp_g_finding(g, OMPDP_FK_UNUSED_ALLOC, x->op, x->seq);
  if (f == OMPDP_NONE ||
      ompdp_g_account(g, f, ompdp_op_get(x->op), x->dur + (x->has_delete ? x->del_dur : 0),
                      NULL, 0) ||
      (x->has_delete && (ompdp_g_move_to_delete(g, f, ompdp_op_get(x->op)->bytes, x->del_dur), 0)) ||
      ompdp_g_late_decide(g, &x->la, f) || (x->has_delete && ompdp_g_late_decide(g, &x->ld, f)))
    return -1;
  ompdp_g_match(g, OMPDP_FK_UNUSED_ALLOC, x->seq, OMPDP_NONE,
                x->has_delete ? (uint32_t)x->del_seq : OMPDP_NONE);
  return 0;
}

static int decide_used(ompdp_allocs_t *a, ompdp_engine_t *g, alloc_ent_t *x) {
  x->pending = 0;
  list_remove(x);
  if (x->heap_ix)
    heap_remove(a, x);
  if (ompdp_g_late_decide(g, &x->la, OMPDP_NONE) ||
      (x->has_delete && ompdp_g_late_decide(g, &x->ld, OMPDP_NONE)))
    return -1;
  return 0;
}

/* An allocation that will never be deleted (the run ended, or the address
 * was allocated again): its repeated-allocation match is complete. */
static void end_of_life(ompdp_engine_t *g, alloc_ent_t *x) {
  if (x->repeated_f != OMPDP_NONE && !x->has_delete)
    ompdp_g_match(g, OMPDP_FK_REPEATED_ALLOC, x->seq, x->first.seq, OMPDP_NONE);
}

static void maybe_free(ompdp_allocs_t *a, alloc_ent_t *x) {
  if (!x->pending && !x->live)
    free_ent(a, x);
}

/*--- the stream ---*/

static int allocs_advance(void *p, ompdp_engine_t *g, uint64_t now) {
  ompdp_allocs_t *a = p;
  /* A kernel that begins from now on cannot overlap a delete that ended
   * before now. */
  while (a->nheap && a->heap[0]->del_end < now) {
    alloc_ent_t *x = a->heap[0];
    if (decide_unused(a, g, x))
      return -1;
    maybe_free(a, x);
  }
  return 0;
}

static int on_alloc(ompdp_allocs_t *a, ompdp_engine_t *g, const ompdp_xev_t *e) {
  const ompdp_op_t *o = e->d;
  adev_t *d = dev_of(a, o->dst_dev);
  alloc_ent_t *x = calloc(1, sizeof(*x));
  if (!d || !x) {
    free(x);
    return -1;
  }
  a->ents++;
  x->dev = d;
  x->op = e->op;
  x->seq = e->seq;
  x->dur = e->end - e->start;
  x->repeated_f = OMPDP_NONE;

  /* Algorithm 3. */
  int inserted;
  uint64_t *slot = ompdp_hmap_upsert(&a->first, o->src_addr, (uint64_t)(int64_t)o->dst_dev,
                                     o->bytes, &inserted);
  if (!slot)
    goto oom;
  if (inserted) {
    if (a->nfirst == a->capfirst) {
      size_t cap = a->capfirst ? a->capfirst * 2 : 16;
      ompdp_xref_t *v = realloc(a->firsts, cap * sizeof(*v));
      if (!v) {
        ompdp_hmap_remove(&a->first, o->src_addr, (uint64_t)(int64_t)o->dst_dev, o->bytes);
        goto oom;
      }
      a->firsts = v;
      a->capfirst = cap;
    }
    a->firsts[a->nfirst] = (ompdp_xref_t){e->seq, e->op};
    *slot = ++a->nfirst;
  } else {
    x->first = a->firsts[*slot - 1];
    x->repeated_f = ompdp_g_select(g, OMPDP_FK_REPEATED_ALLOC, e, &x->first, 0);
    if (x->repeated_f == OMPDP_NONE)
      goto oom;
  }

  /* Algorithm 4: a kernel still running when the allocation begins. */
  if (!(d->any_kernel && d->kmax_end >= e->start)) {
    x->pending = 1;
    ompdp_g_late_begin(g, e, &x->la, NULL, x);
    x->next = d->pending;
    if (d->pending)
      d->pending->prev = x;
    d->pending = x;
  }

  /* Pairing: a newer allocation at the same device address wins. */
  slot = ompdp_hmap_upsert(&a->live, o->dst_addr, (uint64_t)(int64_t)o->dst_dev, 0, &inserted);
  if (!slot) {
    x->live = 0;
    return -1;
  }
  if (!inserted) {
    alloc_ent_t *old = (alloc_ent_t *)(uintptr_t)*slot;
    old->live = 0;
    end_of_life(g, old);
    maybe_free(a, old);
  }
  *slot = (uint64_t)(uintptr_t)x;
  x->live = 1;
  return 0;
oom:
  free_ent(a, x);
  return -1;
}

static int on_delete(ompdp_allocs_t *a, ompdp_engine_t *g, const ompdp_xev_t *e) {
  const ompdp_op_t *o = e->d;
  uint64_t *slot = ompdp_hmap_find(&a->live, o->src_addr, (uint64_t)(int64_t)o->src_dev, 0);
  if (!slot)
    return 0; /* frees nothing we saw allocated */
  alloc_ent_t *x = (alloc_ent_t *)(uintptr_t)*slot;
  ompdp_hmap_remove(&a->live, o->src_addr, (uint64_t)(int64_t)o->src_dev, 0);
  x->live = 0;
  x->has_delete = 1;
  x->del_seq = e->seq;
  x->del_dur = e->end - e->start;
  x->del_end = e->end;
  if (x->repeated_f != OMPDP_NONE) {
    if (ompdp_g_add_interval(g, x->repeated_f, e))
      return -1;
    ompdp_g_match(g, OMPDP_FK_REPEATED_ALLOC, x->seq, x->first.seq, (uint32_t)e->seq);
  }
  if (x->pending) {
    ompdp_g_late_begin(g, e, &x->ld, NULL, x);
    return heap_push(a, x);
  }
  maybe_free(a, x);
  return 0;
}

static int allocs_feed(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_allocs_t *a = p;
  return e->type == OMPDP_EV_ALLOC ? on_alloc(a, g, e) : on_delete(a, g, e);
}

static int allocs_kernel(void *p, ompdp_engine_t *g, const ompdp_xev_t *k) {
  ompdp_allocs_t *a = p;
  adev_t *d = dev_of(a, k->d->dst_dev);
  if (!d)
    return -1;
  if (!d->any_kernel || k->end > d->kmax_end)
    d->kmax_end = k->end;
  d->any_kernel = 1;
  /* Every undecided allocation here is alive now, or its delete ends at or
   * after this kernel begins: used. */
  while (d->pending) {
    alloc_ent_t *x = d->pending;
    if (decide_used(a, g, x))
      return -1;
    maybe_free(a, x);
  }
  return 0;
}

static int allocs_finish(void *p, ompdp_engine_t *g) {
  ompdp_allocs_t *a = p;
  /* Freed with no kernel since its allocation: unused, however the run
   * ended. */
  if (allocs_advance(a, g, UINT64_MAX))
    return -1;
  /* Never freed: unused only if the run really ended (one that died might
   * have used it next, or its kernel was in flight). */
  int early = ompdp_g_ended_early(g);
  for (size_t i = 0; i < a->ndv; ++i)
    while (a->dv[i]->pending) {
      alloc_ent_t *x = a->dv[i]->pending;
      if (early ? decide_used(a, g, x) : decide_unused(a, g, x))
        return -1;
      maybe_free(a, x);
    }
  /* Allocations never freed. */
  for (size_t i = 0; i < a->live.cap; ++i)
    if (a->live.slots[i].used) {
      alloc_ent_t *x = (alloc_ent_t *)(uintptr_t)a->live.slots[i].value;
      end_of_life(g, x);
    }
  return 0;
}

/*===- the detection ------------------------------------------------------------===*/

static char *allocs_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                         const ompdp_region_info_t *related, uint32_t rule, const char *d) {
  char buf[768];
  const char *plural = f->num_devices > 1 ? "s" : "";
  if (f->kind == OMPDP_FK_REPEATED_ALLOC) {
    /* Not the same buffer: malloc put a new one where the last one was. */
    snprintf(buf, sizeof(buf), ", so mapping it allocates it on device%s %s again too", plural, d);
    char *t = ompdp_detect_fresh_text(f, item, related, buf, "allocate", "");
    if (t)
      return t;
  }
  if (f->kind == OMPDP_FK_REPEATED_ALLOC)
    snprintf(buf, sizeof(buf),
             "the same host buffer is allocated and freed on device%s %s each time it is mapped: "
             "allocate it once with `#pragma omp target data` (or `target enter data`) outside "
             "the loop",
             plural, d);
  else
    snprintf(buf, sizeof(buf),
             "no kernel runs on device%s %s while this memory is allocated: remove the mapping, "
             "or move it to where a kernel uses the data",
             plural, d);
  return ompdp_strdup(buf);
}

/* At a routine call: the allocating call moves out of the loop, or goes. */
static char *repeated_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024];
  snprintf(buf, sizeof(buf),
           "`%s` allocates %s on device%s %s again each time, and `omp_target_free` frees "
           "it: %s",
           c->routine, c->variable, c->plural, c->devices,
           c->loop ? "allocate it once before the loop and free it after the loop"
                   : "allocate it once and free it when it is no longer used");
  return ompdp_strdup(buf);
}

static char *unused_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024];
  snprintf(buf, sizeof(buf),
           "no kernel runs on device%s %s while the memory of this `%s` exists: remove the "
           "call and its `omp_target_free`, or move them to where a kernel uses %s",
           c->plural, c->devices, c->routine, c->variable);
  return ompdp_strdup(buf);
}

/* Algorithms 3 and 4: repeated and unused allocations, from one pairing of
 * allocations with their deletes. (An allocation's delete is avoidable with
 * it: the aux of their matches.) */
const ompdp_detection_t ompdp_detect_allocs = {
    .name = "repeated and unused allocations",
    .kinds = {{.kind = OMPDP_FK_REPEATED_ALLOC,
               .aux = OMPDP_AUX_DELETE,
               .rewrite = OMPDP_RR_KEEP_RESIDENT,
               .rewrites = 1u << OMPDP_RK_KEEP_RESIDENT | 1u << OMPDP_RK_HOIST_ALLOC,
               .verdict = ompdp_verdict_repeated_alloc,
               .routine_text = repeated_routine_text},
              {.kind = OMPDP_FK_UNUSED_ALLOC,
               .aux = OMPDP_AUX_DELETE,
               .rewrite = OMPDP_RR_REMOVE_MAPPING,
               .rewrites = 1u << OMPDP_RK_REMOVE_ITEM,
               .routine_text = unused_routine_text}},
    .num_kinds = 2,
    .create = allocs_create,
    .advance = allocs_advance,
    .on_alloc = allocs_feed,
    .on_delete = allocs_feed,
    .on_kernel = allocs_kernel,
    .finish = allocs_finish,
    .memory = allocs_memory,
    .destroy = allocs_destroy,
    .text = allocs_text,
};
