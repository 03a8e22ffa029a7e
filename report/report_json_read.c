/*===- report_json_read.c - reading a JSON report back --------------*- C -*-===*\
|*
|* A saved report is parsed by jansson (Debian's libjansson-dev, through
|* json_load.c, which also keeps aside the uint64 integers jansson cannot
|* hold) into a tree, then mapped into the model member by member. The
|* input is treated as hostile: it may be truncated, corrupt, deeply
|* nested, hold numbers that fit no integer, values of the wrong type, or
|* be far too large. Every such case ends in -1 with a one-line reason and
|* nothing leaked. Syntax errors are "invalid JSON at line L, column C: ..."; a text that
|* is not a JSON object, or one without "ompdp_report_version", is "not an
|* ompdp report", so that another tool's file is refused with that reason.
|* Members this version does not know are skipped, so newer writers may add
|* them freely (the contract in OmpdpFormat.inc); a member that appears
|* twice in one object is refused (a later copy silently winning would hide
|* a corrupt file).
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* O_CLOEXEC */
#include "json_load.h"
#include "memory.h" /* device memory in use */
#include "json_scan.h"
#include "report.h"
#include "process.h" /* MPI: a rank's process, a merged report's ranks */

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* json_object_foreach, with the doc's path at each member while its body
 * runs ("findings[3].count": what an error names), and back after it. */
#define MEMBERS(r, obj, key, m)                                                                    \
  for (size_t base_ = (r)->path_len, once_ = 1; once_; once_ = 0, ompdp_json_path_cut(r, base_))  \
    json_object_foreach((json_t *)(obj), key, m) if ((ompdp_json_path_key(r, base_, key), 1))

/* A loop over the elements of an array, each with its index in the path. */
#define ELEMENTS(r, arr, i)                                                                        \
  for (size_t base_ = (r)->path_len, once_ = 1; once_; once_ = 0, ompdp_json_path_cut(r, base_))  \
    for (size_t i = 0; i < json_array_size(arr); ++i)                                              \
      if ((ompdp_json_path_index(r, base_, i), 1))

/* Finds key in names[]; returns its index or -1. */
static int lookup(const char *const *names, int count, const char *key) {
  for (int i = 0; i < count; ++i)
    if (strcmp(names[i], key) == 0)
      return i;
  return -1;
}

/*===- the report's members ---------------------------------------------------------===*/

enum { L_FILE, L_LINE, L_COLUMN, L_FUNCTION, L_COUNT };
static const char *const LocNames[L_COUNT] = {"file", "line", "column", "function"};

/* One of a location's members, shared by a finding and its "related". */
static int get_loc_member(ompdp_json_doc_t *r, int m, const json_t *v, ompdp_loc_t *l) {
  uint64_t x;
  switch (m) {
  case L_FILE:
    return ompdp_json_get_str(r, "file", v, 1, &l->file);
  case L_FUNCTION:
    return ompdp_json_get_str(r, "function", v, 1, &l->function);
  default:
    if (ompdp_json_get_u64(r, LocNames[m], v, UINT32_MAX, &x))
      return -1;
    if (m == L_LINE)
      l->line = (uint32_t)x;
    else
      l->column = (uint32_t)x;
    return 0;
  }
}

static int read_related(ompdp_json_doc_t *r, const json_t *v, ompdp_loc_t *l) {
  ompdp_loc_free(l);
  memset(l, 0, sizeof(*l));
  if (json_is_null(v))
    return 0;
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"related\" must be an object or null");
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(LocNames, L_COUNT, key);
    if (k >= 0 && get_loc_member(r, k, m, l))
      return -1;
  }
  return 0;
}

/* Room for n elements as the model's arrays grow (report.c: a power of
 * two, at least 4), so that appending to them later finds it. */
static size_t model_capacity(size_t n) {
  size_t cap = 4;
  while (cap < n)
    cap *= 2;
  return cap;
}

static int read_devices(ompdp_json_doc_t *r, const json_t *v, ompdp_finding_t *f) {
  if (!json_is_array(v))
    return ompdp_json_fail(r, "\"devices\" must be an array of integers");
  size_t n = json_array_size(v);
  free(f->devices);
  f->devices = NULL;
  f->num_devices = 0;
  if (!n)
    return 0;
  if (!(f->devices = calloc(model_capacity(n), sizeof(*f->devices))))
    return ompdp_json_fail(r, "out of memory");
  ELEMENTS(r, v, i) {
    if (ompdp_json_get_int(r, "devices", json_array_get(v, i), &f->devices[i]))
      return -1;
    f->num_devices++;
  }
  return 0;
}

