/*===- strbuf.h - a growable string ---------------------------------*- C -*-===*\
|*
|* For text built piece by piece (rewrites, the driver's environment). An
|* allocation failure is remembered, not reported at each append: the
|* builder checks once, at the end (oom, or ompdp_sb_take returning NULL).
|* Zero-initialize a ompdp_strbuf_t before use.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_STRBUF_H
#define OMPDP_STRBUF_H

#include <stddef.h>

typedef struct ompdp_strbuf {
  char *d; /* NUL-terminated once anything was appended */
  size_t len, cap;
  int oom;
} ompdp_strbuf_t;

void ompdp_sb_putn(ompdp_strbuf_t *b, const char *s, size_t n);
void ompdp_sb_puts(ompdp_strbuf_t *b, const char *s);
void ompdp_sb_printf(ompdp_strbuf_t *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Hands the string over and empties b: never NULL unless out of memory
 * (then b's memory is freed). */
char *ompdp_sb_take(ompdp_strbuf_t *b);

#endif /* OMPDP_STRBUF_H */
