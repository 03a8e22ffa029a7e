/*===- edits.h - source text and rewrite edits for unit tests -------*- C -*-===*\
|*
|* What the rewrite tests share: line:column of a byte offset and back, and
|* a rewrite's edits applied to a source string the way `ompdp fix` applies
|* them (every edit's original text checked with ompdp_text_matches, edits
|* in source order, an insertion before a replacement at the same place).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_UNITTEST_EDITS_H
#define OMPDP_UNITTEST_EDITS_H

#include "check.h"
#include "rewrite.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 1-based line and byte column of byte offset off of src. */
static inline void pos_of(const char *src, size_t off, uint32_t *line, uint32_t *col) {
  *line = 1;
  *col = 1;
  for (size_t i = 0; i < off; ++i) {
    if (src[i] == '\n') {
      ++*line;
      *col = 1;
    } else {
      ++*col;
    }
  }
}

/* The byte offset of line:col in src; -1 when src has no such place. */
static inline long offset(const char *src, uint32_t line, uint32_t col) {
  size_t n = strlen(src);
  uint32_t l = 1;
  size_t i = 0;
  while (l < line) {
    const char *nl = memchr(src + i, '\n', n - i);
    if (!nl)
      return -1;
    i = (size_t)(nl - src) + 1;
    ++l;
  }
  if (i + col - 1 > n)
    return -1;
  return (long)(i + col - 1);
}

/* src with rw's edits applied (malloc'd), or NULL when an edit's range is
 * not in src or does not hold its original text. */
static inline char *apply(const char *src, const ompdp_rewrite_t *rw) {
  size_t n = strlen(src), ne = rw->num_edits, grow = 0;
  long *start = calloc(ne + 1, sizeof(long));
  long *end = calloc(ne + 1, sizeof(long));
  char *out = NULL;
  if (!start || !end)
    goto done;
  for (size_t i = 0; i < ne; ++i) {
    const ompdp_edit_t *e = &rw->edits[i];
    start[i] = offset(src, e->range.line, e->range.column);
    end[i] = offset(src, e->range.end_line, e->range.end_column);
    if (start[i] < 0 || end[i] < start[i] ||
        (e->original &&
         !ompdp_text_matches(src + start[i], (size_t)(end[i] - start[i]), e->original)))
      goto done;
    grow += strlen(e->replacement);
  }
  if (!(out = malloc(n + grow + 1)))
    goto done;
  size_t o = 0;
  long at = 0;
  for (;;) {
    size_t best = ne;
    for (size_t i = 0; i < ne; ++i)
      if (start[i] >= at && (best == ne || start[i] < start[best]))
        best = i;
    if (best == ne)
      break;
    memcpy(out + o, src + at, (size_t)(start[best] - at));
    o += (size_t)(start[best] - at);
    size_t rl = strlen(rw->edits[best].replacement);
    memcpy(out + o, rw->edits[best].replacement, rl);
    o += rl;
    at = end[best];
    start[best] = -1; /* applied */
  }
  memcpy(out + o, src + at, n - (size_t)at + 1);
done:
  free(start);
  free(end);
  return out;
}

static inline int expect_text(const char *src, const ompdp_rewrite_t *rw, const char *want,
                              int line) {
  char *got = apply(src, rw);
  int ok = got && !strcmp(got, want);
  if (!ok)
    fprintf(stderr, "line %d: got\n%s\nwant\n%s\n", line, got ? got : "(no match)", want);
  free(got);
  return ok;
}

#define EXPECT(src, rw, want) CHECK(expect_text(src, rw, want, __LINE__))

#endif /* OMPDP_UNITTEST_EDITS_H */
