/*===- detect_zero.c - zero-filled transfers ------------------------*- C -*-===*\
|*
|* ValueExpert's "single zero" pattern: a host-to-device copy whose bytes
|* were all zero. Allocating the memory on the device and filling it there
|* costs no transfer. Decided from the content hash the callbacks recorded:
|* a transfer of n bytes is all zeros when its hash is XXH3-64 of n zero
|* bytes (a 64-bit hash: a false match is as unlikely as a duplicate
|* transfer taken for another's bytes).
|*
|* That hash (include/ompdp/content_hash.h) is computed once per distinct
|* size and cached. Below OMPDP_HASH_CHUNKED_MIN it is taken with the
|* streaming XXH3 API over one static block of zeros, keeping the state of
|* the largest size hashed so far, so that a larger size only hashes the
|* zeros it adds; from there on the buffer's chunks all hash alike but the
|* last, so a 256 MiB transfer costs two chunk hashes. Small copies (a
|* zero scalar, a flag) are left out: below the `zero_min_bytes` option
|* they are not worth a device-side fill. Device-to-host zeros are the device's results,
|* not this pattern.
|*
|* Its second kind is ValueExpert's "single value": a copy whose elements
|* all held one other value, which the runtime saw in the bytes and noted
|* under their content hash (single_value.c), with the same threshold.
|*
\*===----------------------------------------------------------------------===*/
#include "cpu_features.h"
#include "detect.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include "ompdp/content_hash.h"
#include "single_value.h"
#include "verdict.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Sizes cached at most; past it the cache starts again (a program with
 * that many distinct sizes pays one more hash per size). */
#define ZERO_CACHE_MAX 4096

struct ompdp_zero {
  uint64_t min_bytes;
  ompdp_hmap_t cache; /* (bytes, 0, 0) -> XXH3 of that many zero bytes */
  uint64_t last_bytes, last_hash; /* the last size asked (last_bytes 0: none) */
  XXH3_state_t run;   /* XXH3 streamed over run_bytes zero bytes */
  uint64_t run_bytes; /* 0: run not started */
};

static const unsigned char zero_block[16384];

#if defined(__x86_64__) && defined(OMPDP_HAVE_AVX2_ZERO)
/* zero_avx2.c: the same loop built for AVX2, where the CPU has it. */
void ompdp_zero_feed_avx2(void *state, uint64_t n);

static int have_avx2(void) {
  static _Atomic int known; /* 0: not asked yet, 1: no, 2: yes */
  int v = atomic_load_explicit(&known, memory_order_relaxed);
  if (!v) {
    v = ompdp_cpu_has_avx2() ? 2 : 1;
    atomic_store_explicit(&known, v, memory_order_relaxed);
  }
  return v == 2;
}
#endif

static void feed_zeros(XXH3_state_t *st, uint64_t n) {
#if defined(__x86_64__) && defined(OMPDP_HAVE_AVX2_ZERO)
  if (have_avx2()) {
    ompdp_zero_feed_avx2(st, n);
    return;
  }
#endif
  for (uint64_t left = n; left;) {
    size_t k = left < sizeof(zero_block) ? (size_t)left : sizeof(zero_block);
    XXH3_64bits_update(st, zero_block, k);
    left -= k;
  }
}

/* XXH3-64 of n zero bytes. */
static uint64_t xxh3_zeros(uint64_t n) {
  if (n <= sizeof(zero_block))
    return XXH3_64bits(zero_block, (size_t)n);
  /* The one-shot and streaming APIs give the same value for the same bytes. */
  XXH3_state_t st;
  XXH3_INITSTATE(&st);
  XXH3_64bits_reset(&st);
  feed_zeros(&st, n);
  return XXH3_64bits_digest(&st);
}

/* Chunk i of n zero bytes: every chunk but the last is a whole chunk of
 * zeros, whose hash (ctx) is computed once per size asked. */
typedef struct zero_chunks {
  size_t n, last;
  uint64_t whole;
} zero_chunks_t;

static uint64_t zero_chunk(const void *ctx, size_t i) {
  const zero_chunks_t *z = ctx;
  return i == z->last ? xxh3_zeros(ompdp_hash_chunk_len(z->n, i)) : z->whole;
}

/* The content hash of n >= OMPDP_HASH_CHUNKED_MIN zero bytes
 * (include/ompdp/content_hash.h): two chunk hashes and one pass over the
 * chunks' hashes, not 256 MiB of hashing for 256 MiB. */
static uint64_t chunked_zeros(uint64_t n) {
  zero_chunks_t z = {(size_t)n, ompdp_hash_chunks((size_t)n) - 1, xxh3_zeros(OMPDP_HASH_CHUNK)};
  return ompdp_hash_chunked((size_t)n, zero_chunk, &z);
}

uint64_t ompdp_zero_hash(uint64_t n) {
  return n < OMPDP_HASH_CHUNKED_MIN ? xxh3_zeros(n) : chunked_zeros(n);
}

