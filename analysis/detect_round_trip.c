/*===- detect_round_trip.c - Algorithm 2: round trips --------------*- C -*-===*\
|*
|* A round trip is data sent from A to B that later comes back from B to A
|* unchanged. Walking the transfers in time order, each one first tries to
|* close the oldest still-open trip in the opposite direction with the same
|* hash; if none is open it opens one itself. This corrects two defects of
|* the published implementation: a return can only pair with an outgoing
|* transfer that happened before it, and a transfer is part of at most one
|* trip, so nothing is counted twice.
|*
|* Open trips are FIFOs of nodes keyed by (hash, from, to); a key is removed
|* when its FIFO empties, so the table holds only what is open. Bounded by a
|* limit, it keeps two generations like the duplicate table.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"
#include "verdict.h"

#include <stdlib.h>
#include <string.h>

typedef struct ompdp_rtrip ompdp_rtrip_t;
static void rtrip_destroy(void *p);

typedef struct node {
  uint32_t op;
  uint32_t next; /* node + 1, 0 = end */
  uint64_t seq;
} node_t;

struct ompdp_rtrip {
  ompdp_ctab_t gen[2]; /* a = head node, b = tail node */
  int young;
  uint64_t limit; /* open keys per generation, 0: unbounded */
  uint64_t forgotten;
  node_t *nodes;
  uint32_t num_nodes, cap_nodes;
  uint32_t free_list; /* node + 1 */
};

typedef struct pair {
  int from, to;
  const ompdp_rtrip_t *t;
} pair_t;

static uint64_t pair_key(uint64_t hash, int from, int to) {
  return hash ^ (((uint64_t)(uint32_t)from << 32 | (uint32_t)to) + 1) * 0xC2B2AE3D27D4EB4Full;
}

static int same_pair(const void *ctx, uint32_t head) {
  const pair_t *p = ctx;
  const ompdp_op_t *o = ompdp_op_get(p->t->nodes[head].op);
  return o->src_dev == p->from && o->dst_dev == p->to;
}

static ompdp_rtrip_t *rtrip_create(uint64_t limit) {
  ompdp_rtrip_t *t = calloc(1, sizeof(*t));
  if (!t)
    return NULL;
  t->limit = limit / 48; /* an open key: entry, index slack and node */
  if (limit && !t->limit)
    t->limit = 1;
  ompdp_ctab_init(&t->gen[0], 1);
  ompdp_ctab_init(&t->gen[1], 1);
  return t;
}

static void rtrip_destroy(void *p) {
  ompdp_rtrip_t *t = p;
  if (!t)
    return;
  ompdp_ctab_free(&t->gen[0]);
  ompdp_ctab_free(&t->gen[1]);
  free(t->nodes);
  free(t);
}

static size_t rtrip_memory(const void *p) {
  const ompdp_rtrip_t *t = p;
  return sizeof(*t) + t->gen[0].bytes + t->gen[1].bytes + t->cap_nodes * sizeof(node_t);
}

static uint64_t rtrip_forgotten(const void *p) { return ((const ompdp_rtrip_t *)p)->forgotten; }

static uint32_t new_node(ompdp_rtrip_t *t, uint32_t op, uint64_t seq) {
  uint32_t i;
  if (t->free_list) {
    i = t->free_list - 1;
    t->free_list = t->nodes[i].next;
  } else {
    if (t->num_nodes == t->cap_nodes) {
      uint32_t cap = t->cap_nodes ? t->cap_nodes * 2 : 64;
      node_t *v = realloc(t->nodes, cap * sizeof(*v));
      if (!v)
        return OMPDP_NONE;
      t->nodes = v;
      t->cap_nodes = cap;
    }
    i = t->num_nodes++;
  }
  t->nodes[i] = (node_t){op, 0, seq};
  return i;
}

static void free_node(ompdp_rtrip_t *t, uint32_t i) {
  t->nodes[i].next = t->free_list;
  t->free_list = i + 1;
}

/* Forgets the old generation: its open trips and their nodes. */
static void forget_old(ompdp_rtrip_t *t) {
  ompdp_ctab_t *old = &t->gen[!t->young];
  for (int s = 0; s < OMPDP_CTAB_SUBS; ++s) {
    ompdp_ctab_sub_t *sub = &old->sub[s];
    for (uint32_t i = 0; i < sub->cap; ++i) {
      uint32_t head; /* + 1, 0 = empty slot */
      memcpy(&head, sub->e + (size_t)i * old->esize + 8, 4);
      for (uint32_t n = head; n;) {
        uint32_t next = t->nodes[n - 1].next;
        free_node(t, n - 1);
        t->forgotten++;
        n = next;
      }
    }
  }
  ompdp_ctab_free(old);
}

