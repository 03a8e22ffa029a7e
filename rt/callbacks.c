/*===- callbacks.c - OMPT EMI callbacks -----------------------------*- C -*-===*\
|*
|* Turns target, data-op and submit callbacks into event records. A data op
|* or kernel begins a record in this thread's log and leaves a pointer to it
|* in *host_op_id, where its end callback finds it, on whichever thread, to
|* complete it: no lookup and no lock. A construct is not recorded: it only
|* lends its call site, region and device to the operations inside it, from
|* a slot in a small per-thread pool that target_data->ptr points to.
|*
|* Per data op the fast path is: two clock reads (rdtsc where the kernel
|* trusts the TSC), one lookup of the operation in this thread's cache
|* (rt/intern.c), the hash, and the stores of one 24-byte record.
|*
|* Hashing: host-to-device bytes are hashed at begin, from the host source;
|* device-to-host bytes at end, from the host destination. Transfers between
|* two devices are not hashed (device memory may not be readable from here).
|* The hash runs outside the recorded interval, so its cost does not inflate
|* the transfer time that the report attributes to the program. With the
|* hash_helper option, buffers of OMPDP_HASH_ASYNC_MIN bytes and more are
|* instead hashed on the helper thread while the OpenMP runtime copies them
|* (rt/hash.c): from the host
|* source for host-to-device, and for device-to-host from the device source
|* when that device's memory is the host's (the host plugin); the end
|* callback reads the clock before it waits for the hash. A copy in whose
|* elements all hold one value other than zero is noted under its hash at
|* the end (analysis/single_value.c), after the clock: the check stops at
|* the first byte out of pattern.
|*
|* A delete names only a device address. When allocations come from region
|* tables (the compiler plugin), the allocation's host range is remembered
|* per device address, so that its delete is matched to a map item too.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "callbacks.h"
#include "detect.h"
#include "ompdp_rt.h"
#include "regions.h"
#include "shm.h"
#include "single_value.h"
#include "uses.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define HOST_UNKNOWN (-1000000) /* not looked up yet */
#define HOST_NONE (-1000001)    /* looked up, not found: no device number matches */
static _Atomic int host_device = HOST_UNKNOWN;
static int have_submit;

static int lookup_host_device(void);

/* The callbacks' path: one load once known. */
static inline int host_dev(void) {
  int h = atomic_load_explicit(&host_device, memory_order_relaxed);
  return __builtin_expect(h != HOST_UNKNOWN, 1) ? h : lookup_host_device();
}

int ompdp_host_device(void) { return host_dev(); }

static int lookup_host_device(void) {
  int h;
  /* The initial device's number is omp_get_initial_device(); the tool does
   * not link against libomp, so look it up in the process. Safe from a
   * target callback, not from ompt_initialize (libomptarget is not up yet). */
  int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_initial_device");
  h = get ? get() : HOST_NONE; /* look up once, also when it fails */
  atomic_store_explicit(&host_device, h, memory_order_relaxed);
  ompdp_shm_note_host(h);
  return h;
}

void ompdp_callbacks_set_submit(int available) { have_submit = available; }

/* Devices whose memory this process can read (device number < 64). */
static _Atomic uint64_t host_memory_devices;

void ompdp_note_device(int device_num, const char *type) {
  /* libomptarget's host plugin calls its devices "generic-64bit" (LLVM
   * 19); a GPU has a target name (sm_90, gfx90a). */
  if (device_num >= 0 && device_num < 64 && type &&
      (!strncmp(type, "generic", 7) || !strncmp(type, "x86_64", 6) ||
       !strncmp(type, "aarch64", 7) || !strncmp(type, "ppc64", 5)))
    atomic_fetch_or(&host_memory_devices, 1ull << device_num);
}

static int readable_device(int dev) {
  return dev >= 0 && dev < 64 &&
         (atomic_load_explicit(&host_memory_devices, memory_order_relaxed) >> dev & 1);
}

