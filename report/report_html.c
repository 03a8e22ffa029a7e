/*===- report_html.c - the report as one self-contained HTML page --------===*\
|*
|* `ompdp report --format=html`: one file that opens anywhere, offline. The
|* page is its data (one JSON object in a <script type="application/json">),
|* a style sheet and a script that draws it (report/html/page.css and
|* page.js, built into ompdp as strings). The page's Content-Security-Policy
|* forbids every fetch: no network, no external script, style or font.
|*
|* The data is prepared here, so the script only draws:
|*   - the summary, what was observed, warnings;
|*   - every finding with its verdict (kind, explanation, suggestion) and
|*     rewrites, grouped by variable and construct, each group with what
|*     its findings save together (each avoidable operation once, as the
|*     run's total counts it: timeline.c), each edit shown as a diff of the
|*     source lines when the file
|*     is readable and still what the run saw (the XXH3 the compiler
|*     recorded, the original text), else as the bare edit: no line of a
|*     file whose hash the report does not give is ever put in a page;
|*   - each device's memory in use (report/memory.h): its peak and what
|*     held it, and the bytes in use over time, a track of the timeline
|*     with the peak marked;
|*   - the timeline, with links to findings turned into their positions.
|*     A page with more than HTML_MAX_OPS operations keeps the operations
|*     of findings first, then the earliest others, and adds the rest to
|*     the counts per time bin that stand for what the runtime did not keep
|*     (the page says how many).
|* Strings are made valid UTF-8, and '<', '>' and '&' are written as \u
|* escapes, so nothing in a report can end the script element.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "fix_plan.h"
#include "memory.h"
#include "report_views.h"
#include "timeline.h"

#include "ompdp_html_assets.h"

#include <jansson.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define HTML_MAX_OPS 20000
#define PAGE_BINS 256
#define MAX_SOURCE_BYTES ((size_t)64 << 20)
#define DIFF_CONTEXT 2

/*===- strings ---------------------------------------------------------------------===*/

/* A JSON string of n bytes of s, with bytes that are not UTF-8 (and NUL)
 * replaced by U+FFFD; JSON null for NULL. */
static json_t *jstrn(const char *s, size_t n) {
  if (!s)
    return json_null();
  char *buf = malloc(n * 3 + 1);
  if (!buf)
    return NULL;
  size_t j = 0;
  const unsigned char *u = (const unsigned char *)s;
  for (size_t i = 0; i < n;) {
    size_t l = u[i] ? ompdp_utf8_len(u + i, n - i) : 0;
    if (l) {
      memcpy(buf + j, u + i, l);
      j += l;
      i += l;
    } else {
      memcpy(buf + j, "\xEF\xBF\xBD", 3);
      j += 3;
      i++;
    }
  }
  json_t *v = json_stringn(buf, j);
  free(buf);
  return v;
}

static json_t *jstr(const char *s) { return jstrn(s, s ? strlen(s) : 0); }
static json_t *jint(uint64_t v) { return json_integer((json_int_t)(v > INT64_MAX ? INT64_MAX : v)); }

/* Sets key (a literal) to v, which it owns; returns -1 if v is NULL. */
static int put(json_t *o, const char *key, json_t *v) {
  return v ? json_object_set_new(o, key, v) : -1;
}
static int push(json_t *a, json_t *v) { return v ? json_array_append_new(a, v) : -1; }
/* Containers are put into their parent first and filled afterwards: the
 * parent owns them from then on (json_object_set_new takes the reference,
 * also when it fails), so a failure only has to free the root. */
static json_t *child(json_t *parent, const char *key, json_t *v) {
  return put(parent, key, v) ? NULL : v;
}

static json_t *loc_json(const ompdp_loc_t *l) {
  if (!l->file && !l->function)
    return json_null();
  json_t *o = json_object();
  if (!o || put(o, "file", jstr(l->file)) || put(o, "line", jint(l->line)) ||
      put(o, "column", jint(l->column)) || put(o, "function", jstr(l->function))) {
    json_decref(o);
    return NULL;
  }
  return o;
}