enum { R_LINE, R_COLUMN, R_END_LINE, R_END_COLUMN, R_OFFSET, R_END_OFFSET, R_NUM };
static const char *const RangeNames[R_NUM] = {"line",       "column", "end_line",
                                              "end_column", "offset", "end_offset"};

/* One member of a range (a finding's "range", or an edit's own members). */
static int get_range_member(ompdp_json_doc_t *r, int m, const json_t *v, ompdp_range_t *g) {
  uint64_t x;
  if (m == R_OFFSET || m == R_END_OFFSET) {
    int64_t *dst = m == R_OFFSET ? &g->offset : &g->end_offset;
    *dst = -1;
    if (json_is_null(v))
      return 0;
    if (ompdp_json_get_u64(r, RangeNames[m], v, INT64_MAX, &x))
      return -1;
    *dst = (int64_t)x;
    return 0;
  }
  if (ompdp_json_get_u64(r, RangeNames[m], v, UINT32_MAX, &x))
    return -1;
  uint32_t *const Dst[4] = {&g->line, &g->column, &g->end_line, &g->end_column};
  *Dst[m] = (uint32_t)x;
  return 0;
}

/* Checks a complete range: lines and columns are 1-based, the end is not
 * before the start, and offsets are both known or both unknown. */
static int check_range(ompdp_json_doc_t *r, unsigned seen, const ompdp_range_t *g,
                       const char *what) {
  for (int m = R_LINE; m <= R_END_COLUMN; ++m)
    if (!(seen & (1u << m)))
      return ompdp_json_fail(r, "%s has no \"%s\"", what, RangeNames[m]);
  if (!g->line || !g->column || !g->end_line || !g->end_column)
    return ompdp_json_fail(r, "%s has a line or column 0 (they count from 1)", what);
  if (g->end_line < g->line || (g->end_line == g->line && g->end_column < g->column))
    return ompdp_json_fail(r, "%s ends before it starts", what);
  if ((g->offset < 0) != (g->end_offset < 0))
    return ompdp_json_fail(r, "%s has only one of \"offset\" and \"end_offset\"", what);
  if (g->end_offset < g->offset)
    return ompdp_json_fail(r, "%s has \"end_offset\" before \"offset\"", what);
  return 0;
}

static int read_range(ompdp_json_doc_t *r, const json_t *v, ompdp_range_t *g) {
  memset(g, 0, sizeof(*g));
  g->offset = g->end_offset = -1;
  if (json_is_null(v))
    return 0;
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"range\" must be an object or null");
  unsigned seen = 0;
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(RangeNames, R_NUM, key);
    if (k < 0)
      continue;
    seen |= 1u << k;
    if (get_range_member(r, k, m, g))
      return -1;
  }
  return check_range(r, seen, g, "a range");
}

enum { E_FILE = R_NUM, E_ORIGINAL, E_REPLACEMENT, E_HASH, E_NUM };
static const char *const EditNames[E_NUM - R_NUM] = {"file", "original", "replacement",
                                                     "file_hash"};

static int read_edit(ompdp_json_doc_t *r, const json_t *v, ompdp_edit_t *e) {
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"edits\" must be an array of objects");
  unsigned seen = 0;
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(RangeNames, R_NUM, key);
    if (k < 0 && (k = lookup(EditNames, E_NUM - R_NUM, key)) >= 0)
      k += R_NUM;
    if (k < 0)
      continue;
    seen |= 1u << k;
    int err;
    switch (k) {
    case E_FILE:
      err = ompdp_json_get_str(r, "file", m, 0, &e->file);
      break;
    case E_ORIGINAL:
      err = ompdp_json_get_str(r, "original", m, 1, &e->original);
      break;
    case E_REPLACEMENT:
      err = ompdp_json_get_str(r, "replacement", m, 0, &e->replacement);
      break;
    case E_HASH:
      err = ompdp_json_get_hex64(r, "file_hash", m, &e->file_hash);
      break;
    default:
      err = get_range_member(r, k, m, &e->range);
      break;
    }
    if (err)
      return -1;
  }
  if (!e->file || !e->file[0])
    return ompdp_json_fail(r, "an edit has no \"file\"");
  if (!e->replacement)
    return ompdp_json_fail(r, "an edit has no \"replacement\"");
  return check_range(r, seen, &e->range, "an edit");
}

/*--- operations by class ("ops": the cost model's input) --------------------*/

