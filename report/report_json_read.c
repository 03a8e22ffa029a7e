/*===- report_json_read.c - reading a JSON report back ----------------------===*\
|*
|* A small recursive-descent JSON parser that maps a saved report straight
|* into the model, without building a document tree first: memory stays
|* proportional to the report, not to the text. The input is treated as
|* hostile: it may be truncated, corrupt, deeply nested, hold numbers that
|* fit no integer, values of the wrong type, or be far too large. Every such
|* case ends in -1 with a one-line reason and nothing leaked.
|*
|* Reading takes two passes. The first checks the syntax of the whole text
|* and finds "ompdp_report_version", so that a file from another tool or a
|* newer ompdp is refused with that reason rather than with whatever type
|* error its different layout would cause first. The second fills the
|* model. Members this version does not know are skipped, so newer writers
|* may add them freely (the contract in OmpdpFormat.inc).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strtod_l, newlocale */
#include "report.h"
#include "process.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reports are a few MiB at most; the cap only keeps a wrong file from
 * exhausting memory. */
#define MAX_REPORT_BYTES ((size_t)256 << 20)
/* Real reports nest four levels deep. */
#define MAX_DEPTH 64
/* No number in a report needs more digits than this; a longer one is junk. */
#define MAX_NUMBER_CHARS 400

typedef struct parser {
  const char *s;
  size_t n;
  size_t pos;
  int depth;
  char *err;
  size_t errlen;
  int failed;
  const char *what; /* error prefix: which pass found the problem */
} parser_t;

/* A number token, converted on demand. */
typedef struct number {
  size_t at, len;
  int neg;
  int is_int;    /* no fraction, no exponent */
  int overflow;  /* integer magnitude does not fit in 64 bits */
  uint64_t mag;  /* magnitude when is_int && !overflow */
} number_t;

/*--- errors ---------------------------------------------------------------*/

static void set_err(parser_t *p, const char *fmt, ...) {
  if (p->failed)
    return;
  p->failed = 1;
  if (!p->err || !p->errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err, p->errlen, fmt, ap);
  va_end(ap);
}

/* Records "line L, column C: msg" for the byte offset at. Returns -1 so
 * callers can `return fail(...)`. */
