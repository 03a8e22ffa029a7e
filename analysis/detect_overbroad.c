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
|*                           sent (map it `to`); for `target data`, when the
|*                           body's host code at most reads it too
|*                           (BODY_HOST_READS);
|*   tofrom, access write    the copies in: the region overwrites them (map it
|*                           `from`, if it writes every element).
|*
|* and, from the compiler's proofs about host code and kernels, the copies
|* back of an item no host code reads afterwards (HOST_UNREAD) and the
|* copies in of an item that a kernel overwrites before reading
|* (WRITES_FIRST: `target` and `target data`, to and tofrom); and, when no
|* other rule applies, the part of each transfer of an array section that
|* the region never touches (SECTION_END: `x[lo : hi]` whose loops run
|* from lo to hi, the end index written where the length belongs; the run
|* gives lo, the compiler the constants around it).
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
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

typedef struct ompdp_overbroad ompdp_overbroad_t;
static void overbroad_destroy(void *p);

struct ompdp_overbroad {
  ompdp_describe_fn describe;
  int (*section_lower)(uint32_t op, uint64_t *bytes);
  /* (region, item, 0) -> rule + 1 | live allocations selected << 8 |
   * (their finding + 1) << 32 */
  ompdp_hmap_t items;
};

static void *overbroad_create(const ompdp_engine_config_t *cfg) {
  ompdp_overbroad_t *o = calloc(1, sizeof(*o));
  if (!o)
    return NULL;
  o->describe = cfg->describe;
  o->section_lower = cfg->section_lower;
  if (ompdp_hmap_init(&o->items, 16)) {
    free(o);
    return NULL;
  }
  return o;
}

static void overbroad_destroy(void *p) {
  ompdp_overbroad_t *o = p;
  if (!o)
    return;
  ompdp_hmap_free(&o->items);
  free(o);
}

static size_t overbroad_memory(const void *p) {
  const ompdp_overbroad_t *o = p;
  return sizeof(*o) + ompdp_hmap_memory(&o->items);
}

/* A copy back that no host code can read afterwards (the compiler's
 * HOST_UNREAD, which it gives only to from, tofrom and update from). Not
 * with `always` (the program asked for the copy) or a mapper (the copy
 * is the mapper's). */
static int unread_rule(const ompdp_region_info_t *it) {
  if (!(it->access_flags & OMPDP_IA_HOST_UNREAD) ||
      (it->modifiers & (OMPDP_MOD_ALWAYS | OMPDP_MOD_MAPPER)))
    return OMPDP_OVERBROAD_NONE;
  switch (it->map_type) {
  case OMPDP_MT_FROM:
  case OMPDP_MT_TOFROM:
    return it->construct == OMPDP_CK_TARGET_UPDATE || it->construct == OMPDP_CK_TARGET_ENTER_DATA
               ? OMPDP_OVERBROAD_NONE
               : OMPDP_OVERBROAD_UNREAD;
  case OMPDP_MT_UPDATE_FROM:
    return OMPDP_OVERBROAD_UNREAD;
  default:
    return OMPDP_OVERBROAD_NONE;
  }
}

/* A copy in that nothing reads (the compiler's WRITES_FIRST, which it
 * gives only to to and tofrom items of target and target data): the
 * region, or the first kernel of the `target data` region to use the item,
 * writes every element before it reads any. Not with `always` or a mapper
 * (the program asked for the copy, or the copy is the mapper's). */
static int overwritten_rule(const ompdp_region_info_t *it) {
  if (!(it->access_flags & OMPDP_IA_WRITES_FIRST) ||
      (it->modifiers & (OMPDP_MOD_ALWAYS | OMPDP_MOD_MAPPER)) ||
      (it->construct != OMPDP_CK_TARGET && it->construct != OMPDP_CK_TARGET_DATA) ||
      (it->map_type != OMPDP_MT_TO && it->map_type != OMPDP_MT_TOFROM))
    return OMPDP_OVERBROAD_NONE;
  return OMPDP_OVERBROAD_OVERWRITTEN;
}

