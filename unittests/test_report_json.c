/*===- test_report_json.c - the report model and its formats ----------------===*\
|*
|* Round trip model -> JSON -> model -> JSON must give the same text; the
|* text rendering must hold the pieces people (and lit tests) look for; and
|* the reader must refuse every malformed input with a reason, without
|* crashing or leaking (run it under ASan or valgrind to see the latter),
|* including every truncation and thousands of random corruptions.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "report.h"

#include <stdlib.h>
#include <string.h>

/* Renders r with fn into a malloc'd string. */
static char *render(const ompdp_report_t *r,
                    int (*fn)(const ompdp_report_t *, FILE *), size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    return NULL;
  int rc = fn(r, f);
  fclose(f);
  if (rc) {
    free(buf);
    return NULL;
  }
  if (len)
    *len = n;
  return buf;
}

static void set_loc(ompdp_loc_t *l, const char *file, unsigned line,
                    unsigned col, const char *fn) {
  l->file = ompdp_strdup(file);
  l->function = ompdp_strdup(fn);
  l->line = line;
  l->column = col;
}

static void build(ompdp_report_t *r) {
  ompdp_report_init(r);
  const char *argv[] = {"./listing1", "arg with space", "q\"uote\\slash",
                        "ctl\x01\t\n", "bad\xff\xc3(utf8", "ok\xc3\xa9\xe2\x82\xac"};
  r->argc = sizeof(argv) / sizeof(argv[0]);
  r->argv = calloc(r->argc, sizeof(char *));
  for (size_t i = 0; i < r->argc; ++i)
    r->argv[i] = ompdp_strdup(argv[i]);
  r->has_exit_status = 1;
  r->exit_status = 3;
  r->wall_time_ns = 1234567890;
  r->counts[OMPDP_FK_DUPLICATE_TRANSFER] = 2;
  r->counts[OMPDP_FK_ROUND_TRIP] = 1;
  r->counts[OMPDP_FK_UNUSED_TRANSFER] = UINT64_MAX;
  r->time_saved_ns = 12345;
  r->excluded_time_ns = 5000;
  ompdp_report_update_speedup(r);
  r->num_transfers = 10;
  r->num_allocs = 4;
  r->num_kernels = 3;
  r->bytes_transferred = 40960;
  r->transfer_time_ns = 99999;
  r->hash_collisions = 0;
  r->partial = 1;
  ompdp_report_add_warning(r, "lost 3 callbacks");
  ompdp_report_add_warning(r, "line\nbreak");

  ompdp_finding_t *f = ompdp_report_add_finding(r, OMPDP_FK_ROUND_TRIP);
  f->count = 1;
  f->bytes = 4000;
  f->time_ns = 5000;
  f->time_saved_ns = 5000;
  f->devices = malloc(2 * sizeof(int));
  f->devices[0] = 0;
  f->devices[1] = 1;
  f->num_devices = 2;
  set_loc(&f->loc, "listing2.c", 30, 5, "compute");
  set_loc(&f->related, "listing2.c", 22, 1, NULL);
  f->suggestion = ompdp_strdup("keep the data on the device");
  f->verdict = OMPDP_V_NECESSARY;

  f = ompdp_report_add_finding(r, OMPDP_FK_DUPLICATE_TRANSFER);
  f->count = 1;
  f->bytes = 4000;
  f->time_ns = 12300;
  f->time_saved_ns = 12300;
  f->devices = malloc(sizeof(int));
  f->devices[0] = -1;
  f->num_devices = 1;
  set_loc(&f->loc, "listing1.c", 17, 3, "main");
  set_loc(&f->related, "listing1.c", 12, 3, "main");
  f->variable = ompdp_strdup("a");
  f->clause = ompdp_strdup("map(to: a[0:1000])");
  f->suggestion = ompdp_strdup("use a target data region");
  f->same_buffer = 1;
  f->other_buffer = 0;
  f->verdict = OMPDP_V_FIX;
  f->region_id = 0xab;
  f->item = 2;
  f->range = (ompdp_range_t){17, 30, 17, 40, 310, 320};
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_KEEP_RESIDENT);
  rw->description = ompdp_strdup("keep `a` on device 0 for the whole loop");
  rw->assumption = ompdp_strdup("the region does not write `a`");
  rw->time_saved_ns = 1234;
  rw->transfers_removed = 3;
  rw->allocs_removed = 2;
  rw->bytes_removed = 3072;
  rw->lower_bound = 1;
  ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
  e->file = ompdp_strdup("listing1.c");
  e->range = (ompdp_range_t){5, 1, 5, 4, 40, 43};
  e->original = ompdp_strdup("for");
  e->replacement = ompdp_strdup("#pragma omp target data map(to: a[0:1000])\nfor");
  e->file_hash = 0xfedcba9876543210ull;
  e = ompdp_rewrite_add_edit(rw);
  e->file = ompdp_strdup("listing1.c");
  e->range = (ompdp_range_t){17, 41, 17, 41, -1, -1};
  e->original = NULL;
  e->replacement = ompdp_strdup(" map(\"x\")");
  e = ompdp_rewrite_add_edit(rw);
  e->file = ompdp_strdup("other.c");
  e->range = (ompdp_range_t){3, 1, 4, 1, -1, -1};
  e->original = ompdp_strdup("#pragma omp target update to(a)");
  e->replacement = ompdp_strdup("");

  f = ompdp_report_add_finding(r, OMPDP_FK_DUPLICATE_TRANSFER);
  f->count = UINT64_MAX;
  f->bytes = 1ull << 40;
  f->time_ns = 20;
  f->time_saved_ns = 20;
  f->verdict = OMPDP_V_COINCIDENCE;
  /* everything else unknown: NULL strings, no devices, no location */
}

