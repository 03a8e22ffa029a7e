/*===- timeline_read.c - reading a report with its timeline --------------===*\
|*
|* The driver reads a saved report with the report reader, which skips the
|* members it does not know, and then the "timeline" section of the same
|* bytes with jansson, here. A section that is there must be whole and
|* well-formed: anything else (a wrong type, a number out of range, a link
|* to a finding the report does not have, another version) is refused with
|* one line that says where, like the rest of the report.
|*
|* Findings are linked by their position in the file's "findings" array.
|* The report reader skips kinds it does not know, so each finding the
|* model holds gets its position in the file as timeline_id (the links'
|* names, timeline.h), and links to skipped findings are left out.
|*
\*===----------------------------------------------------------------------===*/
#include "timeline.h"

#include "journal_format.h"
#include "report.h"

#include <jansson.h>

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct rd {
  char *err;
  size_t errlen;
} rd_t;

__attribute__((format(printf, 2, 3))) static int fail(rd_t *d, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(d->err, d->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

/* A non-negative integer member (or element) no larger than max. */
static int get_u64(rd_t *d, const json_t *v, const char *what, uint64_t max, uint64_t *out) {
  if (!json_is_integer(v))
    return fail(d, "timeline: %s must be an integer", what);
  json_int_t i = json_integer_value(v);
  if (i < 0 || (uint64_t)i > max)
    return fail(d, "timeline: %s is out of range (0 to %" PRIu64 ")", what, max);
  *out = (uint64_t)i;
  return 0;
}

static int get_i32(rd_t *d, const json_t *v, const char *what, int32_t *out) {
  if (!json_is_integer(v))
    return fail(d, "timeline: %s must be an integer", what);
  json_int_t i = json_integer_value(v);
  if (i < INT32_MIN || i > INT32_MAX)
    return fail(d, "timeline: %s is out of range", what);
  *out = (int32_t)i;
  return 0;
}

static int member_u64(rd_t *d, const json_t *o, const char *name, uint64_t max,
                      uint64_t *out) {
  const json_t *v = json_object_get(o, name);
  if (!v)
    return fail(d, "timeline: \"%s\" is missing", name);
  return get_u64(d, v, name, max, out);
}

/* The columns this reader knows, in the order the writer puts them. */
static const char *const Columns[] = {"seq",    "type",  "device",   "src_device", "thread",
                                      "start_ns", "dur_ns", "bytes", "findings",   "related"};
enum { C_SEQ, C_TYPE, C_DEVICE, C_SRC, C_THREAD, C_START, C_DUR, C_BYTES, C_FIND, C_REL, C_N };

/* Positions in the file of the findings the model holds, in model order,
 * and the number of findings in the file. */
static int finding_positions(rd_t *d, const json_t *root, ompdp_report_t *r,
                             size_t *file_count) {
  const json_t *arr = json_object_get(root, "findings");
  *file_count = json_is_array(arr) ? json_array_size(arr) : 0;
  size_t k = 0;
  for (size_t j = 0; j < *file_count; ++j) {
    const json_t *kind = json_object_get(json_array_get(arr, j), "kind");
    if (ompdp_finding_kind_from_json(json_string_value(kind)) == OMPDP_FK_COUNT)
      continue; /* skipped by the report reader too */
    if (k == r->num_findings)
      return fail(d, "findings: the report reader and the timeline reader disagree");
    r->findings[k++].timeline_id = (uint32_t)j;
  }
  if (k != r->num_findings)
    return fail(d, "findings: the report reader and the timeline reader disagree");
  return 0;
}

static int read_links(rd_t *d, ompdp_timeline_t *t, const json_t *arr, uint32_t related,
                      size_t nfind, size_t op) {
  if (!json_is_array(arr))
    return fail(d, "timeline: ops[%zu]: \"%s\" must be an array", op, Columns[C_FIND + related]);
  for (size_t i = 0; i < json_array_size(arr); ++i) {
    uint64_t f;
    char what[64];
    snprintf(what, sizeof(what), "ops[%zu] %s[%zu]", op, Columns[C_FIND + related], i);
    if (get_u64(d, json_array_get(arr, i), what, nfind ? nfind - 1 : 0, &f))
      return -1;
    if (!nfind)
      return fail(d, "timeline: %s names a finding, and the report has none", what);
    ompdp_tl_link_t *v = realloc(t->links, (t->num_links + 1) * sizeof(*v));
    if (!v)
      return fail(d, "out of memory");
    t->links = v;
    t->links[t->num_links++] = (ompdp_tl_link_t){(uint32_t)f, related};
  }
  return 0;
}

static int read_ops(rd_t *d, ompdp_timeline_t *t, const json_t *tl, size_t nfind) {
  const json_t *cols = json_object_get(tl, "columns");
  if (!json_is_array(cols) || json_array_size(cols) != C_N)
    return fail(d, "timeline: \"columns\" must be an array of %d names", C_N);
  for (size_t c = 0; c < C_N; ++c)
    if (!json_is_string(json_array_get(cols, c)) ||
        strcmp(json_string_value(json_array_get(cols, c)), Columns[c]))
      return fail(d, "timeline: column %zu must be \"%s\"", c, Columns[c]);
  const json_t *ops = json_object_get(tl, "ops");
  if (!json_is_array(ops))
    return fail(d, "timeline: \"ops\" must be an array");
  size_t n = json_array_size(ops);
  t->ops = calloc(n ? n : 1, sizeof(*t->ops));
  if (!t->ops)
    return fail(d, "out of memory");
  uint64_t prev = 0;
  for (size_t i = 0; i < n; ++i) {
    const json_t *a = json_array_get(ops, i);
    if (!json_is_array(a) || json_array_size(a) != C_N)
      return fail(d, "timeline: ops[%zu] must be an array of %d values", i, C_N);
    ompdp_tl_op_t *o = &t->ops[i];
    char what[48];
    const char *type = json_string_value(json_array_get(a, C_TYPE));
    uint64_t thread;
    snprintf(what, sizeof(what), "ops[%zu]", i);
    if (get_u64(d, json_array_get(a, C_SEQ), what, INT64_MAX, &o->seq) ||
        get_i32(d, json_array_get(a, C_DEVICE), what, &o->device) ||
        get_i32(d, json_array_get(a, C_SRC), what, &o->src_device) ||
        get_u64(d, json_array_get(a, C_THREAD), what, UINT32_MAX, &thread) ||
        get_u64(d, json_array_get(a, C_START), what, INT64_MAX, &o->start_ns) ||
        get_u64(d, json_array_get(a, C_DUR), what, INT64_MAX, &o->dur_ns) ||
        get_u64(d, json_array_get(a, C_BYTES), what, INT64_MAX, &o->bytes))
      return -1;
    if (i && o->seq <= prev)
      return fail(d, "timeline: ops[%zu] is not after the one before it (seq)", i);
    prev = o->seq;
    o->thread = (uint32_t)thread;
    int ty = ompdp_tl_type_from_json(type);
    if (ty == OMPDP_TL_NTYPES)
      return fail(d, "timeline: ops[%zu] has an unknown type", i);
    o->type = (uint8_t)ty;
    o->first_link = t->num_links;
    if (read_links(d, t, json_array_get(a, C_FIND), 0, nfind, i) ||
        read_links(d, t, json_array_get(a, C_REL), 1, nfind, i))
      return -1;
    o->num_links = t->num_links - o->first_link;
    t->num_ops++;
  }
  return 0;
}

static int read_omitted(rd_t *d, ompdp_timeline_t *t, const json_t *tl) {
  const json_t *om = json_object_get(tl, "omitted");
  if (!json_is_object(om))
    return fail(d, "timeline: \"omitted\" must be an object");
  const json_t *bw = json_object_get(om, "bin_ns");
  if (!json_is_number(bw) || json_number_value(bw) < 0 || json_number_value(bw) > 1e15)
    return fail(d, "timeline: \"bin_ns\" must be a number from 0 to 1e15");
  t->bin_ns = json_number_value(bw);
  const json_t *lanes = json_object_get(om, "lanes");
  if (!json_is_array(lanes))
    return fail(d, "timeline: \"lanes\" must be an array");
  size_t n = json_array_size(lanes);
  t->lanes = calloc(n ? n : 1, sizeof(*t->lanes));
  if (!t->lanes)
    return fail(d, "out of memory");
  for (size_t i = 0; i < n; ++i) {
    const json_t *l = json_array_get(lanes, i);
    if (!json_is_object(l))
      return fail(d, "timeline: lanes[%zu] must be an object", i);
    ompdp_tl_lane_t *x = &t->lanes[t->num_lanes++];
    int ty = ompdp_tl_type_from_json(json_string_value(json_object_get(l, "type")));
    if (ty == OMPDP_TL_NTYPES)
      return fail(d, "timeline: lanes[%zu] has an unknown type", i);
    x->type = (uint8_t)ty;
    if (get_i32(d, json_object_get(l, "device"), "lanes[].device", &x->device) ||
        member_u64(d, l, "count", INT64_MAX, &x->count) ||
        member_u64(d, l, "bytes", INT64_MAX, &x->bytes) ||
        member_u64(d, l, "time_ns", INT64_MAX, &x->time_ns))
      return -1;
    const json_t *bins = json_object_get(l, "bins");
    if (!json_is_array(bins) || json_array_size(bins) > 65536)
      return fail(d, "timeline: lanes[%zu].bins must be an array of at most 65536 counts", i);
    if (i == 0)
      t->num_bins = json_array_size(bins);
    else if (json_array_size(bins) != t->num_bins)
      return fail(d, "timeline: lanes[%zu].bins has %zu bins, the first lane %zu", i,
                  json_array_size(bins), t->num_bins);
    x->bins = calloc(t->num_bins ? t->num_bins : 1, sizeof(*x->bins));
    if (!x->bins)
      return fail(d, "out of memory");
    for (size_t b = 0; b < t->num_bins; ++b)
      if (get_u64(d, json_array_get(bins, b), "a bin count", INT64_MAX, &x->bins[b]))
        return -1;
  }
  return 0;
}

static int read_timeline(rd_t *d, const json_t *tl, size_t nfind, ompdp_timeline_t *t) {
  if (!json_is_object(tl))
    return fail(d, "timeline: must be an object");
  uint64_t version, threads;
  if (member_u64(d, tl, "version", INT32_MAX, &version))
    return -1;
  if (version != OMPDP_TIMELINE_VERSION)
    return fail(d, "timeline: version %" PRIu64 " is not supported (this ompdp reads %d)",
                version, OMPDP_TIMELINE_VERSION);
  const char *kept = json_string_value(json_object_get(tl, "kept"));
  if (!kept || (strcmp(kept, "all") && strcmp(kept, "bounded")))
    return fail(d, "timeline: \"kept\" must be \"all\" or \"bounded\"");
  t->full = !strcmp(kept, "all");
  if (member_u64(d, tl, "events", INT64_MAX, &t->events) ||
      member_u64(d, tl, "first_events", INT64_MAX, &t->first) ||
      member_u64(d, tl, "per_finding", INT64_MAX, &t->per_finding) ||
      member_u64(d, tl, "threads", UINT32_MAX, &threads))
    return -1;
  const json_t *h = json_object_get(tl, "host_device");
  if (get_i32(d, h, "host_device", &t->host_device))
    return -1;
  t->threads = (uint32_t)threads;
  return read_ops(d, t, tl, nfind) || read_omitted(d, t, tl) ? -1 : 0;
}

int ompdp_report_read_with_timeline(const char *buf, size_t len, const char *reason,
                                    ompdp_report_t *r, char *err, size_t errlen) {
  ompdp_report_init(r);
  rd_t d = {err, errlen};
  int rc;
  if (ompdp_journal_is(buf, len))
    return ompdp_journal_read(buf, len, reason, r, err, errlen); /* no timeline */
  if ((rc = ompdp_report_read_json(buf, len, r, err, errlen)) != 0)
    return rc;
  json_error_t jerr;
  json_t *root = json_loadb(buf, len, 0, &jerr);
  const json_t *tl = root ? json_object_get(root, "timeline") : NULL;
  size_t nfind = 0;
  if (!root) {
    rc = fail(&d, "%s (line %d)", jerr.text, jerr.line);
  } else if ((rc = finding_positions(&d, root, r, &nfind)) == 0 && tl && !json_is_null(tl)) {
    ompdp_timeline_t *t = calloc(1, sizeof(*t));
    rc = t ? read_timeline(&d, tl, nfind, t) : fail(&d, "out of memory");
    if (rc) {
      ompdp_timeline_free(t);
      free(t);
    } else {
      r->timeline = t;
    }
  }
  json_decref(root);
  if (rc)
    ompdp_report_free(r);
  return rc;
}

int ompdp_report_read_file_with_timeline(const char *path, const char *reason,
                                         ompdp_report_t *r, char *err, size_t errlen) {
  return ompdp_report_read_path(path, ompdp_report_read_with_timeline, reason, r, err, errlen);
}
