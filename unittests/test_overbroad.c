/*===- test_overbroad.c - overbroad maps on hand-written sequences --*- C -*-===*/
#include "check.h"
#include "events.h"
#include "ompdp_rt.h"
#include "region_view.h"

#include <string.h>

/* A region table of one's own: region r's item i is described by items[r][i]. */
typedef struct fake_item {
  ompdp_construct_kind_t construct;
  ompdp_map_type_t map_type;
  ompdp_access_t access;
  uint32_t modifiers;
} fake_item_t;

enum { R_TARGET = 1, R_DATA = 2, NUM_ITEMS = 8 };
enum {
  I_NONE,       /* tofrom, never touched */
  I_READ,       /* tofrom, only read */
  I_WRITE,      /* tofrom, only written */
  I_RW,         /* tofrom, read and written */
  I_UNKNOWN,    /* tofrom, access unknown */
  I_ALWAYS,     /* always, tofrom, never touched */
  I_TO_READ,    /* to, only read: as narrow as it gets */
  I_ALLOC_NONE, /* alloc, never touched */
};

static const fake_item_t target_items[NUM_ITEMS] = {
    [I_NONE] = {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_ACCESS_NONE, 0},
    [I_READ] = {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_ACCESS_READ, 0},
    [I_WRITE] = {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_ACCESS_WRITE, 0},
    [I_RW] = {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_ACCESS_READ_WRITE, 0},
    [I_UNKNOWN] = {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_ACCESS_UNKNOWN, 0},
    [I_ALWAYS] = {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_ACCESS_NONE, OMPDP_MOD_ALWAYS},
    [I_TO_READ] = {OMPDP_CK_TARGET, OMPDP_MT_TO, OMPDP_ACCESS_READ, 0},
    [I_ALLOC_NONE] = {OMPDP_CK_TARGET, OMPDP_MT_ALLOC, OMPDP_ACCESS_NONE, 0},
};

static int describe(uint32_t region, int item, ompdp_region_info_t *out) {
  if ((region != R_TARGET && region != R_DATA) || item >= NUM_ITEMS)
    return -1;
  memset(out, 0, sizeof(*out));
  out->num_items = NUM_ITEMS;
  out->construct = region == R_TARGET ? OMPDP_CK_TARGET : OMPDP_CK_TARGET_DATA;
  out->access = OMPDP_ACCESS_UNKNOWN;
  out->map_type = OMPDP_MT_NONE;
  out->variable = out->expr = out->clause = "";
  if (item < 0)
    return 0;
  const fake_item_t *it = &target_items[item];
  out->map_type = it->map_type;
  out->modifiers = it->modifiers;
  /* A target data has no device body: the compiler says unknown. */
  out->access = region == R_TARGET ? it->access : OMPDP_ACCESS_UNKNOWN;
  out->variable = "x";
  return 0;
}

/* The overbroad matches of the sequence, by an engine that reads the
 * table above. */
static int table_matches(const seq_t *s, ompdp_matches_t *m) {
  ompdp_engine_config_t cfg = {.describe = describe};
  return seq_matches_cfg(s, OMPDP_FK_OVERBROAD_MAP, m, cfg);
}

static void at(seq_t *s, uint32_t e, uint32_t region, int item) {
  s->ev[e].region = region;
  s->ev[e].item = (int16_t)item;
  s->ev[e].codeptr = (const void *)(uintptr_t)(0x400000 + region);
}

/* What a target construct does with a tofrom item it maps: allocate, copy
 * in, run, copy back, free. Returns the index of the allocation; the copy
 * in, kernel, copy back and delete follow it. */
static uint32_t tofrom_construct(seq_t *s, uint32_t region, int item, uint64_t host,
                                 uint64_t dev) {
  uint32_t a = alloc(s, 0, host, dev, 4096);
  at(s, a, region, item);
  at(s, h2d(s, 0, host, dev, 4096, host), region, item);
  at(s, kernel(s, 0), region, -1);
  at(s, d2h(s, 0, dev, host, 4096, host), region, item);
  at(s, del(s, 0, dev), region, item);
  return a;
}

