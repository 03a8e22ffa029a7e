/*===- report_formats.h - the formats a report is written in -------*- C -*-===*\
|*
|* One table (report_formats.inc) says which formats there are, what each
|* is called, which function writes it and whether the runtime writes it.
|* The runtime's options, the driver's --format and their usage texts ask
|* it, never a list of their own. ompdp_report_write_as (ompdp-report)
|* writes the formats the runtime writes; ompdp_report_render
|* (report_views.h) any of them.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REPORT_FORMATS_H
#define OMPDP_REPORT_FORMATS_H

#include "report.h"

#include <stddef.h>
#include <stdio.h>

typedef enum ompdp_report_format {
#define OMPDP_REPORT_FORMAT(Enum, Name, Writer, Where) OMPDP_RF_##Enum,
#include "report_formats.inc"
  OMPDP_RF_COUNT
} ompdp_report_format_t;

/* Which formats a question is about. */
typedef enum ompdp_report_formats {
  OMPDP_RF_ALL,     /* every format */
  OMPDP_RF_RUNTIME, /* those the runtime writes */
} ompdp_report_formats_t;

/* The format called name among which: 0 and *out, or -1. */
int ompdp_report_format_parse(const char *name, ompdp_report_formats_t which,
                              ompdp_report_format_t *out);
const char *ompdp_report_format_name(ompdp_report_format_t f);
/* 1 when the runtime writes f. */
int ompdp_report_format_in_runtime(ompdp_report_format_t f);
/* The names of which, separated by sep but the last two by last
 * ("text|json|sarif" with "|" and "|", "text, json or sarif" with ", " and
 * " or "), into buf[size] (cut short if it is too small); returns buf. */
const char *ompdp_report_format_list(char *buf, size_t size, ompdp_report_formats_t which,
                                     const char *sep, const char *last);
/* ompdp_report_format_list(buf, size, which, "|", "|"). */
const char *ompdp_report_format_choices(char *buf, size_t size, ompdp_report_formats_t which);

/* r in format f, when the runtime writes f. Returns 0, or -1 with errno
 * set (EINVAL for a format only the driver renders). */
int ompdp_report_write_as(const ompdp_report_t *r, ompdp_report_format_t f, FILE *out);

#endif /* OMPDP_REPORT_FORMATS_H */
