/*===- lsp_text.h - open documents: text, positions, changes --*- C -*-===*\
|*
|* An editor names places in a document by line and character, counting
|* characters in UTF-16 code units unless both sides agree on UTF-8 or
|* UTF-32 (LSP 3.17 positionEncoding); ompdp's reports count bytes. This
|* file converts between the two on the text as the editor has it now,
|* applies the changes the editor sends (a range and its new text, or the
|* whole text), and moves byte spans (a finding's map item, a rewrite's
|* edit) over each change: a span before or after the change moves with the
|* text, one whose bytes the change touched is reported as touched.
|*
|* Any position a client sends is taken: one past the end of a line means
|* the end of the line, one past the last line the end of the text, one
|* inside a character its start. Text that is not valid UTF-8 (a file read
|* from disk) counts one unit per byte that is not part of a valid sequence.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_LSP_TEXT_H
#define OMPDP_LSP_TEXT_H

#include <stddef.h>
#include <stdint.h>

typedef enum lsp_encoding { LSP_UTF16, LSP_UTF8, LSP_UTF32 } lsp_encoding_t;

/* "utf-16", "utf-8", "utf-32". */
const char *lsp_encoding_name(lsp_encoding_t enc);

typedef struct lsp_text {
  char *s; /* len bytes and a NUL */
  size_t len;
  size_t *lines; /* start of each line: after "\n", "\r\n" or a lone "\r" */
  size_t num_lines;
} lsp_text_t;

/* Copies s[0..n) into t (which is replaced). 0, or -1 when out of memory
 * (t is then unchanged). */
int lsp_text_set(lsp_text_t *t, const char *s, size_t n);
void lsp_text_free(lsp_text_t *t);

/* The byte offset of an editor position. */
size_t lsp_text_offset(const lsp_text_t *t, uint64_t line, uint64_t character,
                       lsp_encoding_t enc);
/* The editor position of byte offset off. */
void lsp_text_position(const lsp_text_t *t, size_t off, lsp_encoding_t enc, uint32_t *line,
                       uint32_t *character);
/* The end of the line that off is on (before its line break). */
size_t lsp_text_line_end(const lsp_text_t *t, size_t off);

/* Replaces bytes [start, end) with s[0..n). 0, or -1 when out of memory (t
 * is then unchanged). */
int lsp_text_replace(lsp_text_t *t, size_t start, size_t end, const char *s, size_t n);

/* The one change that turns a into b: b keeps a's first *start bytes and
 * its bytes from *old_end on, which are b's from *new_end on. */
void lsp_text_diff(const char *a, size_t alen, const char *b, size_t blen, size_t *start,
                   size_t *old_end, size_t *new_end);

/* A byte span of a document. */
typedef struct lsp_span {
  size_t start, end;
} lsp_span_t;

/* Moves sp over a change that replaced [cs, ce) with n bytes: 1 when the
 * change was before or after it (sp moved with the text or stayed), 0 when
 * it touched the span's bytes (sp is then unchanged). An empty span is an
 * insertion point: an insertion right at it touches it. With edges, so
 * does an insertion right at either end of a span (the edits of a
 * rewrite: the text it was applied as may keep the old text at one end,
 * and a client's change then looks like an insertion next to it). */
int lsp_span_move(lsp_span_t *sp, size_t cs, size_t ce, size_t n, int edges);

#endif /* OMPDP_LSP_TEXT_H */
