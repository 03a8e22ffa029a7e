/*===- lsp_io.c - LSP messages: framing and JSON-RPC ----------------------===*\
|*
|* See lsp_io.h. The reader keeps what it has read in one buffer and looks
|* for the blank line that ends a header; a header it cannot use is skipped
|* up to that blank line (one error), a body too long to keep is read and
|* dropped (one error), so the next message is found either way. Clients
|* write "\r\n"; a bare "\n" is taken too, and blank lines between messages
|* are skipped.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "lsp_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define READ_CHUNK ((size_t)64 << 10)

void lsp_reader_init_fd(lsp_reader_t *r, int fd) {
  memset(r, 0, sizeof(*r));
  r->fd = fd;
}

void lsp_reader_init_mem(lsp_reader_t *r, const char *data, size_t len) {
  memset(r, 0, sizeof(*r));
  r->fd = -1;
  r->mem = data;
  r->mem_len = len;
}

void lsp_reader_free(lsp_reader_t *r) {
  free(r->buf);
  r->buf = NULL;
  r->pos = r->len = r->cap = 0;
}

/* Reads more input into the buffer: 1 when some came, 0 at the end, -1 on
 * an error (errno). */
static int fill(lsp_reader_t *r) {
  if (r->eof)
    return 0;
  if (r->pos && r->pos == r->len)
    r->pos = r->len = 0;
  if (r->pos > r->cap / 2) {
    memmove(r->buf, r->buf + r->pos, r->len - r->pos);
    r->len -= r->pos;
    r->pos = 0;
  }
  if (r->cap - r->len < READ_CHUNK) {
    size_t cap = r->cap ? r->cap : READ_CHUNK;
    while (cap - r->len < READ_CHUNK)
      cap *= 2;
    char *nb = realloc(r->buf, cap);
    if (!nb) {
      errno = ENOMEM;
      return -1;
    }
    r->buf = nb;
    r->cap = cap;
  }
  size_t want = r->cap - r->len;
  if (r->fd < 0) {
    size_t n = r->mem_len - r->mem_pos;
    if (n > want)
      n = want;
    /* The fuzzer's input arrives in pieces of varying size, as a pipe's would. */
    if (n > 1 && r->mem_pos % 7 == 3)
      n = n / 2;
    if (!n) {
      r->eof = 1;
      return 0;
    }
    memcpy(r->buf + r->len, r->mem + r->mem_pos, n);
    r->mem_pos += n;
    r->len += n;
    return 1;
  }
  for (;;) {
    ssize_t got = read(r->fd, r->buf + r->len, want);
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return -1;
    if (got == 0) {
      r->eof = 1;
      return 0;
    }
    r->len += (size_t)got;
    return 1;
  }
}

/* The end of the header block in buf[from..to) (the index after its blank
 * line), or 0 when it has none yet. */
static size_t header_end(const char *buf, size_t from, size_t to) {
  for (size_t i = from; i < to; ++i) {
    if (buf[i] != '\n')
      continue;
    if (i + 1 < to && buf[i + 1] == '\n')
      return i + 2;
    if (i + 2 < to && buf[i + 1] == '\r' && buf[i + 2] == '\n')
      return i + 3;
  }
  return 0;
}

static void set_err(char *err, size_t errlen, const char *fmt, const char *what) {
  snprintf(err, errlen, fmt, what);
}

/* A header value shown in a message: printable, at most 40 bytes. */
static void shown(char *out, size_t size, const char *s, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < n && j + 4 < size; ++i) {
    if (i == 40) {
      memcpy(out + j, "...", 3);
      j += 3;
      break;
    }
    unsigned char c = (unsigned char)s[i];
    out[j++] = c >= 0x20 && c < 0x7F ? (char)c : '?';
  }
  out[j] = '\0';
}

