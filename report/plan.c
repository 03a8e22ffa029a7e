/*===- plan.c - the rewrite planner's input, as a report holds it ----*- C -*-===*\
|*
|* The runtime copies into its report what the planner needs and only the
|* run knew: per-site facts, buffers, and the region-table records of the
|* constructs the sites name (report.h). This file owns those records and
|* answers describe() over them, so that the planner reads a saved report's
|* regions exactly as it would read the tables of a live process.
|*
\*===----------------------------------------------------------------------===*/
#include "report.h"

#include <stdlib.h>
#include <string.h>

void ompdp_region_info_free(ompdp_region_info_t *it) {
#define OMPDP_VIEW_FREE_STR(Name) free((char *)it->Name);
#define OMPDP_VIEW_FREE_U32(Name)
#define OMPDP_VIEW_FREE_U64(Name)
#define OMPDP_VIEW_FREE_INT(Name)
#define OMPDP_VIEW_FREE_CONSTRUCT(Name)
#define OMPDP_VIEW_FREE_LOOP(Name)
#define OMPDP_VIEW_FREE_MAP_TYPE(Name)
#define OMPDP_VIEW_FREE_ACCESS(Name)
#define OMPDP_VIEW_REGION_FIELD(Kind, Name, Desc) OMPDP_VIEW_FREE_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
#define OMPDP_VIEW_ITEM_FIELD(Kind, Name, Desc) OMPDP_VIEW_FREE_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
  free((void *)it->host_accesses);
  free((void *)it->exits);
  memset(it, 0, sizeof(*it));
}

int ompdp_region_info_copy(ompdp_region_info_t *dst, const ompdp_region_info_t *src) {
  int bad = 0;
  *dst = *src;
#define OMPDP_VIEW_DUP_STR(Name)                                                                  \
  dst->Name = ompdp_strdup(src->Name ? src->Name : "");                                          \
  bad |= !dst->Name;
#define OMPDP_VIEW_DUP_U32(Name)
#define OMPDP_VIEW_DUP_U64(Name)
#define OMPDP_VIEW_DUP_INT(Name)
#define OMPDP_VIEW_DUP_CONSTRUCT(Name)
#define OMPDP_VIEW_DUP_LOOP(Name)
#define OMPDP_VIEW_DUP_MAP_TYPE(Name)
#define OMPDP_VIEW_DUP_ACCESS(Name)
#define OMPDP_VIEW_REGION_FIELD(Kind, Name, Desc) OMPDP_VIEW_DUP_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
#define OMPDP_VIEW_ITEM_FIELD(Kind, Name, Desc) OMPDP_VIEW_DUP_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
  dst->host_accesses = NULL;
  dst->num_host_accesses = 0;
  if (src->num_host_accesses) {
    ompdp_host_access_t *h = malloc(src->num_host_accesses * sizeof(*h));
    if (h) {
      memcpy(h, src->host_accesses, src->num_host_accesses * sizeof(*h));
      dst->host_accesses = h;
      dst->num_host_accesses = src->num_host_accesses;
    }
    bad |= !h;
  }
  dst->exits = NULL;
  dst->num_exits = 0;
  if (src->num_exits) {
    ompdp_exit_t *x = malloc(src->num_exits * sizeof(*x));
    if (x) {
      memcpy(x, src->exits, src->num_exits * sizeof(*x));
      dst->exits = x;
      dst->num_exits = src->num_exits;
    }
    bad |= !x;
  }
  return bad ? -1 : 0;
}

void ompdp_plan_region_free(ompdp_plan_region_t *g) {
  for (uint32_t j = 0; g->items && j < g->head.num_items; ++j)
    ompdp_region_info_free(&g->items[j]);
  free(g->items);
  ompdp_region_info_free(&g->head);
  memset(g, 0, sizeof(*g));
}

void ompdp_plan_free(ompdp_plan_t *p) {
  for (size_t i = 0; i < p->num_regions; ++i)
    ompdp_plan_region_free(&p->regions[i]);
  free(p->regions);
  free(p->sites);
  free(p->bufs);
  memset(p, 0, sizeof(*p));
}

/* qsort has no context argument in C11. */
static const ompdp_plan_site_t *sort_sites;
static int cmp_site(const void *a, const void *b) {
  const ompdp_plan_site_t *x = &sort_sites[*(const uint32_t *)a];
  const ompdp_plan_site_t *y = &sort_sites[*(const uint32_t *)b];
  if (x->region != y->region)
    return x->region < y->region ? -1 : 1;
  return (x->item > y->item) - (x->item < y->item);
}

uint32_t *ompdp_plan_site_order(const ompdp_plan_t *p) {
  uint32_t *order = malloc((p->num_sites ? p->num_sites : 1) * sizeof(*order));
  if (!order)
    return NULL;
  for (size_t i = 0; i < p->num_sites; ++i)
    order[i] = (uint32_t)i;
  sort_sites = p->sites;
  qsort(order, p->num_sites, sizeof(*order), cmp_site);
  return order;
}

uint32_t ompdp_plan_site_find(const ompdp_plan_t *p, const uint32_t *order, uint32_t region,
                              int item) {
  size_t lo = 0, hi = p->num_sites;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    const ompdp_plan_site_t *s = &p->sites[order[mid]];
    if (s->region < region || (s->region == region && s->item < item))
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo == p->num_sites)
    return 0;
  const ompdp_plan_site_t *s = &p->sites[order[lo]];
  return s->region == region && s->item == item ? order[lo] + 1 : 0;
}

ompdp_plan_region_t *ompdp_plan_region_find(const ompdp_plan_t *p, uint32_t handle) {
  size_t lo = 0, hi = p->num_regions;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (p->regions[mid].handle < handle)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (!handle || lo == p->num_regions || p->regions[lo].handle != handle)
    return NULL;
  return &p->regions[lo];
}

int ompdp_plan_describe(const ompdp_plan_t *p, uint32_t handle, int item,
                        ompdp_region_info_t *out) {
  const ompdp_plan_region_t *g = ompdp_plan_region_find(p, handle);
  if (!g || (item >= 0 && (uint32_t)item >= g->head.num_items))
    return -1;
  *out = item < 0 ? g->head : g->items[item];
  return 0;
}
