/*===- regions.c - compiler region tables, seen from the runtime ---*- C -*-===*\
|*
|* Finds region tables through the ELF note the pass emits next to each one
|* (dl_iterate_phdr walks the PT_NOTE segments of every loaded object, so
|* tables in shared libraries and dlopen'd plugins are found too; __start_/
|* __stop_ symbols would only show the runtime's own object). Registering a
|* table writes the hook slot in its header, which the instrumented code
|* calls before each offload call. The call's record and map arguments wait
|* in a thread-local pending slot until target_emi begin takes them.
|*
|* Objects loaded later: the runtime makes its own symbols global at init,
|* so an instrumented library dlopen'ed afterwards binds its weak
|* __ompdp_region_call to us and registers its table with its first call.
|* Where that cannot work, a construct without a pending call makes the
|* runtime look for new objects, but only when the loader's count of added
|* objects changed, and never twice for the same call site (a lock-free
|* set of code addresses known to have no table), so code built without the
|* plugin costs one hash lookup per construct.
|*
|* Handles: ((table number + 1) << OMPDP_RH_SHIFT) | region index.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "regions.h"

#include <dlfcn.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ompdp/OmpdpFormat.inc"

typedef struct ompdp_rt_header {
#define OMPDP_REGION_HEADER_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_rt_header_t;

typedef struct ompdp_rt_region {
#define OMPDP_REGION_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_rt_region_t;

typedef struct ompdp_rt_item {
#define OMPDP_ITEM_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_rt_item_t;

typedef struct ompdp_rt_call {
#define OMPDP_CALL_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_rt_call_t;

enum {
#define OMPDP_REGION_FLAG(Enum, Bit, Spelling) OMPDP_RF_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};


/* libomptarget's map type bit for a pointer mapped with its pointee, and
 * the bits naming the argument whose member an argument is. */
#define OMPDP_MAPTYPE_PTR_AND_OBJ 0x10
#define OMPDP_MAPTYPE_MEMBER_OF 0xffff000000000000ull

#define OMPDP_RH_SHIFT 20u
#define OMPDP_MAX_TABLES 4095u

static const ompdp_rt_header_t *tables[OMPDP_MAX_TABLES];
static atomic_uint num_tables;
static pthread_mutex_t tables_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_ullong seen_adds;

typedef struct ompdp_call {
  const ompdp_rt_region_t *rec;
  int32_t n;
  void **bases; /* a kernel launch's base pointers (NULL: not known) */
  void **ptrs;
  int64_t *sizes;
  int64_t *types;
  const char **names;
  void **mappers;
  const int16_t *items;
  uint32_t teams_asked, threads_asked; /* a kernel's num_teams, thread_limit (0: none) */
  int kernel; /* a kernel launch: ptrs, sizes and types are its map arguments */
  uint64_t fn; /* the function that holds the call (3.14; 0: not known) */
} ompdp_call_t;

static _Thread_local ompdp_call_t pending __attribute__((tls_model("initial-exec")));
/* The device memory routine this thread is in (its tag ran, the tag after
 * it not yet): its data operations come without a target construct. */
static _Thread_local const ompdp_rt_region_t *routine __attribute__((tls_model("initial-exec")));
static _Thread_local ompdp_call_t active __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t active_handle __attribute__((tls_model("initial-exec")));
/* The argument of the active call that ompdp_regions_match_item matched
 * last (-1: none). */
static _Thread_local int32_t matched_arg __attribute__((tls_model("initial-exec")));

/* The calls constructs run in (OMPDP_CALL_CONTEXT). Per region of every
 * table, allocated when the table registers: for a construct or a tagged
 * call, the distinct tagged calls (handles) it ran in, innermost (for a
 * call: the calls open when it began), the first ones seen, and flags:
 * CTX_SEEN, CTX_OTHER once an execution ran outside any tagged call, in a
 * fifth call, or in one past the depth followed; how often it ran (a
 * construct: each begin; a call: each call). This thread's open calls are
 * a small stack of handles, innermost last: calls deeper than CTX_DEPTH
 * are only counted (ctx_lost).
 *
 * A call through a pointer (OMPDP_RF_INDIRECT_CALLEE) may call another
 * function each time, and a construct that runs in it may be one of a
 * function further down that no tagged call leads to: the stack keeps the
 * function called (ctx_fn), and a construct of another function counts as
 * run outside the calls followed (CTX_OTHER). The call's slot keeps the
 * distinct functions called (fn, and the handle of a construct of each,
 * whose records name it), CTX_MORE when there were more than
 * OMPDP_CONTEXT_CALLS, and CTX_BLIND once an execution ran no construct of
 * the function it called (ctx_hit): then what that function does is not
 * known, and no construct in the call counts as run in known calls. */
#define CTX_SEEN 1u
#define CTX_OTHER 2u
#define CTX_MORE 4u
#define CTX_BLIND 8u
#define CTX_DEPTH 8
typedef struct ctx_slot {
  _Atomic uint32_t call[OMPDP_CONTEXT_CALLS];
  _Atomic uint32_t flags;
  _Atomic uint64_t count;
  _Atomic uint64_t fn[OMPDP_CONTEXT_CALLS];      /* an indirect call: functions called */
  _Atomic uint32_t target[OMPDP_CONTEXT_CALLS];  /* ... a construct of each */
  _Atomic(char *) callees;                        /* ... their names, once described */
  _Atomic uint64_t entries; /* a call: how often its loop began (OMPDP_CALL_LOOP_ENTRY) */
  _Atomic uint64_t in_call[OMPDP_CONTEXT_CALLS]; /* a construct: its begins in each call */
} ctx_slot_t;
static ctx_slot_t *ctx_words[OMPDP_MAX_TABLES];
static _Thread_local uint64_t ctx_fn[CTX_DEPTH] __attribute__((tls_model("initial-exec")));
static _Thread_local uint8_t ctx_hit[CTX_DEPTH] __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t ctx_stack[CTX_DEPTH] __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t ctx_depth __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t ctx_lost __attribute__((tls_model("initial-exec")));

/*===- tables --------------------------------------------------------------===*/

