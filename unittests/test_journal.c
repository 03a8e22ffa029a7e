/*===- test_journal.c - the journal: snapshots and the file format -*- C -*-===*\
|*
|* A snapshot of the engine (what the journal saves while the program runs)
|* holds what is decided so far and leaves the engine as it was: the report
|* at the end is byte for byte the one of an engine never snapshot. A
|* journal reads back as the same report, marked partial and recovered, and
|* every way of breaking its header, length or checksum is one line of
|* error.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "check.h"
#include "events.h"
#include "journal_format.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static char *render(const ompdp_report_t *r) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    return NULL;
  int rc = ompdp_report_write_json(r, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  return buf;
}

static void feed(ompdp_engine_t *g, const seq_t *s, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    ompdp_rec_t rec;
    CHECK(ompdp_rec_from_event(&s->ev[i], &rec) == 0);
    CHECK(ompdp_engine_feed(g, &rec, rec.op, i) == 0);
  }
}

/* An allocation that stays unused, then the same bytes sent twice (one
 * duplicate), then a kernel and a delete. */
static void build(seq_t *s) {
  seq_init(s);
  alloc(s, 0, 0x1000, 0xd000, 64);
  alloc(s, 0, 0x2000, 0xe000, 64);
  h2d(s, 0, 0x2000, 0xe000, 64, 7);
  h2d(s, 0, 0x2000, 0xe000, 64, 7); /* 3: the duplicate */
  kernel(s, 0);
  del(s, 0, 0xd000);
  del(s, 0, 0xe000);
}

static void snapshot_leaves_engine_alone(void) {
  seq_t s;
  build(&s);
  ompdp_engine_config_t cfg = {.host_device = HOST};
  ompdp_engine_result_t res = {.wall_time_ns = 100000};
  ompdp_engine_t *plain = ompdp_engine_create(&cfg), *snapped = ompdp_engine_create(&cfg);
  CHECK(plain && snapped);
  if (!plain || !snapped)
    return;
  feed(plain, &s, 0, s.n);
  feed(snapped, &s, 0, 3);
  ompdp_report_t early, mid, a, b;
  ompdp_report_init(&early);
  CHECK(ompdp_engine_snapshot(snapped, &early, &res) == 0);
  CHECK_EQ_U64(early.num_transfers, 1);
  CHECK_EQ_U64(early.counts[OMPDP_FK_DUPLICATE_TRANSFER], 0);
  /* No kernel yet, but one may come: neither allocation is unused yet, nor
   * the transfer (the end of the run would call them so). */
  CHECK_EQ_U64(early.counts[OMPDP_FK_UNUSED_ALLOC], 0);
  CHECK_EQ_U64(early.counts[OMPDP_FK_UNUSED_TRANSFER], 0);
  feed(snapped, &s, 3, 5);
  ompdp_report_init(&mid);
  CHECK(ompdp_engine_snapshot(snapped, &mid, &res) == 0);
  CHECK_EQ_U64(mid.num_allocs, 2);
  CHECK_EQ_U64(mid.num_transfers, 2);
  CHECK_EQ_U64(mid.num_deletes, 0);
  CHECK_EQ_U64(mid.counts[OMPDP_FK_DUPLICATE_TRANSFER], 1);
  /* Not decided yet: the allocation may still be used. */
  CHECK_EQ_U64(mid.counts[OMPDP_FK_UNUSED_ALLOC], 0);
  feed(snapped, &s, 5, s.n);
  ompdp_report_init(&a);
  ompdp_report_init(&b);
  CHECK(ompdp_engine_finish(plain, &a, &res) == 0);
  CHECK(ompdp_engine_finish(snapped, &b, &res) == 0);
  CHECK_EQ_U64(b.num_deletes, 2);
  CHECK_EQ_U64(b.counts[OMPDP_FK_DUPLICATE_TRANSFER], 1);
  char *ja = render(&a), *jb = render(&b);
  CHECK(ja && jb && strcmp(ja, jb) == 0);
  free(ja);
  free(jb);
  ompdp_report_free(&early);
  ompdp_report_free(&mid);
  ompdp_report_free(&a);
  ompdp_report_free(&b);
  ompdp_engine_destroy(plain);
  ompdp_engine_destroy(snapped);
}

