/*===- verdict.c - what each finding is worth -----------------------*- C -*-===*\
|*
|* The detections count what repeats (Table 1 of the paper); not every
|* repeat is waste a programmer can remove. After the planner has offered
|* its rewrites, each finding gets a verdict (OMPDP_VERDICT):
|*
|*   fix         it carries a rewrite;
|*   advice      the waste is real, no rewrite is safe: the suggestion says
|*               what to do and why ompdp did not do it;
|*   necessary   the bytes have to move: the device changes its copy between
|*               two sends of the same host bytes (a copy back that differed
|*               from what was sent, a kernel the compiler saw write the
|*               item, or a counter the host resets and reads back every
|*               iteration), or a repeated copy back brought the host other
|*               bytes than it held then, or the host reads what it brings,
|*               every iteration;
|*   coincidence different host buffers that merely held equal bytes, none
|*               a copy of another that the compiler sees (whatever their
|*               size: each is an input of its own), or a repeated
|*               allocation of different variables that got the same host
|*               address (each call's own array, another instantiation's);
|*   repeated_computation
|*               a construct whose inputs were the same every time gave the
|*               same output back, or a copy back returned the bytes of the
|*               last one when a kernel had run but no transfer had brought
|*               the device new data in between, or a construct re-sent
|*               bytes that host code of the loops around it writes (the
|*               host wrote the same values again): a timing loop, or
|*               recomputation.
|*
|* Only fix and advice count toward the time the fixes would save; the
|* others' time is the summary's excluded_time_ns. The run's facts are the
|* report's plan (rewrite_facts.c), so verdicts are decided where rewrites
|* are planned, once; a report without a plan gets the verdicts its
|* rewrites imply (ompdp_report_default_verdicts).
|*
\*===----------------------------------------------------------------------===*/
#include "verdict.h"
#include "rewrite_impl.h"

#include "detect.h"         /* each kind's rules: ompdp_detection_kind */
#include "rewrite_safety.h" /* ompdp_rw_advise */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int access_writes(uint32_t a) {
  return a == OMPDP_ACCESS_WRITE || a == OMPDP_ACCESS_READ_WRITE;
}

static int access_reads(uint32_t a) {
  return a == OMPDP_ACCESS_READ || a == OMPDP_ACCESS_READ_WRITE || a == OMPDP_ACCESS_UNKNOWN;
}

/* What the run and the compiler say about the buffer of f's site: every
 * site that last worked on the same buffer is looked at, because the send
 * and the kernel that changes the data are often different constructs (a
 * `target update to` and a kernel inside one `target data`). */
static void buffer_facts(const ompdp_plan_t *p, const ompdp_plan_site_t *s,
                         ompdp_verdict_facts_t *v) {
  for (size_t i = 0; i < p->num_sites; ++i) {
    const ompdp_plan_site_t *o = &p->sites[i];
    if (o != s && (!s->buf || o->buf != s->buf))
      continue;
    if (o->d2h && o->dev_changed)
      v->dev_changed = 1;
    if (o->d2h > o->d2h_unhashed)
      v->back_hashed = 1;
    if (o->d2h >= 2)
      v->back_repeated = 1;
    ompdp_region_info_t it;
    if (o->item < 0 || ompdp_plan_describe(p, o->region, o->item, &it))
      continue;
    if (it.construct == OMPDP_CK_TARGET && access_writes(it.access))
      v->kernel_writes = 1;
    /* A `target update to` of the buffer with device code that writes it
     * between two of its executions (the kernels are often in functions
     * the loop calls, whose present mappings the run does not see). */
    if (it.access_flags & OMPDP_IA_DEVICE_WRITTEN)
      v->kernel_writes = v->update_resets = v->device_written = 1;
  }
  /* A kernel the run saw use the buffer's device allocation (it found the
   * data present: in a function of another file, say) whose item the
   * compiler saw it write. */
  for (int k = 0; k < 2; ++k) {
    uint32_t kr = k ? s->kuse_region2 : s->kuse_region;
    int32_t ki = k ? s->kuse_item2 : s->kuse_item;
    ompdp_region_info_t it;
    if (kr && ki >= 0 && !ompdp_plan_describe(p, kr, ki, &it) &&
        it.construct == OMPDP_CK_TARGET &&
        (access_writes(it.access) || (it.access_flags & OMPDP_IA_POINTEE_WRITTEN)))
      v->kernel_writes = v->kernel_use_writes = 1;
  }
}

/* Copies in of the construct: 1 when it copied something in more than once
 * and no copy carried other bytes than the last time. (A construct that
 * copies nothing in, a `target update from`, says nothing of its inputs.) */
static int construct_inputs_same(const ompdp_plan_t *p, uint32_t region) {
  int repeated = 0;
  for (size_t i = 0; i < p->num_sites; ++i) {
    const ompdp_plan_site_t *o = &p->sites[i];
    if (o->region != region || !o->h2d)
      continue;
    if (o->host_changed)
      return 0;
    repeated |= o->h2d >= 2;
  }
  return repeated;
}

/* Whether site s's item is storage that its function has anew at each
 * call (an automatic variable, OMPDP_IA_AUTOMATIC, or behind a pointer set
 * only from malloc, OMPDP_IA_FRESH_HOST); its function's name in *fn. */
static int own_storage(const ompdp_plan_t *p, const ompdp_plan_site_t *s, const char **fn) {
  ompdp_region_info_t it;
  if (s->item < 0 || ompdp_plan_describe(p, s->region, s->item, &it) ||
      !(it.access_flags & (OMPDP_IA_FRESH_HOST | OMPDP_IA_AUTOMATIC)) || !it.function ||
      !it.function[0])
    return 0;
  *fn = it.function;
  return 1;
}