static int fail_at(parser_t *p, size_t at, const char *fmt, ...) {
  if (p->failed)
    return -1;
  size_t line = 1, col = 1;
  for (size_t i = 0; i < at && i < p->n; ++i) {
    if (p->s[i] == '\n') {
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
  set_err(p, "%sline %zu, column %zu: %s", p->what ? p->what : "", line, col,
          msg);
  return -1;
}

static int oom(parser_t *p) {
  set_err(p, "out of memory");
  return -1;
}

/* Copies an untrusted string for an error message: printable ASCII only,
 * and short, so the reason stays one line. */
static const char *printable(char *buf, size_t size, const char *s) {
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

/*--- lexical level ----------------------------------------------------------*/

static void ws(parser_t *p) {
  while (p->pos < p->n) {
    char c = p->s[p->pos];
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
      break;
    ++p->pos;
  }
}

static int peek(parser_t *p) {
  return p->pos < p->n ? (unsigned char)p->s[p->pos] : -1;
}

static int unexpected(parser_t *p, const char *what) {
  if (p->pos >= p->n)
    return fail_at(p, p->pos, "unexpected end of input (expected %s)", what);
  unsigned char c = (unsigned char)p->s[p->pos];
  if (c >= 0x20 && c < 0x7F)
    return fail_at(p, p->pos, "unexpected '%c' (expected %s)", c, what);
  return fail_at(p, p->pos, "unexpected byte 0x%02x (expected %s)", c, what);
}

static int expect_lit(parser_t *p, const char *lit) {
  size_t len = strlen(lit);
  if (p->n - p->pos < len || memcmp(p->s + p->pos, lit, len) != 0)
    return unexpected(p, "a JSON value");
  p->pos += len;
  return 0;
}

/* A growable byte buffer for string contents. */
typedef struct sbuf {
  char *d;
  size_t len, cap;
} sbuf_t;

static int sb_put(sbuf_t *b, const char *src, size_t len) {
  if (b->cap - b->len <= len) {
    size_t cap = b->cap ? b->cap : 32;
    while (cap - b->len <= len)
      cap *= 2;
    char *d = realloc(b->d, cap);
    if (!d)
      return -1;
    b->d = d;
    b->cap = cap;
  }
  memcpy(b->d + b->len, src, len);
  b->len += len;
  b->d[b->len] = '\0';
  return 0;
}

static int sb_put_cp(sbuf_t *b, uint32_t cp) {
  char u[4];
  size_t len;
  if (cp < 0x80) {
    u[0] = (char)cp;
    len = 1;
  } else if (cp < 0x800) {
    u[0] = (char)(0xC0 | (cp >> 6));
    u[1] = (char)(0x80 | (cp & 0x3F));
    len = 2;
  } else if (cp < 0x10000) {
    u[0] = (char)(0xE0 | (cp >> 12));
    u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[2] = (char)(0x80 | (cp & 0x3F));
    len = 3;
  } else {
    u[0] = (char)(0xF0 | (cp >> 18));
    u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    u[3] = (char)(0x80 | (cp & 0x3F));
    len = 4;
  }
  return sb_put(b, u, len);
}

/* Number of bytes in the well-formed UTF-8 sequence at s, 0 if malformed
 * (overlong, surrogate, past U+10FFFF, or cut short). */
static size_t utf8_len(const unsigned char *s, size_t avail) {
  static const struct {
    unsigned char first_lo, first_hi, len, second_lo, second_hi;
  } Forms[] = {
      {0xC2, 0xDF, 2, 0x80, 0xBF}, {0xE0, 0xE0, 3, 0xA0, 0xBF},
      {0xE1, 0xEC, 3, 0x80, 0xBF}, {0xED, 0xED, 3, 0x80, 0x9F},
      {0xEE, 0xEF, 3, 0x80, 0xBF}, {0xF0, 0xF0, 4, 0x90, 0xBF},
      {0xF1, 0xF3, 4, 0x80, 0xBF}, {0xF4, 0xF4, 4, 0x80, 0x8F},
  };
  for (size_t f = 0; f < sizeof(Forms) / sizeof(Forms[0]); ++f) {
    if (s[0] < Forms[f].first_lo || s[0] > Forms[f].first_hi)
      continue;
    size_t len = Forms[f].len;
    if (avail < len || s[1] < Forms[f].second_lo || s[1] > Forms[f].second_hi)
      return 0;
    for (size_t i = 2; i < len; ++i)
      if ((s[i] & 0xC0) != 0x80)
        return 0;
    return len;
  }
  return 0;
}

static int hex4(parser_t *p, uint32_t *out) {
  if (p->n - p->pos < 4)
    return fail_at(p, p->pos, "unexpected end of input in a \\u escape");
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    char c = p->s[p->pos + i];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= (uint32_t)(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= (uint32_t)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= (uint32_t)(c - 'A' + 10);
    else
      return fail_at(p, p->pos + i, "invalid hex digit in a \\u escape");
  }
  p->pos += 4;
  *out = v;
  return 0;
}

/* Parses a string at p->pos (which must be '"'). With out == NULL the text
 * is only checked. Invalid UTF-8 and lone surrogates become U+FFFD, as the
 * writer does; U+0000 is refused because the model holds C strings. */
static int parse_string(parser_t *p, char **out) {
  sbuf_t b = {0};
  size_t start = p->pos;
  if (peek(p) != '"')
    return unexpected(p, "a string");
  ++p->pos;
  for (;;) {
    if (p->pos >= p->n) {
      free(b.d);
      return fail_at(p, start, "unterminated string");
    }
    unsigned char c = (unsigned char)p->s[p->pos];
    size_t run = p->pos;
    if (c == '"') {
      ++p->pos;
      break;
    }
    if (c < 0x20) {
      free(b.d);
      return fail_at(p, p->pos, "control character 0x%02x in a string", c);
    }
    if (c == '\\') {
      ++p->pos;
      int e = peek(p);
      if (e < 0) {
        free(b.d);
        return fail_at(p, start, "unterminated string");
      }
      ++p->pos;
      const char *rep = NULL;
      uint32_t cp = 0;
      switch (e) {
      case '"': rep = "\""; break;
      case '\\': rep = "\\"; break;
      case '/': rep = "/"; break;
      case 'b': rep = "\b"; break;
      case 'f': rep = "\f"; break;
      case 'n': rep = "\n"; break;
      case 'r': rep = "\r"; break;
      case 't': rep = "\t"; break;
      case 'u':
        if (hex4(p, &cp)) {
          free(b.d);
          return -1;
        }
        if (cp >= 0xD800 && cp <= 0xDBFF && p->n - p->pos >= 6 &&
            p->s[p->pos] == '\\' && p->s[p->pos + 1] == 'u') {
          size_t save = p->pos;
          uint32_t lo;
          p->pos += 2;
          if (hex4(p, &lo)) {
            free(b.d);
            return -1;
          }
          if (lo >= 0xDC00 && lo <= 0xDFFF)
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          else
            p->pos = save; /* not a pair: the second escape stands alone */
        }
        if (cp >= 0xD800 && cp <= 0xDFFF)
          cp = 0xFFFD;
        if (cp == 0) {
          free(b.d);
          return fail_at(p, p->pos - 6, "\\u0000 is not allowed in a report string");
        }
        break;
      default:
        free(b.d);
        return fail_at(p, p->pos - 2, "invalid escape in a string");
      }
      if (out && (rep ? sb_put(&b, rep, 1) : sb_put_cp(&b, cp))) {
        free(b.d);
        return oom(p);
      }
      continue;
    }
    if (c < 0x80) {
      /* Copy a run of plain ASCII at once. */
      while (p->pos < p->n) {
        unsigned char d = (unsigned char)p->s[p->pos];
        if (d == '"' || d == '\\' || d < 0x20 || d >= 0x80)
          break;
        ++p->pos;
      }
      if (out && sb_put(&b, p->s + run, p->pos - run)) {
        free(b.d);
        return oom(p);
      }
      continue;
    }
    size_t len = utf8_len((const unsigned char *)p->s + p->pos, p->n - p->pos);
    int bad = len == 0;
    p->pos += bad ? 1 : len;
    if (out && (bad ? sb_put_cp(&b, 0xFFFD) : sb_put(&b, p->s + run, len))) {
      free(b.d);
      return oom(p);
    }
  }
  if (out) {
    if (!b.d && !(b.d = calloc(1, 1)))
      return oom(p);
    *out = b.d;
  }
  return 0;
}

static int is_digit(int c) { return c >= '0' && c <= '9'; }

/* Parses a number token with the exact JSON grammar. */
static int parse_number(parser_t *p, number_t *num) {
  memset(num, 0, sizeof(*num));
  num->at = p->pos;
  num->is_int = 1;
  if (peek(p) == '-') {
    num->neg = 1;
    ++p->pos;
  }
  if (!is_digit(peek(p)))
    return fail_at(p, num->at, "invalid number");
  if (peek(p) == '0') {
    ++p->pos;
  } else {
    while (is_digit(peek(p))) {
      unsigned d = (unsigned)(p->s[p->pos] - '0');
      if (num->mag > (UINT64_MAX - d) / 10)
        num->overflow = 1;
      else
        num->mag = num->mag * 10 + d;
      ++p->pos;
    }
  }
  if (is_digit(peek(p)))
    return fail_at(p, num->at, "invalid number (leading zero)");
  if (peek(p) == '.') {
    num->is_int = 0;
    ++p->pos;
    if (!is_digit(peek(p)))
      return fail_at(p, num->at, "invalid number");
    while (is_digit(peek(p)))
      ++p->pos;
  }
  if (peek(p) == 'e' || peek(p) == 'E') {
    num->is_int = 0;
    ++p->pos;
    if (peek(p) == '+' || peek(p) == '-')
      ++p->pos;
    if (!is_digit(peek(p)))
      return fail_at(p, num->at, "invalid number");
    while (is_digit(peek(p)))
      ++p->pos;
  }
  num->len = p->pos - num->at;
  return 0;
}

/*--- structure --------------------------------------------------------------*/

static int enter(parser_t *p) {
  if (++p->depth > MAX_DEPTH)
    return fail_at(p, p->pos, "nesting deeper than %d levels", MAX_DEPTH);
  ++p->pos; /* the '{' or '[' */
  return 0;
}

/* Iterates over an object's members. *state starts at 0 and p->pos at '{'.
 * Returns 1 with the member name in *key (owned by the caller) and p->pos
 * at its value, 0 after the closing '}', -1 on error. */
static int obj_next(parser_t *p, int *state, char **key) {
  *key = NULL;
  if (*state == 0) {
    if (peek(p) != '{')
      return unexpected(p, "an object");
    if (enter(p))
      return -1;
    ws(p);
    if (peek(p) == '}') {
      ++p->pos;
      --p->depth;
      return 0;
    }
  } else {
    ws(p);
    if (peek(p) == '}') {
      ++p->pos;
      --p->depth;
      return 0;
    }
    if (peek(p) != ',')
      return unexpected(p, "',' or '}'");
    ++p->pos;
    ws(p);
  }
  *state = 1;
  if (peek(p) != '"')
    return unexpected(p, "a member name");
  if (parse_string(p, key))
    return -1;
  ws(p);
  if (peek(p) != ':') {
    free(*key);
    *key = NULL;
    return unexpected(p, "':'");
  }
  ++p->pos;
  ws(p);
  return 1;
}

/* Iterates over an array's elements, like obj_next. */
static int arr_next(parser_t *p, int *state) {
  if (*state == 0) {
    if (peek(p) != '[')
      return unexpected(p, "an array");
    if (enter(p))
      return -1;
    ws(p);
    if (peek(p) == ']') {
      ++p->pos;
      --p->depth;
      return 0;
    }
  } else {
    ws(p);
    if (peek(p) == ']') {
      ++p->pos;
      --p->depth;
      return 0;
    }
    if (peek(p) != ',')
      return unexpected(p, "',' or ']'");
    ++p->pos;
    ws(p);
  }
  *state = 1;
  return 1;
}

static int skip_value(parser_t *p) {
  int c = peek(p), state = 0, r;
  number_t num;
  switch (c) {
  case '{': {
    char *key;
    while ((r = obj_next(p, &state, &key)) == 1) {
      free(key);
      if (skip_value(p))
        return -1;
    }
    return r;
  }
  case '[':
    while ((r = arr_next(p, &state)) == 1)
      if (skip_value(p))
        return -1;
    return r;
  case '"':
    return parse_string(p, NULL);
  case 't':
    return expect_lit(p, "true");
  case 'f':
    return expect_lit(p, "false");
  case 'n':
    return expect_lit(p, "null");
  default:
    if (c == '-' || is_digit(c))
      return parse_number(p, &num);
    return unexpected(p, "a JSON value");
  }
}

/*--- typed values -----------------------------------------------------------*/

static int is_null(parser_t *p) {
  if (peek(p) == 'n' && p->n - p->pos >= 4 && !memcmp(p->s + p->pos, "null", 4)) {
    p->pos += 4;
    return 1;
  }
  return 0;
}

static int type_error(parser_t *p, const char *name, const char *what) {
  return fail_at(p, p->pos, "\"%s\" must be %s", name, what);
}

static int get_u64(parser_t *p, const char *name, uint64_t max, uint64_t *out) {
  number_t num;
  size_t at = p->pos;
  int c = peek(p);
  if (c != '-' && !is_digit(c))
    return type_error(p, name, "a non-negative integer");
  if (parse_number(p, &num))
    return -1;
  if (!num.is_int || (num.neg && num.mag != 0))
    return fail_at(p, at, "\"%s\" must be a non-negative integer", name);
  if (num.overflow || num.mag > max)
    return fail_at(p, at, "\"%s\" is out of range (at most %" PRIu64 ")", name, max);
  *out = num.mag;
  return 0;
}

static int get_int(parser_t *p, const char *name, int *out) {
  number_t num;
  size_t at = p->pos;
  int c = peek(p);
  if (c != '-' && !is_digit(c))
    return type_error(p, name, "an integer");
  if (parse_number(p, &num))
    return -1;
  if (!num.is_int)
    return fail_at(p, at, "\"%s\" must be an integer", name);
  uint64_t lim = num.neg ? (uint64_t)INT_MAX + 1 : (uint64_t)INT_MAX;
  if (num.overflow || num.mag > lim)
    return fail_at(p, at, "\"%s\" is out of range", name);
  *out = num.neg ? (int)(-(int64_t)num.mag) : (int)num.mag;
  return 0;
}

static int get_double(parser_t *p, const char *name, double *out) {
  number_t num;
  size_t at = p->pos;
  int c = peek(p);
  if (c != '-' && !is_digit(c))
    return type_error(p, name, "a number");
  if (parse_number(p, &num))
    return -1;
  if (num.len > MAX_NUMBER_CHARS)
    return fail_at(p, at, "\"%s\" has too many digits", name);
  char buf[MAX_NUMBER_CHARS + 1];
  memcpy(buf, p->s + num.at, num.len);
  buf[num.len] = '\0';
  /* Always the C locale: the JSON decimal point is '.', whatever the host
   * program chose with setlocale. */
  locale_t cl = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  if (!cl)
    return oom(p);
  double d = strtod_l(buf, NULL, cl);
  freelocale(cl);
  if (!isfinite(d))
    return fail_at(p, at, "\"%s\" is out of range", name);
  *out = d;
  return 0;
}

static int get_bool(parser_t *p, const char *name, int *out) {
  if (peek(p) == 't' && !expect_lit(p, "true")) {
    *out = 1;
    return 0;
  }
  if (peek(p) == 'f' && !expect_lit(p, "false")) {
    *out = 0;
    return 0;
  }
  if (p->failed)
    return -1;
  return type_error(p, name, "true or false");
}

/* A string member that may be null. Replaces (and frees) what *out held, so
 * that a repeated member cannot leak. */
static int get_str(parser_t *p, const char *name, int nullable, char **out) {
  char *s = NULL;
  if (nullable && is_null(p)) {
    /* s stays NULL */
  } else if (peek(p) != '"') {
    return type_error(p, name, nullable ? "a string or null" : "a string");
  } else if (parse_string(p, &s)) {
    return -1;
  }
  free(*out);
  *out = s;
  return 0;
}

/* Refuses a member that appears twice in one object: a later copy silently
 * winning would hide a corrupt file. Members beyond the 32 known ones of an
 * object are not tracked (there are none). */
static int once(parser_t *p, unsigned *seen, unsigned bit, const char *name,
                size_t at) {
  if (*seen & (1u << bit))
    return fail_at(p, at, "member \"%s\" appears twice", name);
  *seen |= 1u << bit;
  return 0;
}

/* Finds key in names[]; returns its index or -1. */
static int lookup(const char *const *names, int count, const char *key) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], key) == 0)
      return i;
  return -1;
}

