/*===- test_options.c - OMPDP_OPTIONS parsing ----------------------*- C -*-===*/
#include "check.h"
#include "ompdp_rt.h"

#include <string.h>

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
  ompdp_options_free();
  return CHECK_DONE();
}
