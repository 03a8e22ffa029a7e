/*===- fuzz_timeline.c - libFuzzer target: a report with its timeline ----===*\
|*
|* ompdp_report_read_with_timeline() (report/timeline_read.c: the report
|* reader, then the "timeline" section in place) must take any bytes
|* without a crash, a leak or undefined behaviour, and refuse them with a
|* one-line reason or accept them. What it accepts must render as HTML and
|* as a Chrome trace, and as JSON that reads back to the same JSON (the
|* timeline included).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "report.h"
#include "report_views.h"
#include "timeline.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *render(const ompdp_report_t *r, int (*write)(const ompdp_report_t *, FILE *),
                    size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    abort();
  if (write(r, f))
    __builtin_trap(); /* a memory stream does not fail */
  fclose(f);
  *len = n;
  return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ompdp_report_t r;
  char err[512];
  err[0] = '\0';
  if (ompdp_report_read_with_timeline((const char *)data, size, NULL, &r, err, sizeof(err))) {
    if (!err[0] || strchr(err, '\n'))
      __builtin_trap();
    return 0;
  }
  size_t n;
  free(render(&r, ompdp_report_write_html, &n));
  free(render(&r, ompdp_report_write_trace, &n));
  char *json = render(&r, ompdp_report_write_json, &n);
  ompdp_report_free(&r);
  ompdp_report_t again;
  if (ompdp_report_read_with_timeline(json, n, NULL, &again, err, sizeof(err)))
    __builtin_trap(); /* what ompdp writes, it reads */
  size_t n2;
  char *json2 = render(&again, ompdp_report_write_json, &n2);
  if (n != n2 || memcmp(json, json2, n))
    __builtin_trap();
  free(json);
  free(json2);
  ompdp_report_free(&again);
  return 0;
}