void ompdp_cb_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                ompt_function_lookup_t lookup, const char *documentation) {
  (void)device;
  (void)lookup;
  (void)documentation;
  ompdp_note_device(device_num, type);
  ompdp_devhash_note_device(device_num, type);
}

/* x of a transfer record whose hash the helper is computing. */
#define HASH_PENDING 1
/* x of a transfer record whose device copy is hashed at its end. */
#define HASH_DEVICE 2
/* ... or is being hashed on the GPU since its begin (a copy back). */
#define HASH_STARTED 3

/* Whether to wait for GPU device_num around its copies (device_sync):
 * only while no construct runs on another thread, whose kernels and
 * copies the wait would also wait for. */
static int sync_applies(int device_num) {
  return ompdp_opts.device_sync && ompdp_device_kind(device_num) == OMPDP_DEVKIND_CUDA &&
         !ompdp_constructs_elsewhere();
}

/*===- constructs ------------------------------------------------------------===*/

typedef struct construct {
  atomic_int in_use;
  int heap; /* malloc'd because the thread's slots were all in use */
  const void *codeptr;
  uint32_t region;
  uint8_t kind;
  int device;
  ompdp_rec_t *kernel; /* completed when the construct ends */
  uint32_t kernel_word;
} construct_t;

#define SLOTS 8
static _Thread_local construct_t *tls_slots __attribute__((tls_model("initial-exec")));

/* Every thread's slots (never freed), so that a large transfer can tell
 * whether constructs are in flight on other threads (hash.c). */
#define MAX_THREADS_SEEN 1024
static construct_t *_Atomic all_slots[MAX_THREADS_SEEN];
static _Atomic unsigned num_threads_seen;

int ompdp_constructs_elsewhere(void) {
  unsigned n = atomic_load_explicit(&num_threads_seen, memory_order_acquire);
  if (n > MAX_THREADS_SEEN)
    return 1; /* not all of them known: say yes */
  for (unsigned i = 0; i < n; ++i) {
    construct_t *s = atomic_load_explicit(&all_slots[i], memory_order_acquire);
    for (int j = 0; s && s != tls_slots && j < SLOTS; ++j)
      if (atomic_load_explicit(&s[j].in_use, memory_order_relaxed))
        return 1;
  }
  return 0;
}

/* When the last kernel on a host-memory device ended (ompdp_now_ns), or
 * UINT64_MAX while one runs; 0: none yet. */
static _Atomic uint64_t host_kernel_at;

int ompdp_host_kernel_recent(void) {
  uint64_t at = atomic_load_explicit(&host_kernel_at, memory_order_relaxed);
  return at && (at == UINT64_MAX || ompdp_now_ns() - at < OMPDP_HOST_KERNEL_NS);
}

/* Without the submit callback, a `target` construct stands for its kernel,
 * from its begin to its end. kind: an ompt_target_t, or construct_t's kind
 * (its low four bits, which tell them apart). */
static int stands_for_kernel(int kind) {
  kind &= 0xf;
  return !have_submit && (kind == ompt_target || kind == (ompt_target_nowait & 0xf));
}

static void note_host_kernel(const construct_t *c, int running) {
  if (c && ompdp_device_kind(c->device) == OMPDP_DEVKIND_HOSTMEM)
    atomic_store_explicit(&host_kernel_at, running ? UINT64_MAX : ompdp_now_ns(),
                          memory_order_relaxed);
}

static construct_t *take_slot(void) {
  construct_t *s = tls_slots;
  if (__builtin_expect(!s, 0)) {
    s = tls_slots = calloc(SLOTS, sizeof(*s));
    unsigned i = s ? atomic_fetch_add_explicit(&num_threads_seen, 1, memory_order_relaxed)
                   : MAX_THREADS_SEEN;
    if (i < MAX_THREADS_SEEN)
      atomic_store_explicit(&all_slots[i], s, memory_order_release);
  }
  /* Constructs nest at most a few deep on one thread; an end may come on
   * another thread, which frees the slot by clearing in_use. */
  for (int i = 0; s && i < SLOTS; ++i)
    if (!atomic_load_explicit(&s[i].in_use, memory_order_acquire)) {
      atomic_store_explicit(&s[i].in_use, 1, memory_order_relaxed);
      s[i].heap = 0;
      return &s[i];
    }
  construct_t *c = calloc(1, sizeof(*c));
  if (c)
    c->heap = 1;
  return c;
}