static int rtrip_feed(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_rtrip_t *t = p;
  const ompdp_op_t *o = e->d;
  if (!e->hashed || o->src_dev == o->dst_dev)
    return 0;
  uint32_t *a, *b;
  /* Close the oldest open trip from our destination to our source. */
  pair_t back = {o->dst_dev, o->src_dev, t};
  uint64_t kb = pair_key(e->hash, back.from, back.to);
  for (int gi = 0; gi < 2; ++gi) {
    ompdp_ctab_t *tab = &t->gen[gi ? t->young : !t->young]; /* old first */
    if (!tab->n || ompdp_ctab_find(tab, kb, same_pair, &back, &a, &b))
      continue;
    uint32_t head = *a - 1;
    ompdp_xref_t ref = {t->nodes[head].seq, t->nodes[head].op};
    if (ompdp_g_select(g, OMPDP_FK_ROUND_TRIP, e, &ref, 0) == OMPDP_NONE)
      return -1;
    ompdp_g_match(g, OMPDP_FK_ROUND_TRIP, e->seq, ref.seq, 0);
    uint32_t next = t->nodes[head].next;
    free_node(t, head);
    if (next)
      *a = next;
    else
      ompdp_ctab_remove(tab, kb, a);
    return 0;
  }
  /* Open one: at the tail of the FIFO of its key, or as a new key. */
  pair_t fwd = {o->src_dev, o->dst_dev, t};
  uint64_t k = pair_key(e->hash, fwd.from, fwd.to);
  uint32_t n = new_node(t, e->op, e->seq);
  if (n == OMPDP_NONE)
    return -1;
  ompdp_ctab_t *old = &t->gen[!t->young], *young = &t->gen[t->young];
  if (old->n && !ompdp_ctab_find(old, k, same_pair, &fwd, &a, &b)) {
    t->nodes[*b].next = n + 1;
    *b = n;
    return 0;
  }
  int rc = ompdp_ctab_upsert(young, k, same_pair, &fwd, n, n, &a, &b);
  if (rc < 0)
    return -1;
  if (rc == 0) {
    t->nodes[*b].next = n + 1;
    *b = n;
    return 0;
  }
  if (t->limit && young->n >= t->limit) {
    forget_old(t);
    t->young = !t->young;
  }
  return 0;
}

/*===- the detection ------------------------------------------------------------===*/

/* Algorithm 2, corrected: its content table gets a third of content_limit. */
static void *rtrip_new(const ompdp_engine_config_t *cfg) {
  uint64_t lim = cfg->content_limit;
  return rtrip_create(lim ? lim / 3 : 0);
}

/* The words keep both of the host's views: what it reads comes back, and
 * what host code changes goes out again (bytes that came back unchanged
 * may still be rewritten by the host, with the same values this time). */
static char *rtrip_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                        const ompdp_region_info_t *related, uint32_t rule, const char *d) {
  (void)related; /* the repeated operation's item: only fresh buffers need it */
  char buf[768];
  const char *plural = f->num_devices > 1 ? "s" : "";
  const char *v = f->variable ? f->variable : "...";
  if (f->count == 1 && item && item->construct == OMPDP_CK_TARGET_UPDATE)
    /* A `target update to` that sent back, once, what came back before:
     * the device still had it, unless something changed its copy. */
    snprintf(buf, sizeof(buf),
             "data copied back from device%s %s was sent back unchanged, once, by this "
             "`target update to`: the device still had those bytes, unless a kernel changed "
             "its copy in between; if none can, the update can go (where the host changes %s "
             "in between, it is needed)",
             plural, d, v);
  else if (f->count == 1)
    /* One copy back, from one execution: nothing repeats to keep the data
     * across; only the copy back itself was for nothing. */
    snprintf(buf, sizeof(buf),
             "data copied back from device%s %s returned unchanged, once: the copy back "
             "brought the host nothing it did not have. If no kernel of the construct ever "
             "writes %s, map it `to` instead and the copy back goes; if one may (with other "
             "inputs), it is needed",
             plural, d, v);
  else if (item && item->loop_kind == OMPDP_LK_NONE)
    /* No loop around the construct in its function: what repeats it is a
     * caller, where the data has to be kept. */
    snprintf(buf, sizeof(buf),
             "data copied back from device%s %s returns unchanged: the construct's function "
             "has no loop around it, so keep the data on the device where the calls repeat "
             "(`#pragma omp target enter data map(to: %s)` before the caller's loop, `target "
             "exit data map(from: %s)` after it), and use `#pragma omp target update from(%s)` "
             "only where the host reads it and `target update to(%s)` after host code that "
             "changes it",
             plural, d, v, v, v, v);
  else
    snprintf(buf, sizeof(buf),
             "data copied back from device%s %s returns unchanged: keep it on the device across "
             "the enclosing loop with `#pragma omp target data map(tofrom: %s)`, and use "
             "`#pragma omp target update from(%s)` only where the host reads it and `target "
             "update to(%s)` after host code that changes it",
             plural, d, v, v, v);
  return ompdp_strdup(buf);
}

/* At a routine call: the calls that copy back and send again move. */
static char *rtrip_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024];
  snprintf(buf, sizeof(buf),
           "%s comes back from device%s %s unchanged and `%s` sends it out again: %s",
           c->variable, c->plural, c->devices, c->routine,
           c->loop ? "copy it to the device once before the loop and back once after it (or "
                     "only where the host reads it), moving the calls out of the loop"
                   : "keep the device's copy and send it again only where the host changed it");
  return ompdp_strdup(buf);
}

const ompdp_detection_t ompdp_detect_round_trip = {
    .name = "round trips",
    .kinds = {{.kind = OMPDP_FK_ROUND_TRIP,
               .transfer_devices = 1,
               .aux = OMPDP_AUX_NONE,
               .rewrite = OMPDP_RR_KEEP_RESIDENT,
               .rewrites = 1u << OMPDP_RK_KEEP_RESIDENT,
               .verdict = ompdp_verdict_round_trip,
               .routine_text = rtrip_routine_text}},
    .num_kinds = 1,
    .create = rtrip_new,
    .on_transfer = rtrip_feed,
    .memory = rtrip_memory,
    .forgotten = rtrip_forgotten,
    .destroy = rtrip_destroy,
    .text = rtrip_text,
};
