/*===- lsp_io.h - LSP messages: framing and JSON-RPC -----------*- C -*-===*\
|*
|* The wire of `ompdp lsp` (driver/lsp.c): messages framed as the Language
|* Server Protocol frames them (a header of "Name: value\r\n" fields, a blank
|* line, then Content-Length bytes of JSON), decoded into JSON-RPC 2.0
|* requests, notifications and responses with jansson, and written back the
|* same way.
|*
|* Everything here must take any bytes a client (or something pretending to
|* be one) sends: a header that is too long, a missing, repeated or
|* non-numeric Content-Length, a body that is not JSON, JSON that is not a
|* message. Each is one error the server can answer, after which the reader
|* finds the next header; nothing makes the server stop but the end of its
|* input. fuzz/fuzz_lsp.c checks that.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_LSP_IO_H
#define OMPDP_LSP_IO_H

#include <jansson.h>

#include <stddef.h>
#include <stdint.h>

/* A header block may hold at most this many bytes (with its blank line). */
#define LSP_MAX_HEADER 8192
/* A body may hold at most this many bytes; a longer one is skipped whole. */
#define LSP_MAX_BODY ((size_t)64 << 20)

/* What one call of lsp_read() found. */
typedef enum lsp_read_status {
  LSP_READ_MESSAGE, /* *body holds Content-Length bytes (NUL-terminated) */
  LSP_READ_BAD,     /* a framing error, said in err; the bytes were skipped */
  LSP_READ_EOF,     /* the input ended (a message cut short is LSP_READ_BAD first) */
  LSP_READ_ERROR,   /* the input failed (errno), or no memory */
} lsp_read_status_t;

/* Reads framed messages from a file descriptor, or from a buffer
 * (fd < 0: the fuzzer's way in). */
typedef struct lsp_reader {
  int fd;
  const char *mem; /* fd < 0: the input, mem_len bytes */
  size_t mem_len, mem_pos;
  char *buf; /* bytes read and not yet consumed: buf[pos..len) */
  size_t pos, len, cap;
  int eof;
} lsp_reader_t;

void lsp_reader_init_fd(lsp_reader_t *r, int fd);
void lsp_reader_init_mem(lsp_reader_t *r, const char *data, size_t len);
void lsp_reader_free(lsp_reader_t *r);

/* The next message. On LSP_READ_MESSAGE, *body (malloc'd, the caller frees
 * it) holds *len bytes and a NUL after them. On LSP_READ_BAD, err holds a
 * one-line reason and the reader is past the bad bytes. */
lsp_read_status_t lsp_read(lsp_reader_t *r, char **body, size_t *len, char *err,
                           size_t errlen);

/* Parsing a header block, on its own (the reader calls it; the fuzzer and
 * unit tests may too). head[0..n) ends with its blank line. 0 and the
 * length, or -1 and a reason. */
int lsp_parse_header(const char *head, size_t n, size_t *content_length, char *err,
                     size_t errlen);

/* JSON-RPC error codes (JSON-RPC 2.0 and LSP 3.17). */
enum {
  LSP_PARSE_ERROR = -32700,
  LSP_INVALID_REQUEST = -32600,
  LSP_METHOD_NOT_FOUND = -32601,
  LSP_INVALID_PARAMS = -32602,
  LSP_INTERNAL_ERROR = -32603,
  LSP_SERVER_NOT_INITIALIZED = -32002,
  LSP_REQUEST_FAILED = -32803,
};

typedef enum lsp_kind {
  LSP_REQUEST,      /* method and id */
  LSP_NOTIFICATION, /* method, no id */
  LSP_RESPONSE,     /* id and result or error: an answer to a request of ours */
  LSP_INVALID,      /* error_code and error say why; id when one could be read */
} lsp_kind_t;

/* One decoded message. root owns the rest. */
typedef struct lsp_message {
  lsp_kind_t kind;
  json_t *root;
  const char *method;
  json_t *id;     /* integer or string; NULL when there is none */
  json_t *params; /* object or array; NULL when absent */
  int error_code;
  char error[160];
} lsp_message_t;

/* Decodes body[0..len) (any bytes). Always fills m; free it with
 * lsp_message_free. */
void lsp_message_parse(const char *body, size_t len, lsp_message_t *m);
void lsp_message_free(lsp_message_t *m);

/* Frames body as one message into a malloc'd buffer ("Content-Length: N
 * \r\n\r\n" + body); NULL when out of memory. */
char *lsp_frame(const char *body, size_t len, size_t *out_len);

/* Members of params, or NULL when absent or of another type. path is
 * dot-separated ("textDocument.uri"); no member name has a dot. */
json_t *lsp_get(json_t *obj, const char *path);
const char *lsp_get_string(json_t *obj, const char *path);
/* 1 and *v when the member is an integer within [lo, hi]. */
int lsp_get_int(json_t *obj, const char *path, int64_t lo, int64_t hi, int64_t *v);

#endif /* OMPDP_LSP_IO_H */
