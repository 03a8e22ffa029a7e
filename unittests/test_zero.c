/*===- test_zero.c - zero-filled transfers on hand-written sequences -*- C -*-===*/
#include "check.h"
#include "events.h"
#include "ompdp_rt.h"
#include "single_value.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

static long max_rss_kib(void) {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

/* The zero hash is XXH3-64 of that many zero bytes below the chunked sizes,
 * across the sizes where XXH3 changes its method (0, 16, 128, 240 bytes, a
 * stripe block, more than the detection's zero block), and a 256 MiB one
 * costs no 256 MiB. */
static void zero_hash(void) {
  long before = max_rss_kib();
  uint64_t big = ompdp_zero_hash((uint64_t)256 << 20);
  CHECK(max_rss_kib() - before < 8 * 1024);
  static const uint64_t sizes[] = {0, 1, 16, 17, 128, 129, 240, 241, 1024, 16384, 16385, 100003};
  unsigned char *z = calloc(1, 100003);
  CHECK(z != NULL);
  for (size_t i = 0; z && i < sizeof(sizes) / sizeof(sizes[0]); ++i)
    CHECK_EQ_U64(ompdp_zero_hash(sizes[i]), XXH3_64bits(z, (size_t)sizes[i]));
  free(z);
  /* The big one's value (chunked: include/ompdp/content_hash.h) is checked
   * against a reference in test_hash.c. */
  CHECK(big != ompdp_zero_hash(((uint64_t)256 << 20) - 1));
}

/* Through the detection's cache, which grows one kept XXH3 state with the
 * largest size so far: sizes up, down, repeated and past the cache's zero
 * block give exactly the reference hash. */
static void zero_lookup(void) {
  ompdp_zero_t *zt = ompdp_zero_create(64);
  CHECK(zt != NULL);
  if (!zt)
    return;
  static const uint64_t sizes[] = {100000, 16385, 300000, 300000, 16384, 5,
                                   1 << 20, 300001, 2 << 20, 100000};
  for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); ++i) {
    uint64_t h = 0;
    CHECK(ompdp_zero_lookup(zt, sizes[i], &h) == 0);
    CHECK_EQ_U64(h, ompdp_zero_hash(sizes[i]));
  }
  ompdp_zero_destroy(zt);
}

/* Zero buffers sent to a device are found; one nonzero byte, copies back
 * to the host, small, empty and unhashed copies are not. */
static void matches(void) {
  unsigned char *b = calloc(1, 4096);
  CHECK(b != NULL);
  if (!b)
    return;
  b[4095] = 1;
  uint64_t one_byte = XXH3_64bits(b, 4096);
  seq_t s;
  seq_init(&s);
  uint32_t z1 = h2d(&s, 0, 0x1000, 0xd000, 4096, ompdp_zero_hash(4096));
  h2d(&s, 0, 0x2000, 0xd100, 4096, one_byte);              /* one nonzero byte */
  d2h(&s, 0, 0xd000, 0x1000, 4096, ompdp_zero_hash(4096)); /* the device's zeros */
  h2d(&s, 0, 0x3000, 0xd200, 16, ompdp_zero_hash(16));     /* below zero_min_bytes */
  h2d(&s, 0, 0x4000, 0xd300, 0, ompdp_zero_hash(0));       /* empty */
  uint32_t u = h2d(&s, 0, 0x5000, 0xd400, 4096, ompdp_zero_hash(4096));
  s.ev[u].flags &= (uint8_t)~OMPDP_EVF_HASHED;
  uint32_t z2 = h2d(&s, 1, 0x6000, 0xe000, 64, ompdp_zero_hash(64)); /* exactly the minimum */
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_ZERO_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 2);
  if (m.n == 2) {
    CHECK_EQ_U64(m.v[0].avoid, z1);
    CHECK_EQ_U64(m.v[1].avoid, z2);
  }
  ompdp_matches_free(&m);
  free(b);

  /* The minimum is an option, which the runtime hands the engine: at 0
   * (the engine's 1) every non-empty zero copy counts. */
  ompdp_engine_config_t one = {.zero_min_bytes = 1};
  seq_init(&s);
  uint32_t small = h2d(&s, 0, 0x3000, 0xd200, 4, ompdp_zero_hash(4));
  h2d(&s, 0, 0x4000, 0xd300, 0, ompdp_zero_hash(0));
  CHECK(seq_matches_cfg(&s, OMPDP_FK_ZERO_TRANSFER, &m, one) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1)
    CHECK_EQ_U64(m.v[0].avoid, small);
  ompdp_matches_free(&m);
}

/* One finding per site, with the count, bytes and time of its zero copies;
 * the time saved is their transfer time. */
static void report(void) {
  seq_t s;
  seq_init(&s);
  for (int i = 0; i < 3; ++i) {
    uint32_t e = h2d(&s, 0, 0x1000, 0xd000, 1 << 20, ompdp_zero_hash(1 << 20));
    s.ev[e].codeptr = (const void *)0x400100;
    kernel(&s, 0);
  }
  uint32_t other = h2d(&s, 0, 0x2000, 0xd100, 1 << 20, ompdp_zero_hash(1 << 20));
  s.ev[other].codeptr = (const void *)0x400200;
  h2d(&s, 0, 0x3000, 0xd200, 1 << 20, 0x1234); /* not zeros */
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_ZERO_TRANSFER], 4);
  size_t found = 0;
  for (size_t i = 0; i < r.num_findings; ++i) {
    const ompdp_finding_t *f = &r.findings[i];
    if (f->kind != OMPDP_FK_ZERO_TRANSFER)
      continue;
    ++found;
    CHECK(f->count == 3 || f->count == 1);
    CHECK_EQ_U64(f->bytes, f->count << 20);
    CHECK_EQ_U64(f->time_ns, f->count * 100);
    CHECK_EQ_U64(f->time_saved_ns, f->count * 100);
    CHECK(f->num_devices == 1 && f->devices[0] == 0);
    CHECK(f->suggestion && strstr(f->suggestion, "map(alloc:"));
  }
  CHECK_EQ_U64(found, 2);
  ompdp_report_free(&r);
}

