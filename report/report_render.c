/*===- report_render.c - a report in any of its formats -----------*- C -*-===*\
|*
|* The driver's dispatch over report_formats.inc: the formats only the
|* driver renders (the page, the trace) by their writers here, the others
|* as the runtime writes them (ompdp_report_write_as), so that `ompdp run`
|* and `ompdp report` print the bytes the runtime would.
|*
\*===----------------------------------------------------------------------===*/
#include "report_formats.h"
#include "report_views.h"

#define OMPDP_RF_DRIVER_WRITER_RUNTIME(Writer) NULL
#define OMPDP_RF_DRIVER_WRITER_DRIVER(Writer) Writer

static int (*const DriverWriters[OMPDP_RF_COUNT])(const ompdp_report_t *r, FILE *out) = {
#define OMPDP_REPORT_FORMAT(Enum, Name, Writer, Where)                                           \
  [OMPDP_RF_##Enum] = OMPDP_RF_DRIVER_WRITER_##Where(Writer),
#include "report_formats.inc"
};

int ompdp_report_render(const ompdp_report_t *r, ompdp_report_format_t f, FILE *out) {
  if ((unsigned)f < (unsigned)OMPDP_RF_COUNT && DriverWriters[f])
    return DriverWriters[f](r, out);
  return ompdp_report_write_as(r, f, out);
}