static const char *const OpClassNames[OMPDP_OC_COUNT] = {
#define OMPDP_OP_CLASS(Enum, Json, Desc) Json,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const OpStatNames[3] = {"count", "bytes", "time_ns"};

/* {"h2d": {"count": N, "bytes": N, "time_ns": N}, ...}; classes and members
 * this version does not know are skipped. */
static int read_ops(ompdp_json_doc_t *r, const char *name, const json_t *v, ompdp_ops_t *ops) {
  memset(ops, 0, sizeof(*ops));
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"%s\" must be an object", name);
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int c = lookup(OpClassNames, OMPDP_OC_COUNT, key);
    if (c < 0)
      continue;
    if (!json_is_object(m))
      return ompdp_json_fail(r, "\"%s\" must be an object", OpClassNames[c]);
    uint64_t *dest[3] = {&ops->c[c].count, &ops->c[c].bytes, &ops->c[c].time_ns};
    const char *k2;
    json_t *m2;
    MEMBERS(r, m, k2, m2) {
      int st = lookup(OpStatNames, 3, k2);
      if (st >= 0 && ompdp_json_get_u64(r, OpStatNames[st], m2, UINT64_MAX, dest[st]))
        return -1;
    }
  }
  ops->known = 1;
  return 0;
}

enum {
  W_KIND,
  W_DESCRIPTION,
  W_ASSUMPTION,
  W_SAVED,
  W_TRANSFERS,
  W_ALLOCS,
  W_BYTES,
  W_EDITS,
  W_LOWER,
  W_OPS,
  W_OPS_ADDED,
  W_PEAK_SAVED,
  W_NUM
};
static const char *const RewriteNames[W_NUM] = {
    "kind",           "description",   "assumption", "time_saved_ns", "transfers_removed",
    "allocs_removed", "bytes_removed", "edits",      "lower_bound",   "ops",
    "ops_added",      "peak_saved_bytes"};

static int read_rewrite(ompdp_json_doc_t *r, const json_t *v, ompdp_rewrite_t *rw) {
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"rewrites\" must be an array of objects");
  int has_kind = 0;
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(RewriteNames, W_NUM, key), err = 0;
    char *kind = NULL;
    switch (k) {
    case W_KIND:
      err = ompdp_json_get_str(r, "kind", m, 0, &kind);
      rw->kind = ompdp_rewrite_kind_from_json(kind);
      has_kind = !err;
      free(kind);
      break;
    case W_DESCRIPTION:
      err = ompdp_json_get_str(r, "description", m, 1, &rw->description);
      break;
    case W_ASSUMPTION:
      err = ompdp_json_get_str(r, "assumption", m, 1, &rw->assumption);
      break;
    case W_SAVED:
      err = ompdp_json_get_u64(r, "time_saved_ns", m, UINT64_MAX, &rw->time_saved_ns);
      break;
    case W_TRANSFERS:
      err = ompdp_json_get_u64(r, "transfers_removed", m, UINT64_MAX, &rw->transfers_removed);
      break;
    case W_ALLOCS:
      err = ompdp_json_get_u64(r, "allocs_removed", m, UINT64_MAX, &rw->allocs_removed);
      break;
    case W_BYTES:
      err = ompdp_json_get_u64(r, "bytes_removed", m, UINT64_MAX, &rw->bytes_removed);
      break;
    case W_LOWER:
      err = ompdp_json_get_bool(r, "lower_bound", m, &rw->lower_bound);
      break;
    case W_OPS:
      err = read_ops(r, "ops", m, &rw->ops);
      break;
    case W_OPS_ADDED:
      err = read_ops(r, "ops_added", m, &rw->ops_added);
      break;
    case W_PEAK_SAVED:
      err = ompdp_json_get_u64(r, "peak_saved_bytes", m, UINT64_MAX, &rw->peak_saved_bytes);
      rw->peak = 1;
      break;
    case W_EDITS:
      if (!json_is_array(m)) {
        err = ompdp_json_fail(r, "\"edits\" must be an array of objects");
        break;
      }
      ELEMENTS(r, m, i) {
        ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
        if ((err = e ? read_edit(r, json_array_get(m, i), e) : ompdp_json_fail(r, "out of memory")))
          return -1;
      }
      break;
    default:
      break; /* a member of a newer writer */
    }
    if (err)
      return -1;
  }
  if (!has_kind)
    return ompdp_json_fail(r, "a rewrite has no \"kind\"");
  if (!rw->num_edits)
    return ompdp_json_fail(r, "a rewrite has no edits");
  return 0;
}

static int read_rewrites(ompdp_json_doc_t *r, const json_t *v, ompdp_finding_t *f) {
  if (!json_is_array(v))
    return ompdp_json_fail(r, "\"rewrites\" must be an array of objects");
  ELEMENTS(r, v, i) {
    ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_OTHER);
    if (!rw)
      return ompdp_json_fail(r, "out of memory");
    if (read_rewrite(r, json_array_get(v, i), rw))
      return -1;
  }
  return 0;
}

