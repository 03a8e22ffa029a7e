/*===- timeline_read.c - reading a report with its timeline --------------===*\
|*
|* The driver reads a saved report with the report reader, which checks the
|* "timeline" section but leaves it out of jansson's tree (json_load.c), and
|* then reads that section here, in place, with the pull reader of
|* json_scan.h: a timeline of every event (timeline=full) is most of a long
|* run's report, and reading it costs time and memory in proportion to the
|* operations it holds, about 70 bytes of model each, with no tree and no
|* second parse. A section that is there must be whole and well-formed:
|* anything else (a wrong type, a number out of range, a link to a finding
|* the report does not have, another version, a member of its own objects
|* twice) is refused with one line that says where, like the rest of the
|* report.
|*
|* Findings are linked by their position in the file's "findings" array,
|* which the report reader gives each finding it holds as timeline_id; it
|* skips kinds it does not know, and links to those are left out.
|*
\*===----------------------------------------------------------------------===*/
#include "timeline.h"

#include "journal_format.h"
#include "report.h"

#include "json_load.h"
#include "json_scan.h"

#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct rd {
  ompdp_json_doc_t *d;
  ompdp_js_t s;
  size_t nfind;    /* findings in the file */
  size_t cap_ops, cap_links;
} rd_t;

__attribute__((format(printf, 2, 3))) static int fail(rd_t *d, const char *fmt, ...) {
  char msg[256];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  return ompdp_json_fail(d->d, "timeline: %s", msg);
}

/* A number at the position, as an integer: 1 (in *n), 0 when it is no
 * integer (a fraction, a string, ...; then not moved past), -1. */
static int integer(rd_t *d, ompdp_json_num_t *n) {
  int c = ompdp_js_peek(&d->s), is_int;
  if (c != '-' && (c < '0' || c > '9'))
    return 0;
  if (ompdp_js_number(&d->s, &is_int, n, NULL))
    return -1;
  return is_int;
}

/* A non-negative integer no larger than max. */
static int get_u64(rd_t *d, const char *what, uint64_t max, uint64_t *out) {
  ompdp_json_num_t n;
  int k = integer(d, &n);
  if (k <= 0)
    return k < 0 ? -1 : fail(d, "%s must be an integer", what);
  if ((n.neg && n.mag) || n.overflow || n.mag > max)
    return fail(d, "%s is out of range (0 to %" PRIu64 ")", what, max);
  *out = n.mag;
  return 0;
}

