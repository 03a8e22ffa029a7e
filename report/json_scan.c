/*===- json_scan.c - reading JSON in place, token by token ----------*- C -*-===*\
|*
|* The pull reader of json_scan.h. It checks what jansson checks, in the
|* words of the report reader (json_load.c, whose error and escape helpers
|* it shares; UTF-8 as the writers check it, report.h), and allocates nothing: a string is decoded into the caller's
|* buffer, a number into integers or a double. Nesting is followed by
|* recursion, bounded by OMPDP_JS_MAX_DEPTH.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strtod_l, newlocale */
#include "json_scan.h"
#include "report.h" /* ompdp_utf8_len */

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Longest fraction or exponent a report may hold (as json_load.c). */
#define MAX_REAL_CHARS 400

int ompdp_js_fail(ompdp_js_t *s, const char *what) {
  return ompdp_json_fail_at(s->d, s->pos, "%s", what);
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int is_digit(char c) { return c >= '0' && c <= '9'; }

int ompdp_js_peek(ompdp_js_t *s) {
  const char *t = s->d->text;
  while (s->pos < s->end && is_blank(t[s->pos]))
    ++s->pos;
  return s->pos < s->end ? (unsigned char)t[s->pos] : -1;
}

/* "unexpected '<token>' (expected <what>)" at the position, the token as
 * jansson shows it: up to the next blank or structural byte. */
static int unexpected(ompdp_js_t *s, const char *what) {
  const char *t = s->d->text;
  size_t e = s->pos;
  while (e < s->end && e - s->pos < 32 && !is_blank(t[e]) && !strchr(",:[]{}", t[e]))
    ++e;
  if (e == s->pos && e < s->end)
    ++e;
  char tok[40], shown[64];
  memcpy(tok, t + s->pos, e - s->pos);
  tok[e - s->pos] = '\0';
  return ompdp_json_fail_at(s->d, s->pos, "unexpected '%s' (expected %s)",
                            ompdp_json_printable(shown, sizeof(shown), tok), what);
}

/* Appends the UTF-8 of code point cp to buf when there is room. */
static void put_cp(char *buf, size_t size, size_t *n, int *truncated, uint32_t cp) {
  char u[4];
  size_t len;
  if (cp < 0x80) {
    u[0] = (char)cp;
    len = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xC0 | cp >> 6);
    u[1] = (char)(0x80 | (cp & 0x3F));
    len = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xE0 | cp >> 12);
    u[1] = (char)(0x80 | (cp >> 6 & 0x3F));
    u[2] = (char)(0x80 | (cp & 0x3F));
    len = 3;
  } else {
    u[0] = (char)(0xF0 | cp >> 18);
    u[1] = (char)(0x80 | (cp >> 12 & 0x3F));
    u[2] = (char)(0x80 | (cp >> 6 & 0x3F));
    u[3] = (char)(0x80 | (cp & 0x3F));
    len = 4;
  }
  if (*n + len < size) {
    memcpy(buf + *n, u, len);
    *n += len;
  } else {
    *truncated = 1;
  }
}