/*===- sources and diffs --------------------------------------------------------------===*/

typedef struct src {
  const char *name;
  char *text;
  size_t len;
  ompdp_fix_file_t ff; /* its lines, as the fix planner places edits in it */
  uint64_t hash;
  int ok;
} src_t;

typedef struct srcs {
  src_t *v;
  size_t n;
} srcs_t;

/* The file called name, read once (ok = 0 when it cannot be read). */
static src_t *get_src(srcs_t *ss, const char *name) {
  for (size_t i = 0; i < ss->n; ++i)
    if (!strcmp(ss->v[i].name, name))
      return &ss->v[i];
  src_t *v = realloc(ss->v, (ss->n + 1) * sizeof(*v));
  if (!v)
    return NULL;
  ss->v = v;
  src_t *s = &ss->v[ss->n++];
  memset(s, 0, sizeof(*s));
  s->name = name;
  if (ompdp_read_regular_file(name, MAX_SOURCE_BYTES, "source", NULL, &s->text, &s->len, NULL,
                              0))
    return s;
  if (ompdp_fix_file_init(&s->ff, name, s->text, s->len))
    return s;
  s->hash = XXH3_64bits(s->text, s->len);
  s->ok = 1;
  return s;
}

static void free_srcs(srcs_t *ss) {
  for (size_t i = 0; i < ss->n; ++i) {
    free(ss->v[i].text);
    ompdp_fix_file_free(&ss->v[i].ff);
  }
  free(ss->v);
}

/* End of the text of line `line` (1-based): where its break begins. */
static size_t line_end(const src_t *s, size_t line) {
  return ompdp_line_end(s->text, s->len, s->ff.lines, s->ff.num_lines, line - 1);
}

typedef struct placed {
  const ompdp_edit_t *e;
  size_t a, b;
} placed_t;

static int cmp_placed(const void *x, const void *y) {
  const placed_t *p = x, *q = y;
  if (p->a != q->a)
    return p->a < q->a ? -1 : 1;
  return p->b < q->b ? -1 : p->b > q->b;
}

static int add_line(json_t *lines, const char *tag, const char *text, size_t n) {
  json_t *l = json_array();
  if (!l || push(l, json_string(tag)) || push(l, jstrn(text, n))) {
    json_decref(l);
    return -1;
  }
  return push(lines, l);
}

/* Lines [from, to] (1-based) of s, each tagged. */
static int add_lines(json_t *lines, const char *tag, const src_t *s, size_t from, size_t to) {
  for (size_t l = from; l <= to && l <= s->ff.num_lines; ++l) {
    size_t a = s->ff.lines[l - 1], b = line_end(s, l);
    if (add_line(lines, tag, s->text + a, b - a))
      return -1;
  }
  return 0;
}

/* Every line of text[0..n), tagged (lines as clang counts them). */
static int add_text_lines(json_t *lines, const char *tag, const char *text, size_t n) {
  size_t num, *starts = ompdp_line_starts(text, n, &num);
  if (!starts)
    return -1;
  int rc = 0;
  for (size_t l = 0; l < num && !rc; ++l) {
    size_t a = starts[l], b = ompdp_line_end(text, n, starts, num, l);
    rc = add_line(lines, tag, text + a, b - a);
  }
  free(starts);
  return rc;
}

/* The hunks of the edits p[0..n) (sorted, in s): lines they touch, before
 * and after, with DIFF_CONTEXT lines around. Edits on lines next to each
 * other make one hunk. */
