/*===- plan_json_read.c - the planner's input, read back -------------*- C -*-===*\
|*
|* Reads the "plan" member of a runtime's report (plan_json.c writes it)
|* into the model, and checks what the planner will index with: every
|* site's buffer, every buffer's sites, every region's items and every
|* site's item within its region, so that a corrupt plan is one error and
|* never a read out of bounds. Regions are kept sorted by handle (for
|* ompdp_plan_describe); a handle may appear once.
|*
\*===----------------------------------------------------------------------===*/
#include "json_load.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Regions of more items than this are refused (the planner loads a whole
 * region at a time). */
#define MAX_ITEMS 4096

static int get_u32(ompdp_json_doc_t *d, const char *name, const json_t *v, uint32_t *out) {
  uint64_t x;
  if (ompdp_json_get_u64(d, name, v, UINT32_MAX, &x))
    return -1;
  *out = (uint32_t)x;
  return 0;
}
static int get_i32(ompdp_json_doc_t *d, const char *name, const json_t *v, int32_t *out) {
  int x;
  if (ompdp_json_get_int(d, name, v, &x))
    return -1;
  *out = x;
  return 0;
}
static int get_u64(ompdp_json_doc_t *d, const char *name, const json_t *v, uint64_t *out) {
  return ompdp_json_get_u64(d, name, v, UINT64_MAX, out);
}

/* Site members a report may lack: the calls a construct ran in came after
 * the others, without a report version (an optional member); absent, the
 * call is not known (0), which keeps every rewrite at the caller out. */
static int optional_site_member(const char *name) {
  return !strncmp(name, "call", 4) || !strncmp(name, "kuse", 4) || !strcmp(name, "runs");
}

