/*===- provision.c - kernels that ran with fewer teams or threads ---*- C -*-===*\
|*
|* On offload to the host a kernel runs in libomp's own teams and parallel
|* regions, which OMPT reports like any other: parallel_begin says how many
|* teams or threads a region asked for, implicit_task how many it got. A
|* kernel asking for num_teams(16) thread_limit(256) may get 2 teams of 1
|* thread on a small machine; one that splits its work by
|* omp_get_num_threads() then does other work than on a GPU, and its data
|* may "come back unchanged". The report says so for each such kernel,
|* since what ompdp found about its data may not be representative.
|*
|* The launch (target_submit_emi, on the launching thread) makes the
|* kernel's entry this thread's current one; a league or parallel region
|* this thread begins meanwhile points its parallel_data at the entry, and
|* each of its implicit tasks its task_data, so that the parallel regions
|* of the teams, on threads of their own, find it too. A GPU's kernels run
|* no host region: nothing is recorded for them.
|*
|* What counts as asked: num_teams (the launch's requested_num_teams, or
|* the compiler's kernel arguments), thread_limit (kernel arguments: only
|* with the plugin), and a parallel region's requested count when it is
|* more than the host's processors (a num_threads clause, or
|* OMP_NUM_THREADS: the default, one thread per processor, is no request).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "attribution.h"
#include "callbacks.h"
#include "ompdp_rt.h"
#include "regions.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* Kernels tracked at most (open addressing; past it, not tracked). */
#define PROV_SLOTS 512
/* Source lines named in the report at most; the kernels of the rest are
 * counted on one more line. */
#define PROV_NAMED 4

typedef struct prov {
  _Atomic uintptr_t key; /* region handle << 1 | 1, or the call site; 0: free */
  const void *codeptr;
  uint32_t region;
  int device, kind;
  /* Raised rarely, read by every implicit task of the kernel's regions.
   * Nothing here is written at every launch: a counter of launches was
   * (and read by nobody), and each increment took the line from the
   * cores running the kernel's teams, whose implicit tasks then missed on
   * it (nw: 26,010 launches, about 3 ms of CPU in these callbacks). */
  _Atomic unsigned teams_asked, teams_got, threads_asked, threads_got;
} prov_t;

static prov_t slots[PROV_SLOTS];
/* A bit for each slot claimed: the report reads the slots these name
 * rather than all 512, 24 KiB that a short run would otherwise fault in
 * page by page at exit just to find them empty (six page faults of a
 * one-region run; issue 30). */
_Static_assert(PROV_SLOTS % 64 == 0, "claimed: a whole word per 64 slots");
static _Atomic uint64_t claimed[PROV_SLOTS / 64];
static _Thread_local prov_t *current __attribute__((tls_model("initial-exec")));
static long host_cpus;

static void raise_to(_Atomic unsigned *v, unsigned x) {
  unsigned old = atomic_load_explicit(v, memory_order_relaxed);
  while (old < x &&
         !atomic_compare_exchange_weak_explicit(v, &old, x, memory_order_relaxed,
                                                memory_order_relaxed))
    ;
}

static prov_t *slot_of(const void *codeptr, uint32_t region, int device, int kind) {
  uintptr_t key = region ? (uintptr_t)region << 1 | 1u : (uintptr_t)codeptr;
  if (!key)
    return NULL;
  size_t h = (size_t)((key * 0x9e3779b97f4a7c15ull) >> 32) % PROV_SLOTS;
  for (size_t i = 0; i < PROV_SLOTS; ++i) {
    prov_t *p = &slots[(h + i) % PROV_SLOTS];
    uintptr_t k = atomic_load_explicit(&p->key, memory_order_acquire);
    if (!k) {
      uintptr_t expected = 0;
      /* Claimed first, filled after (atomically: the report reads them
       * once every kernel is over, maybe on a thread that libomp joined
       * in ways a race detector does not see). */
      if (atomic_compare_exchange_strong_explicit(&p->key, &expected, key, memory_order_acq_rel,
                                                  memory_order_acquire)) {
        __atomic_store_n(&p->codeptr, codeptr, __ATOMIC_RELAXED);
        __atomic_store_n(&p->region, region, __ATOMIC_RELAXED);
        __atomic_store_n(&p->device, device, __ATOMIC_RELAXED);
        __atomic_store_n(&p->kind, kind, __ATOMIC_RELAXED);
        size_t at = (size_t)(p - slots);
        atomic_fetch_or_explicit(&claimed[at / 64], 1ull << (at % 64), memory_order_release);
        return p;
      }
      k = expected;
    }
    if (k == key)
      return p;
  }
  return NULL;
}