static void release_slot(construct_t *c) {
  if (c->heap)
    free(c);
  else
    atomic_store_explicit(&c->in_use, 0, memory_order_release);
}

/* uses: the launch's uses of device allocations will be recorded
 * (rt/uses.c). */
static uint32_t kernel_word(const construct_t *c, const void *codeptr, int uses) {
  ompdp_op_t op;
  memset(&op, 0, sizeof(op));
  op.type = OMPDP_EV_KERNEL;
  op.item = -1;
  op.src_addr = uses ? OMPDP_KERNEL_USES_RECORDED : 0;
  if (c) {
    op.dst_dev = c->device;
    op.codeptr = c->codeptr;
    op.region = c->region;
    op.construct = c->kind;
  } else {
    op.codeptr = codeptr;
  }
  uint32_t id = ompdp_op_intern_fast(&op);
  return id == OMPDP_NONE ? OMPDP_NONE : ompdp_rec_word(id, OMPDP_EV_KERNEL, 0, 0);
}

/* Ends a kernel record: it ran until now at the latest. */
static void end_kernel(ompdp_rec_t *k, uint32_t word) {
  uint64_t now = ompdp_ticks();
  if (k->x < now)
    k->x = now;
  ompdp_log_complete(k, word);
}

void ompdp_cb_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                         ompt_data_t *task_data, ompt_data_t *target_task_data,
                         ompt_data_t *target_data, const void *codeptr_ra) {
  (void)task_data;
  (void)target_task_data;
  if (endpoint == ompt_scope_begin) {
    host_dev();
    /* The plugin's hook ran just before this offload call on this thread. */
    uint32_t region = ompdp_regions_begin(codeptr_ra, kind == ompt_target_exit_data ||
                                                          kind == ompt_target_exit_data_nowait);
    construct_t *c = target_data ? take_slot() : NULL;
    if (target_data)
      target_data->ptr = c;
    int for_kernel = stands_for_kernel(kind);
    if (!c) {
      if (target_data && for_kernel)
        ompdp_log_note_dropped(); /* no memory for the construct: its kernel is lost */
      return;
    }
    c->codeptr = codeptr_ra;
    c->region = region;
    c->kind = (uint8_t)(kind & 0xf);
    c->device = device_num;
    c->kernel = NULL;
    if (for_kernel) {
      uint32_t w = kernel_word(c, codeptr_ra, 0);
      ompdp_rec_t *k = w == OMPDP_NONE ? NULL : ompdp_log_new();
      if (!k && w == OMPDP_NONE)
        ompdp_log_note_dropped(); /* ompdp_log_new counts its own failures */
      if (k) {
        k->x = k->t_begin;
        /* Atomic: the stream consumer already reads this published record
         * (ompdp_log_complete stores COMPLETE later, with release). */
        __atomic_store_n(&k->op, w, __ATOMIC_RELAXED);
        c->kernel = k;
        c->kernel_word = w;
      }
    }
    return;
  }
  if (endpoint != ompt_scope_end || !target_data || !target_data->ptr)
    return;
  ompdp_regions_end();
  construct_t *c = target_data->ptr;
  target_data->ptr = NULL;
  /* The kernel certainly finished by the end of its construct; an
   * asynchronous launch returns earlier than that. */
  if (c->kernel)
    end_kernel(c->kernel, c->kernel_word);
  if (stands_for_kernel(c->kind))
    note_host_kernel(c, 0);
  release_slot(c);
}