static json_t *hunks(const src_t *s, const placed_t *p, size_t n) {
  json_t *out = json_array();
  if (!out)
    return NULL;
  for (size_t i = 0; i < n;) {
    uint32_t l0 = p[i].e->range.line, l1 = p[i].e->range.end_line;
    size_t j = i + 1;
    while (j < n && p[j].e->range.line <= l1 + 1) {
      if (p[j].e->range.end_line > l1)
        l1 = p[j].e->range.end_line;
      ++j;
    }
    size_t a = s->ff.lines[l0 - 1], b = line_end(s, l1);
    /* The block with edits i..j applied. */
    size_t cap = b - a + 1;
    for (size_t k = i; k < j; ++k)
      cap += strlen(p[k].e->replacement);
    char *nb = malloc(cap);
    json_t *h = json_object(), *lines = json_array();
    if (!nb || !h || !lines) {
      free(nb);
      json_decref(h);
      json_decref(lines);
      json_decref(out);
      return NULL;
    }
    size_t len = 0, at = a;
    for (size_t k = i; k < j; ++k) {
      size_t ka = p[k].a < at ? at : p[k].a; /* overlapping edits: the later from where the
                                                earlier ended */
      memcpy(nb + len, s->text + at, ka - at);
      len += ka - at;
      size_t rl = strlen(p[k].e->replacement);
      memcpy(nb + len, p[k].e->replacement, rl);
      len += rl;
      at = p[k].b > at ? p[k].b : at;
    }
    memcpy(nb + len, s->text + at, b - at);
    len += b - at;
    size_t c0 = l0 > DIFF_CONTEXT ? l0 - DIFF_CONTEXT : 1;
    size_t c1 = l1 + DIFF_CONTEXT;
    int rc = put(h, "start", jint(c0)) || add_lines(lines, " ", s, c0, l0 - 1) ||
             add_lines(lines, "-", s, l0, l1) || add_text_lines(lines, "+", nb, len) ||
             add_lines(lines, " ", s, l1 + 1, c1);
    free(nb);
    if (rc || put(h, "lines", lines) || push(out, h)) {
      json_decref(out);
      return NULL;
    }
    i = j;
  }
  return out;
}

/* One file's edits of a rewrite: hunks of its lines when the file is as
 * the run saw it, else the bare edits and why. */
static json_t *file_diff(srcs_t *ss, const char *file, const ompdp_rewrite_t *rw) {
  json_t *d = json_object(), *hs;
  size_t n = 0;
  for (size_t i = 0; i < rw->num_edits; ++i)
    n += rw->edits[i].file && !strcmp(rw->edits[i].file, file);
  placed_t *p = calloc(n ? n : 1, sizeof(*p));
  src_t *s = get_src(ss, file);
  if (!d || !p || !s || put(d, "file", jstr(file)))
    goto fail;
  const char *why = s->ok ? NULL : "the file cannot be read here";
  size_t k = 0;
  for (size_t i = 0; i < rw->num_edits && !why; ++i) {
    const ompdp_edit_t *e = &rw->edits[i];
    if (!e->file || strcmp(e->file, file))
      continue;
    /* Only a file whose hash the report knows: a page must not show lines
     * of any file a report names (the report may come from elsewhere, the
     * page go elsewhere). */
    ompdp_fix_edit_t at;
    ompdp_fix_mismatch_t m;
    if (!e->file_hash)
      why = "the report has no hash of the file to check it against";
    else if (ompdp_fix_check_edit(&s->ff, e, &at, &m) == 0)
      p[k++] = (placed_t){e, at.start, at.end};
    else if (m.kind == OMPDP_FIX_CHANGED)
      why = "the file changed since the program was built";
    else if (m.kind == OMPDP_FIX_TEXT)
      why = "the file does not hold the text the edit replaces";
    else
      why = "the file has no such lines";
  }
  if (put(d, "source", json_boolean(!why)) ||
      put(d, "why", why ? json_string(why) : json_null()))
    goto fail;
  if (!why) {
    qsort(p, k, sizeof(*p), cmp_placed);
    if (put(d, "hunks", hunks(s, p, k)))
      goto fail;
  } else {
    /* The edits alone: where, the text it replaces, the text it puts. */
    json_t *h, *ls;
    if (!(hs = child(d, "hunks", json_array())) || push(hs, h = json_object()) ||
        put(h, "start", jint(0)) || !(ls = child(h, "lines", json_array())))
      goto fail;
    for (size_t i = 0; i < rw->num_edits; ++i) {
      const ompdp_edit_t *e = &rw->edits[i];
      if (!e->file || strcmp(e->file, file))
        continue;
      char at[64];
      snprintf(at, sizeof(at), "@ line %u, column %u", e->range.line, e->range.column);
      if (add_line(ls, "@", at, strlen(at)) ||
          (e->original && *e->original &&
           add_text_lines(ls, "-", e->original, strlen(e->original))) ||
          (*e->replacement && add_text_lines(ls, "+", e->replacement, strlen(e->replacement))))
        goto fail;
    }
  }
  free(p);
  return d;
fail:
  free(p);
  json_decref(d);
  return NULL;
}

