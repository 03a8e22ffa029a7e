/*===- uses.c - which device allocations each kernel launch uses ----*- C -*-===*\
|*
|* Per device (numbers 0 to USES_DEVICES - 1), the allocations alive now,
|* sorted by the host address they mirror and found by their device
|* address: a kernel's map argument is a host pointer (somewhere in a
|* mapped range: a section may start inside it), or, passed by value
|* (is_device_ptr, has_device_addr), a device pointer. A launch looks up
|* each argument (binary search, under the device's lock) and records one
|* use per allocation it finds, after the kernel's own record and on the
|* same thread, so that the analysis sees the use right after the kernel.
|*
|* An allocation used again before the memory in use of its device changed
|* (an allocation or a delete there: the device's epoch) is not recorded
|* again: the peaks of memory in use are decided at allocations, so a loop
|* of kernels over resident data adds one record per allocation, not per
|* launch. What the analysis learns of the last use is therefore the first
|* use of that epoch.
|*
|* Memory the runtime cannot get for this table makes the device's uses
|* unknown from then on: its launches are then recorded as they were before
|* (a kernel that may use everything), never with uses missing.
|*
\*===----------------------------------------------------------------------===*/
#include "uses.h"

#include "ompdp_rt.h"
#include "regions.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define USES_DEVICES 64
/* libomptarget's map type bit for an argument passed by value. */
#define MAPTYPE_LITERAL 0x100

typedef struct use_ent {
  uint64_t host, dev_addr, bytes;
  uint64_t epoch; /* the device's epoch when it was last used (+ 1; 0: never) */
} use_ent_t;

typedef struct use_dev {
  pthread_mutex_t lock;
  int broken; /* memory ran out: uses unknown from now on */
  uint64_t epoch;
  use_ent_t *by_host; /* sorted by host address (host 0: at the front) */
  size_t n, cap;
} use_dev_t;

static use_dev_t devs[USES_DEVICES] = {
#define L PTHREAD_MUTEX_INITIALIZER
    [0 ... USES_DEVICES - 1] = {.lock = L},
#undef L
};

static use_dev_t *dev_of(int dev) {
  return dev >= 0 && dev < USES_DEVICES ? &devs[dev] : NULL;
}

/* The first entry whose host address is not below h. */
static size_t lower(const use_dev_t *d, uint64_t h) {
  size_t lo = 0, hi = d->n;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (d->by_host[mid].host < h)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

/* The entry at device address a (exact), or -1. Linear: a device has few
 * allocations alive, and deletes are rare next to launches. */
static long by_dev(const use_dev_t *d, uint64_t a) {
  for (size_t i = 0; i < d->n; ++i)
    if (d->by_host[i].dev_addr == a)
      return (long)i;
  return -1;
}

void ompdp_uses_alloc(int dev, uint64_t host_addr, uint64_t bytes, uint64_t dev_addr) {
  use_dev_t *d = dev_of(dev);
  if (!d)
    return;
  pthread_mutex_lock(&d->lock);
  d->epoch++;
  if (!d->broken) {
    long old = by_dev(d, dev_addr); /* a newer allocation at a live address */
    if (old >= 0) {
      memmove(&d->by_host[old], &d->by_host[old + 1], (d->n - (size_t)old - 1) * sizeof(use_ent_t));
      d->n--;
    }
    if (d->n == d->cap) {
      size_t cap = d->cap ? d->cap * 2 : 16;
      use_ent_t *v = realloc(d->by_host, cap * sizeof(*v));
      if (!v) {
        d->broken = 1;
        pthread_mutex_unlock(&d->lock);
        return;
      }
      d->by_host = v;
      d->cap = cap;
    }
    size_t at = lower(d, host_addr);
    memmove(&d->by_host[at + 1], &d->by_host[at], (d->n - at) * sizeof(use_ent_t));
    d->by_host[at] = (use_ent_t){host_addr, dev_addr, bytes, 0};
    d->n++;
  }
  pthread_mutex_unlock(&d->lock);
}

void ompdp_uses_delete(int dev, uint64_t dev_addr) {
  use_dev_t *d = dev_of(dev);
  if (!d)
    return;
  pthread_mutex_lock(&d->lock);
  d->epoch++;
  long i = d->broken ? -1 : by_dev(d, dev_addr);
  if (i >= 0) {
    memmove(&d->by_host[i], &d->by_host[i + 1], (d->n - (size_t)i - 1) * sizeof(use_ent_t));
    d->n--;
  }
  pthread_mutex_unlock(&d->lock);
}

int ompdp_uses_ready(int dev) {
  use_dev_t *d = dev_of(dev);
  int32_t n;
  void *const *ptrs;
  const int64_t *sizes, *types;
  return d && !__atomic_load_n(&d->broken, __ATOMIC_RELAXED) &&
         ompdp_regions_kernel_args(&n, &ptrs, &sizes, &types) == 0;
}

/* The entry holding host address h (a range of size bytes from it), or
 * NULL. */
static use_ent_t *holding_host(use_dev_t *d, uint64_t h) {
  size_t i = lower(d, h + 1);
  if (!i)
    return NULL;
  use_ent_t *e = &d->by_host[i - 1];
  return e->host && h - e->host < e->bytes ? e : NULL;
}

static use_ent_t *holding_dev(use_dev_t *d, uint64_t a) {
  for (size_t i = 0; i < d->n; ++i)
    if (a - d->by_host[i].dev_addr < d->by_host[i].bytes)
      return &d->by_host[i];
  return NULL;
}

void ompdp_uses_kernel(int dev, const void *codeptr, uint32_t region) {
  use_dev_t *d = dev_of(dev);
  int32_t n;
  void *const *ptrs;
  const int64_t *sizes, *types;
  if (!d || ompdp_regions_kernel_args(&n, &ptrs, &sizes, &types))
    return;
  /* The device addresses to record, found under the lock and recorded
   * after it, a few at a time. */
  uint64_t found[32];
  int32_t arg[32];
  for (int32_t base = 0; base < n; base += 32) {
    int k = 0;
    pthread_mutex_lock(&d->lock);
    for (int32_t i = base; i < n && i < base + 32 && !d->broken; ++i) {
      uint64_t p = (uint64_t)(uintptr_t)ptrs[i];
      use_ent_t *e = types[i] & MAPTYPE_LITERAL ? holding_dev(d, p) : holding_host(d, p);
      if (!e || e->epoch == d->epoch + 1)
        continue;
      e->epoch = d->epoch + 1;
      arg[k] = i;
      found[k++] = e->dev_addr;
    }
    pthread_mutex_unlock(&d->lock);
    for (int j = 0; j < k; ++j) {
      ompdp_op_t op;
      memset(&op, 0, sizeof(op));
      op.type = OMPDP_EV_USE;
      op.dst_dev = dev;
      op.dst_addr = found[j];
      op.codeptr = codeptr;
      op.region = region;
      op.item = ompdp_regions_kernel_arg_item(arg[j]); /* the item that points there */
      uint32_t id = ompdp_op_intern_fast(&op);
      ompdp_rec_t *r = id == OMPDP_NONE ? NULL : ompdp_log_new();
      if (!r) {
        if (id == OMPDP_NONE)
          ompdp_log_note_dropped();
        continue;
      }
      r->x = r->t_begin;
      ompdp_log_complete(r, ompdp_rec_word(id, OMPDP_EV_USE, 0, 0));
    }
  }
}
