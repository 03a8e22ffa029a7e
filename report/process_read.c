/*===- process_read.c - reading a report's ranks back ---------------*- C -*-===*\
|*
|* Reads what process_write.c writes: a rank's "process", a merged
|* report's "ranks" and each merged finding's "spread", with jansson. The
|* report reader calls it once it has read the rest of the same text, so
|* the text is known to be a well-formed report; what is checked here is
|* each member's type and range (a rank below the job's size, ranks in
|* ascending order, counts that fit 64 bits). Any fault is one line, and
|* the report is refused, as the report reader does.
|*
|* Findings of a kind this ompdp does not know are left out of the model
|* by the report reader; they are skipped here too, so that the n-th
|* finding of the model gets the n-th known finding's spread.
|*
|* Read with the report reader (report_json_read.c), integers of 10^18 and
|* more are taken from the text, which json_load.c keeps aside from
|* jansson's placeholders: exact up to 2^64 - 1. Read alone
|* (ompdp_process_read_json), integers above 2^63 (which jansson refuses)
|* elsewhere in the report make it read every number as a double; the
|* members here are then taken only while exact (below 2^53).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* memmem */
#include "process.h"
#include "json_load.h"

#include <jansson.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct reader {
  char *err;
  size_t errlen;
  int failed;
  /* Where the tree's integers of 10^18 and more are (json_load.c), or NULL. */
  const ompdp_json_doc_t *doc;
} reader_t;

