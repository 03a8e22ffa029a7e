/*===- lsp_findings.c - the ompdp language server: findings in the editor -===*\
|*
|* Findings become what an editor shows:
|*
|*   - placed: a finding of a report is shown in a document only when the
|*     document is the file its program was built from, as the fix
|*     planner (report/fix_plan.h) checks a file (its XXH3 and the text of
|*     every edit); a document that is not gets one note saying why, as
|*     the compiler plugin's -Wompdp-stale-profile does. Each finding is
|*     then a span of the text (its map item, or the construct's line) that
|*     moves with the user's edits and is dropped when an edit touches it
|*     or the text its rewrite edits.
|*   - diagnostics: one per finding, severity by the share of the run's
|*     time its fix saves (a Hint for a verdict that is no saving), with
|*     the measured cost and verdict, the suggestion, each
|*     rewrite and whether it is offered, and the related operation.
|*   - code actions: each rewrite the planner lets through, as a quick fix
|*     whose WorkspaceEdit holds exactly the planner's edits, and all of a
|*     file's as one source.fixAll action; a rewrite the planner refuses
|*     (the file changed, an overlap) is said instead.
|*   - hover: the finding, its rewrites and their edits.
|*
|* The planner is asked again for each answer, over every finding of every
|* report and the files as they are now (an open document as the editor has
|* it), so a quick fix is offered exactly when `ompdp fix --apply` would
|* make it, and makes the same edits.
|*
|* About 1,000 lines, on purpose: diagnostics, code actions and hover are
|* three views of the same placed findings and the same plan, built with
|* the same dozen helpers (text buffers, headlines, ranges, the planner's
|* verdict on each rewrite); split, those would be exported for one
|* caller each.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* strdup, strndup */
#include "lsp_impl.h"
#include "memory.h" /* a finding about the peak: its device's */
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

/* Severity by the share of the run's wall time that a finding's fix saves. */
#define WARNING_SHARE 0.01      /* 1% and more: Warning */
#define INFORMATION_SHARE 0.001 /* 0.1% and more: Information; less: Hint */

/* A source file read from disk for the planner is capped like ompdp fix's. */
#define MAX_SOURCE_BYTES ((size_t)64 << 20)

/*===- text helpers ------------------------------------------------------------===*/

/* A JSON string of s, whatever its bytes: what is not UTF-8 becomes '?'
 * (a report's or a file's text need not be UTF-8; JSON must). */
static json_t *jstr(const char *s) {
  if (!s)
    s = "";
  json_t *j = json_string(s);
  if (j)
    return j;
  size_t n = strlen(s);
  char *c = malloc(n + 1);
  if (!c)
    return json_string("");
  for (size_t i = 0; i < n; ++i)
    c[i] = (unsigned char)s[i] < 0x80 ? s[i] : '?';
  c[n] = '\0';
  j = json_string(c);
  free(c);
  return j ? j : json_string("");
}

static json_t *jbuf(ompdp_strbuf_t *b) {
  json_t *j = jstr(b->d ? b->d : "");
  free(b->d);
  memset(b, 0, sizeof(*b));
  return j;
}

static const char *base_name(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path ? path : "?";
}

/* Text of an edit on one line, quoted as the text report quotes it. */
static void bquote(ompdp_strbuf_t *b, const char *s) {
  ompdp_sb_puts(b, "\"");
  for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; ++p) {
    if (*p == '\n')
      ompdp_sb_puts(b, "\\n");
    else if (*p == '\t')
      ompdp_sb_puts(b, "\\t");
    else if (*p == '"' || *p == '\\')
      ompdp_sb_printf(b, "\\%c", *p);
    else if (*p < 0x20 || *p == 0x7F)
      ompdp_sb_printf(b, "\\x%02x", *p);
    else
      ompdp_sb_putn(b, (const char *)p, 1);
  }
  ompdp_sb_puts(b, "\"");
}

/*===- placing findings ------------------------------------------------------------===*/

void lsp_doc_clear(lsp_doc_t *doc) {
  for (size_t i = 0; i < doc->num_anchors; ++i)
    free(doc->anchors[i].edits);
  free(doc->anchors);
  doc->anchors = NULL;
  doc->num_anchors = 0;
  for (size_t i = 0; i < doc->num_notes; ++i)
    free(doc->notes[i]);
  free(doc->notes);
  doc->notes = NULL;
  doc->num_notes = 0;
}

static int in_doc(const char *file, const lsp_doc_t *doc) {
  return file && doc->path && !strcmp(file, doc->path);
}

/* The planner's source for checking one document alone. */
typedef struct doc_check {
  const lsp_doc_t *doc;
  ompdp_fix_file_t *ff;
  char why[400];
} doc_check_t;

static ompdp_fix_file_t *check_open(void *ctx, const char *name) {
  doc_check_t *c = ctx;
  return in_doc(name, c->doc) ? c->ff : NULL;
}

static void check_mismatch(void *ctx, ompdp_fix_file_t *file, const ompdp_edit_t *e,
                           const ompdp_fix_mismatch_t *m) {
  doc_check_t *c = ctx;
  ompdp_fix_mismatch_words(c->why, sizeof(c->why), e, m, "report");
}