static int get_i32(rd_t *d, const char *what, int32_t *out) {
  ompdp_json_num_t n;
  int k = integer(d, &n);
  if (k <= 0)
    return k < 0 ? -1 : fail(d, "%s must be an integer", what);
  if (n.overflow || n.mag > (n.neg ? (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX))
    return fail(d, "%s is out of range", what);
  *out = n.neg ? (int32_t)(-(int64_t)n.mag) : (int32_t)n.mag;
  return 0;
}

/* A short string (a type or column name, "kept"): 1 and the text in buf; 0
 * when the value is no string (not moved past it); -1. A longer string is
 * cut (it matches no name). */
static int short_string(rd_t *d, char *buf, size_t size) {
  int cut;
  buf[0] = '\0';
  if (ompdp_js_peek(&d->s) != '"')
    return 0;
  if (ompdp_js_string(&d->s, buf, size, &cut))
    return -1;
  if (cut)
    buf[0] = '\0';
  return 1;
}

/* Marks member k of an object as seen; a second one is refused, as jansson
 * refuses it elsewhere in the report. */
static int seen_once(rd_t *d, unsigned *seen, int k, const char *key, size_t at) {
  if (*seen & (1u << k))
    return ompdp_json_fail_at(d->d, at, "member \"%s\" appears twice", key);
  *seen |= 1u << k;
  return 0;
}

/* The index of key in names, or -1. */
static int lookup(const char *const *names, int n, const char *key) {
  for (int i = 0; i < n; ++i)
    if (!strcmp(names[i], key))
      return i;
  return -1;
}

/* The columns this reader knows, in the order the writer puts them. */
static const char *const Columns[] = {"seq",    "type",  "device",   "src_device", "thread",
                                      "start_ns", "dur_ns", "bytes", "findings",   "related"};
enum { C_SEQ, C_TYPE, C_DEVICE, C_SRC, C_THREAD, C_START, C_DUR, C_BYTES, C_FIND, C_REL, C_N };

static int read_columns(rd_t *d) {
  int first = 1, k;
  size_t c = 0;
  char name[16];
  if (ompdp_js_peek(&d->s) != '[')
    return fail(d, "\"columns\" must be an array of %d names", C_N);
  ompdp_js_array(&d->s);
  while ((k = ompdp_js_element(&d->s, &first)) > 0) {
    if (c == C_N)
      return fail(d, "\"columns\" must be an array of %d names", C_N);
    int str = short_string(d, name, sizeof(name));
    if (str < 0)
      return -1;
    if (!str || strcmp(name, Columns[c]))
      return fail(d, "column %zu must be \"%s\"", c, Columns[c]);
    ++c;
  }
  if (k < 0)
    return -1;
  return c == C_N ? 0 : fail(d, "\"columns\" must be an array of %d names", C_N);
}

/* Grows *v (elements of size elem, *cap of them) to hold one more. */
static int grow(rd_t *d, void **v, size_t *cap, size_t n, size_t elem) {
  if (n < *cap)
    return 0;
  size_t ncap = *cap ? 2 * *cap : 64;
  void *nv = realloc(*v, ncap * elem);
  if (!nv)
    return ompdp_json_fail(d->d, "out of memory");
  *v = nv;
  *cap = ncap;
  return 0;
}

static int read_links(rd_t *d, ompdp_timeline_t *t, uint32_t related, size_t op) {
  int first = 1, k;
  size_t i = 0;
  if (ompdp_js_peek(&d->s) != '[')
    return fail(d, "ops[%zu]: \"%s\" must be an array", op, Columns[C_FIND + related]);
  ompdp_js_array(&d->s);
  while ((k = ompdp_js_element(&d->s, &first)) > 0) {
    uint64_t f;
    ompdp_json_num_t n;
    int is = integer(d, &n);
    uint64_t max = d->nfind ? d->nfind - 1 : 0;
    if (is < 0)
      return -1;
    if (!is || (n.neg && n.mag) || n.overflow || n.mag > max) {
      char what[64];
      snprintf(what, sizeof(what), "ops[%zu] %s[%zu]", op, Columns[C_FIND + related], i);
      return is ? fail(d, "%s is out of range (0 to %" PRIu64 ")", what, max)
                : fail(d, "%s must be an integer", what);
    }
    f = n.mag;
    if (!d->nfind)
      return fail(d, "ops[%zu] %s[%zu] names a finding, and the report has none", op,
                  Columns[C_FIND + related], i);
    if (grow(d, (void **)&t->links, &d->cap_links, t->num_links, sizeof(*t->links)))
      return -1;
    t->links[t->num_links++] = (ompdp_tl_link_t){(uint32_t)f, related};
    ++i;
  }
  return k;
}

/* One operation: an array of the columns' values. */
static int read_op(rd_t *d, ompdp_timeline_t *t, size_t i) {
  if (ompdp_js_peek(&d->s) != '[')
    return fail(d, "ops[%zu] must be an array of %d values", i, C_N);
  if (grow(d, (void **)&t->ops, &d->cap_ops, t->num_ops, sizeof(*t->ops)))
    return -1;
  ompdp_tl_op_t *o = &t->ops[i];
  memset(o, 0, sizeof(*o));
  char what[48], type[16] = "";
  snprintf(what, sizeof(what), "ops[%zu]", i);
  int first = 1, k;
  size_t c = 0;
  uint64_t thread = 0;
  ompdp_js_array(&d->s);
  while ((k = ompdp_js_element(&d->s, &first)) > 0) {
    int rc = 0;
    switch (c) {
    case C_SEQ:
      rc = get_u64(d, what, INT64_MAX, &o->seq);
      break;
    case C_TYPE:
      /* Said after the numbers, as the writer's order of checks goes. */
      rc = short_string(d, type, sizeof(type));
      rc = rc < 0 ? -1 : !rc ? ompdp_js_skip(&d->s, 4) : 0;
      break;
    case C_DEVICE:
      rc = get_i32(d, what, &o->device);
      break;
    case C_SRC:
      rc = get_i32(d, what, &o->src_device);
      break;
    case C_THREAD:
      rc = get_u64(d, what, UINT32_MAX, &thread);
      break;
    case C_START:
      rc = get_u64(d, what, INT64_MAX, &o->start_ns);
      break;
    case C_DUR:
      rc = get_u64(d, what, INT64_MAX, &o->dur_ns);
      break;
    case C_BYTES:
      rc = get_u64(d, what, INT64_MAX, &o->bytes);
      break;
    case C_FIND: {
      if (i && o->seq <= t->ops[i - 1].seq)
        return fail(d, "ops[%zu] is not after the one before it (seq)", i);
      int ty = ompdp_tl_type_from_json(type);
      if (ty == OMPDP_TL_NTYPES)
        return fail(d, "ops[%zu] has an unknown type", i);
      o->type = (uint8_t)ty;
      o->thread = (uint32_t)thread;
      o->first_link = t->num_links;
      rc = read_links(d, t, 0, i);
      break;
    }
    case C_REL:
      rc = read_links(d, t, 1, i);
      o->num_links = t->num_links - o->first_link;
      break;
    default:
      return fail(d, "ops[%zu] must be an array of %d values", i, C_N);
    }
    if (rc)
      return -1;
    ++c;
  }
  if (k < 0)
    return -1;
  if (c != C_N)
    return fail(d, "ops[%zu] must be an array of %d values", i, C_N);
  t->num_ops++;
  return 0;
}

static int read_ops(rd_t *d, ompdp_timeline_t *t) {
  if (ompdp_js_peek(&d->s) != '[')
    return fail(d, "\"ops\" must be an array");
  ompdp_js_array(&d->s);
  int first = 1, k;
  while ((k = ompdp_js_element(&d->s, &first)) > 0)
    if (read_op(d, t, t->num_ops))
      return -1;
  return k;
}

enum { L_TYPE, L_DEVICE, L_COUNT, L_BYTES, L_TIME, L_BINS, L_N };
static const char *const LaneNames[L_N] = {"type", "device", "count", "bytes", "time_ns", "bins"};

static int read_bins(rd_t *d, ompdp_tl_lane_t *x, size_t i, size_t *n) {
  size_t cap = 0;
  int first = 1, k;
  if (ompdp_js_peek(&d->s) != '[')
    return fail(d, "lanes[%zu].bins must be an array of at most 65536 counts", i);
  ompdp_js_array(&d->s);
  *n = 0;
  while ((k = ompdp_js_element(&d->s, &first)) > 0) {
    if (*n == 65536)
      return fail(d, "lanes[%zu].bins must be an array of at most 65536 counts", i);
    if (grow(d, (void **)&x->bins, &cap, *n, sizeof(*x->bins)) ||
        get_u64(d, "a bin count", INT64_MAX, &x->bins[*n]))
      return -1;
    ++*n;
  }
  return k;
}

static int read_lane(rd_t *d, ompdp_timeline_t *t, size_t i) {
  if (ompdp_js_peek(&d->s) != '{')
    return fail(d, "lanes[%zu] must be an object", i);
  ompdp_tl_lane_t *x = &t->lanes[t->num_lanes++];
  memset(x, 0, sizeof(*x));
  char key[16], type[16] = "";
  int first = 1, k, cut, typed = 0;
  unsigned seen = 0;
  size_t nbins = 0;
  ompdp_js_object(&d->s);
  while ((k = ompdp_js_member(&d->s, &first, key, sizeof(key), &cut)) > 0) {
    size_t at = d->s.pos;
    int m = cut ? -1 : lookup(LaneNames, L_N, key), rc = 0;
    if (m >= 0 && seen_once(d, &seen, m, key, at))
      return -1;
    uint64_t *const Dst[L_N] = {NULL, NULL, &x->count, &x->bytes, &x->time_ns, NULL};
    switch (m) {
    case L_TYPE:
      typed = short_string(d, type, sizeof(type));
      rc = typed < 0 ? -1 : !typed ? ompdp_js_skip(&d->s, 4) : 0;
      break;
    case L_DEVICE:
      rc = get_i32(d, "lanes[].device", &x->device);
      break;
    case L_COUNT:
    case L_BYTES:
    case L_TIME:
      rc = get_u64(d, LaneNames[m], INT64_MAX, Dst[m]);
      break;
    case L_BINS:
      rc = read_bins(d, x, i, &nbins);
      break;
    default:
      rc = ompdp_js_skip(&d->s, 4);
    }
    if (rc)
      return -1;
  }
  if (k < 0)
    return -1;
  int ty = ompdp_tl_type_from_json(typed > 0 ? type : NULL);
  if (ty == OMPDP_TL_NTYPES)
    return fail(d, "lanes[%zu] has an unknown type", i);
  x->type = (uint8_t)ty;
  if (!(seen & 1u << L_DEVICE))
    return fail(d, "lanes[].device must be an integer");
  for (int m = L_COUNT; m <= L_TIME; ++m)
    if (!(seen & 1u << m))
      return fail(d, "\"%s\" is missing", LaneNames[m]);
  if (!(seen & 1u << L_BINS))
    return fail(d, "lanes[%zu].bins must be an array of at most 65536 counts", i);
  if (i == 0)
    t->num_bins = nbins;
  else if (nbins != t->num_bins)
    return fail(d, "lanes[%zu].bins has %zu bins, the first lane %zu", i, nbins, t->num_bins);
  return 0;
}

static int read_lanes(rd_t *d, ompdp_timeline_t *t) {
  size_t cap = 0;
  int first = 1, k;
  if (ompdp_js_peek(&d->s) != '[')
    return fail(d, "\"lanes\" must be an array");
  ompdp_js_array(&d->s);
  while ((k = ompdp_js_element(&d->s, &first)) > 0)
    if (grow(d, (void **)&t->lanes, &cap, t->num_lanes, sizeof(*t->lanes)) ||
        read_lane(d, t, t->num_lanes))
      return -1;
  return k;
}

static int read_omitted(rd_t *d, ompdp_timeline_t *t) {
  if (ompdp_js_peek(&d->s) != '{')
    return fail(d, "\"omitted\" must be an object");
  char key[16];
  int first = 1, k, cut;
  unsigned seen = 0;
  ompdp_js_object(&d->s);
  while ((k = ompdp_js_member(&d->s, &first, key, sizeof(key), &cut)) > 0) {
    size_t at = d->s.pos;
    int m = cut ? -1 : !strcmp(key, "bin_ns") ? 0 : !strcmp(key, "lanes") ? 1 : -1, rc;
    if (m >= 0 && seen_once(d, &seen, m, key, at))
      return -1;
    if (m == 0) {
      int is_int;
      ompdp_json_num_t n;
      int c = ompdp_js_peek(&d->s);
      rc = c != '-' && (c < '0' || c > '9')
               ? 1
               : ompdp_js_number(&d->s, &is_int, &n, &t->bin_ns) ? -1
               : t->bin_ns < 0 || t->bin_ns > 1e15              ? 1
                                                                : 0;
      if (rc > 0)
        return fail(d, "\"bin_ns\" must be a number from 0 to 1e15");
    } else {
      rc = m == 1 ? read_lanes(d, t) : ompdp_js_skip(&d->s, 3);
    }
    if (rc)
      return -1;
  }
  if (k < 0)
    return -1;
  if (!(seen & 1u))
    return fail(d, "\"bin_ns\" must be a number from 0 to 1e15");
  if (!(seen & 2u))
    return fail(d, "\"lanes\" must be an array");
  return 0;
}

enum { T_VERSION, T_KEPT, T_EVENTS, T_FIRST, T_PER, T_HOST, T_THREADS, T_COLUMNS, T_OPS,
       T_OMITTED, T_N };
static const char *const TopNames[T_N] = {"version",     "kept",    "events",  "first_events",
                                          "per_finding", "host_device", "threads", "columns",
                                          "ops",         "omitted"};

static int read_timeline(rd_t *d, ompdp_timeline_t *t) {
  if (ompdp_js_peek(&d->s) != '{')
    return fail(d, "must be an object");
  char key[16], kept[16] = "";
  int first = 1, k, cut;
  unsigned seen = 0;
  uint64_t version = 0, threads = 0;
  ompdp_js_object(&d->s);
  while ((k = ompdp_js_member(&d->s, &first, key, sizeof(key), &cut)) > 0) {
    size_t at = d->s.pos;
    int m = cut ? -1 : lookup(TopNames, T_N, key), rc = 0;
    if (m >= 0 && seen_once(d, &seen, m, key, at))
      return -1;
    switch (m) {
    case T_VERSION:
      /* Another version is refused before its layout is read. */
      rc = get_u64(d, "version", INT32_MAX, &version);
      if (!rc && version != OMPDP_TIMELINE_VERSION)
        return fail(d, "version %" PRIu64 " is not supported (this ompdp reads %d)", version,
                    OMPDP_TIMELINE_VERSION);
      break;
    case T_KEPT:
      rc = short_string(d, kept, sizeof(kept));
      rc = rc < 0 ? -1 : !rc ? ompdp_js_skip(&d->s, 2) : 0;
      break;
    case T_EVENTS:
      rc = get_u64(d, "events", INT64_MAX, &t->events);
      break;
    case T_FIRST:
      rc = get_u64(d, "first_events", INT64_MAX, &t->first);
      break;
    case T_PER:
      rc = get_u64(d, "per_finding", INT64_MAX, &t->per_finding);
      break;
    case T_HOST:
      rc = get_i32(d, "host_device", &t->host_device);
      break;
    case T_THREADS:
      rc = get_u64(d, "threads", UINT32_MAX, &threads);
      break;
    case T_COLUMNS:
      rc = read_columns(d);
      break;
    case T_OPS:
      rc = read_ops(d, t);
      break;
    case T_OMITTED:
      rc = read_omitted(d, t);
      break;
    default:
      rc = ompdp_js_skip(&d->s, 2);
    }
    if (rc)
      return -1;
  }
  if (k < 0)
    return -1;
  if (!(seen & 1u << T_VERSION))
    return fail(d, "\"version\" is missing");
  if (strcmp(kept, "all") && strcmp(kept, "bounded"))
    return fail(d, "\"kept\" must be \"all\" or \"bounded\"");
  t->full = !strcmp(kept, "all");
  static const int Required[] = {T_EVENTS, T_FIRST, T_PER, T_THREADS};
  for (size_t i = 0; i < sizeof(Required) / sizeof(Required[0]); ++i)
    if (!(seen & 1u << Required[i]))
      return fail(d, "\"%s\" is missing", TopNames[Required[i]]);
  if (!(seen & 1u << T_HOST))
    return fail(d, "host_device must be an integer");
  t->threads = (uint32_t)threads;
  if (!(seen & 1u << T_COLUMNS))
    return fail(d, "\"columns\" must be an array of %d names", C_N);
  if (!(seen & 1u << T_OPS))
    return fail(d, "\"ops\" must be an array");
  if (!(seen & 1u << T_OMITTED))
    return fail(d, "\"omitted\" must be an object");
  return 0;
}

int ompdp_report_read_with_timeline(const char *buf, size_t len, const char *reason,
                                    ompdp_report_t *r, char *err, size_t errlen) {
  ompdp_report_init(r);
  if (ompdp_journal_is(buf, len))
    return ompdp_journal_read(buf, len, reason, r, err, errlen); /* no timeline */
  size_t at, n, nfind;
  int rc = ompdp_report_read_json_doc(buf, len, r, err, errlen, &at, &n, &nfind);
  if (rc || !n)
    return rc;
  ompdp_json_doc_t doc = {.text = buf, .n = len, .err = err, .errlen = errlen};
  rd_t d = {.d = &doc, .s = {&doc, at, at + n}, .nfind = nfind};
  if (ompdp_js_null(&d.s))
    return 0;
  ompdp_timeline_t *t = calloc(1, sizeof(*t));
  rc = t ? read_timeline(&d, t) : ompdp_json_fail(&doc, "out of memory");
  if (rc) {
    ompdp_timeline_free(t);
    free(t);
    ompdp_report_free(r);
    return -1;
  }
  /* The arrays were grown by doubling: give back what is not used. */
  if (t->num_ops && t->num_ops < d.cap_ops) {
    void *v = realloc(t->ops, t->num_ops * sizeof(*t->ops));
    if (v)
      t->ops = v;
  }
  r->timeline = t;
  return 0;
}

int ompdp_report_read_file_with_timeline(const char *path, const char *reason,
                                         ompdp_report_t *r, char *err, size_t errlen) {
  return ompdp_report_read_path(path, ompdp_report_read_with_timeline, reason, r, err, errlen);
}