int lsp_parse_header(const char *head, size_t n, size_t *content_length, char *err,
                     size_t errlen) {
  size_t i = 0;
  int have = 0;
  size_t length = 0;
  char show[64];
  while (i < n) {
    size_t e = i;
    while (e < n && head[e] != '\n')
      ++e;
    size_t line_end = e;
    if (line_end > i && head[line_end - 1] == '\r')
      --line_end;
    if (line_end == i) { /* the blank line */
      if (!have) {
        set_err(err, errlen, "%s", "a message header without Content-Length");
        return -1;
      }
      *content_length = length;
      return 0;
    }
    const char *colon = memchr(head + i, ':', line_end - i);
    if (!colon) {
      shown(show, sizeof(show), head + i, line_end - i);
      set_err(err, errlen, "a header line without ':' ('%s')", show);
      return -1;
    }
    size_t name_len = (size_t)(colon - (head + i));
    const char *v = colon + 1;
    const char *ve = head + line_end;
    while (v < ve && (*v == ' ' || *v == '\t'))
      ++v;
    while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t'))
      --ve;
    if (name_len == 14 && !strncasecmp(head + i, "Content-Length", 14)) {
      size_t value = 0;
      int ok = ve > v && ve - v <= 19;
      for (const char *p = v; ok && p < ve; ++p)
        if (*p < '0' || *p > '9')
          ok = 0;
        else
          value = value * 10 + (size_t)(*p - '0');
      if (!ok) {
        shown(show, sizeof(show), v, (size_t)(ve - v));
        set_err(err, errlen, "Content-Length is not a number of bytes ('%s')", show);
        return -1;
      }
      if (have && value != length) {
        set_err(err, errlen, "%s", "two different Content-Length fields");
        return -1;
      }
      have = 1;
      length = value;
    }
    /* Content-Type and fields of later versions: nothing to check (the
     * protocol knows one encoding, UTF-8, which the JSON reader checks). */
    i = e + 1;
  }
  set_err(err, errlen, "%s", "a message header without its blank line");
  return -1;
}

lsp_read_status_t lsp_read(lsp_reader_t *r, char **body, size_t *len, char *err,
                           size_t errlen) {
  *body = NULL;
  *len = 0;
  err[0] = '\0';
  int skipping = 0; /* inside a header too long to keep: drop it up to its end */
  for (;;) {
    /* Blank lines between messages are not a header. */
    while (!skipping && r->pos < r->len && (r->buf[r->pos] == '\r' || r->buf[r->pos] == '\n'))
      ++r->pos;
    size_t end = r->pos < r->len ? header_end(r->buf, r->pos, r->len) : 0;
    if (end && skipping) {
      r->pos = end;
      return LSP_READ_BAD;
    }
    if (!end) {
      if (r->len - r->pos >= LSP_MAX_HEADER) {
        /* Keep the last two bytes: they may start the blank line. */
        r->pos = r->len - 2;
        if (!skipping)
          snprintf(err, errlen, "a message header longer than %d bytes", LSP_MAX_HEADER);
        skipping = 1;
      }
      int got = fill(r);
      if (got < 0)
        return LSP_READ_ERROR;
      if (got == 0) {
        if (skipping) {
          r->pos = r->len;
          return LSP_READ_BAD;
        }
        if (r->pos < r->len) {
          r->pos = r->len;
          snprintf(err, errlen, "the input ended inside a message header");
          return LSP_READ_BAD;
        }
        return LSP_READ_EOF;
      }
      continue;
    }
    size_t length;
    if (end - r->pos > LSP_MAX_HEADER) {
      r->pos = end;
      snprintf(err, errlen, "a message header longer than %d bytes", LSP_MAX_HEADER);
      return LSP_READ_BAD;
    }
    if (lsp_parse_header(r->buf + r->pos, end - r->pos, &length, err, errlen)) {
      r->pos = end;
      return LSP_READ_BAD;
    }
    r->pos = end;
    if (length > LSP_MAX_BODY) {
      /* Read it and drop it, so that the next message is found. */
      size_t left = length;
      while (left) {
        size_t have = r->len - r->pos;
        size_t take = have < left ? have : left;
        r->pos += take;
        left -= take;
        if (left) {
          int got = fill(r);
          if (got < 0)
            return LSP_READ_ERROR;
          if (got == 0)
            break;
        }
      }
      snprintf(err, errlen, "a message of %zu bytes (the limit is %zu); it is skipped", length,
               LSP_MAX_BODY);
      return LSP_READ_BAD;
    }
    while (r->len - r->pos < length) {
      int got = fill(r);
      if (got < 0)
        return LSP_READ_ERROR;
      if (got == 0) {
        snprintf(err, errlen, "the input ended %zu bytes into a message of %zu",
                 r->len - r->pos, length);
        r->pos = r->len;
        return LSP_READ_BAD;
      }
    }
    char *b = malloc(length + 1);
    if (!b) {
      errno = ENOMEM;
      return LSP_READ_ERROR;
    }
    memcpy(b, r->buf + r->pos, length);
    b[length] = '\0';
    r->pos += length;
    *body = b;
    *len = length;
    return LSP_READ_MESSAGE;
  }
}