static void test_round_trip(void) {
  ompdp_report_t a, b;
  build(&a);
  size_t len1 = 0, len2 = 0;
  char *j1 = render(&a, ompdp_report_write_json, &len1);
  CHECK(j1 != NULL);
  char err[256] = "";
  int rc = ompdp_report_read_json(j1, len1, &b, err, sizeof(err));
  CHECK(rc == 0);
  if (rc)
    fprintf(stderr, "read error: %s\n", err);
  char *j2 = render(&b, ompdp_report_write_json, &len2);
  CHECK(j2 != NULL);
  CHECK(j1 && j2 && len1 == len2 && memcmp(j1, j2, len1) == 0);
  if (getenv("DUMP")) { fputs(j1, stdout); fputs(j2, stdout); }

  /* The model survived, field by field. */
  CHECK_EQ_U64(b.argc, a.argc);
  CHECK(b.argc > 3 && !strcmp(b.argv[1], "arg with space"));
  CHECK(b.argc > 3 && !strcmp(b.argv[2], "q\"uote\\slash"));
  CHECK(b.argc > 3 && !strcmp(b.argv[3], "ctl\x01\t\n"));
  CHECK(b.argc > 5 && !strcmp(b.argv[4], "bad\xef\xbf\xbd\xef\xbf\xbd(utf8"));
  CHECK(b.argc > 5 && !strcmp(b.argv[5], "ok\xc3\xa9\xe2\x82\xac"));
  CHECK(b.has_exit_status && b.exit_status == 3);
  CHECK_EQ_U64(b.wall_time_ns, 1234567890);
  CHECK_EQ_U64(b.counts[OMPDP_FK_UNUSED_TRANSFER], UINT64_MAX);
  CHECK_EQ_U64(b.counts[OMPDP_FK_ROUND_TRIP], 1);
  CHECK(b.predicted_speedup == a.predicted_speedup);
  CHECK_EQ_U64(b.excluded_time_ns, 5000);
  CHECK_EQ_U64(b.bytes_transferred, 40960);
  CHECK(b.partial == 1);
  CHECK(b.num_warnings == 2 && !strcmp(b.warnings[1], "line\nbreak"));
  CHECK_EQ_U64(b.num_findings, 3);
  if (b.num_findings == 3) {
    CHECK(b.findings[1].kind == OMPDP_FK_DUPLICATE_TRANSFER);
    CHECK(b.findings[1].num_devices == 1 && b.findings[1].devices[0] == -1);
    CHECK(!strcmp(b.findings[1].clause, "map(to: a[0:1000])"));
    CHECK(b.findings[1].related.line == 12);
    CHECK_EQ_U64(b.findings[1].same_buffer, 1);
    CHECK(b.findings[0].verdict == OMPDP_V_NECESSARY && b.findings[1].verdict == OMPDP_V_FIX &&
          b.findings[2].verdict == OMPDP_V_COINCIDENCE);
    CHECK_EQ_U64(b.findings[2].count, UINT64_MAX);
    CHECK(b.findings[2].loc.file == NULL && b.findings[2].suggestion == NULL);
    CHECK(b.findings[0].related.function == NULL);
    /* Version 2: the site and the rewrites. */
    const ompdp_finding_t *f = &b.findings[1];
    CHECK_EQ_U64(f->region_id, 0xab);
    CHECK(f->item == 2 && b.findings[0].item == -1 && b.findings[0].region_id == 0);
    CHECK(f->range.line == 17 && f->range.end_column == 40 && f->range.offset == 310 &&
          f->range.end_offset == 320);
    CHECK(b.findings[0].range.line == 0 && b.findings[0].range.offset == -1);
    CHECK(f->num_rewrites == 1 && b.findings[0].num_rewrites == 0);
    if (f->num_rewrites == 1) {
      const ompdp_rewrite_t *rw = &f->rewrites[0];
      CHECK(rw->kind == OMPDP_RK_KEEP_RESIDENT);
      CHECK(!strcmp(rw->assumption, "the region does not write `a`"));
      CHECK(rw->time_saved_ns == 1234 && rw->transfers_removed == 3 &&
            rw->allocs_removed == 2 && rw->bytes_removed == 3072 && rw->lower_bound == 1);
      CHECK(rw->num_edits == 3);
      CHECK(rw->num_edits == 3 && rw->edits[0].range.offset == 40 &&
            !strcmp(rw->edits[0].replacement, "#pragma omp target data map(to: a[0:1000])\nfor"));
      CHECK(rw->num_edits == 3 && rw->edits[0].file_hash == 0xfedcba9876543210ull &&
            rw->edits[1].file_hash == 0);
      CHECK(rw->num_edits == 3 && rw->edits[1].original == NULL &&
            rw->edits[1].range.offset == -1 && !strcmp(rw->edits[1].replacement, " map(\"x\")"));
      CHECK(rw->num_edits == 3 && !strcmp(rw->edits[2].file, "other.c") &&
            rw->edits[2].range.end_line == 4 && !strcmp(rw->edits[2].replacement, ""));
      CHECK(ompdp_rewrite_same_edits(rw, &a.findings[1].rewrites[0]));
    }
  }

  /* The required names are there, spelled exactly. */
  CHECK(j1 && strstr(j1, "\"ompdp_report_version\": 2"));
  CHECK(j1 && strstr(j1, "\"region_id\": \"00000000000000ab\""));
  CHECK(j1 && strstr(j1, "\"range\": {\"line\": 17, \"column\": 30, \"end_line\": 17, "
                         "\"end_column\": 40, \"offset\": 310, \"end_offset\": 320}"));
  CHECK(j1 && strstr(j1, "{\"file\": \"listing1.c\", \"line\": 17, \"column\": 41, "
                         "\"end_line\": 17, \"end_column\": 41, \"offset\": null, "
                         "\"end_offset\": null, \"original\": null, \"replacement\": "
                         "\" map(\\\"x\\\")\", \"file_hash\": null}"));
  CHECK(j1 && strstr(j1, "\"file_hash\": \"fedcba9876543210\"}"));
  CHECK(j1 && strstr(j1, "\"rewrites\": []"));
  CHECK(j1 && strstr(j1, "\"zero_transfers\": 0"));
  CHECK(j1 && strstr(j1, "\"duplicate_transfers\": 2"));
  CHECK(j1 && strstr(j1, "\"unused_transfers\": 18446744073709551615"));
  CHECK(j1 && strstr(j1, "\"kind\": \"duplicate_transfer\""));
  CHECK(j1 && strstr(j1, "\"variable\": null"));
  CHECK(j1 && strstr(j1, "\"related\": null"));
  CHECK(j1 && strstr(j1, "\"ctl\\u0001\\t\\n\""));
  CHECK(j1 && strstr(j1, "\"bad\\ufffd\\ufffd(utf8\""));
  CHECK(j1 && strstr(j1, "\"exit_status\": 3"));

  /* No exit status is written as null and read back as unknown. */
  ompdp_report_free(&b);
  a.has_exit_status = 0;
  char *j3 = render(&a, ompdp_report_write_json, &len1);
  CHECK(j3 && strstr(j3, "\"exit_status\": null"));
  CHECK(j3 && ompdp_report_read_json(j3, len1, &b, err, sizeof(err)) == 0 &&
        b.has_exit_status == 0);
  ompdp_report_free(&b);

  free(j1);
  free(j2);
  free(j3);
  ompdp_report_free(&a);
}