enum {
  F_KIND,
  F_COUNT,
  F_BYTES,
  F_TIME,
  F_SAVED,
  F_DEVICES,
  F_VARIABLE,
  F_CLAUSE,
  F_SUGGESTION,
  F_RELATED,
  F_SAME,
  F_OTHER,
  F_REGION_ID,
  F_ITEM,
  F_RANGE,
  F_REWRITES,
  F_HANDLE,
  F_OPS,
  F_VERDICT,
  F_CALL,
  F_PEAK_SAVED,
  F_NUM
};
static const char *const FindingNames[F_NUM] = {
    "kind",      "count",  "bytes",      "time_ns", "time_saved_ns", "devices",
    "variable",  "clause", "suggestion", "related", "same_buffer",   "other_buffer",
    "region_id", "item",   "range",      "rewrites", "region_handle",
    "ops",       "verdict", "call",       "peak_saved_bytes"};

/* A finding's "verdict". A name this version does not know (a newer
 * writer's) is left undecided: the reader then gives it the verdict an
 * older report's finding gets (ompdp_report_default_verdicts). */
static int read_verdict(ompdp_json_doc_t *r, const json_t *m, ompdp_verdict_t *out) {
  char *name = NULL;
  if (ompdp_json_get_str(r, "verdict", m, 0, &name))
    return -1;
  ompdp_verdict_t v = ompdp_verdict_from_json(name);
  *out = v == OMPDP_V_COUNT ? OMPDP_V_NONE : v;
  free(name);
  return 0;
}

/* Reads one finding into f (zeroed by the caller); *kind_name gets its
 * "kind", which the caller resolves. */
static int read_finding(ompdp_json_doc_t *r, const json_t *v, ompdp_finding_t *f,
                        char **kind_name) {
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"findings\" must be an array of objects");
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(FindingNames, F_NUM, key), e = 0;
    int lk = k < 0 ? lookup(LocNames, L_COUNT, key) : -1;
    uint64_t item;
    if (lk >= 0) {
      if (get_loc_member(r, lk, m, &f->loc))
        return -1;
      continue;
    }
    switch (k) {
    case F_KIND:
      e = ompdp_json_get_str(r, "kind", m, 0, kind_name);
      break;
    case F_COUNT:
      e = ompdp_json_get_u64(r, "count", m, UINT64_MAX, &f->count);
      break;
    case F_BYTES:
      e = ompdp_json_get_u64(r, "bytes", m, UINT64_MAX, &f->bytes);
      break;
    case F_TIME:
      e = ompdp_json_get_u64(r, "time_ns", m, UINT64_MAX, &f->time_ns);
      break;
    case F_SAVED:
      e = ompdp_json_get_u64(r, "time_saved_ns", m, UINT64_MAX, &f->time_saved_ns);
      break;
    case F_DEVICES:
      e = read_devices(r, m, f);
      break;
    case F_VARIABLE:
      e = ompdp_json_get_str(r, "variable", m, 1, &f->variable);
      break;
    case F_CLAUSE:
      e = ompdp_json_get_str(r, "clause", m, 1, &f->clause);
      break;
    case F_CALL:
      e = ompdp_json_get_str(r, "call", m, 1, &f->call);
      break;
    case F_SUGGESTION:
      e = ompdp_json_get_str(r, "suggestion", m, 1, &f->suggestion);
      break;
    case F_RELATED:
      e = read_related(r, m, &f->related);
      break;
    case F_SAME:
      e = ompdp_json_get_u64(r, "same_buffer", m, UINT64_MAX, &f->same_buffer);
      break;
    case F_OTHER:
      e = ompdp_json_get_u64(r, "other_buffer", m, UINT64_MAX, &f->other_buffer);
      break;
    case F_REGION_ID:
      e = ompdp_json_get_hex64(r, "region_id", m, &f->region_id);
      break;
    case F_ITEM:
      f->item = -1;
      if (!json_is_null(m) && !(e = ompdp_json_get_u64(r, "item", m, INT32_MAX, &item)))
        f->item = (int32_t)item;
      break;
    case F_RANGE:
      e = read_range(r, m, &f->range);
      break;
    case F_REWRITES:
      e = read_rewrites(r, m, f);
      break;
    case F_HANDLE:
      e = ompdp_json_get_u64(r, "region_handle", m, UINT32_MAX, &item);
      f->rt_region = (uint32_t)item;
      break;
    case F_OPS:
      e = read_ops(r, "ops", m, &f->ops);
      break;
    case F_VERDICT:
      e = read_verdict(r, m, &f->verdict);
      break;
    case F_PEAK_SAVED:
      e = ompdp_json_get_u64(r, "peak_saved_bytes", m, UINT64_MAX, &f->peak_saved_bytes);
      f->peak = 1;
      break;
    default:
      break;
    }
    if (e)
      return -1;
  }
  if (!*kind_name)
    return ompdp_json_fail(r, "a finding has no \"kind\"");
  return 0;
}

