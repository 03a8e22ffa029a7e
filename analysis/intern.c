/*===- intern.c - the table of operations ---------------------------*- C -*-===*\
|*
|* An operation is everything about an event but its time and content: type,
|* addresses, devices, size, call site, region, map item, construct. A loop
|* repeats the same few operations millions of times, so each is stored once
|* and events carry its 28-bit id (engine.h).
|*
|* Lookups go through a per-thread direct-mapped cache that holds the whole
|* operation, so a repeated operation costs one hash and one compare and no
|* shared write. A miss goes to one of 16 shards picked by the hash, each
|* with its own lock: threads contend only when they meet a new operation in
|* the same shard at the same moment. Entries never move (chunks of 1024 in
|* a directory sized at compile time), so ompdp_op_get needs no lock: whoever
|* holds an id got it after the entry was written.
|*
\*===----------------------------------------------------------------------===*/
#include "engine.h"
#include "ompdp/crashlog.h"

ompdp_op_new_hook_fn ompdp_op_new_hook;

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define SHARD_BITS 4
#define NUM_SHARDS (1u << SHARD_BITS)
#define CHUNK_OPS 1024u
#define MAX_CHUNKS ((OMPDP_OP_MAX >> SHARD_BITS) / CHUNK_OPS + 1)
#define CACHE_SLOTS 128u

_Static_assert(sizeof(ompdp_op_t) == 48, "ompdp_op_t must have no padding");
_Static_assert(CHUNK_OPS == OMPDP_CL_OPS_PER_BLOCK && SHARD_BITS == 4,
               "operation ids as include/ompdp/crashlog.h describes them");

typedef struct shard {
  pthread_mutex_t lock;
  uint32_t n;       /* entries */
  uint32_t *index;  /* open addressing: entry + 1, 0 = empty */
  uint32_t cap;     /* power of two */
  ompdp_op_t *chunk[MAX_CHUNKS];
} shard_t;

static shard_t shards[NUM_SHARDS] = {
#define S {PTHREAD_MUTEX_INITIALIZER, 0, NULL, 0, {0}}
    S, S, S, S, S, S, S, S, S, S, S, S, S, S, S, S,
#undef S
};
static _Atomic size_t total_ops;
static atomic_int any_region;
static ompdp_op_t *(*store_chunk)(uint32_t shard, uint32_t index);
static void (*store_added)(const ompdp_op_t *op);

void ompdp_op_set_store(ompdp_op_t *(*chunk)(uint32_t shard, uint32_t index),
                        void (*added)(const ompdp_op_t *op)) {
  store_chunk = chunk;
  store_added = added;
}

typedef struct cache_slot {
  uint64_t h; /* 0: empty */
  uint32_t id;
  ompdp_op_t op;
} cache_slot_t;

static _Thread_local cache_slot_t *tls_cache __attribute__((tls_model("initial-exec")));

/* A thread's cache and last operations, freed when the thread exits. */
typedef struct thread_cache {
  cache_slot_t slots[CACHE_SLOTS];
  ompdp_op_mru_t mru;
} thread_cache_t;

static pthread_key_t cache_key;
static pthread_once_t cache_key_once = PTHREAD_ONCE_INIT;
static int cache_key_ok;

static void free_thread_cache(void *p) {
  tls_cache = NULL;
  ompdp_op_mru = NULL;
  free(p);
}

static void make_cache_key(void) {
  cache_key_ok = pthread_key_create(&cache_key, free_thread_cache) == 0;
}

static cache_slot_t *new_thread_cache(void) {
  pthread_once(&cache_key_once, make_cache_key);
  thread_cache_t *c = calloc(1, sizeof(*c));
  if (!c)
    return NULL;
  if (cache_key_ok)
    pthread_setspecific(cache_key, c);
  ompdp_op_mru = &c->mru;
  return tls_cache = c->slots;
}
/* The last operation this thread interned, compared before any hashing: a
 * data op's operation usually repeats the one before the one before. */
_Thread_local ompdp_op_mru_t *ompdp_op_mru __attribute__((tls_model("initial-exec")));

/* The operation as six words (it has no padding). */
static void words(const ompdp_op_t *o, uint64_t w[6]) { memcpy(w, o, sizeof(*o)); }

