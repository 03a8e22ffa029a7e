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

/* A double as JSON (ompdp_json_format_double: the fewest digits that read
 * back, in the C locale). */
static void put_double(FILE *out, double d) {
  char buf[64];
  ompdp_json_format_double(buf, sizeof(buf), d);
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
