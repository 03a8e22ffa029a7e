/*===- test_cost_model.c - device profiles and projections ----------*- C -*-===*\
|*
|* The cost model's arithmetic (latency and bandwidth, curves through
|* measured points, pinned and pageable copies, allocations and frees),
|* the projection of a whole report (findings, rewrites, kernels scaled),
|* the built-in profiles, the profile writer against the parser, and
|* hostile profile files, each of which must be one line of error.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "check.h"
#include "cost_model.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NEAR(a, b, tol) (fabs((double)(a) - (double)(b)) <= (tol))

static int parse(const char *text, ompdp_device_profile_t *p, char *err, size_t errlen) {
  return ompdp_profile_parse(text, strlen(text), "t.prof", p, err, errlen);
}

static const char *const Linear =
    "# a comment before the header\n"
    "ompdp-device-profile 1\n"
    "name lin\n"
    "alias l1\n"
    "description a linear device\n"
    "h2d_pageable latency 1000\n"
    "h2d_pageable bandwidth 10\n"
    "h2d_pinned latency 500\n"
    "h2d_pinned bandwidth 20\n"
    "d2h_pageable latency 2000\n"
    "d2h_pageable bandwidth 5\n"
    "alloc point 0 100\n"
    "alloc point 8192 100\n"
    "alloc point 8193 10000\n"
    "free latency 50\n";

static void test_linear(void) {
  ompdp_device_profile_t p;
  char err[512];
  CHECK(parse(Linear, &p, err, sizeof(err)) == 0);
  CHECK(!strcmp(p.name, "lin"));
  CHECK(!strcmp(p.aliases[0], "l1"));
  CHECK(!strcmp(p.description, "a linear device"));
  /* latency + size / bandwidth, GB/s = bytes per ns */
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 0), 1000, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 1e6), 1000 + 1e5, 1e-6));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PINNED, 1e6), 500 + 5e4, 1e-6));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_D2H_PAGEABLE, 1e6), 2000 + 2e5, 1e-6));
  /* Pinned copies back fall back to pageable ones; d2d to pinned copies in. */
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_D2H_PINNED, 1e6), 2000 + 2e5, 1e-6));
  CHECK(!p.op[OMPDP_COST_D2H_PINNED].given);
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_D2D, 1e6), 500 + 5e4, 1e-6));
  /* Size dependence: pinned beats pageable, larger copies take longer. */
  for (double s = 8; s < 1e9; s *= 8) {
    CHECK(ompdp_profile_time(&p, OMPDP_COST_H2D_PINNED, s) <
          ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, s));
    CHECK(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, s * 8) >
          ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, s));
  }
  /* Allocations: flat up to the pool's limit, then a step; past the last
   * point at the last point's own rate (10000 ns per 8193 bytes). */
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_ALLOC, 64), 100, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_ALLOC, 8192), 100, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_ALLOC, 8193), 10000, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_ALLOC, 2 * 8193), 20000, 1e-6));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_FREE, 1 << 20), 50, 1e-9));
  /* Pinned or pageable by class. */
  CHECK(ompdp_cost_op_for(OMPDP_OC_H2D, 0) == OMPDP_COST_H2D_PAGEABLE);
  CHECK(ompdp_cost_op_for(OMPDP_OC_H2D, 1) == OMPDP_COST_H2D_PINNED);
  CHECK(ompdp_cost_op_for(OMPDP_OC_D2H, 1) == OMPDP_COST_D2H_PINNED);
  CHECK(ompdp_cost_op_for(OMPDP_OC_DELETE, 1) == OMPDP_COST_FREE);
}

static void test_points(void) {
  ompdp_device_profile_t p;
  char err[512];
  const char *text = "ompdp-device-profile 1\nname pts\n"
                     "h2d_pageable point 100 1000\n"
                     "h2d_pageable point 200 3000\n"
                     "h2d_pageable point 1000 5000\n"
                     "d2h_pageable point 100 1000\n"
                     "d2h_pageable point 1000 2000\n"
                     "d2h_pageable bandwidth 1\n"
                     "alloc latency 0\nfree latency 0\n";
  CHECK(parse(text, &p, err, sizeof(err)) == 0);
  /* Flat below the first point, straight lines between points. */
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 1), 1000, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 150), 2000, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 600), 4000, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 1000), 5000, 1e-9));
  /* Past the last point: its own rate (5 ns per byte), or the bandwidth given. */
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 2000), 10000, 1e-9));
  CHECK(NEAR(ompdp_profile_time(&p, OMPDP_COST_D2H_PAGEABLE, 3000), 4000, 1e-9));
  /* Out-of-range inputs give 0, not a crash. */
  CHECK(ompdp_profile_time(&p, OMPDP_COST_COUNT, 10) == 0);
  CHECK(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, -1) == 0);
  CHECK(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, NAN) == 0);
}

