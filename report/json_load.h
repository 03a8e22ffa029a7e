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

/* A top-level value that the copy holds as a placeholder. */
enum { OMPDP_JSON_SPAN_TIMELINE, OMPDP_JSON_SPAN_FINDINGS, OMPDP_JSON_SPANS };
typedef struct ompdp_json_span {
  int present;
  size_t at, len;     /* in the text */
  size_t copy_at;     /* the placeholder's place in the copy */
  size_t copy_len;    /* and its length */
} ompdp_json_span_t;

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
  /* The top-level values read in place instead of through jansson: each
   * is checked, and stands in the copy as a placeholder ("null", "[]").
   * The timeline (timeline_read.c reads it) and the findings, which
   * report_json_read.c reads one at a time: a tree of them all would take
   * ten times their size. */
  ompdp_json_span_t spans[OMPDP_JSON_SPANS];
  int part; /* a doc of one finding: nothing is read in place */
  size_t num_findings; /* in the file's "findings", of every kind */
  /* The JSON path of the member being read ("findings[3].count"), which a
   * reason given while reading it names. */
  char path[160];
  size_t path_len;
} ompdp_json_doc_t;

/* Sets the reason (the first one only) and the path of the member being
 * read: "<reason> (at findings[3].count)"; returns -1. */
int ompdp_json_fail(ompdp_json_doc_t *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The same without the path (the reason says where). */
int ompdp_json_fail_plain(ompdp_json_doc_t *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* The path: back to its first len bytes; that plus ".key" (key alone at
 * the top); that plus "[i]". A reader walking an object or an array sets
 * the path of each member or element from the length it had before. */
void ompdp_json_path_cut(ompdp_json_doc_t *d, size_t len);
void ompdp_json_path_key(ompdp_json_doc_t *d, size_t base, const char *key);
void ompdp_json_path_index(ompdp_json_doc_t *d, size_t base, size_t i);
/* The same, at byte offset at of the text ("invalid JSON at line L, column
 * C: ..."). */
int ompdp_json_fail_at(ompdp_json_doc_t *d, size_t at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The value of the four hex digits at text[at..], or -1 with the reason. */
int64_t ompdp_json_hex4(ompdp_json_doc_t *d, size_t at);
/* Parses text[start..n) (start skips a byte order mark): 0 and the tree in
 * *out (json_decref it), or -1 with the reason. The top-level "timeline"
 * and "findings" (an array) are checked, but stand as null and [] in the
 * tree: their bytes are in d->spans. */
int ompdp_json_load(ompdp_json_doc_t *d, size_t start, json_t **out);
/* One value of a report read in place, text[at..end) (one finding): its
 * tree, in a doc of its own (*part, freed by ompdp_json_doc_free) that
 * reports into d's error and begins with d's path. 0, or -1. */
int ompdp_json_load_part(ompdp_json_doc_t *d, size_t at, size_t end, ompdp_json_doc_t *part,
                         json_t **out);
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

/* ompdp_report_read_json, and where its top-level "timeline" value lies in
 * text (*timeline_len 0: none), which it checks but does not read: the
 * timeline reader (timeline_read.c) reads it in place, its links naming
 * the *num_findings findings of the file by position (the model holds
 * those of known kinds, each with its position as timeline_id). */
struct ompdp_report;
int ompdp_report_read_json_doc(const char *text, size_t len, struct ompdp_report *rep, char *err,
                               size_t errlen, size_t *timeline_at, size_t *timeline_len,
                               size_t *num_findings);

/* An untrusted string for an error message: printable ASCII, short. */
const char *ompdp_json_printable(char *buf, size_t size, const char *s);

#endif /* OMPDP_JSON_LOAD_H */