/* How the edited files were compiled: written, read back, deduplicated;
 * an entry with an argument holding a newline is left out on reading. */
static void test_compile_commands(void) {
  ompdp_report_t a, b;
  build(&a);
  CHECK(ompdp_report_add_compile_command(&a, "prog.c", "/w", "/bin/cc\n-cc1\n-fsyntax-only\nprog.c") == 0);
  CHECK(ompdp_report_add_compile_command(&a, "prog.c", "/w", "/bin/cc\n-cc1\n-fsyntax-only\nprog.c") == 0);
  CHECK(ompdp_report_add_compile_command(&a, "h.h", "/w", "/bin/cc\n-cc1\nprog.c") == 0);
  CHECK(ompdp_report_add_compile_command(&a, "x.c", "", "/bin/cc") == 0); /* no directory: none */
  CHECK_EQ_U64(a.num_compile_commands, 2);
  size_t len1 = 0, len2 = 0;
  char *j1 = render(&a, ompdp_report_write_json, &len1);
  CHECK(j1 && strstr(j1, "\"compile_commands\": [\n    {\"file\": \"prog.c\", \"directory\": \"/w\", "
                         "\"arguments\": [\"/bin/cc\", \"-cc1\", \"-fsyntax-only\", \"prog.c\"]}"));
  char err[256] = "";
  CHECK(j1 && ompdp_report_read_json(j1, len1, &b, err, sizeof(err)) == 0);
  CHECK_EQ_U64(b.num_compile_commands, 2);
  CHECK(b.num_compile_commands == 2 && b.compile_commands[1].num_arguments == 3 &&
        !strcmp(b.compile_commands[1].file, "h.h") &&
        !strcmp(b.compile_commands[1].arguments[2], "prog.c"));
  char *j2 = render(&b, ompdp_report_write_json, &len2);
  CHECK(j1 && j2 && len1 == len2 && memcmp(j1, j2, len1) == 0);
  ompdp_report_free(&b);
  static const char bad[] =
      "{\"ompdp_report_version\": 2, \"program\": {}, \"summary\": {}, \"findings\": [],"
      " \"compile_commands\": [{\"file\": \"a.c\", \"directory\": \"/w\", \"arguments\": [\"a\\nb\"]},"
      " {\"file\": \"b.c\", \"directory\": \"/w\", \"arguments\": [\"cc\"], \"more\": 1}]}";
  CHECK(ompdp_report_read_json(bad, sizeof(bad) - 1, &b, err, sizeof(err)) == 0);
  CHECK(b.num_compile_commands == 1 && !strcmp(b.compile_commands[0].file, "b.c"));
  ompdp_report_free(&b);
  free(j1);
  free(j2);
  ompdp_report_free(&a);
}

static void test_doubles(void) {
  const double vals[] = {1.0, 1.25, 1.0000000000000002, 3.141592653589793,
                         1e300, 123456789.123456789, 1.0 / 3.0};
  for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); ++i) {
    ompdp_report_t a, b;
    ompdp_report_init(&a);
    a.predicted_speedup = vals[i];
    size_t len;
    char *j = render(&a, ompdp_report_write_json, &len);
    char err[256];
    CHECK(j && ompdp_report_read_json(j, len, &b, err, sizeof(err)) == 0);
    CHECK(b.predicted_speedup == vals[i]);
    free(j);
    ompdp_report_free(&b);
  }
  ompdp_report_t a;
  ompdp_report_init(&a);
  char *j = render(&a, ompdp_report_write_json, NULL);
  CHECK(j && strstr(j, "\"predicted_speedup\": 1.0,\n"));
  free(j);
}

static void test_text(void) {
  ompdp_report_t a;
  build(&a);
  char *t = render(&a, ompdp_report_write_text, NULL);
  CHECK(t != NULL);
  if (t) {
    CHECK(strstr(t, "program: ./listing1 arg with space") != NULL);
    CHECK(strstr(t, "exit status: 3") != NULL);
    CHECK(strstr(t, "wall time: 1.2 s") != NULL);
    CHECK(strstr(t, "summary: duplicate_transfers=2 round_trips=1 "
                    "repeated_allocs=0 unused_allocs=0 "
                    "unused_transfers=18446744073709551615 zero_transfers=0 "
                    "overbroad_maps=0 early_allocs=0 late_releases=0 single_value_transfers=0\n") != NULL);
    CHECK(strstr(t, "    suggestion: use a target data region\n"
                    "    rewrite (keep_resident): keep `a` on device 0 for the whole loop  "
                    "[saves at least 1.2 us: 3 transfers (3.0 KiB), 2 allocations]\n"
                    "      assumes: the region does not write `a`\n"
                    "      listing1.c:5:1-5:4: replace \"for\" with \"#pragma omp target data "
                    "map(to: a[0:1000])\\nfor\"\n"
                    "      listing1.c:17:41: insert \" map(\\\"x\\\")\"\n"
                    "      other.c:3:1-4:1: delete \"#pragma omp target update to(a)\"\n") != NULL);
    CHECK(strstr(t, "time that the fixes would save: 12.3 us of 1.2 s "
                    "(predicted speedup 1.00x)") != NULL);
    CHECK(strstr(t, "warning: this report is incomplete") != NULL);
    CHECK(strstr(t, "warning: lost 3 callbacks") != NULL);
    CHECK(strstr(t, "warning: line\\nbreak\n") != NULL);
    CHECK(strstr(t, " ctl\\x01\\t\\n bad") != NULL);
    CHECK(strstr(t, "\nDuplicate transfers: a device received bytes") != NULL);
    CHECK(strstr(t, "\nduplicate_transfer  listing1.c:17:3 in main  count=1 "
                    "bytes=3.9 KiB time=12.3 us saved=12.3 us devices=-1\n") != NULL);
    CHECK(strstr(t, "    variable: a  clause: map(to: a[0:1000])\n") != NULL);
    CHECK(strstr(t, "    first sent at listing1.c:12:3 in main\n") != NULL);
    CHECK(strstr(t, "    suggestion: use a target data region\n") != NULL);
    CHECK(strstr(t, "\nduplicate_transfer  <unknown file>  count=18446744073709551615 "
                    "bytes=1.0 TiB time=20 ns saved=20 ns devices=-\n") != NULL);
    CHECK(strstr(t, "\nround_trip  listing2.c:30:5 in compute  count=1 bytes=3.9 KiB "
                    "time=5.0 us saved=5.0 us devices=0,1\n") != NULL);
    CHECK(strstr(t, "    outgoing copy at listing2.c:22:1\n") != NULL);
    CHECK(strstr(t, "no inefficient data movement found") == NULL);
    /* Sorted: kinds in table order, larger savings first within a kind. */
    const char *d1 = strstr(t, "duplicate_transfer  listing1.c");
    const char *d2 = strstr(t, "duplicate_transfer  <unknown");
    const char *rt = strstr(t, "round_trip  listing2.c");
    CHECK(d1 && d2 && rt && d1 < d2 && d2 < rt);
    CHECK(strstr(t, "Unused transfers") == NULL); /* no section when empty */
  }
  /* The caller's order is left alone. */
  CHECK(a.findings[0].kind == OMPDP_FK_ROUND_TRIP);
  free(t);
  ompdp_report_free(&a);

  ompdp_report_init(&a);
  t = render(&a, ompdp_report_write_text, NULL);
  CHECK(t && strstr(t, "no inefficient data movement found"));
  CHECK(t && strstr(t, "exit status: unknown"));
  free(t);
}

