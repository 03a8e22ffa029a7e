/*===- strbuf.c - a growable string -----------------------------------------===*\
|*
|* See strbuf.h.
|*
\*===----------------------------------------------------------------------===*/
#include "strbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ompdp_sb_putn(ompdp_strbuf_t *b, const char *s, size_t n) {
  if (b->oom)
    return;
  if (b->cap - b->len <= n) {
    size_t cap = b->cap ? b->cap : 64;
    while (cap - b->len <= n)
      cap *= 2;
    char *d = realloc(b->d, cap);
    if (!d) {
      b->oom = 1;
      return;
    }
    b->d = d;
    b->cap = cap;
  }
  memcpy(b->d + b->len, s, n);
  b->len += n;
  b->d[b->len] = '\0';
}

void ompdp_sb_puts(ompdp_strbuf_t *b, const char *s) { ompdp_sb_putn(b, s, strlen(s)); }

void ompdp_sb_printf(ompdp_strbuf_t *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
  va_end(ap);
  if (n < 0) {
    b->oom = 1;
  } else if ((size_t)n < sizeof(tmp)) {
    ompdp_sb_putn(b, tmp, (size_t)n);
  } else {
    char *big = malloc((size_t)n + 1);
    if (!big) {
      b->oom = 1;
      return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    ompdp_sb_putn(b, big, (size_t)n);
    free(big);
  }
}

char *ompdp_sb_take(ompdp_strbuf_t *b) {
  char *d = NULL;
  if (b->oom)
    free(b->d);
  else
    d = b->d ? b->d : calloc(1, 1);
  b->d = NULL;
  b->len = b->cap = 0;
  return d;
}
