/*===- cost_model.c - device profiles and the projection of a report ------===*\
|*
|* Parses and writes device profiles (docs/devices.md), evaluates their
|* curves, and prices a report's operations on one. The parser reads files
|* that anyone may hand to `ompdp report --device=FILE`, so it is strict and
|* bounded: one line at a time of at most 1024 bytes, known keys only, finite
|* non-negative numbers, sizes that increase, a fixed number of points; every
|* refusal is one line naming the file and the line.
|*
|* A projection keeps what the run measured and changes only the prices:
|* the program's wall time loses the measured time of its data operations
|* and gains their projected time (and kernels their scaling), each finding
|* and rewrite is priced from the operations it removes, and the total the
|* fixes save is the measured union scaled by projected over measured (a
|* transfer that two findings count stays counted once).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strtod_l, newlocale */
#include "cost_model.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* From the build (cmake/ompdp_devices.cmake, from devices/NAME.txt). */
typedef struct ompdp_builtin_profile {
  const char *name;
  const char *text;
} ompdp_builtin_profile_t;
extern const ompdp_builtin_profile_t ompdp_builtin_profiles[];
extern const size_t ompdp_builtin_profiles_count;

static const char *const OpKey[OMPDP_COST_COUNT] = {
#define OMPDP_X(Enum, Key, Desc) Key,
    OMPDP_COST_OPS(OMPDP_X)
#undef OMPDP_X
};
static const char *const OpDesc[OMPDP_COST_COUNT] = {
#define OMPDP_X(Enum, Key, Desc) Desc,
    OMPDP_COST_OPS(OMPDP_X)
#undef OMPDP_X
};
static const char *const ClassJson[OMPDP_OC_COUNT] = {
#define OMPDP_OP_CLASS(Enum, Json, Desc) Json,
#include "ompdp/OmpdpFormat.inc"
};

const char *ompdp_cost_op_key(ompdp_cost_op_t op) {
  return (unsigned)op < OMPDP_COST_COUNT ? OpKey[op] : "unknown";
}
const char *ompdp_cost_op_description(ompdp_cost_op_t op) {
  return (unsigned)op < OMPDP_COST_COUNT ? OpDesc[op] : "unknown";
}
const char *ompdp_op_class_json(ompdp_op_class_t c) {
  return (unsigned)c < OMPDP_OC_COUNT ? ClassJson[c] : "unknown";
}

uint64_t ompdp_ops_count(const ompdp_ops_t *ops) {
  uint64_t n = 0;
  for (int c = 0; c < OMPDP_OC_COUNT; ++c)
    n += ops->c[c].count;
  return n;
}
uint64_t ompdp_ops_time(const ompdp_ops_t *ops) {
  uint64_t t = 0;
  for (int c = 0; c < OMPDP_OC_COUNT; ++c)
    t += ops->c[c].time_ns;
  return t;
}

void ompdp_projection_free(ompdp_projection_t *p) {
  if (!p)
    return;
  free(p->device);
  free(p->source);
  free(p);
}

/*===- parsing ----------------------------------------------------------------===*/

#define MAX_LINE 1024

typedef struct pstate {
  const char *what;
  unsigned line;
  char *err;
  size_t errlen;
  locale_t c_locale;
} pstate_t;

__attribute__((format(printf, 2, 3))) static int perr(pstate_t *s, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  if (s->line)
    snprintf(s->err, s->errlen, "%s:%u: %s", s->what, s->line, msg);
  else
    snprintf(s->err, s->errlen, "%s: %s", s->what, msg);
  return -1;
}

/* Next blank-separated token of *p (NUL-terminating it), or NULL. */
static char *token(char **p) {
  char *s = *p;
  while (*s == ' ' || *s == '\t')
    ++s;
  if (!*s)
    return *p = s, NULL;
  char *t = s;
  while (*s && *s != ' ' && *s != '\t')
    ++s;
  if (*s)
    *s++ = '\0';
  *p = s;
  return t;
}

/* The rest of the line, trimmed. */
static char *rest(char *p) {
  while (*p == ' ' || *p == '\t')
    ++p;
  size_t n = strlen(p);
  while (n && (p[n - 1] == ' ' || p[n - 1] == '\t'))
    p[--n] = '\0';
  return p;
}