/* count ops of mean size: count * t(mean); deletes without bytes are
 * priced at the size of the allocations they free. */
static void test_ops(void) {
  ompdp_device_profile_t p;
  char err[512];
  CHECK(parse(Linear, &p, err, sizeof(err)) == 0);
  ompdp_ops_t ops;
  memset(&ops, 0, sizeof(ops));
  ops.known = 1;
  ops.c[OMPDP_OC_H2D] = (ompdp_opstat_t){4, 4000000, 0};
  ops.c[OMPDP_OC_D2H] = (ompdp_opstat_t){2, 2000000, 0};
  ops.c[OMPDP_OC_ALLOC] = (ompdp_opstat_t){3, 3 * 100000, 0};
  ops.c[OMPDP_OC_DELETE] = (ompdp_opstat_t){3, 0, 0};
  double alloc = ompdp_profile_time(&p, OMPDP_COST_ALLOC, 100000);
  double want = 4 * (1000 + 1e5) + 2 * (2000 + 2e5) + 3 * alloc + 3 * 50;
  CHECK(NEAR(ompdp_ops_project(&p, &ops, 0), want, 1e-6));
  double want_pinned = 4 * (500 + 5e4) + 2 * (2000 + 2e5) + 3 * alloc + 3 * 50;
  CHECK(NEAR(ompdp_ops_project(&p, &ops, 1), want_pinned, 1e-6));
  ompdp_ops_t none;
  memset(&none, 0, sizeof(none));
  CHECK(ompdp_ops_project(&p, &none, 0) == 0);
}

/* A device whose every operation takes exactly what the run measured:
 * the projection must give back the measured figures. */
static const char *const Identity = "ompdp-device-profile 1\nname same\n"
                                    "h2d_pageable point 1000 100\n"
                                    "d2h_pageable point 1000 200\n"
                                    "alloc point 1000 50\n"
                                    "free point 1000 30\n";

static ompdp_finding_t *add_finding(ompdp_report_t *r, ompdp_finding_kind_t k, uint64_t n,
                                    int with_ops) {
  ompdp_finding_t *f = ompdp_report_add_finding(r, k);
  f->count = n;
  f->bytes = n * 1000;
  f->time_ns = n * 100;
  f->time_saved_ns = n * 100;
  if (with_ops) {
    f->ops.known = 1;
    f->ops.c[OMPDP_OC_H2D] = (ompdp_opstat_t){n, n * 1000, n * 100};
  }
  return f;
}