static int fail(reader_t *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(reader_t *rd, const char *fmt, ...) {
  if (rd->failed)
    return -1;
  rd->failed = 1;
  if (rd->err && rd->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rd->err, rd->errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* A non-negative integer up to max. */
static int get_u64(reader_t *rd, const json_t *v, const char *name, uint64_t max,
                   uint64_t *out) {
  ompdp_json_num_t n;
  if (rd->doc && json_is_integer(v)) {
    /* Its digits, where jansson holds a placeholder for them. */
    if (ompdp_json_as_int(rd->doc, v, &n) > 0 && !n.neg && !n.overflow && n.mag <= max) {
      *out = n.mag;
      return 0;
    }
  } else if (json_is_integer(v) && json_integer_value(v) >= 0 &&
             (uint64_t)json_integer_value(v) <= max) {
    *out = (uint64_t)json_integer_value(v);
    return 0;
  }
  if (json_is_real(v)) {
    double d = json_real_value(v);
    if (d >= 0 && d <= 9007199254740992.0 && d == (double)(uint64_t)d && (uint64_t)d <= max) {
      *out = (uint64_t)d;
      return 0;
    }
  }
  return fail(rd, "\"%s\" is not an integer from 0 to %llu", name, (unsigned long long)max);
}

/* An integer from 0 to INT_MAX, or null (-1) when nullable. */
static int get_int(reader_t *rd, const json_t *v, const char *name, int nullable, int *out) {
  if (nullable && (!v || json_is_null(v))) {
    *out = -1;
    return 0;
  }
  uint64_t u;
  if (!v)
    return fail(rd, "\"%s\" is missing", name);
  if (get_u64(rd, v, name, INT_MAX, &u))
    return -1;
  *out = (int)u;
  return 0;
}

static int get_i64(reader_t *rd, const json_t *v, const char *name, int64_t *out) {
  if (!v || json_is_null(v)) {
    *out = -1;
    return 0;
  }
  uint64_t u;
  if (get_u64(rd, v, name, INT64_MAX, &u))
    return -1;
  *out = (int64_t)u;
  return 0;
}

/* A string or null (absent: null). */
static int get_str(reader_t *rd, const json_t *v, const char *name, char **out) {
  *out = NULL;
  if (!v || json_is_null(v))
    return 0;
  if (!json_is_string(v))
    return fail(rd, "\"%s\" is not a string", name);
  *out = ompdp_strdup(json_string_value(v));
  return *out ? 0 : fail(rd, "out of memory");
}

/* An array of integers from 0 to INT_MAX, strictly ascending when asked. */
static int get_ints(reader_t *rd, const json_t *v, const char *name, int ascending, int **out,
                    size_t *n) {
  *out = NULL;
  *n = 0;
  if (!v)
    return 0;
  if (!json_is_array(v))
    return fail(rd, "\"%s\" is not an array", name);
  size_t len = json_array_size(v);
  if (!len)
    return 0;
  int *a = malloc(len * sizeof(*a));
  if (!a)
    return fail(rd, "out of memory");
  for (size_t i = 0; i < len; ++i) {
    if (get_int(rd, json_array_get(v, i), name, 0, &a[i]) ||
        (ascending && i && a[i] <= a[i - 1])) {
      free(a);
      return fail(rd, "\"%s\" is not a list of ranks in ascending order", name);
    }
  }
  *out = a;
  *n = len;
  return 0;
}

static int read_process(reader_t *rd, const json_t *o, ompdp_report_t *r) {
  if (!json_is_object(o))
    return fail(rd, "\"process\" is not an object");
  ompdp_process_t *p = malloc(sizeof(*p));
  if (!p)
    return fail(rd, "out of memory");
  ompdp_process_init(p);
  r->process = p;
  if (get_int(rd, json_object_get(o, "rank"), "process.rank", 1, &p->rank) ||
      get_int(rd, json_object_get(o, "size"), "process.size", 1, &p->size) ||
      get_int(rd, json_object_get(o, "local_rank"), "process.local_rank", 1, &p->local_rank) ||
      get_str(rd, json_object_get(o, "launcher"), "process.launcher", &p->launcher) ||
      get_str(rd, json_object_get(o, "job"), "process.job", &p->job) ||
      get_str(rd, json_object_get(o, "host"), "process.host", &p->host) ||
      get_i64(rd, json_object_get(o, "pid"), "process.pid", &p->pid) ||
      get_ints(rd, json_object_get(o, "devices"), "process.devices", 1, &p->devices,
               &p->num_devices) ||
      get_str(rd, json_object_get(o, "executable"), "process.executable", &p->executable) ||
      get_str(rd, json_object_get(o, "build_id"), "process.build_id", &p->build_id))
    return -1;
  if (p->size == 0 || (p->rank >= 0 && p->size > 0 && p->rank >= p->size))
    return fail(rd, "\"process.rank\" %d is not a rank of %d", p->rank, p->size);
  return 0;
}

static int read_rank_entry(reader_t *rd, const json_t *o, ompdp_rank_entry_t *e) {
  if (!json_is_object(o))
    return fail(rd, "an entry of \"ranks.per_rank\" is not an object");
  const json_t *st = json_object_get(o, "status");
  int s = json_is_string(st) ? ompdp_rank_status_from_json(json_string_value(st)) : -1;
  if (s < 0)
    return fail(rd, "\"ranks.per_rank[].status\" is not complete, partial, recovered or "
                    "missing");
  e->status = (ompdp_rank_status_t)s;
  const json_t *x = json_object_get(o, "exit_status");
  e->has_exit_status = x && !json_is_null(x);
  uint64_t exit_status = 0;
  if (get_int(rd, json_object_get(o, "rank"), "ranks.per_rank[].rank", 0, &e->rank) ||
      get_str(rd, json_object_get(o, "file"), "ranks.per_rank[].file", &e->file) ||
      get_str(rd, json_object_get(o, "host"), "ranks.per_rank[].host", &e->host) ||
      get_i64(rd, json_object_get(o, "pid"), "ranks.per_rank[].pid", &e->pid) ||
      get_ints(rd, json_object_get(o, "devices"), "ranks.per_rank[].devices", 1, &e->devices,
               &e->num_devices) ||
      (e->has_exit_status &&
       get_u64(rd, x, "ranks.per_rank[].exit_status", OMPDP_EXIT_STATUS_MAX, &exit_status)))
    return -1;
  e->exit_status = (int)exit_status;
  static const char *const Nums[] = {"wall_time_ns", "time_saved_ns", "findings"};
  uint64_t *dst[] = {&e->wall_time_ns, &e->time_saved_ns, &e->findings};
  for (size_t i = 0; i < 3; ++i) {
    const json_t *v = json_object_get(o, Nums[i]);
    if (v && get_u64(rd, v, Nums[i], UINT64_MAX, dst[i]))
      return -1;
  }
  return 0;
}

static int read_merge(reader_t *rd, const json_t *o, ompdp_report_t *r) {
  if (!json_is_object(o))
    return fail(rd, "\"ranks\" is not an object");
  ompdp_merge_info_t *m = calloc(1, sizeof(*m));
  if (!m)
    return fail(rd, "out of memory");
  r->merge = m;
  if (get_int(rd, json_object_get(o, "size"), "ranks.size", 0, &m->size) ||
      get_str(rd, json_object_get(o, "launcher"), "ranks.launcher", &m->launcher) ||
      get_str(rd, json_object_get(o, "job"), "ranks.job", &m->job) ||
      get_str(rd, json_object_get(o, "executable"), "ranks.executable", &m->executable) ||
      get_str(rd, json_object_get(o, "build_id"), "ranks.build_id", &m->build_id))
    return -1;
  if (m->size < 1)
    return fail(rd, "\"ranks.size\" is 0");
  const json_t *per = json_object_get(o, "per_rank");
  if (!json_is_array(per))
    return fail(rd, "\"ranks.per_rank\" is not an array");
  size_t n = json_array_size(per);
  if (n > (size_t)m->size)
    return fail(rd, "\"ranks.per_rank\" has %zu entries for %d ranks", n, m->size);
  m->ranks = calloc(n ? n : 1, sizeof(*m->ranks));
  if (!m->ranks)
    return fail(rd, "out of memory");
  for (size_t i = 0; i < n; ++i) {
    ompdp_rank_entry_t *e = &m->ranks[i];
    e->pid = -1;
    ++m->num_ranks;
    if (read_rank_entry(rd, json_array_get(per, i), e))
      return -1;
    if (e->rank >= m->size || (i && e->rank <= m->ranks[i - 1].rank))
      return fail(rd, "\"ranks.per_rank\" is not in ascending order of ranks below %d",
                  m->size);
  }
  return 0;
}

static int read_stat(reader_t *rd, const json_t *o, const char *name, ompdp_stat_t *s) {
  if (!json_is_object(o))
    return fail(rd, "\"spread.%s\" is not an object", name);
  uint64_t *dst[] = {&s->min, &s->median, &s->max};
  static const char *const Names[] = {"min", "median", "max"};
  for (size_t i = 0; i < 3; ++i)
    if (get_u64(rd, json_object_get(o, Names[i]), Names[i], UINT64_MAX, dst[i]))
      return -1;
  if (s->min > s->median || s->median > s->max)
    return fail(rd, "\"spread.%s\" is not min <= median <= max", name);
  return 0;
}

static int read_spread(reader_t *rd, const json_t *o, ompdp_finding_t *f) {
  if (!json_is_object(o))
    return fail(rd, "\"spread\" is not an object");
  ompdp_spread_t *s = calloc(1, sizeof(*s));
  if (!s)
    return fail(rd, "out of memory");
  f->spread = s;
  if (get_ints(rd, json_object_get(o, "ranks"), "spread.ranks", 1, &s->ranks, &s->num_ranks) ||
      read_stat(rd, json_object_get(o, "count"), "count", &s->count) ||
      read_stat(rd, json_object_get(o, "bytes"), "bytes", &s->bytes) ||
      read_stat(rd, json_object_get(o, "time_saved_ns"), "time_saved_ns", &s->time_saved_ns))
    return -1;
  if (!s->num_ranks)
    return fail(rd, "\"spread.ranks\" is empty");
  const json_t *rr = json_object_get(o, "rewrite_ranks");
  size_t n = rr ? json_array_size(rr) : 0;
  if (rr && (!json_is_array(rr) || n != f->num_rewrites))
    return fail(rd, "\"spread.rewrite_ranks\" is not a list of ranks for each of the %zu "
                    "rewrites", f->num_rewrites);
  if (!n)
    return 0;
  if (!(s->rewrite_ranks = calloc(n, sizeof(*s->rewrite_ranks))))
    return fail(rd, "out of memory");
  s->num_rewrite_ranks = n;
  for (size_t i = 0; i < n; ++i)
    if (get_ints(rd, json_array_get(rr, i), "spread.rewrite_ranks", 1,
                 &s->rewrite_ranks[i].ranks, &s->rewrite_ranks[i].num_ranks))
      return -1;
  return 0;
}

static int read_findings(reader_t *rd, const json_t *arr, ompdp_report_t *r) {
  size_t k = 0;
  for (size_t i = 0; i < json_array_size(arr); ++i) {
    const json_t *f = json_array_get(arr, i);
    const json_t *kind = json_object_get(f, "kind");
    if (!json_is_string(kind) ||
        ompdp_finding_kind_from_json(json_string_value(kind)) == OMPDP_FK_COUNT)
      continue; /* left out by the report reader */
    if (k >= r->num_findings)
      break;
    const json_t *s = json_object_get(f, "spread");
    if (s && !json_is_null(s) && read_spread(rd, s, &r->findings[k]))
      return -1;
    ++k;
  }
  return 0;
}

int ompdp_process_read_finding_json(const json_t *finding, const ompdp_json_doc_t *doc,
                                    ompdp_finding_t *f, char *err, size_t errlen) {
  reader_t rd = {err, errlen, 0, doc};
  const json_t *s = json_object_get(finding, "spread");
  return s && !json_is_null(s) ? read_spread(&rd, s, f) : 0;
}

int ompdp_process_read_json(const char *text, size_t len, ompdp_report_t *r, char *err,
                            size_t errlen) {
  reader_t rd = {err, errlen, 0, NULL};
  if (len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3)) {
    text += 3;
    len -= 3;
  }
  /* Most reports have none of it: they are not parsed twice. */
  if (!memmem(text, len, "\"process\"", 9) && !memmem(text, len, "\"ranks\"", 7) &&
      !memmem(text, len, "\"spread\"", 8))
    return 0;
  json_error_t je;
  json_t *root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
  if (!root && strstr(je.text, "too big"))
    root = json_loadb(text, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, &je);
  if (!root)
    return fail(&rd, "the report's ranks cannot be read: %s at line %d", je.text, je.line);
  int rc = ompdp_process_read_json_root(root, NULL, r, err, errlen);
  json_decref(root);
  return rc;
}

int ompdp_process_read_json_root(const json_t *root, const ompdp_json_doc_t *doc,
                                 ompdp_report_t *r, char *err, size_t errlen) {
  reader_t rd = {err, errlen, 0, doc};
  int rc = 0;
  const json_t *v = json_object_get(root, "process");
  if (v && !json_is_null(v))
    rc = read_process(&rd, v, r);
  v = json_object_get(root, "ranks");
  if (!rc && v && !json_is_null(v))
    rc = read_merge(&rd, v, r);
  v = json_object_get(root, "findings");
  if (!rc && json_is_array(v))
    rc = read_findings(&rd, v, r);
  return rc;
}