static const ompdp_rt_region_t *region_at(const ompdp_rt_header_t *h,
                                          uint32_t i) {
  return (const ompdp_rt_region_t *)((const char *)h + h->HeaderSize +
                                     (size_t)i * h->RegionSize);
}
static const ompdp_rt_item_t *item_at(const ompdp_rt_header_t *h, uint32_t i) {
  return (const ompdp_rt_item_t *)((const char *)h + h->HeaderSize +
                                   (size_t)h->NumRegions * h->RegionSize +
                                   (size_t)i * h->ItemSize);
}
static const ompdp_host_access_t *host_access_at(const ompdp_rt_header_t *h,
                                                 uint32_t i) {
  return (const ompdp_host_access_t *)((const char *)h + h->HeaderSize +
                                       (size_t)h->NumRegions * h->RegionSize +
                                       (size_t)h->NumItems * h->ItemSize +
                                       (size_t)i * h->HostAccessSize);
}
static const ompdp_exit_t *exit_at(const ompdp_rt_header_t *h, uint32_t i) {
  return (const ompdp_exit_t *)((const char *)h + h->HeaderSize +
                                (size_t)h->NumRegions * h->RegionSize +
                                (size_t)h->NumItems * h->ItemSize +
                                (size_t)h->NumHostAccesses * h->HostAccessSize +
                                (size_t)i * h->ExitSize);
}
static const char *str_at(const ompdp_rt_header_t *h, uint32_t off) {
  if (off >= h->StringsSize)
    return "";
  return (const char *)h + h->TotalSize - h->StringsSize + off;
}

static int no_table_known(uintptr_t pc);
static void no_table_add(uintptr_t pc);

typedef struct mapped_query {
  uintptr_t addr;
  size_t bytes;
} mapped_query_t;

static int find_segment(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  mapped_query_t *q = data;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t b = (uintptr_t)(info->dlpi_addr + ph->p_vaddr);
    if (ph->p_type == PT_LOAD && q->addr >= b && q->addr - b < ph->p_memsz) {
      q->bytes = (size_t)(ph->p_memsz - (q->addr - b));
      return 1;
    }
  }
  return 0;
}

/* Bytes mapped from p to the end of the loaded segment that holds it (0 if
 * no loaded object's segment does): all a table there can use. */
static size_t mapped_bytes(const void *p) {
  mapped_query_t q = {(uintptr_t)p, 0};
  dl_iterate_phdr(find_segment, &q);
  return q.bytes;
}

/* The bounds check (regions_check.c) against the segment the table is in,
 * plus the handle's limit. A refused table is reported once and then
 * remembered (in the set of addresses without a table), so that the calls
 * of its object cost one lookup each and the program runs on, attributed
 * through DWARF. */
static int table_valid(const ompdp_rt_header_t *h) {
  uintptr_t key = (uintptr_t)h;
  if (no_table_known(key))
    return 0;
  char err[160];
  int ok = ompdp_region_table_check(h, mapped_bytes(h), err, sizeof(err)) == 0;
  if (ok && h->NumRegions >= (1u << OMPDP_RH_SHIFT)) {
    snprintf(err, sizeof(err), "%u regions, more than the runtime's limit %u",
             (unsigned)h->NumRegions, (1u << OMPDP_RH_SHIFT) - 1);
    ok = 0;
  }
  if (!ok) {
    Dl_info info;
    const char *obj = dladdr(h, &info) && info.dli_fname && *info.dli_fname
                          ? info.dli_fname
                          : "the program";
    fprintf(stderr, "ompdp: region table in %s ignored: %s\n", obj, err);
    no_table_add(key);
  }
  return ok;
}

/* Registers h once; returns its table number + 1, or 0. */
static uint32_t register_table(ompdp_rt_header_t *h) {
  uint64_t tag = __atomic_load_n(&h->RuntimeTag, __ATOMIC_ACQUIRE);
  if (tag)
    return (uint32_t)tag;
  if (!table_valid(h))
    return 0;
  pthread_mutex_lock(&tables_lock);
  tag = __atomic_load_n(&h->RuntimeTag, __ATOMIC_ACQUIRE);
  if (!tag) {
    unsigned n = atomic_load_explicit(&num_tables, memory_order_relaxed);
    if (n < OMPDP_MAX_TABLES) {
      /* Without its words the table's calls and constructs say nothing of
       * each other (no rewrite at a caller), which costs no correctness. */
      ctx_words[n] = calloc(h->NumRegions ? h->NumRegions : 1, sizeof(*ctx_words[n]));
      tables[n] = h;
      atomic_store_explicit(&num_tables, n + 1, memory_order_release);
      tag = n + 1;
      __atomic_store_n(&h->RuntimeTag, tag, __ATOMIC_RELEASE);
      __atomic_store_n(&h->Hook, (uint64_t)(uintptr_t)&__ompdp_region_call,
                       __ATOMIC_RELEASE);
    }
  }
  pthread_mutex_unlock(&tables_lock);
  return (uint32_t)tag;
}

static size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

static int scan_object(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size;
  int *found = data;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    size_t a = ph->p_align == 8 ? 8 : 4;
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = p + ph->p_memsz;
    while (p + 12 <= end) {
      uint32_t namesz, descsz, type;
      memcpy(&namesz, p, 4);
      memcpy(&descsz, p + 4, 4);
      memcpy(&type, p + 8, 4);
      const char *name = p + 12;
      /* Offsets are aligned from the note's start (matters for a = 8). */
      const char *desc = p + align_up(12 + (size_t)namesz, a);
      const char *next = p + align_up((size_t)(desc - p) + descsz, a);
      if (next > end || next <= p)
        break;
      if (type == OMPDP_REGION_NOTE_TYPE &&
          namesz == sizeof(OMPDP_REGION_NOTE_NAME) &&
          memcmp(name, OMPDP_REGION_NOTE_NAME, namesz) == 0 && descsz == 8) {
        int64_t rel;
        memcpy(&rel, desc, 8);
        if (register_table((ompdp_rt_header_t *)(desc + rel)))
          ++*found;
      }
      p = next;
    }
  }
  return 0;
}

static int first_object_adds(struct dl_phdr_info *info, size_t size,
                             void *data) {
  (void)size;
  *(unsigned long long *)data = info->dlpi_adds;
  return 1;
}

static int rescan(void) {
  unsigned long long adds = 0;
  dl_iterate_phdr(first_object_adds, &adds);
  atomic_store(&seen_adds, adds);
  int found = 0;
  dl_iterate_phdr(scan_object, &found);
  return found;
}

/* Objects dlopen'ed later resolve their weak reference to
 * __ompdp_region_call when they are loaded, but only against objects in the
 * global scope; OMP_TOOL_LIBRARIES loads the runtime without RTLD_GLOBAL. */