/*--- the report's members -------------------------------------------------*/


enum { L_FILE, L_LINE, L_COLUMN, L_FUNCTION, L_COUNT };
static const char *const LocNames[L_COUNT] = {"file", "line", "column", "function"};

/* One of a location's members, shared by a finding and its "related". */
static int get_loc_member(parser_t *p, int m, ompdp_loc_t *l) {
  uint64_t v;
  switch (m) {
  case L_FILE:
    return get_str(p, "file", 1, &l->file);
  case L_FUNCTION:
    return get_str(p, "function", 1, &l->function);
  default:
    if (get_u64(p, LocNames[m], UINT32_MAX, &v))
      return -1;
    if (m == L_LINE)
      l->line = (uint32_t)v;
    else
      l->column = (uint32_t)v;
    return 0;
  }
}

static int read_related(parser_t *p, ompdp_loc_t *l) {
  ompdp_loc_free(l);
  memset(l, 0, sizeof(*l));
  if (is_null(p))
    return 0;
  if (peek(p) != '{')
    return type_error(p, "related", "an object or null");
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(LocNames, L_COUNT, key);
    free(key);
    if (m < 0 ? skip_value(p)
              : once(p, &seen, (unsigned)m, LocNames[m], at) ||
                    get_loc_member(p, m, l))
      return -1;
  }
  return r;
}