/* A repeated allocation of different variables: site s allocated only once
 * (it never repeated its own allocation), of its function's own storage,
 * and every other site that allocated the buffer (the host address on that
 * device) did so for the own storage of another function (another
 * instantiation of a template, another function). Distinct objects, one
 * living where another had been: no allocation repeats. Sites of one
 * function are never told apart: two constructs of one call may map the
 * same variable. */
/* Whether every other site of s's buffer that allocated it (copies: that
 * copied into it) did so for another function's own storage, s's being
 * fn's; *others: there was one. */
static int others_own(const ompdp_plan_t *p, const ompdp_plan_site_t *s, const char *fn,
                      int copies, int *others) {
  const char *ofn;
  const ompdp_plan_buf_t *b = &p->bufs[s->buf - 1];
  *others = 0;
  if (b->num_sites < 0)
    return 0; /* too many sites to know them all */
  for (int k = 0; k < b->num_sites; ++k) {
    uint32_t oi = b->sites[k];
    if (!oi || oi > p->num_sites)
      return 0;
    const ompdp_plan_site_t *o = &p->sites[oi - 1];
    if (o == s || !(copies ? o->h2d : o->allocs))
      continue;
    if (!own_storage(p, o, &ofn) || !strcmp(fn, ofn))
      return 0;
    *others = 1;
  }
  return 1;
}

static int own_variables(const ompdp_plan_t *p, const ompdp_plan_site_t *s) {
  const char *fn;
  int others;
  return s->allocs == 1 && s->buf && s->buf <= p->num_bufs && own_storage(p, s, &fn) &&
         others_own(p, s, fn, 0, &others);
}

/* A duplicate copy in of different variables: site s copied in only once
 * per allocation, of its function's own storage, and every other site
 * that copied into the buffer did so for another function's own storage
 * (another instance of a template, another function). Each filled its
 * own: equal bytes there are two inputs computed alike. */
static int own_inputs(const ompdp_plan_t *p, const ompdp_plan_site_t *s) {
  const char *fn;
  int others;
  return s->h2d && s->h2d == s->allocs && s->buf && s->buf <= p->num_bufs &&
         own_storage(p, s, &fn) && others_own(p, s, fn, 1, &others) && others;
}

/* Whether the host code around call (a call region) reads the argument
 * that binds the parameter var: in the call's loop, anywhere (the loop
 * comes back to the call), or, for a call in no loop, after it in its
 * block; besides in calls of other files that leave it alone. *looped:
 * the call is in a loop. A callee of another file, or one called through
 * a pointer, binds by position: fn_params (the construct's function's
 * parameters) name them. */
static int call_reads(const ompdp_plan_t *p, uint32_t call, const char *var,
                      const char *fn_params, int *looped) {
  ompdp_region_info_t c0, arg;
  if (ompdp_plan_describe(p, call, 0, &c0) || c0.construct != OMPDP_CK_CALL)
    return 0;
  *looped = c0.loop_kind != OMPDP_LK_NONE;
  int k = ompdp_rw_line_index(c0.extern_callee ? fn_params : c0.parameters, var, strlen(var));
  if (k < 0 || ompdp_plan_describe(p, call, k, &arg))
    return 0;
  for (uint32_t h = 0; h < arg.num_host_accesses; ++h) {
    const ompdp_host_access_t *a = &arg.host_accesses[h];
    if ((c0.loop_kind != OMPDP_LK_NONE || (a->Flags & OMPDP_HA_AFTER)) &&
        !ompdp_rw_extern_calls_leave(p, arg.source_file, arg.function, arg.variable, arg.expr, a) &&
        access_reads(a->Access))
      return 1;
  }
  return 0;
}

/* Whether the host reads the data of item it (its construct in no loop of
 * its function, the item a parameter) after every call the construct ran
 * in: the code around each call reads the argument (by its name, or
 * another the compiler knows for it: gmm's `clusters.N[i]` for
 * `clusters_N`), and one of them is in a loop. */
static int caller_reads(const ompdp_plan_t *p, const ompdp_plan_site_t *s,
                        const ompdp_region_info_t *it) {
  if (!s->call || s->call_mixed || !(it->access_flags & OMPDP_IA_PARAMS_ONLY) ||
      !it->variable[0])
    return 0;
  const uint32_t calls[] = {s->call, s->call2, s->call3, s->call4};
  int any_looped = 0;
  for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]) && calls[i]; ++i) {
    int looped = 0;
    if (!call_reads(p, calls[i], it->variable, it->fn_parameters, &looped))
      return 0;
    any_looped |= looped;
  }
  return any_looped;
}