static void make_symbols_global(void) {
  Dl_info info;
  if (!dladdr((void *)&__ompdp_region_call, &info) || !info.dli_fname)
    return;
  /* Kept open: the promotion lasts as long as the handle. */
  (void)dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL);
}

int ompdp_regions_init(void) {
  make_symbols_global();
  rescan();
  return (int)atomic_load(&num_tables);
}

int ompdp_regions_num_tables(void) { return (int)atomic_load(&num_tables); }

/* Call sites known to have no table: open addressing, lock-free, never
 * shrinks (a full neighbourhood just means looking again). */
#define OMPDP_NOTABLE_SLOTS 4096u
#define OMPDP_NOTABLE_PROBES 8u
static _Atomic uintptr_t no_table[OMPDP_NOTABLE_SLOTS];

static size_t no_table_hash(uintptr_t pc) {
  uint64_t h = (uint64_t)pc * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 40) & (OMPDP_NOTABLE_SLOTS - 1);
}

static int no_table_known(uintptr_t pc) {
  size_t h = no_table_hash(pc);
  for (unsigned k = 0; k < OMPDP_NOTABLE_PROBES; ++k) {
    uintptr_t v = atomic_load_explicit(&no_table[(h + k) & (OMPDP_NOTABLE_SLOTS - 1)],
                                       memory_order_relaxed);
    if (v == pc)
      return 1;
    if (!v)
      return 0;
  }
  return 0;
}

static void no_table_add(uintptr_t pc) {
  size_t h = no_table_hash(pc);
  for (unsigned k = 0; k < OMPDP_NOTABLE_PROBES; ++k) {
    _Atomic uintptr_t *slot = &no_table[(h + k) & (OMPDP_NOTABLE_SLOTS - 1)];
    uintptr_t expected = 0;
    if (atomic_compare_exchange_strong_explicit(slot, &expected, pc, memory_order_relaxed,
                                                memory_order_relaxed) ||
        expected == pc)
      return;
  }
}

/* A construct came without a pending call: its code has no table, or its
 * object was loaded after the last scan and could not reach us. Look for
 * new objects once per call site, and only if some were loaded. */
static void rescan_if_new_objects(const void *codeptr_ra) {
  uintptr_t pc = (uintptr_t)codeptr_ra;
  if (pc && no_table_known(pc))
    return;
  unsigned long long adds = 0;
  dl_iterate_phdr(first_object_adds, &adds);
  if (adds != atomic_load(&seen_adds))
    rescan();
  if (pc)
    no_table_add(pc);
}

/*===- the per-thread call -------------------------------------------------===*/

/* struct __tgt_kernel_arguments of LLVM 19 (version 3), as far as read;
 * the team and thread counts are there from version 2 on. */
typedef struct ompdp_kernel_args {
  uint32_t version, num_args;
  void **bases, **ptrs;
  int64_t *sizes, *types;
  const char **names;
  void **mappers;
  uint64_t tripcount, flags;
  uint32_t num_teams[3], thread_limit[3];
} ompdp_kernel_args_t;

/* The _async copies whose operation has not come yet: it runs in a task,
 * after the call returned, maybe on another thread. A small ring under a
 * lock: these calls are few, and each moves a buffer. */
#define OMPDP_ASYNC_SLOTS 64u
static struct {
  uint64_t dst, src; /* src 0: any (omp_target_memset_async) */
  const ompdp_rt_region_t *rec;
} async_calls[OMPDP_ASYNC_SLOTS];
static unsigned async_next;
static atomic_uint async_live;
static pthread_mutex_t async_lock = PTHREAD_MUTEX_INITIALIZER;

static void async_remember(const ompdp_rt_region_t *rec, void *dst, void *src) {
  pthread_mutex_lock(&async_lock);
  unsigned i = async_next++ % OMPDP_ASYNC_SLOTS;
  if (!async_calls[i].rec)
    atomic_fetch_add(&async_live, 1);
  async_calls[i].dst = (uint64_t)(uintptr_t)dst;
  async_calls[i].src = (uint64_t)(uintptr_t)src;
  async_calls[i].rec = rec;
  pthread_mutex_unlock(&async_lock);
}

/* The call whose copy this is, taken out of the ring; NULL if none. */
static const ompdp_rt_region_t *async_take(uint64_t dst, uint64_t src) {
  if (!atomic_load_explicit(&async_live, memory_order_relaxed))
    return NULL;
  const ompdp_rt_region_t *rec = NULL;
  pthread_mutex_lock(&async_lock);
  for (unsigned k = 0; k < OMPDP_ASYNC_SLOTS && !rec; ++k) {
    /* Oldest first: the copies of one buffer come in the calls' order. */
    unsigned i = (async_next + k) % OMPDP_ASYNC_SLOTS;
    if (async_calls[i].rec && async_calls[i].dst == dst &&
        (!async_calls[i].src || async_calls[i].src == src)) {
      rec = async_calls[i].rec;
      async_calls[i].rec = NULL;
      atomic_fetch_sub(&async_live, 1);
    }
  }
  pthread_mutex_unlock(&async_lock);
  return rec;
}

static const ompdp_rt_header_t *header_of(const ompdp_rt_region_t *r);
static void context_note(uint32_t t, uint32_t index, int runs, uint64_t fn);

static ctx_slot_t *ctx_slot(uint32_t handle) {
  uint32_t t = handle >> OMPDP_RH_SHIFT;
  uint32_t idx = handle & ((1u << OMPDP_RH_SHIFT) - 1);
  if (!t || t > atomic_load_explicit(&num_tables, memory_order_acquire) || !ctx_words[t - 1] ||
      idx >= tables[t - 1]->NumRegions)
    return NULL;
  return &ctx_words[t - 1][idx];
}

static void ctx_flag(ctx_slot_t *w, uint32_t flags) {
  if (w && (atomic_load_explicit(&w->flags, memory_order_relaxed) & flags) != flags)
    atomic_fetch_or_explicit(&w->flags, flags, memory_order_relaxed);
}

/* A tagged call begins (returned == 0; fn: the function a call through a
 * pointer calls) or ends. An end closes the innermost open call with the
 * same handle and every call inside it (a longjmp out of them left them
 * open); one that is not open ends one of the calls too deep to follow, if
 * any. */