static int read_devices(parser_t *p, ompdp_finding_t *f) {
  size_t cap = 0;
  int state = 0, r;
  f->num_devices = 0;
  if (peek(p) != '[')
    return type_error(p, "devices", "an array of integers");
  while ((r = arr_next(p, &state)) == 1) {
    int d;
    if (get_int(p, "devices", &d))
      return -1;
    if (f->num_devices == cap) {
      size_t ncap = cap ? cap * 2 : 4;
      int *nd = realloc(f->devices, ncap * sizeof(*nd));
      if (!nd)
        return oom(p);
      f->devices = nd;
      cap = ncap;
    }
    f->devices[f->num_devices++] = d;
  }
  return r;
}

/*--- operations by class ("ops": the cost model's input) --------------------*/

static const char *const OpClassNames[OMPDP_OC_COUNT] = {
#define OMPDP_OP_CLASS(Enum, Json, Desc) Json,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const OpStatNames[3] = {"count", "bytes", "time_ns"};

/* {"h2d": {"count": N, "bytes": N, "time_ns": N}, ...}; classes and members
 * this version does not know are skipped. */
static int read_ops(parser_t *p, const char *name, ompdp_ops_t *ops) {
  if (peek(p) != '{')
    return type_error(p, name, "an object");
  memset(ops, 0, sizeof(*ops));
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int c = lookup(OpClassNames, OMPDP_OC_COUNT, key);
    free(key);
    if (c < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    if (once(p, &seen, (unsigned)c, OpClassNames[c], at))
      return -1;
    if (peek(p) != '{')
      return type_error(p, OpClassNames[c], "an object");
    int st2 = 0, r2;
    unsigned seen2 = 0;
    uint64_t *dest[3] = {&ops->c[c].count, &ops->c[c].bytes, &ops->c[c].time_ns};
    while ((r2 = obj_next(p, &st2, &key)) == 1) {
      size_t at2 = p->pos;
      int m = lookup(OpStatNames, 3, key);
      free(key);
      if (m < 0 ? skip_value(p)
                : once(p, &seen2, (unsigned)m, OpStatNames[m], at2) ||
                      get_u64(p, OpStatNames[m], UINT64_MAX, dest[m]))
        return -1;
    }
    if (r2)
      return r2;
  }
  ops->known = r == 0;
  return r;
}

/*--- rewrites (version 2) --------------------------------------------------*/

enum { R_LINE, R_COLUMN, R_END_LINE, R_END_COLUMN, R_OFFSET, R_END_OFFSET, R_NUM };
static const char *const RangeNames[R_NUM] = {
    "line", "column", "end_line", "end_column", "offset", "end_offset"};

/* One member of a range (a finding's "range", or an edit's own members). */
static int get_range_member(parser_t *p, int m, ompdp_range_t *r) {
  uint64_t v;
  if (m == R_OFFSET || m == R_END_OFFSET) {
    int64_t *dst = m == R_OFFSET ? &r->offset : &r->end_offset;
    *dst = -1;
    if (is_null(p))
      return 0;
    if (get_u64(p, RangeNames[m], INT64_MAX, &v))
      return -1;
    *dst = (int64_t)v;
    return 0;
  }
  if (get_u64(p, RangeNames[m], UINT32_MAX, &v))
    return -1;
  uint32_t *const Dst[4] = {&r->line, &r->column, &r->end_line, &r->end_column};
  *Dst[m] = (uint32_t)v;
  return 0;
}

/* Checks a complete range: lines and columns are 1-based, the end is not
 * before the start, and offsets are both known or both unknown. */
static int check_range(parser_t *p, size_t at, unsigned seen, unsigned base,
                       const ompdp_range_t *r, const char *what) {
  for (int m = R_LINE; m <= R_END_COLUMN; ++m)
    if (!(seen & (1u << (base + (unsigned)m))))
      return fail_at(p, at, "%s has no \"%s\"", what, RangeNames[m]);
  if (!r->line || !r->column || !r->end_line || !r->end_column)
    return fail_at(p, at, "%s has a line or column 0 (they count from 1)", what);
  if (r->end_line < r->line ||
      (r->end_line == r->line && r->end_column < r->column))
    return fail_at(p, at, "%s ends before it starts", what);
  if ((r->offset < 0) != (r->end_offset < 0))
    return fail_at(p, at, "%s has only one of \"offset\" and \"end_offset\"", what);
  if (r->end_offset < r->offset)
    return fail_at(p, at, "%s has \"end_offset\" before \"offset\"", what);
  return 0;
}

static int read_range(parser_t *p, ompdp_range_t *r) {
  memset(r, 0, sizeof(*r));
  r->offset = r->end_offset = -1;
  if (is_null(p))
    return 0;
  if (peek(p) != '{')
    return type_error(p, "range", "an object or null");
  size_t start = p->pos;
  int state = 0, rc;
  unsigned seen = 0;
  char *key;
  while ((rc = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(RangeNames, R_NUM, key);
    free(key);
    if (m < 0 ? skip_value(p)
              : once(p, &seen, (unsigned)m, RangeNames[m], at) ||
                    get_range_member(p, m, r))
      return -1;
  }
  if (rc)
    return rc;
  return check_range(p, start, seen, 0, r, "a range");
}

enum { E_FILE = R_NUM, E_ORIGINAL, E_REPLACEMENT, E_HASH, E_NUM };
static const char *const EditNames[E_NUM - R_NUM] = {"file", "original",
                                                      "replacement", "file_hash"};

static int read_hex64(parser_t *p, const char *name, uint64_t *out);

static int read_edit(parser_t *p, ompdp_edit_t *e) {
  if (peek(p) != '{')
    return type_error(p, "edits", "an array of objects");
  size_t start = p->pos;
  int state = 0, rc;
  unsigned seen = 0;
  char *key;
  while ((rc = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(RangeNames, R_NUM, key);
    if (m < 0) {
      m = lookup(EditNames, E_NUM - R_NUM, key);
      if (m >= 0)
        m += R_NUM;
    }
    free(key);
    if (m < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    const char *name = m < R_NUM ? RangeNames[m] : EditNames[m - R_NUM];
    if (once(p, &seen, (unsigned)m, name, at))
      return -1;
    int err;
    switch (m) {
    case E_FILE: err = get_str(p, "file", 0, &e->file); break;
    case E_ORIGINAL: err = get_str(p, "original", 1, &e->original); break;
    case E_REPLACEMENT: err = get_str(p, "replacement", 0, &e->replacement); break;
    case E_HASH: err = read_hex64(p, "file_hash", &e->file_hash); break;
    default: err = get_range_member(p, m, &e->range); break;
    }
    if (err)
      return -1;
  }
  if (rc)
    return rc;
  if (!e->file || !e->file[0])
    return fail_at(p, start, "an edit has no \"file\"");
  if (!e->replacement)
    return fail_at(p, start, "an edit has no \"replacement\"");
  return check_range(p, start, seen, 0, &e->range, "an edit");
}

enum {
  W_KIND, W_DESCRIPTION, W_ASSUMPTION, W_SAVED, W_TRANSFERS, W_ALLOCS,
  W_BYTES, W_EDITS, W_LOWER, W_OPS, W_OPS_ADDED, W_NUM
};
static const char *const RewriteNames[W_NUM] = {
    "kind", "description", "assumption", "time_saved_ns", "transfers_removed",
    "allocs_removed", "bytes_removed", "edits", "lower_bound", "ops", "ops_added"};

static int read_rewrite(parser_t *p, ompdp_rewrite_t *rw) {
  if (peek(p) != '{')
    return type_error(p, "rewrites", "an array of objects");
  size_t start = p->pos;
  int state = 0, rc;
  unsigned seen = 0;
  char *key;
  while ((rc = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(RewriteNames, W_NUM, key);
    free(key);
    if (m < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    if (once(p, &seen, (unsigned)m, RewriteNames[m], at))
      return -1;
    int err = 0, st = 0, r2 = 0;
    char *kind = NULL;
    switch (m) {
    case W_KIND:
      err = get_str(p, "kind", 0, &kind);
      rw->kind = ompdp_rewrite_kind_from_json(kind);
      free(kind);
      break;
    case W_DESCRIPTION: err = get_str(p, "description", 1, &rw->description); break;
    case W_ASSUMPTION: err = get_str(p, "assumption", 1, &rw->assumption); break;
    case W_SAVED:
      err = get_u64(p, "time_saved_ns", UINT64_MAX, &rw->time_saved_ns);
      break;
    case W_TRANSFERS:
      err = get_u64(p, "transfers_removed", UINT64_MAX, &rw->transfers_removed);
      break;
    case W_ALLOCS:
      err = get_u64(p, "allocs_removed", UINT64_MAX, &rw->allocs_removed);
      break;
    case W_BYTES:
      err = get_u64(p, "bytes_removed", UINT64_MAX, &rw->bytes_removed);
      break;
    case W_LOWER: err = get_bool(p, "lower_bound", &rw->lower_bound); break;
    case W_OPS: err = read_ops(p, "ops", &rw->ops); break;
    case W_OPS_ADDED: err = read_ops(p, "ops_added", &rw->ops_added); break;
    case W_EDITS:
      if (peek(p) != '[') {
        err = type_error(p, "edits", "an array of objects");
        break;
      }
      while ((r2 = arr_next(p, &st)) == 1) {
        ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
        if (!e)
          return oom(p);
        if (read_edit(p, e))
          return -1;
      }
      err = r2;
      break;
    }
    if (err)
      return -1;
  }
  if (rc)
    return rc;
  if (!(seen & (1u << W_KIND)))
    return fail_at(p, start, "a rewrite has no \"kind\"");
  if (!rw->num_edits)
    return fail_at(p, start, "a rewrite has no edits");
  return 0;
}

static int read_rewrites(parser_t *p, ompdp_finding_t *f) {
  if (peek(p) != '[')
    return type_error(p, "rewrites", "an array of objects");
  int state = 0, r;
  while ((r = arr_next(p, &state)) == 1) {
    ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_OTHER);
    if (!rw)
      return oom(p);
    if (read_rewrite(p, rw))
      return -1;
  }
  return r;
}

/* A 64-bit value as 1 to 16 hex digits in a string (so that no reader
 * rounds it), or null for 0 (unknown). */
static int read_hex64(parser_t *p, const char *name, uint64_t *out) {
  *out = 0;
  if (is_null(p))
    return 0;
  size_t at = p->pos;
  char *s = NULL;
  if (get_str(p, name, 0, &s))
    return -1;
  uint64_t v = 0;
  size_t n = strlen(s);
  int ok = n > 0 && n <= 16;
  for (size_t i = 0; ok && i < n; ++i) {
    char c = s[i];
    unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                 : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                        : 16u;
    ok = d < 16;
    v = v << 4 | d;
  }
  free(s);
  if (!ok)
    return fail_at(p, at, "\"%s\" must be a string of 1 to 16 hex digits", name);
  *out = v;
  return 0;
}

static int read_item(parser_t *p, int32_t *out) {
  uint64_t v;
  *out = -1;
  if (is_null(p))
    return 0;
  if (get_u64(p, "item", INT32_MAX, &v))
    return -1;
  *out = (int32_t)v;
  return 0;
}

enum {
  F_KIND, F_COUNT, F_BYTES, F_TIME, F_SAVED, F_DEVICES, F_VARIABLE, F_CLAUSE,
  F_SUGGESTION, F_RELATED, F_SAME, F_OTHER, F_REGION_ID, F_ITEM, F_RANGE,
  F_REWRITES, F_OPS, F_NUM
};
static const char *const FindingNames[F_NUM] = {
    "kind", "count", "bytes", "time_ns", "time_saved_ns", "devices",
    "variable", "clause", "suggestion", "related", "same_buffer",
    "other_buffer", "region_id", "item", "range", "rewrites", "ops"};

/* Reads one finding into f (zeroed by the caller). *kind_name gets the
 * "kind" string, which the caller resolves. */
static int read_finding(parser_t *p, ompdp_finding_t *f, char **kind_name) {
  if (peek(p) != '{')
    return type_error(p, "findings", "an array of objects");
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  size_t start = p->pos;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(FindingNames, F_NUM, key);
    int lm = m < 0 ? lookup(LocNames, L_COUNT, key) : -1;
    free(key);
    if (lm >= 0) {
      if (once(p, &seen, F_NUM + (unsigned)lm, LocNames[lm], at) ||
          get_loc_member(p, lm, &f->loc))
        return -1;
      continue;
    }
    if (m < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    if (once(p, &seen, (unsigned)m, FindingNames[m], at))
      return -1;
    int e = 0;
    switch (m) {
    case F_KIND: e = get_str(p, "kind", 0, kind_name); break;
    case F_COUNT: e = get_u64(p, "count", UINT64_MAX, &f->count); break;
    case F_BYTES: e = get_u64(p, "bytes", UINT64_MAX, &f->bytes); break;
    case F_TIME: e = get_u64(p, "time_ns", UINT64_MAX, &f->time_ns); break;
    case F_SAVED:
      e = get_u64(p, "time_saved_ns", UINT64_MAX, &f->time_saved_ns);
      break;
    case F_DEVICES: e = read_devices(p, f); break;
    case F_VARIABLE: e = get_str(p, "variable", 1, &f->variable); break;
    case F_CLAUSE: e = get_str(p, "clause", 1, &f->clause); break;
    case F_SUGGESTION: e = get_str(p, "suggestion", 1, &f->suggestion); break;
    case F_RELATED: e = read_related(p, &f->related); break;
    case F_SAME: e = get_u64(p, "same_buffer", UINT64_MAX, &f->same_buffer); break;
    case F_OTHER: e = get_u64(p, "other_buffer", UINT64_MAX, &f->other_buffer); break;
    case F_REGION_ID: e = read_hex64(p, "region_id", &f->region_id); break;
    case F_ITEM: e = read_item(p, &f->item); break;
    case F_RANGE: e = read_range(p, &f->range); break;
    case F_REWRITES: e = read_rewrites(p, f); break;
    case F_OPS: e = read_ops(p, "ops", &f->ops); break;
    }
    if (e)
      return -1;
  }
  if (r == 0 && !*kind_name)
    return fail_at(p, start, "a finding has no \"kind\"");
  return r;
}

static int read_findings(parser_t *p, ompdp_report_t *rep, size_t *unknown,
                         char *unknown_name, size_t unknown_size) {
  if (peek(p) != '[')
    return type_error(p, "findings", "an array");
  int state = 0, r;
  while ((r = arr_next(p, &state)) == 1) {
    ompdp_finding_t f;
    char *kind_name = NULL;
    memset(&f, 0, sizeof(f));
    f.item = -1;
    f.range.offset = f.range.end_offset = -1;
    if (read_finding(p, &f, &kind_name)) {
      ompdp_finding_free(&f);
      free(kind_name);
      return -1;
    }
    ompdp_finding_kind_t k = ompdp_finding_kind_from_json(kind_name);
    if (k == OMPDP_FK_COUNT) {
      /* A kind from a newer writer: skipped, and said so in a warning. */
      if (!(*unknown)++)
        printable(unknown_name, unknown_size, kind_name);
      ompdp_finding_free(&f);
      free(kind_name);
      continue;
    }
    free(kind_name);
    ompdp_finding_t *slot = ompdp_report_add_finding(rep, k);
    if (!slot) {
      ompdp_finding_free(&f);
      return oom(p);
    }
    f.kind = k;
    *slot = f;
  }
  return r;
}

static int read_string_array(parser_t *p, const char *name, char ***arr,
                             size_t *count) {
  size_t cap = 0;
  int state = 0, r;
  if (peek(p) != '[')
    return type_error(p, name, "an array of strings");
  while ((r = arr_next(p, &state)) == 1) {
    char *s = NULL;
    if (get_str(p, name, 0, &s))
      return -1;
    if (*count == cap) {
      size_t ncap = cap ? cap * 2 : 4;
      char **na = realloc(*arr, ncap * sizeof(*na));
      if (!na) {
        free(s);
        return oom(p);
      }
      *arr = na;
      cap = ncap;
    }
    (*arr)[(*count)++] = s;
  }
  return r;
}

enum { P_ARGV, P_EXIT, P_WALL, P_NUM };
static const char *const ProgramNames[P_NUM] = {"argv", "exit_status",
                                                "wall_time_ns"};

static int read_program(parser_t *p, ompdp_report_t *rep) {
  if (peek(p) != '{')
    return type_error(p, "program", "an object");
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(ProgramNames, P_NUM, key);
    free(key);
    if (m < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    if (once(p, &seen, (unsigned)m, ProgramNames[m], at))
      return -1;
    int e = 0;
    switch (m) {
    case P_ARGV:
      e = read_string_array(p, "argv", &rep->argv, &rep->argc);
      break;
    case P_EXIT:
      rep->has_exit_status = 0;
      if (!is_null(p)) {
        e = get_int(p, "exit_status", &rep->exit_status);
        rep->has_exit_status = !e;
      }
      break;
    case P_WALL:
      e = get_u64(p, "wall_time_ns", UINT64_MAX, &rep->wall_time_ns);
      break;
    }
    if (e)
      return -1;
  }
  return r;
}

static int read_summary(parser_t *p, ompdp_report_t *rep) {
  static const char *const Keys[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Title, Expl) Summary,
#include "ompdp/OmpdpFormat.inc"
  };
  if (peek(p) != '{')
    return type_error(p, "summary", "an object");
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int k = lookup(Keys, OMPDP_FK_COUNT, key);
    int e;
    if (k >= 0) {
      e = once(p, &seen, (unsigned)k, Keys[k], at) ||
          get_u64(p, Keys[k], UINT64_MAX, &rep->counts[k]);
    } else if (strcmp(key, "time_saved_ns") == 0) {
      e = once(p, &seen, OMPDP_FK_COUNT, "time_saved_ns", at) ||
          get_u64(p, "time_saved_ns", UINT64_MAX, &rep->time_saved_ns);
    } else if (strcmp(key, "predicted_speedup") == 0) {
      /* null stands for a value JSON cannot hold (the writer's inf/nan). */
      e = once(p, &seen, OMPDP_FK_COUNT + 1, "predicted_speedup", at);
      if (!e && !is_null(p))
        e = get_double(p, "predicted_speedup", &rep->predicted_speedup);
    } else {
      e = skip_value(p);
    }
    free(key);
    if (e)
      return -1;
  }
  return r;
}

enum { O_TRANSFERS, O_ALLOCS, O_DELETES, O_KERNELS, O_BYTES, O_TTIME, O_COLL, O_KTIME, O_OPS,
       O_NUM };
static const char *const ObservedNames[O_NUM] = {
    "transfers", "allocs", "deletes", "kernels", "bytes_transferred", "transfer_time_ns",
    "hash_collisions", "kernel_time_ns", "ops"};

/* "deletes" came later: a report without it reads as 0 deletes. */
static int read_observed(parser_t *p, ompdp_report_t *rep) {
  uint64_t *const Dest[O_NUM] = {&rep->num_transfers,     &rep->num_allocs,
                                 &rep->num_deletes,       &rep->num_kernels,
                                 &rep->bytes_transferred, &rep->transfer_time_ns,
                                 &rep->hash_collisions,   &rep->kernel_time_ns,
                                 NULL};
  if (peek(p) != '{')
    return type_error(p, "observed", "an object");
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(ObservedNames, O_NUM, key);
    free(key);
    if (m < 0 ? skip_value(p)
              : once(p, &seen, (unsigned)m, ObservedNames[m], at) ||
                    (m == O_OPS ? read_ops(p, "ops", &rep->observed_ops)
                                : get_u64(p, ObservedNames[m], UINT64_MAX, Dest[m])))
      return -1;
  }
  return r;
}

enum { RV_REASON, RV_FLUSHED, RV_EVENTS, RV_NUM };
static const char *const RecoveredNames[RV_NUM] = {"reason", "flushed_at_ns", "events"};

/* "recovered": null, or the object of a report recovered from a journal;
 * the reason is required (it is what marks the report as recovered). */
static int read_recovered(parser_t *p, ompdp_report_t *rep) {
  if (is_null(p))
    return 0;
  if (peek(p) != '{')
    return type_error(p, "recovered", "an object or null");
  size_t start = p->pos;
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(RecoveredNames, RV_NUM, key);
    free(key);
    if (m < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    if (once(p, &seen, (unsigned)m, RecoveredNames[m], at))
      return -1;
    int e = m == RV_REASON    ? get_str(p, "reason", 0, &rep->recovered_reason)
            : m == RV_FLUSHED ? get_u64(p, "flushed_at_ns", UINT64_MAX,
                                       &rep->recovered_flushed_at_ns)
                             : get_u64(p, "events", UINT64_MAX, &rep->recovered_events);
    if (e)
      return -1;
  }
  if (r)
    return r;
  if (!rep->recovered_reason)
    return fail_at(p, start, "\"recovered\" has no \"reason\"");
  return 0;
}

enum {
  T_VERSION, T_PROGRAM, T_SUMMARY, T_OBSERVED, T_PARTIAL, T_WARNINGS,
  T_FINDINGS, T_RECOVERED, T_NUM
};
static const char *const TopNames[T_NUM] = {
    "ompdp_report_version", "program", "summary", "observed", "partial",
    "warnings", "findings", "recovered"};

/* Pass 2: fills rep from a text whose syntax and version pass 1 checked. */
static int read_top(parser_t *p, ompdp_report_t *rep) {
  int state = 0, r;
  unsigned seen = 0;
  char *key;
  size_t unknown = 0;
  char unknown_name[64] = "";
  while ((r = obj_next(p, &state, &key)) == 1) {
    size_t at = p->pos;
    int m = lookup(TopNames, T_NUM, key);
    free(key);
    if (m < 0) {
      if (skip_value(p))
        return -1;
      continue;
    }
    if (once(p, &seen, (unsigned)m, TopNames[m], at))
      return -1;
    int e = 0;
    switch (m) {
    case T_VERSION: e = skip_value(p); break;
    case T_PROGRAM: e = read_program(p, rep); break;
    case T_SUMMARY: e = read_summary(p, rep); break;
    case T_OBSERVED: e = read_observed(p, rep); break;
    case T_PARTIAL: e = get_bool(p, "partial", &rep->partial); break;
    case T_WARNINGS:
      e = read_string_array(p, "warnings", &rep->warnings, &rep->num_warnings);
      break;
    case T_FINDINGS:
      e = read_findings(p, rep, &unknown, unknown_name, sizeof(unknown_name));
      break;
    case T_RECOVERED: e = read_recovered(p, rep); break;
    }
    if (e)
      return -1;
  }
  if (r)
    return r;
  static const int Required[] = {T_PROGRAM, T_SUMMARY, T_FINDINGS};
  for (size_t i = 0; i < sizeof(Required) / sizeof(Required[0]); ++i)
    if (!(seen & (1u << Required[i]))) {
      set_err(p, "the report has no \"%s\"", TopNames[Required[i]]);
      return -1;
    }
  if (unknown) {
    char msg[160];
    snprintf(msg, sizeof(msg),
             "%zu finding(s) of a kind this ompdp does not know (\"%s\") were "
             "left out",
             unknown, unknown_name);
    if (ompdp_report_add_warning(rep, msg))
      return oom(p);
  }
  return 0;
}

/* Pass 1: checks the syntax of the whole text and the version. */
static int check_version(parser_t *p) {
  ws(p);
  if (p->pos >= p->n) {
    set_err(p, "not an ompdp report (the file is empty)");
    return -1;
  }
  if (peek(p) != '{') {
    set_err(p, "not an ompdp report (expected a JSON object)");
    return -1;
  }
  int state = 0, r, found = 0;
  number_t ver;
  memset(&ver, 0, sizeof(ver));
  int ver_type_ok = 0;
  char *key;
  while ((r = obj_next(p, &state, &key)) == 1) {
    int is_ver = strcmp(key, "ompdp_report_version") == 0;
    free(key);
    if (is_ver && !found) {
      found = 1;
      int c = peek(p);
      if (c == '-' || is_digit(c)) {
        if (parse_number(p, &ver))
          return -1;
        ver_type_ok = ver.is_int;
        continue;
      }
    }
    if (skip_value(p))
      return -1;
  }
  if (r)
    return -1;
  ws(p);
  if (p->pos < p->n)
    return fail_at(p, p->pos, "unexpected data after the report");
  if (!found) {
    set_err(p, "not an ompdp report (no \"ompdp_report_version\")");
    return -1;
  }
  if (!ver_type_ok) {
    set_err(p, "not an ompdp report (\"ompdp_report_version\" is not an integer)");
    return -1;
  }
  if (ver.neg || ver.overflow || ver.mag < OMPDP_REPORT_MIN_VERSION ||
      ver.mag > OMPDP_REPORT_VERSION) {
    char text[32];
    size_t len = ver.len < sizeof(text) - 4 ? ver.len : sizeof(text) - 4;
    memcpy(text, p->s + ver.at, len);
    strcpy(text + len, len < ver.len ? "..." : "");
    set_err(p,
            "report version %s is not supported (this ompdp reads versions %d "
            "to %d)",
            text, OMPDP_REPORT_MIN_VERSION, OMPDP_REPORT_VERSION);
    return -1;
  }
  return 0;
}

int ompdp_report_read_json(const char *text, size_t len, ompdp_report_t *r,
                           char *err, size_t errlen) {
  parser_t p = {0};
  p.err = err;
  p.errlen = errlen;
  if (err && errlen)
    err[0] = '\0';
  ompdp_report_init(r);
  if (!text) {
    set_err(&p, "no report text");
    return -1;
  }
  if (len > MAX_REPORT_BYTES) {
    set_err(&p, "the report is larger than %zu MiB", MAX_REPORT_BYTES >> 20);
    return -1;
  }
  p.s = text;
  p.n = len;
  /* A UTF-8 byte order mark is not JSON, but editors add it. */
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3))
    p.pos = 3;
  size_t start = p.pos;
  /* Pass 1 sees only syntax errors (and the version); pass 2 only errors in
   * the report's structure. */
  p.what = "invalid JSON at ";
  if (check_version(&p))
    return -1;
  p.what = NULL;
  p.pos = start;
  p.depth = 0;
  ws(&p);
  if (read_top(&p, r)) {
    ompdp_report_free(r);
    return -1;
  }
  /* MPI: the rank, a merged report's ranks and spreads (report/process_read.c). */
  if (ompdp_process_read_json(text, len, r, err, errlen)) {
    ompdp_report_free(r);
    return -1;
  }
  return 0;
}

