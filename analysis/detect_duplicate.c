/*===- detect_duplicate.c - Algorithm 1: duplicate transfers --------*- C -*-===*\
|*
|* Groups transfers by (content hash, destination device). In a group of n,
|* the first transfer is needed and the n-1 others are duplicates: the
|* destination already held those bytes. Each duplicate also says whether it
|* re-sends the same host buffer as the first (keep that buffer resident) or
|* another buffer that happens to hold the same bytes (initialise on the
|* device instead).
|*
|* Online, this is one table entry per distinct (content, device): the key
|* and the first transfer's operation, 12 bytes (16 with its position, kept
|* only for tests). It is the one part of the analysis that grows with the
|* program's distinct data rather than with its code. Bounded by a limit, the
|* table keeps two generations: when the young one is full the old one is
|* forgotten (and counted), so the most recent contents are always known.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"
#include "verdict.h"

#include <stdlib.h>

typedef struct ompdp_dup ompdp_dup_t;
static void dup_destroy(void *p);

struct ompdp_dup {
  ompdp_ctab_t gen[2];
  int young;
  int with_seq;
  uint64_t limit; /* entries per generation, 0: unbounded */
  uint64_t forgotten;
};

/* The key is the hash alone: the same bytes sent to several devices (or
 * to a device and back to the host) sit next to each other, one cache miss
 * for all; `same_dest` tells the devices apart. */
static uint64_t dev_key(uint64_t hash, int dev) {
  (void)dev;
  return hash;
}

static int same_dest(const void *ctx, uint32_t op) {
  return ompdp_op_get(op)->dst_dev == *(const int *)ctx;
}

static ompdp_dup_t *dup_create(uint64_t limit, int with_seq) {
  ompdp_dup_t *d = calloc(1, sizeof(*d));
  if (!d)
    return NULL;
  d->with_seq = with_seq;
  d->limit = limit / (with_seq ? 32 : 24); /* bytes per entry at 3/4 load, roughly */
  if (limit && !d->limit)
    d->limit = 1;
  ompdp_ctab_init(&d->gen[0], with_seq);
  ompdp_ctab_init(&d->gen[1], with_seq);
  return d;
}

static void dup_destroy(void *p) {
  ompdp_dup_t *d = p;
  if (!d)
    return;
  ompdp_ctab_free(&d->gen[0]);
  ompdp_ctab_free(&d->gen[1]);
  free(d);
}

static size_t dup_memory(const void *p) {
  const ompdp_dup_t *d = p;
  return sizeof(*d) + d->gen[0].bytes + d->gen[1].bytes;
}

static uint64_t dup_forgotten(const void *p) { return ((const ompdp_dup_t *)p)->forgotten; }

static void dup_prefetch(void *p, uint64_t hash, int dev) {
  const ompdp_dup_t *d = p;
  ompdp_ctab_prefetch(&d->gen[d->young], dev_key(hash, dev));
}

static int dup_feed(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_dup_t *d = p;
  if (!e->hashed)
    return 0;
  int dev = e->d->dst_dev;
  uint64_t k = dev_key(e->hash, dev);
  uint32_t *a = NULL, *b = NULL;
  ompdp_ctab_t *young = &d->gen[d->young], *old = &d->gen[!d->young];
  int rc = -1;
  if (old->n)
    rc = ompdp_ctab_find(old, k, same_dest, &dev, &a, &b);
  if (rc) {
    rc = ompdp_ctab_upsert(young, k, same_dest, &dev, e->op, (uint32_t)e->seq, &a, &b);
    if (rc < 0)
      return -1;
    if (rc == 1) { /* the first transfer of these bytes to this device */
      if (d->limit && young->n >= d->limit) {
        d->forgotten += old->n;
        ompdp_ctab_free(old);
        d->young = !d->young;
      }
      return 0;
    }
  }
  int host = ompdp_g_host(g);
  uint32_t first = *a - 1;
  ompdp_xref_t ref = {b ? *b : UINT64_MAX, first};
  uint32_t same = ompdp_host_addr(e->d, host) == ompdp_host_addr(ompdp_op_get(first), host);
  if (ompdp_g_select(g, OMPDP_FK_DUPLICATE_TRANSFER, e, &ref, same) == OMPDP_NONE)
    return -1;
  ompdp_g_match(g, OMPDP_FK_DUPLICATE_TRANSFER, e->seq, ref.seq, same);
  return 0;
}

/*===- the detection ------------------------------------------------------------===*/

/* Algorithm 1: groups transfers by (content hash, destination device);
 * the content table gets two thirds of content_limit (the round trips the
 * rest). Matches need the position of each first transfer. */
static void *dup_new(const ompdp_engine_config_t *cfg) {
  uint64_t lim = cfg->content_limit;
  return dup_create(lim ? lim / 3 * 2 : 0, cfg->matches != NULL);
}

/* Whether item (f's site) is the `to` item of a `target update`. */
static int updates_to(const ompdp_region_info_t *it) {
  return it && it->construct == OMPDP_CK_TARGET_UPDATE && it->map_type == OMPDP_MT_UPDATE_TO;
}