/* A `tofrom` item of `target data` whose body's kernels at most read it
 * (a bound: Access) and whose body's host code at most reads it too
 * (BODY_HOST_READS): at the end of the region both copies hold what was
 * sent, and the copy back brings nothing. Not with `always` or a mapper. */
static int target_data_rule(const ompdp_region_info_t *it) {
  if (it->construct != OMPDP_CK_TARGET_DATA || it->map_type != OMPDP_MT_TOFROM ||
      !(it->access_flags & OMPDP_IA_BODY_HOST_READS) ||
      (it->modifiers & (OMPDP_MOD_ALWAYS | OMPDP_MOD_MAPPER)))
    return OMPDP_OVERBROAD_NONE;
  return it->access == OMPDP_ACCESS_READ || it->access == OMPDP_ACCESS_NONE
             ? OMPDP_OVERBROAD_TO
             : OMPDP_OVERBROAD_NONE;
}

static int target_rule(const ompdp_region_info_t *it) {
  if (it->construct == OMPDP_CK_TARGET_DATA)
    return target_data_rule(it);
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

/* A section of a `target` item whose loops the compiler bounded by its
 * bounds (SECTION_END): what each transfer moves beyond them. Not with a
 * mapper (the transfers are the mapper's). */
static int section_rule(const ompdp_region_info_t *it) {
  if (!(it->access_flags & OMPDP_IA_SECTION_END) || (it->modifiers & OMPDP_MOD_MAPPER) ||
      it->construct != OMPDP_CK_TARGET || !it->section_elem_size || it->section_skip < 0 ||
      (it->map_type != OMPDP_MT_TO && it->map_type != OMPDP_MT_FROM &&
       it->map_type != OMPDP_MT_TOFROM))
    return OMPDP_OVERBROAD_NONE;
  return OMPDP_OVERBROAD_SECTION;
}

int ompdp_overbroad_rule(const ompdp_region_info_t *it) {
  int rule = target_rule(it);
  if (rule == OMPDP_OVERBROAD_NONE)
    rule = unread_rule(it);
  if (rule == OMPDP_OVERBROAD_NONE)
    rule = overwritten_rule(it);
  return rule != OMPDP_OVERBROAD_NONE ? rule : section_rule(it);
}

int ompdp_section_spare(const ompdp_region_info_t *it, uint64_t lower_bytes, uint64_t bytes,
                        uint64_t *spare) {
  uint64_t es = it->section_elem_size;
  *spare = 0;
  if (!es || lower_bytes % es || bytes % es || it->section_skip < 0)
    return 0;
  /* The section [lo, lo + len) holds the region's [lo + skip, len + end)
   * only when end <= lo; the rewrite's length len + end - lo - skip must
   * stay positive. */
  int64_t lo = (int64_t)(lower_bytes / es), len = (int64_t)(bytes / es);
  int64_t skip = it->section_skip, end = it->section_end;
  if (lo < 0 || len < 0 || end > lo || len + end - lo - skip <= 0)
    return 0;
  *spare = (uint64_t)(lo + skip - end) * es;
  return 1;
}

/* Text t as an operand of `-`: on its left (rhs 0) it needs parentheses
 * only around an operator weaker than `-`; on its right, around `+` and
 * `-` too. */
static int needs_parens(const char *t, int rhs) {
  int depth = 0;
  for (const char *p = t; *p; ++p) {
    if (*p == '(' || *p == '[')
      ++depth;
    else if (*p == ')' || *p == ']')
      --depth;
    else if (depth == 0 && p[0] == '-' && p[1] == '>')
      ++p;
    else if (depth == 0 && strchr("?<>=&|^,", *p))
      return 1;
    else if (depth == 0 && rhs && (*p == '+' || *p == '-'))
      return 1;
  }
  return 0;
}

char *ompdp_section_shrunk(const ompdp_region_info_t *it) {
  const char *lo = it->section_lower, *len = it->section_length;
  int64_t skip = it->section_skip, c = (int64_t)it->section_end - it->section_skip;
  /* The new lower bound lo (+ skip), the length len - lo (+ or - the
   * constants), each operand in parentheses when its text needs them. */
  char skip_text[32] = "", tail[32] = "";
  if (skip)
    snprintf(skip_text, sizeof(skip_text), " + %lld", (long long)skip);
  if (c)
    snprintf(tail, sizeof(tail), " %c %lld", c > 0 ? '+' : '-', (long long)(c > 0 ? c : -c));
  int lo_left = skip && needs_parens(lo, 0), lo_right = needs_parens(lo, 1);
  int len_left = needs_parens(len, 0);
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%s[%s%s%s%s : %s%s%s - %s%s%s%s]", it->variable, lo_left ? "(" : "", lo,
                  lo_left ? ")" : "", skip_text, len_left ? "(" : "", len, len_left ? ")" : "",
                  lo_right ? "(" : "", lo, lo_right ? ")" : "", tail);
  return ompdp_sb_take(&b);
}

static int overbroad_feed(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_overbroad_t *o = p;
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
  if (rule == OMPDP_OVERBROAD_SECTION) {
    /* Part of each copy in (to, tofrom) and back (from, tofrom). A copy
     * whose section the shorter one would hold but that has no element
     * spare (a lower bound of 0: the first chunk of a loop over chunks)
     * belongs to the finding with no bytes, so that the finding covers
     * every copy the rewrite changes; those before the first with spare
     * elements wait in *v (bits 8-31, the finding + 1 above), and a site
     * with none of those has no finding. */
    ompdp_region_info_t info;
    uint64_t lower, spare;
    if ((!h2d && !d2h) || !o->section_lower || o->section_lower(e->op, &lower) ||
        o->describe(d->region, d->item, &info) ||
        (h2d && info.map_type == OMPDP_MT_FROM) || (d2h && info.map_type == OMPDP_MT_TO) ||
        !ompdp_section_spare(&info, lower, d->bytes, &spare))
      return 0;
    uint64_t waiting = (*v >> 8) & 0xffffff;
    if (!spare && !(*v >> 32)) {
      if (waiting < 0xffffff)
        *v = (*v & ~(0xffffffull << 8)) | (waiting + 1) << 8;
      return 0;
    }
    uint32_t fi = ompdp_g_select_part(g, OMPDP_FK_OVERBROAD_MAP, e, (uint32_t)rule, spare);
    if (fi == OMPDP_NONE)
      return -1;
    for (; waiting; --waiting)
      if (ompdp_g_select_part(g, OMPDP_FK_OVERBROAD_MAP, e, (uint32_t)rule, 0) == OMPDP_NONE)
        return -1;
    *v = (*v & 0xff) | (uint64_t)(fi + 1) << 32;
    if (spare)
      ompdp_g_match(g, OMPDP_FK_OVERBROAD_MAP, e->seq, OMPDP_NONE, (uint32_t)rule);
    return 0;
  }
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
        !((rule == OMPDP_OVERBROAD_TO || rule == OMPDP_OVERBROAD_UNREAD) && d2h) &&
        !((rule == OMPDP_OVERBROAD_FROM || rule == OMPDP_OVERBROAD_OVERWRITTEN) && h2d))
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

/*===- the detection ------------------------------------------------------------===*/

static char *overbroad_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                            const ompdp_region_info_t *related, uint32_t rule, const char *d) {
  (void)related; /* the repeated operation's item: only fresh buffers need it */
  char buf[512];
  const char *plural = f->num_devices > 1 ? "s" : "";
  const char *v = f->variable ? f->variable : "...";
  if (rule == OMPDP_OVERBROAD_SECTION && item) {
    char *shrunk = ompdp_section_shrunk(item);
    if (!shrunk)
      return NULL;
    char from[96] = "", to[96] = "";
    if (item->section_skip)
      snprintf(from, sizeof(from), " + %d", item->section_skip);
    if (item->section_end)
      snprintf(to, sizeof(to), " %c %lld", item->section_end > 0 ? '+' : '-',
               item->section_end > 0 ? (long long)item->section_end
                                     : -(long long)item->section_end);
    snprintf(buf, sizeof(buf),
             "the region uses only the elements from %s%s up to %s%s (excluded) of `%s` (its "
             "loops run between the section's bounds: the end index was written where the "
             "length belongs), yet each copy %s device%s %s moves the whole section: map `%s`",
             item->section_lower, from, item->section_length, to, item->expr,
             item->map_type == OMPDP_MT_TOFROM ? "to and from"
             : item->map_type == OMPDP_MT_TO   ? "to"
                                               : "from",
             plural, d, shrunk);
    free(shrunk);
    return ompdp_strdup(buf);
  }
  if (rule == OMPDP_OVERBROAD_UNREAD) {
    /* The clause says which construct copies: a motion clause is a
     * `target update`'s. */
    const char *c = f->clause ? f->clause : "";
    const char *how = !strncmp(c, "from(", 5)   ? "remove it from the `target update`"
                      : strstr(c, "tofrom") != NULL ? "map it with `map(to: ...)`"
                                                  : "map it with `map(alloc: ...)` "
                                                    "(`map(release: ...)` on `target exit data`)";
    snprintf(buf, sizeof(buf),
             "the host never reads what the copies back of %s from device%s %s bring (after "
             "them it only overwrites or frees it, and no other pointer reaches it): %s",
             f->variable ? f->variable : "this item", plural, d, how);
  } else if (rule == OMPDP_OVERBROAD_OVERWRITTEN) {
    /* The clause says what keeps the rest: a `from` part stays. */
    const char *c = f->clause ? f->clause : "";
    int tofrom = strstr(c, "tofrom") != NULL;
    snprintf(buf, sizeof(buf),
             "%s writes every element of %s before reading any (the compiler proved it), so "
             "nothing reads what the copies in to device%s %s send: map it with `map(%s: %s)`",
             item && item->construct == OMPDP_CK_TARGET_DATA
                 ? "the first kernel of the `target data` region to use it"
                 : "the region",
             f->variable ? f->variable : "this item", plural, d, tofrom ? "from" : "alloc", v);
  } else if (rule == OMPDP_OVERBROAD_TO && item && item->construct == OMPDP_CK_TARGET_DATA)
    snprintf(buf, sizeof(buf),
             "the kernels of the `target data` region at most read %s and its host code does "
             "not change it (the compiler proved both), so the copy back from device%s %s "
             "brings the host what it already has: map it with `map(to: %s)`",
             f->variable ? f->variable : "this item", plural, d, v);
  else if (rule == OMPDP_OVERBROAD_TO)
    snprintf(buf, sizeof(buf),
             "the region only reads %s: map it with `map(to: %s)`, which drops the copies "
             "back from device%s %s",
             f->variable ? f->variable : "this item", v, plural, d);
  else if (rule == OMPDP_OVERBROAD_FROM)
    snprintf(buf, sizeof(buf),
             "the region only writes %s: if it writes every element, map it with "
             "`map(from: %s)` and drop the copy in to device%s %s",
             f->variable ? f->variable : "this item", v, plural, d);
  else
    snprintf(buf, sizeof(buf),
             "the region never reads or writes %s, yet it was allocated or copied on "
             "device%s %s: remove it from the map clause",
             f->variable ? f->variable : "this item", plural, d);
  return ompdp_strdup(buf);
}

/* Its operations are allocations, transfers and deletes of one item. */
const ompdp_detection_t ompdp_detect_overbroad = {
    .name = "overbroad maps",
    .kinds = {{.kind = OMPDP_FK_OVERBROAD_MAP,
               .transfer_devices = 1,
               .aux = OMPDP_AUX_RULE,
               .rewrite = OMPDP_RR_NARROW_MAP,
               .rewrites = 1u << OMPDP_RK_REMOVE_ITEM | 1u << OMPDP_RK_CHANGE_MAP_TYPE |
                           1u << OMPDP_RK_SHRINK_SECTION}},
    .num_kinds = 1,
    .create = overbroad_create,
    .on_alloc = overbroad_feed,
    .on_delete = overbroad_feed,
    .on_transfer = overbroad_feed,
    .memory = overbroad_memory,
    .destroy = overbroad_destroy,
    .text = overbroad_text,
};