/* order: the plan's sites by (region, item) (ompdp_plan_site_order). */
static void gather(const ompdp_plan_t *p, const uint32_t *order, const ompdp_finding_t *f,
                   ompdp_verdict_facts_t *v) {
  v->d2h = ompdp_finding_is_copy_back(f);
  if (!f->rt_region || f->item < 0)
    return;
  uint32_t si = ompdp_plan_site_find(p, order, f->rt_region, f->item);
  if (!si)
    return;
  const ompdp_plan_site_t *s = &p->sites[si - 1];
  v->with_facts = 1;
  buffer_facts(p, s, v);
  v->site_copies = s->h2d || s->d2h;
  v->site_h2d = s->h2d;
  v->site_resends = s->h2d >= 2 && !s->host_changed;
  v->back_new = s->d2h && !s->d2h_same && s->d2h > s->d2h_unhashed;
  v->inputs_same = construct_inputs_same(p, f->rt_region);
  v->back_rerun = s->d2h_recomputed && s->d2h_recomputed >= f->count;
  v->back_idle = s->d2h_idle && s->d2h_idle >= f->count;
  v->own_variables = f->kind == OMPDP_FK_REPEATED_ALLOC && own_variables(p, s);
  v->own_inputs = f->kind == OMPDP_FK_DUPLICATE_TRANSFER && !v->d2h && own_inputs(p, s);
  ompdp_region_info_t it;
  if (ompdp_plan_describe(p, f->rt_region, f->item, &it))
    return;
  v->no_loop = it.loop_kind == OMPDP_LK_NONE;
  size_t base = it.expr ? ompdp_rw_attached_base(it.expr) : 0;
  if (base && base < sizeof(v->attached))
    memcpy(v->attached, it.expr, base), v->attached[base] = 0;
  v->multi_buf = s->multi_buf != 0;
  v->interleaved = s->interleaved != 0 && s->outside != 0;
  v->sizes_differ = s->sizes_differ != 0;
  v->fresh_host = (it.access_flags & OMPDP_IA_FRESH_HOST) != 0;
  v->fresh_sizes = f->kind == OMPDP_FK_REPEATED_ALLOC && s->sizes_differ &&
                   (it.access_flags & OMPDP_IA_FRESH_HOST);
  v->base_stored = (it.access_flags & OMPDP_IA_BASE_STORED) != 0;
  v->firstprivate = it.map_type == OMPDP_MT_FIRSTPRIVATE;
  v->nowait = it.nowait != 0;
  v->update_to = it.map_type == OMPDP_MT_UPDATE_TO;
  v->update_from = it.map_type == OMPDP_MT_UPDATE_FROM;
  if (v->update_to && v->kernel_use_writes)
    v->update_resets = 1;
  v->to_written = (it.map_type == OMPDP_MT_TO || it.map_type == OMPDP_MT_UPDATE_TO) &&
                  access_writes(it.access);
  v->region_writes = (it.construct == OMPDP_CK_TARGET || it.construct == OMPDP_CK_TARGET_DATA) &&
                     (access_writes(it.access) || it.access == OMPDP_ACCESS_UNKNOWN);
  v->body_host_changes = it.construct == OMPDP_CK_TARGET_DATA && !v->region_writes &&
                         !(it.access_flags & OMPDP_IA_BODY_HOST_READS);
  /* The construct repeats at calls of its function (its own copies and
   * allocations repeat with no loop around it), or shares the buffer with
   * a construct of another function. */
  v->other_function = v->no_loop && (s->allocs >= 2 || s->h2d >= 2 || s->d2h >= 2);
  v->call_unknown = !s->call;
  v->call_mixed = s->call_mixed != 0;
  if (v->no_loop && s->buf && s->buf <= p->num_bufs && p->bufs[s->buf - 1].num_sites > 0) {
    const ompdp_plan_buf_t *b = &p->bufs[s->buf - 1];
    for (int k = 0; k < b->num_sites && !v->other_function; ++k) {
      uint32_t oi = b->sites[k];
      ompdp_region_info_t ot;
      if (oi && oi <= p->num_sites && p->sites[oi - 1].item >= 0 &&
          !ompdp_plan_describe(p, p->sites[oi - 1].region, p->sites[oi - 1].item, &ot) &&
          (strcmp(ot.function, it.function) || strcmp(ot.file, it.file)))
        v->other_function = 1;
    }
  }
  v->host_written = (it.access_flags & OMPDP_IA_HOST_WRITTEN) != 0;
  v->host_values = (it.fill_flags & OMPDP_FILL_HOST_VALUES) != 0;
  v->copy_of_other = (it.access_flags & OMPDP_IA_COPY_OF_OTHER) != 0;
  v->local_reduction = (it.access_flags & OMPDP_IA_REDUCTION) &&
                       (it.access_flags & OMPDP_IA_AUTOMATIC) && it.loop_kind == OMPDP_LK_NONE;
  for (uint32_t k = 0; k < it.num_host_accesses; ++k) {
    const ompdp_host_access_t *a = &it.host_accesses[k];
    /* A statement that only hands the item to functions of other files
     * whose own tables say their host code leaves it alone. */
    if (ompdp_rw_extern_calls_leave(p, it.source_file, it.function, it.variable, it.expr, a))
      continue;
    if (access_reads(a->Access))
      v->host_reads = 1;
    if (access_writes(a->Access)) {
      v->host_writes = 1;
      /* ... by code that names it (not only a call that might reach it
       * through another pointer). */
      if (!(a->Flags & OMPDP_HA_UNNAMED))
        v->host_writes_named = 1;
    }
  }
  /* A copy back by a construct that its function runs once a call: the
   * host code between two of them is the caller's loop (gmm's
   * copyClusterFromDevice, whose caller reads the clusters after each
   * call). */
  if (v->d2h && v->no_loop && !v->host_reads)
    v->caller_reads = caller_reads(p, s, &it);
}

/*===- the decision --------------------------------------------------------===*/

/* Whether the host needs what comes back: it reads the item in the loop
 * around the construct, every iteration, and only the copy tells it whether
 * the device's result changed this time. (A rewrite that keeps such data
 * resident would have to be the planner's, with its host updates.) */
static int host_needs_copy_back(const ompdp_verdict_facts_t *in) {
  return in->host_reads;
}

/* Whether host code wrote what the construct sent again: the item is
 * host-written and the construct itself sent it more than once (a repeat
 * of another construct's send, two updates in one call, has no host code
 * between them that the flag speaks of). */