static int add_note(lsp_doc_t *doc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int add_note(lsp_doc_t *doc, const char *fmt, ...) {
  char tmp[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof(tmp), fmt, ap);
  va_end(ap);
  char **v = realloc(doc->notes, (doc->num_notes + 1) * sizeof(*v));
  if (!v)
    return -1;
  doc->notes = v;
  if (!(v[doc->num_notes] = strdup(tmp)))
    return -1;
  ++doc->num_notes;
  return 0;
}

/* Places f in doc (whose text ff indexes). 1 when placed, 0 when f has no
 * position in the text, -1 when out of memory. */
static int place_one(lsp_doc_t *doc, const ompdp_fix_file_t *ff, const lsp_report_t *r,
                     const ompdp_finding_t *f) {
  lsp_anchor_t a = {.report = r, .f = f};
  const ompdp_range_t *rg = &f->range;
  if (rg->line) {
    int64_t s = ompdp_fix_offset(ff, rg->line, rg->column);
    int64_t e = ompdp_fix_offset(ff, rg->end_line, rg->end_column);
    if (s < 0 || e < s || (rg->offset >= 0 && (rg->offset != s || rg->end_offset != e)))
      return 0;
    a.item = (lsp_span_t){(size_t)s, (size_t)e};
  } else if (f->loc.line) {
    int64_t s = ompdp_fix_offset(ff, f->loc.line, f->loc.column ? f->loc.column : 1);
    if (s < 0)
      s = ompdp_fix_offset(ff, f->loc.line, 1);
    if (s < 0)
      return 0;
    a.item = (lsp_span_t){(size_t)s, lsp_text_line_end(&doc->text, (size_t)s)};
  } else {
    return 0;
  }
  if (in_doc(f->related.file, doc) && f->related.line) {
    int64_t s = ompdp_fix_offset(ff, f->related.line, f->related.column ? f->related.column : 1);
    if (s >= 0) {
      a.has_related = 1;
      a.related = (lsp_span_t){(size_t)s, lsp_text_line_end(&doc->text, (size_t)s)};
    }
  }
  for (size_t i = 0; i < f->num_rewrites; ++i)
    for (size_t j = 0; j < f->rewrites[i].num_edits; ++j) {
      const ompdp_edit_t *e = &f->rewrites[i].edits[j];
      if (!in_doc(e->file, doc))
        continue;
      int64_t s = ompdp_fix_offset(ff, e->range.line, e->range.column);
      int64_t t = ompdp_fix_offset(ff, e->range.end_line, e->range.end_column);
      if (s < 0 || t < s)
        continue;
      lsp_span_t *v = realloc(a.edits, (a.num_edits + 1) * sizeof(*v));
      if (!v) {
        free(a.edits);
        return -1;
      }
      a.edits = v;
      a.edits[a.num_edits++] = (lsp_span_t){(size_t)s, (size_t)t};
    }
  lsp_anchor_t *v = realloc(doc->anchors, (doc->num_anchors + 1) * sizeof(*v));
  if (!v) {
    free(a.edits);
    return -1;
  }
  doc->anchors = v;
  doc->anchors[doc->num_anchors++] = a;
  return 1;
}

int lsp_place(lsp_server_t *s, lsp_doc_t *doc) {
  lsp_doc_clear(doc);
  doc->edited = 0;
  if (!doc->path)
    return 0;
  ompdp_fix_file_t ff;
  if (ompdp_fix_file_init(&ff, doc->path, doc->text.s, doc->text.len))
    return -1;
  int rc = 0;
  for (size_t i = 0; i < s->num_reports && !rc; ++i) {
    const lsp_report_t *r = s->reports[i];
    if (!r->loaded)
      continue;
    const ompdp_report_t *rep = &r->rep;
    size_t n = 0;
    for (size_t k = 0; k < rep->num_findings; ++k)
      n += in_doc(rep->findings[k].loc.file, doc);
    if (!n)
      continue;
    /* The planner's checks of this file, on every edit of the report in it. */
    doc_check_t c = {.doc = doc, .ff = &ff};
    ff.stale = 0;
    ompdp_fix_source_t src = {check_open, check_mismatch, &c};
    ompdp_fix_plan_t plan;
    if (ompdp_fix_plan_report(rep, &src, &plan)) {
      rc = -1;
      break;
    }
    ompdp_fix_plan_free(&plan);
    const char *from = r->path ? r->path : "(in memory)";
    if (c.why[0]) {
      if (add_note(doc,
                   "this file is not the one the program of the report %s was built from (%s): "
                   "its %zu finding(s) are not shown; rebuild the program and run it under "
                   "ompdp again",
                   from, c.why, n))
        rc = -1;
      continue;
    }
    size_t missing = 0;
    for (size_t k = 0; k < rep->num_findings && !rc; ++k) {
      if (!in_doc(rep->findings[k].loc.file, doc))
        continue;
      int placed = place_one(doc, &ff, r, &rep->findings[k]);
      if (placed < 0)
        rc = -1;
      missing += placed == 0;
    }
    if (missing && !rc &&
        add_note(doc, "%zu finding(s) of the report %s have no place in this file (no line "
                      "and column, or ones the file does not have)",
                 missing, from))
      rc = -1;
  }
  ompdp_fix_file_free(&ff);
  return rc;
}

void lsp_move(lsp_doc_t *doc, size_t cs, size_t ce, size_t n) {
  doc->edited = 1;
  size_t k = 0;
  for (size_t i = 0; i < doc->num_anchors; ++i) {
    lsp_anchor_t *a = &doc->anchors[i];
    int keep = lsp_span_move(&a->item, cs, ce, n, 0);
    for (size_t j = 0; j < a->num_edits && keep; ++j)
      keep = lsp_span_move(&a->edits[j], cs, ce, n, 1);
    if (!keep) {
      free(a->edits);
      continue;
    }
    if (a->has_related && !lsp_span_move(&a->related, cs, ce, n, 0)) {
      /* Only a pointer: kept at its start, or where the change was. */
      size_t at = a->related.start < cs ? a->related.start : cs;
      a->related = (lsp_span_t){at, at};
    }
    doc->anchors[k++] = *a;
  }
  doc->num_anchors = k;
}

int lsp_matches_again(lsp_server_t *s, lsp_doc_t *doc) {
  if (!doc->edited || !doc->path)
    return 0;
  uint64_t h = 0;
  int hashed = 0;
  for (size_t i = 0; i < s->num_reports; ++i) {
    const lsp_report_t *r = s->reports[i];
    if (!r->loaded)
      continue;
    for (size_t k = 0; k < r->rep.num_findings; ++k) {
      const ompdp_finding_t *f = &r->rep.findings[k];
      for (size_t x = 0; x < f->num_rewrites; ++x)
        for (size_t y = 0; y < f->rewrites[x].num_edits; ++y) {
          const ompdp_edit_t *e = &f->rewrites[x].edits[y];
          if (!e->file_hash || !in_doc(e->file, doc))
            continue;
          if (!hashed) {
            h = XXH3_64bits(doc->text.s, doc->text.len);
            hashed = 1;
          }
          if (h == e->file_hash)
            return 1;
        }
    }
  }
  return 0;
}

/*===- planning -----------------------------------------------------------------------===*/

/* A regular file of at most MAX_SOURCE_BYTES, whole (a report may name a
 * FIFO or a device: never read those); NULL when it cannot be had. */
static char *read_regular(const char *path, size_t *len) {
  char *out;
  return ompdp_read_regular_file(path, MAX_SOURCE_BYTES, "source", NULL, &out, len, NULL, 0)
             ? NULL
             : out;
}

static ompdp_fix_file_t *plan_open(void *ctx, const char *name) {
  lsp_plan_t *p = ctx;
  for (size_t i = 0; i < p->num_files; ++i)
    if (!strcmp(p->files[i]->path, name))
      return p->files[i]->unreadable ? NULL : &p->files[i]->ff;
  lsp_file_t **v = realloc(p->files, (p->num_files + 1) * sizeof(*v));
  if (!v)
    return NULL;
  p->files = v;
  lsp_file_t *f = calloc(1, sizeof(*f));
  if (!f)
    return NULL;
  if (!(f->path = strdup(name))) {
    free(f);
    return NULL;
  }
  p->files[p->num_files++] = f;
  f->doc = lsp_doc_by_path(p->s, name);
  const char *text;
  size_t len;
  if (f->doc) {
    text = f->doc->text.s;
    len = f->doc->text.len;
  } else {
    f->own = read_regular(name, &len);
    if (!f->own || lsp_text_set(&f->disk, f->own, len)) {
      f->unreadable = 1;
      return NULL;
    }
    text = f->own;
  }
  if (ompdp_fix_file_init(&f->ff, f->path, text, len)) {
    f->unreadable = 1;
    return NULL;
  }
  f->ff.user = f;
  return &f->ff;
}

static void plan_mismatch(void *ctx, ompdp_fix_file_t *file, const ompdp_edit_t *e,
                          const ompdp_fix_mismatch_t *m) {
  lsp_file_t *f = file->user;
  char why[400];
  ompdp_fix_mismatch_words(why, sizeof(why), e, m, "report");
  free(f->mismatch);
  f->mismatch = strdup(why);
}

static void plan_free(lsp_plan_t *p) {
  ompdp_fix_plan_free(&p->plan);
  for (size_t i = 0; i < p->num_files; ++i) {
    lsp_file_t *f = p->files[i];
    ompdp_fix_file_free(&f->ff);
    lsp_text_free(&f->disk);
    free(f->own);
    free(f->mismatch);
    free(f->path);
    free(f);
  }
  free(p->files);
  free(p->findings);
  memset(p, 0, sizeof(*p));
}

/* Plans every finding of every report against the files as they are now. */
static int plan_make(lsp_server_t *s, lsp_plan_t *p) {
  memset(p, 0, sizeof(*p));
  p->s = s;
  size_t n = 0;
  for (size_t i = 0; i < s->num_reports; ++i)
    if (s->reports[i]->loaded)
      n += s->reports[i]->rep.num_findings;
  p->findings = malloc((n ? n : 1) * sizeof(*p->findings));
  if (!p->findings)
    return -1;
  for (size_t i = 0; i < s->num_reports; ++i)
    if (s->reports[i]->loaded)
      for (size_t k = 0; k < s->reports[i]->rep.num_findings; ++k)
        p->findings[p->num_findings++] = &s->reports[i]->rep.findings[k];
  ompdp_fix_source_t src = {plan_open, plan_mismatch, p};
  if (ompdp_fix_plan_make(p->findings, p->num_findings, &src, &p->plan)) {
    plan_free(p);
    return -1;
  }
  return 0;
}

static const lsp_file_t *plan_file(const lsp_plan_t *p, const char *path) {
  for (size_t i = 0; i < p->num_files; ++i)
    if (!strcmp(p->files[i]->path, path))
      return p->files[i];
  return NULL;
}

/* Why the planner did not let x through, in words. */
static void refusal(const lsp_plan_t *p, const ompdp_fix_t *x, char *out, size_t size) {
  const lsp_file_t *f = x->file_name ? plan_file(p, x->file_name) : NULL;
  switch (x->state) {
  case OMPDP_FIX_APPLY:
    out[0] = '\0';
    break;
  case OMPDP_FIX_NO_FILE:
    snprintf(out, size, "it edits %s, which cannot be read", x->file_name ? x->file_name : "?");
    break;
  case OMPDP_FIX_STALE_FILE:
    snprintf(out, size, "%s does not match the report (%s); rebuild the program and run it "
                        "under ompdp again",
             base_name(x->file_name),
             f && f->mismatch ? f->mismatch : "it changed since the program was built");
    break;
  case OMPDP_FIX_SELF_OVERLAP:
    snprintf(out, size, "its edits overlap each other");
    break;
  case OMPDP_FIX_OVERLAPS: {
    const ompdp_fix_t *w = &p->plan.fixes[x->winner];
    snprintf(out, size, "it overlaps the %s rewrite for the %s finding, which saves more",
             ompdp_rewrite_kind_json(w->rw->kind), ompdp_finding_kind_json(w->f->kind));
    break;
  }
  }
}

/*===- what a finding says ----------------------------------------------------------------===*/

/* The device peak a finding about memory lowers: the largest of its
 * devices' (their ranks' too, merged); 0 when the report has none. */
static uint64_t finding_peak(const lsp_anchor_t *a) {
  const ompdp_report_t *r = &a->report->rep;
  uint64_t peak = 0;
  for (size_t i = 0; i < r->num_device_memory; ++i)
    for (size_t j = 0; j < a->f->num_devices; ++j)
      if (r->device_memory[i].device == a->f->devices[j] && r->device_memory[i].peak_bytes > peak)
        peak = r->device_memory[i].peak_bytes;
  return peak;
}

/* The share of the run's time a fix saves; of the device's peak, for a
 * finding about memory (it saves no time). */
static double share(const lsp_anchor_t *a) {
  if (a->f->peak) {
    uint64_t peak = finding_peak(a);
    return peak ? (double)a->f->peak_saved_bytes / (double)peak : 1.0;
  }
  uint64_t wall = a->report->rep.wall_time_ns;
  return wall ? (double)a->f->time_saved_ns / (double)wall : 1.0;
}

/* A finding that is no saving (its verdict) is a Hint whatever its time. */
static int severity(const lsp_anchor_t *a) {
  if (!ompdp_verdict_saves(a->f->verdict))
    return 4;
  double x = share(a);
  return x >= WARNING_SHARE ? 2 : x >= INFORMATION_SHARE ? 3 : 4;
}

static const char *times(uint64_t n, char *buf, size_t size) {
  if (n == 1)
    return "once";
  snprintf(buf, size, "%" PRIu64 " times", n);
  return buf;
}

/* The first line: what happened to the item (the compiler warning's words). */
static void headline(ompdp_strbuf_t *b, const ompdp_finding_t *f) {
  char t[32];
  const char *what = ompdp_finding_warning_text(f);
  int removes = 0;
  for (size_t i = 0; i < f->num_rewrites; ++i)
    removes |= f->rewrites[i].kind == OMPDP_RK_REMOVE_ITEM;
  if (f->kind == OMPDP_FK_OVERBROAD_MAP && !removes)
    what = " moves more than its region uses, "; /* the item's access is the compiler's */
  ompdp_sb_printf(b, "%s: ", ompdp_finding_kind_name(f->kind));
  if (f->variable)
    ompdp_sb_printf(b, "'%s' in %s", f->variable,
            f->clause ? f->clause : f->call ? f->call : "its map");
  else
    ompdp_sb_puts(b, "a map item of this construct");
  ompdp_sb_printf(b, "%s%s", what, times(f->count, t, sizeof(t)));
}

static void measured(ompdp_strbuf_t *b, const lsp_anchor_t *a) {
  const ompdp_finding_t *f = a->f;
  char by[OMPDP_UNIT_BUF], tm[OMPDP_UNIT_BUF], sv[OMPDP_UNIT_BUF], wall[OMPDP_UNIT_BUF];
  ompdp_sb_printf(b, "measured: %" PRIu64 " %s, %s", f->count,
          ompdp_finding_kind_noun(f->kind, f->count != 1), ompdp_format_bytes(by, f->bytes));
  if (!f->peak || f->time_ns) /* a finding about the peak took no time */
    ompdp_sb_printf(b, " in %s", ompdp_format_time(tm, f->time_ns));
  for (size_t i = 0; i < f->num_devices; ++i)
    ompdp_sb_printf(b, "%s%d", i ? "," : f->num_devices == 1 ? " on device " : " on devices ",
            f->devices[i]);
  if (!ompdp_verdict_saves(f->verdict)) {
    ompdp_sb_printf(b, "; verdict %s: no saving", ompdp_verdict_json(f->verdict));
    return;
  }
  if (f->verdict != OMPDP_V_NONE)
    ompdp_sb_printf(b, "; verdict %s", ompdp_verdict_json(f->verdict));
  if (f->peak) { /* memory held while unused: the peak, never time */
    uint64_t peak = finding_peak(a);
    ompdp_sb_printf(b, "; the fix lowers the device's peak of memory in use by %s",
                    ompdp_format_bytes(sv, f->peak_saved_bytes));
    if (peak)
      ompdp_sb_printf(b, " (%.2g%% of its %s)", 100.0 * share(a),
                      ompdp_format_bytes(wall, peak));
    return;
  }
  ompdp_sb_printf(b, "; the fix saves %s", ompdp_format_time(sv, f->time_saved_ns));
  if (a->report->rep.wall_time_ns)
    ompdp_sb_printf(b, " (%.2g%% of the run's %s)", 100.0 * share(a),
            ompdp_format_time(wall, a->report->rep.wall_time_ns));
}

static void fix_summary(ompdp_strbuf_t *b, const ompdp_rewrite_t *rw) {
  char t[OMPDP_UNIT_BUF], by[OMPDP_UNIT_BUF];
  ompdp_sb_printf(b, "fix (%s): ", ompdp_rewrite_kind_json(rw->kind));
  ompdp_sb_puts(b, rw->description ? rw->description : "");
  if (rw->peak) {
    ompdp_sb_printf(b, "  [lowers the peak of device memory by %s; saves no time]",
                    ompdp_format_bytes(by, rw->peak_saved_bytes));
    return;
  }
  ompdp_sb_printf(b, "  [saves %s%s: %" PRIu64 " transfers (%s), %" PRIu64 " allocations]",
          rw->lower_bound ? "at least " : "", ompdp_format_time(t, rw->time_saved_ns),
          rw->transfers_removed, ompdp_format_bytes(by, rw->bytes_removed), rw->allocs_removed);
}

/* What becomes of each rewrite of f, after its summary. */
static void fix_state(ompdp_strbuf_t *b, const lsp_plan_t *p, const ompdp_rewrite_t *rw) {
  const ompdp_fix_t *x = p ? ompdp_fix_plan_find(&p->plan, rw) : NULL;
  if (!x) {
    ompdp_sb_puts(b, !rw->num_edits ? ": no edits" : "");
    return;
  }
  if (x->state == OMPDP_FIX_APPLY) {
    ompdp_sb_puts(b, ": offered as a quick fix");
    return;
  }
  char why[600];
  refusal(p, x, why, sizeof(why));
  ompdp_sb_printf(b, ": not offered: %s", why);
}

/*===- positions ---------------------------------------------------------------------------===*/

static json_t *position(const lsp_server_t *s, const lsp_text_t *t, size_t off) {
  uint32_t line, ch;
  lsp_text_position(t, off, s->enc, &line, &ch);
  return json_pack("{s:I,s:I}", "line", (json_int_t)line, "character", (json_int_t)ch);
}

static json_t *range_of(const lsp_server_t *s, const lsp_text_t *t, lsp_span_t sp) {
  return json_pack("{s:o,s:o}", "start", position(s, t, sp.start), "end",
                   position(s, t, sp.end));
}

/* A location in a file that may not be open: placed in its text on disk
 * when it can be read, else taken as written (bytes as characters). */
static json_t *location(lsp_server_t *s, const lsp_doc_t *doc, const lsp_anchor_t *a) {
  const ompdp_loc_t *l = &a->f->related;
  char *uri = lsp_uri_for(s, l->file);
  if (!uri)
    return NULL;
  json_t *range;
  if (a->has_related) {
    range = range_of(s, &doc->text, a->related);
  } else {
    size_t len;
    char *text = read_regular(l->file, &len);
    lsp_text_t t = {0};
    ompdp_fix_file_t ff;
    int64_t off = -1;
    if (text && !lsp_text_set(&t, text, len) && !ompdp_fix_file_init(&ff, l->file, text, len)) {
      off = ompdp_fix_offset(&ff, l->line, l->column ? l->column : 1);
      ompdp_fix_file_free(&ff);
    }
    if (off >= 0) {
      range = range_of(s, &t, (lsp_span_t){(size_t)off, lsp_text_line_end(&t, (size_t)off)});
    } else {
      json_t *p = json_pack("{s:I,s:I}", "line", (json_int_t)(l->line - 1), "character",
                            (json_int_t)(l->column ? l->column - 1 : 0));
      range = json_pack("{s:O,s:o}", "start", p, "end", p);
    }
    lsp_text_free(&t);
    free(text);
  }
  json_t *loc = json_pack("{s:o,s:o}", "uri", jstr(uri), "range", range);
  free(uri);
  return loc;
}

/*===- diagnostics --------------------------------------------------------------------------===*/

static json_t *diagnostic(lsp_server_t *s, const lsp_doc_t *doc, const lsp_anchor_t *a,
                          const lsp_plan_t *p) {
  const ompdp_finding_t *f = a->f;
  ompdp_strbuf_t m = {0};
  headline(&m, f);
  ompdp_sb_puts(&m, "\n");
  measured(&m, a);
  if (f->suggestion)
    ompdp_sb_printf(&m, "\nsuggestion: %s", f->suggestion);
  for (size_t i = 0; i < f->num_rewrites; ++i) {
    ompdp_sb_puts(&m, "\n");
    fix_summary(&m, &f->rewrites[i]);
    fix_state(&m, p, &f->rewrites[i]);
  }
  if (doc->edited)
    ompdp_sb_puts(&m, "\n(the file was edited since the run: this finding moved with the text)");
  json_t *d = json_pack("{s:o,s:i,s:s,s:s,s:o}", "range", range_of(s, &doc->text, a->item),
                        "severity", severity(a), "source", "ompdp", "code",
                        ompdp_finding_kind_warning_group(f->kind), "message", jbuf(&m));
  if (f->related.file && f->related.line) {
    json_t *loc = location(s, doc, a);
    if (loc)
      json_object_set_new(d, "relatedInformation",
                          json_pack("[{s:o,s:s}]", "location", loc, "message",
                                    ompdp_finding_related_note(f)));
  }
  return d;
}

static json_t *diagnostics(lsp_server_t *s, const lsp_doc_t *doc, const lsp_plan_t *p) {
  json_t *v = json_array();
  for (size_t i = 0; i < doc->num_anchors; ++i)
    json_array_append_new(v, diagnostic(s, doc, &doc->anchors[i], p));
  for (size_t i = 0; i < doc->num_notes; ++i)
    json_array_append_new(v, json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}},s:i,s:s,s:s,s:o}",
                                       "range", "start", "line", 0, "character", 0, "end",
                                       "line", 0, "character", 0, "severity", 3, "source",
                                       "ompdp", "code", "ompdp-stale-report", "message",
                                       jstr(doc->notes[i])));
  return v;
}