void ompdp_cb_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  construct_t *c = target_data ? target_data->ptr : NULL;
  if (endpoint == ompt_scope_begin) {
    if (host_op_id)
      *host_op_id = 0;
    if (c)
      ompdp_provision_launch_begin(c->codeptr, c->region, c->device, c->kind,
                                   requested_num_teams);
    note_host_kernel(c, 1);
    int uses = c && ompdp_uses_ready(c->device);
    uint32_t w = kernel_word(c, NULL, uses);
    ompdp_rec_t *k = w == OMPDP_NONE ? NULL : ompdp_log_new();
    if (!k) {
      if (w == OMPDP_NONE)
        ompdp_log_note_dropped();
      return;
    }
    k->x = k->t_begin;
    __atomic_store_n(&k->op, w, __ATOMIC_RELAXED); /* read by the consumer */
    /* Right after the kernel, on its thread: the allocations it uses. */
    if (uses)
      ompdp_uses_kernel(c->device, c->codeptr, c->region);
    if (host_op_id)
      *host_op_id = (ompt_id_t)(uintptr_t)k;
    if (c) {
      if (c->kernel) /* a second launch in one construct: the first is over */
        ompdp_log_complete(c->kernel, c->kernel_word);
      c->kernel = k;
      c->kernel_word = w;
    }
    return;
  }
  if (endpoint == ompt_scope_end) {
    ompdp_provision_launch_end();
    note_host_kernel(c, 0);
  }
  if (endpoint != ompt_scope_end || !host_op_id || !*host_op_id)
    return;
  ompdp_rec_t *k = (ompdp_rec_t *)(uintptr_t)*host_op_id;
  if (c && c->kernel == k) {
    uint64_t now = ompdp_ticks();
    if (k->x < now)
      k->x = now; /* the construct's end completes it */
  } else {
    end_kernel(k, k->op);
  }
}

/*===- allocations seen with a region, for their deletes ----------------------===*/

typedef struct live_alloc {
  uint64_t host_addr, bytes;
  uint32_t region;
  int16_t item;
} live_alloc_t;

#define LIVE_SHARDS 16
static struct {
  pthread_mutex_t lock;
  ompdp_hmap_t map; /* (device address, device) -> live_alloc_t * */
} live[LIVE_SHARDS];
static pthread_once_t live_once = PTHREAD_ONCE_INIT;
static int live_ok;

static void live_init(void) {
  live_ok = 1;
  for (int i = 0; i < LIVE_SHARDS; ++i) {
    pthread_mutex_init(&live[i].lock, NULL);
    if (ompdp_hmap_init(&live[i].map, 16))
      live_ok = 0;
  }
}

static int live_shard(uint64_t addr, int dev) {
  return (int)(((addr >> 6) ^ (addr >> 14) ^ (uint64_t)(unsigned)dev) % LIVE_SHARDS);
}

static void live_remember(uint64_t dev_addr, int dev, const ompdp_op_t *alloc) {
  pthread_once(&live_once, live_init);
  if (!live_ok)
    return;
  live_alloc_t *a = malloc(sizeof(*a));
  if (!a)
    return;
  *a = (live_alloc_t){alloc->src_addr, alloc->bytes, alloc->region, alloc->item};
  int s = live_shard(dev_addr, dev);
  pthread_mutex_lock(&live[s].lock);
  uint64_t *slot = ompdp_hmap_upsert(&live[s].map, dev_addr, (uint64_t)(int64_t)dev, 0, NULL);
  if (slot) {
    free((void *)(uintptr_t)*slot);
    *slot = (uint64_t)(uintptr_t)a;
  } else {
    free(a);
  }
  pthread_mutex_unlock(&live[s].lock);
}

/* Takes the allocation at dev_addr out of the table; 0 if it was there. */
static int live_forget(uint64_t dev_addr, int dev, live_alloc_t *out) {
  if (!live_ok)
    return -1;
  int s = live_shard(dev_addr, dev), rc = -1;
  pthread_mutex_lock(&live[s].lock);
  uint64_t *slot = ompdp_hmap_find(&live[s].map, dev_addr, (uint64_t)(int64_t)dev, 0);
  if (slot && *slot) {
    live_alloc_t *a = (live_alloc_t *)(uintptr_t)*slot;
    *out = *a;
    free(a);
    ompdp_hmap_remove(&live[s].map, dev_addr, (uint64_t)(int64_t)dev, 0);
    rc = 0;
  }
  pthread_mutex_unlock(&live[s].lock);
  return rc;
}

