/*===- json_load.c - jansson, as a report needs it -----------------*- C -*-===*\
|*
|* Reports are parsed by jansson (libjansson-dev). Two things they need that
|* jansson does not do are done first, in one pass over the text that
|* copies it for jansson (prepare()):
|*   - integers beyond int64: counts, bytes and times are uint64, jansson's
|*     integers int64. Each integer token of 19 or more digits is kept
|*     aside and replaced by 10^18 + its index, padded with blanks to its
|*     own length (no smaller integer has 19 digits, and positions in the
|*     text do not move);
|*   - strings as the writer makes them: invalid UTF-8 and lone surrogates
|*     become U+FFFD, and U+0000 is refused (the model holds C strings),
|*     with the reason and position of the first bad byte.
|* jansson's own errors are worded as this reader's: "invalid JSON at line
|* L, column C: ...", counted in the text as given.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strtod_l, newlocale */
#include "json_load.h"
#include "json_scan.h"
#include "report.h"

#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Integer tokens of this many digits are kept aside (INT64_MAX has 19). */
#define BIG_DIGITS 19
/* Longest fraction or exponent a report may hold. */
#define MAX_REAL_CHARS 400

/*===- errors --------------------------------------------------------------------===*/

/* The reason, and where in the report it is: " (at findings[3].count)"
 * while a member is being read (none for a syntax error, which says its
 * line and column). */
static int fail_v(ompdp_json_doc_t *r, int with_path, const char *fmt, va_list ap) {
  if (r->failed)
    return -1;
  r->failed = 1;
  if (r->err && r->errlen) {
    vsnprintf(r->err, r->errlen, fmt, ap);
    size_t n = strlen(r->err);
    if (with_path && r->path_len && n < r->errlen)
      snprintf(r->err + n, r->errlen - n, " (at %s)", r->path);
  }
  return -1;
}

int ompdp_json_fail(ompdp_json_doc_t *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fail_v(r, 1, fmt, ap);
  va_end(ap);
  return -1;
}

/*===- the path of what is read ----------------------------------------------===*/

/* Appends text to the path; a path too long for it ends in "...". */
static void path_put(ompdp_json_doc_t *r, const char *text) {
  if (r->path_len > sizeof(r->path) - 4)
    return; /* already cut */
  size_t n = strlen(text), room = sizeof(r->path) - 4 - r->path_len;
  if (n > room) {
    memcpy(r->path + r->path_len, text, room);
    memcpy(r->path + r->path_len + room, "...", 4);
    r->path_len = sizeof(r->path) - 1;
    return;
  }
  memcpy(r->path + r->path_len, text, n + 1);
  r->path_len += n;
}

void ompdp_json_path_cut(ompdp_json_doc_t *r, size_t len) {
  if (len < sizeof(r->path)) {
    r->path_len = len;
    r->path[len] = '\0';
  }
}

void ompdp_json_path_key(ompdp_json_doc_t *r, size_t base, const char *key) {
  char shown[64];
  ompdp_json_path_cut(r, base);
  if (r->path_len)
    path_put(r, ".");
  path_put(r, ompdp_json_printable(shown, sizeof(shown), key));
}

void ompdp_json_path_index(ompdp_json_doc_t *r, size_t base, size_t i) {
  char idx[32];
  snprintf(idx, sizeof(idx), "[%zu]", i);
  ompdp_json_path_cut(r, base);
  path_put(r, idx);
}

/* "invalid JSON at line L, column C: msg" for byte offset at of the text. */
int ompdp_json_fail_at(ompdp_json_doc_t *r, size_t at, const char *fmt, ...) {
  size_t line = 1, col = 1;
  for (size_t i = 0; i < at && i < r->n; ++i) {
    if (r->text[i] == '\n') {
      ++line;
      col = 1;
    } else {
      ++col;
    }
  }
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return ompdp_json_fail_plain(r, "invalid JSON at line %zu, column %zu: %s", line, col, msg);
}

