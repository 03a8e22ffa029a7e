/*===- test_section.c - sections longer than their loops ----------*- C -*-===*\
|*
|* The overbroad rule for an array section whose loops the compiler bounded
|* by its bounds (SECTION_END): which bytes of a transfer the region never
|* touches (ompdp_section_spare), the section the rewrite writes
|* (ompdp_section_shrunk), and the engine selecting part of each copy.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "detect.h"
#include "events.h"
#include "ompdp_rt.h"
#include "region_view.h"

#include <stdlib.h>
#include <string.h>

static ompdp_region_info_t section_item(const char *lo, const char *len, int skip, int end) {
  ompdp_region_info_t it;
  memset(&it, 0, sizeof(it));
  it.construct = OMPDP_CK_TARGET;
  it.map_type = OMPDP_MT_TOFROM;
  it.access = OMPDP_ACCESS_READ_WRITE;
  it.access_flags = OMPDP_IA_SECTION_END;
  it.variable = "x";
  it.expr = it.clause = "";
  it.section_lower = lo;
  it.section_length = len;
  it.section_skip = skip;
  it.section_end = end;
  it.section_elem_size = 8;
  return it;
}

/* The spare bytes, lo + skip - end elements; 0 when the shorter section
 * would not hold the region's [lo + skip, len + end). */
static uint64_t spare_of(const ompdp_region_info_t *it, uint64_t lower, uint64_t bytes) {
  uint64_t spare = 12345;
  int holds = ompdp_section_spare(it, lower, bytes, &spare);
  CHECK(holds || spare == 0);
  return holds ? spare : UINT64_MAX;
}

static void spare(void) {
  ompdp_region_info_t it = section_item("lo", "hi", 0, 0);
  CHECK_EQ_U64(spare_of(&it, 512 * 8, 1024 * 8), 512 * 8);
  CHECK_EQ_U64(spare_of(&it, 0, 1024 * 8), 0);                   /* lower bound 0: holds */
  CHECK_EQ_U64(spare_of(&it, 1024 * 8, 1024 * 8), UINT64_MAX);   /* loops run no time */
  CHECK_EQ_U64(spare_of(&it, 1023 * 8, 1024 * 8), 1023 * 8);     /* one element left */
  CHECK_EQ_U64(spare_of(&it, 512 * 8 + 4, 1024 * 8), UINT64_MAX); /* not an element */
  CHECK_EQ_U64(spare_of(&it, 512 * 8, 1024 * 8 + 4), UINT64_MAX);
  /* `<=` over x[lo : hi]: the loops reach x[lo + hi] when lo < 1. */
  it = section_item("lo", "hi", 0, 1);
  CHECK_EQ_U64(spare_of(&it, 3 * 8, 100 * 8), 2 * 8);
  CHECK_EQ_U64(spare_of(&it, 1 * 8, 100 * 8), 0);
  CHECK_EQ_U64(spare_of(&it, 0, 100 * 8), UINT64_MAX);
  /* Loops from lo + 1 to hi - 1: lo + 2 elements spare. */
  it = section_item("lo", "hi", 1, -1);
  CHECK_EQ_U64(spare_of(&it, 0, 100 * 8), 2 * 8);
  CHECK_EQ_U64(spare_of(&it, 10 * 8, 100 * 8), 12 * 8);
  CHECK_EQ_U64(spare_of(&it, 10 * 8, 12 * 8), UINT64_MAX); /* [11, 11): none used */
  it.section_elem_size = 0;
  CHECK_EQ_U64(spare_of(&it, 10 * 8, 100 * 8), UINT64_MAX);
}

static void check_shrunk(const char *lo, const char *len, int skip, int end,
                         const char *want) {
  ompdp_region_info_t it = section_item(lo, len, skip, end);
  char *got = ompdp_section_shrunk(&it);
  CHECK(got && !strcmp(got, want));
  if (got && strcmp(got, want))
    fprintf(stderr, "  got %s, want %s\n", got, want);
  free(got);
}

