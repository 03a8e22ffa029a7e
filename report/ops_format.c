/*===- ops_format.c - operations and projections in the report formats ----===*\
|*
|* The pieces of the JSON report (and of SARIF properties, which are JSON
|* too) that describe operations by class and a projection, and the label
|* every format gives a projection. Kept apart from the writers so that a
|* format adds a projection with one call.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* uselocale */
#include "cost_model.h"

#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A double in the C locale, with the fewest of 6..17 digits that read back,
 * and null for what JSON cannot hold. */
static void put_double(FILE *out, double d) {
  if (!isfinite(d)) {
    fputs("null", out);
    return;
  }
  char buf[64];
  locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t old = c ? uselocale(c) : (locale_t)0;
  for (int prec = 6; prec <= 17; ++prec) {
    snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (strtod(buf, NULL) == d)
      break;
  }
  if (c) {
    uselocale(old);
    freelocale(c);
  }
  for (char *p = buf; *p; ++p)
    if (*p == ',')
      *p = '.';
  if (!strpbrk(buf, ".eEn"))
    strcat(buf, ".0");
  fputs(buf, out);
}

void ompdp_ops_write_json(FILE *out, const ompdp_ops_t *ops) {
  fputc('{', out);
  for (int c = 0; c < OMPDP_OC_COUNT; ++c) {
    const ompdp_opstat_t *s = &ops->c[c];
    fprintf(out, "%s\"%s\": {\"count\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"time_ns\": %" PRIu64
                 "}",
            c ? ", " : "", ompdp_op_class_json((ompdp_op_class_t)c), s->count, s->bytes,
            s->time_ns);
  }
  fputc('}', out);
}

void ompdp_projection_write_json(FILE *out, const ompdp_projection_t *p, const char *ind) {
  fprintf(out, "{\n%s  \"device\": ", ind);
  ompdp_json_put_string(out, p->device);
  fprintf(out, ",\n%s  \"profile\": ", ind);
  ompdp_json_put_string(out, p->source);
  fprintf(out, ",\n%s  \"host_memory\": \"%s\"", ind, p->pinned ? "pinned" : "pageable");
  fprintf(out, ",\n%s  \"kernel_scale\": ", ind);
  put_double(out, p->kernel_scale);
  fprintf(out, ",\n%s  \"wall_time_ns\": %" PRIu64, ind, p->wall_time_ns);
  fprintf(out, ",\n%s  \"time_saved_ns\": %" PRIu64, ind, p->time_saved_ns);
  fprintf(out, ",\n%s  \"predicted_speedup\": ", ind);
  put_double(out, p->predicted_speedup);
  fprintf(out, ",\n%s  \"data_time_ns\": %" PRIu64, ind, p->data_time_ns);
  fprintf(out, ",\n%s  \"projected_data_time_ns\": %" PRIu64, ind, p->projected_data_time_ns);
  fprintf(out, ",\n%s  \"kernel_time_ns\": %" PRIu64, ind, p->kernel_time_ns);
  fprintf(out, ",\n%s  \"inferred\": %s\n%s}", ind, p->inferred ? "true" : "false", ind);
}

void ompdp_projection_label(const ompdp_projection_t *p, char *buf, size_t size) {
  const char *src = p->source ? p->source : "built-in";
  snprintf(buf, size, "%s (%s%s; %s host memory; kernels x%g)", p->device ? p->device : "?",
           strcmp(src, "built-in") ? "profile " : "built-in profile",
           strcmp(src, "built-in") ? src : "", p->pinned ? "pinned" : "pageable",
           p->kernel_scale);
}