/* Reads one finding, the tree of its text alone (findings are read one at
 * a time: a tree of them all would take ten times their size), with the
 * ranks it was seen on when the report is a merge (process_read.c). */
static int read_one_finding(ompdp_json_doc_t *r, size_t at, size_t end, ompdp_finding_t *f,
                            char **kind_name) {
  if (r->text[at] != '{')
    return ompdp_json_fail(r, "\"findings\" must be an array of objects");
  ompdp_json_doc_t part;
  json_t *tree = NULL;
  int rc = ompdp_json_load_part(r, at, end, &part, &tree);
  if (!rc)
    rc = read_finding(&part, tree, f, kind_name);
  if (!rc && ompdp_finding_kind_from_json(*kind_name) != OMPDP_FK_COUNT &&
      ompdp_process_read_finding_json(tree, &part, f, r->err, r->errlen))
    rc = -1;
  r->failed |= rc != 0;
  json_decref(tree);
  ompdp_json_doc_free(&part);
  return rc;
}

static int read_findings(ompdp_json_doc_t *r, const json_t *v, ompdp_report_t *rep) {
  const ompdp_json_span_t *sp = &r->spans[OMPDP_JSON_SPAN_FINDINGS];
  if (!json_is_array(v) || !sp->present)
    return ompdp_json_fail(r, "\"findings\" must be an array");
  size_t unknown = 0, base = r->path_len;
  char unknown_name[64] = "";
  ompdp_js_t sc = {r, sp->at, sp->at + sp->len};
  int first = 1, more;
  ompdp_js_array(&sc);
  for (size_t i = 0; (more = ompdp_js_element(&sc, &first)) > 0; ++i) {
    ompdp_finding_t f;
    char *kind_name = NULL;
    memset(&f, 0, sizeof(f));
    f.timeline_id = (uint32_t)i; /* the timeline names findings by position */
    f.item = -1;
    f.range.offset = f.range.end_offset = -1;
    ompdp_json_path_index(r, base, i);
    size_t at = sc.pos;
    r->num_findings = i + 1;
    if (ompdp_js_skip(&sc, 2) || read_one_finding(r, at, sc.pos, &f, &kind_name)) {
      ompdp_finding_free(&f);
      free(kind_name);
      return -1;
    }
    ompdp_finding_kind_t k = ompdp_finding_kind_from_json(kind_name);
    if (k == OMPDP_FK_COUNT) {
      /* A kind from a newer writer: skipped, and said so in a warning. */
      if (!unknown++)
        ompdp_json_printable(unknown_name, sizeof(unknown_name), kind_name);
      ompdp_finding_free(&f);
      free(kind_name);
      continue;
    }
    free(kind_name);
    ompdp_finding_t *slot = ompdp_report_add_finding(rep, k);
    if (!slot) {
      ompdp_finding_free(&f);
      return ompdp_json_fail(r, "out of memory");
    }
    f.kind = k;
    *slot = f;
  }
  if (more < 0)
    return -1;
  ompdp_json_path_cut(r, base);
  if (unknown) {
    char msg[160];
    snprintf(msg, sizeof(msg),
             "%zu finding(s) of a kind this ompdp does not know (\"%s\") were left out", unknown,
             unknown_name);
    if (ompdp_report_add_warning(rep, msg))
      return ompdp_json_fail(r, "out of memory");
  }
  return 0;
}

static int read_string_array(ompdp_json_doc_t *r, const char *name, const json_t *v, char ***arr,
                             size_t *count) {
  if (!json_is_array(v))
    return ompdp_json_fail(r, "\"%s\" must be an array of strings", name);
  size_t n = json_array_size(v);
  if (!n)
    return 0;
  char **a = calloc(model_capacity(n), sizeof(*a));
  if (!a)
    return ompdp_json_fail(r, "out of memory");
  *arr = a;
  ELEMENTS(r, v, i) {
    if (ompdp_json_get_str(r, name, json_array_get(v, i), 0, &a[i]))
      return -1;
    ++*count;
  }
  return 0;
}

enum { P_ARGV, P_EXIT, P_WALL, P_NUM };
static const char *const ProgramNames[P_NUM] = {"argv", "exit_status", "wall_time_ns"};