static int host_rewrote(const ompdp_finding_t *f, const ompdp_verdict_facts_t *in) {
  return in->host_written && (in->site_resends || (f->same_buffer && in->site_h2d >= 2));
}

/* ... or may have: no write the compiler sees, but host code of the loop
 * that names the item may write it (it hands it to a function nobody can
 * see into, a routine of another file that fills it). A statement that
 * never names it, where only a call might reach it through another
 * pointer, is no such evidence. */
static int host_may_rewrite(const ompdp_finding_t *f, const ompdp_verdict_facts_t *in) {
  return !in->host_written && in->host_writes_named &&
         (in->site_resends || (f->same_buffer && in->site_h2d >= 2));
}

ompdp_verdict_t ompdp_verdict_duplicate(const ompdp_finding_t *f,
                                        const ompdp_verdict_facts_t *in) {
  /* The detection names the buffer that first sent the bytes; a site that
   * re-sent its own unchanged bytes is a same-buffer repeat even when
   * another variable sent them first (two arrays both initialised to 1). */
  if (!f->same_buffer && f->other_buffer && !in->site_resends) {
    /* Another variable held the bytes. Different variables that hold equal
     * bytes are each an input of their own (two buffers initialised alike,
     * B filled with A's seed): the device needs both, whatever their size,
     * and `map(alloc:)` of one would break the program. Only when the
     * compiler sees host code copy another variable into this one could
     * the device make the copy from what it has. Coming back to the host,
     * each variable needs its own copy. (All-zero bytes are the
     * zero_transfer finding's, whose fill rewrite these repeats share.) */
    return !in->d2h && in->copy_of_other ? OMPDP_V_ADVICE : OMPDP_V_COINCIDENCE;
  }
  if (in->d2h) {
    /* The host received these bytes before, but every copy back here
     * brought other bytes than the buffer held then (b += a, then b -= a/2:
     * the second result equals an earlier first one): the copy is needed.
     * The host reads what comes back, every iteration: the copy is how it
     * learns the device's result, equal to the last one or not. */
    if (in->back_new || host_needs_copy_back(in))
      return OMPDP_V_NECESSARY;
    /* A kernel ran, but no transfer brought the device new data between two
     * copies back of the same bytes (data resident in a `target data`, a
     * timing loop around the kernel and its `target update from`), or the
     * construct's own copies in were the same each time: the device
     * computed again what it had given back already. (With no kernel in
     * between, the copy back only repeats data movement: advice.) */
    if (in->with_facts && (in->inputs_same || in->back_rerun))
      return OMPDP_V_REPEATED_COMPUTATION;
    /* The caller's loop reads what each call's copy brings (gmm's
     * clusters after copyClusterFromDevice): as above, after the
     * recomputation that its own inputs explain. */
    if (in->caller_reads)
      return OMPDP_V_NECESSARY;
    return OMPDP_V_ADVICE;
  }
  /* The same host bytes sent again after the device changed its copy: the
   * send resets it. The run saw a copy back differ, or the compiler saw a
   * kernel write it, or the host resets it in the loop and the program
   * copies it back again and again (a counter: the device is meant to
   * change it, even when this run's input never made it). */
  if (in->dev_changed || in->kernel_writes || (in->host_writes && in->back_repeated))
    return OMPDP_V_NECESSARY;
  /* The construct sent its own bytes again, and host code of the loops
   * around it writes them (a routine fills the arrays, then the update
   * sends them; an input restored at the end of a timing loop): the host
   * wrote the same values again, and the send carries them. Moving the
   * send out of the loop would leave the device with stale data whenever
   * the host's values change. */
  if (host_rewrote(f, in) || host_may_rewrite(f, in))
    return OMPDP_V_REPEATED_COMPUTATION;
  /* Another function's own variable at this address sent these bytes:
   * two inputs, each filled by its own function (adjacent's Test<N>s). */
  if (in->own_inputs && !in->site_resends)
    return OMPDP_V_COINCIDENCE;
  return OMPDP_V_ADVICE;
}

ompdp_verdict_t ompdp_verdict_round_trip(const ompdp_finding_t *f,
                                         const ompdp_verdict_facts_t *in) {
  /* Came back unchanged, but the host reads it in the loop: the copy back
   * is how the host knows it did not change. Once, from a construct that
   * may write the item: the copy back carries what its kernels computed,
   * which this run made equal to what the host had (only another
   * execution could have kept it). */
  if (host_needs_copy_back(in) || in->caller_reads || (f->count == 1 && in->region_writes))
    return OMPDP_V_NECESSARY;
  return OMPDP_V_ADVICE;
}

ompdp_verdict_t ompdp_verdict_repeated_alloc(const ompdp_finding_t *f,
                                             const ompdp_verdict_facts_t *in) {
  /* Different variables at one address: nothing was allocated twice. */
  if (in->own_variables)
    return OMPDP_V_COINCIDENCE;
  /* New host buffers of other sizes, malloc putting one where the last was
   * (channelSum's per-size buffers): no buffer is allocated twice. */
  if (in->fresh_sizes)
    return OMPDP_V_COINCIDENCE;
  /* A kernel's reduction variable, local to a function that each call runs
   * the kernel once (metropolis' energy): each launch needs its own on the
   * device, and no loop of the function could hold it there. */
  return in->local_reduction ? OMPDP_V_NECESSARY : OMPDP_V_ADVICE;
}

/* Zeros, or one value repeated, in every copy: a fill on the device saves
 * the copy only if the host holds that for every input. Where host code
 * stores computed values there (read from input, computed), the copy
 * carries what it computed, equal this time: needed. */