int ompdp_js_string(ompdp_js_t *s, char *buf, size_t size, int *truncated) {
  const char *t = s->d->text;
  size_t n = 0;
  int cut = 0;
  if (ompdp_js_peek(s) != '"')
    return ompdp_js_fail(s, "expected a string");
  size_t start = s->pos, p = start + 1;
  for (;;) {
    if (p >= s->end)
      return ompdp_json_fail_at(s->d, start, "unterminated string");
    unsigned char c = (unsigned char)t[p];
    if (c == '"')
      break;
    if (c < 0x20)
      return ompdp_json_fail_at(s->d, p, "control character 0x%02x in a string", c);
    if (c == '\\') {
      if (p + 1 >= s->end)
        return ompdp_json_fail_at(s->d, start, "unterminated string");
      char e = t[p + 1];
      static const char Esc[] = "\"\\/bfnrt", Val[] = "\"\\/\b\f\n\r\t";
      const char *k = e ? strchr(Esc, e) : NULL;
      if (k) {
        put_cp(buf, size, &n, &cut, (unsigned char)Val[k - Esc]);
        p += 2;
        continue;
      }
      if (e != 'u')
        return ompdp_json_fail_at(s->d, p, "invalid escape in a string");
      if (p + 6 > s->end)
        return ompdp_json_fail_at(s->d, p, "unexpected end of input in a \\u escape");
      int64_t cp = ompdp_json_hex4(s->d, p + 2);
      if (cp < 0)
        return -1;
      if (cp == 0)
        return ompdp_json_fail_at(s->d, p, "\\u0000 is not allowed in a report string");
      p += 6;
      if (cp >= 0xD800 && cp <= 0xDBFF && p + 6 <= s->end && t[p] == '\\' && t[p + 1] == 'u') {
        int64_t lo = ompdp_json_hex4(s->d, p + 2);
        if (lo < 0)
          return -1;
        if (lo >= 0xDC00 && lo <= 0xDFFF) {
          cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          p += 6;
        }
      }
      /* A lone surrogate is U+FFFD, as the report reader makes it. */
      put_cp(buf, size, &n, &cut, cp >= 0xD800 && cp <= 0xDFFF ? 0xFFFD : (uint32_t)cp);
      continue;
    }
    if (c < 0x80) { /* a run of plain bytes at once */
      size_t q = p + 1;
      while (q < s->end && (unsigned char)t[q] >= 0x20 && (unsigned char)t[q] < 0x80 &&
             t[q] != '"' && t[q] != '\\')
        ++q;
      size_t keep = n + (q - p) < size ? q - p : size > n + 1 ? size - n - 1 : 0;
      memcpy(buf + n, t + p, keep);
      n += keep;
      cut |= keep < q - p;
      p = q;
      continue;
    }
    size_t len = ompdp_utf8_len((const unsigned char *)t + p, s->end - p);
    if (len) {
      if (n + len < size) {
        memcpy(buf + n, t + p, len);
        n += len;
      } else {
        cut = 1;
      }
      p += len;
    } else {
      put_cp(buf, size, &n, &cut, 0xFFFD); /* an invalid byte */
      ++p;
    }
  }
  if (size)
    buf[n] = '\0';
  if (truncated)
    *truncated = cut;
  s->pos = p + 1;
  return 0;
}

int ompdp_js_number(ompdp_js_t *s, int *is_int, ompdp_json_num_t *num, double *real) {
  const char *t = s->d->text;
  int c = ompdp_js_peek(s);
  size_t at = s->pos, p = at;
  memset(num, 0, sizeof(*num));
  *is_int = 1;
  if (c == '-') {
    num->neg = 1;
    ++p;
  }
  if (p >= s->end || !is_digit(t[p]))
    return c == '-' || is_digit((char)c) ? ompdp_json_fail_at(s->d, at, "invalid number")
                                         : ompdp_js_fail(s, "expected a number");
  if (t[p] == '0' && p + 1 < s->end && is_digit(t[p + 1]))
    return ompdp_json_fail_at(s->d, at, "invalid number (leading zero)");
  while (p < s->end && is_digit(t[p])) {
    unsigned d = (unsigned)(t[p++] - '0');
    if (num->mag > (UINT64_MAX - d) / 10)
      num->overflow = 1;
    else
      num->mag = num->mag * 10 + d;
  }
  if (p < s->end && t[p] == '.') {
    *is_int = 0;
    if (++p >= s->end || !is_digit(t[p]))
      return ompdp_json_fail_at(s->d, at, "invalid number");
    while (p < s->end && is_digit(t[p]))
      ++p;
  }
  if (p < s->end && (t[p] == 'e' || t[p] == 'E')) {
    *is_int = 0;
    if (++p < s->end && (t[p] == '+' || t[p] == '-'))
      ++p;
    if (p >= s->end || !is_digit(t[p]))
      return ompdp_json_fail_at(s->d, at, "invalid number");
    while (p < s->end && is_digit(t[p]))
      ++p;
  }
  s->pos = p;
  if (!real)
    return 0;
  if (*is_int && !num->overflow) {
    *real = num->neg ? -(double)num->mag : (double)num->mag;
    return 0;
  }
  if (p - at > MAX_REAL_CHARS)
    return ompdp_json_fail_at(s->d, at, "a number has too many digits (more than %d)",
                              MAX_REAL_CHARS);
  /* JSON's decimal point is '.', whatever locale the program chose. */
  char tok[MAX_REAL_CHARS + 1];
  memcpy(tok, t + at, p - at);
  tok[p - at] = '\0';
  locale_t cl = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  if (!cl)
    return ompdp_json_fail(s->d, "out of memory");
  *real = strtod_l(tok, NULL, cl);
  freelocale(cl);
  return 0;
}