void lsp_publish(lsp_server_t *s, lsp_doc_t *doc) {
  lsp_plan_t p;
  int planned = doc->num_anchors && !plan_make(s, &p);
  json_t *params = json_pack("{s:s,s:I,s:o}", "uri", doc->uri, "version",
                             (json_int_t)doc->version, "diagnostics",
                             diagnostics(s, doc, planned ? &p : NULL));
  if (!params) /* a URI that is not UTF-8 cannot have come from a client */
    params = json_pack("{s:s,s:[]}", "uri", "", "diagnostics");
  lsp_notify(s, "textDocument/publishDiagnostics", params);
  if (planned)
    plan_free(&p);
}

/*===- code actions ---------------------------------------------------------------------------===*/

static int cmp_edit(const void *pa, const void *pb) {
  const ompdp_fix_edit_t *a = *(const ompdp_fix_edit_t *const *)pa;
  const ompdp_fix_edit_t *b = *(const ompdp_fix_edit_t *const *)pb;
  if (a->start != b->start)
    return a->start < b->start ? -1 : 1;
  return (a->end > b->end) - (a->end < b->end);
}

/* The WorkspaceEdit of fixes[0..n) (each APPLY): the planner's edits, by
 * file, at the planner's byte offsets made positions in the text each was
 * checked against. */