static json_t *rewrite_json(srcs_t *ss, const ompdp_rewrite_t *rw) {
  json_t *o = json_object(), *diffs;
  if (!o || !(diffs = child(o, "diffs", json_array())) ||
      put(o, "kind", jstr(ompdp_rewrite_kind_json(rw->kind))) ||
      put(o, "description", jstr(rw->description)) ||
      put(o, "assumption", jstr(rw->assumption)) ||
      put(o, "time_saved_ns", jint(rw->time_saved_ns)) ||
      put(o, "transfers_removed", jint(rw->transfers_removed)) ||
      put(o, "allocs_removed", jint(rw->allocs_removed)) ||
      put(o, "bytes_removed", jint(rw->bytes_removed)) ||
      put(o, "lower_bound", json_boolean(rw->lower_bound)))
    goto fail;
  for (size_t i = 0; i < rw->num_edits; ++i) {
    const char *f = rw->edits[i].file ? rw->edits[i].file : "";
    int seen = 0;
    for (size_t j = 0; j < i && !seen; ++j)
      seen = rw->edits[j].file && !strcmp(rw->edits[j].file, f);
    if (!seen && push(diffs, file_diff(ss, f, rw)))
      goto fail;
  }
  return o;
fail:
  json_decref(o);
  return NULL;
}

/*===- the page's data -------------------------------------------------------------===*/

static json_t *finding_json(srcs_t *ss, const ompdp_finding_t *f, size_t idx, uint64_t shown) {
  json_t *o = json_object(), *devs, *rws;
  if (!o || !(devs = child(o, "devices", json_array())) ||
      !(rws = child(o, "rewrites", json_array())))
    goto fail;
  for (size_t i = 0; i < f->num_devices; ++i)
    if (push(devs, json_integer(f->devices[i])))
      goto fail;
  for (size_t i = 0; i < f->num_rewrites; ++i)
    if (push(rws, rewrite_json(ss, &f->rewrites[i])))
      goto fail;
  if (put(o, "index", jint(idx)) || put(o, "kind", jstr(ompdp_finding_kind_json(f->kind))) ||
      put(o, "title", jstr(ompdp_finding_kind_title(f->kind))) ||
      put(o, "explanation", jstr(ompdp_finding_kind_explanation(f->kind))) ||
      put(o, "count", jint(f->count)) || put(o, "bytes", jint(f->bytes)) ||
      put(o, "time_ns", jint(f->time_ns)) || put(o, "time_saved_ns", jint(f->time_saved_ns)) ||
      put(o, "loc", loc_json(&f->loc)) || put(o, "related", loc_json(&f->related)) ||
      put(o, "variable", jstr(f->variable)) || put(o, "clause", jstr(f->clause)) ||
      put(o, "call", jstr(f->call)) ||
      put(o, "suggestion", jstr(f->suggestion)) || put(o, "shown", jint(shown)) ||
      put(o, "verdict", jstr(ompdp_verdict_json(f->verdict))) ||
      put(o, "saves", json_boolean(ompdp_verdict_saves(f->verdict))) ||
      put(o, "related_at", jstr(ompdp_finding_related_at(f))) ||
      put(o, "peak_saved_bytes", f->peak ? jint(f->peak_saved_bytes) : json_null()))
    goto fail;
  return o;
fail:
  json_decref(o);
  return NULL;
}