int ompdp_js_null(ompdp_js_t *s) {
  if (ompdp_js_peek(s) != 'n' || s->end - s->pos < 4 || memcmp(s->d->text + s->pos, "null", 4))
    return 0;
  s->pos += 4;
  return 1;
}

/* A literal (true, false, null) at the position. */
static int literal(ompdp_js_t *s) {
  static const char *const Words[] = {"true", "false", "null"};
  for (size_t i = 0; i < 3; ++i) {
    size_t len = strlen(Words[i]);
    if (s->end - s->pos >= len && !memcmp(s->d->text + s->pos, Words[i], len)) {
      s->pos += len;
      return 0;
    }
  }
  return unexpected(s, "a value");
}

int ompdp_js_object(ompdp_js_t *s) {
  if (ompdp_js_peek(s) != '{')
    return ompdp_js_fail(s, "expected an object");
  ++s->pos;
  return 0;
}

int ompdp_js_array(ompdp_js_t *s) {
  if (ompdp_js_peek(s) != '[')
    return ompdp_js_fail(s, "expected an array");
  ++s->pos;
  return 0;
}

/* Past the separator before the next member or element: 1, or 0 at the
 * closing byte (consumed), or -1. */
static int next(ompdp_js_t *s, int *first, char close) {
  int c = ompdp_js_peek(s);
  if (c < 0)
    return ompdp_js_fail(s, "unexpected end of input");
  if (c == close) {
    ++s->pos;
    return 0;
  }
  if (!*first) {
    if (c != ',')
      return unexpected(s, close == '}' ? "',' or '}'" : "',' or ']'");
    ++s->pos;
    if (ompdp_js_peek(s) < 0)
      return ompdp_js_fail(s, "unexpected end of input");
  }
  *first = 0;
  return 1;
}

int ompdp_js_member(ompdp_js_t *s, int *first, char *key, size_t size, int *truncated) {
  int k = next(s, first, '}');
  if (k <= 0)
    return k;
  /* A comma before the closing brace is refused: a member name is due. */
  if (ompdp_js_peek(s) != '"')
    return unexpected(s, "a member name");
  if (ompdp_js_string(s, key, size, truncated))
    return -1;
  if (ompdp_js_peek(s) != ':')
    return unexpected(s, "':'");
  ++s->pos;
  return 1;
}

int ompdp_js_element(ompdp_js_t *s, int *first) {
  int was_first = *first, k = next(s, first, ']');
  if (k > 0 && !was_first && ompdp_js_peek(s) == ']')
    return unexpected(s, "a value");
  return k;
}

int ompdp_js_skip(ompdp_js_t *s, unsigned depth) {
  int c = ompdp_js_peek(s), first = 1, k;
  if (c < 0)
    return ompdp_js_fail(s, "unexpected end of input (expected a value)");
  if (c == '{' || c == '[') {
    if (depth >= OMPDP_JS_MAX_DEPTH)
      return ompdp_js_fail(s, "nesting deeper than the parser allows");
    ++s->pos;
    char key[1];
    int cut;
    while ((k = c == '{' ? ompdp_js_member(s, &first, key, sizeof(key), &cut)
                         : ompdp_js_element(s, &first)) > 0)
      if (ompdp_js_skip(s, depth + 1))
        return -1;
    return k;
  }
  if (c == '"') {
    char none[1];
    return ompdp_js_string(s, none, sizeof(none), NULL);
  }
  if (c == '-' || is_digit((char)c)) {
    int is_int;
    ompdp_json_num_t n;
    return ompdp_js_number(s, &is_int, &n, NULL);
  }
  return literal(s);
}