static void test_model(void) {
  ompdp_report_t r;
  ompdp_report_init(&r);
  for (int i = 0; i < 1000; ++i) {
    ompdp_finding_t *f = ompdp_report_add_finding(&r, (ompdp_finding_kind_t)(i % OMPDP_FK_COUNT));
    CHECK(f != NULL);
    if (f)
      f->time_saved_ns = (uint64_t)(i * 7919 % 1000);
  }
  ompdp_report_sort(&r);
  int sorted = 1;
  for (size_t i = 1; i < r.num_findings; ++i) {
    const ompdp_finding_t *p = &r.findings[i - 1], *q = &r.findings[i];
    if (p->kind > q->kind || (p->kind == q->kind && p->time_saved_ns < q->time_saved_ns))
      sorted = 0;
  }
  CHECK(sorted);
  ompdp_report_free(&r);
  CHECK(r.num_findings == 0 && r.findings == NULL);

  /* Within a kind, a finding whose verdict saves nothing comes after those
   * that save, however long its operations took (lit-tests/lsp/session.test:
   * a coincidence of one transfer that ran slower than four repeated ones
   * went first under load). */
  ompdp_report_init(&r);
  static const struct { ompdp_verdict_t v; uint64_t ns; } vs[] = {
      {OMPDP_V_COINCIDENCE, 900}, {OMPDP_V_FIX, 100}, {OMPDP_V_NECESSARY, 50},
      {OMPDP_V_ADVICE, 300}, {OMPDP_V_REPEATED_COMPUTATION, 2000}};
  for (size_t i = 0; i < sizeof(vs) / sizeof(*vs); ++i) {
    ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
    CHECK(f != NULL);
    if (f) {
      f->verdict = vs[i].v;
      f->time_saved_ns = vs[i].ns;
    }
  }
  ompdp_report_sort(&r);
  CHECK(r.num_findings == 5 && r.findings[0].verdict == OMPDP_V_ADVICE &&
        r.findings[1].verdict == OMPDP_V_FIX &&
        r.findings[2].verdict == OMPDP_V_REPEATED_COMPUTATION &&
        r.findings[3].verdict == OMPDP_V_COINCIDENCE &&
        r.findings[4].verdict == OMPDP_V_NECESSARY);
  ompdp_report_free(&r);

  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    CHECK(ompdp_finding_kind_from_json(ompdp_finding_kind_json(k)) == (ompdp_finding_kind_t)k);
  CHECK(ompdp_finding_kind_from_json("nope") == OMPDP_FK_COUNT);
  CHECK(ompdp_finding_kind_from_json(NULL) == OMPDP_FK_COUNT);
  CHECK(!strcmp(ompdp_finding_kind_summary_key(OMPDP_FK_REPEATED_ALLOC), "repeated_allocs"));
  for (int k = 0; k < OMPDP_FK_COUNT; ++k) {
    CHECK(strcmp(ompdp_finding_kind_rule_name(k), "unknown") != 0);
    CHECK(!strncmp(ompdp_finding_kind_warning_group(k), "ompdp-", 6));
    CHECK(strlen(ompdp_finding_kind_help(k)) > 20);
  }
  CHECK(!strcmp(ompdp_finding_kind_warning_group(OMPDP_FK_ROUND_TRIP), "ompdp-round-trip"));
  CHECK(!strcmp(ompdp_finding_kind_json(OMPDP_FK_OVERBROAD_MAP), "overbroad_map"));
  for (int k = 0; k < OMPDP_RK_COUNT; ++k)
    CHECK(ompdp_rewrite_kind_from_json(ompdp_rewrite_kind_json(k)) == (ompdp_rewrite_kind_t)k);
  CHECK(ompdp_rewrite_kind_from_json("nope") == OMPDP_RK_OTHER);

  r.wall_time_ns = 1000;
  r.time_saved_ns = 500;
  ompdp_report_update_speedup(&r);
  CHECK(r.predicted_speedup == 2.0);
  r.time_saved_ns = 5000;
  ompdp_report_update_speedup(&r);
  CHECK(r.predicted_speedup == 1000.0);
  r.wall_time_ns = 0;
  ompdp_report_update_speedup(&r);
  CHECK(r.predicted_speedup == 1.0);
  CHECK(ompdp_strdup(NULL) == NULL);
}