/* The constants folded in, parentheses only where the text needs them. */
static void shrunk(void) {
  check_shrunk("lo", "hi", 0, 0, "x[lo : hi - lo]");
  check_shrunk("lo - 1", "hi + 1", 0, 0, "x[lo - 1 : hi + 1 - (lo - 1)]");
  check_shrunk("lo", "hi", 1, -1, "x[lo + 1 : hi - lo - 2]");
  check_shrunk("lo", "hi + 1", 0, 1, "x[lo : hi + 1 - lo + 1]");
  check_shrunk("n / 4", "n", 0, 0, "x[n / 4 : n - n / 4]");
  check_shrunk("p->lo", "p->hi", 0, 0, "x[p->lo : p->hi - p->lo]");
  check_shrunk("f(a, b)", "n", 0, 0, "x[f(a, b) : n - f(a, b)]");
  check_shrunk("c ? a : b", "n << 1", 2, 0, "x[(c ? a : b) + 2 : (n << 1) - (c ? a : b) - 2]");
}

/* A transfer's host address minus 0x10000 is its section's lower bound. */
static int fake_lower(uint32_t op, uint64_t *bytes) {
  const ompdp_op_t *o = ompdp_op_get(op);
  uint64_t host = o->src_dev == HOST ? o->src_addr : o->dst_addr;
  *bytes = host - 0x10000;
  return 0;
}

static int describe(uint32_t region, int item, ompdp_region_info_t *out) {
  if (region != 1 || item > 1)
    return -1;
  *out = section_item("lo", "hi", 0, 0);
  out->num_items = 2;
  if (item == 1) /* to: only the copies in */
    out->map_type = OMPDP_MT_TO;
  return 0;
}

static void at(seq_t *s, uint32_t e, int item) {
  s->ev[e].region = 1;
  s->ev[e].item = (int16_t)item;
  s->ev[e].codeptr = (const void *)(uintptr_t)0x400001;
}

/* Each copy of the section is selected for its spare bytes; one whose
 * lower bound is 0 joins the finding with no bytes (in its count, not in
 * the matches), once the site has a copy with spare bytes. */
static void engine(void) {
  seq_t s;
  seq_init(&s);
  at(&s, h2d(&s, 0, 0x10000, 0xc000, 1024 * 8, 5), 0); /* lower bound 0, before any */
  at(&s, h2d(&s, 0, 0x10000 + 512 * 8, 0xd000, 1024 * 8, 1), 0);
  at(&s, h2d(&s, 0, 0x10000 + 256 * 8, 0xe000, 1024 * 8, 2), 1);
  at(&s, kernel(&s, 0), -1);
  at(&s, d2h(&s, 0, 0xd000, 0x10000 + 512 * 8, 1024 * 8, 3), 0);
  at(&s, h2d(&s, 0, 0x10000, 0xf000, 1024 * 8, 4), 0); /* lower bound 0 */
  ompdp_matches_t m = {0};
  ompdp_engine_config_t cfg = {.describe = describe, .section_lower = fake_lower};
  CHECK(seq_matches_cfg(&s, OMPDP_FK_OVERBROAD_MAP, &m, cfg) == 0);
  CHECK_EQ_U64(m.n, 3);
  for (size_t i = 0; i < m.n; ++i)
    CHECK_EQ_U64(m.v[i].aux, OMPDP_OVERBROAD_SECTION);
  ompdp_matches_free(&m);
  /* Without the run's lower bounds, nothing. */
  cfg.section_lower = NULL;
  CHECK(seq_matches_cfg(&s, OMPDP_FK_OVERBROAD_MAP, &m, cfg) == 0);
  CHECK_EQ_U64(m.n, 0);
  ompdp_matches_free(&m);

  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .describe = describe, .section_lower = fake_lower};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  int seen = 0;
  for (size_t i = 0; i < r.num_findings; ++i) {
    const ompdp_finding_t *f = &r.findings[i];
    if (f->kind != OMPDP_FK_OVERBROAD_MAP)
      continue;
    ++seen;
    if (f->item == 0) { /* in and back, 512 elements each, and two copies in with none */
      CHECK_EQ_U64(f->count, 4);
      CHECK_EQ_U64(f->bytes, 2 * 512 * 8);
      CHECK(f->time_saved_ns > 0 && f->time_saved_ns < f->time_ns + 1);
      CHECK(f->suggestion && strstr(f->suggestion, "map `x[lo : hi - lo]`") != NULL);
    } else {
      CHECK_EQ_U64(f->count, 1);
      CHECK_EQ_U64(f->bytes, 256 * 8);
    }
  }
  CHECK_EQ_U64(seen, 2);
  ompdp_report_free(&r);
}

int main(void) {
  spare();
  shrunk();
  engine();
  return CHECK_DONE();
}