typedef struct pbins {
  int32_t device;
  uint8_t type;
  uint64_t count, bytes, time_ns;
  uint64_t bins[PAGE_BINS];
} pbins_t;

static pbins_t *lane_of(pbins_t **v, size_t *n, int32_t dev, int type) {
  for (size_t i = 0; i < *n; ++i)
    if ((*v)[i].device == dev && (*v)[i].type == type)
      return &(*v)[i];
  pbins_t *nv = realloc(*v, (*n + 1) * sizeof(*nv));
  if (!nv)
    return NULL;
  *v = nv;
  pbins_t *l = &nv[(*n)++];
  memset(l, 0, sizeof(*l));
  l->device = dev;
  l->type = (uint8_t)type;
  return l;
}

static int cmp_pbins(const void *a, const void *b) {
  const pbins_t *x = a, *y = b;
  if (x->device != y->device)
    return x->device < y->device ? -1 : 1;
  return x->type < y->type ? -1 : x->type > y->type;
}

static json_t *timeline_json(const ompdp_report_t *r) {
  const ompdp_timeline_t *t = r->timeline;
  long *pos = ompdp_timeline_link_positions(r);
  /* Which operations the page draws: all when they fit; else those of
   * findings, then the earliest others. */
  char *drawn = calloc(t->num_ops ? t->num_ops : 1, 1);
  json_t *o = json_object(), *ops, *lanes;
  pbins_t *pb = NULL;
  size_t npb = 0, ndrawn = 0, folded = 0;
  uint64_t end_ns = 0;
  if ((t->num_links && !pos) || !drawn || !o || !(ops = child(o, "ops", json_array())) ||
      !(lanes = child(o, "rest", json_array())))
    goto fail;
  for (size_t i = 0; i < t->num_ops; ++i) {
    const ompdp_tl_op_t *op = &t->ops[i];
    if (op->start_ns + op->dur_ns > end_ns)
      end_ns = op->start_ns + op->dur_ns;
    for (size_t k = op->first_link; k < op->first_link + op->num_links && !drawn[i]; ++k)
      if (pos[k] >= 0 && ndrawn < HTML_MAX_OPS)
        drawn[i] = 1, ndrawn++;
  }
  for (size_t i = 0; i < t->num_ops && ndrawn < HTML_MAX_OPS; ++i)
    if (!drawn[i])
      drawn[i] = 1, ndrawn++;
  /* The runtime's counts may reach past the last kept operation. */
  for (size_t i = 0; i < t->num_lanes; ++i)
    for (size_t b = t->num_bins; b-- > 0;)
      if (t->lanes[i].bins[b]) {
        double e = t->bin_ns * (double)(b + 1);
        if (e > (double)end_ns)
          end_ns = (uint64_t)e;
        break;
      }
  double w = end_ns ? (double)end_ns / PAGE_BINS : 1.0;
  for (size_t i = 0; i < t->num_lanes; ++i) {
    const ompdp_tl_lane_t *l = &t->lanes[i];
    pbins_t *p = lane_of(&pb, &npb, l->device, l->type);
    if (!p)
      goto fail;
    p->count += l->count;
    p->bytes += l->bytes;
    p->time_ns += l->time_ns;
    for (size_t b = 0; b < t->num_bins; ++b) {
      size_t k = (size_t)(t->bin_ns * (double)b / w);
      p->bins[k < PAGE_BINS ? k : PAGE_BINS - 1] += l->bins[b];
    }
  }
  for (size_t i = 0; i < t->num_ops; ++i) {
    const ompdp_tl_op_t *op = &t->ops[i];
    if (!drawn[i]) {
      pbins_t *p = lane_of(&pb, &npb, op->device, op->type);
      if (!p)
        goto fail;
      size_t k = (size_t)((double)op->start_ns / w);
      p->count++;
      p->bytes += op->bytes;
      p->time_ns += op->dur_ns;
      p->bins[k < PAGE_BINS ? k : PAGE_BINS - 1]++;
      folded++;
      continue;
    }
    json_t *a = json_array(), *fs, *rs;
    if (push(ops, a) || push(a, jint(op->seq)) ||
        push(a, json_string(ompdp_tl_type_json(op->type))) ||
        push(a, json_integer(op->device)) || push(a, json_integer(op->src_device)) ||
        push(a, jint(op->thread)) || push(a, jint(op->start_ns)) || push(a, jint(op->dur_ns)) ||
        push(a, jint(op->bytes)) || push(a, fs = json_array()) || push(a, rs = json_array()))
      goto fail;
    for (size_t k = op->first_link; k < op->first_link + op->num_links; ++k)
      if (pos[k] >= 0 && push(t->links[k].related ? rs : fs, json_integer(pos[k])))
        goto fail;
  }
  if (npb)
    qsort(pb, npb, sizeof(*pb), cmp_pbins);
  for (size_t i = 0; i < npb; ++i) {
    json_t *l = json_object(), *bins;
    if (push(lanes, l) || !(bins = child(l, "bins", json_array())) ||
        put(l, "device", json_integer(pb[i].device)) ||
        put(l, "type", json_string(ompdp_tl_type_json(pb[i].type))) ||
        put(l, "count", jint(pb[i].count)) || put(l, "bytes", jint(pb[i].bytes)) ||
        put(l, "time_ns", jint(pb[i].time_ns)))
      goto fail;
    for (size_t b = 0; b < PAGE_BINS; ++b)
      if (push(bins, jint(pb[i].bins[b])))
        goto fail;
  }
  if (put(o, "full", json_boolean(t->full)) || put(o, "events", jint(t->events)) ||
      put(o, "first", jint(t->first)) || put(o, "per_finding", jint(t->per_finding)) ||
      put(o, "host_device", json_integer(t->host_device)) ||
      put(o, "threads", jint(t->threads)) || put(o, "kept", jint(t->num_ops)) ||
      put(o, "folded", jint(folded)) || put(o, "max_ops", jint(HTML_MAX_OPS)) ||
      put(o, "end_ns", jint(end_ns)) || put(o, "bin_ns", json_real(w)))
    goto fail;
  free(pb);
  free(drawn);
  free(pos);
  return o;
fail:
  free(pb);
  free(drawn);
  free(pos);
  json_decref(o);
  return NULL;
}

