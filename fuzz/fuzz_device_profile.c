/*===- fuzz_device_profile.c - libFuzzer target: device profiles ----------===*\
|*
|* ompdp_profile_parse() reads any file a user hands to --device or `ompdp
|* devices`. Any bytes must give a profile or one line of error, without a
|* crash, a leak or undefined behaviour. A profile that parses is written
|* out again and must parse to the same prices; its curves must give finite
|* times that do not go below zero.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream */
#include "cost_model.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static ompdp_device_profile_t p, q; /* large: off the stack */
  char err[1024];
  if (ompdp_profile_parse((const char *)data, size, "fuzz", &p, err, sizeof(err))) {
    if (!err[0] || strchr(err, '\n') || strncmp(err, "fuzz", 4))
      __builtin_trap();
    return 0;
  }
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (!f)
    return 0;
  if (ompdp_profile_write(&p, f))
    __builtin_trap();
  fclose(f);
  if (ompdp_profile_parse(buf, len, "again", &q, err, sizeof(err)))
    __builtin_trap();
  static const double Sizes[] = {0, 1, 8, 4096, 8192, 8193, 1e6, 1e9, 1e12};
  for (int op = 0; op < OMPDP_COST_COUNT; ++op)
    for (size_t i = 0; i < sizeof(Sizes) / sizeof(Sizes[0]); ++i) {
      double a = ompdp_profile_time(&p, (ompdp_cost_op_t)op, Sizes[i]);
      double b = ompdp_profile_time(&q, (ompdp_cost_op_t)op, Sizes[i]);
      if (!(a >= 0) || isinf(a) || a != b)
        __builtin_trap();
    }
  free(buf);
  return 0;
}
