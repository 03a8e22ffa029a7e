/*===- fuzz_options.c - libFuzzer target: OMPDP_OPTIONS parsing -----------===*\
|*
|* ompdp_options_parse() reads the OMPDP_OPTIONS environment variable of
|* whatever program ompdp is loaded into. Any string must leave the options
|* valid (every string option set, the format one the runtime writes, from
|* report/report_formats.inc) without a
|* crash, a leak or undefined behaviour; parsing the same string twice
|* gives the same result and the same verdict.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "ompdp_rt.h"
#include "report_formats.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static int str_set(const char *const *p) { return *p != NULL; }
static int int_set(const int *p) { return p != NULL; }

static void check_valid(void) {
#define OMPDP_OPTION(Type, Name, Default, Description)                         \
  if (!_Generic(ompdp_opts.Name, int: int_set, default: str_set)(&ompdp_opts.Name)) \
    __builtin_trap();
#include "options.inc"
  ompdp_report_format_t f;
  if (ompdp_report_format_parse(ompdp_opts.format, OMPDP_RF_RUNTIME, &f))
    __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  ompdp_options_reset();
  int rc1 = ompdp_options_parse(text);
  check_valid();
  ompdp_options_t first = ompdp_opts;
  /* Keep the first result's strings alive while parsing again. */
  char *output = strdup(first.output), *format = strdup(first.format);
  ompdp_options_reset();
  int rc2 = ompdp_options_parse(text);
  check_valid();
  if (rc1 != rc2 || strcmp(output, ompdp_opts.output) || strcmp(format, ompdp_opts.format) ||
      first.verify_hashes != ompdp_opts.verify_hashes || first.verbose != ompdp_opts.verbose)
    __builtin_trap();
  free(output);
  free(format);
  ompdp_options_free();
  free(text);
  return 0;
}