/* The three rules, each selecting exactly the operations it removes. */
static void rules(void) {
  seq_t s;
  ompdp_matches_t m = {0};

  seq_init(&s);
  uint32_t a = tofrom_construct(&s, R_TARGET, I_NONE, 0x1000, 0xd000);
  CHECK(table_matches(&s, &m) == 0);
  CHECK_EQ_U64(m.n, 3); /* allocation, copy in, copy back */
  if (m.n == 3) {
    CHECK_EQ_U64(m.v[0].avoid, a);
    CHECK_EQ_U64(m.v[1].avoid, a + 1);
    CHECK_EQ_U64(m.v[2].avoid, a + 3);
    CHECK_EQ_U64(m.v[0].aux, OMPDP_OVERBROAD_REMOVE);
  }
  ompdp_matches_free(&m);

  seq_init(&s);
  a = tofrom_construct(&s, R_TARGET, I_READ, 0x1000, 0xd000);
  CHECK(table_matches(&s, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1) {
    CHECK_EQ_U64(m.v[0].avoid, a + 3); /* the copy back */
    CHECK_EQ_U64(m.v[0].aux, OMPDP_OVERBROAD_TO);
  }
  ompdp_matches_free(&m);

  seq_init(&s);
  a = tofrom_construct(&s, R_TARGET, I_WRITE, 0x1000, 0xd000);
  CHECK(table_matches(&s, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1) {
    CHECK_EQ_U64(m.v[0].avoid, a + 1); /* the copy in */
    CHECK_EQ_U64(m.v[0].aux, OMPDP_OVERBROAD_FROM);
  }
  ompdp_matches_free(&m);

  /* alloc, never touched: the allocation alone. */
  seq_init(&s);
  a = alloc(&s, 0, 0x1000, 0xd000, 4096);
  at(&s, a, R_TARGET, I_ALLOC_NONE);
  at(&s, kernel(&s, 0), R_TARGET, -1);
  at(&s, del(&s, 0, 0xd000), R_TARGET, I_ALLOC_NONE);
  CHECK(table_matches(&s, &m) == 0);
  CHECK_EQ_U64(m.n, 1);
  if (m.n == 1)
    CHECK_EQ_U64(m.v[0].avoid, a);
  ompdp_matches_free(&m);
}

/* Nothing for read-write or unknown access, `always`, a `to` item that is
 * only read, a construct without a device body, operations without a
 * region, empty copies, and an item whose data was present (a surrounding
 * target data moved it: the construct moved nothing at the item). */
static void negatives(void) {
  seq_t s;
  seq_init(&s);
  tofrom_construct(&s, R_TARGET, I_RW, 0x1000, 0xd000);
  tofrom_construct(&s, R_TARGET, I_UNKNOWN, 0x2000, 0xd100);
  tofrom_construct(&s, R_TARGET, I_ALWAYS, 0x3000, 0xd200);
  tofrom_construct(&s, R_DATA, I_NONE, 0x4000, 0xd300);
  tofrom_construct(&s, 0, -1, 0x5000, 0xd400);
  uint32_t t = alloc(&s, 0, 0x6000, 0xd500, 4096);
  at(&s, t, R_TARGET, I_TO_READ);
  at(&s, h2d(&s, 0, 0x6000, 0xd500, 4096, 0x99), R_TARGET, I_TO_READ);
  at(&s, kernel(&s, 0), R_TARGET, -1);
  at(&s, del(&s, 0, 0xd500), R_TARGET, I_TO_READ);
  at(&s, d2h(&s, 0, 0xd600, 0x7000, 0, 0), R_TARGET, I_READ); /* empty */
  /* Present: the target data maps it; the target's only-read item moves
   * nothing, and the copy back belongs to the target data. */
  at(&s, alloc(&s, 0, 0x8000, 0xd700, 4096), R_DATA, I_READ);
  at(&s, h2d(&s, 0, 0x8000, 0xd700, 4096, 0x55), R_DATA, I_READ);
  at(&s, kernel(&s, 0), R_TARGET, -1);
  at(&s, d2h(&s, 0, 0xd700, 0x8000, 4096, 0x55), R_DATA, I_READ);
  at(&s, del(&s, 0, 0xd700), R_DATA, I_READ);
  ompdp_matches_t m = {0};
  CHECK(table_matches(&s, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);

  /* Without a region table nothing is known. */
  seq_init(&s);
  tofrom_construct(&s, R_TARGET, I_NONE, 0x1000, 0xd000);
  CHECK(seq_matches(&s, OMPDP_FK_OVERBROAD_MAP, &m) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);
}

/* One finding per item, summed over the iterations of a loop: count,
 * bytes and time of what the rule removes (an allocation's delete in its
 * time), and the devices, not the host. */
static void report(void) {
  seq_t s;
  seq_init(&s);
  for (int i = 0; i < 3; ++i) {
    tofrom_construct(&s, R_TARGET, I_NONE, 0x1000, 0xd000);
    tofrom_construct(&s, R_TARGET, I_READ, 0x2000, 0xd100);
    tofrom_construct(&s, R_TARGET, I_RW, 0x3000, 0xd200);
  }
  ompdp_analysis_input_t in = {
      .events = s.ev, .num_events = s.n, .host_device = HOST, .describe = describe};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_OVERBROAD_MAP], 3 * 3 + 3);
  int seen_none = 0, seen_read = 0;
  for (size_t i = 0; i < r.num_findings; ++i) {
    const ompdp_finding_t *f = &r.findings[i];
    if (f->kind != OMPDP_FK_OVERBROAD_MAP)
      continue;
    CHECK(f->rt_region == R_TARGET);
    CHECK(f->num_devices == 1 && f->devices[0] == 0);
    if (f->item == I_NONE) {
      seen_none = 1;
      CHECK_EQ_U64(f->count, 9);
      CHECK_EQ_U64(f->bytes, 9 * 4096);
      CHECK_EQ_U64(f->time_ns, 3 * (50 + 100 + 100 + 50));
      CHECK_EQ_U64(f->time_saved_ns, 3 * (50 + 100 + 100 + 50));
      CHECK(strstr(f->suggestion, "remove it from the map clause") != NULL);
    } else if (f->item == I_READ) {
      seen_read = 1;
      CHECK_EQ_U64(f->count, 3);
      CHECK_EQ_U64(f->bytes, 3 * 4096);
      CHECK_EQ_U64(f->time_saved_ns, 3 * 100);
      CHECK(strstr(f->suggestion, "map(to: ") != NULL);
    } else {
      CHECK(0 && "an overbroad finding for an item that needs its map");
    }
  }
  CHECK(seen_none && seen_read);
  ompdp_report_free(&r);
}

/* A construct, map type and modifiers, and the overbroad rule an item
 * with them gets. */
typedef struct rule_case {
  ompdp_construct_kind_t construct;
  ompdp_map_type_t map_type;
  uint32_t modifiers;
  int rule;
} rule_case_t;

/* Checks each case; the item's other facts stay as they are. */
static void check_rule_cases(ompdp_region_info_t *it, const rule_case_t *cases, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    it->construct = cases[i].construct;
    it->map_type = cases[i].map_type;
    it->modifiers = cases[i].modifiers;
    CHECK_EQ_U64(ompdp_overbroad_rule(it), cases[i].rule);
  }
}