static void test_report(void) {
  ompdp_device_profile_t same, lin;
  char err[512];
  CHECK(parse(Identity, &same, err, sizeof(err)) == 0);
  CHECK(parse(Linear, &lin, err, sizeof(err)) == 0);
  ompdp_report_t r;
  ompdp_report_init(&r);
  r.wall_time_ns = 100000;
  r.kernel_time_ns = 20000;
  r.observed_ops.known = 1;
  r.observed_ops.c[OMPDP_OC_H2D] = (ompdp_opstat_t){100, 100000, 10000};
  r.observed_ops.c[OMPDP_OC_D2H] = (ompdp_opstat_t){50, 50000, 10000};
  r.observed_ops.c[OMPDP_OC_ALLOC] = (ompdp_opstat_t){10, 10000, 500};
  r.observed_ops.c[OMPDP_OC_DELETE] = (ompdp_opstat_t){10, 0, 300};
  ompdp_finding_t *dup = add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER, 40, 1);
  ompdp_finding_t *rt = add_finding(&r, OMPDP_FK_ROUND_TRIP, 10, 1);
  rt->time_saved_ns = 500; /* its operations overlapped: half the sum */
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(dup, OMPDP_RK_KEEP_RESIDENT);
  rw->time_saved_ns = 40 * 100 + 5 * 200 - 200 + 5 * 80;
  rw->ops.known = 1;
  rw->ops.c[OMPDP_OC_H2D] = (ompdp_opstat_t){40, 40000, 4000};
  rw->ops.c[OMPDP_OC_D2H] = (ompdp_opstat_t){5, 5000, 1000};
  rw->ops.c[OMPDP_OC_ALLOC] = (ompdp_opstat_t){5, 5000, 250};
  rw->ops.c[OMPDP_OC_DELETE] = (ompdp_opstat_t){5, 0, 150};
  rw->ops_added.known = 1;
  rw->ops_added.c[OMPDP_OC_D2H] = (ompdp_opstat_t){1, 1000, 200};
  r.time_saved_ns = 4000 + 500;
  ompdp_report_update_speedup(&r);

  /* Identity: the measured figures come back. */
  ompdp_projection_opts_t o = {.pinned = 0, .kernel_scale = 1.0, .source = "built-in"};
  CHECK(ompdp_report_project(&r, &same, &o) == 0);
  CHECK(r.projection != NULL);
  CHECK(!strcmp(r.projection->device, "same"));
  CHECK_EQ_U64(r.projection->wall_time_ns, r.wall_time_ns);
  CHECK_EQ_U64(r.projection->time_saved_ns, r.time_saved_ns);
  CHECK_EQ_U64(r.projection->data_time_ns, 20800);
  CHECK_EQ_U64(r.projection->projected_data_time_ns, 20800);
  CHECK_EQ_U64(dup->projected_saved_ns, dup->time_saved_ns);
  CHECK_EQ_U64(rt->projected_saved_ns, 500);
  CHECK_EQ_U64(rw->projected_saved_ns, rw->time_saved_ns);
  CHECK(NEAR(r.projection->predicted_speedup, r.predicted_speedup, 1e-9));
  CHECK(!r.projection->inferred);

  /* Kernels twice as slow there: the wall grows by the kernel time. */
  o.kernel_scale = 2.0;
  CHECK(ompdp_report_project(&r, &same, &o) == 0);
  CHECK_EQ_U64(r.projection->wall_time_ns, 120000);
  CHECK(NEAR(r.projection->predicted_speedup, 120000.0 / (120000 - 4500), 1e-9));
  o.kernel_scale = 0.5;
  CHECK(ompdp_report_project(&r, &same, &o) == 0);
  CHECK_EQ_U64(r.projection->wall_time_ns, 90000);

  /* Another device: each figure priced there. */
  o.kernel_scale = 1.0;
  CHECK(ompdp_report_project(&r, &lin, &o) == 0);
  double h2d = 1000 + 1000 / 10.0, d2h = 2000 + 1000 / 5.0, al = 100, fr = 50;
  CHECK(NEAR(dup->projected_saved_ns, 40 * h2d, 1));
  CHECK(NEAR(rt->projected_saved_ns, 10 * h2d * 0.5, 1));
  CHECK(NEAR(rw->projected_saved_ns, 40 * h2d + 5 * d2h + 5 * al + 5 * fr - d2h, 1));
  double data = 100 * h2d + 50 * d2h + 10 * al + 10 * fr;
  CHECK(NEAR(r.projection->projected_data_time_ns, data, 1));
  CHECK(NEAR(r.projection->wall_time_ns, 100000 - 20800 + data, 1));
  /* The union scaled by projected over measured, summed over findings. */
  double saved = 4500.0 * (40 * h2d + 5 * h2d) / 4500.0;
  CHECK(NEAR(r.projection->time_saved_ns, saved, 1));
  /* Pinned memory: cheaper copies in. */
  uint64_t pageable = dup->projected_saved_ns;
  o.pinned = 1;
  CHECK(ompdp_report_project(&r, &lin, &o) == 0);
  CHECK(dup->projected_saved_ns < pageable);
  CHECK(r.projection->pinned);

  /* A report without the breakdown (an older writer): inferred, and said. */
  ompdp_report_t old;
  ompdp_report_init(&old);
  old.wall_time_ns = 50000;
  old.num_transfers = 10;
  old.bytes_transferred = 10000;
  old.transfer_time_ns = 1000;
  add_finding(&old, OMPDP_FK_ROUND_TRIP, 10, 0);
  ompdp_finding_t *ra = add_finding(&old, OMPDP_FK_REPEATED_ALLOC, 4, 0);
  old.time_saved_ns = 1000 + 400;
  o.pinned = 0;
  CHECK(ompdp_report_project(&old, &lin, &o) == 0);
  CHECK(old.projection->inferred);
  CHECK(NEAR(old.findings[0].projected_saved_ns, 10 * h2d, 1));
  CHECK(NEAR(ra->projected_saved_ns, 4 * (al + fr), 1));
  ompdp_ops_t inf;
  ompdp_ops_infer_finding(ra, &inf);
  CHECK_EQ_U64(inf.c[OMPDP_OC_ALLOC].count, 4);
  CHECK_EQ_U64(inf.c[OMPDP_OC_DELETE].count, 4);
  ompdp_report_free(&old);
  ompdp_report_free(&r);
}