static int read_program(ompdp_json_doc_t *r, const json_t *v, ompdp_report_t *rep) {
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"program\" must be an object");
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int e = 0;
    switch (lookup(ProgramNames, P_NUM, key)) {
    case P_ARGV:
      e = read_string_array(r, "argv", m, &rep->argv, &rep->argc);
      break;
    case P_EXIT:
      rep->has_exit_status = 0;
      if (!json_is_null(m)) {
        uint64_t status = 0;
        e = ompdp_json_get_u64(r, "exit_status", m, OMPDP_EXIT_STATUS_MAX, &status);
        rep->exit_status = (int)status;
        rep->has_exit_status = !e;
      }
      break;
    case P_WALL:
      e = ompdp_json_get_u64(r, "wall_time_ns", m, UINT64_MAX, &rep->wall_time_ns);
      break;
    default:
      break;
    }
    if (e)
      return -1;
  }
  return 0;
}

static int read_summary(ompdp_json_doc_t *r, const json_t *v, ompdp_report_t *rep) {
  static const char *const Keys[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) Summary,
#include "ompdp/OmpdpFormat.inc"
  };
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"summary\" must be an object");
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(Keys, OMPDP_FK_COUNT, key), e = 0;
    if (k >= 0)
      e = ompdp_json_get_u64(r, Keys[k], m, UINT64_MAX, &rep->counts[k]);
    else if (!strcmp(key, "time_saved_ns"))
      e = ompdp_json_get_u64(r, "time_saved_ns", m, UINT64_MAX, &rep->time_saved_ns);
    else if (!strcmp(key, "excluded_time_ns"))
      e = ompdp_json_get_u64(r, "excluded_time_ns", m, UINT64_MAX, &rep->excluded_time_ns);
    else if (!strcmp(key, "predicted_speedup") && !json_is_null(m))
      /* null stands for a value JSON cannot hold (the writer's inf/nan). */
      e = ompdp_json_get_double(r, "predicted_speedup", m, &rep->predicted_speedup);
    if (e)
      return -1;
  }
  return 0;
}

enum { O_TRANSFERS, O_ALLOCS, O_DELETES, O_KERNELS, O_BYTES, O_TTIME, O_COLL, O_KTIME, O_OPS,
       O_NUM };
static const char *const ObservedNames[O_NUM] = {
    "transfers",         "allocs",           "deletes",         "kernels",
    "bytes_transferred", "transfer_time_ns", "hash_collisions", "kernel_time_ns",
    "ops"};

/* "deletes" came later: a report without it reads as 0 deletes. */
static int read_observed(ompdp_json_doc_t *r, const json_t *v, ompdp_report_t *rep) {
  uint64_t *const Dest[O_NUM] = {
      &rep->num_transfers,     &rep->num_allocs,       &rep->num_deletes,    &rep->num_kernels,
      &rep->bytes_transferred, &rep->transfer_time_ns, &rep->hash_collisions, &rep->kernel_time_ns,
      NULL};
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"observed\" must be an object");
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int k = lookup(ObservedNames, O_NUM, key);
    if (k == O_OPS ? read_ops(r, "ops", m, &rep->observed_ops)
                   : k >= 0 && ompdp_json_get_u64(r, ObservedNames[k], m, UINT64_MAX, Dest[k]))
      return -1;
  }
  return 0;
}

/* "recovered": null, or the object of a report recovered from a journal
 * or rebuilt from the event log ("source": "event_log");
 * the reason is required (it is what marks the report as recovered). */
static int read_recovered(ompdp_json_doc_t *r, const json_t *v, ompdp_report_t *rep) {
  if (json_is_null(v))
    return 0;
  if (!json_is_object(v))
    return ompdp_json_fail(r, "\"recovered\" must be an object or null");
  const char *key;
  json_t *m;
  MEMBERS(r, v, key, m) {
    int e = 0;
    if (!strcmp(key, "reason"))
      e = ompdp_json_get_str(r, "reason", m, 0, &rep->recovered_reason);
    else if (!strcmp(key, "flushed_at_ns"))
      e = ompdp_json_get_u64(r, "flushed_at_ns", m, UINT64_MAX, &rep->recovered_flushed_at_ns);
    else if (!strcmp(key, "events"))
      e = ompdp_json_get_u64(r, "events", m, UINT64_MAX, &rep->recovered_events);
    else if (!strcmp(key, "source")) {
      /* "journal" (the default) or "event_log" (driver/recover.c). */
      const char *src = json_string_value(m);
      if (!src)
        return ompdp_json_fail(r, "\"source\" must be a string");
      if (strcmp(src, "journal") && strcmp(src, "event_log"))
        return ompdp_json_fail(r, "\"source\" is neither \"journal\" nor \"event_log\"");
      rep->recovered_from_log = !strcmp(src, "event_log");
    }
    if (e)
      return -1;
  }
  if (!rep->recovered_reason)
    return ompdp_json_fail(r, "\"recovered\" has no \"reason\"");
  return 0;
}