/* Copies back the host never reads (the compiler's host-unread fact): the
 * rule is the item's whatever its construct copies back with, and none
 * where the item says `always`, has no fact, or copies nothing back. A
 * target's own rules come first (a tofrom it only reads is `to` anyway). */
static void unread_rule(void) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  it.access = OMPDP_ACCESS_READ_WRITE;
  it.access_flags = OMPDP_IA_HOST_UNREAD;
  static const rule_case_t cases[] = {
      {OMPDP_CK_TARGET, OMPDP_MT_FROM, 0, OMPDP_OVERBROAD_UNREAD},
      {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, 0, OMPDP_OVERBROAD_UNREAD},
      {OMPDP_CK_TARGET_DATA, OMPDP_MT_TOFROM, 0, OMPDP_OVERBROAD_UNREAD},
      {OMPDP_CK_TARGET_EXIT_DATA, OMPDP_MT_FROM, 0, OMPDP_OVERBROAD_UNREAD},
      {OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_FROM, 0, OMPDP_OVERBROAD_UNREAD},
      {OMPDP_CK_TARGET, OMPDP_MT_FROM, OMPDP_MOD_ALWAYS, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_FROM, OMPDP_MOD_MAPPER, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET, OMPDP_MT_TO, 0, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_ENTER_DATA, OMPDP_MT_TO, 0, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_TO, 0, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_DATA, OMPDP_MT_ALLOC, 0, OMPDP_OVERBROAD_NONE},
  };
  check_rule_cases(&it, cases, sizeof(cases) / sizeof(cases[0]));
  /* Without the fact, a copy back is not overbroad (read and written). */
  it.access_flags = 0;
  it.construct = OMPDP_CK_TARGET;
  it.map_type = OMPDP_MT_FROM;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.construct = OMPDP_CK_TARGET_UPDATE;
  it.map_type = OMPDP_MT_UPDATE_FROM;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  /* A target's only-read tofrom keeps its own rule. */
  it.access_flags = OMPDP_IA_HOST_UNREAD;
  it.construct = OMPDP_CK_TARGET;
  it.map_type = OMPDP_MT_TOFROM;
  it.access = OMPDP_ACCESS_READ;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_TO);
}