/* A finite number >= 0 (and an integer, when integral is set). */
static int number(pstate_t *s, const char *tok, const char *what, int integral, double *out) {
  if (!tok)
    return perr(s, "%s is missing", what);
  /* Only plain decimal numbers: no "inf", "nan", hex floats. */
  for (const char *q = tok; *q; ++q)
    if (!isdigit((unsigned char)*q) && *q != '.' && *q != 'e' && *q != 'E' && *q != '+' &&
        *q != '-')
      return perr(s, "%s must be a number, not '%.40s'", what, tok);
  errno = 0;
  char *end;
  double d = s->c_locale ? strtod_l(tok, &end, s->c_locale) : strtod(tok, &end);
  if (end == tok || *end)
    return perr(s, "%s must be a number, not '%.40s'", what, tok);
  if (!isfinite(d) || errno == ERANGE || d > 1e18)
    return perr(s, "%s is out of range: %.40s", what, tok);
  if (d < 0)
    return perr(s, "%s must not be negative: %.40s", what, tok);
  /* d is in [0, 1e18] here, where the conversion is exact. */
  if (integral && d != (double)(uint64_t)d)
    return perr(s, "%s must be a whole number of bytes: %.40s", what, tok);
  *out = d;
  return 0;
}

static int op_by_key(const char *key) {
  for (int i = 0; i < OMPDP_COST_COUNT; ++i)
    if (!strcmp(key, OpKey[i]))
      return i;
  return -1;
}

static int valid_name(const char *n) {
  if (!*n || strlen(n) >= 64)
    return 0;
  for (const char *q = n; *q; ++q)
    if (!isalnum((unsigned char)*q) && *q != '-' && *q != '_' && *q != '.')
      return 0;
  return 1;
}

static int add_point(pstate_t *s, ompdp_cost_curve_t *c, const char *key, double size,
                     double t) {
  if (c->n && size <= c->pt[c->n - 1].size)
    return perr(s, "%s: sizes must increase (%.0f after %.0f)", key, size,
                c->pt[c->n - 1].size);
  if (c->n == OMPDP_PROFILE_MAX_POINTS)
    return perr(s, "%s: more than %d points", key, OMPDP_PROFILE_MAX_POINTS);
  c->pt[c->n++] = (ompdp_cost_point_t){size, t};
  c->given = 1;
  return 0;
}