/* The zero hash of n bytes, from the kept state when n is past it (the
 * digest leaves the state as it is, so it can go on growing). */
static uint64_t zero_hash_run(ompdp_zero_t *z, uint64_t n) {
  if (n <= sizeof(zero_block) || n >= OMPDP_HASH_CHUNKED_MIN || n < z->run_bytes)
    return ompdp_zero_hash(n);
  if (!z->run_bytes) {
    XXH3_INITSTATE(&z->run);
    XXH3_64bits_reset(&z->run);
  }
  feed_zeros(&z->run, n - z->run_bytes);
  z->run_bytes = n;
  return XXH3_64bits_digest(&z->run);
}

ompdp_zero_t *ompdp_zero_create(uint64_t min_bytes) {
  /* XXH3_state_t wants 64-byte alignment, more than calloc gives. */
  size_t size = (sizeof(ompdp_zero_t) + 63) & ~(size_t)63;
  ompdp_zero_t *z = aligned_alloc(64, size);
  if (!z)
    return NULL;
  memset(z, 0, size);
  z->min_bytes = min_bytes ? min_bytes : 1; /* never an empty transfer */
  if (ompdp_hmap_init(&z->cache, 16)) {
    free(z);
    return NULL;
  }
  return z;
}

void ompdp_zero_destroy(ompdp_zero_t *z) {
  if (!z)
    return;
  ompdp_hmap_free(&z->cache);
  free(z);
}

static size_t zero_memory(const void *p) {
  const ompdp_zero_t *z = p;
  return sizeof(*z) + ompdp_hmap_memory(&z->cache);
}

int ompdp_zero_lookup(ompdp_zero_t *z, uint64_t n, uint64_t *out) {
  if (n == z->last_bytes) {
    *out = z->last_hash;
    return 0;
  }
  if (z->cache.n >= ZERO_CACHE_MAX) {
    ompdp_hmap_free(&z->cache);
    if (ompdp_hmap_init(&z->cache, 16))
      return -1;
  }
  int inserted = 0;
  uint64_t *v = ompdp_hmap_upsert(&z->cache, n, 0, 0, &inserted);
  if (!v)
    return -1;
  if (inserted)
    *v = zero_hash_run(z, n);
  z->last_bytes = n;
  z->last_hash = *out = *v;
  return 0;
}

static int zero_feed(void *p, ompdp_engine_t *g, const ompdp_xev_t *e) {
  ompdp_zero_t *z = p;
  if (!e->hashed || e->d->bytes < z->min_bytes)
    return 0;
  int host = ompdp_g_host(g);
  if (e->d->src_dev != host || e->d->dst_dev == host)
    return 0;
  uint64_t zh;
  if (ompdp_zero_lookup(z, e->d->bytes, &zh))
    return -1;
  int kind = OMPDP_FK_ZERO_TRANSFER;
  if (e->hash != zh) {
    /* Another value in every element: the runtime saw it in the bytes
     * (single_value.c). */
    uint64_t pattern;
    uint32_t period;
    if (!ompdp_single_value_find(e->hash, &pattern, &period))
      return 0;
    kind = OMPDP_FK_SINGLE_VALUE_TRANSFER;
  }
  if (ompdp_g_select(g, kind, e, NULL, 0) == OMPDP_NONE)
    return -1;
  ompdp_g_match(g, kind, e->seq, OMPDP_NONE, 0);
  return 0;
}

/*===- the detection ------------------------------------------------------------===*/

static void *zero_new(const ompdp_engine_config_t *cfg) {
  return ompdp_zero_create(cfg->zero_min_bytes ? cfg->zero_min_bytes : OMPDP_ZERO_MIN_BYTES);
}

static void zero_destroy(void *p) { ompdp_zero_destroy(p); }

static char *zero_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                       const ompdp_region_info_t *related, uint32_t rule, const char *d) {
  (void)related; /* the repeated operation's item: only fresh buffers need it */
  char buf[512];
  const char *plural = f->num_devices > 1 ? "s" : "";
  const char *v = f->variable ? f->variable : "...";
  /* Zeros can also be written by `omp_target_memset`; another value, of
   * elements wider than a byte, only by a loop. */
  int single = f->kind == OMPDP_FK_SINGLE_VALUE_TRANSFER;
  const char *copied = single ? "every element" : "every byte";
  const char *held = single ? "held one value" : "was zero";
  const char *with = single ? "with it" : "with zeros";
  if (item && item->construct == OMPDP_CK_TARGET_UPDATE) {
    /* The update needs the item present: mapping it otherwise says
     * nothing. What it sends can be written on the device instead. */
    const char *x = item->expr && item->expr[0] ? item->expr : v;
    snprintf(buf, sizeof(buf),
             "%s `target update to(%s)` copied to device%s %s %s: fill the present section %s "
             "on the device instead of the update (a `target` loop that finds it present%s)",
             copied, x, plural, d, held, with,
             single ? "" : ", or `omp_target_memset` on its device address");
    return ompdp_strdup(buf);
  }
  snprintf(buf, sizeof(buf),
           "%s copied to device%s %s %s: map %s with `map(alloc: %s)` and fill it %s on the "
           "device (a `target` loop%s) instead of copying",
           copied, plural, d, held, f->variable ? f->variable : "the buffer", v,
           single ? "with that value" : "with zeros", single ? "" : ", or `omp_target_memset`");
  return ompdp_strdup(buf);
}