static int same_op(const ompdp_op_t *a, const ompdp_op_t *b) {
  uint64_t x[6], y[6];
  words(a, x);
  words(b, y);
  return !((x[0] ^ y[0]) | (x[1] ^ y[1]) | (x[2] ^ y[2]) | (x[3] ^ y[3]) | (x[4] ^ y[4]) |
           (x[5] ^ y[5]));
}

static uint64_t op_hash(const ompdp_op_t *o) {
  uint64_t w[6];
  words(o, w);
  /* Two independent multiply chains, then one mix: the words differ from
   * one operation to the next mostly in the addresses. */
  uint64_t a = (w[0] ^ w[3]) * 0x9E3779B97F4A7C15ull + (w[2] ^ w[5]);
  uint64_t b = (w[1] ^ w[4]) * 0xC2B2AE3D27D4EB4Full + (w[2] >> 7);
  uint64_t h = (a ^ (b >> 29) ^ (b << 35)) * 0xD6E8FEB86659FD93ull;
  h ^= h >> 32;
  return h | 1; /* never 0: 0 marks an empty cache slot */
}

static ompdp_op_t *entry(shard_t *s, uint32_t i) { return &s->chunk[i / CHUNK_OPS][i % CHUNK_OPS]; }

const ompdp_op_t *ompdp_op_get(uint32_t id) {
  shard_t *s = &shards[id & (NUM_SHARDS - 1)];
  return entry(s, id >> SHARD_BITS);
}

static int grow_index(shard_t *s) {
  uint32_t cap = s->cap ? s->cap * 2 : 64;
  uint32_t *ix = calloc(cap, sizeof(*ix));
  if (!ix)
    return -1;
  for (uint32_t i = 0; i < s->n; ++i) {
    uint32_t p = (uint32_t)(op_hash(entry(s, i)) >> SHARD_BITS) & (cap - 1);
    while (ix[p])
      p = (p + 1) & (cap - 1);
    ix[p] = i + 1;
  }
  free(s->index);
  s->index = ix;
  s->cap = cap;
  return 0;
}

/* Under s->lock. */
static uint32_t shard_intern(shard_t *s, uint32_t shard_no, const ompdp_op_t *op, uint64_t h) {
  if (s->cap) {
    for (uint32_t p = (uint32_t)(h >> SHARD_BITS) & (s->cap - 1);; p = (p + 1) & (s->cap - 1)) {
      uint32_t e = s->index[p];
      if (!e)
        break;
      if (same_op(entry(s, e - 1), op))
        return (e - 1) << SHARD_BITS | shard_no;
    }
  }
  uint32_t i = s->n;
  if (((uint64_t)i << SHARD_BITS | shard_no) > OMPDP_OP_MAX)
    return OMPDP_NONE;
  if ((i + 1) * 2 > s->cap && grow_index(s))
    return OMPDP_NONE;
  if (!s->chunk[i / CHUNK_OPS]) {
    ompdp_op_t *c = store_chunk ? store_chunk(shard_no, i / CHUNK_OPS) : NULL;
    if (!c)
      c = malloc(CHUNK_OPS * sizeof(*c));
    if (!c)
      return OMPDP_NONE;
    s->chunk[i / CHUNK_OPS] = c;
  }
  *entry(s, i) = *op;
  uint32_t p = (uint32_t)(h >> SHARD_BITS) & (s->cap - 1);
  while (s->index[p])
    p = (p + 1) & (s->cap - 1);
  s->index[p] = i + 1;
  s->n = i + 1;
  atomic_fetch_add_explicit(&total_ops, 1, memory_order_relaxed);
  if (op->region)
    atomic_store_explicit(&any_region, 1, memory_order_relaxed);
  ompdp_op_new_hook_fn hook = ompdp_op_new_hook;
  if (hook)
    hook(op); /* the runtime notes the devices its report says it used */
  return i << SHARD_BITS | shard_no;
}

