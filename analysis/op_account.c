/*===- op_account.c - operations by class, and kernel time ---------------===*\
|*
|* See op_account.h. Kept out of the engine so that it adds one call per
|* event and one per finding.
|*
\*===----------------------------------------------------------------------===*/
#include "op_account.h"

#include <string.h>

static uint64_t ns(uint64_t ticks, uint64_t mult) {
  return mult ? ompdp_ticks_to_ns(ticks, mult) : ticks;
}

void ompdp_oc_to_ops(const ompdp_oc_t oc, uint64_t mult, ompdp_ops_t *out) {
  memset(out, 0, sizeof(*out));
  for (int c = 0; c < OMPDP_OC_COUNT; ++c) {
    out->c[c].count = oc[c][0];
    out->c[c].bytes = oc[c][1];
    out->c[c].time_ns = ns(oc[c][2], mult);
  }
  out->known = 1;
}

/* Kernels that ended by now can take no more operations. */
static void prune(ompdp_opacct_t *a, uint64_t now) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < a->nwin; ++i)
    if (a->win[i].end > now)
      a->win[k++] = a->win[i];
  a->nwin = k;
}

void ompdp_opacct_feed(ompdp_opacct_t *a, const ompdp_op_t *o, int type, uint64_t start,
                       uint64_t end, int host) {
  uint64_t dur = end > start ? end - start : 0;
  if (type == OMPDP_EV_KERNEL) {
    a->kernel_ticks += dur;
    prune(a, start);
    if (a->nwin == OMPDP_KWIN_MAX) { /* forget the one that ends first */
      uint32_t m = 0;
      for (uint32_t i = 1; i < a->nwin; ++i)
        if (a->win[i].end < a->win[m].end)
          m = i;
      a->win[m] = a->win[--a->nwin];
    }
    a->win[a->nwin++] = (ompdp_kwin_t){start, end, dur, o->dst_dev};
    return;
  }
  int cls = ompdp_op_class_of(type, o->src_dev, o->dst_dev, host);
  if (cls < 0)
    return;
  ompdp_oc_add(a->obs, cls, 1, o->bytes, dur);
  prune(a, start);
  int32_t dev = type == OMPDP_EV_DELETE || cls == OMPDP_OC_D2H ? o->src_dev : o->dst_dev;
  for (uint32_t i = 0; i < a->nwin; ++i) {
    ompdp_kwin_t *w = &a->win[i];
    if (w->dev != dev || w->start > start || w->end < end || !w->left)
      continue;
    uint64_t sub = dur < w->left ? dur : w->left;
    w->left -= sub;
    a->kernel_ticks -= sub;
    break;
  }
}

void ompdp_opacct_fill(const ompdp_opacct_t *a, uint64_t mult, ompdp_report_t *r) {
  ompdp_oc_to_ops(a->obs, mult, &r->observed_ops);
  r->kernel_time_ns = ns(a->kernel_ticks, mult);
}