ompdp_verdict_t ompdp_verdict_fill_values(const ompdp_finding_t *f,
                                          const ompdp_verdict_facts_t *in) {
  (void)f;
  return in->host_values ? OMPDP_V_NECESSARY : OMPDP_V_ADVICE;
}

/* An object passed firstprivate that does not fit in a pointer (a functor,
 * a struct): libomptarget packs its bytes into a buffer of its own at every
 * launch, allocated, sent and freed with the launch (as the firstprivate
 * rewrite counts it). No map clause controls that buffer; advice to map the
 * object once would give every launch one shared copy instead of its
 * private one. */
static int firstprivate_buffer(const ompdp_finding_t *f, const ompdp_verdict_facts_t *in) {
  return in->firstprivate &&
         (f->kind == OMPDP_FK_DUPLICATE_TRANSFER || f->kind == OMPDP_FK_REPEATED_ALLOC);
}

ompdp_verdict_t ompdp_verdict_decide(const ompdp_finding_t *f, const ompdp_verdict_facts_t *in) {
  if (f->num_rewrites)
    return OMPDP_V_FIX;
  if (firstprivate_buffer(f, in))
    return OMPDP_V_NECESSARY;
  const ompdp_detection_kind_t *k = ompdp_detection_kind(f->kind);
  return k && k->verdict ? k->verdict(f, in) : OMPDP_V_ADVICE;
}

/*===- the words -------------------------------------------------------------===*/

/* 1 when rewrite kind k is one the detection's suggestion proposes for
 * finding kind fk (its rewrites in the table of detections, docs/fixes.md),
 * so the words and the rewrite agree. */
static int natural_rewrite(ompdp_finding_kind_t fk, ompdp_rewrite_kind_t k) {
  const ompdp_detection_kind_t *d = ompdp_detection_kind(fk);
  return d && (unsigned)k < 32 && (d->rewrites >> k & 1u);
}

/* The suggestion for a finding without a rewrite, in one sentence: what the
 * programmer can do and why ompdp did not do it. NULL: keep the
 * detection's (it already says what to do, and nothing contradicts it). */