/* Reading buf must fail with a one-line error that contains want. */
static void refused(const char *buf, size_t len, const char *want) {
  ompdp_report_t r;
  char err[512];
  CHECK(ompdp_journal_read(buf, len, NULL, &r, err, sizeof(err)) == -1);
  CHECK(strstr(err, want) != NULL);
  CHECK(strchr(err, '\n') == NULL);
  if (!strstr(err, want))
    fprintf(stderr, "  got: %s\n  want: %s\n", err, want);
}

static void format_round_trip_and_errors(void) {
  ompdp_report_t r;
  ompdp_report_init(&r);
  r.num_transfers = 3;
  r.num_deletes = 2;
  r.counts[OMPDP_FK_DUPLICATE_TRANSFER] = 1;
  CHECK(ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER) != NULL);
  char *j;
  size_t len;
  CHECK(ompdp_journal_encode(&r, 1234567890123ull, 42, &j, &len) == 0);
  CHECK(ompdp_journal_is(j, len));
  ompdp_report_t back;
  char err[512];
  CHECK(ompdp_journal_read(j, len, "killed", &back, err, sizeof(err)) == 0);
  CHECK(back.partial == 1);
  CHECK(back.recovered_reason && !strcmp(back.recovered_reason, "killed"));
  CHECK_EQ_U64(back.recovered_flushed_at_ns, 1234567890123ull);
  CHECK_EQ_U64(back.recovered_events, 42);
  CHECK_EQ_U64(back.num_deletes, 2);
  CHECK_EQ_U64(back.num_findings, 1);
  /* The recovered report's JSON reads back with its "recovered" member. */
  char *json = render(&back);
  ompdp_report_t again;
  CHECK(json && ompdp_report_read_json(json, strlen(json), &again, err, sizeof(err)) == 0);
  CHECK(again.recovered_reason && !strcmp(again.recovered_reason, "killed"));
  CHECK_EQ_U64(again.recovered_events, 42);
  ompdp_report_free(&again);
  free(json);
  ompdp_report_free(&back);

  refused(j, len - 1, "truncated");
  refused(j, 20, "header is truncated");
  char *more = malloc(len + 1);
  memcpy(more, j, len);
  more[len] = 'x';
  refused(more, len + 1, "1 bytes after its report");
  memcpy(more, j, len);
  more[len - 3] ^= 1;
  refused(more, len, "checksum does not match");
  free(more);
  refused("{\"ompdp_report_version\": 2}", 27, "not an ompdp journal");
  static const char V2[] = "ompdp-journal 2 flushed_at_ns=1 events=1 bytes=2 "
                           "xxh64=0000000000000000\n{}";
  refused(V2, sizeof(V2) - 1, "journal version 2 is not supported");
  static const char Huge[] = "ompdp-journal 1 flushed_at_ns=1 events=1 "
                             "bytes=18446744073709551615 xxh64=0000000000000000\n{}";
  refused(Huge, sizeof(Huge) - 1, "larger than 256 MiB");
  static const char Over[] = "ompdp-journal 1 flushed_at_ns=1 events=99999999999999999999999 "
                             "bytes=2 xxh64=0000000000000000\n{}";
  refused(Over, sizeof(Over) - 1, "header is corrupt");
  static const char Order[] = "ompdp-journal 1 events=1 flushed_at_ns=1 bytes=2 "
                              "xxh64=0000000000000000\n{}";
  refused(Order, sizeof(Order) - 1, "header is corrupt");
  static const char Short[] = "ompdp-journal 1 flushed_at_ns=1 events=1 bytes=2 xxh64=00\n{}";
  refused(Short, sizeof(Short) - 1, "header is corrupt");
  /* A correct header over a JSON that is not a report: the report
   * reader's reason, after the journal's. */
  char bad[160];
  int n = snprintf(bad, sizeof(bad),
                   "ompdp-journal 1 flushed_at_ns=1 events=1 bytes=2 xxh64=%016llx\n[]",
                   (unsigned long long)XXH64("[]", 2, 0));
  refused(bad, (size_t)n, "the journal's report is corrupt: not an ompdp report");
  free(j);
  ompdp_report_free(&r);
}

int main(void) {
  snapshot_leaves_engine_alone();
  format_round_trip_and_errors();
  return CHECK_DONE();
}