static void context_call(const ompdp_rt_region_t *rec, int returned, uint64_t fn) {
  uint32_t t = register_table((ompdp_rt_header_t *)header_of(rec));
  if (!t)
    return;
  uint32_t handle = (t << OMPDP_RH_SHIFT) | rec->Index;
  if (!returned) {
    /* Its executions, and the calls it ran in, as for a construct: where
     * the construct's call is in no loop, the call of its function says
     * what repeats it. */
    context_note(t, rec->Index, 1, 0);
    if (ctx_lost || ctx_depth == CTX_DEPTH) {
      ++ctx_lost;
    } else {
      ctx_fn[ctx_depth] = (rec->Flags & OMPDP_RF_INDIRECT_CALLEE) ? (fn ? fn : 1) : 0;
      ctx_hit[ctx_depth] = 0;
      ctx_stack[ctx_depth++] = handle;
    }
    return;
  }
  if (ctx_lost) {
    --ctx_lost;
    return;
  }
  for (uint32_t i = ctx_depth; i-- > 0;)
    if (ctx_stack[i] == handle) {
      for (uint32_t k = i; k < ctx_depth; ++k)
        if (ctx_fn[k] && !ctx_hit[k])
          ctx_flag(ctx_slot(ctx_stack[k]), CTX_BLIND);
      ctx_depth = i;
      return;
    }
}

/* A construct of function fn runs in the open call through a pointer at
 * depth d: whether fn is the function called, noted in the call's slot
 * (as one of the functions it called, with handle, the construct's). */
static int indirect_note(uint32_t d, uint64_t fn, uint32_t handle) {
  if (!fn || fn != ctx_fn[d])
    return 0;
  ctx_slot_t *c = ctx_slot(ctx_stack[d]);
  if (!c)
    return 0;
  ctx_hit[d] = 1;
  for (int i = 0; i < OMPDP_CONTEXT_CALLS; ++i) {
    uint64_t v = atomic_load_explicit(&c->fn[i], memory_order_relaxed);
    if (!v && atomic_compare_exchange_strong_explicit(&c->fn[i], &v, fn, memory_order_relaxed,
                                                      memory_order_relaxed)) {
      atomic_store_explicit(&c->target[i], handle, memory_order_relaxed);
      return 1;
    }
    if (v == fn)
      return 1;
  }
  ctx_flag(c, CTX_MORE);
  return 1;
}

/* Notes that construct or call (t, index) runs in this thread's innermost
 * open call: one of its slots, the first free one for a call not seen
 * yet. fn: a construct's function (0 for a call), which must be the one a
 * call through a pointer called. */
static void context_note(uint32_t t, uint32_t index, int runs, uint64_t fn) {
  ctx_slot_t *w = ctx_words[t - 1] ? &ctx_words[t - 1][index] : NULL;
  if (!w)
    return;
  uint32_t flags = CTX_SEEN;
  if (runs)
    atomic_fetch_add_explicit(&w->count, 1, memory_order_relaxed); /* its executions */
  uint32_t cur = ctx_lost || !ctx_depth ? 0 : ctx_stack[ctx_depth - 1];
  if (cur && ctx_fn[ctx_depth - 1] &&
      (!fn || !indirect_note(ctx_depth - 1, fn, (t << OMPDP_RH_SHIFT) | index)))
    cur = 0; /* a construct of a function further down (or a call in one) */
  if (!cur) {
    flags |= CTX_OTHER;
  } else {
    int found = 0;
    for (int i = 0; i < OMPDP_CONTEXT_CALLS && !found; ++i) {
      uint32_t v = atomic_load_explicit(&w->call[i], memory_order_relaxed);
      if (!v && atomic_compare_exchange_strong_explicit(&w->call[i], &v, cur,
                                                        memory_order_relaxed,
                                                        memory_order_relaxed))
        v = cur;
      found = v == cur;
      if (found && runs)
        atomic_fetch_add_explicit(&w->in_call[i], 1, memory_order_relaxed);
    }
    if (!found)
      flags |= CTX_OTHER;
  }
  ctx_flag(w, flags);
}

/* Whether region o of table h is an instance of r's template construct
 * (file: r's): a region of a template at the same place, of the same kind
 * (r itself too). */
static int same_instance_place(const ompdp_rt_header_t *h, const ompdp_rt_region_t *r,
                               const ompdp_rt_region_t *o, const char *file) {
  return o->Line == r->Line && o->Column == r->Column && o->Kind == r->Kind &&
         (o->Flags & OMPDP_RF_IN_TEMPLATE) && !strcmp(str_at(h, o->File), file);
}

int ompdp_regions_context(uint32_t region, ompdp_context_t *out) {
  uint32_t t = region >> OMPDP_RH_SHIFT;
  uint32_t idx = region & ((1u << OMPDP_RH_SHIFT) - 1);
  memset(out, 0, sizeof(*out));
  if (t == 0 || t > atomic_load_explicit(&num_tables, memory_order_acquire) || !ctx_words[t - 1] ||
      idx >= tables[t - 1]->NumRegions)
    return -1;
  const ctx_slot_t *w = &ctx_words[t - 1][idx];
  uint32_t flags = atomic_load_explicit(&w->flags, memory_order_relaxed);
  if (!(flags & CTX_SEEN))
    return -1;
  out->other = (flags & CTX_OTHER) != 0;
  out->runs = atomic_load_explicit(&w->count, memory_order_relaxed);
  for (int i = 0; i < OMPDP_CONTEXT_CALLS; ++i) {
    out->calls[i] = atomic_load_explicit(&w->call[i], memory_order_relaxed);
    out->targets[i] = atomic_load_explicit(&w->target[i], memory_order_relaxed);
    out->call_runs[i] = atomic_load_explicit(&w->in_call[i], memory_order_relaxed);
    /* A call through a pointer that called more functions than followed,
     * or one whose constructs it did not see: what runs in it is not all
     * known. */
    const ctx_slot_t *c = out->calls[i] ? ctx_slot(out->calls[i]) : NULL;
    if (c && (atomic_load_explicit(&c->flags, memory_order_relaxed) & (CTX_MORE | CTX_BLIND)))
      out->other = 1;
  }
  const ompdp_rt_header_t *h = tables[t - 1];
  const ompdp_rt_region_t *r = region_at(h, idx);
  if (r->Flags & OMPDP_RF_IN_TEMPLATE) {
    /* The other instances of its template (as describe counts them) that
     * never began. */
    const char *file = str_at(h, r->File);
    for (uint32_t k = 0; k < h->NumRegions; ++k) {
      const ompdp_rt_region_t *o = region_at(h, k);
      if (k == idx || !same_instance_place(h, r, o, file) ||
          (atomic_load_explicit(&ctx_words[t - 1][k].flags, memory_order_relaxed) & CTX_SEEN))
        continue;
      if (out->num_unrun == OMPDP_CONTEXT_UNRUN)
        out->unrun_more = 1;
      else
        out->unrun[out->num_unrun++] = (t << OMPDP_RH_SHIFT) | k;
    }
  }
  uint32_t c0 = out->calls[0];
  uint32_t ct = c0 >> OMPDP_RH_SHIFT, ci = c0 & ((1u << OMPDP_RH_SHIFT) - 1);
  if (c0 && ct && ct <= atomic_load_explicit(&num_tables, memory_order_acquire) &&
      ctx_words[ct - 1] && ci < tables[ct - 1]->NumRegions)
    out->count = atomic_load_explicit(&ctx_words[ct - 1][ci].count, memory_order_relaxed);
  return 0;
}