static int parse_line(pstate_t *s, char *line, int *have_header, ompdp_device_profile_t *p,
                      int *num_aliases) {
  char *cur = line;
  char *key = token(&cur);
  if (!key || key[0] == '#')
    return 0;
  if (!*have_header) {
    if (strcmp(key, "ompdp-device-profile"))
      return perr(s, "not an ompdp device profile (the first line must be "
                     "'ompdp-device-profile %d')",
                  OMPDP_PROFILE_VERSION);
    double v;
    if (number(s, token(&cur), "the profile version", 1, &v))
      return -1;
    if (v != OMPDP_PROFILE_VERSION)
      return perr(s, "profile version %.0f is not supported (this ompdp reads version %d)", v,
                  OMPDP_PROFILE_VERSION);
    if (token(&cur))
      return perr(s, "unexpected text after the version");
    *have_header = 1;
    return 0;
  }
  if (!strcmp(key, "name") || !strcmp(key, "alias")) {
    char *n = token(&cur);
    if (!n || token(&cur) || !valid_name(n))
      return perr(s, "%s wants one word of letters, digits, '-', '_' or '.' (at most 63)", key);
    if (!strcmp(key, "name")) {
      if (p->name[0])
        return perr(s, "the profile has two names");
      strcpy(p->name, n);
    } else {
      if (*num_aliases == OMPDP_PROFILE_MAX_ALIASES)
        return perr(s, "more than %d aliases", OMPDP_PROFILE_MAX_ALIASES);
      strcpy(p->aliases[(*num_aliases)++], n);
    }
    return 0;
  }
  if (!strcmp(key, "description")) {
    const char *d = rest(cur);
    if (strlen(d) >= sizeof(p->description))
      return perr(s, "the description is longer than %zu bytes", sizeof(p->description) - 1);
    for (const char *q = d; *q; ++q)
      if ((unsigned char)*q < 0x20 || *q == 0x7f)
        return perr(s, "the description holds a control character");
    strcpy(p->description, d);
    return 0;
  }
  int op = op_by_key(key);
  if (op < 0)
    return perr(s, "unknown key '%.40s' (expected name, alias, description or an operation: "
                   "h2d_pageable, h2d_pinned, d2h_pageable, d2h_pinned, d2d, alloc, free)",
                key);
  ompdp_cost_curve_t *c = &p->op[op];
  char *form = token(&cur);
  double a, b;
  if (!form)
    return perr(s, "%s wants 'point SIZE NS', 'latency NS' or 'bandwidth GBPS'", key);
  if (!strcmp(form, "point")) {
    if (number(s, token(&cur), "the size", 1, &a) || number(s, token(&cur), "the time", 0, &b))
      return -1;
    if (token(&cur))
      return perr(s, "unexpected text after '%s point SIZE NS'", key);
    return add_point(s, c, key, a, b);
  }
  if (!strcmp(form, "latency")) {
    if (number(s, token(&cur), "the latency", 0, &a))
      return -1;
    if (token(&cur))
      return perr(s, "unexpected text after '%s latency NS'", key);
    return add_point(s, c, key, 0, a);
  }
  if (!strcmp(form, "bandwidth")) {
    if (number(s, token(&cur), "the bandwidth", 0, &a))
      return -1;
    if (token(&cur))
      return perr(s, "unexpected text after '%s bandwidth GBPS'", key);
    if (a <= 0)
      return perr(s, "%s: the bandwidth must be positive", key);
    if (c->bandwidth > 0)
      return perr(s, "%s: two bandwidths", key);
    c->bandwidth = a; /* GB/s = bytes per ns */
    c->given = 1;
    return 0;
  }
  return perr(s, "%s wants 'point SIZE NS', 'latency NS' or 'bandwidth GBPS', not '%.40s'", key,
              form);
}

/* What no device reaches. A copy between host and device crosses a link:
 * PCIe 5 x16 moves 64 GB/s, NVLink-C2C (GH200) 450 GB/s each way; a copy
 * within device memory reads and writes it (HBM3e: under 5 TB/s). A
 * figure beyond these timed only the enqueue of an asynchronous copy (the
 * H200 once "moved" 64 MiB in 11 us), and would make every saving wrong:
 * the profile is refused, with the figure that breaks the bound. So is a
 * copy faster than any copy's latency (a hand-written allocation or free
 * may cost nothing). */
#define MAX_LINK_GBPS 1000.0
#define MAX_D2D_GBPS 10000.0
#define MIN_OP_NS 10.0

static int check_physical(pstate_t *s, const ompdp_device_profile_t *p) {
  for (int op = 0; op < OMPDP_COST_COUNT; ++op) {
    const ompdp_cost_curve_t *c = &p->op[op];
    if (!c->given)
      continue;
    int copy = op != OMPDP_COST_ALLOC && op != OMPDP_COST_FREE;
    double max = op == OMPDP_COST_D2D ? MAX_D2D_GBPS : MAX_LINK_GBPS;
    for (size_t i = 0; i < c->n; ++i) {
      const ompdp_cost_point_t *pt = &c->pt[i];
      char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF];
      if (copy && pt->time_ns < MIN_OP_NS)
        return perr(s, "%s at %s: %s is below any copy's latency (%.0f ns): the "
                       "clock did not time it",
                    OpKey[op], ompdp_format_bytes(b1, (uint64_t)pt->size),
                    ompdp_format_time(b2, (uint64_t)pt->time_ns), MIN_OP_NS);
      if (copy && pt->size >= 65536 && pt->size / pt->time_ns > max)
        return perr(s, "%s at %s: %s is %.0f GB/s, beyond any %s (at most %.0f GB/s): only the "
                       "start of the copy was timed, not its completion",
                    OpKey[op], ompdp_format_bytes(b1, (uint64_t)pt->size),
                    ompdp_format_time(b2, (uint64_t)pt->time_ns), pt->size / pt->time_ns,
                    op == OMPDP_COST_D2D ? "device memory" : "host-device link", max);
    }
    if (copy && c->bandwidth > max)
      return perr(s, "%s bandwidth %.0f GB/s is beyond any %s (at most %.0f GB/s)", OpKey[op],
                  c->bandwidth, op == OMPDP_COST_D2D ? "device memory" : "host-device link", max);
  }
  return 0;
}

