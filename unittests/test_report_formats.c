/*===- test_report_formats.c - the table of report formats ---------*- C -*-===*\
|*
|* report/report_formats.inc as the runtime and the driver ask it: names,
|* the lists of usage texts, which formats the runtime writes, and the
|* runtime's writers (a format only the driver renders is refused).
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "report_formats.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  ompdp_report_format_t f;
  char buf[128];
  /* Every name parses back to its format, among all of them. */
  for (int i = 0; i < OMPDP_RF_COUNT; ++i) {
    CHECK(ompdp_report_format_parse(ompdp_report_format_name((ompdp_report_format_t)i),
                                    OMPDP_RF_ALL, &f) == 0);
    CHECK_EQ_U64(f, i);
  }
  CHECK(ompdp_report_format_parse("sarif", OMPDP_RF_RUNTIME, &f) == 0 && f == OMPDP_RF_SARIF);
  CHECK(ompdp_report_format_parse("html", OMPDP_RF_ALL, &f) == 0 && f == OMPDP_RF_HTML);
  /* The runtime does not write the page or the trace. */
  CHECK(ompdp_report_format_parse("html", OMPDP_RF_RUNTIME, &f) == -1);
  CHECK(ompdp_report_format_parse("trace", OMPDP_RF_RUNTIME, &f) == -1);
  CHECK(ompdp_report_format_parse("Text", OMPDP_RF_ALL, &f) == -1);
  CHECK(ompdp_report_format_parse("", OMPDP_RF_ALL, &f) == -1);
  CHECK(ompdp_report_format_parse(NULL, OMPDP_RF_ALL, &f) == -1);
  CHECK(ompdp_report_format_in_runtime(OMPDP_RF_JSON));
  CHECK(!ompdp_report_format_in_runtime(OMPDP_RF_TRACE));
  CHECK(!ompdp_report_format_in_runtime(OMPDP_RF_COUNT));
  CHECK(!strcmp(ompdp_report_format_name(OMPDP_RF_COUNT), "unknown"));

  /* The lists of the usage texts and error messages. */
  CHECK(!strcmp(ompdp_report_format_choices(buf, sizeof(buf), OMPDP_RF_ALL),
                "text|json|sarif|html|trace"));
  CHECK(!strcmp(ompdp_report_format_list(buf, sizeof(buf), OMPDP_RF_ALL, ", ", " or "),
                "text, json, sarif, html or trace"));
  CHECK(!strcmp(ompdp_report_format_list(buf, sizeof(buf), OMPDP_RF_RUNTIME, ", ", " or "),
                "text, json or sarif"));
  /* Cut short, never past the buffer. */
  CHECK(!strcmp(ompdp_report_format_choices(buf, 8, OMPDP_RF_ALL), "text|js"));
  CHECK(!strcmp(ompdp_report_format_choices(buf, 1, OMPDP_RF_ALL), ""));

  /* The runtime's writers; the driver's formats are EINVAL here. */
  ompdp_report_t r;
  ompdp_report_init(&r);
  char *mem = NULL;
  size_t len = 0;
  FILE *out = open_memstream(&mem, &len);
  CHECK(out != NULL);
  if (out) {
    CHECK(ompdp_report_write_as(&r, OMPDP_RF_JSON, out) == 0);
    fflush(out);
    CHECK(len > 0 && strstr(mem, "\"ompdp_report_version\"") != NULL);
    size_t before = len;
    CHECK(ompdp_report_write_as(&r, OMPDP_RF_SARIF, out) == 0);
    fflush(out);
    CHECK(len > before && strstr(mem + before, "\"version\": \"2.1.0\"") != NULL);
    before = len;
    errno = 0;
    CHECK(ompdp_report_write_as(&r, OMPDP_RF_HTML, out) == -1 && errno == EINVAL);
    errno = 0;
    CHECK(ompdp_report_write_as(&r, OMPDP_RF_COUNT, out) == -1 && errno == EINVAL);
    fflush(out);
    CHECK_EQ_U64(len, before);
    fclose(out);
  }
  free(mem);
  ompdp_report_free(&r);
  return CHECK_DONE();
}