void __ompdp_region_call(const void *descriptor, void *a, void *b, void *c) {
  const ompdp_rt_call_t *d = descriptor;
  if ((d->Flags & OMPDP_CALL_CONTEXT) && (d->Flags & OMPDP_CALL_LOOP_ENTRY)) {
    const ompdp_rt_region_t *rec = (const ompdp_rt_region_t *)(uintptr_t)d->Record;
    uint32_t t = register_table((ompdp_rt_header_t *)header_of(rec));
    if (t && ctx_words[t - 1])
      atomic_fetch_add_explicit(&ctx_words[t - 1][rec->Index].entries, 1, memory_order_relaxed);
    return;
  }
  if (d->Flags & OMPDP_CALL_CONTEXT) {
    context_call((const ompdp_rt_region_t *)(uintptr_t)d->Record,
                 (uintptr_t)a == OMPDP_CALL_RETURNED, (uint64_t)(uintptr_t)a);
    return;
  }
  if (d->Flags & OMPDP_CALL_ROUTINE) {
    const ompdp_rt_region_t *rec = (const ompdp_rt_region_t *)(uintptr_t)d->Record;
    routine = (uintptr_t)a == OMPDP_CALL_RETURNED ? NULL : rec;
    if (routine && b)
      async_remember(rec, b, c);
    return;
  }
  pending.rec = (const ompdp_rt_region_t *)(uintptr_t)d->Record;
  pending.items = (const int16_t *)(uintptr_t)d->Items;
  pending.fn = d->Function;
  if (d->Flags & OMPDP_CALL_KERNEL) {
    const ompdp_kernel_args_t *k = a;
    pending.n = k ? (int32_t)k->num_args : 0;
    pending.bases = k ? k->bases : NULL;
    pending.ptrs = k ? k->ptrs : NULL;
    pending.sizes = k ? k->sizes : NULL;
    pending.types = k ? k->types : NULL;
    pending.names = k ? k->names : NULL;
    pending.mappers = k ? k->mappers : NULL;
    pending.teams_asked = k && k->version >= 2 ? k->num_teams[0] : 0;
    pending.threads_asked = k && k->version >= 2 ? k->thread_limit[0] : 0;
    pending.kernel = k != NULL;
    /* Items were matched for the arguments the compiler saw. */
    if (d->NumArgs != (uint32_t)pending.n)
      pending.items = NULL;
    return;
  }
  pending.kernel = 0;
  pending.bases = NULL;
  pending.n = (int32_t)d->NumArgs;
  pending.ptrs = a;
  pending.sizes = b ? b : (int64_t *)(uintptr_t)d->Sizes;
  pending.types = (int64_t *)(uintptr_t)d->Types;
  pending.names = (const char **)(uintptr_t)d->Names;
  pending.mappers = c ? c : (void **)(uintptr_t)d->Mappers;
}

static const ompdp_rt_header_t *header_of(const ompdp_rt_region_t *r) {
  /* Index and sizes are fixed by the format, so the header is found from
   * any record without a search. */
  return (const ompdp_rt_header_t *)((const char *)r -
                                     sizeof(ompdp_rt_header_t) -
                                     (size_t)r->Index *
                                         sizeof(ompdp_rt_region_t));
}

uint32_t ompdp_regions_routine(uint64_t src, uint64_t dst, uint32_t *num_items) {
  const ompdp_rt_region_t *r = routine;
  *num_items = 0;
  if (!r)
    r = async_take(dst, src);
  else if (r->Kind == OMPDP_CK_TARGET_MEMCPY_ASYNC || r->Kind == OMPDP_CK_TARGET_MEMSET_ASYNC)
    (void)async_take(dst, src); /* its task ran inside the call: nothing to wait for */
  if (!r)
    return 0;
  uint32_t t = register_table((ompdp_rt_header_t *)header_of(r));
  if (!t)
    return 0;
  *num_items = r->NumItems;
  return (t << OMPDP_RH_SHIFT) | r->Index;
}

uint32_t ompdp_regions_begin(const void *codeptr_ra, int exit_part) {
  /* A routine called through an invoke has no tag after it; no construct
   * begins inside a routine. */
  routine = NULL;
  active = pending;
  memset(&pending, 0, sizeof(pending));
  active_handle = 0;
  if (!active.rec) {
    rescan_if_new_objects(codeptr_ra);
    return 0;
  }
  /* Reached through the weak symbol before the table was registered. */
  uint32_t t = register_table((ompdp_rt_header_t *)header_of(active.rec));
  if (!t) {
    memset(&active, 0, sizeof(active));
    return 0;
  }
  active_handle = (t << OMPDP_RH_SHIFT) | active.rec->Index;
  /* A `target data` is two offload calls, its begin and its end: one
   * execution. */
  context_note(t, active.rec->Index,
               !(exit_part && active.rec->Kind == OMPDP_CK_TARGET_DATA), active.fn);
  return active_handle;
}

int ompdp_regions_kernel_args(int32_t *n, void *const **ptrs, const int64_t **sizes,
                              const int64_t **types) {
  if (!active.rec || !active.kernel || active.n < 0 || (active.n && (!active.ptrs || !active.types)))
    return -1;
  *n = active.n;
  *ptrs = active.ptrs;
  *sizes = active.sizes;
  *types = active.types;
  return 0;
}

void ompdp_regions_kernel_asks(uint32_t *teams, uint32_t *threads) {
  *teams = active.teams_asked;
  *threads = active.threads_asked;
}