/* "compile_commands": [{"file", "directory", "arguments": [...]}], how
 * the edited files were compiled (compile_commands.c). An entry missing a
 * member, or with an argument holding a newline, is left out. */
static int read_compile_commands(ompdp_json_doc_t *r, const json_t *v, ompdp_report_t *rep) {
  if (!json_is_array(v))
    return ompdp_json_fail(r, "\"compile_commands\" must be an array");
  ELEMENTS(r, v, i) {
    const json_t *c = json_array_get(v, i);
    if (!json_is_object(c))
      return ompdp_json_fail(r, "\"compile_commands\" must be an array of objects");
    char *file = NULL, *dir = NULL;
    char **args = NULL;
    size_t nargs = 0;
    const json_t *m;
    int e = 0;
    size_t el = r->path_len;
    if ((m = json_object_get(c, "file")))
      e = (ompdp_json_path_key(r, el, "file"), ompdp_json_get_str(r, "file", m, 0, &file));
    if (!e && (m = json_object_get(c, "directory")))
      e = (ompdp_json_path_key(r, el, "directory"),
           ompdp_json_get_str(r, "directory", m, 0, &dir));
    if (!e && (m = json_object_get(c, "arguments")))
      e = (ompdp_json_path_key(r, el, "arguments"),
           read_string_array(r, "arguments", m, &args, &nargs));
    size_t len = 0;
    int ok = !e && file && dir && nargs;
    for (size_t k = 0; ok && k < nargs; ++k) {
      ok = !strchr(args[k], '\n');
      len += strlen(args[k]) + 1;
    }
    char *lines = ok ? malloc(len) : NULL;
    if (lines) {
      char *w = lines;
      for (size_t k = 0; k < nargs; ++k) {
        size_t n = strlen(args[k]);
        memcpy(w, args[k], n);
        w += n;
        *w++ = k + 1 < nargs ? '\n' : '\0';
      }
      if (ompdp_report_add_compile_command(rep, file, dir, lines))
        e = ompdp_json_fail(r, "out of memory");
    } else if (ok) {
      e = ompdp_json_fail(r, "out of memory");
    }
    free(lines);
    free(file);
    free(dir);
    for (size_t k = 0; k < nargs; ++k)
      free(args[k]);
    free(args);
    if (e)
      return -1;
  }
  return 0;
}

enum {
  T_VERSION,
  T_PROGRAM,
  T_SUMMARY,
  T_OBSERVED,
  T_PARTIAL,
  T_WARNINGS,
  T_FINDINGS,
  T_RECOVERED,
  T_PLAN,
  T_COMPILE,
  T_MEMORY,
  T_NUM
};
static const char *const TopNames[T_NUM] = {"ompdp_report_version",
                                            "program",
                                            "summary",
                                            "observed",
                                            "partial",
                                            "warnings",
                                            "findings",
                                            "recovered",
                                            "plan",
                                            "compile_commands",
                                            "device_memory"};

/* The version first: another tool's file, or a newer ompdp's, is refused
 * with that reason rather than with whatever its layout would cause. */
static int check_version(ompdp_json_doc_t *r, const json_t *top) {
  const json_t *v = json_object_get(top, "ompdp_report_version");
  ompdp_json_num_t n;
  if (!v)
    return ompdp_json_fail(r, "not an ompdp report (no \"ompdp_report_version\")");
  if (ompdp_json_as_int(r, v, &n) <= 0)
    return ompdp_json_fail(r, "not an ompdp report (\"ompdp_report_version\" is not an integer)");
  if (n.neg || n.overflow || n.mag < OMPDP_REPORT_MIN_VERSION || n.mag > OMPDP_REPORT_VERSION) {
    char text[32];
    const ompdp_json_big_t *b = ompdp_json_big(r, v);
    if (b) {
      size_t len = b->len < sizeof(text) - 4 ? b->len : sizeof(text) - 4;
      memcpy(text, r->text + b->at, len);
      strcpy(text + len, len < b->len ? "..." : "");
    } else {
      snprintf(text, sizeof(text), "%lld", (long long)json_integer_value(v));
    }
    return ompdp_json_fail(
        r, "report version %s is not supported (this ompdp reads versions %d to %d)", text,
        OMPDP_REPORT_MIN_VERSION, OMPDP_REPORT_VERSION);
  }
  return 0;
}

