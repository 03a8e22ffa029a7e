/*===- json_load.h - jansson, as a report needs it -----------------*- C -*-===*\
|*
|* The text of a report parsed by jansson, with what jansson cannot hold
|* kept aside (json_load.c): the JSON readers of the report library map the
|* tree into the model. Not used outside report/.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_JSON_LOAD_H
#define OMPDP_JSON_LOAD_H

#include "strbuf.h"

#include <jansson.h>

#include <stddef.h>
#include <stdint.h>

/* An integer token kept aside: jansson holds 10^18 + its index. */
#define OMPDP_JSON_BIG_BASE 1000000000000000000LL
typedef struct ompdp_json_big {
  size_t at, len; /* the token in the text */
} ompdp_json_big_t;

/* A text being read, and the first reason it failed. */
typedef struct ompdp_json_doc {
  const char *text; /* as given */
  size_t n;
  char *err; /* the reason, one line (may be NULL) */
  size_t errlen;
  int failed;
  /* What jansson parses, and how it differs from the text. */
  ompdp_strbuf_t copy;
  ompdp_json_big_t *bigs;
  size_t num_bigs, cap_bigs;
  size_t *grown; /* copy offsets where an invalid byte became three */
  size_t num_grown, cap_grown;
} ompdp_json_doc_t;

/* Sets the reason (the first one only); returns -1. */
int ompdp_json_fail(ompdp_json_doc_t *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Parses text[start..n) (start skips a byte order mark): 0 and the tree in
 * *out (json_decref it), or -1 with the reason. */
int ompdp_json_load(ompdp_json_doc_t *d, size_t start, json_t **out);
/* The token v stands for when it is an integer kept aside, else NULL. */
const ompdp_json_big_t *ompdp_json_big(const ompdp_json_doc_t *d, const json_t *v);
void ompdp_json_doc_free(ompdp_json_doc_t *d);
/* Typed members, each 0 or -1 with the reason ("\"name\" must be ..."). */
/* An integer as the text wrote it: its magnitude and sign, or overflow when
 * it does not fit in 64 bits. */
typedef struct ompdp_json_num {
  int neg, overflow;
  uint64_t mag;
} ompdp_json_num_t;
/* v as an integer: 1 and *n, 0 if v is a number but not an integer, -1 if v
 * is no number. */
int ompdp_json_as_int(const ompdp_json_doc_t *d, const json_t *v, ompdp_json_num_t *n);
int ompdp_json_get_u64(ompdp_json_doc_t *d, const char *name, const json_t *v, uint64_t max,
                       uint64_t *out);
int ompdp_json_get_int(ompdp_json_doc_t *d, const char *name, const json_t *v, int *out);
int ompdp_json_get_double(ompdp_json_doc_t *d, const char *name, const json_t *v, double *out);
int ompdp_json_get_bool(ompdp_json_doc_t *d, const char *name, const json_t *v, int *out);
/* A string (or null, when nullable) into *out, which is freed first. */
int ompdp_json_get_str(ompdp_json_doc_t *d, const char *name, const json_t *v, int nullable,
                       char **out);
/* A 64-bit value as 1 to 16 hex digits in a string, or null for 0. */
int ompdp_json_get_hex64(ompdp_json_doc_t *d, const char *name, const json_t *v, uint64_t *out);

/* The "plan" member of a runtime's report (plan_json_read.c): null leaves
 * *out empty. 0, or -1 with the reason. */
struct ompdp_plan;
int ompdp_plan_read_json(ompdp_json_doc_t *d, const json_t *v, struct ompdp_plan *out);

/* An untrusted string for an error message: printable ASCII, short. */
const char *ompdp_json_printable(char *buf, size_t size, const char *s);

#endif /* OMPDP_JSON_LOAD_H */