void ompdp_regions_end(void) {
  memset(&active, 0, sizeof(active));
  active_handle = 0;
}

/* ";expr;file;line;col;;" (Clang's .offload_mapnames) -> parts. */
static int parse_map_name(const char *s, const char **expr, size_t *expr_len,
                          uint32_t *line, uint32_t *col) {
  if (!s || s[0] != ';')
    return 0;
  const char *end = s + strlen(s);
  if (end - s < 3 || end[-1] != ';' || end[-2] != ';')
    return 0;
  end -= 2; /* at ";;" */
  const char *c = end;
  while (c > s && c[-1] != ';')
    --c;
  const char *l = c - 1;
  while (l > s && l[-1] != ';')
    --l;
  const char *f = l - 1;
  while (f > s && f[-1] != ';')
    --f;
  if (f <= s + 1)
    return 0;
  *expr = s + 1;
  *expr_len = (size_t)(f - 1 - (s + 1));
  unsigned long lv = 0, cv = 0;
  for (const char *p = l; p < c - 1; ++p)
    lv = lv * 10 + (unsigned long)(*p - '0');
  for (const char *p = c; p < end; ++p)
    cv = cv * 10 + (unsigned long)(*p - '0');
  *line = (uint32_t)lv;
  *col = (uint32_t)cv;
  return 1;
}

static int item_for_arg(const ompdp_rt_region_t *r, int32_t arg) {
  /* The compiler's match, when it made one. */
  if (active.items && active.items[arg] >= 0 &&
      (uint32_t)active.items[arg] < r->NumItems)
    return active.items[arg];
  const ompdp_rt_header_t *h = header_of(r);
  const char *expr;
  size_t len;
  uint32_t line, col;
  if (active.names && parse_map_name(active.names[arg], &expr, &len, &line,
                                     &col)) {
    int by_decl = -1, by_name = -1, n_decl = 0;
    for (uint32_t i = 0; i < r->NumItems; ++i) {
      const ompdp_rt_item_t *it = item_at(h, r->FirstItem + i);
      const char *m = str_at(h, it->MatchName);
      int same_name = strlen(m) == len && memcmp(m, expr, len) == 0;
      int same_decl = it->DeclLine == line && it->DeclColumn == col;
      if (same_name && same_decl)
        return (int)i;
      if (same_name && by_name < 0)
        by_name = (int)i;
      if (same_decl) {
        by_decl = (int)i;
        ++n_decl;
      }
    }
    if (by_name >= 0)
      return by_name;
    if (n_decl == 1)
      return by_decl;
  }
  /* No usable name: one item only is unambiguous. */
  return r->NumItems == 1 ? 0 : -1;
}

int ompdp_regions_kernel_arg_item(int32_t arg) {
  if (!active.rec || !active.kernel || arg < 0 || arg >= active.n)
    return -1;
  return item_for_arg(active.rec, arg);
}

int ompdp_regions_match_item(uint64_t host_addr, uint64_t bytes) {
  const ompdp_rt_region_t *r = active.rec;
  matched_arg = -1;
  if (!r || !active.ptrs || active.n <= 0)
    return -1;
  int32_t best = -1;
  uint64_t best_size = UINT64_MAX;
  for (int32_t j = 0; j < active.n; ++j) {
    uint64_t p = (uint64_t)(uintptr_t)active.ptrs[j];
    uint64_t s = active.sizes ? (uint64_t)active.sizes[j] : 0;
    int inside = s ? (host_addr >= p && host_addr - p < s &&
                      bytes <= s - (host_addr - p))
                   : host_addr == p;
    /* The most specific argument wins (a member over its struct). */
    if (inside && s < best_size) {
      best = j;
      best_size = s;
    }
  }
  if (best >= 0) {
    matched_arg = best;
    return item_for_arg(r, best);
  }
  /* Operations with a host address no argument holds:
   * - attaching a pointer: libomptarget copies the device address of the
   *   pointee into the device's pointer from a variable of its own; it
   *   belongs to the pointer-and-pointee argument, if only one item has
   *   one (OMP_TGT_MAPTYPE_PTR_AND_OBJ);
   * - pushed by a user-defined mapper: the components of the one item
   *   mapped through a mapper, if only one is. */
  int item = -1;
  if (bytes == sizeof(void *) && active.types) {
    for (int32_t j = 0; j < active.n; ++j) {
      if (!(active.types[j] & OMPDP_MAPTYPE_PTR_AND_OBJ))
        continue;
      int i = item_for_arg(r, j);
      if (i < 0 || (item >= 0 && i != item)) {
        item = -1;
        break;
      }
      item = i;
    }
    if (item >= 0)
      return item;
  }
  for (int32_t j = 0; active.mappers && j < active.n; ++j) {
    if (!active.mappers[j])
      continue;
    int i = item_for_arg(r, j);
    if (i < 0 || (item >= 0 && i != item))
      return -1;
    item = i;
  }
  return item;
}

/*===- where a section begins ----------------------------------------------===*/

int ompdp_regions_section_lower(int item, uint64_t *bytes) {
  const ompdp_rt_region_t *r = active.rec;
  int32_t j = matched_arg;
  if (!r || !active.kernel || !active.bases || !active.types || j < 0 || j >= active.n ||
      item < 0 || (uint32_t)item >= r->NumItems)
    return -1;
  const ompdp_rt_item_t *it = item_at(header_of(r), r->FirstItem + (uint32_t)item);
  if (!(it->AccessFlags & OMPDP_IA_SECTION_END) || item_for_arg(r, j) != item)
    return -1;
  /* A pointer of its own or a struct member: the base is not the array's
   * first element. */
  if ((uint64_t)active.types[j] & (OMPDP_MAPTYPE_PTR_AND_OBJ | OMPDP_MAPTYPE_MEMBER_OF))
    return -1;
  uint64_t base = (uint64_t)(uintptr_t)active.bases[j];
  uint64_t begin = (uint64_t)(uintptr_t)active.ptrs[j];
  if (!base || begin < base)
    return -1;
  *bytes = begin - base;
  return 0;
}

/* Operation id -> its section's lower bound in bytes (+ 1; UINT64_MAX:
 * the operation came with different ones). Only operations of SECTION_END
 * items come here, a few sites: a small table under a lock. */