uint32_t ompdp_op_intern(const ompdp_op_t *op) {
  uint64_t h = op_hash(op);
  cache_slot_t *cache = tls_cache;
  if (__builtin_expect(!cache, 0))
    cache = new_thread_cache(); /* NULL: go uncached */
  cache_slot_t *c = cache ? &cache[(h >> 40) & (CACHE_SLOTS - 1)] : NULL;
  if (c && c->h == h && same_op(&c->op, op))
    return c->id;
  uint32_t shard_no = (uint32_t)h & (NUM_SHARDS - 1);
  shard_t *s = &shards[shard_no];
  pthread_mutex_lock(&s->lock);
  size_t before = store_added ? s->n : 0;
  uint32_t id = shard_intern(s, shard_no, op, h);
  int added = store_added && s->n != before;
  pthread_mutex_unlock(&s->lock);
  if (added)
    store_added(op);
  if (c && id != OMPDP_NONE) {
    c->h = h;
    c->id = id;
    c->op = *op;
  }
  return id;
}

uint32_t ompdp_op_intern_slow(const ompdp_op_t *op) {
  uint32_t id = ompdp_op_intern(op); /* sets up ompdp_op_mru with the cache */
  if (id != OMPDP_NONE && ompdp_op_mru) {
    ompdp_op_mru_t *m = ompdp_op_mru;
    int v = m->next;
    m->op[v] = *op;
    m->id[v] = id;
    m->valid |= 1u << v;
    m->next = !v;
  }
  return id;
}

size_t ompdp_op_count(void) { return atomic_load_explicit(&total_ops, memory_order_relaxed); }

int ompdp_op_any_region(void) { return atomic_load_explicit(&any_region, memory_order_relaxed); }

size_t ompdp_op_memory(void) {
  size_t m = 0;
  for (uint32_t i = 0; i < NUM_SHARDS; ++i) {
    shard_t *s = &shards[i];
    m += (size_t)s->cap * sizeof(uint32_t) +
         ((size_t)s->n + CHUNK_OPS - 1) / CHUNK_OPS * CHUNK_OPS * sizeof(ompdp_op_t);
  }
  return m;
}

void ompdp_rec_expand(const ompdp_rec_t *r, uint32_t w, uint64_t mult, ompdp_event_t *out) {
  const ompdp_op_t *o = ompdp_op_get(ompdp_rec_op_id(w));
  int type = ompdp_rec_type(w);
  memset(out, 0, sizeof(*out));
  out->t_begin = ompdp_ticks_to_ns(r->t_begin, mult);
  out->t_end = ompdp_ticks_to_ns(ompdp_rec_end(r, w), mult);
  out->hash = type == OMPDP_EV_TRANSFER ? r->x : 0;
  out->src_addr = o->src_addr;
  out->dst_addr = o->dst_addr;
  out->bytes = o->bytes;
  out->codeptr = o->codeptr;
  out->src_dev = o->src_dev;
  out->dst_dev = o->dst_dev;
  out->region = o->region;
  out->item = o->item;
  out->type = (uint8_t)type;
  out->flags = (uint8_t)((w & OMPDP_REC_COMPLETE ? OMPDP_EVF_COMPLETE : 0) |
                         (w & OMPDP_REC_HASHED ? OMPDP_EVF_HASHED : 0) |
                         (o->construct & 0xf) << OMPDP_EVF_CONSTRUCT_SHIFT);
}

int ompdp_rec_from_event(const ompdp_event_t *e, ompdp_rec_t *out) {
  ompdp_op_t o;
  memset(&o, 0, sizeof(o));
  o.src_addr = e->src_addr;
  o.dst_addr = e->dst_addr;
  o.bytes = e->bytes;
  o.codeptr = e->codeptr;
  o.src_dev = e->src_dev;
  o.dst_dev = e->dst_dev;
  o.region = e->region;
  o.item = e->item;
  o.type = e->type;
  o.construct = (uint8_t)OMPDP_EV_CONSTRUCT(e);
  uint32_t id = ompdp_op_intern(&o);
  if (id == OMPDP_NONE || e->type > OMPDP_EV_STORED_LAST)
    return -1;
  memset(out, 0, sizeof(*out));
  out->t_begin = e->t_begin;
  if (e->type == OMPDP_EV_TRANSFER) {
    out->x = e->hash;
    out->dur = ompdp_rec_dur_encode(e->t_end > e->t_begin ? e->t_end - e->t_begin : 0);
  } else {
    out->x = e->t_end;
  }
  out->op = ompdp_rec_word(id, e->type, e->flags & OMPDP_EVF_HASHED,
                           e->flags & OMPDP_EVF_COMPLETE);
  return 0;
}
