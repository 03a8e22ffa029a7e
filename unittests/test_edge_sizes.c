/*===- test_edge_sizes.c - sizes past 32 bits, and of zero ---------*- C -*-===*\
|*
|* Host offload cannot move 4 GiB in a test, so these transfers are made up
|* as events: sizes of 4 GiB + 1, 5 GiB and 2^40 + 3 bytes, and transfers of
|* 0 bytes, go through the analysis, the JSON writer and reader, and the
|* text report. No count, byte total or finding may lose its upper 32 bits,
|* and empty transfers are counted but never a duplicate or unused.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "check.h"
#include "events.h"

#include <stdlib.h>
#include <string.h>

#define GIB ((uint64_t)1 << 30)

static char *render(const ompdp_report_t *r, int (*write)(const ompdp_report_t *, FILE *),
                    size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    return NULL;
  int rc = write(r, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  if (len)
    *len = n;
  return buf;
}

static const ompdp_finding_t *find(const ompdp_report_t *r, ompdp_finding_kind_t k) {
  for (size_t i = 0; i < r->num_findings; ++i)
    if (r->findings[i].kind == k)
      return &r->findings[i];
  return NULL;
}

static void large_sizes(void) {
  const uint64_t big = 4 * GIB + 1, huge = ((uint64_t)1 << 40) + 3;
  seq_t s;
  seq_init(&s);
  /* The same 4 GiB + 1 buffer to device 0 three times (2 duplicates), with
   * one kernel after the first. */
  alloc(&s, 0, 0x100000000, 0xd00000000, big);
  h2d(&s, 0, 0x100000000, 0xd00000000, big, 0xabc);
  kernel(&s, 0);
  h2d(&s, 0, 0x100000000, 0xd00000000, big, 0xabc);
  h2d(&s, 0, 0x100000000, 0xd00000000, big, 0xabc);
  kernel(&s, 0);
  del(&s, 0, 0xd00000000);
  /* 5 GiB allocated twice for one host address on device 1, never used by
   * a kernel: one repeated and two unused allocations. */
  for (int i = 0; i < 2; ++i) {
    alloc(&s, 1, 0x900000000, 0xe00000000, 5 * GIB);
    del(&s, 1, 0xe00000000);
  }
  /* 2^40 + 3 bytes back to the host. */
  d2h(&s, 0, 0xd00000000, 0x100000000, huge, 0xdef);

  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 10000000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.num_transfers, 4);
  CHECK_EQ_U64(r.num_allocs, 3);
  CHECK_EQ_U64(r.bytes_transferred, 3 * big + huge);
  CHECK_EQ_U64(r.counts[OMPDP_FK_DUPLICATE_TRANSFER], 2);
  CHECK_EQ_U64(r.counts[OMPDP_FK_REPEATED_ALLOC], 1);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_ALLOC], 2);
  const ompdp_finding_t *dup = find(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  const ompdp_finding_t *rep = find(&r, OMPDP_FK_REPEATED_ALLOC);
  const ompdp_finding_t *unused = find(&r, OMPDP_FK_UNUSED_ALLOC);
  CHECK(dup && rep && unused);
  if (dup && rep && unused) {
    CHECK_EQ_U64(dup->bytes, 2 * big);
    CHECK_EQ_U64(rep->bytes, 5 * GIB);
    CHECK_EQ_U64(unused->bytes, 10 * GIB);
  }

  /* JSON keeps every bit, and reads back the same. */
  size_t len = 0;
  char *json = render(&r, ompdp_report_write_json, &len);
  CHECK(json != NULL);
  if (json) {
    char want[64];
    snprintf(want, sizeof(want), "\"bytes_transferred\": %" PRIu64 ",", 3 * big + huge);
    CHECK(strstr(json, want) != NULL);
    CHECK(strstr(json, "\"bytes\": 8589934594") != NULL);
    CHECK(strstr(json, "\"bytes\": 5368709120") != NULL);
    CHECK(strstr(json, "\"bytes\": 10737418240") != NULL);
    ompdp_report_t back;
    char err[256];
    CHECK(ompdp_report_read_json(json, len, &back, err, sizeof(err)) == 0);
    CHECK_EQ_U64(back.bytes_transferred, r.bytes_transferred);
    CHECK_EQ_U64(back.num_findings, r.num_findings);
    for (size_t i = 0; i < back.num_findings && i < r.num_findings; ++i)
      CHECK_EQ_U64(back.findings[i].bytes, r.findings[i].bytes);
    ompdp_report_free(&back);
    free(json);
  }

  /* The text report shows the sizes in their units. */
  char *text = render(&r, ompdp_report_write_text, NULL);
  CHECK(text != NULL);
  if (text) {
    CHECK(strstr(text, "bytes=8.0 GiB") != NULL);
    CHECK(strstr(text, "bytes=10.0 GiB") != NULL);
    CHECK(strstr(text, "1.0 TiB") != NULL || strstr(text, "1024.0 GiB") != NULL);
    free(text);
  }
  ompdp_report_free(&r);
}

/* Transfers of 0 bytes are transfers, but carry nothing that could be
 * duplicated or unused. */
static void zero_bytes(void) {
  seq_t s;
  seq_init(&s);
  for (int i = 0; i < 3; ++i)
    h2d(&s, 0, 0x1000, 0xd000, 0, 0);
  kernel(&s, 0);
  h2d(&s, 0, 0x1000, 0xd000, 0, 0);
  d2h(&s, 0, 0xd000, 0x1000, 0, 0);
  d2h(&s, 0, 0xd000, 0x1000, 0, 0);
  ompdp_analysis_input_t in = {.events = s.ev, .num_events = s.n, .host_device = HOST,
                               .wall_time_ns = 100000};
  ompdp_report_t r;
  ompdp_report_init(&r);
  CHECK(ompdp_analyze(&in, &r, NULL) == 0);
  CHECK_EQ_U64(r.num_transfers, 6);
  CHECK_EQ_U64(r.bytes_transferred, 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_DUPLICATE_TRANSFER], 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_ROUND_TRIP], 0);
  CHECK_EQ_U64(r.counts[OMPDP_FK_UNUSED_TRANSFER], 0);
  size_t len = 0;
  char *json = render(&r, ompdp_report_write_json, &len);
  ompdp_report_t back;
  char err[256];
  CHECK(json && ompdp_report_read_json(json, len, &back, err, sizeof(err)) == 0);
  if (json) {
    CHECK_EQ_U64(back.num_transfers, 6);
    ompdp_report_free(&back);
  }
  free(json);
  ompdp_report_free(&r);
}

int main(void) {
  large_sizes();
  zero_bytes();
  return CHECK_DONE();
}