/* Expects text to be refused with a reason containing want (if non-NULL). */
static void expect_bad(const char *text, size_t len, const char *want) {
  ompdp_report_t r;
  char err[256];
  memset(err, 0, sizeof(err));
  int rc = ompdp_report_read_json(text, len, &r, err, sizeof(err));
  CHECK(rc == -1);
  CHECK(err[0] != '\0' && strchr(err, '\n') == NULL);
  if (want && !strstr(err, want)) {
    CHECK(!"reason as expected");
    fprintf(stderr, "  input: %.60s\n  got: %s\n  want: %s\n", text, err, want);
  }
  CHECK(r.num_findings == 0 && r.argv == NULL && r.warnings == NULL);
  ompdp_report_free(&r);
}
#define BAD(s, want) expect_bad(s, sizeof(s) - 1, want)

#define HDR "{\"ompdp_report_version\": 1, "
#define MIN HDR "\"program\": {}, \"summary\": {}, "

static void test_malformed(void) {
  BAD("", "not an ompdp report");
  BAD("   \n", "not an ompdp report");
  BAD("[]", "not an ompdp report");
  BAD("{}", "not an ompdp report");
  BAD("42", "not an ompdp report");
  BAD("hello", "not an ompdp report");
  BAD("{\"ompdp_report_version\": 1,", "invalid JSON at line 1, column 28: unexpected end");
  BAD("{\"some\": \"other tool\"}", "not an ompdp report");
  BAD("{\"ompdp_report_version\": 7}", "report version 7 is not supported (this ompdp reads versions 1 to 2)");
  BAD("{\"ompdp_report_version\": 0}", "report version 0 is not supported");
  BAD("{\"ompdp_report_version\": 99999999999999999999999}", "is not supported");
  BAD("{\"ompdp_report_version\": \"1\"}", "not an integer");
  BAD("{\"ompdp_report_version\": 1.0}", "not an integer");
  BAD("{\"ompdp_report_version\": 1}", "no \"program\"");
  BAD(HDR "\"program\": {}, \"summary\": {}}", "no \"findings\"");
  BAD(MIN "\"findings\": []} x", "unexpected data");
  BAD(MIN "\"findings\": []}}", "unexpected data");
  BAD(MIN "\"findings\": [],}", "member name");
  BAD(MIN "\"findings\": [1,]}", "invalid JSON");
  BAD(MIN "\"findings\": {}}", "\"findings\" must be an array");
  BAD(MIN "\"findings\": [1]}", "array of objects");
  BAD(MIN "\"findings\": [{}]}", "no \"kind\"");
  BAD(MIN "\"findings\": [{\"kind\": 3}]}", "\"kind\" must be a string");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"count\": -1}]}", "non-negative");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"count\": 1.5}]}", "non-negative");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"count\": \"3\"}]}", "non-negative");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"count\": 18446744073709551616}]}", "out of range");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"line\": 4294967296}]}", "out of range");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"devices\": [2147483648]}]}", "out of range");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"devices\": 1}]}", "array of integers");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"related\": 1}]}", "object or null");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"file\": 1}]}", "string or null");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"kind\": \"round_trip\"}]}", "appears twice");
  BAD(MIN "\"findings\": [{\"kind\": \"round_trip\", \"file\": \"a\", \"file\": \"b\"}]}", "appears twice");
  BAD(MIN "\"findings\": [], \"findings\": []}", "appears twice");
  BAD(MIN "\"findings\": [], \"partial\": 1}", "true or false");
  BAD(MIN "\"findings\": [], \"partial\": tru}", "invalid JSON");
  BAD(MIN "\"findings\": [], \"warnings\": [null]}", "must be a string");
  BAD(MIN "\"findings\": [], \"observed\": []}", "must be an object");
  BAD(HDR "\"program\": {\"argv\": \"a.out\"}, \"summary\": {}, \"findings\": []}", "array of strings");
  BAD(HDR "\"program\": {\"exit_status\": 2147483648}, \"summary\": {}, \"findings\": []}", "out of range");
  /* What a merge writes for a rank it must read back (fuzz_merge found it). */
  BAD(HDR "\"program\": {\"exit_status\": 591}, \"summary\": {}, \"findings\": []}", "exit_status");
  BAD(HDR "\"program\": {\"exit_status\": -1}, \"summary\": {}, \"findings\": []}", "exit_status");
  BAD(HDR "\"program\": {}, \"summary\": {\"predicted_speedup\": 1e400}, \"findings\": []}", "out of range");
  BAD(HDR "\"program\": {}, \"summary\": {\"predicted_speedup\": \"fast\"}, \"findings\": []}", "a number");
  BAD(HDR "\"program\": {}, \"summary\": {\"round_trips\": -0.0}, \"findings\": []}", "non-negative");
  /* Version 2 members. */