/* At a routine call: a fill on the device replaces the copy. */
static char *zero_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[1024], dst[128], len[128], dev[128];
  const char *r = c->routine, *v = c->variable, *plural = c->plural, *d = c->devices;
  ompdp_construct_kind_t ck = c->it->construct;
  if (ck == OMPDP_CK_TARGET_MEMSET || ck == OMPDP_CK_TARGET_MEMSET_ASYNC) {
    ompdp_routine_argument(c, 0, dst, sizeof(dst));
    snprintf(buf, sizeof(buf),
             "this libomptarget implements `%s` as a copy of a host buffer of the value to "
             "device%s %s: a kernel that fills the memory (`#pragma omp target "
             "is_device_ptr(%s)` with a loop writing zeros) avoids the copy",
             r, plural, d, dst[0] ? dst : "...");
  } else if (ck == OMPDP_CK_TARGET_MEMCPY || ck == OMPDP_CK_TARGET_MEMCPY_ASYNC) {
    /* memcpy(dst, src, length, dst_offset, src_offset, dst_device, ...) */
    ompdp_routine_argument(c, 0, dst, sizeof(dst));
    ompdp_routine_argument(c, 2, len, sizeof(len));
    ompdp_routine_argument(c, 5, dev, sizeof(dev));
    snprintf(buf, sizeof(buf),
             "every byte of %s that `%s` copied to device%s %s was zero: fill the device "
             "memory there instead, `omp_target_memset(%s, 0, %s, %s)`, or a kernel "
             "`#pragma omp target is_device_ptr(%s)` that writes zeros",
             v, r, plural, d, dst, len, dev, dst);
  } else if (ck == OMPDP_CK_TARGET_MEMCPY_RECT || ck == OMPDP_CK_TARGET_MEMCPY_RECT_ASYNC) {
    ompdp_routine_argument(c, 0, dst, sizeof(dst));
    snprintf(buf, sizeof(buf),
             "every byte of %s that `%s` copied to device%s %s was zero: fill the device "
             "memory there instead, with `omp_target_memset` or a kernel `#pragma omp "
             "target is_device_ptr(%s)` that writes zeros",
             v, r, plural, d, dst);
  } else {
    snprintf(buf, sizeof(buf), "every byte `%s` copied to device%s %s was zero: fill the memory "
             "on the device instead (`omp_target_memset`, or a kernel with is_device_ptr)",
             r, plural, d);
  }
  return ompdp_strdup(buf);
}

/* At a routine call, single value: a kernel that writes it replaces the
 * copy. */
static char *single_routine_text(const ompdp_finding_t *f, const ompdp_routine_call_t *c) {
  char buf[512], dst[128];
  ompdp_routine_argument(c, 0, dst, sizeof(dst));
  snprintf(buf, sizeof(buf),
           "every element of %s that `%s` copied to device%s %s held one value: write it on "
           "the device instead, with a kernel `#pragma omp target is_device_ptr(%s)` that "
           "fills the memory",
           c->variable, c->routine, c->plural, c->devices, dst[0] ? dst : "...");
  return ompdp_strdup(buf);
}

const ompdp_detection_t ompdp_detect_zero = {
    .name = "zero-filled and single-value transfers",
    .kinds = {{.kind = OMPDP_FK_ZERO_TRANSFER,
               .transfer_devices = 1,
               .aux = OMPDP_AUX_NONE,
               .rewrite = OMPDP_RR_ALLOC_AND_FILL,
               .rewrites = 1u << OMPDP_RK_ALLOC_AND_FILL,
               .verdict = ompdp_verdict_fill_values,
               .routine_text = zero_routine_text},
              {.kind = OMPDP_FK_SINGLE_VALUE_TRANSFER,
               .transfer_devices = 1,
               .aux = OMPDP_AUX_NONE,
               .rewrite = OMPDP_RR_ALLOC_AND_FILL,
               .rewrites = 1u << OMPDP_RK_ALLOC_AND_FILL,
               .verdict = ompdp_verdict_fill_values,
               .routine_text = single_routine_text}},
    .num_kinds = 2,
    .create = zero_new,
    .on_transfer = zero_feed,
    .memory = zero_memory,
    .destroy = zero_destroy,
    .text = zero_text,
};
