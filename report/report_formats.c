/*===- report_formats.c - the formats a report is written in -----*- C -*-===*\
|*
|* Names, lists and the runtime's writers of report_formats.inc. A row
|* whose Where is DRIVER contributes its name only: its writer is not even
|* named here, so nothing in this library (which the runtime links) pulls
|* in the HTML page or the trace (report_render.c, in ompdp-report-views,
|* writes those).
|*
\*===----------------------------------------------------------------------===*/
#include "report_formats.h"

#include <errno.h>
#include <string.h>

#define OMPDP_RF_IN_RUNTIME_RUNTIME 1
#define OMPDP_RF_IN_RUNTIME_DRIVER 0
#define OMPDP_RF_RUNTIME_WRITER_RUNTIME(Writer) Writer
#define OMPDP_RF_RUNTIME_WRITER_DRIVER(Writer) NULL

static const struct {
  const char *name;
  int (*write)(const ompdp_report_t *r, FILE *out); /* NULL: the driver's */
  int in_runtime;
} Formats[OMPDP_RF_COUNT] = {
#define OMPDP_REPORT_FORMAT(Enum, Name, Writer, Where)                                           \
  [OMPDP_RF_##Enum] = {Name, OMPDP_RF_RUNTIME_WRITER_##Where(Writer),                            \
                       OMPDP_RF_IN_RUNTIME_##Where},
#include "report_formats.inc"
};

static int among(ompdp_report_format_t f, ompdp_report_formats_t which) {
  return which == OMPDP_RF_ALL || Formats[f].in_runtime;
}

int ompdp_report_format_parse(const char *name, ompdp_report_formats_t which,
                              ompdp_report_format_t *out) {
  for (int f = 0; name && f < OMPDP_RF_COUNT; ++f)
    if (among((ompdp_report_format_t)f, which) && !strcmp(name, Formats[f].name)) {
      *out = (ompdp_report_format_t)f;
      return 0;
    }
  return -1;
}

const char *ompdp_report_format_name(ompdp_report_format_t f) {
  return (unsigned)f < (unsigned)OMPDP_RF_COUNT ? Formats[f].name : "unknown";
}

int ompdp_report_format_in_runtime(ompdp_report_format_t f) {
  return (unsigned)f < (unsigned)OMPDP_RF_COUNT && Formats[f].in_runtime;
}

/* Appends s to buf[size] (len so far), cut short where it does not fit. */
static void append(char *buf, size_t size, size_t *len, const char *s) {
  size_t k = strlen(s);
  if (*len + k >= size)
    k = size - 1 - *len;
  memcpy(buf + *len, s, k);
  *len += k;
  buf[*len] = '\0';
}

const char *ompdp_report_format_list(char *buf, size_t size, ompdp_report_formats_t which,
                                     const char *sep, const char *last) {
  int total = 0, n = 0;
  for (int f = 0; f < OMPDP_RF_COUNT; ++f)
    total += among((ompdp_report_format_t)f, which);
  size_t len = 0;
  if (!size)
    return buf;
  buf[0] = '\0';
  for (int f = 0; f < OMPDP_RF_COUNT; ++f) {
    if (!among((ompdp_report_format_t)f, which))
      continue;
    if (n++)
      append(buf, size, &len, n == total ? last : sep);
    append(buf, size, &len, Formats[f].name);
  }
  return buf;
}

const char *ompdp_report_format_choices(char *buf, size_t size, ompdp_report_formats_t which) {
  return ompdp_report_format_list(buf, size, which, "|", "|");
}

int ompdp_report_write_as(const ompdp_report_t *r, ompdp_report_format_t f, FILE *out) {
  if ((unsigned)f >= (unsigned)OMPDP_RF_COUNT || !Formats[f].write) {
    errno = EINVAL;
    return -1;
  }
  return Formats[f].write(r, out);
}