static json_t *workspace_edit(lsp_server_t *s, const ompdp_fix_t *const *fixes, size_t n) {
  size_t total = 0;
  for (size_t i = 0; i < n; ++i)
    total += fixes[i]->rw->num_edits;
  const ompdp_fix_edit_t **v = malloc((total ? total : 1) * sizeof(*v));
  if (!v)
    return NULL;
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < fixes[i]->rw->num_edits; ++j)
      v[k++] = &fixes[i]->edits[j];
  json_t *changes = json_object(), *doc_changes = json_array();
  /* File by file, in the order the fixes name them. */
  for (size_t i = 0; i < k; ++i) {
    if (!v[i])
      continue;
    const ompdp_fix_file_t *ff = v[i]->file;
    const lsp_file_t *lf = ff->user;
    const lsp_text_t *t = lf->doc ? &lf->doc->text : &lf->disk;
    const ompdp_fix_edit_t **mine = malloc(k * sizeof(*mine));
    if (!mine)
      break;
    size_t m = 0;
    for (size_t j = i; j < k; ++j)
      if (v[j] && v[j]->file == ff) {
        mine[m++] = v[j];
        v[j] = NULL;
      }
    qsort(mine, m, sizeof(*mine), cmp_edit);
    json_t *edits = json_array();
    for (size_t j = 0; j < m; ++j) {
      /* In the document's own line breaks. */
      size_t tl = ompdp_fix_edit_text(mine[j], NULL);
      char *text = malloc(tl + 1);
      if (text)
        text[ompdp_fix_edit_text(mine[j], text)] = 0;
      json_array_append_new(
          edits, json_pack("{s:o,s:o}", "range",
                           range_of(s, t, (lsp_span_t){mine[j]->start, mine[j]->end}),
                           "newText", jstr(text ? text : mine[j]->e->replacement)));
      free(text);
    }
    free(mine);
    char *uri = lsp_uri_for(s, lf->path);
    json_t *juri = jstr(uri);
    free(uri);
    if (s->document_changes) {
      json_t *version = lf->doc ? json_integer(lf->doc->version) : json_null();
      json_array_append_new(doc_changes,
                            json_pack("{s:{s:o,s:o},s:o}", "textDocument", "uri", juri,
                                      "version", version, "edits", edits));
    } else {
      json_object_set_new(changes, json_string_value(juri), edits);
      json_decref(juri);
    }
  }
  free(v);
  if (s->document_changes) {
    json_decref(changes);
    return json_pack("{s:o}", "documentChanges", doc_changes);
  }
  json_decref(doc_changes);
  return json_pack("{s:o}", "changes", changes);
}