int ompdp_json_fail_plain(ompdp_json_doc_t *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fail_v(r, 0, fmt, ap);
  va_end(ap);
  return -1;
}

static int oom(ompdp_json_doc_t *r) { return ompdp_json_fail_plain(r, "out of memory"); }

/* Copies an untrusted string for an error message: printable ASCII only,
 * and short, so the reason stays one line. */
const char *ompdp_json_printable(char *buf, size_t size, const char *s) {
  size_t j = 0;
  for (size_t i = 0; s[i] && j + 4 < size; ++i) {
    unsigned char c = (unsigned char)s[i];
    buf[j++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    if (i >= 40) {
      memcpy(buf + j, "...", 3);
      j += 3;
      break;
    }
  }
  buf[j] = '\0';
  return buf;
}

/*===- before jansson: big integers and strings -------------------------------------===*/

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* The four hex digits at text[at..]: their value, or -1 with the reason. */
int64_t ompdp_json_hex4(ompdp_json_doc_t *r, size_t at) {
  if (r->n - at < 4)
    return ompdp_json_fail_at(r, at, "unexpected end of input in a \\u escape");
  uint32_t v = 0;
  for (size_t i = 0; i < 4; ++i) {
    char c = r->text[at + i];
    v <<= 4;
    if (is_digit(c))
      v |= (uint32_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (uint32_t)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (uint32_t)(c - 'A' + 10);
    else
      return ompdp_json_fail_at(r, at + i, "invalid hex digit in a \\u escape");
  }
  return v;
}

/* Copies the string at *pos (its '"') into r->copy, as jansson may read
 * it, and moves *pos past it. */
static int prepare_string(ompdp_json_doc_t *r, size_t *pos) {
  size_t start = *pos, p = start + 1;
  ompdp_sb_putn(&r->copy, "\"", 1);
  for (;;) {
    if (p >= r->n)
      return ompdp_json_fail_at(r, start, "unterminated string");
    unsigned char c = (unsigned char)r->text[p];
    if (c == '"')
      break;
    if (c < 0x20)
      return ompdp_json_fail_at(r, p, "control character 0x%02x in a string", c);
    if (c == '\\') {
      if (p + 1 >= r->n)
        return ompdp_json_fail_at(r, start, "unterminated string");
      char e = r->text[p + 1];
      if (e != 'u') {
        if (!strchr("\"\\/bfnrt", e))
          return ompdp_json_fail_at(r, p, "invalid escape in a string");
        ompdp_sb_putn(&r->copy, r->text + p, 2);
        p += 2;
        continue;
      }
      int64_t cp = ompdp_json_hex4(r, p + 2);
      if (cp < 0)
        return -1;
      if (cp == 0)
        return ompdp_json_fail_at(r, p, "\\u0000 is not allowed in a report string");
      if (cp >= 0xD800 && cp <= 0xDBFF && r->n - p >= 12 && r->text[p + 6] == '\\' &&
          r->text[p + 7] == 'u') {
        int64_t lo = ompdp_json_hex4(r, p + 8);
        if (lo < 0)
          return -1;
        if (lo >= 0xDC00 && lo <= 0xDFFF) { /* a pair: jansson joins it */
          ompdp_sb_putn(&r->copy, r->text + p, 12);
          p += 12;
          continue;
        }
      }
      /* A lone surrogate becomes U+FFFD, in as many bytes. */
      if (cp >= 0xD800 && cp <= 0xDFFF)
        ompdp_sb_puts(&r->copy, "\\uFFFD");
      else
        ompdp_sb_putn(&r->copy, r->text + p, 6);
      p += 6;
      continue;
    }
    if (c < 0x80) { /* a run of plain bytes, copied at once */
      size_t q = p + 1;
      while (q < r->n && (unsigned char)r->text[q] >= 0x20 && (unsigned char)r->text[q] < 0x80 &&
             r->text[q] != '"' && r->text[q] != '\\')
        ++q;
      ompdp_sb_putn(&r->copy, r->text + p, q - p);
      p = q;
      continue;
    }
    size_t len = ompdp_utf8_len((const unsigned char *)r->text + p, r->n - p);
    if (len) {
      ompdp_sb_putn(&r->copy, r->text + p, len);
      p += len;
      continue;
    }
    /* An invalid byte: U+FFFD, two bytes longer (remembered, so that
     * jansson's positions map back to the text). */
    if (r->num_grown == r->cap_grown) {
      size_t cap = r->cap_grown ? r->cap_grown * 2 : 16;
      size_t *g = realloc(r->grown, cap * sizeof(*g));
      if (!g)
        return oom(r);
      r->grown = g;
      r->cap_grown = cap;
    }
    r->grown[r->num_grown++] = r->copy.len;
    ompdp_sb_puts(&r->copy, "\xEF\xBF\xBD");
    ++p;
  }
  ompdp_sb_putn(&r->copy, "\"", 1);
  *pos = p + 1;
  return 0;
}

/* Copies the number-like token at *pos: an integer of BIG_DIGITS digits or
 * more becomes a placeholder (the header's comment). */
static int prepare_number(ompdp_json_doc_t *r, size_t *pos) {
  ompdp_js_t sc = {r, *pos, r->n};
  ompdp_json_num_t num;
  int is_int;
  size_t at = *pos;
  if (ompdp_js_number(&sc, &is_int, &num, NULL))
    return -1;
  size_t p = sc.pos, digits = p - at - (size_t)num.neg;
  size_t len = p - at;
  *pos = p;
  /* No number in a report needs more digits than this; a longer one is
   * junk (and would cost strtod its time). */
  if (!is_int && len > MAX_REAL_CHARS)
    return ompdp_json_fail_at(r, at, "a number has too many digits (more than %d)", MAX_REAL_CHARS);
  if (!is_int || digits < BIG_DIGITS) {
    ompdp_sb_putn(&r->copy, r->text + at, len);
    return 0;
  }
  if (r->num_bigs == r->cap_bigs) {
    size_t cap = r->cap_bigs ? r->cap_bigs * 2 : 8;
    ompdp_json_big_t *b = realloc(r->bigs, cap * sizeof(*b));
    if (!b)
      return oom(r);
    r->bigs = b;
    r->cap_bigs = cap;
  }
  r->bigs[r->num_bigs] = (ompdp_json_big_t){at, len};
  char ph[32];
  int n = snprintf(ph, sizeof(ph), "%lld", OMPDP_JSON_BIG_BASE + (long long)r->num_bigs++);
  ompdp_sb_putn(&r->copy, ph, (size_t)n);
  for (size_t i = (size_t)n; i < len; ++i)
    ompdp_sb_putn(&r->copy, " ", 1);
  return 0;
}

/* The top-level member whose key ends at *pos (past its closing quote), to
 * be read in place (span k): its value is checked here (json_scan.c) and
 * stands in the copy as a placeholder. */
static int skip_value(ompdp_json_doc_t *r, size_t *pos, int k, const char *name) {
  ompdp_json_span_t *sp = &r->spans[k];
  ompdp_js_t sc = {r, *pos, r->n};
  ompdp_js_peek(&sc);
  if (sc.pos >= r->n || r->text[sc.pos] != ':')
    return 0; /* not a member: jansson says what it is */
  ++sc.pos;
  ompdp_js_peek(&sc);
  /* Findings that are not an array go to jansson, and the reader says so. */
  if (k == OMPDP_JSON_SPAN_FINDINGS && (sc.pos >= r->n || r->text[sc.pos] != '['))
    return 0;
  if (sp->present)
    return ompdp_json_fail_at(r, *pos - strlen(name) - 2, "member \"%s\" appears twice", name);
  ompdp_sb_putn(&r->copy, r->text + *pos, sc.pos - *pos);
  size_t at = sc.pos;
  if (ompdp_js_skip(&sc, 1))
    return -1;
  const char *ph = k == OMPDP_JSON_SPAN_TIMELINE ? "null" : "[]";
  *sp = (ompdp_json_span_t){1, at, sc.pos - at, r->copy.len, strlen(ph)};
  ompdp_sb_puts(&r->copy, ph);
  *pos = sc.pos;
  return 0;
}

static int prepare(ompdp_json_doc_t *r, size_t start) {
  size_t p = start;
  unsigned depth = 0; /* of objects and arrays, outside strings */
  while (p < r->n && !r->failed) {
    char c = r->text[p];
    if (c == '"') {
      size_t at = p;
      if (prepare_string(r, &p))
        return -1;
      static const char *const InPlace[OMPDP_JSON_SPANS] = {"timeline", "findings"};
      for (int k = 0; depth == 1 && !r->part && k < OMPDP_JSON_SPANS; ++k)
        if (p - at == strlen(InPlace[k]) + 2 && !memcmp(r->text + at + 1, InPlace[k], p - at - 2) &&
            skip_value(r, &p, k, InPlace[k]))
          return -1;
    } else if (c == '-' || is_digit(c)) {
      if (prepare_number(r, &p))
        return -1;
    } else {
      size_t q = p;
      while (q < r->n && r->text[q] != '"' && r->text[q] != '-' && !is_digit(r->text[q]) &&
             r->text[q])
        ++q;
      /* jansson would stop at a NUL byte as at the end of the text. */
      if (q < r->n && !r->text[q])
        return ompdp_json_fail_at(r, q, "unexpected byte 0x00");
      for (size_t i = p; i < q; ++i)
        depth += r->text[i] == '{' || r->text[i] == '[' ? 1u
                 : (r->text[i] == '}' || r->text[i] == ']') && depth ? (unsigned)-1
                                                                      : 0u;
      ompdp_sb_putn(&r->copy, r->text + p, q - p);
      p = q;
    }
  }
  return r->copy.oom ? oom(r) : r->failed ? -1 : 0;
}

/* The offset in the text of offset at of the copy. */
static size_t text_offset(const ompdp_json_doc_t *r, size_t at) {
  int64_t t = (int64_t)at;
  for (size_t i = 0; i < r->num_grown && r->grown[i] < at; ++i)
    t -= 2;
  /* Values read in place stand as placeholders in the copy. */
  for (int k = 0; k < OMPDP_JSON_SPANS; ++k)
    if (r->spans[k].present && at >= r->spans[k].copy_at + r->spans[k].copy_len)
      t += (int64_t)r->spans[k].len - (int64_t)r->spans[k].copy_len;
  return t > 0 ? (size_t)t : 0;
}

/* jansson's reason, in the words of this reader. */
static int parse_error(ompdp_json_doc_t *r, size_t start, const json_error_t *e) {
  /* "<what> near '<token>'" or "<what> near end of file": where the token
   * begins is the place to show. */
  char what[JSON_ERROR_TEXT_LENGTH], token[JSON_ERROR_TEXT_LENGTH] = "";
  snprintf(what, sizeof(what), "%s", e->text);
  char *near = strstr(what, " near ");
  size_t at = e->position > 0 ? (size_t)e->position : 0;
  if (near) {
    *near = '\0';
    const char *t = near + 6;
    if (t[0] == '\'') {
      snprintf(token, sizeof(token), "%s", t + 1);
      size_t tl = strlen(token);
      if (tl && token[tl - 1] == '\'')
        token[--tl] = '\0';
      at = at >= tl ? at - tl : 0;
    }
  }
  at = start + text_offset(r, at);
  char shown[64];
  ompdp_json_printable(shown, sizeof(shown), token);
  switch (json_error_code(e)) {
  case json_error_premature_end_of_input:
    return ompdp_json_fail_at(r, at, "unexpected end of input (%s)", what);
  case json_error_end_of_input_expected:
    return ompdp_json_fail_at(r, at, "unexpected data after the report");
  case json_error_duplicate_key:
    return ompdp_json_fail_at(r, at, "member %s appears twice", shown);
  case json_error_numeric_overflow:
    return ompdp_json_fail_at(r, at, "the number %s is out of range", shown);
  case json_error_stack_overflow:
    return ompdp_json_fail_at(r, at, "nesting deeper than the parser allows");
  case json_error_out_of_memory:
    return oom(r);
  default:
    if (!strcmp(what, "string or '}' expected"))
      return ompdp_json_fail_at(r, at, "unexpected '%s' (expected a member name)", shown);
    if (!strcmp(what, "']' expected"))
      return ompdp_json_fail_at(r, at, "unexpected '%s' (expected ',' or ']')", shown);
    if (!strcmp(what, "'}' expected"))
      return ompdp_json_fail_at(r, at, "unexpected '%s' (expected ',' or '}')", shown);
    return ompdp_json_fail_at(r, at, "%s%s%s", what, token[0] ? " near " : "", shown);
  }
}

int ompdp_json_load(ompdp_json_doc_t *r, size_t start, json_t **out) {
  *out = NULL;
  if (prepare(r, start))
    return -1;
  json_error_t e;
  *out = json_loadb(r->copy.d ? r->copy.d : "", r->copy.len, JSON_REJECT_DUPLICATES, &e);
  return *out ? 0 : parse_error(r, start, &e);
}

int ompdp_json_load_part(ompdp_json_doc_t *d, size_t at, size_t end, ompdp_json_doc_t *part,
                         json_t **out) {
  memset(part, 0, sizeof(*part));
  part->text = d->text;
  part->n = end;
  part->err = d->err;
  part->errlen = d->errlen;
  part->part = 1;
  memcpy(part->path, d->path, sizeof(part->path));
  part->path_len = d->path_len;
  int rc = ompdp_json_load(part, at, out);
  d->failed |= part->failed;
  return rc;
}

const ompdp_json_big_t *ompdp_json_big(const ompdp_json_doc_t *r, const json_t *v) {
  if (!json_is_integer(v))
    return NULL;
  json_int_t x = json_integer_value(v);
  if (x < OMPDP_JSON_BIG_BASE || (uint64_t)(x - OMPDP_JSON_BIG_BASE) >= r->num_bigs)
    return NULL;
  return &r->bigs[x - OMPDP_JSON_BIG_BASE];
}

void ompdp_json_doc_free(ompdp_json_doc_t *r) {
  free(r->copy.d);
  free(r->bigs);
  free(r->grown);
  r->copy.d = NULL;
  r->bigs = NULL;
  r->grown = NULL;
}

/*===- typed values ------------------------------------------------------------===*/

/* v as an integer: 1 and *n, 0 if v is a number but not an integer, -1 if
 * v is no number. */
int ompdp_json_as_int(const ompdp_json_doc_t *r, const json_t *v, ompdp_json_num_t *n) {
  memset(n, 0, sizeof(*n));
  if (json_is_real(v))
    return 0;
  if (!json_is_integer(v))
    return -1;
  const ompdp_json_big_t *b = ompdp_json_big(r, v);
  if (b) {
    const char *s = r->text + b->at;
    size_t i = 0;
    n->neg = s[0] == '-';
    for (i = (size_t)n->neg; i < b->len; ++i) {
      unsigned d = (unsigned)(s[i] - '0');
      if (n->mag > (UINT64_MAX - d) / 10)
        n->overflow = 1;
      else
        n->mag = n->mag * 10 + d;
    }
    return 1;
  }
  json_int_t x = json_integer_value(v);
  n->neg = x < 0;
  n->mag = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
  return 1;
}

int ompdp_json_get_u64(ompdp_json_doc_t *r, const char *name, const json_t *v, uint64_t max,
                   uint64_t *out) {
  ompdp_json_num_t n;
  if (ompdp_json_as_int(r, v, &n) <= 0 || (n.neg && n.mag != 0))
    return ompdp_json_fail(r, "\"%s\" must be a non-negative integer", name);
  if (n.overflow || n.mag > max)
    return ompdp_json_fail(r, "\"%s\" is out of range (at most %" PRIu64 ")", name, max);
  *out = n.mag;
  return 0;
}

int ompdp_json_get_int(ompdp_json_doc_t *r, const char *name, const json_t *v, int *out) {
  ompdp_json_num_t n;
  if (ompdp_json_as_int(r, v, &n) <= 0)
    return ompdp_json_fail(r, "\"%s\" must be an integer", name);
  uint64_t lim = n.neg ? (uint64_t)INT_MAX + 1 : (uint64_t)INT_MAX;
  if (n.overflow || n.mag > lim)
    return ompdp_json_fail(r, "\"%s\" is out of range", name);
  *out = n.neg ? (int)(-(int64_t)n.mag) : (int)n.mag;
  return 0;
}

int ompdp_json_get_double(ompdp_json_doc_t *r, const char *name, const json_t *v, double *out) {
  double d;
  ompdp_json_num_t n;
  int k = ompdp_json_as_int(r, v, &n);
  if (k < 0)
    return ompdp_json_fail(r, "\"%s\" must be a number", name);
  if (k == 0) {
    d = json_real_value(v);
  } else if (ompdp_json_big(r, v)) {
    /* A big integer: its digits, in the C locale (the JSON decimal point is
     * '.', whatever the host program chose with setlocale). */
    const ompdp_json_big_t *b = ompdp_json_big(r, v);
    char buf[512];
    if (b->len >= sizeof(buf))
      return ompdp_json_fail(r, "\"%s\" is out of range", name);
    memcpy(buf, r->text + b->at, b->len);
    buf[b->len] = '\0';
    locale_t cl = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    if (!cl)
      return oom(r);
    d = strtod_l(buf, NULL, cl);
    freelocale(cl);
  } else {
    d = (double)json_integer_value(v);
  }
  if (!isfinite(d))
    return ompdp_json_fail(r, "\"%s\" is out of range", name);
  *out = d;
  return 0;
}

int ompdp_json_get_bool(ompdp_json_doc_t *r, const char *name, const json_t *v, int *out) {
  if (!json_is_boolean(v))
    return ompdp_json_fail(r, "\"%s\" must be true or false", name);
  *out = json_is_true(v);
  return 0;
}

/* A string member that may be null, into *out (freed first). */
int ompdp_json_get_str(ompdp_json_doc_t *r, const char *name, const json_t *v, int nullable,
                   char **out) {
  char *s = NULL;
  if (nullable && json_is_null(v)) {
    /* s stays NULL */
  } else if (!json_is_string(v)) {
    return ompdp_json_fail(r, "\"%s\" must be %s", name,
                           nullable ? "a string or null" : "a string");
  } else if (!(s = ompdp_strdup(json_string_value(v)))) {
    return oom(r);
  }
  free(*out);
  *out = s;
  return 0;
}

/* A 64-bit value as 1 to 16 hex digits in a string (so that no reader
 * rounds it), or null for 0 (unknown). */
int ompdp_json_get_hex64(ompdp_json_doc_t *r, const char *name, const json_t *v, uint64_t *out) {
  *out = 0;
  if (json_is_null(v))
    return 0;
  if (!json_is_string(v))
    return ompdp_json_fail(r, "\"%s\" must be a string", name);
  const char *s = json_string_value(v);
  size_t n = strlen(s);
  uint64_t x = 0;
  int ok = n > 0 && n <= 16;
  for (size_t i = 0; ok && i < n; ++i) {
    char c = s[i];
    unsigned d = is_digit(c)            ? (unsigned)(c - '0')
                 : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                        : 16u;
    ok = d < 16;
    x = x << 4 | d;
  }
  if (!ok)
    return ompdp_json_fail(r, "\"%s\" must be a string of 1 to 16 hex digits", name);
  *out = x;
  return 0;
}