/* snprintf into a caller's buffer that may be absent. */
static void file_err(char *err, size_t errlen, const char *fmt, ...) {
  if (!err || !errlen)
    return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
}

int ompdp_read_file_capped(const char *path, size_t max, const char *what, char **out,
                           size_t *out_len, char *err, size_t errlen) {
  *out = NULL;
  *out_len = 0;
  if (err && errlen)
    err[0] = '\0';
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    file_err(err, errlen, "cannot read '%s': %s", path, strerror(errno));
    return -1;
  }
  struct stat st;
  int regular = 0;
  size_t cap = 65536;
  if (fstat(fd, &st) == 0) {
    if (S_ISDIR(st.st_mode)) {
      file_err(err, errlen, "cannot read '%s': %s", path, strerror(EISDIR));
      close(fd);
      return -1;
    }
    regular = S_ISREG(st.st_mode);
    if (regular && (uint64_t)st.st_size > max) {
      file_err(err, errlen, "%s: the %s is larger than %zu MiB", path, what, max >> 20);
      close(fd);
      return -1;
    }
    if (regular && st.st_size > 0)
      cap = (size_t)st.st_size + 1;
  }
  /* Read to the end rather than trusting st_size: the file may be a pipe,
   * or still growing. One byte past the cap tells a too-large input. */
  size_t len = 0;
  char *buf = malloc(cap);
  int saved = buf ? 0 : ENOMEM;
  while (!saved) {
    if (len == cap) {
      if (cap > max) {
        saved = EFBIG;
        break;
      }
      size_t ncap = cap > max / 2 ? max + 1 : cap * 2;
      char *nb = realloc(buf, ncap);
      if (!nb) {
        saved = ENOMEM;
        break;
      }
      buf = nb;
      cap = ncap;
    }
    ssize_t got = read(fd, buf + len, cap - len);
    if (got < 0) {
      if (errno != EINTR)
        saved = errno;
      continue;
    }
    if (got == 0)
      break;
    len += (size_t)got;
  }
  close(fd);
  if (saved == EFBIG || (!saved && len > max)) {
    file_err(err, errlen, "%s: the %s is larger than %zu MiB", path, what, max >> 20);
    free(buf);
    return -1;
  }
  if (saved) {
    file_err(err, errlen, "cannot read '%s': %s", path, strerror(saved));
    free(buf);
    return -1;
  }
  *out = buf;
  *out_len = len;
  return 0;
}

int ompdp_report_read_json_file(const char *path, ompdp_report_t *r,
                                char *err, size_t errlen) {
  ompdp_report_init(r);
  char *buf;
  size_t len;
  if (ompdp_read_file_capped(path, MAX_REPORT_BYTES, "report", &buf, &len, err, errlen))
    return -1;
  char reason[512];
  int rc = ompdp_report_read_json(buf, len, r, reason, sizeof(reason));
  free(buf);
  if (rc)
    file_err(err, errlen, "%s: %s", path, reason);
  return rc;
}