static char *dup_text(const ompdp_finding_t *f, const ompdp_region_info_t *item, const ompdp_region_info_t *related, uint32_t rule,
                      const char *d) {
  char buf[768];
  const char *plural = f->num_devices > 1 ? "s" : "";
  const char *v = f->variable ? f->variable : "...";
  if (f->same_buffer && !ompdp_finding_is_copy_back(f)) {
    /* Not the same buffer: a new one, at the old one's address, with the
     * same bytes. */
    snprintf(buf, sizeof(buf), " holding the bytes device%s %s already has", plural, d);
    char *t = ompdp_detect_fresh_text(f, item, related, buf, "fill", " map(to: ...)");
    if (t)
      return t;
  }
  /* Copies back: the host got bytes it already had. Neither `map(to: ...)`
   * nor keeping the data resident says anything about that. */
  if (ompdp_finding_is_copy_back(f))
    snprintf(buf, sizeof(buf),
             "the copy back from device%s %s brought the host the bytes of %s it already had "
             "(the kernel computed the same result again): copy it back only where it can "
             "change",
             plural, d, v);
  else if (f->other_buffer == 0 && updates_to(item))
    /* The item is resident already: keeping it so says nothing. The
     * update may be a reset of what a kernel changes (a counter), which
     * the run cannot see without a copy back. */
    snprintf(buf, sizeof(buf),
             "`target update to(%s)` sends device%s %s the bytes it was sent last time: if no "
             "kernel changes `%s` on the device in between, move the update before the loop "
             "or the calls that repeat it (or drop it); if one does (a counter, an "
             "accumulator), the update resets it and is needed",
             item->expr && item->expr[0] ? item->expr : v, plural, d,
             item->variable ? item->variable : v);
  else if (f->other_buffer == 0 && !item)
    /* No region table: nothing says whether a kernel writes the data, and
     * a kept copy that a kernel changed would not be the host's bytes. */
    snprintf(buf, sizeof(buf),
             "the same host buffer is sent again with unchanged contents to device%s %s: if "
             "no kernel writes it on the device between the sends, keep it resident with "
             "`#pragma omp target data map(to: %s)` (or `target enter data`) around the "
             "constructs that use it and drop the per-construct copy; if one does, each send "
             "resets it and is needed (built with the ompdp plugin, ompdp tells which)",
             plural, d, v);
  else if (f->other_buffer == 0)
    snprintf(buf, sizeof(buf),
             "the same host buffer is sent again with unchanged contents to device%s %s: "
             "keep it resident with `#pragma omp target data map(to: %s)` (or `target enter "
             "data`) around the constructs that use it, and drop the per-construct copy",
             plural, d, v);
  else if (f->same_buffer == 0)
    /* The bytes are the same, not the buffer: two variables initialised
     * alike are each an input of their own; only a copy of one into the
     * other (which the compiler must show) could be made on the device.
     * All-zero bytes are zero_transfer's finding. */
    snprintf(buf, sizeof(buf),
             "other host buffers with identical bytes were already sent to device%s %s: "
             "unless %s is a copy of one of them (the device could then make the copy from "
             "what it has), each is an input of its own that the device needs, and mapping "
             "it with `map(alloc: ...)` would break the program",
             plural, d, f->variable ? f->variable : "this buffer");
  else
    snprintf(buf, sizeof(buf),
             "%llu repeat(s) re-send the same host buffer (keep it resident with `target data`) "
             "and %llu carry bytes that other host buffers held (each an input of its own, "
             "unless it is a copy of one of them)",
             (unsigned long long)f->same_buffer, (unsigned long long)f->other_buffer);
  return ompdp_strdup(buf);
}

/* At a routine call: the call that sends (or copies back) again moves. */
static char *dup_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024];
  const char *r = c->routine, *v = c->variable, *plural = c->plural, *d = c->devices;
  if (ompdp_finding_is_copy_back(f))
    snprintf(buf, sizeof(buf),
             "`%s` copies back from device%s %s bytes of %s the host already has: %s",
             r, plural, d, v,
             c->loop ? "copy it back once after the loop (move the call there), or only where "
                       "the device's copy can have changed"
                     : "copy it back only where the device's copy can have changed");
  else if (c->loop)
    snprintf(buf, sizeof(buf),
             "`%s` sends device%s %s bytes of %s it already has: copy them once before the "
             "loop (move the call there) and again only where %s changes on the host",
             r, plural, d, v, v);
  else
    snprintf(buf, sizeof(buf),
             "`%s` sends device%s %s bytes of %s it already has: copy them once, and again "
             "only where %s changes on the host",
             r, plural, d, v, v);
  return ompdp_strdup(buf);
}

const ompdp_detection_t ompdp_detect_duplicate = {
    .name = "duplicate transfers",
    .kinds = {{.kind = OMPDP_FK_DUPLICATE_TRANSFER,
               .transfer_devices = 1,
               .aux = OMPDP_AUX_SAME_BUFFER,
               .rewrite = OMPDP_RR_KEEP_RESIDENT,
               .rewrites = 1u << OMPDP_RK_KEEP_RESIDENT,
               .verdict = ompdp_verdict_duplicate,
               .routine_text = dup_routine_text}},
    .num_kinds = 1,
    .create = dup_new,
    .on_transfer = dup_feed,
    .ahead = dup_prefetch,
    .memory = dup_memory,
    .forgotten = dup_forgotten,
    .destroy = dup_destroy,
    .text = dup_text,
};