int ompdp_profile_parse(const char *text, size_t len, const char *what,
                        ompdp_device_profile_t *p, char *err, size_t errlen) {
  memset(p, 0, sizeof(*p));
  pstate_t s = {what ? what : "profile", 0, err, errlen, newlocale(LC_ALL_MASK, "C", (locale_t)0)};
  int rc = 0, have_header = 0, num_aliases = 0;
  if (len > OMPDP_PROFILE_MAX_BYTES) {
    rc = perr(&s, "larger than %u bytes", OMPDP_PROFILE_MAX_BYTES);
    goto out;
  }
  char line[MAX_LINE + 1];
  size_t i = 0;
  while (i < len && !rc) {
    ++s.line;
    size_t n = 0;
    while (i < len && text[i] != '\n') {
      if (text[i] == '\0') {
        rc = perr(&s, "a NUL byte");
        goto out;
      }
      if (n == MAX_LINE) {
        rc = perr(&s, "a line longer than %d bytes", MAX_LINE);
        goto out;
      }
      line[n++] = text[i++];
    }
    if (i < len)
      ++i; /* the newline */
    if (n && line[n - 1] == '\r')
      --n;
    line[n] = '\0';
    rc = parse_line(&s, line, &have_header, p, &num_aliases);
  }
  if (rc)
    goto out;
  s.line = 0;
  if (!have_header) {
    rc = perr(&s, "empty: not an ompdp device profile");
    goto out;
  }
  if (!p->name[0]) {
    rc = perr(&s, "the profile has no name");
    goto out;
  }
  static const ompdp_cost_op_t Required[] = {OMPDP_COST_H2D_PAGEABLE, OMPDP_COST_D2H_PAGEABLE,
                                             OMPDP_COST_ALLOC, OMPDP_COST_FREE};
  for (size_t k = 0; k < sizeof(Required) / sizeof(Required[0]); ++k)
    if (!p->op[Required[k]].given) {
      rc = perr(&s, "no figures for %s (%s)", OpKey[Required[k]], OpDesc[Required[k]]);
      goto out;
    }
  if ((rc = check_physical(&s, p)))
    goto out;
  /* Fallbacks, marked as not given so that writing the profile back keeps
   * them out. */
  if (!p->op[OMPDP_COST_H2D_PINNED].given)
    p->op[OMPDP_COST_H2D_PINNED] = p->op[OMPDP_COST_H2D_PAGEABLE], p->op[OMPDP_COST_H2D_PINNED].given = 0;
  if (!p->op[OMPDP_COST_D2H_PINNED].given)
    p->op[OMPDP_COST_D2H_PINNED] = p->op[OMPDP_COST_D2H_PAGEABLE], p->op[OMPDP_COST_D2H_PINNED].given = 0;
  if (!p->op[OMPDP_COST_D2D].given)
    p->op[OMPDP_COST_D2D] = p->op[OMPDP_COST_H2D_PINNED], p->op[OMPDP_COST_D2D].given = 0;
out:
  if (s.c_locale)
    freelocale(s.c_locale);
  return rc;
}

/*===- loading ----------------------------------------------------------------===*/

size_t ompdp_profile_builtin_count(void) { return ompdp_builtin_profiles_count; }
const char *ompdp_profile_builtin_name(size_t i) {
  return i < ompdp_builtin_profiles_count ? ompdp_builtin_profiles[i].name : NULL;
}
const char *ompdp_profile_builtin_text(size_t i) {
  return i < ompdp_builtin_profiles_count ? ompdp_builtin_profiles[i].text : NULL;
}

