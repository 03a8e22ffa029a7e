/*===- fuzz_report_json.c - libFuzzer target: the JSON report reader ------===*\
|*
|* ompdp_report_read_json() must take any bytes (truncated, corrupt, huge
|* numbers, deep nesting, invalid UTF-8, no terminating NUL) without a
|* crash, a leak or undefined behaviour, and either refuse them with a
|* one-line reason or accept them. What it accepts must render as JSON and
|* as text, and the JSON must read back as the same report (rendering it
|* again gives the same bytes).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "report.h"

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
  if (ompdp_report_read_json((const char *)data, size, &r, err, sizeof(err)) != 0) {
    /* Refused: with a reason, on one line. */
    if (!err[0] || strchr(err, '\n'))
      __builtin_trap();
    return 0;
  }
  size_t len1, len2, len3;
  char *json1 = render(&r, ompdp_report_write_json, &len1);
  char *text = render(&r, ompdp_report_write_text, &len3);
  ompdp_report_t back;
  if (ompdp_report_read_json(json1, len1, &back, err, sizeof(err)) != 0)
    __builtin_trap(); /* what ompdp writes, ompdp must read */
  char *json2 = render(&back, ompdp_report_write_json, &len2);
  if (len1 != len2 || memcmp(json1, json2, len1) != 0)
    __builtin_trap(); /* the round trip lost or changed something */
  free(json1);
  free(json2);
  free(text);
  ompdp_report_free(&back);
  ompdp_report_free(&r);
  return 0;
}
