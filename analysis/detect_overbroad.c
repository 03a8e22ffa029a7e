/*===- detect_overbroad.c - map items broader than the region needs -*- C -*-===*\
|*
|* The compiler plugin records, per map item of a `target` construct, what
|* the region body does with it (region_view.h: access none, read, write,
|* read-write, unknown). Mapped more broadly than that, an item moves bytes
|* nobody needs:
|*
|*   access none             every allocation and transfer of the item
|*                           (remove the item);
|*   tofrom, access read     the copies back: the device returns what it was
|*                           sent (map it `to`);
|*   tofrom, access write    the copies in: the region overwrites them (map it
|*                           `from`, if it writes every element).
|*
|* Only what really moved at the item counts: an item whose construct found
|* its data present (a surrounding `target data`) moves nothing and gets no
|* finding. Items with `always` are left alone (the program asks for every
|* copy), and read-write or unknown access says nothing.
|*
|* The facts are static, so each (region, item) is described once, on its
|* first operation, and each operation is decided as it arrives.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"
#include "region_view.h"

#include <stdlib.h>
#include <string.h>

static ompdp_describe_fn describe_default;

void ompdp_detect_set_describe(ompdp_describe_fn fn) { describe_default = fn; }

struct ompdp_overbroad {
  ompdp_describe_fn describe;
  /* (region, item, 0) -> rule + 1 | live allocations selected << 8 |
   * (their finding + 1) << 32 */
  ompdp_hmap_t items;
};

ompdp_overbroad_t *ompdp_overbroad_create(void) {
  ompdp_overbroad_t *o = calloc(1, sizeof(*o));
  if (!o)
    return NULL;
  o->describe = describe_default;
  if (ompdp_hmap_init(&o->items, 16)) {
    free(o);
    return NULL;
  }
  return o;
}

void ompdp_overbroad_destroy(ompdp_overbroad_t *o) {
  if (!o)
    return;
  ompdp_hmap_free(&o->items);
  free(o);
}

size_t ompdp_overbroad_memory(const ompdp_overbroad_t *o) {
  return sizeof(*o) + ompdp_hmap_memory(&o->items);
}

int ompdp_overbroad_rule(const ompdp_region_info_t *it) {
  if (it->construct != OMPDP_CK_TARGET || (it->modifiers & OMPDP_MOD_ALWAYS))
    return OMPDP_OVERBROAD_NONE;
  ompdp_map_type_t mt = it->map_type;
  int tofrom = mt == OMPDP_MT_TOFROM;
  if (!tofrom && mt != OMPDP_MT_TO && mt != OMPDP_MT_FROM && mt != OMPDP_MT_ALLOC)
    return OMPDP_OVERBROAD_NONE; /* firstprivate, release, delete, ... */
  switch (it->access) {
  case OMPDP_ACCESS_NONE:
    return OMPDP_OVERBROAD_REMOVE;
  case OMPDP_ACCESS_READ:
    return tofrom ? OMPDP_OVERBROAD_TO : OMPDP_OVERBROAD_NONE;
  case OMPDP_ACCESS_WRITE:
    return tofrom ? OMPDP_OVERBROAD_FROM : OMPDP_OVERBROAD_NONE;
  case OMPDP_ACCESS_UNKNOWN:
  case OMPDP_ACCESS_READ_WRITE:
  case OMPDP_ACCESS_COUNT:
    return OMPDP_OVERBROAD_NONE;
  }
  return OMPDP_OVERBROAD_NONE;
}

int ompdp_overbroad_feed(ompdp_overbroad_t *o, ompdp_engine_t *g, const ompdp_xev_t *e) {
  const ompdp_op_t *d = e->d;
  if (!d->region || d->item < 0 || !o->describe)
    return 0;
  if (e->type == OMPDP_EV_TRANSFER && d->bytes == 0)
    return 0;
  int inserted;
  uint64_t *v = ompdp_hmap_upsert(&o->items, d->region, (uint64_t)(uint16_t)d->item, 0, &inserted);
  if (!v)
    return -1;
  if (inserted) {
    ompdp_region_info_t info;
    int rule = OMPDP_OVERBROAD_NONE;
    if (o->describe(d->region, d->item, &info) == 0)
      rule = ompdp_overbroad_rule(&info);
    *v = (uint64_t)rule + 1;
  }
  int rule = (int)(*v & 0xff) - 1;
  if (rule == OMPDP_OVERBROAD_NONE)
    return 0;
  int host = ompdp_g_host(g);
  int h2d = e->type == OMPDP_EV_TRANSFER && d->src_dev == host && d->dst_dev != host;
  int d2h = e->type == OMPDP_EV_TRANSFER && d->dst_dev == host && d->src_dev != host;
  uint64_t live = (*v >> 8) & 0xffffff;
  uint32_t f;
  switch (e->type) {
  case OMPDP_EV_ALLOC:
    if (rule != OMPDP_OVERBROAD_REMOVE)
      return 0;
    if ((f = ompdp_g_select(g, OMPDP_FK_OVERBROAD_MAP, e, NULL, (uint32_t)rule)) == OMPDP_NONE)
      return -1;
    /* Its delete belongs to the finding too (as an unused allocation's). */
    if (live < 0xffffff)
      ++live;
    *v = (*v & 0xff) | live << 8 | (uint64_t)(f + 1) << 32;
    break;
  case OMPDP_EV_DELETE:
    if (rule != OMPDP_OVERBROAD_REMOVE || !live || !(*v >> 32))
      return 0;
    *v = (*v & ~(0xffffffull << 8)) | (live - 1) << 8;
    return ompdp_g_add_interval(g, (uint32_t)((*v >> 32) - 1), e);
  case OMPDP_EV_TRANSFER:
    if (!(rule == OMPDP_OVERBROAD_REMOVE && (h2d || d2h)) &&
        !(rule == OMPDP_OVERBROAD_TO && d2h) && !(rule == OMPDP_OVERBROAD_FROM && h2d))
      return 0;
    if (ompdp_g_select(g, OMPDP_FK_OVERBROAD_MAP, e, NULL, (uint32_t)rule) == OMPDP_NONE)
      return -1;
    break;
  default:
    return 0;
  }
  ompdp_g_match(g, OMPDP_FK_OVERBROAD_MAP, e->seq, OMPDP_NONE, (uint32_t)rule);
  return 0;
}