static int builtin_matches(const ompdp_device_profile_t *p, const char *spec) {
  if (!strcasecmp(p->name, spec))
    return 1;
  for (int a = 0; a < OMPDP_PROFILE_MAX_ALIASES; ++a)
    if (p->aliases[a][0] && !strcasecmp(p->aliases[a], spec))
      return 1;
  return 0;
}

int ompdp_profile_load(const char *spec, ompdp_device_profile_t *p, int *builtin, char *err,
                       size_t errlen) {
  *builtin = 0;
  if (!spec || !*spec) {
    snprintf(err, errlen, "--device needs a device name or a profile file");
    return -1;
  }
  if (!strchr(spec, '/')) {
    for (size_t i = 0; i < ompdp_builtin_profiles_count; ++i) {
      char what[96];
      snprintf(what, sizeof(what), "built-in profile %s", ompdp_builtin_profiles[i].name);
      const char *t = ompdp_builtin_profiles[i].text;
      if (ompdp_profile_parse(t, strlen(t), what, p, err, errlen))
        return -1; /* a broken build; the unit tests parse every one */
      if (builtin_matches(p, spec)) {
        *builtin = 1;
        return 0;
      }
    }
  }
  char *text = NULL;
  size_t len = 0;
  char ferr[512];
  int missing = access(spec, F_OK) != 0 && errno == ENOENT;
  if (ompdp_read_file_capped(spec, OMPDP_PROFILE_MAX_BYTES, "profile", &text, &len, ferr,
                             sizeof(ferr))) {
    if (!strchr(spec, '/') && missing) {
      char names[256] = "";
      size_t off = 0;
      for (size_t i = 0; i < ompdp_builtin_profiles_count && off < sizeof(names); ++i)
        off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? ", " : "",
                                ompdp_builtin_profiles[i].name);
      snprintf(err, errlen,
               "unknown device '%s': not a built-in profile (%s; 'ompdp devices' lists them "
               "with their aliases) nor a profile file",
               spec, names);
    } else {
      snprintf(err, errlen, "%s", ferr);
    }
    return -1;
  }
  int rc = ompdp_profile_parse(text, len, spec, p, err, errlen);
  free(text);
  return rc;
}

/*===- writing ----------------------------------------------------------------===*/

/* %.17g is exact but ugly; the shortest of 6..17 digits that reads back. */
static void put_num(FILE *out, double d) {
  char buf[64];
  for (int prec = 6; prec <= 17; ++prec) {
    snprintf(buf, sizeof(buf), "%.*g", prec, d);
    if (strtod(buf, NULL) == d)
      break;
  }
  for (char *q = buf; *q; ++q)
    if (*q == ',')
      *q = '.'; /* a decimal comma from the caller's locale */
  fputs(buf, out);
}

int ompdp_profile_write(const ompdp_device_profile_t *p, FILE *out) {
  errno = 0;
  fprintf(out, "ompdp-device-profile %d\nname %s\n", OMPDP_PROFILE_VERSION, p->name);
  for (int a = 0; a < OMPDP_PROFILE_MAX_ALIASES; ++a)
    if (p->aliases[a][0])
      fprintf(out, "alias %s\n", p->aliases[a]);
  if (p->description[0])
    fprintf(out, "description %s\n", p->description);
  for (int op = 0; op < OMPDP_COST_COUNT; ++op) {
    const ompdp_cost_curve_t *c = &p->op[op];
    if (!c->given)
      continue;
    fprintf(out, "# %s: %s\n", OpKey[op], OpDesc[op]);
    for (size_t i = 0; i < c->n; ++i) {
      fprintf(out, "%s point %.0f ", OpKey[op], c->pt[i].size);
      put_num(out, c->pt[i].time_ns);
      fputc('\n', out);
    }
    if (c->bandwidth > 0) {
      fprintf(out, "%s bandwidth ", OpKey[op]);
      put_num(out, c->bandwidth);
      fputc('\n', out);
    }
  }
  if (fflush(out) || ferror(out)) {
    if (!errno)
      errno = EIO;
    return -1;
  }
  return 0;
}

/*===- evaluation -------------------------------------------------------------===*/