#define LOWER_SLOTS 4096u
static struct {
  uint32_t op; /* + 1; 0: free */
  uint64_t lower;
} lowers[LOWER_SLOTS];
static pthread_mutex_t lowers_lock = PTHREAD_MUTEX_INITIALIZER;

static uint32_t lower_slot(uint32_t op) { return (op * 2654435761u) % LOWER_SLOTS; }

void ompdp_regions_note_lower(uint32_t op, uint64_t bytes) {
  pthread_mutex_lock(&lowers_lock);
  for (uint32_t k = 0, i = lower_slot(op); k < LOWER_SLOTS; ++k, i = (i + 1) % LOWER_SLOTS) {
    if (lowers[i].op == op + 1) {
      if (lowers[i].lower != bytes + 1)
        lowers[i].lower = UINT64_MAX;
      break;
    }
    if (!lowers[i].op) {
      lowers[i].op = op + 1;
      lowers[i].lower = bytes + 1;
      break;
    }
  }
  /* A full table drops the note: the operation then has no finding. */
  pthread_mutex_unlock(&lowers_lock);
}

int ompdp_regions_op_lower(uint32_t op, uint64_t *bytes) {
  int rc = -1;
  pthread_mutex_lock(&lowers_lock);
  for (uint32_t k = 0, i = lower_slot(op); k < LOWER_SLOTS && lowers[i].op;
       ++k, i = (i + 1) % LOWER_SLOTS)
    if (lowers[i].op == op + 1) {
      if (lowers[i].lower != UINT64_MAX) {
        *bytes = lowers[i].lower - 1;
        rc = 0;
      }
      break;
    }
  pthread_mutex_unlock(&lowers_lock);
  return rc;
}

/*===- describe ------------------------------------------------------------===*/

/* The functions a call through a pointer (region idx of table t) called,
 * as their constructs' records name them, one per line: "" when the run
 * does not know them all (more than followed, an execution that ran no
 * construct of the function it called, or none seen). Made once; the
 * slot keeps it. */
static const char *indirect_callees(uint32_t t, uint32_t idx) {
  ctx_slot_t *w = ctx_words[t - 1] ? &ctx_words[t - 1][idx] : NULL;
  if (!w)
    return "";
  char *have = atomic_load_explicit(&w->callees, memory_order_acquire);
  if (have)
    return have;
  uint32_t flags = atomic_load_explicit(&w->flags, memory_order_relaxed);
  size_t len = 0, n = 0;
  const char *names[OMPDP_CONTEXT_CALLS];
  for (int i = 0; i < OMPDP_CONTEXT_CALLS; ++i) {
    uint32_t g = atomic_load_explicit(&w->target[i], memory_order_relaxed);
    uint32_t gt = g >> OMPDP_RH_SHIFT, gi = g & ((1u << OMPDP_RH_SHIFT) - 1);
    if (!g || gt > atomic_load_explicit(&num_tables, memory_order_acquire) ||
        gi >= tables[gt - 1]->NumRegions)
      continue;
    const ompdp_rt_header_t *gh = tables[gt - 1];
    const char *name = str_at(gh, region_at(gh, gi)->Function);
    int dup = 0;
    for (size_t k = 0; k < n && !dup; ++k)
      dup = !strcmp(names[k], name);
    if (!dup && *name) {
      names[n++] = name;
      len += strlen(name) + 1;
    }
  }
  if (!n || (flags & (CTX_MORE | CTX_BLIND)))
    return "";
  char *list = malloc(len);
  if (!list)
    return "";
  char *q = list;
  for (size_t k = 0; k < n; ++k) {
    size_t l = strlen(names[k]);
    memcpy(q, names[k], l);
    q += l;
    *q++ = k + 1 < n ? '\n' : '\0';
  }
  char *expected = NULL;
  if (!atomic_compare_exchange_strong_explicit(&w->callees, &expected, list,
                                               memory_order_acq_rel, memory_order_acquire)) {
    free(list);
    return expected;
  }
  return list;
}

/* A call's executions, and how often its loop began: the loop-entry tag
 * counts for the first call recorded in the loop, so any call of the same
 * table in the same loop says it. */
static void call_counts(uint32_t t, uint32_t idx, ompdp_region_info_t *out) {
  const ctx_slot_t *w = ctx_words[t - 1];
  if (!w)
    return;
  uint64_t runs = atomic_load_explicit(&w[idx].count, memory_order_relaxed);
  out->call_runs = runs > UINT32_MAX ? UINT32_MAX : (uint32_t)runs;
  const ompdp_rt_header_t *h = tables[t - 1];
  const ompdp_rt_region_t *r = region_at(h, idx);
  if (!r->LoopLength)
    return;
  uint64_t e = 0;
  for (uint32_t k = 0; k < h->NumRegions && !e; ++k) {
    const ompdp_rt_region_t *o = region_at(h, k);
    if (o->Kind == OMPDP_CK_CALL && o->LoopOffset == r->LoopOffset &&
        o->LoopLength == r->LoopLength && !strcmp(str_at(h, o->SourceFile), str_at(h, r->SourceFile)) &&
        !strcmp(str_at(h, o->Function), str_at(h, r->Function)))
      e = atomic_load_explicit(&w[k].entries, memory_order_relaxed);
  }
  out->loop_entries = e > UINT32_MAX ? UINT32_MAX : (uint32_t)e;
}

