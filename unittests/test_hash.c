/*===- test_hash.c - the content hash, inline and on the helper -*- C -*-===*\
|*
|* The runtime's hashing (rt/hash.c, compiled in here) against a reference
|* written from the definition in include/ompdp/content_hash.h: XXH3-64 of
|* the bytes below OMPDP_HASH_CHUNKED_MIN, else XXH3-64 seeded with the
|* size over the chunks' XXH3-64 hashes. Inline, on the helper thread
|* (taken back before it starts, shared with it, or left to it), at sizes
|* around the chunk and threshold edges; and the analysis' hash of n zero
|* bytes (analysis/detect_zero.c), up to 256 MiB.
|*
\*===----------------------------------------------------------------------===*/
#include "../rt/hash.c"

#include "check.h"
#include "cpu_features.h"
#include "detect.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* callbacks.c's, which this test does not link: whether constructs are in
 * flight on other threads. */
static int others_busy;
int ompdp_constructs_elsewhere(void) { return others_busy; }
int ompdp_host_kernel_recent(void) { return 0; }

static uint64_t reference(const unsigned char *p, size_t n) {
  if (n < OMPDP_HASH_CHUNKED_MIN)
    return XXH3_64bits(p, n);
  size_t m = (n + (64 << 10) - 1) / (64 << 10);
  uint64_t *h = malloc(m * sizeof(*h));
  if (!h)
    return 0;
  for (size_t i = 0; i < m; ++i) {
    size_t off = i * ((size_t)64 << 10), len = n - off < (64 << 10) ? n - off : (64 << 10);
    h[i] = XXH3_64bits(p + off, len);
  }
  uint64_t r = XXH3_64bits_withSeed(h, m * sizeof(*h), n);
  free(h);
  return r;
}

static const size_t Sizes[] = {0,
                               1,
                               240,
                               241,
                               ((size_t)256 << 10) - 1,
                               (size_t)256 << 10,
                               ((size_t)256 << 10) + 1,
                               ((size_t)64 << 10) * 7 + 5,
                               (size_t)1 << 20,
                               ((size_t)3 << 20) + 7};

static void inline_hash(const unsigned char *buf) {
  for (size_t i = 0; i < sizeof(Sizes) / sizeof(Sizes[0]); ++i)
    CHECK_EQ_U64(ompdp_hash(buf, Sizes[i]), reference(buf, Sizes[i]));
  /* Another byte anywhere, another hash. */
  unsigned char *b = malloc((size_t)1 << 20);
  CHECK(b != NULL);
  if (!b)
    return;
  memcpy(b, buf, (size_t)1 << 20);
  uint64_t h = ompdp_hash(b, (size_t)1 << 20);
  b[700000] ^= 1;
  CHECK(ompdp_hash(b, (size_t)1 << 20) != h);
  free(b);
}

static void helper_hash(const unsigned char *buf) {
  ompdp_opts.hash_helper = 1;
  struct timespec pause = {0, 2000000};
  for (int round = 0; round < 3; ++round)
    for (size_t i = 0; i < sizeof(Sizes) / sizeof(Sizes[0]); ++i) {
      size_t n = Sizes[i];
      if (!ompdp_hash_start(buf, n)) {
        CHECK(n < OMPDP_HASH_ASYNC_MIN); /* only small buffers stay inline */
        continue;
      }
      if (round == 1)
        nanosleep(&pause, NULL); /* the helper has done it all */
      else if (round == 2)
        (void)ompdp_hash(buf, 4096); /* a little work meanwhile */
      CHECK_EQ_U64(ompdp_hash_finish(), reference(buf, n));
    }
  /* Auto: alone, to the helper; beside constructs on other threads, inline. */
  ompdp_opts.hash_helper = 2;
  size_t n = (size_t)1 << 20;
  int took = ompdp_hash_start(buf, n);
  CHECK(took == (__atomic_load_n(&cpus, __ATOMIC_RELAXED) >= 2));
  CHECK_EQ_U64(took ? ompdp_hash_finish() : ompdp_hash(buf, n), reference(buf, n));
  ompdp_hash_done();
  others_busy = 1;
  CHECK(!ompdp_hash_start(buf, n));
  ompdp_hash_done();
  others_busy = 0;
  CHECK_EQ_U64(atomic_load(&in_flight), 0);
}

static void zero_hashes(void) {
  static const size_t sizes[] = {(size_t)256 << 10, ((size_t)256 << 10) + 1,
                                 ((size_t)64 << 10) * 7 + 5, (size_t)1 << 20};
  unsigned char *z = calloc(1, (size_t)1 << 20);
  CHECK(z != NULL);
  for (size_t i = 0; z && i < sizeof(sizes) / sizeof(sizes[0]); ++i)
    CHECK_EQ_U64(ompdp_zero_hash(sizes[i]), reference(z, sizes[i]));
  free(z);
  /* calloc'd pages are the shared zero page until written: no 256 MiB. */
  size_t big = (size_t)256 << 20;
  unsigned char *zz = calloc(1, big);
  if (zz)
    CHECK_EQ_U64(ompdp_zero_hash(big), reference(zz, big));
  free(zz);
}

int main(void) {
  ompdp_options_reset();
  ompdp_hash_init();
  size_t n = ((size_t)3 << 20) + 7;
  unsigned char *buf = malloc(n);
  CHECK(buf != NULL);
  if (!buf)
    return CHECK_DONE();
  uint64_t x = 88172645463325252ull;
  for (size_t i = 0; i < n; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    buf[i] = (unsigned char)x;
  }
  /* Every variant the CPU has gives the reference's value; one it lacks
   * falls back (option hash_isa). */
  static const struct {
    const char *isa, *name;
    int (*has)(void);
  } Isa[] = {{"portable", "xxh3-portable", NULL},
#if defined(__x86_64__)
             {"avx2", "xxh3-avx2", ompdp_cpu_has_avx2},
             {"avx512", "xxh3-avx512", ompdp_cpu_has_avx512},
#endif
             {"auto", NULL, NULL}};
  for (size_t i = 0; i < sizeof(Isa) / sizeof(Isa[0]); ++i) {
    ompdp_opts.hash_isa = Isa[i].isa;
    ompdp_hash_init();
    if (Isa[i].name && (!Isa[i].has || Isa[i].has()))
      CHECK(!strcmp(ompdp_hash_impl_name(), Isa[i].name));
    inline_hash(buf);
    helper_hash(buf);
  }
  zero_hashes();
  free(buf);
  return CHECK_DONE();
}
