/*===- test_lsp.c - the language server's reader and documents -----*- C -*-===*\
|*
|* The parts of `ompdp lsp` that lit sessions reach only through a client:
|* headers and framing (driver/lsp_io.c) on good and broken input,
|* JSON-RPC kinds, and documents (driver/lsp_text.c): positions in UTF-16,
|* UTF-8 and UTF-32 around characters of 2, 3 and 4 bytes and every kind of
|* line break, clamping, changes, and spans moved over changes.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "lsp_io.h"
#include "lsp_text.h"

#include <stdlib.h>
#include <string.h>

static int header(const char *h, size_t *len) {
  char err[200];
  return lsp_parse_header(h, strlen(h), len, err, sizeof(err));
}

static void test_headers(void) {
  size_t n = 0;
  CHECK(header("Content-Length: 12\r\n\r\n", &n) == 0 && n == 12);
  CHECK(header("content-length:7\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n",
               &n) == 0 && n == 7);
  CHECK(header("Content-Length: 3\n\n", &n) == 0 && n == 3);
  CHECK(header("Content-Length: 3\r\nContent-Length: 3\r\n\r\n", &n) == 0 && n == 3);
  CHECK(header("Content-Length: 3\r\nContent-Length: 4\r\n\r\n", &n) != 0);
  CHECK(header("Content-Type: x\r\n\r\n", &n) != 0);
  CHECK(header("Content-Length: -1\r\n\r\n", &n) != 0);
  CHECK(header("Content-Length: 1e3\r\n\r\n", &n) != 0);
  CHECK(header("Content-Length: 99999999999999999999\r\n\r\n", &n) != 0);
  CHECK(header("Content-Length\r\n\r\n", &n) != 0);
}

static lsp_read_status_t next(lsp_reader_t *r, char **body, size_t *len) {
  char err[200];
  lsp_read_status_t st = lsp_read(r, body, len, err, sizeof(err));
  if (st == LSP_READ_BAD)
    CHECK(err[0] && !strchr(err, '\n')); /* one line saying why */
  return st;
}

static void test_framing(void) {
  static const char in[] = "\r\nContent-Length: 2\r\n\r\n{}"
                           "Content-Length: 5\r\n\r\n[1,2]"
                           "bogus\r\n\r\n"
                           "Content-Length: 4\r\n\r\nnull"
                           "Content-Length: 99\r\n\r\n{\"cut";
  lsp_reader_t r;
  lsp_reader_init_mem(&r, in, sizeof(in) - 1);
  char *b;
  size_t n;
  CHECK(next(&r, &b, &n) == LSP_READ_MESSAGE && n == 2 && !strcmp(b, "{}"));
  free(b);
  CHECK(next(&r, &b, &n) == LSP_READ_MESSAGE && n == 5 && !strcmp(b, "[1,2]"));
  free(b);
  CHECK(next(&r, &b, &n) == LSP_READ_BAD); /* no ':' */
  CHECK(next(&r, &b, &n) == LSP_READ_MESSAGE && !strcmp(b, "null"));
  free(b);
  CHECK(next(&r, &b, &n) == LSP_READ_BAD); /* the input ended in the body */
  CHECK(next(&r, &b, &n) == LSP_READ_EOF);
  lsp_reader_free(&r);

  /* A header too long to keep is skipped to its end; the next one reads. */
  size_t big = LSP_MAX_HEADER * 3;
  char *long_in = malloc(big + 64);
  memset(long_in, 'x', big);
  strcpy(long_in + big, "\r\n\r\nContent-Length: 2\r\n\r\n{}");
  lsp_reader_init_mem(&r, long_in, strlen(long_in));
  CHECK(next(&r, &b, &n) == LSP_READ_BAD);
  CHECK(next(&r, &b, &n) == LSP_READ_MESSAGE && !strcmp(b, "{}"));
  free(b);
  CHECK(next(&r, &b, &n) == LSP_READ_EOF);
  lsp_reader_free(&r);
  free(long_in);

  /* A body over the limit is skipped whole (here cut short by the end). */
  static const char huge[] = "Content-Length: 900000000\r\n\r\n{}";
  lsp_reader_init_mem(&r, huge, sizeof(huge) - 1);
  CHECK(next(&r, &b, &n) == LSP_READ_BAD);
  CHECK(next(&r, &b, &n) == LSP_READ_EOF);
  lsp_reader_free(&r);
}

static lsp_kind_t kind(const char *body, int *code) {
  lsp_message_t m;
  lsp_message_parse(body, strlen(body), &m);
  lsp_kind_t k = m.kind;
  *code = m.error_code;
  lsp_message_free(&m);
  return k;
}

static void test_messages(void) {
  int code;
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"x\",\"params\":{}}", &code) == LSP_REQUEST);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"x\"}", &code) == LSP_REQUEST);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":[]}", &code) == LSP_NOTIFICATION);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"id\":4,\"result\":null}", &code) == LSP_RESPONSE);
  CHECK(kind("{oops", &code) == LSP_INVALID && code == LSP_PARSE_ERROR);
  CHECK(kind("[1]", &code) == LSP_INVALID && code == LSP_INVALID_REQUEST);
  CHECK(kind("7", &code) == LSP_INVALID && code == LSP_INVALID_REQUEST);
  CHECK(kind("{\"id\":1,\"method\":\"x\"}", &code) == LSP_INVALID && code == LSP_INVALID_REQUEST);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}", &code) == LSP_INVALID);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}", &code) == LSP_INVALID);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"method\":3}", &code) == LSP_INVALID);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":3}", &code) == LSP_INVALID);
  CHECK(kind("{\"jsonrpc\":\"2.0\",\"method\":\"a\\u0000b\"}", &code) == LSP_INVALID &&
        code == LSP_PARSE_ERROR);
}