/* Is an action of this kind asked for (context.only: kinds and their
 * parents, "source" takes "source.fixAll.ompdp")? */
static int wanted(json_t *only, const char *kind) {
  if (!json_is_array(only))
    return 1;
  size_t i;
  json_t *o;
  json_array_foreach(only, i, o) {
    if (!json_is_string(o))
      continue;
    const char *k = json_string_value(o);
    size_t n = strlen(k);
    if (!strncmp(kind, k, n) && (kind[n] == '\0' || kind[n] == '.'))
      return 1;
  }
  return 0;
}

static int touches(lsp_span_t a, size_t from, size_t to) { return a.start <= to && from <= a.end; }

/* A rewrite's description up to its first ": " or "; " (what it does and
 * where; the details are in the diagnostic and the hover), at most 120
 * bytes cut at a space, and its saving. */
static void title(ompdp_strbuf_t *b, const ompdp_rewrite_t *rw) {
  char t[OMPDP_UNIT_BUF];
  const char *d = rw->description ? rw->description : ompdp_rewrite_kind_json(rw->kind);
  size_t n = strlen(d);
  const char *colon = strstr(d, ": "), *semi = strstr(d, "; ");
  if (colon && (size_t)(colon - d) < n)
    n = (size_t)(colon - d);
  if (semi && (size_t)(semi - d) < n)
    n = (size_t)(semi - d);
  int cut = n > 120;
  if (cut) {
    n = 120;
    while (n > 60 && d[n] != ' ')
      --n;
    while (n && ((unsigned char)d[n] & 0xC0) == 0x80) /* not inside a character */
      --n;
  }
  ompdp_sb_puts(b, "ompdp: ");
  ompdp_sb_putn(b, d, n);
  if (rw->peak) /* the peak, never time */
    ompdp_sb_printf(b, "%s (lowers the peak by %s)", cut ? "..." : "",
                    ompdp_format_bytes(t, rw->peak_saved_bytes));
  else
    ompdp_sb_printf(b, "%s (saves %s%s)", cut ? "..." : "", rw->lower_bound ? "at least " : "",
                    ompdp_format_time(t, rw->time_saved_ns));
}