static char *suggestion_for(const ompdp_finding_t *f, const ompdp_verdict_facts_t *in) {
  int d2h = in->d2h;
  char buf[2048];
  const char *v = f->variable ? f->variable : "the data";
  switch (f->verdict) {
  case OMPDP_V_NECESSARY:
    if (firstprivate_buffer(f, in))
      snprintf(buf, sizeof(buf),
               "no saving: %s is passed `firstprivate`, so each launch gets a private copy of "
               "its bytes, which libomptarget puts in a buffer of its own (allocated, sent and "
               "freed with the launch: an object that does not fit in a pointer); no map "
               "clause controls that buffer, and mapping the object once instead would give "
               "the launches one shared copy",
               v);
    else if ((f->kind == OMPDP_FK_ZERO_TRANSFER || f->kind == OMPDP_FK_SINGLE_VALUE_TRANSFER) &&
        in->host_values)
      snprintf(buf, sizeof(buf),
               "no saving: host code stores values into %s that the compiler cannot evaluate "
               "to one constant (read from input, computed, or other constants on other "
               "paths), so the %s this run copied can be other values "
               "with other inputs, and the copy is how the device gets them; a fill on the "
               "device would give it wrong data then",
               v, f->kind == OMPDP_FK_ZERO_TRANSFER ? "zeros" : "single value");
    else if (f->kind == OMPDP_FK_REPEATED_ALLOC && in->local_reduction)
      snprintf(buf, sizeof(buf),
               "no saving: %s is the kernel's reduction variable and a local of its function, "
               "so each call has its own, and each launch needs it on the device and its "
               "result back; the device memory a reduction uses is the runtime's to reuse",
               v);
    else if (d2h && in->back_new)
      snprintf(buf, sizeof(buf),
               "no saving: each copy back brought the host other bytes of %s than it held "
               "then (they only equal bytes it received earlier), so each is needed",
               v);
    else if (f->kind == OMPDP_FK_ROUND_TRIP && f->count == 1 && in->region_writes &&
             !host_needs_copy_back(in) && !in->caller_reads)
      snprintf(buf, sizeof(buf),
               "no saving: the construct's kernels may write %s (the compiler sees them write "
               "it, or cannot tell that they do not), so the copy back carries their result; "
               "in this run it equalled what the host had, which other inputs need not give. "
               "It ran once: nothing repeats that keeping the data on the device would save",
               v);
    else if (d2h || f->kind == OMPDP_FK_ROUND_TRIP)
      snprintf(buf, sizeof(buf),
               "no saving: the host reads %s after each copy back%s, and only the copy tells "
               "it that the value did not change",
               v, in->caller_reads ? " (the loop that calls its function reads it after the call)"
                                   : "");
    else if (in->update_resets && !in->dev_changed && !in->device_written)
      snprintf(buf, sizeof(buf),
               "no saving: a kernel that runs between the updates writes %s (the run saw it "
               "use the device's copy, a kernel of another file that finds it present, and "
               "that kernel's compiler sees it write it), so each `target update to` resets "
               "the device's copy and is needed; moving it or dropping it would break the "
               "program",
               v);
    else if (in->update_resets && !in->dev_changed)
      snprintf(buf, sizeof(buf),
               "no saving: device code that runs between the updates writes %s (the compiler "
               "sees a kernel write it, here or in a function the code calls), so each "
               "`target update to` resets the device's copy and is needed; moving it or "
               "dropping it would break the program",
               v);
    else
      snprintf(buf, sizeof(buf),
               "no saving: the device changes its copy of %s between the sends (a copy back "
               "differed, a kernel writes it, or the host resets it and reads it back each "
               "time), so each send of the host's bytes resets it and is needed; keeping it "
               "resident without the send would break the program",
               v);
    break;
  case OMPDP_V_COINCIDENCE: {
    /* A buffer its function allocates anew at each call, which the
     * construct mapped at other host addresses at other executions, may
     * have had the bytes from an earlier allocation of itself, which the
     * run tells apart from another variable only by address. */
    const char *earlier = in->fresh_host && in->multi_buf
                              ? " (or an earlier allocation of this one: its function "
                                "allocates it anew at each call)"
                              : "";
    if (f->kind == OMPDP_FK_REPEATED_ALLOC && in->fresh_sizes && !in->own_variables)
      snprintf(buf, sizeof(buf),
               "no saving: each execution maps a new host buffer %s%s%s allocates anew, of "
               "another size than the last, which malloc put where an earlier one had been: "
               "no buffer is allocated twice; nothing to change",
               f->variable ? f->variable : "that", f->loc.function ? " that " : "",
               f->loc.function ? f->loc.function : "");
    else if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && in->own_inputs)
      snprintf(buf, sizeof(buf),
               "no saving: %s%s%s is storage of its own at each call of its function, which "
               "fills it; the bytes equal what another function's own variable%s%s sent from "
               "the same address, because both computed the same values: two inputs, each "
               "needed; nothing to change",
               f->variable ? f->variable : "this buffer", f->loc.function ? " in " : "",
               f->loc.function ? f->loc.function : "", f->related.function ? " in " : "",
               f->related.function ? f->related.function : "");
    else if (f->kind == OMPDP_FK_REPEATED_ALLOC)
      snprintf(buf, sizeof(buf),
               "no saving: different variables that got the same host address: %s%s%s is "
               "storage of its own at each call of its function, allocated once there, and the "
               "earlier allocation was another function's own variable%s%s; nothing to change",
               v, f->loc.function ? " in " : "", f->loc.function ? f->loc.function : "",
               f->related.function ? " in " : "",
               f->related.function ? f->related.function : "");
    else if (d2h)
      /* Copies back: each variable is a result the host gets back. */
      snprintf(buf, sizeof(buf),
               "no saving: the copy back of %s brought bytes that another variable's copy "
               "back brought before%s; each is a result of its own that the host receives in "
               "its own memory; nothing to change",
               v, earlier);
    else
      snprintf(buf, sizeof(buf),
               "no saving: %s holds bytes that another variable sent before%s, and nothing the "
               "compiler sees copies one into the other: each is an input of its own that the "
               "device needs (mapping it with `map(alloc: ...)` would break the program); "
               "nothing to change",
               v, earlier);
    break;
  }
  case OMPDP_V_REPEATED_COMPUTATION:
    if (!d2h && host_may_rewrite(f, in))
      snprintf(buf, sizeof(buf),
               "a repeated computation, as far as ompdp can tell: host code that can run "
               "between these sends may write %s (it passes it to a function the compiler "
               "cannot see into, such as a routine of another file that fills it), so each "
               "send may carry new values, and the same bytes came again because the host "
               "computed the same values again this run; "
               "the send stays in the loop, since moving it out would leave the device a "
               "stale copy whenever the host's values change",
               v);
    else if (!d2h && host_rewrote(f, in))
      snprintf(buf, sizeof(buf),
               "a repeated computation: host code that can run between these sends writes %s "
               "(the compiler sees the writes, in the loops around the construct or in a "
               "function they call), so each send may carry what the host wrote, and the "
               "same bytes came again because the host wrote the same values again or did "
               "not write them on that path: a timing loop, or recomputation the programmer "
               "may remove; the send stays in the loop, since moving it out would leave the "
               "device a stale copy whenever the host's values change",
               v);
    else if (!in->inputs_same)
      snprintf(buf, sizeof(buf),
               "a repeated computation: no transfer brought the device new data between the "
               "copies back, and the same bytes of %s came back each time; a timing loop, or "
               "recomputation the programmer may remove",
               v);
    else
      snprintf(buf, sizeof(buf),
               "a repeated computation: the construct got the same inputs and gave back the "
               "same %s every time; a timing loop, or real recomputation the programmer may "
               "remove",
               v);
    break;
  case OMPDP_V_ADVICE:
    /* A routine call's words already say which calls to move. */
    if (f->call)
      return NULL;
    if (f->kind == OMPDP_FK_UNUSED_TRANSFER && in->attached[0] &&
        f->bytes == f->count * (uint64_t)sizeof(void *)) {
      /* The unread bytes are the pointer the map attaches, not the data. */
      snprintf(buf, sizeof(buf),
               "the unread copies in are of the pointer `%s` itself (%zu bytes each), which "
               "the map of its section attaches (OpenMP's pointer attachment: the device's "
               "copy of the pointer, set to the section's device address), and no kernel "
               "read it; the section's own copy is another transfer; only mapping the "
               "section through a pointer variable of its own avoids this one, a change of "
               "the host code that ompdp does not make",
               in->attached, sizeof(void *));
      break;
    }
    if (f->kind == OMPDP_FK_UNUSED_TRANSFER && in->site_h2d > f->count) {
      /* Some copies at this site were read: "remove the transfer" would
       * break the executions that need it (a loop whose first pass reads
       * what the later, empty passes do not). */
      snprintf(buf, sizeof(buf),
               "%" PRIu64 " of the %" PRIu64 " copies in of %s here were overwritten or outlived "
               "every kernel before one read them, but the others were read: the copy is "
               "needed in some executions, so it stays; skip it only on the paths where no "
               "kernel reads it (ompdp does not rewrite this)",
               f->count, in->site_h2d, v);
      break;
    }
    if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && !d2h && !f->same_buffer &&
        f->other_buffer && in->copy_of_other) {
      snprintf(buf, sizeof(buf),
               "%s is a host copy of another variable (the compiler sees a memcpy, std::copy "
               "or element-by-element copy into it), and the device already has those bytes: "
               "map %s with `map(alloc: ...)` and make the copy on the device, from the "
               "variable it copies, instead of sending it; ompdp does not write that device "
               "copy",
               v, f->variable ? f->variable : "it");
      break;
    }
    if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && d2h && in->back_idle) {
      snprintf(buf, sizeof(buf),
               "the copy back brought the host the bytes of %s it already had, and neither a "
               "kernel nor a transfer of new data ran on the device since it last copied them "
               "back: drop it, or copy it back only where the host needs it, e.g. `target "
               "update from(%s)` after the loop; ompdp does not remove a copy back on what one "
               "run shows",
               v, f->variable ? f->variable : "...");
      break;
    }
    if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && d2h) {
      snprintf(buf, sizeof(buf),
               "the copy back brought the host the bytes of %s it already had: the kernels "
               "computed the same result again, from data the device received since the last "
               "copy back; copy it back only where the host reads it (e.g. `target update "
               "from(%s)` after the loop, if no host code of the loop reads it through any "
               "pointer); ompdp did not rewrite it because it cannot know that the host does "
               "not read it in between, nor that the result stays the same for other inputs",
               v, f->variable ? f->variable : "...");
      break;
    }
    if (f->kind == OMPDP_FK_REPEATED_ALLOC && f->suggestion && in->site_copies) {
      /* Allocated once outside, the construct's own map would find the data
       * present and copy nothing: its copies need the `always` modifier.
       * A construct in no loop (constructs in a row, a function called
       * again) has no loop to go outside of. */
      static const char loop[] = " outside the loop";
      /* The planner's reason (". No rewrite: ...") stays last. */
      const char *why = strstr(f->suggestion, ". No rewrite: ");
      size_t n = why ? (size_t)(why - f->suggestion) : strlen(f->suggestion);
      size_t k = sizeof(loop) - 1;
      int tail = in->no_loop && n >= k && !strncmp(f->suggestion + n - k, loop, k);
      snprintf(buf, sizeof(buf),
               "%.*s%s; the construct's map of %s must then say `always` where its copies are "
               "still needed, because a present item is not copied%s",
               (int)(tail ? n - k : n), f->suggestion,
               tail ? " around the constructs that map it, or before the calls that repeat them"
                    : "",
               v, why ? why : "");
      break;
    }
    return NULL;
  case OMPDP_V_FIX:
    /* A rewrite of another kind than the finding's own (a small object
     * passed as firstprivate for a round trip, one rewrite for several
     * items of a directive): the detection's words would propose something
     * else; say what the rewrite does. */
    if (!natural_rewrite(f->kind, f->rewrites[0].kind)) {
      snprintf(buf, sizeof(buf), "fixed by the rewrite below (%s): %s",
               ompdp_rewrite_kind_json(f->rewrites[0].kind),
               f->rewrites[0].description ? f->rewrites[0].description : "see its edits");
      break;
    }
    /* Bytes that matched another buffer's, on a site the planner keeps
     * resident: say what the rewrite does, not "initialise it there". */
    if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && !f->same_buffer && f->other_buffer &&
        f->rewrites[0].kind == OMPDP_RK_KEEP_RESIDENT) {
      snprintf(buf, sizeof(buf),
               "%s is sent again with bytes the device already has (other host buffers held "
               "the same bytes): keep it resident, as the rewrite below does",
               v);
      break;
    }
    return NULL;
  case OMPDP_V_NONE:
  case OMPDP_V_COUNT:
    return NULL;
  }
  return ompdp_strdup(buf);
}