#define FIND(x) MIN "\"findings\": [{\"kind\": \"round_trip\", " x "}]}"
#define REW(x) FIND("\"rewrites\": [" x "]")
#define EDIT0 "\"file\": \"a.c\", \"line\": 1, \"column\": 1, \"end_line\": 1, \"end_column\": 2"
#define ONE(x) REW("{\"kind\": \"remove_item\", \"edits\": [{" x "}]}")
  BAD(FIND("\"region_id\": 12"), "must be a string");
  BAD(FIND("\"region_id\": \"xyz\""), "hex digits");
  BAD(FIND("\"region_id\": \"\""), "hex digits");
  BAD(FIND("\"region_id\": \"00000000000000001\""), "hex digits");
  BAD(FIND("\"item\": -1"), "non-negative");
  BAD(FIND("\"item\": 2147483648"), "out of range");
  BAD(FIND("\"range\": []"), "object or null");
  BAD(FIND("\"range\": {\"line\": 1}"), "a range has no \"column\"");
  BAD(FIND("\"range\": {\"line\": 2, \"column\": 1, \"end_line\": 1, \"end_column\": 9}"),
      "ends before it starts");
  BAD(FIND("\"rewrites\": {}"), "\"rewrites\" must be an array");
  BAD(REW("1"), "array of objects");
  BAD(REW("{\"edits\": [{" EDIT0 ", \"replacement\": \"\"}]}"), "a rewrite has no \"kind\"");
  BAD(REW("{\"kind\": \"remove_item\"}"), "a rewrite has no edits");
  BAD(REW("{\"kind\": \"remove_item\", \"edits\": []}"), "a rewrite has no edits");
  BAD(REW("{\"kind\": \"remove_item\", \"edits\": {}}"), "array of objects");
  BAD(REW("{\"kind\": \"remove_item\", \"time_saved_ns\": -5, \"edits\": []}"), "non-negative");
  BAD(ONE(EDIT0), "an edit has no \"replacement\"");
  BAD(ONE("\"line\": 1, \"column\": 1, \"end_line\": 1, \"end_column\": 2, \"replacement\": \"\""),
      "an edit has no \"file\"");
  BAD(ONE("\"file\": \"a.c\", \"line\": 1, \"column\": 1, \"end_line\": 1, \"replacement\": \"\""),
      "an edit has no \"end_column\"");
  BAD(ONE("\"file\": \"a.c\", \"line\": 0, \"column\": 1, \"end_line\": 1, \"end_column\": 1, "
          "\"replacement\": \"\""),
      "count from 1");
  BAD(ONE("\"file\": \"a.c\", \"line\": 1, \"column\": 5, \"end_line\": 1, \"end_column\": 4, "
          "\"replacement\": \"\""),
      "ends before it starts");
  BAD(ONE(EDIT0 ", \"offset\": 3, \"replacement\": \"\""), "only one of");
  BAD(ONE(EDIT0 ", \"offset\": 3, \"end_offset\": 2, \"replacement\": \"\""), "before \"offset\"");
  BAD(ONE(EDIT0 ", \"offset\": -3, \"end_offset\": 2, \"replacement\": \"\""), "non-negative");
  BAD(ONE(EDIT0 ", \"replacement\": null"), "must be a string");
  BAD(ONE(EDIT0 ", \"original\": 1, \"replacement\": \"\""), "string or null");
  BAD(ONE(EDIT0 ", \"file\": \"b.c\", \"replacement\": \"\""), "appears twice");
  BAD(ONE(EDIT0 ", \"file_hash\": 5, \"replacement\": \"\""), "\"file_hash\" must be a string");
  BAD(ONE(EDIT0 ", \"file_hash\": \"12g\", \"replacement\": \"\""), "\"file_hash\" must be a string of 1 to 16 hex digits");
  /* Lexical errors. */
  BAD(MIN "\"findings\": [], \"x\": \"\\x\"}", "invalid escape");
  BAD(MIN "\"findings\": [], \"x\": \"\\u12\"}", "hex digit");
  BAD(MIN "\"findings\": [], \"x\": \"\\u0000\"}", "\\u0000");
  BAD(MIN "\"findings\": [], \"x\": \"a\tb\"}", "control character");
  BAD(MIN "\"findings\": [], \"x\": \"abc}", "unterminated string");
  BAD(MIN "\"findings\": [], \"x\": 01}", "leading zero");
  BAD(MIN "\"findings\": [], \"x\": -}", "invalid number");
  BAD(MIN "\"findings\": [], \"x\": 1.}", "invalid number");
  BAD(MIN "\"findings\": [], \"x\": 1e}", "invalid number");
  BAD(MIN "\"findings\": [], \"x\": .5}", "invalid JSON");
  BAD(MIN "\"findings\": [], \"x\": NaN}", "invalid JSON");
  BAD(MIN "\"findings\": [], \"x\": [1 2]}", "',' or ']'");
  BAD(MIN "\"findings\": [], \"x\" 1}", "':'");
  BAD(MIN "\"findings\": [], 'x': 1}", "member name");
  BAD("{\"ompdp_report_version\": 1\0}", "invalid JSON");

  /* Nesting far past the limit, in an ignored member. */
  size_t deep = 100000;
  char *d = malloc(deep * 2 + 128);
  size_t n = (size_t)sprintf(d, "%s\"findings\": [], \"x\": ", MIN);
  memset(d + n, '[', deep);
  memset(d + n + deep, ']', deep);
  strcpy(d + n + 2 * deep, "}");
  expect_bad(d, strlen(d), "nesting deeper");
  free(d);

  /* A number with a million digits. */
  size_t big = 1000000;
  char *b = malloc(big + 256);
  n = (size_t)sprintf(b, "%s\"findings\": [{\"kind\": \"round_trip\", \"bytes\": ", MIN);
  memset(b + n, '9', big);
  strcpy(b + n + big, "}]}");
  expect_bad(b, strlen(b), "out of range");
  n = (size_t)sprintf(b, HDR "\"program\": {}, \"findings\": [], \"summary\": {\"predicted_speedup\": 1.");
  memset(b + n, '5', big);
  strcpy(b + n + big, "}}");
  expect_bad(b, strlen(b), "too many digits");
  free(b);

  /* No err buffer at all must still be safe. */
  ompdp_report_t r;
  CHECK(ompdp_report_read_json("[", 1, &r, NULL, 0) == -1);
  CHECK(ompdp_report_read_json(NULL, 0, &r, NULL, 0) == -1);
  char tiny[4];
  CHECK(ompdp_report_read_json("[", 1, &r, tiny, sizeof(tiny)) == -1 && strlen(tiny) == 3);
  CHECK(ompdp_report_read_json_file("/nonexistent/report.json", &r, NULL, 0) == -1);
  char err[256];
  CHECK(ompdp_report_read_json_file("/nonexistent/report.json", &r, err, sizeof(err)) == -1);
  CHECK(strstr(err, "cannot read '/nonexistent/report.json'") != NULL);
  CHECK(ompdp_report_read_json_file("/", &r, err, sizeof(err)) == -1);
  CHECK(strstr(err, "directory") != NULL);
}