json_t *lsp_code_actions(lsp_server_t *s, lsp_doc_t *doc, json_t *params, int *code, char *err,
                         size_t errlen) {
  int64_t l0, c0, l1, c1;
  if (!lsp_get_int(params, "range.start.line", 0, UINT32_MAX, &l0) ||
      !lsp_get_int(params, "range.start.character", 0, UINT32_MAX, &c0) ||
      !lsp_get_int(params, "range.end.line", 0, UINT32_MAX, &l1) ||
      !lsp_get_int(params, "range.end.character", 0, UINT32_MAX, &c1)) {
    *code = LSP_INVALID_PARAMS;
    snprintf(err, errlen, "params.range is not a range");
    return NULL;
  }
  size_t from = lsp_text_offset(&doc->text, (uint64_t)l0, (uint64_t)c0, s->enc);
  size_t to = lsp_text_offset(&doc->text, (uint64_t)l1, (uint64_t)c1, s->enc);
  if (to < from) {
    size_t x = from;
    from = to;
    to = x;
  }
  json_t *only = lsp_get(params, "context.only");
  int64_t trigger = 0;
  lsp_get_int(params, "context.triggerKind", 1, 2, &trigger);
  json_t *result = json_array();
  if (!doc->num_anchors)
    return result;
  lsp_plan_t p;
  if (plan_make(s, &p)) {
    *code = LSP_INTERNAL_ERROR;
    snprintf(err, errlen, "out of memory");
    json_decref(result);
    return NULL;
  }
  /* The fixes of the findings at the range, most saving first. */
  size_t nf = p.plan.num_fixes;
  char *here = calloc(nf ? nf : 1, 1);
  const ompdp_fix_t **all = malloc((nf ? nf : 1) * sizeof(*all));
  if (!here || !all) {
    free(here);
    free(all);
    plan_free(&p);
    *code = LSP_INTERNAL_ERROR;
    snprintf(err, errlen, "out of memory");
    json_decref(result);
    return NULL;
  }
  for (size_t i = 0; i < doc->num_anchors; ++i) {
    const lsp_anchor_t *a = &doc->anchors[i];
    if (!touches(a->item, from, to))
      continue;
    for (size_t j = 0; j < a->f->num_rewrites; ++j) {
      const ompdp_fix_t *x = ompdp_fix_plan_find(&p.plan, &a->f->rewrites[j]);
      if (x)
        here[x - p.plan.fixes] = 1;
    }
  }
  int preferred = 1, refused = 0;
  char why[700] = "";
  for (size_t i = 0; i < nf; ++i) {
    const ompdp_fix_t *x = &p.plan.fixes[i];
    if (!here[i] || !wanted(only, "quickfix"))
      continue;
    if (x->state != OMPDP_FIX_APPLY) {
      char r[600];
      refusal(&p, x, r, sizeof(r));
      if (s->disabled_actions) {
        ompdp_strbuf_t t = {0};
        title(&t, x->rw);
        json_array_append_new(result, json_pack("{s:o,s:s,s:{s:o}}", "title", jbuf(&t), "kind",
                                                "quickfix", "disabled", "reason", jstr(r)));
      } else if (!refused++) {
        snprintf(why, sizeof(why), "ompdp: the %s rewrite is not offered: %s",
                 ompdp_rewrite_kind_json(x->rw->kind), r);
      }
      continue;
    }
    /* The diagnostics it fixes: those of this document's findings that have it. */
    json_t *diags = json_array();
    for (size_t k = 0; k < doc->num_anchors; ++k)
      for (size_t j = 0; j < doc->anchors[k].f->num_rewrites; ++j)
        if (ompdp_fix_plan_find(&p.plan, &doc->anchors[k].f->rewrites[j]) == x) {
          json_array_append_new(diags, diagnostic(s, doc, &doc->anchors[k], &p));
          break;
        }
    ompdp_strbuf_t t = {0};
    title(&t, x->rw);
    json_t *edit = workspace_edit(s, &x, 1);
    json_array_append_new(result, json_pack("{s:o,s:s,s:o,s:b,s:o*}", "title", jbuf(&t), "kind",
                                            "quickfix", "diagnostics", diags, "isPreferred",
                                            preferred, "edit", edit));
    preferred = 0;
  }
  /* Every rewrite with an edit in this file, at once: as `ompdp fix --apply`. */
  if (wanted(only, "source.fixAll.ompdp")) {
    size_t n = 0;
    for (size_t i = 0; i < nf; ++i) {
      const ompdp_fix_t *x = &p.plan.fixes[i];
      int mine = 0;
      for (size_t j = 0; j < x->rw->num_edits && !mine; ++j)
        mine = x->edits[j].file && ((lsp_file_t *)x->edits[j].file->user)->doc == doc;
      if (x->state == OMPDP_FIX_APPLY && mine)
        all[n++] = x;
    }
    if (n) {
      char t[160];
      snprintf(t, sizeof(t), "ompdp: apply every rewrite in this file (%zu)", n);
      json_array_append_new(result, json_pack("{s:s,s:s,s:o*}", "title", t, "kind",
                                              "source.fixAll.ompdp", "edit",
                                              workspace_edit(s, all, n)));
    }
  }
  /* A refused fix is said when the user asked (not on every cursor move). */
  if (refused && trigger != 2 && (trigger == 1 || doc->refusal_said != doc->version)) {
    lsp_show(s, 2, "%s", why);
    doc->refusal_said = doc->version;
  }
  free(here);
  free(all);
  plan_free(&p);
  return result;
}