void ompdp_provision_launch_begin(const void *codeptr, uint32_t region, int device, int kind,
                                  unsigned requested_num_teams) {
  prov_t *p = slot_of(codeptr, region, device, kind);
  current = p;
  if (!p)
    return;
  uint32_t teams = 0, threads = 0;
  ompdp_regions_kernel_asks(&teams, &threads);
  raise_to(&p->teams_asked, requested_num_teams > teams ? requested_num_teams : teams);
  raise_to(&p->threads_asked, threads);
}

void ompdp_provision_launch_end(void) { current = NULL; }

/* The data objects are libomp's, handed from thread to thread in ways a
 * race detector does not see: read and written atomically. */
static prov_t *get_ptr(ompt_data_t *d) {
  return d ? __atomic_load_n(&d->ptr, __ATOMIC_ACQUIRE) : NULL;
}

static void set_ptr(ompt_data_t *d, prov_t *p) { __atomic_store_n(&d->ptr, p, __ATOMIC_RELEASE); }

void ompdp_cb_parallel_begin(ompt_data_t *encountering_task_data,
                             const ompt_frame_t *encountering_task_frame,
                             ompt_data_t *parallel_data, unsigned int requested_parallelism,
                             int flags, const void *codeptr_ra) {
  (void)encountering_task_frame;
  (void)codeptr_ra;
  prov_t *p = current;
  if (!p)
    p = get_ptr(encountering_task_data);
  if (!p || !parallel_data)
    return;
  set_ptr(parallel_data, p);
  if (!(flags & ompt_parallel_league) && requested_parallelism > (unsigned)host_cpus)
    raise_to(&p->threads_asked, requested_parallelism);
}

void ompdp_cb_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                            ompt_data_t *task_data, unsigned int actual_parallelism,
                            unsigned int index, int flags) {
  (void)index;
  if (!task_data)
    return;
  if (endpoint != ompt_scope_begin) {
    if (get_ptr(task_data)) /* only this tool sets it */
      set_ptr(task_data, NULL);
    return;
  }
  prov_t *p = get_ptr(parallel_data);
  if (!p)
    return;
  set_ptr(task_data, p);
  raise_to(flags & ompt_task_initial ? &p->teams_got : &p->threads_got, actual_parallelism);
}

void ompdp_provision_init(void) {
  host_cpus = sysconf(_SC_NPROCESSORS_ONLN);
  if (host_cpus < 1)
    host_cpus = 1;
}

/* Far fewer: at most half of what was asked. */
static int short_of(unsigned asked, unsigned got) { return asked && got && 2ull * got <= asked; }

/* Where p's kernel is: "file:line" into at, its function into fn. */
static void where(const prov_t *p, char *at, size_t at_size, char *fn, size_t fn_size) {
  ompdp_region_info_t info;
  uint32_t region = __atomic_load_n(&p->region, __ATOMIC_RELAXED);
  const void *codeptr = __atomic_load_n(&p->codeptr, __ATOMIC_RELAXED);
  if (region && ompdp_regions_describe(region, -1, &info) == 0) {
    snprintf(at, at_size, "%s:%u", info.file ? info.file : "<unknown file>", info.line);
    snprintf(fn, fn_size, "%s", info.function ? info.function : "?");
    return;
  }
  ompdp_loc_t loc;
  memset(&loc, 0, sizeof(loc));
  ompdp_attribute(codeptr, __atomic_load_n(&p->kind, __ATOMIC_RELAXED), &loc);
  if (loc.file)
    snprintf(at, at_size, "%s:%u", loc.file, loc.line);
  else
    snprintf(at, at_size, "%p", codeptr);
  snprintf(fn, fn_size, "%s", loc.function ? loc.function : "?");
  ompdp_loc_free(&loc);
}