static void test_forward_compatible(void) {
  const char text[] =
      "\xEF\xBB\xBF{\"future\": {\"deep\": [1, 2, {\"x\": null}]},"
      " \"ompdp_report_version\": 1, \"program\": {\"argv\": [\"a\\u00e9\\ud83d\\ude00\\ud800\"], \"new\": true},"
      " \"summary\": {\"round_trips\": 2, \"predicted_speedup\": null},"
      " \"findings\": [{\"kind\": \"round_trip\", \"count\": 2, \"extra\": [{}]},"
      " {\"kind\": \"teleport\", \"count\": 1}, {\"kind\": \"teleport\"},"
      " {\"kind\": \"unused_alloc\", \"rewrites\": [{\"kind\": \"warp\", \"future\": 1, \"edits\":"
      " [{\"file\": \"a.c\", \"line\": 1, \"column\": 1, \"end_line\": 1, \"end_column\": 1,"
      " \"replacement\": \"x\", \"new\": [1]}]}]}],"
      " \"warnings\": []}";
  ompdp_report_t r;
  char err[256] = "";
  int rc = ompdp_report_read_json(text, sizeof(text) - 1, &r, err, sizeof(err));
  CHECK(rc == 0);
  if (rc)
    fprintf(stderr, "read error: %s\n", err);
  CHECK_EQ_U64(r.num_findings, 2);
  /* A rewrite of a kind from a newer ompdp is kept: its edits say it all. */
  CHECK(r.num_findings == 2 && r.findings[1].num_rewrites == 1 &&
        r.findings[1].rewrites[0].kind == OMPDP_RK_OTHER &&
        r.findings[1].rewrites[0].num_edits == 1 &&
        r.findings[1].rewrites[0].edits[0].range.offset == -1);
  CHECK_EQ_U64(r.counts[OMPDP_FK_ROUND_TRIP], 2);
  CHECK(r.predicted_speedup == 1.0);
  CHECK(r.argc == 1 && !strcmp(r.argv[0], "a\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd"));
  CHECK(r.num_warnings == 1 && strstr(r.warnings[0], "2 finding(s)") &&
        strstr(r.warnings[0], "teleport"));
  ompdp_report_free(&r);
}

/* Every truncation of a valid report, and random corruptions of it, must be
 * refused or read cleanly; whatever is read must render again. */
static void test_corruption(void) {
  ompdp_report_t a, r;
  build(&a);
  size_t len;
  char *j = render(&a, ompdp_report_write_json, &len);
  ompdp_report_free(&a);
  if (!j) {
    CHECK(!"render");
    return;
  }
  size_t last = len;
  while (last && j[last - 1] != '}')
    --last;
  char err[256];
  int all_refused = 1;
  for (size_t cut = 0; cut + 1 < last; ++cut) {
    err[0] = '\0';
    if (ompdp_report_read_json(j, cut, &r, err, sizeof(err)) != -1 || !err[0])
      all_refused = 0;
    ompdp_report_free(&r);
  }
  CHECK(all_refused);

  unsigned seed = 12345;
  char *m = malloc(len + 64);
  int ok = 1, accepted = 0;
  for (int iter = 0; iter < 20000; ++iter) {
    memcpy(m, j, len);
    size_t mlen = len;
    int edits = 1 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 3;
    for (int e = 0; e < edits; ++e) {
      seed = seed * 1103515245u + 12345u;
      size_t pos = (seed >> 8) % mlen;
      seed = seed * 1103515245u + 12345u;
      static const char Junk[] = "{}[]\",:\\0123456789-+.eEtfnu \x00\xff\x80\n";
      char c = Junk[(seed >> 8) % (sizeof(Junk) - 1)];
      switch ((seed >> 20) % 3) {
      case 0: m[pos] = c; break;
      case 1: memmove(m + pos, m + pos + 1, mlen - pos - 1); --mlen; break;
      default:
        memmove(m + pos + 1, m + pos, mlen - pos);
        m[pos] = c;
        ++mlen;
        break;
      }
    }
    err[0] = '\0';
    if (ompdp_report_read_json(m, mlen, &r, err, sizeof(err)) == 0) {
      ++accepted;
      char *again = render(&r, ompdp_report_write_json, NULL);
      char *text = render(&r, ompdp_report_write_text, NULL);
      ok &= again != NULL && text != NULL;
      free(again);
      free(text);
    } else {
      ok &= err[0] != '\0' && strchr(err, '\n') == NULL;
    }
    ompdp_report_free(&r);
  }
  CHECK(ok);
  CHECK(accepted < 20000);
  free(m);
  free(j);
}

/* The runtime's plan (the rewrite planner's input) reads back as it was
 * written, with each finding's region handle; a plan that indexes out of
 * its own arrays is refused. */