/*===- hover ------------------------------------------------------------------------------------===*/

static void edit_line(ompdp_strbuf_t *b, const ompdp_edit_t *e) {
  const ompdp_range_t *r = &e->range;
  ompdp_sb_printf(b, "%s:%" PRIu32 ":%" PRIu32, base_name(e->file), r->line, r->column);
  int empty = r->line == r->end_line && r->column == r->end_column;
  if (!empty)
    ompdp_sb_printf(b, "-%" PRIu32 ":%" PRIu32, r->end_line, r->end_column);
  const char *rep = e->replacement ? e->replacement : "";
  if (empty) {
    ompdp_sb_puts(b, ": insert ");
    bquote(b, rep);
  } else if (!*rep) {
    ompdp_sb_puts(b, ": delete ");
    bquote(b, e->original);
  } else {
    ompdp_sb_puts(b, ": replace ");
    if (e->original)
      bquote(b, e->original);
    else
      ompdp_sb_puts(b, "the text");
    ompdp_sb_puts(b, " with ");
    bquote(b, rep);
  }
  ompdp_sb_puts(b, "\n");
}

static void hover_one(ompdp_strbuf_t *b, int md, const lsp_anchor_t *a, const lsp_plan_t *p) {
  const ompdp_finding_t *f = a->f;
  const char *bold = md ? "**" : "";
  const char *code = md ? "`" : "'";
  ompdp_sb_printf(b, "%sompdp: %s%s", bold, ompdp_finding_kind_name(f->kind), bold);
  if (f->variable)
    ompdp_sb_printf(b, " of %s%s%s in %s%s%s", code, f->variable, code, code,
            f->clause ? f->clause : f->call ? f->call : "its map", code);
  ompdp_sb_puts(b, "\n\n");
  ompdp_strbuf_t h = {0};
  headline(&h, f);
  ompdp_sb_printf(b, "%s\n\n", h.d ? h.d : "");
  free(h.d);
  measured(b, a);
  ompdp_sb_puts(b, "\n\n");
  if (f->suggestion)
    ompdp_sb_printf(b, "%s\n\n", f->suggestion);
  if (f->related.file && f->related.line)
    ompdp_sb_printf(b, "%s %s:%" PRIu32 ":%" PRIu32 "%s%s\n\n", ompdp_finding_related_at(f),
            base_name(f->related.file), f->related.line, f->related.column,
            f->related.function ? " in " : "", f->related.function ? f->related.function : "");
  for (size_t i = 0; i < f->num_rewrites; ++i) {
    const ompdp_rewrite_t *rw = &f->rewrites[i];
    ompdp_strbuf_t t = {0};
    fix_summary(&t, rw);
    fix_state(&t, p, rw);
    ompdp_sb_printf(b, "%s%s\n", md ? "- " : "", t.d ? t.d : "");
    free(t.d);
    if (rw->assumption)
      ompdp_sb_printf(b, "%sassumes: %s\n", md ? "  " : "  ", rw->assumption);
    if (rw->num_edits) {
      ompdp_sb_puts(b, md ? "\n  ```\n" : "");
      for (size_t j = 0; j < rw->num_edits; ++j) {
        ompdp_sb_puts(b, "  ");
        edit_line(b, &rw->edits[j]);
      }
      ompdp_sb_puts(b, md ? "  ```\n" : "");
    }
  }
  if (!f->num_rewrites && !ompdp_verdict_saves(f->verdict))
    ompdp_sb_printf(b, "no rewrite: %s\n", ompdp_verdict_description(f->verdict));
  else if (!f->num_rewrites)
    ompdp_sb_puts(b, "no rewrite: the suggestion above is the fix in words\n");
}