static void test_roundtrip(void) {
  ompdp_device_profile_t p, q;
  char err[512];
  CHECK(parse(Linear, &p, err, sizeof(err)) == 0);
  p.op[OMPDP_COST_H2D_PAGEABLE].pt[0].time_ns = 1234.5678901;
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  CHECK(ompdp_profile_write(&p, f) == 0);
  fclose(f);
  CHECK(ompdp_profile_parse(buf, len, "written", &q, err, sizeof(err)) == 0);
  CHECK(!strcmp(q.name, p.name) && !strcmp(q.aliases[0], p.aliases[0]));
  for (int op = 0; op < OMPDP_COST_COUNT; ++op)
    for (double s = 1; s < 1e10; s *= 7)
      CHECK(ompdp_profile_time(&p, (ompdp_cost_op_t)op, s) ==
            ompdp_profile_time(&q, (ompdp_cost_op_t)op, s));
  free(buf);
}

static void test_builtins(void) {
  char err[512];
  size_t n = ompdp_profile_builtin_count();
  CHECK(n >= 6);
  ompdp_device_profile_t p;
  int builtin;
  for (size_t i = 0; i < n; ++i) {
    const char *t = ompdp_profile_builtin_text(i);
    CHECK(ompdp_profile_parse(t, strlen(t), ompdp_profile_builtin_name(i), &p, err,
                              sizeof(err)) == 0);
    /* The file name is the profile's name; copies in cost something. */
    CHECK(!strcmp(p.name, ompdp_profile_builtin_name(i)));
    CHECK(ompdp_profile_time(&p, OMPDP_COST_H2D_PAGEABLE, 1 << 20) > 0);
    char name[64];
    strcpy(name, p.name);
    CHECK(ompdp_profile_load(name, &p, &builtin, err, sizeof(err)) == 0 && builtin);
  }
  static const char *const Names[] = {"h100-pcie", "h100-sxm", "a100", "mi250x", "mi300a", "host"};
  for (size_t i = 0; i < sizeof(Names) / sizeof(Names[0]); ++i)
    CHECK(ompdp_profile_load(Names[i], &p, &builtin, err, sizeof(err)) == 0 && builtin &&
          !strcmp(p.name, Names[i]));
  CHECK(ompdp_profile_load("H100", &p, &builtin, err, sizeof(err)) == 0);
  CHECK(!strcmp(p.name, "h100-sxm"));
  /* PCIe Gen5 beats Gen4 for a large pinned copy. */
  ompdp_device_profile_t a100;
  CHECK(ompdp_profile_load("a100", &a100, &builtin, err, sizeof(err)) == 0);
  CHECK(ompdp_profile_time(&p, OMPDP_COST_H2D_PINNED, 1 << 28) <
        ompdp_profile_time(&a100, OMPDP_COST_H2D_PINNED, 1 << 28));
  CHECK(ompdp_profile_load("no-such-device", &p, &builtin, err, sizeof(err)) == -1);
  CHECK(strstr(err, "unknown device 'no-such-device'") != NULL);
  CHECK(ompdp_profile_load("./no/such/file", &p, &builtin, err, sizeof(err)) == -1);
  CHECK(strstr(err, "cannot read") != NULL);
}