static int read_top(ompdp_json_doc_t *r, const json_t *top, ompdp_report_t *rep) {
  unsigned seen = 0;
  const char *key;
  json_t *m;
  MEMBERS(r, top, key, m) {
    int k = lookup(TopNames, T_NUM, key), e = 0;
    if (k >= 0)
      seen |= 1u << k;
    switch (k) {
    case T_PROGRAM:
      e = read_program(r, m, rep);
      break;
    case T_SUMMARY:
      e = read_summary(r, m, rep);
      break;
    case T_OBSERVED:
      e = read_observed(r, m, rep);
      break;
    case T_PARTIAL:
      e = ompdp_json_get_bool(r, "partial", m, &rep->partial);
      break;
    case T_WARNINGS:
      e = read_string_array(r, "warnings", m, &rep->warnings, &rep->num_warnings);
      break;
    case T_FINDINGS:
      e = read_findings(r, m, rep);
      break;
    case T_RECOVERED:
      e = read_recovered(r, m, rep);
      break;
    case T_PLAN:
      e = ompdp_plan_read_json(r, m, &rep->plan);
      break;
    case T_COMPILE:
      e = read_compile_commands(r, m, rep);
      break;
    case T_MEMORY:
      e = ompdp_memory_read_json(r, m, rep);
      break;
    default:
      break; /* the version (checked), or a newer writer's member */
    }
    if (e)
      return -1;
  }
  static const int Required[] = {T_PROGRAM, T_SUMMARY, T_FINDINGS};
  for (size_t i = 0; i < sizeof(Required) / sizeof(Required[0]); ++i)
    if (!(seen & (1u << Required[i])))
      return ompdp_json_fail(r, "the report has no \"%s\"", TopNames[Required[i]]);
  return 0;
}

int ompdp_report_read_json(const char *text, size_t len, ompdp_report_t *rep, char *err,
                           size_t errlen) {
  return ompdp_report_read_json_doc(text, len, rep, err, errlen, NULL, NULL, NULL);
}

int ompdp_report_read_json_doc(const char *text, size_t len, ompdp_report_t *rep, char *err,
                               size_t errlen, size_t *timeline_at, size_t *timeline_len,
                               size_t *num_findings) {
  ompdp_json_doc_t r = {.text = text, .n = len, .err = err, .errlen = errlen};
  if (timeline_len)
    *timeline_at = *timeline_len = *num_findings = 0;
  if (err && errlen)
    err[0] = '\0';
  ompdp_report_init(rep);
  if (!text)
    return ompdp_json_fail(&r, "no report text");
  if (len > OMPDP_REPORT_MAX_BYTES)
    return ompdp_json_fail(&r, "the report is larger than %zu MiB", OMPDP_REPORT_MAX_BYTES >> 20);
  /* A UTF-8 byte order mark is not JSON, but editors add it. */
  size_t start = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0, p = start;
  while (p < len && strchr(" \t\n\r", text[p]) && text[p])
    ++p;
  if (p >= len)
    return ompdp_json_fail(&r, "not an ompdp report (the file is empty)");
  if (text[p] != '{')
    return ompdp_json_fail(&r, "not an ompdp report (expected a JSON object)");
  json_t *top = NULL;
  int rc = ompdp_json_load(&r, start, &top);
  if (!rc)
    rc = check_version(&r, top);
  if (!rc)
    rc = read_top(&r, top, rep);
  /* MPI: the rank, a merged report's ranks and spreads (report/process_read.c). */
  if (!rc && ompdp_process_read_json_root(top, &r, rep, err, errlen))
    rc = -1;
  /* A runtime's report (with its plan) is decided by the planner; any other
   * finding without a verdict is an older ompdp's: fix or advice. */
  if (!rc && !rep->plan.present)
    ompdp_report_default_verdicts(rep);
  if (rc)
    ompdp_report_free(rep);
  else if (timeline_len && r.spans[OMPDP_JSON_SPAN_TIMELINE].present)
    *timeline_at = r.spans[OMPDP_JSON_SPAN_TIMELINE].at,
    *timeline_len = r.spans[OMPDP_JSON_SPAN_TIMELINE].len, *num_findings = r.num_findings;
  json_decref(top);
  ompdp_json_doc_free(&r);
  return rc;
}

int ompdp_report_read_json_file(const char *path, ompdp_report_t *r, char *err, size_t errlen) {
  ompdp_report_init(r);
  char *buf;
  size_t len;
  if (ompdp_read_file_capped(path, OMPDP_REPORT_MAX_BYTES, "report", &buf, &len, err, errlen))
    return -1;
  char reason[512];
  int rc = ompdp_report_read_json(buf, len, r, reason, sizeof(reason));
  free(buf);
  if (rc && err && errlen)
    snprintf(err, errlen, "%s: %s", path, reason);
  return rc;
}