/* A `target data`'s tofrom item that its body's kernels at most read
 * (a bound) and its body's host code at most reads (BODY_HOST_READS):
 * `to`; not without the host fact, not when a kernel may write it, not
 * with `always` or a mapper, not for other map types. */
static void target_data_rule(void) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  it.construct = OMPDP_CK_TARGET_DATA;
  it.map_type = OMPDP_MT_TOFROM;
  it.access = OMPDP_ACCESS_READ;
  it.access_flags = OMPDP_IA_BODY_HOST_READS;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_TO);
  it.access = OMPDP_ACCESS_NONE;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_TO);
  it.access = OMPDP_ACCESS_WRITE;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.access = OMPDP_ACCESS_READ_WRITE;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.access = OMPDP_ACCESS_UNKNOWN;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.access = OMPDP_ACCESS_READ;
  it.access_flags = 0;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.access_flags = OMPDP_IA_BODY_HOST_READS;
  it.modifiers = OMPDP_MOD_ALWAYS;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.modifiers = OMPDP_MOD_MAPPER;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.modifiers = 0;
  it.map_type = OMPDP_MT_TO;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  it.map_type = OMPDP_MT_FROM;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
  /* ... the same with the host never reading it after (its `to` too). */
  it.map_type = OMPDP_MT_TOFROM;
  it.access_flags = OMPDP_IA_BODY_HOST_READS | OMPDP_IA_HOST_UNREAD;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_TO);
}

/* Copies in a kernel overwrites before reading (the compiler's
 * writes-first fact): to and tofrom of target and target data, not with
 * `always` or a mapper, not of other constructs or map types; the host's
 * never reading the copy back comes first, and a target's own rules. */
static void overwritten_rule(void) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  it.access = OMPDP_ACCESS_READ_WRITE;
  it.access_flags = OMPDP_IA_WRITES_FIRST;
  static const rule_case_t cases[] = {
      {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, 0, OMPDP_OVERBROAD_OVERWRITTEN},
      {OMPDP_CK_TARGET, OMPDP_MT_TO, 0, OMPDP_OVERBROAD_OVERWRITTEN},
      {OMPDP_CK_TARGET_DATA, OMPDP_MT_TOFROM, 0, OMPDP_OVERBROAD_OVERWRITTEN},
      {OMPDP_CK_TARGET_DATA, OMPDP_MT_TO, OMPDP_MOD_CLOSE, OMPDP_OVERBROAD_OVERWRITTEN},
      {OMPDP_CK_TARGET, OMPDP_MT_TOFROM, OMPDP_MOD_ALWAYS, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_DATA, OMPDP_MT_TO, OMPDP_MOD_MAPPER, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_ENTER_DATA, OMPDP_MT_TO, 0, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_UPDATE, OMPDP_MT_UPDATE_TO, 0, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET, OMPDP_MT_FROM, 0, OMPDP_OVERBROAD_NONE},
      {OMPDP_CK_TARGET_DATA, OMPDP_MT_ALLOC, 0, OMPDP_OVERBROAD_NONE},
  };
  check_rule_cases(&it, cases, sizeof(cases) / sizeof(cases[0]));
  it.modifiers = 0;
  it.construct = OMPDP_CK_TARGET;
  it.map_type = OMPDP_MT_TOFROM;
  /* Only written, every element: the target's `from` rule says it. */
  it.access = OMPDP_ACCESS_WRITE;
  it.access_flags = OMPDP_IA_WRITES_FIRST | OMPDP_IA_WRITES_ALL;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_FROM);
  /* Neither copy read: the copy back's rule. */
  it.access = OMPDP_ACCESS_READ_WRITE;
  it.access_flags = OMPDP_IA_WRITES_FIRST | OMPDP_IA_HOST_UNREAD;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_UNREAD);
  /* Without the fact: read and written, nothing to say. */
  it.access_flags = 0;
  CHECK_EQ_U64(ompdp_overbroad_rule(&it), OMPDP_OVERBROAD_NONE);
}

int main(void) {
  ompdp_options_reset();
  rules();
  target_data_rule();
  negatives();
  report();
  unread_rule();
  overwritten_rule();
  return CHECK_DONE();
}