int ompdp_regions_describe(uint32_t region, int item,
                           ompdp_region_info_t *out) {
  uint32_t t = region >> OMPDP_RH_SHIFT;
  uint32_t idx = region & ((1u << OMPDP_RH_SHIFT) - 1);
  if (!out || t == 0 || t > atomic_load_explicit(&num_tables,
                                                 memory_order_acquire))
    return -1;
  const ompdp_rt_header_t *h = tables[t - 1];
  if (idx >= h->NumRegions)
    return -1;
  const ompdp_rt_region_t *r = region_at(h, idx);
  if (item >= 0 && (uint32_t)item >= r->NumItems)
    return -1;
  memset(out, 0, sizeof(*out));
  out->id = r->Id;
  out->construct = r->Kind < OMPDP_CK_COUNT ? (ompdp_construct_kind_t)r->Kind : OMPDP_CK_UNKNOWN;
  out->file = str_at(h, r->File);
  out->function = str_at(h, r->Function);
  out->line = r->Line;
  out->column = r->Column;
  out->end_line = r->EndLine;
  out->end_column = r->EndColumn;
  out->nowait = (r->Flags & OMPDP_RF_NOWAIT) != 0;
  out->num_items = r->NumItems;
  ompdp_loop_kind_t lk = ompdp_loop_kind_parse(str_at(h, r->LoopKind));
  out->loop_kind = lk < OMPDP_LK_COUNT ? lk : OMPDP_LK_FOR; /* a loop of a newer kind */
  out->loop_line = r->LoopLine;
  out->loop_column = r->LoopColumn;
  out->loop_end_line = r->LoopEndLine;
  out->loop_end_column = r->LoopEndColumn;
  out->source_file = str_at(h, r->SourceFile);
  out->file_hash = r->FileHash;
  out->directive_offset = r->DirectiveOffset;
  out->directive_length = r->DirectiveLength;
  out->loop_offset = r->LoopOffset;
  out->loop_length = r->LoopLength;
  out->directive = str_at(h, r->Directive);
  out->other_clauses = str_at(h, r->OtherClauses);
  out->arguments = str_at(h, r->Arguments);
  out->stmt_text = str_at(h, r->StmtText);
  out->args_invariant = (r->Flags & OMPDP_RF_ARGS_INVARIANT) != 0;
  out->in_loop_body = (r->Flags & OMPDP_RF_IN_LOOP_BODY) != 0;
  out->stmt_is_decl = (r->Flags & OMPDP_RF_DECL_STMT) != 0;
  out->stmt_line = r->StmtLine;
  out->stmt_column = r->StmtColumn;
  out->stmt_end_line = r->StmtEndLine;
  out->stmt_end_column = r->StmtEndColumn;
  out->stmt_offset = r->StmtOffset;
  out->stmt_length = r->StmtLength;
  out->block = r->Block;
  out->block_index = r->BlockIndex;
  out->block_decls = r->BlockDecls;
  out->block_jumps = r->BlockJumps;
  out->block_branch = r->BlockBranch;
  out->stmt_own_lines = (r->Flags & OMPDP_RF_OWN_LINES) != 0;
  out->loop_stmt_end_line = r->LoopStmtEndLine;
  out->loop_own_lines = (r->Flags & OMPDP_RF_LOOP_OWN_LINES) != 0;
  if (r->NumExits) {
    out->exits = exit_at(h, r->FirstExit);
    out->num_exits = r->NumExits;
  }
  out->compile_dir = str_at(h, r->CompileDir);
  out->compile_args = str_at(h, r->CompileArgs);
  out->callee = str_at(h, r->Callee);
  out->parameters = str_at(h, r->Parameters);
  out->fn_parameters = str_at(h, r->FnParameters);
  out->fn_param_uses = str_at(h, r->FnParamUses);
  out->param_args = str_at(h, r->ParamArgs);
  out->extern_callee = (r->Flags & OMPDP_RF_EXTERN_CALLEE) != 0;
  if (r->Flags & OMPDP_RF_INDIRECT_CALLEE) {
    out->indirect_callee = 1;
    out->callee = indirect_callees(t, idx);
  }
  if (r->Kind == OMPDP_CK_CALL)
    call_counts(t, idx, out);
  if (r->Flags & OMPDP_RF_IN_TEMPLATE) {
    /* Each instance of a template is a region of its own, at the same
     * place: one edit there changes them all. */
    const char *file = out->file;
    for (uint32_t k = 0; k < h->NumRegions; ++k) {
      const ompdp_rt_region_t *o = region_at(h, k);
      out->instances += same_instance_place(h, r, o, file);
    }
  }
  out->access = OMPDP_ACCESS_UNKNOWN;
  out->map_type = OMPDP_MT_NONE;
  out->variable = out->expr = out->clause = "";
  out->fill_type = out->fill_lower = out->fill_length = "";
  out->section_lower = out->section_length = "";
  if (item < 0)
    return 0;
  const ompdp_rt_item_t *it = item_at(h, r->FirstItem + (uint32_t)item);
  out->variable = str_at(h, it->Name);
  out->expr = str_at(h, it->Expr);
  out->clause = str_at(h, it->Clause);
  out->map_type = it->MapType < OMPDP_MT_COUNT ? (ompdp_map_type_t)it->MapType : OMPDP_MT_NONE;
  out->modifiers = it->Modifiers;
  out->implicit = (it->Modifiers & OMPDP_MOD_IMPLICIT) != 0;
  out->clause_line = it->ClauseLine;
  out->clause_column = it->ClauseColumn;
  out->clause_end_line = it->ClauseEndLine;
  out->clause_end_column = it->ClauseEndColumn;
  out->item_line = it->ItemLine;
  out->item_column = it->ItemColumn;
  out->item_end_line = it->ItemEndLine;
  out->item_end_column = it->ItemEndColumn;
  out->clause_offset = it->ClauseOffset;
  out->clause_length = it->ClauseLength;
  out->item_offset = it->ItemOffset;
  out->item_length = it->ItemLength;
  out->access =
      it->Access < OMPDP_ACCESS_COUNT ? (ompdp_access_t)it->Access : OMPDP_ACCESS_UNKNOWN;
  out->access_flags = it->AccessFlags;
  out->fill_flags = it->FillFlags;
  out->fill_elem_size = it->FillElemSize;
  out->fill_count = it->FillCount;
  out->fill_type = str_at(h, it->FillType);
  out->fill_lower = str_at(h, it->FillLower);
  out->fill_length = str_at(h, it->FillLength);
  out->use_flags = it->UseFlags;
  out->use_begin_line = it->UseBeginLine;
  out->use_begin_column = it->UseBeginColumn;
  out->use_begin_offset = it->UseBeginOffset;
  out->use_lead_line = it->UseLeadLine;
  out->use_lead_column = it->UseLeadColumn;
  out->use_end_line = it->UseEndLine;
  out->use_end_column = it->UseEndColumn;
  out->use_end_offset = it->UseEndOffset;
  out->use_tail_line = it->UseTailLine;
  out->use_tail_column = it->UseTailColumn;
  out->use_indent = it->UseIndent;
  out->section_skip = (int32_t)it->SectionSkip;
  out->section_end = (int32_t)it->SectionEnd;
  out->section_elem_size = it->SectionElemSize;
  out->section_lower = str_at(h, it->SectionLower);
  out->section_length = str_at(h, it->SectionLength);
  if (it->NumHostAccesses) {
    out->host_accesses = host_access_at(h, it->FirstHostAccess);
    out->num_host_accesses = it->NumHostAccesses;
  }
  return 0;
}