/*===- JSON-RPC ---------------------------------------------------------------===*/

static void invalid(lsp_message_t *m, int code, const char *why) {
  m->kind = LSP_INVALID;
  m->error_code = code;
  snprintf(m->error, sizeof(m->error), "%s", why);
}

void lsp_message_parse(const char *body, size_t len, lsp_message_t *m) {
  memset(m, 0, sizeof(*m));
  json_error_t je;
  /* JSON_DECODE_ANY: a scalar is valid JSON but no message (an invalid
   * request, not a parse error). Strings with NUL are refused. */
  m->root = json_loadb(body, len, JSON_DECODE_ANY, &je);
  if (!m->root) {
    char why[sizeof(m->error)];
    snprintf(why, sizeof(why), "the message is not JSON: %.100s (at byte %d)", je.text,
             je.position);
    invalid(m, LSP_PARSE_ERROR, why);
    return;
  }
  if (json_is_array(m->root)) {
    invalid(m, LSP_INVALID_REQUEST, "a batch (JSON array) of messages: LSP sends one at a time");
    return;
  }
  if (!json_is_object(m->root)) {
    invalid(m, LSP_INVALID_REQUEST, "a message must be a JSON object");
    return;
  }
  json_t *id = json_object_get(m->root, "id");
  if (id && (json_is_integer(id) || json_is_string(id)))
    m->id = id;
  json_t *version = json_object_get(m->root, "jsonrpc");
  if (!json_is_string(version) || strcmp(json_string_value(version), "2.0")) {
    invalid(m, LSP_INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\"");
    return;
  }
  if (id && !m->id && !json_is_null(id)) {
    invalid(m, LSP_INVALID_REQUEST, "\"id\" must be an integer or a string");
    return;
  }
  json_t *method = json_object_get(m->root, "method");
  if (!method) {
    if (id &&
        (json_object_get(m->root, "result") || json_object_get(m->root, "error"))) {
      m->kind = LSP_RESPONSE;
      return;
    }
    invalid(m, LSP_INVALID_REQUEST, "a message without \"method\" that is not a response");
    return;
  }
  if (!json_is_string(method)) {
    invalid(m, LSP_INVALID_REQUEST, "\"method\" must be a string");
    return;
  }
  if (id && !m->id) { /* "id": null */
    invalid(m, LSP_INVALID_REQUEST, "\"id\" must be an integer or a string");
    return;
  }
  json_t *params = json_object_get(m->root, "params");
  if (params && !json_is_object(params) && !json_is_array(params)) {
    invalid(m, LSP_INVALID_REQUEST, "\"params\" must be an object or an array");
    return;
  }
  m->method = json_string_value(method);
  m->params = params;
  m->kind = m->id ? LSP_REQUEST : LSP_NOTIFICATION;
}

void lsp_message_free(lsp_message_t *m) {
  json_decref(m->root);
  memset(m, 0, sizeof(*m));
}

char *lsp_frame(const char *body, size_t len, size_t *out_len) {
  char head[64];
  int h = snprintf(head, sizeof(head), "Content-Length: %zu\r\n\r\n", len);
  char *out = malloc((size_t)h + len);
  if (!out)
    return NULL;
  memcpy(out, head, (size_t)h);
  memcpy(out + h, body, len);
  *out_len = (size_t)h + len;
  return out;
}

/*===- reading params -----------------------------------------------------------===*/

json_t *lsp_get(json_t *obj, const char *path) {
  char key[64];
  while (obj && *path) {
    const char *dot = strchr(path, '.');
    size_t n = dot ? (size_t)(dot - path) : strlen(path);
    if (n >= sizeof(key) || !json_is_object(obj))
      return NULL;
    memcpy(key, path, n);
    key[n] = '\0';
    obj = json_object_get(obj, key);
    path += n + (dot != NULL);
  }
  return obj;
}

const char *lsp_get_string(json_t *obj, const char *path) {
  json_t *v = lsp_get(obj, path);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

int lsp_get_int(json_t *obj, const char *path, int64_t lo, int64_t hi, int64_t *v) {
  json_t *j = lsp_get(obj, path);
  if (!json_is_integer(j))
    return 0;
  json_int_t x = json_integer_value(j);
  if (x < lo || x > hi)
    return 0;
  *v = (int64_t)x;
  return 1;
}
