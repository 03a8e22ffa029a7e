/*===- lsp_text.c - open documents: text, positions, changes -------------===*\
|*
|* See lsp_text.h. Lines are indexed again after each change (a document is
|* a source file: the index costs one pass over it, less than the JSON of
|* the change did).
|*
\*===----------------------------------------------------------------------===*/
#include "lsp_text.h"

#include "fix_plan.h" /* ompdp_line_starts */

#include <stdlib.h>
#include <string.h>

const char *lsp_encoding_name(lsp_encoding_t enc) {
  switch (enc) {
  case LSP_UTF16:
    return "utf-16";
  case LSP_UTF8:
    return "utf-8";
  case LSP_UTF32:
    return "utf-32";
  }
  return "utf-16";
}

int lsp_text_set(lsp_text_t *t, const char *s, size_t n) {
  char *copy = malloc(n + 1);
  if (!copy)
    return -1;
  memcpy(copy, s, n);
  copy[n] = '\0';
  size_t num;
  /* Lines as LSP counts them ('\n', '\r\n', '\r'), which is clang's way. */
  size_t *lines = ompdp_line_starts(copy, n, &num);
  if (!lines) {
    free(copy);
    return -1;
  }
  lsp_text_free(t);
  t->s = copy;
  t->len = n;
  t->lines = lines;
  t->num_lines = num;
  return 0;
}

void lsp_text_free(lsp_text_t *t) {
  free(t->s);
  free(t->lines);
  memset(t, 0, sizeof(*t));
}

/* The end of line i's text, before its line break. */
static size_t content_end(const lsp_text_t *t, size_t i) {
  return ompdp_line_end(t->s, t->len, t->lines, t->num_lines, i);
}

/* The length of the UTF-8 sequence at s[i] (1 for a byte that starts no
 * valid one) and the code units it counts in enc. */
static size_t sequence(const unsigned char *s, size_t i, size_t end, lsp_encoding_t enc,
                       size_t *units) {
  unsigned char c = s[i];
  size_t n = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3
                                                       : c >= 0xF0 && c <= 0xF4 ? 4 : 1;
  if (n > end - i)
    n = 1;
  for (size_t k = 1; k < n; ++k)
    if ((s[i + k] & 0xC0) != 0x80) {
      n = 1;
      break;
    }
  *units = enc == LSP_UTF8 ? n : enc == LSP_UTF16 && n == 4 ? 2 : 1;
  return n;
}

size_t lsp_text_offset(const lsp_text_t *t, uint64_t line, uint64_t character,
                       lsp_encoding_t enc) {
  if (line >= t->num_lines)
    return t->len;
  size_t i = t->lines[line], end = content_end(t, line);
  uint64_t at = 0;
  const unsigned char *s = (const unsigned char *)t->s;
  while (i < end && at < character) {
    size_t units;
    size_t n = sequence(s, i, end, enc, &units);
    if (at + units > character)
      break; /* inside a character: its start */
    at += units;
    i += n;
  }
  return i;
}

static size_t line_of(const lsp_text_t *t, size_t off) {
  size_t lo = 0, hi = t->num_lines; /* the last line starting at or before off */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (t->lines[mid] <= off)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

void lsp_text_position(const lsp_text_t *t, size_t off, lsp_encoding_t enc, uint32_t *line,
                       uint32_t *character) {
  if (off > t->len)
    off = t->len;
  size_t l = line_of(t, off);
  size_t i = t->lines[l], end = content_end(t, l);
  if (off > end)
    off = end;
  uint64_t at = 0;
  const unsigned char *s = (const unsigned char *)t->s;
  while (i < off) {
    size_t units;
    size_t n = sequence(s, i, end, enc, &units);
    if (i + n > off)
      break;
    at += units;
    i += n;
  }
  *line = (uint32_t)(l > UINT32_MAX ? UINT32_MAX : l);
  *character = (uint32_t)(at > UINT32_MAX ? UINT32_MAX : at);
}

size_t lsp_text_line_end(const lsp_text_t *t, size_t off) {
  if (off > t->len)
    off = t->len;
  return content_end(t, line_of(t, off));
}

int lsp_text_replace(lsp_text_t *t, size_t start, size_t end, const char *s, size_t n) {
  if (end > t->len)
    end = t->len;
  if (start > end)
    start = end;
  size_t len = t->len - (end - start) + n;
  char *out = malloc(len + 1);
  if (!out)
    return -1;
  memcpy(out, t->s, start);
  memcpy(out + start, s, n);
  memcpy(out + start + n, t->s + end, t->len - end);
  out[len] = '\0';
  size_t num;
  size_t *lines = ompdp_line_starts(out, len, &num);
  if (!lines) {
    free(out);
    return -1;
  }
  free(t->s);
  free(t->lines);
  t->s = out;
  t->len = len;
  t->lines = lines;
  t->num_lines = num;
  return 0;
}

void lsp_text_diff(const char *a, size_t alen, const char *b, size_t blen, size_t *start,
                   size_t *old_end, size_t *new_end) {
  size_t p = 0, m = alen < blen ? alen : blen;
  while (p < m && a[p] == b[p])
    ++p;
  size_t s = 0;
  while (s < m - p && a[alen - 1 - s] == b[blen - 1 - s])
    ++s;
  *start = p;
  *old_end = alen - s;
  *new_end = blen - s;
}

int lsp_span_move(lsp_span_t *sp, size_t cs, size_t ce, size_t n, int edges) {
  if (sp->start == sp->end || edges) {
    if ((cs < sp->end && ce > sp->start) || (cs == ce && cs >= sp->start && cs <= sp->end))
      return 0;
  } else if (ce > sp->start && cs < sp->end) {
    return 0;
  }
  if (ce <= sp->start) {
    sp->start = sp->start - (ce - cs) + n;
    sp->end = sp->end - (ce - cs) + n;
  }
  return 1;
}