/*===- the report ----------------------------------------------------------===*/

/* Why ompdp made no rewrite that keeps the item on the device, for advice
 * whose words do not say it already; NULL when no fact explains it. */
static const char *no_keep_reason(const ompdp_finding_t *f, const ompdp_verdict_facts_t *in) {
  const ompdp_detection_kind_t *k = ompdp_detection_kind(f->kind);
  if (!k || k->rewrite != OMPDP_RR_KEEP_RESIDENT)
    return NULL;
  if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER && in->d2h)
    return NULL; /* their words say what and why */
  if (!in->with_facts)
    return NULL;
  if (f->kind == OMPDP_FK_ROUND_TRIP && f->count == 1 && in->body_host_changes)
    return "host code of the construct's body writes it or sends it again (a write, a `target "
           "update`, or a call or another pointer the compiler cannot follow), and the copy "
           "back at the end puts the device's copy over what that code did: mapping it `to` "
           "would keep the host's writes instead; the kernels only read it";
  if (f->kind == OMPDP_FK_ROUND_TRIP && f->count == 1 && in->update_to)
    return "dropping the update needs proof that no kernel changes the device's copy and no "
           "host code changes the host's between the copy back and this update, on every "
           "path that reaches it; the compiler does not follow the calls between them";
  if (f->kind == OMPDP_FK_ROUND_TRIP && f->count == 1)
    return "the data went out and came back once, in one execution of the construct: "
           "nothing repeats for a `target data` to keep it across, and mapping it `to` needs "
           "proof that no kernel of the construct writes it, which the compiler does not "
           "give here and one run cannot";
  if (in->update_to && in->host_written && f->kind != OMPDP_FK_DUPLICATE_TRANSFER)
    return "host code between two of these `target update to`s writes the item (the compiler "
           "sees the writes), so each may carry new bytes, and the device's copy would be "
           "stale without it";
  if (in->update_to)
    return "moving the update needs proof that no kernel changes the data between two of "
           "them; the compiler saw none write it, but does not prove that it saw every kernel "
           "that runs there (functions of other files, calls through pointers)";
  if (in->update_from)
    return "the copies back are the program's own `target update from`s of data that stays on "
           "the device, and dropping one needs proof that the host never reads what it brings, "
           "which one run cannot give";
  if (in->multi_buf)
    return "the construct mapped more than one host buffer here (the pointer is set anew), so "
           "no one buffer can stay on the device";
  if (in->base_stored)
    return "the code around the construct points the item at another buffer, so a `target "
           "data` before it would map the wrong one";
  if (in->no_loop && !in->other_function && (in->host_reads || in->host_writes))
    return "host code between the constructs that map it uses it, and one `target data` "
           "around them would change what that code sees (ompdp keeps data across "
           "constructs in a row only where the code between them does not use it, or only "
           "reads what is sent)";
  if (in->other_function && in->call_unknown)
    return "the repeats come from calls of the construct's function that no code built with "
           "the ompdp plugin makes where it can see the function's body (a caller in another "
           "file, a call through a pointer or a virtual call), so ompdp does not know the "
           "caller's loop, nor how its arguments name the data";
  if (in->other_function && in->call_mixed)
    return "the construct also ran outside the calls the run could follow (in a call the "
           "ompdp plugin did not see, or in calls from more than four places), so no one "
           "caller's loop is known to hold all of its repeats for a `target data` to go around";
  if (in->other_function)
    return "the repeats come from constructs in other functions, or from calls that are not "
           "all in one loop of one caller, so no one `target data` covers them";
  if (in->to_written)
    return "the region writes this `to` item, so each execution must start from the host's "
           "copy";
  if (in->interleaved)
    return "other constructs work on the same buffer between its executions";
  if (in->sizes_differ)
    return "the mapped section changes size between executions";
  if (in->nowait)
    return "the construct is `nowait`";
  return NULL;
}

