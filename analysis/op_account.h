/*===- op_account.h - operations by class, and kernel time ----------*- C -*-===*\
|*
|* What the cost model needs from a run (report/cost_model.h): the data
|* operations by class (OMPDP_OP_CLASS) with their bytes and measured time,
|* for the whole run, each finding and each rewrite, and how long kernels
|* ran. The engine (analysis.c) keeps them in ticks as it goes and converts
|* them into the report model at the end.
|*
|* Kernel time: a kernel's interval runs from its launch to the end of its
|* construct (callbacks.c), which also holds the copies back and deletes of
|* that construct. Those are taken out again: a data operation on the
|* kernel's device that lies inside the interval of a kernel still open
|* there is subtracted from it (never below zero). Concurrent kernels on one
|* device may have an operation subtracted from the wrong one; the total
|* stays an estimate, which only --kernel-scale uses.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_OP_ACCOUNT_H
#define OMPDP_OP_ACCOUNT_H

#include "engine.h"

/* count, bytes, ticks per class */
typedef uint64_t ompdp_oc_t[OMPDP_OC_COUNT][3];

/* The class of an event of type (ompdp_event_type_t) between src and dst;
 * -1 for kernels and constructs. */
static inline int ompdp_op_class_of(int type, int32_t src, int32_t dst, int host) {
  switch (type) {
  case OMPDP_EV_ALLOC:
    return OMPDP_OC_ALLOC;
  case OMPDP_EV_DELETE:
    return OMPDP_OC_DELETE;
  case OMPDP_EV_TRANSFER:
    if (src == host && dst != host)
      return OMPDP_OC_H2D;
    if (dst == host && src != host)
      return OMPDP_OC_D2H;
    return OMPDP_OC_D2D;
  default:
    return -1;
  }
}

static inline void ompdp_oc_add(ompdp_oc_t oc, int cls, uint64_t count, uint64_t bytes,
                                uint64_t ticks) {
  if (cls < 0)
    return;
  oc[cls][0] += count;
  oc[cls][1] += bytes;
  oc[cls][2] += ticks;
}

static inline void ompdp_oc_merge(ompdp_oc_t dst, const ompdp_oc_t src) {
  for (int c = 0; c < OMPDP_OC_COUNT; ++c)
    for (int k = 0; k < 3; ++k)
      dst[c][k] += src[c][k];
}

/* Into the report model: times in ns (ns = ticks * mult >> 32; mult 0:
 * ticks are ns), marked known. */
void ompdp_oc_to_ops(const ompdp_oc_t oc, uint64_t mult, ompdp_ops_t *out);

#define OMPDP_KWIN_MAX 16
typedef struct ompdp_kwin {
  uint64_t start, end, left;
  int32_t dev;
} ompdp_kwin_t;

typedef struct ompdp_opacct {
  ompdp_oc_t obs;
  uint64_t kernel_ticks;
  ompdp_kwin_t win[OMPDP_KWIN_MAX]; /* kernels still open */
  uint32_t nwin;
} ompdp_opacct_t;

/* One event, in analysis order (begin times never decrease). */
void ompdp_opacct_feed(ompdp_opacct_t *a, const ompdp_op_t *o, int type, uint64_t start,
                       uint64_t end, int host);
/* The run's observed_ops and kernel_time_ns. */
void ompdp_opacct_fill(const ompdp_opacct_t *a, uint64_t mult, ompdp_report_t *r);

#endif /* OMPDP_OP_ACCOUNT_H */