/* Hostile profiles: each refused with one line naming the file. */
static void test_errors(void) {
  static const struct {
    const char *text, *want;
  } Cases[] = {
      {"", "empty"},
      {"# only a comment\n", "empty"},
      {"name x\n", "not an ompdp device profile"},
      {"ompdp-device-profile 2\n", "version 2 is not supported"},
      {"ompdp-device-profile\n", "version is missing"},
      {"ompdp-device-profile 1 extra\n", "unexpected text"},
      {"ompdp-device-profile 1\n", "no name"},
      {"ompdp-device-profile 1\nname a\nname b\n", "two names"},
      {"ompdp-device-profile 1\nname a b\n", "one word"},
      {"ompdp-device-profile 1\nname a/b\n", "one word"},
      {"ompdp-device-profile 1\nname x\nbogus 1\n", "unknown key 'bogus'"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable\n", "wants 'point"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable slope 3\n", "not 'slope'"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10\n", "the time is missing"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10 5 6\n", "unexpected text"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point -1 5\n", "must not be negative"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 1.5 5\n", "whole number"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10 nan\n", "must be a number"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10 inf\n", "must be a number"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 0x10 5\n", "must be a number"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10 1e400\n", "out of range"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 1e19 1\n", "out of range"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10 5\nh2d_pageable point 10 6\n",
       "sizes must increase"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable point 10 5\nh2d_pageable latency 1\n",
       "sizes must increase"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable bandwidth 0\n", "must be positive"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable bandwidth 1\nh2d_pageable bandwidth 2\n",
       "two bandwidths"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable latency 1\n", "no figures for d2h_pageable"},
      {"ompdp-device-profile 1\nname x\nh2d_pageable latency 1\nd2h_pageable latency 1\n"
       "alloc latency 1\n",
       "no figures for free"},
      {"ompdp-device-profile 1\nname x\ndescription a\x01b\n", "control character"},
      {"ompdp-device-profile 1\nname x\nalias a\nalias b\nalias c\nalias d\nalias e\n",
       "more than 4 aliases"},
  };
  for (size_t i = 0; i < sizeof(Cases) / sizeof(Cases[0]); ++i) {
    ompdp_device_profile_t p;
    char err[512] = "";
    int rc = parse(Cases[i].text, &p, err, sizeof(err));
    CHECK(rc == -1);
    CHECK(strstr(err, Cases[i].want) != NULL);
    CHECK(!strncmp(err, "t.prof", 6));
    CHECK(strchr(err, '\n') == NULL);
    if (rc != -1 || !strstr(err, Cases[i].want))
      fprintf(stderr, "  case %zu: got '%s'\n", i, err);
  }
  /* Line numbers count from 1. */
  ompdp_device_profile_t p;
  char err[512];
  CHECK(parse("ompdp-device-profile 1\nname x\n\nbogus\n", &p, err, sizeof(err)) == -1);
  CHECK(!strncmp(err, "t.prof:4: ", 10));
  /* A NUL byte, a long line, too many points, too large. */
  char nul[] = "ompdp-device-profile 1\nna\0me x\n";
  CHECK(ompdp_profile_parse(nul, sizeof(nul) - 1, "t.prof", &p, err, sizeof(err)) == -1);
  CHECK(strstr(err, "NUL") != NULL);
  char *big = malloc(OMPDP_PROFILE_MAX_BYTES + 2);
  memset(big, 'a', OMPDP_PROFILE_MAX_BYTES + 1);
  big[OMPDP_PROFILE_MAX_BYTES + 1] = '\0';
  CHECK(ompdp_profile_parse(big, 2000, "t.prof", &p, err, sizeof(err)) == -1);
  CHECK(strstr(err, "longer than") != NULL);
  CHECK(ompdp_profile_parse(big, OMPDP_PROFILE_MAX_BYTES + 1, "t.prof", &p, err, sizeof(err)) ==
        -1);
  CHECK(strstr(err, "larger than") != NULL);
  size_t off = (size_t)sprintf(big, "ompdp-device-profile 1\nname x\n");
  for (int i = 0; i <= OMPDP_PROFILE_MAX_POINTS; ++i)
    off += (size_t)sprintf(big + off, "alloc point %d 1\n", i);
  CHECK(ompdp_profile_parse(big, off, "t.prof", &p, err, sizeof(err)) == -1);
  CHECK(strstr(err, "more than 128 points") != NULL);
  free(big);
  /* CRLF line ends are fine. */
  CHECK(parse("ompdp-device-profile 1\r\nname x\r\nh2d_pageable latency 100\r\nd2h_pageable "
              "latency 100\r\nalloc latency 1\r\nfree latency 1\r\n",
              &p, err, sizeof(err)) == 0);
}

int main(void) {
  test_linear();
  test_points();
  test_ops();
  test_report();
  test_roundtrip();
  test_builtins();
  test_errors();
  return CHECK_DONE();
}
