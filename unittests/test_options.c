/*===- test_options.c - OMPDP_OPTIONS parsing ----------------------*- C -*-===*\
|*
|* Valid settings, then hostile text: OMPDP_OPTIONS comes from the
|* environment of whatever program ompdp is loaded into. The cases after
|* "regressions" were found by fuzz/fuzz_options.c.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "check.h"
#include "ompdp_rt.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Runs parse(text) with stderr captured; returns what it printed. */
static char captured[4096];
static int parse_captured(const char *text) {
  fflush(stderr);
  FILE *tmp = tmpfile();
  int saved = dup(2);
  dup2(fileno(tmp), 2);
  int rc = ompdp_options_parse(text);
  fflush(stderr);
  dup2(saved, 2);
  close(saved);
  rewind(tmp);
  size_t n = fread(captured, 1, sizeof(captured) - 1, tmp);
  captured[n] = '\0';
  fclose(tmp);
  return rc;
}

static int all_printable_lines(const char *s) {
  for (; *s; ++s)
    if (*s != '\n' && ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f))
      return 0;
  return 1;
}

int main(void) {
  ompdp_options_reset();
  CHECK(!strcmp(ompdp_opts.output, "-"));
  CHECK(!strcmp(ompdp_opts.format, "text"));
  CHECK(ompdp_options_parse("format=json output=\"/tmp/a b/\\\"x\\\".json\" verify_hashes=1") == 0);
  CHECK(!strcmp(ompdp_opts.format, "json"));
  CHECK(!strcmp(ompdp_opts.output, "/tmp/a b/\"x\".json"));
  CHECK(ompdp_opts.verify_hashes == 1);
  ompdp_options_reset();
  /* Unknown names and bad values are reported; good ones still apply. */
  CHECK(ompdp_options_parse("bogus=1 format=json") == -1);
  CHECK(!strcmp(ompdp_opts.format, "json"));
  CHECK(ompdp_options_parse("verbose=maybe") == -1);
  CHECK(ompdp_options_parse("verbose") == -1);
  CHECK(ompdp_options_parse("output=\"unterminated") == -1);
  CHECK(ompdp_options_parse("  ") == 0);
  CHECK(ompdp_options_parse(NULL) == 0);

  /* Regressions. An unterminated quote ended the parse before the format
   * was checked: "jcon" stayed the format. */
  ompdp_options_reset();
  CHECK(parse_captured("format=jcon output=\"/tmp/x verbose=1") == -1);
  CHECK(!strcmp(ompdp_opts.format, "text"));
  CHECK(strstr(captured, "unterminated quote") != NULL);
  CHECK(strstr(captured, "option 'format' wants text, json or sarif, not 'jcon'") != NULL);
  /* The formats are those the runtime writes (report/report_formats.inc):
   * the driver's own are refused, for the finished report too. */
  ompdp_options_reset();
  CHECK(parse_captured("format=sarif final_format=text") == 0);
  CHECK(!strcmp(ompdp_opts.format, "sarif"));
  ompdp_options_reset();
  CHECK(parse_captured("format=html") == -1);
  CHECK(!strcmp(ompdp_opts.format, "text"));
  CHECK(strstr(captured, "option 'format' wants text, json or sarif, not 'html'") != NULL);
  ompdp_options_reset();
  CHECK(parse_captured("final=/tmp/f final_format=trace") == -1);
  CHECK(!strcmp(ompdp_opts.final, ""));
  CHECK(strstr(captured, "option 'final_format' wants text, json or sarif, not 'trace'") != NULL);
  /* Settings before the error still apply. */
  ompdp_options_reset();
  CHECK(parse_captured("verbose=1 output=\"x") == -1);
  CHECK(ompdp_opts.verbose == 1);
  CHECK(!strcmp(ompdp_opts.output, "-"));

  /* Hostile text is quoted shortened and without control characters. */
  ompdp_options_reset();
  CHECK(parse_captured("\x1b[31mred\x07=1 format=\x1b]0;title\x07") == -1);
  CHECK(all_printable_lines(captured));
  CHECK(strstr(captured, "unknown option '?[31mred?'") != NULL);
  CHECK(strstr(captured, "not '?]0;title?'") != NULL);
  char long_name[300];
  memset(long_name, 'n', 200);
  strcpy(long_name + 200, "=1");
  CHECK(parse_captured(long_name) == -1);
  CHECK(strlen(captured) < 200);
  CHECK(strstr(captured, "malformed") != NULL);
  /* More string settings than can be kept: refused, the earlier ones kept. */
  char many[2048] = "";
  for (int i = 0; i < 40; ++i)
    snprintf(many + strlen(many), sizeof(many) - strlen(many), "output=o%d ", i);
  ompdp_options_reset();
  CHECK(parse_captured(many) == -1);
  CHECK(strstr(captured, "too many settings") != NULL);
  CHECK(ompdp_opts.output != NULL && ompdp_opts.output[0] == 'o');
  ompdp_options_free();
  return CHECK_DONE();
}