static void test_plan(void) {
  ompdp_report_t a;
  ompdp_report_init(&a);
  ompdp_finding_t *f = ompdp_report_add_finding(&a, OMPDP_FK_ROUND_TRIP);
  f->rt_region = 7;
  f->item = 1;
  ompdp_plan_t *p = &a.plan;
  p->present = 1;
  p->host_device = 9;
  p->tick_mult = (uint64_t)3 << 31;
  p->num_sites = 2;
  p->sites = calloc(2, sizeof(*p->sites));
  p->sites[0].region = 7;
  p->sites[0].item = 1;
  p->sites[0].buf = 1;
  p->sites[0].allocs = UINT64_MAX;
  p->sites[0].lt_exit_item = -1;
  p->sites[1].region = 7;
  p->sites[1].item = -1;
  p->num_bufs = 1;
  p->bufs = calloc(1, sizeof(*p->bufs));
  p->bufs[0].device = 0;
  p->bufs[0].num_sites = 2;
  p->bufs[0].sites[0] = 1;
  p->bufs[0].sites[1] = 2;
  p->num_regions = 1;
  p->regions = calloc(1, sizeof(*p->regions));
  ompdp_plan_region_t *g = &p->regions[0];
  g->handle = 7;
  ompdp_region_info_t head = {.id = 0xabcdef0123456789ull, .construct = OMPDP_CK_TARGET,
                              .file = "t.c", .function = "f", .line = 3, .num_items = 2,
                              .loop_kind = OMPDP_LK_RANGE_FOR, .map_type = OMPDP_MT_NONE};
  CHECK(ompdp_region_info_copy(&g->head, &head) == 0);
  g->items = calloc(2, sizeof(*g->items));
  ompdp_host_access_t ha = {.Item = 1, .Access = OMPDP_ACCESS_WRITE, .Line = 5, .EndLine = 5};
  for (int j = 0; j < 2; ++j) {
    ompdp_region_info_t it = head;
    it.variable = j ? "b" : "a";
    it.clause = "map(tofrom: a, b)";
    it.map_type = OMPDP_MT_TOFROM;
    it.access = j ? OMPDP_ACCESS_READ : OMPDP_ACCESS_NONE;
    it.fill_type = "double";
    it.host_accesses = j ? &ha : NULL;
    it.num_host_accesses = j ? 1 : 0;
    CHECK(ompdp_region_info_copy(&g->items[j], &it) == 0);
  }
  size_t len1 = 0, len2 = 0;
  char *j1 = render(&a, ompdp_report_write_json, &len1);
  CHECK(j1 && strstr(j1, "\"region_handle\": 7"));
  CHECK(j1 && strstr(j1, "\"loop_kind\": \"range-for\""));
  ompdp_report_t b;
  char err[256] = "";
  CHECK(j1 && ompdp_report_read_json(j1, len1, &b, err, sizeof(err)) == 0);
  if (!err[0]) {
    CHECK(b.plan.present && b.plan.num_sites == 2 && b.plan.sites[0].allocs == UINT64_MAX);
    CHECK(b.plan.num_sites == 2 && b.plan.sites[0].lt_exit_item == -1 && b.plan.num_bufs >= 1 &&
          b.plan.bufs[0].num_sites == 2 && b.plan.bufs[0].sites[1] == 2);
    CHECK(b.num_findings == 1 && b.findings[0].rt_region == 7);
    ompdp_region_info_t it;
    CHECK(ompdp_plan_describe(&b.plan, 7, 1, &it) == 0 && !strcmp(it.variable, "b") &&
          it.access == OMPDP_ACCESS_READ && it.num_host_accesses == 1 &&
          it.host_accesses[0].Access == OMPDP_ACCESS_WRITE && it.line == 3);
    CHECK(ompdp_plan_describe(&b.plan, 7, 2, &it) == -1);
    char *j2 = render(&b, ompdp_report_write_json, &len2);
    CHECK(j2 && len1 == len2 && !memcmp(j1, j2, len1));
    free(j2);
    ompdp_report_free(&b);
  } else {
    fprintf(stderr, "  read back: %s\n", err);
  }
  /* Indexes out of range. */
  const char *bad[][2] = {{"\"buf\": 1,", "\"buf\": 9,"},
                          {"\"sites\": [1, 2]}", "\"sites\": [1, 3]}"},
                          {"\"item\": 1,", "\"item\": 5,"},
                          {"\"handle\": 7", "\"handle\": 0"}};
  for (size_t i = 0; j1 && i < sizeof(bad) / sizeof(bad[0]); ++i) {
    const char *at = strstr(strstr(j1, "\"plan\""), bad[i][0]);
    CHECK(at != NULL);
    if (!at)
      continue;
    size_t pre = (size_t)(at - j1), ol = strlen(bad[i][0]), nl = strlen(bad[i][1]);
    char *t = malloc(len1 + nl + 1);
    memcpy(t, j1, pre);
    memcpy(t + pre, bad[i][1], nl);
    strcpy(t + pre + nl, at + ol);
    CHECK(ompdp_report_read_json(t, strlen(t), &b, err, sizeof(err)) == -1 && err[0]);
    free(t);
  }
  free(j1);
  ompdp_report_free(&a);
}

/* Verdicts: a report without them (an older ompdp's) reads as fix where a
 * finding has a rewrite and advice elsewhere, with nothing excluded from
 * its saving; a verdict this version does not know reads the same way; one
 * that is not a string is an error. The runtime's own report (with its
 * plan) is left undecided for the planner. */
static void test_verdicts(void) {
  static const char old[] =
      "{\"ompdp_report_version\": 2, \"program\": {}, \"summary\": {\"time_saved_ns\": 9}, "
      "\"findings\": [{\"kind\": \"round_trip\"}, {\"kind\": \"duplicate_transfer\", "
      "\"rewrites\": [{\"kind\": \"keep_resident\", \"edits\": [{\"file\": \"a.c\", "
      "\"line\": 1, \"column\": 1, \"end_line\": 1, \"end_column\": 1, "
      "\"replacement\": \"x\"}]}]}, "
      "{\"kind\": \"repeated_alloc\", \"verdict\": \"from_the_future\"}, "
      "{\"kind\": \"repeated_alloc\", \"verdict\": \"repeated_computation\"}]}";
  ompdp_report_t r;
  char err[256];
  int rc = ompdp_report_read_json(old, sizeof(old) - 1, &r, err, sizeof(err));
  CHECK(rc == 0);
  if (rc)
    fprintf(stderr, "read error: %s\n", err);
  CHECK_EQ_U64(r.num_findings, 4);
  if (r.num_findings == 4) {
    CHECK(r.findings[0].verdict == OMPDP_V_ADVICE);
    CHECK(r.findings[1].verdict == OMPDP_V_FIX);
    CHECK(r.findings[2].verdict == OMPDP_V_ADVICE);
    CHECK(r.findings[3].verdict == OMPDP_V_REPEATED_COMPUTATION);
  }
  CHECK_EQ_U64(r.time_saved_ns, 9);
  CHECK_EQ_U64(r.excluded_time_ns, 0);
  ompdp_report_free(&r);

  static const char bad[] = "{\"ompdp_report_version\": 2, \"program\": {}, \"summary\": {}, "
                            "\"findings\": [{\"kind\": \"round_trip\", \"verdict\": 3}]}";
  CHECK(ompdp_report_read_json(bad, sizeof(bad) - 1, &r, err, sizeof(err)) != 0);

  /* The names, and which verdicts count toward the saving. */
  CHECK(ompdp_verdict_from_json("necessary") == OMPDP_V_NECESSARY);
  CHECK(ompdp_verdict_from_json("nonsense") == OMPDP_V_COUNT);
  CHECK(!strcmp(ompdp_verdict_json(OMPDP_V_REPEATED_COMPUTATION), "repeated_computation"));
  CHECK(ompdp_verdict_saves(OMPDP_V_FIX) && ompdp_verdict_saves(OMPDP_V_ADVICE));
  CHECK(!ompdp_verdict_saves(OMPDP_V_NECESSARY) && !ompdp_verdict_saves(OMPDP_V_COINCIDENCE) &&
        !ompdp_verdict_saves(OMPDP_V_REPEATED_COMPUTATION));
  CHECK(!strcmp(ompdp_verdict_level(OMPDP_V_COINCIDENCE), "note") &&
        !strcmp(ompdp_verdict_level(OMPDP_V_ADVICE), "warning"));
}

int main(void) {
  test_model();
  test_verdicts();
  test_round_trip();
  test_compile_commands();
  test_doubles();
  test_text();
  test_malformed();
  test_forward_compatible();
  test_corruption();
  test_plan();
  return CHECK_DONE();
}