static int read_site(ompdp_json_doc_t *d, const json_t *v, ompdp_plan_site_t *s) {
  if (!json_is_object(v))
    return ompdp_json_fail(d, "\"sites\" must be an array of objects");
  const json_t *m;
#define OMPDP_PLAN_SITE_FIELD(Type, Name, Desc)                                                   \
  if (!(m = json_object_get(v, #Name))) {                                                       \
    if (!optional_site_member(#Name))                                                            \
      return ompdp_json_fail(d, "a plan site has no \"%s\"", #Name);                             \
    s->Name = 0;                                                                                 \
  } else if (_Generic(s->Name, int32_t: get_i32, uint32_t: get_u32, default: get_u64)(          \
                 d, #Name, m, &s->Name)) {                                                       \
    return -1;                                                                                   \
  }
#include "ompdp/OmpdpFormat.inc"
  return 0;
}

static int read_buf(ompdp_json_doc_t *d, const json_t *v, ompdp_plan_buf_t *b, size_t sites) {
  const json_t *m;
  if (!json_is_object(v))
    return ompdp_json_fail(d, "\"buffers\" must be an array of objects");
  if (!(m = json_object_get(v, "device")) || get_i32(d, "device", m, &b->device))
    return d->failed ? -1 : ompdp_json_fail(d, "a plan buffer has no \"device\"");
  m = json_object_get(v, "sites");
  if (!m || json_is_null(m)) {
    b->num_sites = -1;
    return 0;
  }
  if (!json_is_array(m) || json_array_size(m) > OMPDP_PLAN_BUF_SITES)
    return ompdp_json_fail(d, "a plan buffer's \"sites\" must be an array of at most %d sites",
                           OMPDP_PLAN_BUF_SITES);
  for (size_t i = 0; i < json_array_size(m); ++i) {
    if (get_u32(d, "sites", json_array_get(m, i), &b->sites[i]))
      return -1;
    if (!b->sites[i] || b->sites[i] > sites)
      return ompdp_json_fail(d, "a plan buffer names site %u of %zu", b->sites[i], sites);
  }
  b->num_sites = (int32_t)json_array_size(m);
  return 0;
}

/* One field of a region record, by its kind. */
static int get_str(ompdp_json_doc_t *d, const char *name, const json_t *v, const char **out) {
  char *s = NULL;
  if (ompdp_json_get_str(d, name, v, 0, &s))
    return -1;
  free((char *)*out);
  *out = s;
  return 0;
}
#define GET_U32(Name) get_u32(d, #Name, m, &it->Name)
#define GET_U64(Name) ompdp_json_get_hex64(d, #Name, m, &it->Name)
#define GET_INT(Name) ompdp_json_get_int(d, #Name, m, &it->Name)
#define GET_STR(Name) get_str(d, #Name, m, &it->Name)
#define GET_SPELLING(Name, Parse, Count)                                                          \
  (!json_is_string(m) || (it->Name = Parse(json_string_value(m))) == Count                      \
       ? ompdp_json_fail(d, "\"%s\" is not a value this ompdp knows", #Name)                     \
       : 0)
#define GET_CONSTRUCT(Name) GET_SPELLING(Name, ompdp_construct_kind_parse, OMPDP_CK_COUNT)
#define GET_LOOP(Name) GET_SPELLING(Name, ompdp_loop_kind_parse, OMPDP_LK_COUNT)
#define GET_MAP_TYPE(Name) GET_SPELLING(Name, ompdp_map_type_parse, OMPDP_MT_COUNT)
#define GET_ACCESS(Name) GET_SPELLING(Name, ompdp_access_parse, OMPDP_ACCESS_COUNT)

/* Strings "" and enums at their first value, as for the region alone. */
static int empty_strings(ompdp_region_info_t *it) {
  int bad = 0;
#define SET_U32(Name)
#define SET_U64(Name)
#define SET_INT(Name)
#define SET_CONSTRUCT(Name)
#define SET_LOOP(Name)
#define SET_MAP_TYPE(Name)
#define SET_ACCESS(Name)
#define SET_STR(Name) bad |= !(it->Name = ompdp_strdup(""));
#define OMPDP_VIEW_REGION_FIELD(Kind, Name, Desc) SET_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
#define OMPDP_VIEW_ITEM_FIELD(Kind, Name, Desc) SET_##Kind(Name)
#include "ompdp/OmpdpFormat.inc"
  it->map_type = OMPDP_MT_NONE;
  it->access = OMPDP_ACCESS_UNKNOWN;
  return bad ? -1 : 0;
}

static int read_host_accesses(ompdp_json_doc_t *d, const json_t *m, ompdp_region_info_t *it) {
  if (!m || !json_is_array(m))
    return ompdp_json_fail(d, "a plan item's \"host_accesses\" must be an array of objects");
  size_t n = json_array_size(m);
  if (!n)
    return 0;
  ompdp_host_access_t *h = calloc(n, sizeof(*h));
  if (!h)
    return ompdp_json_fail(d, "out of memory");
  it->host_accesses = h;
  it->num_host_accesses = (uint32_t)n;
  for (size_t k = 0; k < n; ++k) {
    const json_t *a = json_array_get(m, k), *f;
    if (!json_is_object(a))
      return ompdp_json_fail(d, "a plan item's \"host_accesses\" must be an array of objects");
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc)                                                 \
  if ((f = json_object_get(a, #Name)) && get_u32(d, #Name, f, &h[k].Name))                       \
    return -1;
#include "ompdp/OmpdpFormat.inc"
  }
  return 0;
}

/* The region's exit records ("exits"; absent: none). */
static int read_exits(ompdp_json_doc_t *d, const json_t *m, ompdp_region_info_t *it) {
  if (!m)
    return 0;
  if (!json_is_array(m) || json_array_size(m) > UINT32_MAX)
    return ompdp_json_fail(d, "a plan region's \"exits\" must be an array of objects");
  size_t n = json_array_size(m);
  if (!n)
    return 0;
  ompdp_exit_t *x = calloc(n, sizeof(*x));
  if (!x)
    return ompdp_json_fail(d, "out of memory");
  it->exits = x;
  it->num_exits = (uint32_t)n;
  for (size_t k = 0; k < n; ++k) {
    const json_t *a = json_array_get(m, k), *f;
    if (!json_is_object(a))
      return ompdp_json_fail(d, "a plan region's \"exits\" must be an array of objects");
#define OMPDP_EXIT_FIELD(Type, Name, Desc)                                                        \
  if ((f = json_object_get(a, #Name)) && get_u32(d, #Name, f, &x[k].Name))                       \
    return -1;
#include "ompdp/OmpdpFormat.inc"
  }
  return 0;
}

static int read_region(ompdp_json_doc_t *d, const json_t *v, ompdp_plan_region_t *g) {
  if (!json_is_object(v))
    return ompdp_json_fail(d, "\"regions\" must be an array of objects");
  const json_t *m = json_object_get(v, "handle");
  if (!m || get_u32(d, "handle", m, &g->handle) || !g->handle)
    return d->failed ? -1 : ompdp_json_fail(d, "a plan region has no \"handle\"");
  ompdp_region_info_t *it = &g->head;
  if (empty_strings(it))
    return ompdp_json_fail(d, "out of memory");
#define OMPDP_VIEW_REGION_FIELD(Kind, Name, Desc)                                                 \
  if ((m = json_object_get(v, #Name)) && GET_##Kind(Name))                                       \
    return -1;
#include "ompdp/OmpdpFormat.inc"
  if (read_exits(d, json_object_get(v, "exits"), it))
    return -1;
  const json_t *items = json_object_get(v, "items");
  if (!items || !json_is_array(items) || json_array_size(items) > MAX_ITEMS ||
      json_array_size(items) != it->num_items)
    return ompdp_json_fail(d, "a plan region's \"items\" must be an array of its %u items",
                           it->num_items);
  if (!it->num_items)
    return 0;
  g->items = calloc(it->num_items, sizeof(*g->items));
  if (!g->items)
    return ompdp_json_fail(d, "out of memory");
  for (uint32_t j = 0; j < g->head.num_items; ++j) {
    const json_t *iv = json_array_get(items, j);
    if (!json_is_object(iv))
      return ompdp_json_fail(d, "a plan region's \"items\" must be an array of objects");
    /* Each item record holds the region's fields too (as describe gives). */
    if (ompdp_region_info_copy(&g->items[j], &g->head))
      return ompdp_json_fail(d, "out of memory");
    it = &g->items[j];
#define OMPDP_VIEW_ITEM_FIELD(Kind, Name, Desc)                                                   \
  if ((m = json_object_get(iv, #Name)) && GET_##Kind(Name))                                      \
    return -1;
#include "ompdp/OmpdpFormat.inc"
    if (read_host_accesses(d, json_object_get(iv, "host_accesses"), it))
      return -1;
  }
  return 0;
}

static int cmp_handle(const void *a, const void *b) {
  uint32_t x = ((const ompdp_plan_region_t *)a)->handle;
  uint32_t y = ((const ompdp_plan_region_t *)b)->handle;
  return (x > y) - (x < y);
}

static int read_plan(ompdp_json_doc_t *d, const json_t *v, ompdp_plan_t *p) {
  if (!json_is_object(v))
    return ompdp_json_fail(d, "\"plan\" must be an object or null");
  const json_t *m;
  if ((m = json_object_get(v, "host_device")) && get_i32(d, "host_device", m, &p->host_device))
    return -1;
  if ((m = json_object_get(v, "tick_mult")) && get_u64(d, "tick_mult", m, &p->tick_mult))
    return -1;
  const json_t *sites = json_object_get(v, "sites"), *bufs = json_object_get(v, "buffers"),
               *regions = json_object_get(v, "regions");
  if (!sites || !json_is_array(sites) || !bufs || !json_is_array(bufs) || !regions ||
      !json_is_array(regions))
    return ompdp_json_fail(d, "\"plan\" must have the arrays \"sites\", \"buffers\" and "
                              "\"regions\"");
  size_t ns = json_array_size(sites), nb = json_array_size(bufs), nr = json_array_size(regions);
  p->sites = calloc(ns ? ns : 1, sizeof(*p->sites));
  p->bufs = calloc(nb ? nb : 1, sizeof(*p->bufs));
  p->regions = calloc(nr ? nr : 1, sizeof(*p->regions));
  if (!p->sites || !p->bufs || !p->regions)
    return ompdp_json_fail(d, "out of memory");
  for (; p->num_sites < ns; ++p->num_sites)
    if (read_site(d, json_array_get(sites, p->num_sites), &p->sites[p->num_sites]))
      return -1;
  for (; p->num_bufs < nb; ++p->num_bufs)
    if (read_buf(d, json_array_get(bufs, p->num_bufs), &p->bufs[p->num_bufs], ns))
      return -1;
  for (; p->num_regions < nr; ++p->num_regions)
    if (read_region(d, json_array_get(regions, p->num_regions), &p->regions[p->num_regions])) {
      ++p->num_regions; /* freed with the others */
      return -1;
    }
  qsort(p->regions, p->num_regions, sizeof(*p->regions), cmp_handle);
  for (size_t i = 1; i < p->num_regions; ++i)
    if (p->regions[i].handle == p->regions[i - 1].handle)
      return ompdp_json_fail(d, "the plan has region %u twice", p->regions[i].handle);
  /* What the planner indexes with. */
  for (size_t i = 0; i < ns; ++i) {
    const ompdp_plan_site_t *s = &p->sites[i];
    ompdp_region_info_t head;
    if (s->buf > nb)
      return ompdp_json_fail(d, "a plan site names buffer %u of %zu", s->buf, nb);
    if (s->item < -1 || (s->item >= 0 && s->region &&
                         ompdp_plan_describe(p, s->region, -1, &head) == 0 &&
                         (uint32_t)s->item >= head.num_items))
      return ompdp_json_fail(d, "a plan site names item %d of a region without it", s->item);
  }
  p->present = 1;
  return 0;
}

int ompdp_plan_read_json(ompdp_json_doc_t *d, const json_t *v, ompdp_plan_t *out) {
  memset(out, 0, sizeof(*out));
  if (json_is_null(v))
    return 0;
  if (read_plan(d, v, out)) {
    ompdp_plan_free(out);
    return -1;
  }
  return 0;
}