/* Device memory in use: per device (and rank), the peak, its holders and
 * the series. */
static json_t *memory_json(const ompdp_report_t *r) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < r->num_device_memory; ++i) {
    const ompdp_device_memory_t *m = &r->device_memory[i];
    json_t *o = json_object(), *hs = NULL, *ser = NULL;
    int bad = push(a, o) || !(hs = child(o, "holders", json_array())) ||
              !(ser = child(o, "series", json_array())) ||
              put(o, "device", json_integer(m->device)) ||
              put(o, "rank", m->rank >= 0 ? json_integer(m->rank) : json_null()) ||
              put(o, "peak_bytes", jint(m->peak_bytes)) ||
              put(o, "peak_time_ns", jint(m->peak_time_ns)) ||
              put(o, "peak_allocations", jint(m->peak_allocations)) ||
              put(o, "peak_saved_bytes", jint(m->peak_saved_bytes)) ||
              put(o, "final_bytes", jint(m->final_bytes)) || put(o, "end_ns", jint(m->end_ns)) ||
              put(o, "other_bytes", jint(m->other_bytes)) ||
              put(o, "other_allocations", jint(m->other_allocations));
    for (size_t k = 0; !bad && k < m->num_holders; ++k) {
      const ompdp_mem_holder_t *h = &m->holders[k];
      json_t *ho = json_object();
      bad = push(hs, ho) || put(ho, "variable", jstr(h->variable)) ||
            put(ho, "clause", jstr(h->clause)) || put(ho, "call", jstr(h->call)) ||
            put(ho, "loc", loc_json(&h->loc)) || put(ho, "bytes", jint(h->bytes)) ||
            put(ho, "allocations", jint(h->allocations));
    }
    for (size_t k = 0; !bad && k < m->num_series; ++k) {
      json_t *pt = json_array();
      bad = push(ser, pt) || push(pt, jint(m->series[k].t_ns)) || push(pt, jint(m->series[k].bytes));
    }
    if (bad) {
      json_decref(a);
      return NULL;
    }
  }
  return a;
}

