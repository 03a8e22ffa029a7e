/*===- json_scan.h - reading JSON in place, token by token ----------*- C -*-===*\
|*
|* A pull reader over the bytes of a report, for the one section that can
|* grow with the length of a run: the timeline (timeline=full keeps every
|* event, 80 bytes of JSON each). jansson builds a tree of that section at
|* about ten times its size; this reader walks the bytes where they lie and
|* hands each value to the caller, which keeps only what the model needs,
|* so reading a report costs time and memory in proportion to it. It is
|* also how the report reader (json_load.c) steps over the section,
|* checking it, without copying it for jansson.
|*
|* Every byte is checked as jansson would: strings (no control character,
|* valid escapes, no \u0000), numbers (JSON's grammar), literals, nesting
|* (at most OMPDP_JS_MAX_DEPTH); an error is the reader's one line,
|* "invalid JSON at line L, column C: ...", through the document's error
|* (json_load.h).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_JSON_SCAN_H
#define OMPDP_JSON_SCAN_H

#include "json_load.h"

#include <stddef.h>
#include <stdint.h>

/* As deep as jansson nests (JSON_PARSER_MAX_DEPTH). */
#define OMPDP_JS_MAX_DEPTH 2048

/* A position in d's text; reading stops at end. */
typedef struct ompdp_js {
  ompdp_json_doc_t *d;
  size_t pos, end;
} ompdp_js_t;

/* The next byte that is not blank (moving past the blanks), or -1 at the
 * end. */
int ompdp_js_peek(ompdp_js_t *s);
/* Checks one value of any kind and moves past it; depth: how deep it
 * already is. 0, or -1 with the reason. */
int ompdp_js_skip(ompdp_js_t *s, unsigned depth);
/* A string, decoded into buf (NUL-terminated). A string longer than
 * size - 1 bytes is checked whole and kept as its first bytes, with
 * *truncated set. 0, or -1 (not a string: the reason names what). */
int ompdp_js_string(ompdp_js_t *s, char *buf, size_t size, int *truncated);
/* A number: *is_int and the integer in *n (as json_load.h's), or its value
 * in *real (any number, in the C locale). 0, or -1. */
int ompdp_js_number(ompdp_js_t *s, int *is_int, ompdp_json_num_t *n, double *real);
/* null: 1 and moved past it; anything else: 0, not moved. */
int ompdp_js_null(ompdp_js_t *s);

/* Walks an object: call ompdp_js_object first, then ompdp_js_member until
 * it returns 0 (the closing brace, consumed). 1: a member follows, its name
 * in key (truncated to size - 1 bytes: *truncated) and the position at its
 * value; -1: an error. */
int ompdp_js_object(ompdp_js_t *s);
int ompdp_js_member(ompdp_js_t *s, int *first, char *key, size_t size, int *truncated);
/* The same for an array: 1, an element follows; 0, the closing bracket. */
int ompdp_js_array(ompdp_js_t *s);
int ompdp_js_element(ompdp_js_t *s, int *first);

/* The reason at the current position, as the reader words it. */
int ompdp_js_fail(ompdp_js_t *s, const char *what);

#endif /* OMPDP_JSON_SCAN_H */