static void counts(char *buf, size_t size, const char *pre, unsigned teams, unsigned threads) {
  size_t n = (size_t)snprintf(buf, size, "%s", pre);
  if (teams && n < size)
    n += (size_t)snprintf(buf + n, size - n, "%u team%s", teams, teams == 1 ? "" : "s");
  if (threads && n < size)
    snprintf(buf + n, size - n, "%s%u thread%s", teams ? " of " : "", threads,
             threads == 1 ? "" : "s");
}

/* One line of the warning: the kernels of one source line on one device
 * (the instances of a template, the copies of an inlined function). */
typedef struct line {
  char at[400], fn[200];
  int device;
  size_t kernels;
  unsigned ta, tg, ha, hg; /* the most asked and got */
  int varies;              /* ... and not all asked the same */
} line_t;

static int add_line(line_t *lines, size_t *n, const prov_t *p) {
  line_t l;
  memset(&l, 0, sizeof(l));
  where(p, l.at, sizeof(l.at), l.fn, sizeof(l.fn));
  l.device = __atomic_load_n(&p->device, __ATOMIC_RELAXED);
  unsigned ta = p->teams_asked, tg = p->teams_got, ha = p->threads_asked, hg = p->threads_got;
  for (size_t i = 0; i < *n; ++i) {
    line_t *o = &lines[i];
    if (o->device != l.device || strcmp(o->at, l.at))
      continue;
    o->varies |= o->ta != ta || o->ha != ha;
    o->ta = o->ta > ta ? o->ta : ta;
    o->tg = o->tg > tg ? o->tg : tg;
    o->ha = o->ha > ha ? o->ha : ha;
    o->hg = o->hg > hg ? o->hg : hg;
    o->kernels++;
    return 0;
  }
  if (*n == PROV_NAMED)
    return -1;
  l.kernels = 1;
  l.ta = ta;
  l.tg = tg;
  l.ha = ha;
  l.hg = hg;
  lines[(*n)++] = l;
  return 0;
}

int ompdp_provision_warn(ompdp_report_t *r) {
  static line_t lines[PROV_NAMED]; /* at exit: not on a small stack */
  size_t n = 0, more = 0;
  /* In slot order, as a scan of every slot would find them. */
  for (size_t w = 0; w < PROV_SLOTS / 64; ++w)
    for (uint64_t bits = atomic_load_explicit(&claimed[w], memory_order_acquire); bits;
         bits &= bits - 1) {
      const prov_t *p = &slots[w * 64 + (size_t)__builtin_ctzll(bits)];
      if (!short_of(p->teams_asked, p->teams_got) && !short_of(p->threads_asked, p->threads_got))
        continue;
      if (add_line(lines, &n, p))
        ++more;
    }
  int rc = 0;
  for (size_t i = 0; i < n; ++i) {
    const line_t *l = &lines[i];
    char fn[320], asked[96], got[96], buf[1200];
    if (l->kernels > 1)
      snprintf(fn, sizeof(fn), "%s and %zu more", l->fn, l->kernels - 1);
    else
      snprintf(fn, sizeof(fn), "%s", l->fn);
    counts(asked, sizeof(asked), l->varies ? "up to " : "", l->ta, l->ha);
    counts(got, sizeof(got), "", l->ta && !l->tg ? 1 : l->tg, l->hg);
    snprintf(buf, sizeof(buf),
             "the kernel%s at %s (%s) asked for %s and ran with %s on device %d: code that "
             "divides its work by the number of teams or threads did other work than it would "
             "on a GPU, so what this report says of its data may not be representative",
             l->kernels > 1 ? "s" : "", l->at, fn, asked, got, l->device);
    rc |= ompdp_report_add_warning(r, buf);
  }
  if (more) {
    char buf[160];
    snprintf(buf, sizeof(buf),
             "%zu more kernels ran with at most half the teams or threads they asked for", more);
    rc |= ompdp_report_add_warning(r, buf);
  }
  return rc ? -1 : 0;
}