/*===- data operations ----------------------------------------------------------===*/

static int event_type(ompt_target_data_op_t op) {
  switch ((int)op) {
  case ompt_target_data_alloc:
  case ompt_target_data_alloc_async:
    return OMPDP_EV_ALLOC;
  case ompt_target_data_transfer_to_device:
  case ompt_target_data_transfer_from_device:
  case ompt_target_data_transfer_to_device_async:
  case ompt_target_data_transfer_from_device_async:
    return OMPDP_EV_TRANSFER;
  case ompt_target_data_delete:
  case ompt_target_data_delete_async:
    return OMPDP_EV_DELETE;
  default: /* associate/disassociate move nothing */
    return -1;
  }
}

static inline uint64_t hash_of(const void *p, size_t n) {
  uint64_t h = ompdp_hash(p, n);
  if (__builtin_expect(ompdp_opts.verify_hashes, 0))
    ompdp_hash_verify(h, p, n);
  return h;
}

void ompdp_cb_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                                 ompt_data_t *target_data, ompt_id_t *host_op_id,
                                 ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                                 void *dest_addr, int dest_device_num, size_t bytes,
                                 const void *codeptr_ra) {
  (void)target_task_data;
  if (!host_op_id)
    return;
  int host = host_dev();
  if (endpoint == ompt_scope_begin) {
    *host_op_id = 0;
    int type = event_type(optype);
    if (type < 0)
      return;
    ompdp_op_t op;
    memset(&op, 0, sizeof(op));
    op.type = (uint8_t)type;
    op.src_addr = (uint64_t)(uintptr_t)src_addr;
    op.dst_addr = type == OMPDP_EV_ALLOC ? 0 : (uint64_t)(uintptr_t)dest_addr;
    op.src_dev = src_device_num;
    op.dst_dev = dest_device_num;
    op.bytes = bytes;
    op.codeptr = codeptr_ra;
    op.item = -1;
    uint64_t section_lower = 0;
    int has_lower = 0;
    const construct_t *c = target_data ? target_data->ptr : NULL;
    uint32_t routine_items = 0;
    int in_routine = 0;
    if (c) {
      op.region = c->region;
      op.construct = c->kind;
      if (!op.codeptr)
        op.codeptr = c->codeptr;
    } else if ((op.region = ompdp_regions_routine((uint64_t)(uintptr_t)src_addr,
                                                  (uint64_t)(uintptr_t)dest_addr,
                                                  &routine_items))) {
      in_routine = 1;
    }
    if (type == OMPDP_EV_DELETE)
      ompdp_uses_delete(src_device_num, op.src_addr);
    if (in_routine) {
      /* A routine call's items are its pointers: a copy's host side is its
       * source (item 1) when that is the host, else its destination (item
       * 0); an allocation or free has its one pointer. */
      int two = routine_items > 1 && type == OMPDP_EV_TRANSFER && src_device_num == host &&
                dest_device_num != host;
      op.item = routine_items ? (int16_t)two : -1;
      if (type == OMPDP_EV_DELETE) {
        live_alloc_t a;
        (void)live_forget(op.src_addr, src_device_num, &a);
      }
    } else if (type == OMPDP_EV_DELETE) {
      /* A delete names only the device address: the allocation it frees
       * gives the host range, hence the map item (and the region, when the
       * delete's own construct has none). */
      live_alloc_t a;
      if (!live_forget(op.src_addr, src_device_num, &a)) {
        if (op.region)
          op.item = (int16_t)ompdp_regions_match_item(a.host_addr, a.bytes);
        else {
          op.region = a.region;
          op.item = a.item;
        }
      }
    } else if (op.region) {
      /* Which map item: by the host side of the operation. */
      uint64_t host_addr = dest_device_num == host && src_device_num != host
                               ? (uint64_t)(uintptr_t)dest_addr : op.src_addr;
      op.item = (int16_t)ompdp_regions_match_item(host_addr, bytes);
      if (type == OMPDP_EV_TRANSFER && op.item >= 0 &&
          ompdp_regions_section_lower(op.item, &section_lower) == 0)
        has_lower = 1;
    }
    uint64_t h = 0;
    int hashed = 0;
    if (type == OMPDP_EV_TRANSFER && src_addr && bytes) {
      int to_dev = src_device_num == host && dest_device_num != host;
      int from_dev = dest_device_num == host && src_device_num != host;
      int dev = to_dev ? dest_device_num : src_device_num;
      int sync = (to_dev || from_dev) && sync_applies(dev);
      /* A copy back waits for the kernel before it: wait here, before the
       * copy's clock starts, so that its time is the copy's alone. */
      if (from_dev && sync)
        (void)ompdp_device_sync(src_device_num, src_addr);
      if ((to_dev || from_dev) && ompdp_devhash_wanted(dev, bytes) &&
          (sync || ompdp_device_kind(dev) == OMPDP_DEVKIND_HOSTMEM)) {
        h = HASH_DEVICE; /* at the end, from the device copy, where it is */
        /* A copy back only reads its source, which the kernels before it
         * (waited for above) have finished writing: hash it on the GPU
         * while it is copied, before the copy's clock starts. */
        if (from_dev && sync && ompdp_devhash_start(dev, src_addr, bytes, host_op_id) == 0)
          h = HASH_STARTED;
      } else if (to_dev) {
        if (bytes >= OMPDP_HASH_ASYNC_MIN && ompdp_hash_start(src_addr, bytes))
          h = HASH_PENDING;
        else
          h = hash_of(src_addr, bytes), hashed = 1;
      } else if (from_dev && bytes >= OMPDP_HASH_ASYNC_MIN && readable_device(src_device_num) &&
                 ompdp_hash_start(src_addr, bytes)) {
        h = HASH_PENDING; /* the device's bytes are the ones the host will get */
      }
    }
    uint32_t id = ompdp_op_intern_fast(&op);
    if (has_lower && id != OMPDP_NONE)
      ompdp_regions_note_lower(id, section_lower);
    ompdp_rec_t *r = id == OMPDP_NONE ? NULL : ompdp_log_new(); /* begins now, after the hash */
    if (!r) {
      /* No memory: the event is dropped (ompdp_log_new counts its own
       * failures). The helper must be done with the buffer before the
       * program may free it. */
      if (id == OMPDP_NONE)
        ompdp_log_note_dropped();
      if (h == HASH_PENDING)
        (void)ompdp_hash_finish();
      uint64_t unused;
      if (h == HASH_STARTED)
        (void)ompdp_devhash_finish(src_addr, host_op_id, &unused);
      ompdp_hash_done();
      return;
    }
    r->x = h;
    __atomic_store_n(&r->op, ompdp_rec_word(id, type, hashed, 0), __ATOMIC_RELAXED);
    *host_op_id = (ompt_id_t)(uintptr_t)r;
    return;
  }
  if (endpoint != ompt_scope_end || !*host_op_id)
    return;
  ompdp_rec_t *r = (ompdp_rec_t *)(uintptr_t)*host_op_id;
  uint32_t w = r->op;
  int type = ompdp_rec_type(w);
  int to_dev = src_device_num == host && dest_device_num != host;
  int from_dev = dest_device_num == host && src_device_num != host;
  int on_device = 0, started = 0; /* hash the device copy; its hash is under way */
  if (type == OMPDP_EV_TRANSFER && (to_dev || from_dev)) {
    int dev = to_dev ? dest_device_num : src_device_num;
    void *dev_addr = to_dev ? dest_addr : src_addr;
    started = !(w & OMPDP_REC_HASHED) && r->x == HASH_STARTED;
    int want = !(w & OMPDP_REC_HASHED) && r->x == HASH_DEVICE;
    /* A GPU copy may still be in flight when the OpenMP call returns:
     * its time ends when it is done, and its device copy is read then. */
    int synced = (want || started || bytes >= OMPDP_SYNC_MIN) &&
                 ompdp_device_kind(dev) == OMPDP_DEVKIND_CUDA && sync_applies(dev) &&
                 ompdp_device_sync(dev, dev_addr) == 0;
    on_device = want && (synced || ompdp_device_kind(dev) == OMPDP_DEVKIND_HOSTMEM);
  }
  uint64_t now = ompdp_ticks();
  if (type == OMPDP_EV_TRANSFER) {
    r->dur = ompdp_rec_dur_encode(now > r->t_begin ? now - r->t_begin : 0);
    void *host_addr = to_dev ? src_addr : dest_addr;
    uint64_t dh;
    if (started) {
      /* Started at the begin, on the source, which the copy only read. */
      if (ompdp_devhash_finish(src_addr, host_op_id, &dh) == 0) {
        r->x = dh;
        w |= OMPDP_REC_HASHED;
        if (__builtin_expect(ompdp_opts.verify_hashes, 0)) {
          ompdp_devhash_verify(dh, host_addr, bytes);
          ompdp_hash_verify(dh, host_addr, bytes);
        }
      } else {
        (void)ompdp_device_sync(src_device_num, src_addr); /* the copy is done */
        r->x = hash_of(host_addr, bytes);
        w |= OMPDP_REC_HASHED;
      }
    } else if (on_device && ompdp_devhash(to_dev ? dest_device_num : src_device_num,
                                          to_dev ? dest_addr : src_addr, bytes, &dh) == 0) {
      r->x = dh;
      if (__builtin_expect(ompdp_opts.verify_hashes, 0)) {
        ompdp_devhash_verify(dh, host_addr, bytes);
        ompdp_hash_verify(dh, host_addr, bytes);
      }
      w |= OMPDP_REC_HASHED;
    } else if (on_device || (!(w & OMPDP_REC_HASHED) && r->x == HASH_DEVICE)) {
      r->x = hash_of(host_addr, bytes); /* the device could not: the host's bytes */
      w |= OMPDP_REC_HASHED;
    } else if (!(w & OMPDP_REC_HASHED) && r->x == HASH_PENDING) {
      r->x = ompdp_hash_finish();
      if (__builtin_expect(ompdp_opts.verify_hashes, 0))
        ompdp_hash_verify(r->x, dest_device_num == host ? dest_addr : src_addr, bytes);
      w |= OMPDP_REC_HASHED;
    } else if (!(w & OMPDP_REC_HASHED) && from_dev && dest_addr && bytes) {
      r->x = hash_of(dest_addr, bytes);
      w |= OMPDP_REC_HASHED;
    }
    ompdp_hash_done();
    /* One value in every element of a copy in (not zero, which its hash
     * tells): noted under its hash for the single-value detection. The
     * check stops at the first byte out of pattern, most often among the
     * first few. */
    uint64_t pattern;
    uint32_t period;
    if (to_dev && (w & OMPDP_REC_HASHED) && src_addr &&
        bytes >= (uint64_t)(ompdp_opts.zero_min_bytes > 0 ? ompdp_opts.zero_min_bytes : 1) &&
        ompdp_single_value_check(src_addr, bytes, &pattern, &period) &&
        !ompdp_single_value_uninitialised(pattern, period))
      ompdp_single_value_note(r->x, pattern, period);
  } else {
    r->x = now;
  }
  if (type == OMPDP_EV_ALLOC && dest_addr) {
    /* The device address is known now. */
    ompdp_op_t op = *ompdp_op_get(ompdp_rec_op_id(w));
    op.dst_addr = (uint64_t)(uintptr_t)dest_addr;
    uint32_t id = ompdp_op_intern(&op);
    if (id != OMPDP_NONE)
      w = ompdp_rec_word(id, type, 0, 0);
    ompdp_uses_alloc(op.dst_dev, op.src_addr, op.bytes, op.dst_addr);
    if (op.region)
      live_remember(op.dst_addr, op.dst_dev, &op);
  }
  ompdp_log_complete(r, w);
}