/* The findings by variable and construct (timeline.c): each group's
 * positions and what its findings save together, each avoidable operation
 * once ("saved_max_ns" above "saved_ns" when the timeline cannot tell). */
static json_t *groups_json(const ompdp_report_t *r) {
  ompdp_finding_group_t *g;
  size_t ng, *order;
  if (ompdp_report_groups(r, &g, &ng, &order))
    return NULL;
  json_t *a = json_array();
  for (size_t k = 0; a && k < ng; ++k) {
    json_t *o = json_object(), *fs;
    if (push(a, o) || !(fs = child(o, "findings", json_array())) ||
        put(o, "saved_ns", jint(g[k].saved_ns)) || put(o, "saved_max_ns", jint(g[k].saved_max_ns))) {
      json_decref(a);
      a = NULL;
      break;
    }
    for (size_t i = g[k].first; i < g[k].first + g[k].n; ++i)
      if (push(fs, jint(order[i]))) {
        json_decref(a);
        a = NULL;
        break;
      }
  }
  free(g);
  free(order);
  return a;
}

static json_t *page_data(const ompdp_report_t *r) {
  json_t *d = json_object(), *prog, *argv, *sum, *obs, *warn, *fs;
  uint64_t *shown = calloc(r->num_findings ? r->num_findings : 1, sizeof(*shown));
  srcs_t ss = {0};
  if (!d || !shown || !(prog = child(d, "program", json_object())) ||
      !(argv = child(prog, "argv", json_array())) ||
      !(sum = child(d, "summary", json_array())) ||
      !(obs = child(d, "observed", json_object())) ||
      !(warn = child(d, "warnings", json_array())) ||
      !(fs = child(d, "findings", json_array())))
    goto fail;
  ompdp_timeline_count_shown(r, shown);
  for (size_t i = 0; i < r->argc; ++i)
    if (push(argv, jstr(r->argv[i])))
      goto fail;
  if (put(prog, "exit_status", r->has_exit_status ? json_integer(r->exit_status) : json_null()) ||
      put(prog, "wall_time_ns", jint(r->wall_time_ns)))
    goto fail;
  for (int k = 0; k < OMPDP_FK_COUNT; ++k) {
    json_t *c = json_object();
    if (push(sum, c) || put(c, "kind", jstr(ompdp_finding_kind_json(k))) ||
        put(c, "key", jstr(ompdp_finding_kind_summary_key(k))) ||
        put(c, "title", jstr(ompdp_finding_kind_title(k))) ||
        put(c, "explanation", jstr(ompdp_finding_kind_explanation(k))) ||
        put(c, "count", jint(r->counts[k])))
      goto fail;
  }
  if (put(obs, "transfers", jint(r->num_transfers)) || put(obs, "allocs", jint(r->num_allocs)) ||
      put(obs, "deletes", jint(r->num_deletes)) || put(obs, "kernels", jint(r->num_kernels)) ||
      put(obs, "bytes_transferred", jint(r->bytes_transferred)) ||
      put(obs, "transfer_time_ns", jint(r->transfer_time_ns)))
    goto fail;
  for (size_t i = 0; i < r->num_warnings; ++i)
    if (push(warn, jstr(r->warnings[i])))
      goto fail;
  for (size_t i = 0; i < r->num_findings; ++i)
    if (push(fs, finding_json(&ss, &r->findings[i], i, shown[i])))
      goto fail;
  if (put(d, "time_saved_ns", jint(r->time_saved_ns)) ||
      put(d, "excluded_time_ns", jint(r->excluded_time_ns)) ||
      put(d, "predicted_speedup",
          isfinite(r->predicted_speedup) ? json_real(r->predicted_speedup) : json_null()) ||
      put(d, "partial", json_boolean(r->partial)) ||
      put(d, "recovered", jstr(r->recovered_reason)) || put(d, "groups", groups_json(r)) ||
      put(d, "timeline", r->timeline ? timeline_json(r) : json_null()))
    goto fail;
  if (put(d, "device_memory", memory_json(r)))
    goto fail;
  free(shown);
  free_srcs(&ss);
  return d;
fail:
  free(shown);
  free_srcs(&ss);
  json_decref(d);
  return NULL;
}