double ompdp_profile_time(const ompdp_device_profile_t *p, ompdp_cost_op_t op, double size) {
  if ((unsigned)op >= OMPDP_COST_COUNT || !(size >= 0))
    return 0;
  const ompdp_cost_curve_t *c = &p->op[op];
  if (c->n == 0)
    return c->bandwidth > 0 ? size / c->bandwidth : 0;
  const ompdp_cost_point_t *pt = c->pt;
  if (size <= pt[0].size)
    return pt[0].time_ns;
  size_t lo = 0, hi = c->n - 1;
  if (size < pt[hi].size) {
    while (hi - lo > 1) { /* pt[lo].size < size < pt[hi].size */
      size_t mid = lo + (hi - lo) / 2;
      if (pt[mid].size <= size)
        lo = mid;
      else
        hi = mid;
    }
    double f = (size - pt[lo].size) / (pt[hi].size - pt[lo].size);
    return pt[lo].time_ns + f * (pt[hi].time_ns - pt[lo].time_ns);
  }
  /* Past the last point: at the given bandwidth, else at the last point's
   * own (its size over its time: a measured last segment is too noisy to
   * extrapolate from). */
  const ompdp_cost_point_t *last = &pt[c->n - 1];
  double per_byte = 0;
  if (c->bandwidth > 0)
    per_byte = 1.0 / c->bandwidth;
  else if (last->size > 0)
    per_byte = last->time_ns / last->size;
  return last->time_ns + (size - last->size) * per_byte;
}

ompdp_cost_op_t ompdp_cost_op_for(ompdp_op_class_t c, int pinned) {
  switch (c) {
  case OMPDP_OC_H2D:
    return pinned ? OMPDP_COST_H2D_PINNED : OMPDP_COST_H2D_PAGEABLE;
  case OMPDP_OC_D2H:
    return pinned ? OMPDP_COST_D2H_PINNED : OMPDP_COST_D2H_PAGEABLE;
  case OMPDP_OC_D2D:
    return OMPDP_COST_D2D;
  case OMPDP_OC_ALLOC:
    return OMPDP_COST_ALLOC;
  case OMPDP_OC_DELETE:
    return OMPDP_COST_FREE;
  case OMPDP_OC_COUNT:
    break;
  }
  return OMPDP_COST_H2D_PAGEABLE;
}

double ompdp_ops_project(const ompdp_device_profile_t *p, const ompdp_ops_t *ops, int pinned) {
  double t = 0;
  for (int c = 0; c < OMPDP_OC_COUNT; ++c) {
    const ompdp_opstat_t *s = &ops->c[c];
    if (!s->count)
      continue;
    double mean = (double)s->bytes / (double)s->count;
    /* The runtime does not see how much a delete frees: the allocations
     * counted with it tell. */
    if (c == OMPDP_OC_DELETE && !s->bytes && ops->c[OMPDP_OC_ALLOC].count)
      mean = (double)ops->c[OMPDP_OC_ALLOC].bytes / (double)ops->c[OMPDP_OC_ALLOC].count;
    t += (double)s->count * ompdp_profile_time(p, ompdp_cost_op_for((ompdp_op_class_t)c, pinned),
                                               mean);
  }
  return t;
}

/*===- projection -------------------------------------------------------------===*/

static void set(ompdp_ops_t *o, ompdp_op_class_t c, uint64_t n, uint64_t bytes, uint64_t t) {
  o->c[c].count = n;
  o->c[c].bytes = bytes;
  o->c[c].time_ns = t;
}

void ompdp_ops_infer_finding(const ompdp_finding_t *f, ompdp_ops_t *out) {
  memset(out, 0, sizeof(*out));
  /* The kind says which (OmpdpFormat.inc): a round trip's are the copies
   * that bring the data back to the device, an overbroad map's mostly
   * copies in. */
  ompdp_op_class_t c = ompdp_finding_kind_op_class(f->kind);
  set(out, c, f->count, f->bytes, f->time_ns);
  if (c == OMPDP_OC_ALLOC) /* each with its delete; the time is of both */
    set(out, OMPDP_OC_DELETE, f->count, f->bytes, 0);
}