/* One value in every element: the pattern is the bytes' own, repeated to
 * 8, checked over the longest period of 8, 4, 2, 1 that divides the size
 * and reported with its shortest (0xff: 1, a float: 4); zeros,
 * a byte out of pattern anywhere, fewer than two periods and a null buffer
 * are not one. */
static void single_value_check(void) {
  unsigned char b[4096];
  uint64_t pat = 0;
  uint32_t per = 0;
  memset(b, 0xff, sizeof(b));
  CHECK(ompdp_single_value_check(b, sizeof(b), &pat, &per));
  CHECK_EQ_U64(pat, UINT64_MAX);
  CHECK_EQ_U64(per, 1); /* the shortest period */
  float ones[1000];
  for (int i = 0; i < 1000; ++i)
    ones[i] = 1.0f;
  CHECK(ompdp_single_value_check(ones, sizeof(ones), &pat, &per)); /* 4000: 8, then 4 */
  CHECK_EQ_U64(pat, 0x3f8000003f800000ull);
  CHECK_EQ_U64(per, 4);
  CHECK(ompdp_single_value_check(ones, 3 * sizeof(float), &pat, &per)); /* 12: period 4 */
  CHECK_EQ_U64(per, 4);
  CHECK_EQ_U64(pat, 0x3f8000003f800000ull);
  memset(b, 0xab, 7);
  CHECK(ompdp_single_value_check(b, 7, &pat, &per)); /* odd: period 1 */
  CHECK_EQ_U64(per, 1);
  CHECK_EQ_U64(pat, 0xababababababababull);
  double d[64];
  for (int i = 0; i < 64; ++i)
    d[i] = 2.5;
  d[63] = 2.25; /* the last out of pattern */
  CHECK(!ompdp_single_value_check(d, sizeof(d), &pat, &per));
  d[63] = 2.5;
  d[0] = 0.5; /* the first */
  CHECK(!ompdp_single_value_check(d, sizeof(d), &pat, &per));
  memset(b, 0, sizeof(b));
  CHECK(!ompdp_single_value_check(b, sizeof(b), &pat, &per)); /* zeros: by their hash */
  memset(b, 0x11, 8);
  CHECK(!ompdp_single_value_check(b, 8, &pat, &per)); /* one period */
  CHECK(!ompdp_single_value_check(NULL, 64, &pat, &per));
}

/* The registry finds what was noted by hash, and nothing else; a full
 * one takes no more. The detection reports copies whose hash it knows as
 * single-value transfers (zeros stay zero transfers), from the same
 * minimum size. */
static void single_value_detection(void) {
  ompdp_single_value_reset();
  uint64_t pat = 0;
  uint32_t per = 0;
  CHECK(!ompdp_single_value_find(0x1234, &pat, &per));
  ompdp_single_value_note(0x1234, 0x0101010101010101ull, 1);
  ompdp_single_value_note(0x1234, 0x0202020202020202ull, 1); /* the same content: kept */
  CHECK(ompdp_single_value_find(0x1234, &pat, &per));
  CHECK_EQ_U64(pat, 0x0101010101010101ull);
  CHECK_EQ_U64(per, 1);
  CHECK(!ompdp_single_value_find(0x1235, &pat, &per));
  for (uint64_t h = 1; h <= 5000; ++h)
    ompdp_single_value_note(h << 20, h, 8);
  CHECK(ompdp_single_value_find(1ull << 20, &pat, &per));
  CHECK(!ompdp_single_value_find(5000ull << 20, &pat, &per)); /* past half full */
  ompdp_single_value_reset();
  ompdp_single_value_note(0x5151, 0xffffffffffffffffull, 8);
  seq_t s;
  seq_init(&s);
  uint32_t one = h2d(&s, 0, 0x1000, 0xd000, 4096, 0x5151);
  h2d(&s, 0, 0x2000, 0xd100, 4096, 0x5152);               /* not noted */
  h2d(&s, 0, 0x3000, 0xd200, 32, 0x5151);                 /* below zero_min_bytes */
  d2h(&s, 0, 0xd000, 0x1000, 4096, 0x5151);               /* the device's */
  uint32_t z = h2d(&s, 0, 0x4000, 0xd300, 4096, ompdp_zero_hash(4096));
  ompdp_matches_t m = {0};
  CHECK(seq_matches(&s, OMPDP_FK_SINGLE_VALUE_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1)
    CHECK_EQ_U64(m.v[0].avoid, one);
  ompdp_matches_free(&m);
  CHECK(seq_matches(&s, OMPDP_FK_ZERO_TRANSFER, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1)
    CHECK_EQ_U64(m.v[0].avoid, z);
  ompdp_matches_free(&m);
  ompdp_single_value_reset();
}

int main(void) {
  ompdp_options_reset();
  CHECK_EQ_U64(ompdp_opts.zero_min_bytes, OMPDP_ZERO_MIN_BYTES);
  zero_hash();
  zero_lookup();
  matches();
  report();
  single_value_check();
  single_value_detection();
  return CHECK_DONE();
}