/*===- the page ---------------------------------------------------------------------===*/

/* jansson's output, with the characters that mean something to HTML turned
 * into \u escapes (they occur in JSON only inside strings). */
static int dump_cb(const char *buf, size_t size, void *data) {
  FILE *out = data;
  for (size_t i = 0; i < size; ++i) {
    char c = buf[i];
    if (c == '<')
      fputs("\\u003c", out);
    else if (c == '>')
      fputs("\\u003e", out);
    else if (c == '&')
      fputs("\\u0026", out);
    else
      fputc(c, out);
  }
  return ferror(out) ? -1 : 0;
}

static void put_html(FILE *out, const char *s) {
  for (; s && *s; ++s) {
    switch (*s) {
    case '<': fputs("&lt;", out); break;
    case '>': fputs("&gt;", out); break;
    case '&': fputs("&amp;", out); break;
    case '"': fputs("&quot;", out); break;
    default: fputc(*s, out);
    }
  }
}

int ompdp_report_write_html(const ompdp_report_t *r, FILE *out) {
  json_t *d = page_data(r);
  if (!d) {
    errno = ENOMEM;
    return -1;
  }
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">\n"
        "<meta name=\"generator\" content=\"ompdp\">\n<title>ompdp report",
        out);
  if (r->argc && r->argv[0]) {
    fputs(": ", out);
    /* The title is text: only valid UTF-8 is kept as it is. */
    json_t *t = jstr(r->argv[0]);
    put_html(out, t ? json_string_value(t) : "");
    json_decref(t);
  }
  fputs("</title>\n<style>\n", out);
  fputs(ompdp_html_css, out);
  fputs("</style>\n</head>\n<body>\n<noscript><p>This report is drawn by the script in this "
        "page: allow JavaScript for this file to see it.</p></noscript>\n"
        "<div id=\"app\"></div>\n<script id=\"ompdp-data\" type=\"application/json\">",
        out);
  int rc = json_dump_callback(d, dump_cb, out, JSON_COMPACT | JSON_ESCAPE_SLASH);
  json_decref(d);
  fputs("</script>\n<script>\n", out);
  fputs(ompdp_html_js, out);
  fputs("</script>\n</body>\n</html>\n", out);
  if (rc || fflush(out) || ferror(out)) {
    if (!errno)
      errno = rc ? ENOMEM : EIO;
    return -1;
  }
  return 0;
}