void ompdp_ops_infer_rewrite(const ompdp_rewrite_t *rw, ompdp_ops_t *out) {
  memset(out, 0, sizeof(*out));
  set(out, OMPDP_OC_H2D, rw->transfers_removed, rw->bytes_removed, rw->time_saved_ns);
  uint64_t size = rw->transfers_removed ? rw->bytes_removed / rw->transfers_removed : 0;
  set(out, OMPDP_OC_ALLOC, rw->allocs_removed, rw->allocs_removed * size, 0);
  set(out, OMPDP_OC_DELETE, rw->allocs_removed, rw->allocs_removed * size, 0);
}

static uint64_t to_ns(double d) {
  if (!(d > 0))
    return 0;
  if (d >= 1.8e19)
    return UINT64_MAX;
  return (uint64_t)(d + 0.5); /* d + 0.5 < 2^64: no overflow */
}

int ompdp_report_project(ompdp_report_t *r, const ompdp_device_profile_t *p,
                         const ompdp_projection_opts_t *o) {
  ompdp_projection_t *pr = calloc(1, sizeof(*pr));
  if (!pr)
    return -1;
  pr->device = ompdp_strdup(p->name);
  pr->source = ompdp_strdup(o->source ? o->source : "built-in");
  if (!pr->device || !pr->source) {
    ompdp_projection_free(pr);
    return -1;
  }
  pr->pinned = o->pinned;
  pr->kernel_scale = o->kernel_scale > 0 ? o->kernel_scale : 1.0;
  pr->kernel_time_ns = r->kernel_time_ns;

  /* The run: only classes whose measured time is known move the wall. */
  ompdp_ops_t obs = r->observed_ops;
  if (!obs.known) {
    memset(&obs, 0, sizeof(obs));
    set(&obs, OMPDP_OC_H2D, r->num_transfers, r->bytes_transferred, r->transfer_time_ns);
    pr->inferred = 1;
  }
  double measured = (double)ompdp_ops_time(&obs);
  double projected = ompdp_ops_project(p, &obs, o->pinned);
  double wall = (double)r->wall_time_ns - measured + projected +
                (pr->kernel_scale - 1.0) * (double)r->kernel_time_ns;
  if (wall < projected)
    wall = projected; /* the data operations alone take this long */
  if (wall < 1)
    wall = 1;
  pr->data_time_ns = to_ns(measured);
  pr->projected_data_time_ns = to_ns(projected);

  /* Findings: priced from their operations, with the overlap their
   * measured union had. Rewrites: what they remove less what they add. */
  double sum_measured = 0, sum_projected = 0;
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    ompdp_ops_t ops = f->ops;
    if (!ops.known) {
      ompdp_ops_infer_finding(f, &ops);
      pr->inferred = 1;
    }
    double t = ompdp_ops_project(p, &ops, o->pinned);
    if (f->time_ns > 0 && f->time_saved_ns < f->time_ns)
      t *= (double)f->time_saved_ns / (double)f->time_ns;
    f->projected_saved_ns = to_ns(t);
    /* The summary's saving counts only the findings whose verdict saves
     * (r->time_saved_ns already leaves the others out). */
    if (ompdp_verdict_saves(f->verdict)) {
      sum_measured += (double)f->time_saved_ns;
      sum_projected += t;
    }
    for (size_t j = 0; j < f->num_rewrites; ++j) {
      ompdp_rewrite_t *rw = &f->rewrites[j];
      ompdp_ops_t removed = rw->ops, added = rw->ops_added;
      if (!removed.known) {
        ompdp_ops_infer_rewrite(rw, &removed);
        memset(&added, 0, sizeof(added));
        pr->inferred = 1;
      }
      rw->projected_saved_ns = to_ns(ompdp_ops_project(p, &removed, o->pinned) -
                                     ompdp_ops_project(p, &added, o->pinned));
    }
  }
  double saved = sum_measured > 0 ? (double)r->time_saved_ns * (sum_projected / sum_measured)
                                  : sum_projected;
  if (saved >= wall)
    saved = wall - 1;
  if (saved < 0)
    saved = 0;
  pr->wall_time_ns = to_ns(wall);
  pr->time_saved_ns = to_ns(saved);
  pr->predicted_speedup = wall / (wall - (double)pr->time_saved_ns);
  ompdp_projection_free(r->projection);
  r->projection = pr;
  return 0;
}