/* Why a finding without a rewrite has none when neither its rule's planner
 * nor the keep-resident facts said why: what the report lacks to plan one,
 * from what is missing first. The last words (no fact explains it) are a
 * gap in ompdp, and say so: lit runtime/advice_every_reason.test fails on
 * them. */
static const char *missing_reason(const ompdp_report_t *r, const ompdp_finding_t *f,
                                  const ompdp_verdict_facts_t *in, int have_plan) {
  if (!have_plan || (!f->region_id && !f->rt_region))
    return ompdp_finding_no_plan_reason(r, f);
  if (!in->with_facts)
    return "the run's facts have no construct for these operations (the construct's file was "
           "compiled without the ompdp plugin, or they are the runtime's own), so there is no "
           "clause to edit";
  return "ompdp has no rule for this case";
}

int ompdp_assign_verdicts(ompdp_report_t *r, const ompdp_plan_t *plan) {
  /* Without a plan (a program built without the plugin) the rules still
   * apply to the findings not decided yet, with no facts: nothing then
   * shows that different variables' equal bytes are a copy, nor that
   * anything else is no saving. A finding that has its verdict (a finished
   * report read back, which has no plan any more) keeps it. */
  int have_plan = plan && plan->present;
  uint32_t *order = have_plan ? ompdp_plan_site_order(plan) : NULL;
  if (have_plan && !order) {
    ompdp_report_default_verdicts(r);
    return -1;
  }
  uint64_t excluded = 0;
  int rc = 0;
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    if (!have_plan && f->verdict != OMPDP_V_NONE)
      continue;
    ompdp_verdict_facts_t v = {0};
    if (have_plan)
      gather(plan, order, f, &v);
    else
      v.d2h = ompdp_finding_is_copy_back(f);
    f->verdict = ompdp_verdict_decide(f, &v);
    if (!ompdp_verdict_saves(f->verdict))
      excluded += f->time_saved_ns;
    char *s = suggestion_for(f, &v);
    if (s) {
      free(f->suggestion);
      f->suggestion = s;
    } else if (!ompdp_verdict_saves(f->verdict)) {
      rc = -1; /* out of memory: the detection's words stay */
    }
    /* Advice without a rewrite says why ompdp made none: what its rule's
     * planner said (rewrite_safety.h, ompdp_rw_advise), else why the item
     * cannot be kept resident, else what the report lacks. */
    if (f->verdict == OMPDP_V_ADVICE && !f->num_rewrites && !ompdp_finding_says_why(f->suggestion)) {
      /* A round trip that happened once has nothing to keep resident
       * across: what a planner for repeats said does not apply, the
       * reason the map could not become `to` does. */
      int once = f->kind == OMPDP_FK_ROUND_TRIP && f->count == 1;
      const char *why = once ? no_keep_reason(f, &v) : f->no_rewrite;
      if (!why)
        why = once ? f->no_rewrite : no_keep_reason(f, &v);
      if (!why)
        why = missing_reason(r, f, &v, have_plan);
      if (ompdp_finding_add_no_rewrite(f, why))
        rc = -1;
    }
  }
  free(order);
  /* The run's union less what the excluded findings saved: exact when they
   * did not overlap the others, a lower bound otherwise. */
  r->excluded_time_ns = (have_plan ? 0 : r->excluded_time_ns) + excluded;
  r->time_saved_ns = r->time_saved_ns > excluded ? r->time_saved_ns - excluded : 0;
  ompdp_report_update_speedup(r);
  return rc;
}