json_t *lsp_hover(lsp_server_t *s, lsp_doc_t *doc, json_t *params, int *code, char *err,
                  size_t errlen) {
  int64_t line, ch;
  if (!lsp_get_int(params, "position.line", 0, UINT32_MAX, &line) ||
      !lsp_get_int(params, "position.character", 0, UINT32_MAX, &ch)) {
    *code = LSP_INVALID_PARAMS;
    snprintf(err, errlen, "params.position is not a position");
    return NULL;
  }
  size_t off = lsp_text_offset(&doc->text, (uint64_t)line, (uint64_t)ch, s->enc);
  const lsp_anchor_t *first = NULL;
  for (size_t i = 0; i < doc->num_anchors && !first; ++i)
    if (touches(doc->anchors[i].item, off, off))
      first = &doc->anchors[i];
  if (!first)
    return json_null();
  lsp_plan_t p;
  int planned = !plan_make(s, &p);
  ompdp_strbuf_t b = {0};
  int n = 0;
  for (size_t i = 0; i < doc->num_anchors; ++i) {
    const lsp_anchor_t *a = &doc->anchors[i];
    if (!touches(a->item, off, off))
      continue;
    if (n++)
      ompdp_sb_puts(&b, s->markdown ? "\n---\n\n" : "\n");
    hover_one(&b, s->markdown, a, planned ? &p : NULL);
  }
  if (planned)
    plan_free(&p);
  return json_pack("{s:{s:s,s:o},s:o}", "contents", "kind",
                   s->markdown ? "markdown" : "plaintext", "value", jbuf(&b), "range",
                   range_of(s, &doc->text, first->item));
}