/* Byte offset <-> position, both ways, at (line, ch) in enc. */
static void round_trip(const lsp_text_t *t, uint32_t line, uint32_t ch, lsp_encoding_t enc,
                       size_t off) {
  CHECK_EQ_U64(lsp_text_offset(t, line, ch, enc), off);
  uint32_t l, c;
  lsp_text_position(t, off, enc, &l, &c);
  CHECK_EQ_U64(l, line);
  CHECK_EQ_U64(c, ch);
}

static void test_positions(void) {
  lsp_text_t t = {0};
  /* "é" 2 bytes, "✓" 3, "😀" 4 (a surrogate pair in UTF-16). */
  static const char s[] = "a\xc3\xa9\xe2\x9c\x93\xf0\x9f\x98\x80z\r\nx\ry\n";
  CHECK(lsp_text_set(&t, s, sizeof(s) - 1) == 0);
  CHECK_EQ_U64(t.num_lines, 4); /* "\r\n", a lone "\r", "\n", and the empty last line */
  round_trip(&t, 0, 5, LSP_UTF16, 10); /* z: a, é, ✓, two units for 😀 */
  round_trip(&t, 0, 10, LSP_UTF8, 10);
  round_trip(&t, 0, 4, LSP_UTF32, 10);
  round_trip(&t, 0, 3, LSP_UTF16, 6); /* before 😀 */
  CHECK_EQ_U64(lsp_text_offset(&t, 0, 4, LSP_UTF16), 6);  /* inside the pair: its start */
  CHECK_EQ_U64(lsp_text_offset(&t, 0, 99, LSP_UTF16), 11); /* past the end: the line's end */
  CHECK_EQ_U64(lsp_text_offset(&t, 99, 0, LSP_UTF16), t.len); /* past the last line */
  round_trip(&t, 1, 0, LSP_UTF16, 13);
  round_trip(&t, 2, 0, LSP_UTF16, 15);
  round_trip(&t, 3, 0, LSP_UTF16, 17);
  uint32_t l, c;
  lsp_text_position(&t, 12, LSP_UTF16, &l, &c); /* between "\r" and "\n": the line's end */
  CHECK(l == 0 && c == 6);
  lsp_text_position(&t, 8, LSP_UTF8, &l, &c); /* inside 😀: its start */
  CHECK(l == 0 && c == 6);
  CHECK_EQ_U64(lsp_text_line_end(&t, 2), 11);

  /* Bytes that are not UTF-8 count one unit each. */
  static const char bad[] = "\xff\xc3(\xf0\x9f!";
  CHECK(lsp_text_set(&t, bad, sizeof(bad) - 1) == 0);
  round_trip(&t, 0, 5, LSP_UTF16, 5);

  CHECK(lsp_text_set(&t, "hello\nworld\n", 12) == 0);
  CHECK(lsp_text_replace(&t, 6, 11, "there", 5) == 0 && !strcmp(t.s, "hello\nthere\n"));
  CHECK(lsp_text_replace(&t, 0, 0, "// x\n", 5) == 0 && t.num_lines == 4);
  CHECK(lsp_text_replace(&t, 100, 200, "!", 1) == 0 && t.s[t.len - 1] == '!');
  lsp_text_free(&t);

  size_t a, b, e;
  lsp_text_diff("abcdef", 6, "abXYdef", 7, &a, &b, &e);
  CHECK(a == 2 && b == 3 && e == 4); /* "c" became "XY" */
  lsp_text_diff("aaaa", 4, "aaaaaa", 6, &a, &b, &e);
  CHECK(a == 4 && b == 4 && e == 6); /* an insertion at the end */
  lsp_text_diff("same", 4, "same", 4, &a, &b, &e);
  CHECK(a == 4 && b == 4 && e == 4);
}

static void test_spans(void) {
  lsp_span_t s = {10, 15};
  CHECK(lsp_span_move(&s, 0, 0, 3, 0) && s.start == 13 && s.end == 18); /* before */
  CHECK(lsp_span_move(&s, 20, 22, 0, 0) && s.start == 13);               /* after */
  CHECK(lsp_span_move(&s, 13, 13, 2, 0) && s.start == 15);               /* at its start */
  CHECK(lsp_span_move(&s, 20, 20, 2, 0) && s.end == 20);                 /* at its end */
  CHECK(!lsp_span_move(&s, 16, 17, 0, 0) && s.start == 15);              /* inside */
  CHECK(!lsp_span_move(&s, 10, 16, 0, 0));                               /* over its start */
  CHECK(!lsp_span_move(&s, 15, 15, 2, 1));                               /* edges: at its start */
  CHECK(!lsp_span_move(&s, 20, 20, 2, 1));                               /* edges: at its end */
  CHECK(lsp_span_move(&s, 12, 15, 0, 1) && s.start == 12);               /* a deletion right before */
  lsp_span_t p = {5, 5};
  CHECK(!lsp_span_move(&p, 5, 5, 1, 0)); /* an insertion point: an insertion there */
  CHECK(lsp_span_move(&p, 5, 7, 0, 0) && p.start == 5);
  CHECK(!lsp_span_move(&p, 4, 6, 0, 0));
}

int main(void) {
  test_headers();
  test_framing();
  test_messages();
  test_positions();
  test_spans();
  return CHECK_DONE();
}
