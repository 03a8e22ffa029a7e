/*===- test_write_nomem.c - the report writers need no memory --*- C -*-===*\
|*
|* The runtime writes its report at the end of a run whose memory may be
|* gone, and the report must then still be whole, with the line that says
|* ompdp ran out of memory (rt/tool.c, rt/output.c). This test program is
|* linked with -Wl,--wrap=malloc (unittests/CMakeLists.txt), so that every
|* malloc of the report library can be refused: a report with findings and
|* a timeline that links operations to them, written as JSON and as text
|* while malloc fails, is byte for byte the one written with memory.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "check.h"
#include "detect.h"
#include "events.h"
#include "report.h"
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__real_malloc(size_t n);

static int refuse;
static unsigned refused;

void *__wrap_malloc(size_t n) {
  if (refuse) {
    ++refused;
    return NULL;
  }
  return __real_malloc(n);
}

/* Two sites re-sending their own bytes to a device that never reads them:
 * four findings, whose operations the timeline links by the findings'
 * ids. */
static int make_report(ompdp_report_t *r) {
  ompdp_engine_config_t cfg = {.host_device = HOST,
                               .timeline = 1,
                               .timeline_mode = OMPDP_TIMELINE_BOUNDED,
                               .timeline_first = 4,
                               .timeline_per_finding = 8};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  if (!g)
    return -1;
  /* seq_t is large: not on the stack of a test. */
  static seq_t s;
  seq_init(&s);
  for (uint64_t i = 0; i < 12; ++i) {
    uint64_t host = i % 2 ? 0x100 : 0x900;
    ompdp_event_t *e = &s.ev[h2d(&s, 0, host, host + 0x10000, 64, i % 2 ? 0xabc : 0xdef)];
    e->codeptr = (const void *)(uintptr_t)(i % 2 ? 0x1000 : 0x2000);
    e->t_end += host % 7; /* the sites differ in time saved */
  }
  int rc = 0;
  for (size_t i = 0; i < s.n && !rc; ++i) {
    ompdp_rec_t rec;
    rc = ompdp_rec_from_event(&s.ev[i], &rec) || ompdp_engine_feed(g, &rec, rec.op, i);
  }
  ompdp_report_init(r);
  ompdp_engine_result_t res = {.wall_time_ns = 1000000, .tick_mult = 0};
  if (ompdp_engine_finish(g, r, &res))
    rc = -1;
  ompdp_engine_destroy(g);
  return rc;
}

/* The report rendered by write into a string (open_memstream: glibc's own
 * memory, not refused). */
static char *render(int (*write)(const ompdp_report_t *, FILE *), const ompdp_report_t *r,
                    int *rc) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return NULL;
  *rc = write(r, f);
  fclose(f);
  return buf;
}

static void test_writers(void) {
  ompdp_report_t r;
  CHECK(make_report(&r) == 0);
  CHECK_EQ_U64(r.num_findings, 4); /* and the two unused_transfer ones of the end */
  CHECK(r.timeline != NULL && r.timeline->num_links > 0);
  CHECK(ompdp_report_add_warning(&r, "ompdp ran out of memory: 1 of its allocations failed") ==
        0);
  int rc_json = -1, rc_text = -1, rc_json_nomem = -1, rc_text_nomem = -1;
  char *json = render(ompdp_report_write_json, &r, &rc_json);
  char *text = render(ompdp_report_write_text, &r, &rc_text);
  refuse = 1;
  char *json_nomem = render(ompdp_report_write_json, &r, &rc_json_nomem);
  char *text_nomem = render(ompdp_report_write_text, &r, &rc_text_nomem);
  refuse = 0;
  CHECK(refused > 0); /* the writers did ask, and did without */
  CHECK(rc_json == 0 && rc_json_nomem == 0 && rc_text == 0 && rc_text_nomem == 0);
  CHECK(json && json_nomem && !strcmp(json, json_nomem));
  CHECK(text && text_nomem && !strcmp(text, text_nomem));
  /* The timeline's operations name the findings by position. */
  CHECK(json && strstr(json, ", [0,2], []]") && strstr(json, ", [1,3], []]"));
  CHECK(text && strstr(text, "warning: ompdp ran out of memory: ") != NULL);
  free(json);
  free(text);
  free(json_nomem);
  free(text_nomem);
  ompdp_report_free(&r);
}

int main(void) {
  test_writers();
  return CHECK_DONE();
}
