/*===- fix_plan.c - which edits of a report to apply -----------------*- C -*-===*\
|*
|* See fix_plan.h. The rewrites are taken most saving first, so that when
|* two conflict the one that saves more is kept; each edit is placed in its
|* file by line:column and checked against everything the report knows of
|* the file (the compiler's hash, byte offsets, the original text), and a
|* file that fails one check gets no edit at all, since the others were
|* computed against the same, now different, text.
|*
\*===----------------------------------------------------------------------===*/
#include "fix_plan.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The compiler hashes each source file it reads with XXH3-64 (the region
 * table's file hash); the same function, inline, tells whether a file is
 * still what was compiled. */
#define XXH_INLINE_ALL
#include <xxhash.h>

/*===- files -----------------------------------------------------------------===*/

/* A line ends at '\n', at '\r', or at "\r\n" (one break), as clang's
 * SourceManager counts them: "\n\r" is two breaks, and a lone '\r' (old Mac
 * files, a stray one in a comment) ends a line too, so that line numbers
 * from the compiler name the same text here. */
static size_t line_break(const char *text, size_t len, size_t i) {
  if (text[i] == '\n')
    return 1;
  if (text[i] != '\r')
    return 0;
  return i + 1 < len && text[i + 1] == '\n' ? 2 : 1;
}

size_t *ompdp_line_starts(const char *text, size_t len, size_t *num) {
  size_t n = 1;
  for (size_t i = 0, k; i < len; i += k ? k : 1)
    n += (k = line_break(text, len, i)) != 0;
  size_t *lines = malloc(n * sizeof(*lines));
  if (!lines)
    return NULL;
  size_t m = 0;
  lines[m++] = 0;
  for (size_t i = 0, k; i < len; i += k ? k : 1)
    if ((k = line_break(text, len, i)))
      lines[m++] = i + k;
  *num = m;
  return lines;
}

size_t ompdp_line_end(const char *text, size_t len, const size_t *starts, size_t num,
                      size_t line) {
  if (line + 1 >= num)
    return len;
  size_t e = starts[line + 1] - 1; /* the break's last byte */
  if (text[e] == '\n' && e > starts[line] && text[e - 1] == '\r')
    --e;
  return e;
}

const char *ompdp_line_break_of(const char *text, size_t len) {
  for (size_t i = 0; i < len; ++i) {
    size_t k = line_break(text, len, i);
    if (k)
      return k == 2 ? "\r\n" : text[i] == '\r' ? "\r" : "\n";
  }
  return "\n";
}

int ompdp_fix_file_init(ompdp_fix_file_t *f, const char *name, const char *text, size_t len) {
  memset(f, 0, sizeof(*f));
  f->name = name;
  f->text = text;
  f->len = len;
  f->lines = ompdp_line_starts(text, len, &f->num_lines);
  return f->lines ? 0 : -1;
}

void ompdp_fix_file_free(ompdp_fix_file_t *f) {
  free(f->lines);
  f->lines = NULL;
  f->num_lines = 0;
}

int64_t ompdp_fix_offset(const ompdp_fix_file_t *f, uint32_t line, uint32_t col) {
  if (line == 0 || col == 0 || line > f->num_lines)
    return -1;
  size_t start = f->lines[line - 1];
  /* The line's break (its last byte, for "\r\n"), or EOF. */
  size_t end = line < f->num_lines ? f->lines[line] - 1 : f->len;
  if ((uint64_t)col - 1 > end - start)
    return -1;
  return (int64_t)(start + col - 1);
}

/* At most 60 bytes of text for a message, on one line. */
static void shown(char *buf, size_t size, const char *t, size_t n) {
  size_t j = 0;
  for (size_t i = 0; i < n && j + 5 < size; ++i) {
    unsigned char c = (unsigned char)t[i];
    if (i == 60) {
      memcpy(buf + j, "...", 3);
      j += 3;
      break;
    }
    if (c == '\n') {
      buf[j++] = '\\';
      buf[j++] = 'n';
    } else {
      buf[j++] = (c >= 0x20 && c < 0x7F) ? (char)c : '?';
    }
  }
  buf[j] = '\0';
}

/* The break that ends the line holding offset `at` ("\n", "\r\n", "\r"),
 * the file's first one for a last line without one, "\n" for none. */
static const char *break_at(const ompdp_fix_file_t *f, size_t at) {
  if (!f || !f->lines || !f->num_lines)
    return "\n";
  size_t lo = 0, hi = f->num_lines; /* the last line starting at or before `at` */
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    if (f->lines[mid] <= at)
      lo = mid;
    else
      hi = mid;
  }
  if (lo + 1 >= f->num_lines)
    return ompdp_line_break_of(f->text, f->len);
  size_t e = f->lines[lo + 1] - 1;
  return f->text[e] == '\r' ? "\r" : e > f->lines[lo] && f->text[e - 1] == '\r' ? "\r\n" : "\n";
}

size_t ompdp_fix_edit_text(const ompdp_fix_edit_t *p, char *out) {
  const char *r = p->e && p->e->replacement ? p->e->replacement : "";
  const char *nl = break_at(p->file, p->start);
  size_t nll = strlen(nl), n = 0;
  for (; *r; ++r) {
    if (*r == '\n') {
      if (out)
        memcpy(out + n, nl, nll);
      n += nll;
    } else {
      if (out)
        out[n] = *r;
      ++n;
    }
  }
  return n;
}

/*===- placing an edit ---------------------------------------------------------===*/

/* Where the comments at the start of text[a, b) end: past white space and
 * every comment, up to the last comment's end (a when there is none). */
static size_t past_comments(const char *t, size_t a, size_t b) {
  size_t i = a, end = a;
  for (;;) {
    while (i < b && (t[i] == ' ' || t[i] == '\t'))
      ++i;
    if (i + 1 < b && t[i] == '/' && t[i + 1] == '/') {
      while (i < b && t[i] != '\n' && t[i] != '\r')
        ++i;
      end = i;
    } else if (i + 1 < b && t[i] == '/' && t[i + 1] == '*') {
      const char *close = NULL;
      for (size_t j = i + 2; j + 1 < b && !close; ++j)
        if (t[j] == '*' && t[j + 1] == '/')
          close = t + j;
      if (!close)
        return end;
      i = (size_t)(close - t) + 2;
      end = i;
    } else {
      return end;
    }
  }
}

/* The compiler records no comments: an edit that replaces white space only
 * (a new line for an inserted directive, after a statement's end) finds
 * the user's comment there (`} // end of loop`) and keeps it, starting
 * after it. Returns the edit's start. */
static int64_t keep_comments(const ompdp_fix_file_t *file, int64_t a, int64_t b,
                             const char *original) {
  if (!original || !ompdp_text_matches("", 0, original) || b <= a)
    return a;
  size_t c = past_comments(file->text, (size_t)a, (size_t)b);
  if (c == (size_t)a || !ompdp_text_matches(file->text + c, (size_t)b - c, original))
    return a;
  return (int64_t)c;
}

int ompdp_fix_check_edit(ompdp_fix_file_t *file, const ompdp_edit_t *e, ompdp_fix_edit_t *p,
                 ompdp_fix_mismatch_t *why) {
  const ompdp_range_t *r = &e->range;
  int64_t a = ompdp_fix_offset(file, r->line, r->column);
  int64_t b = ompdp_fix_offset(file, r->end_line, r->end_column);
  int64_t kept = -1; /* where the edit starts after the user's comments */
  memset(why, 0, sizeof(*why));
  if (e->file_hash && !file->hashed) {
    file->hash = XXH3_64bits(file->text, file->len);
    file->hashed = 1;
  }
  if (e->file_hash && file->hash != e->file_hash) {
    why->kind = OMPDP_FIX_CHANGED;
    why->hash = file->hash;
    why->report_hash = e->file_hash;
  } else if (a < 0 || b < 0) {
    why->kind = OMPDP_FIX_NO_POSITION;
    why->line = a < 0 ? r->line : r->end_line;
    why->column = a < 0 ? r->column : r->end_column;
  } else if (b < a) {
    why->kind = OMPDP_FIX_BACKWARDS;
  } else if (r->offset >= 0 && (r->offset != a || r->end_offset != b)) {
    why->kind = OMPDP_FIX_OFFSETS;
    why->offset = r->offset;
    why->end_offset = r->end_offset;
    why->start = a;
    why->end = b;
  } else if (e->original && !ompdp_text_matches(file->text + a, (size_t)(b - a), e->original) &&
             (kept = keep_comments(file, a, b, e->original)) == a) {
    why->kind = OMPDP_FIX_TEXT;
    shown(why->expected, sizeof(why->expected), e->original, strlen(e->original));
    shown(why->found, sizeof(why->found), file->text + a, (size_t)(b - a));
  } else {
    if (kept >= 0)
      a = kept;
    p->file = file;
    p->start = (size_t)a;
    p->end = (size_t)b;
    p->e = e;
    return 0;
  }
  return 1;
}

/* Places every edit of x; a file that fails a check is stale from then on. */
static void place(ompdp_fix_t *x, const ompdp_fix_source_t *src) {
  for (size_t j = 0; j < x->rw->num_edits; ++j) {
    const ompdp_edit_t *e = &x->rw->edits[j];
    ompdp_fix_file_t *file = src->open(src->ctx, e->file);
    if (!file) {
      if (x->state == OMPDP_FIX_APPLY) {
        x->state = OMPDP_FIX_NO_FILE;
        x->file_name = e->file;
      }
      continue;
    }
    ompdp_fix_mismatch_t why;
    if (!file->stale && ompdp_fix_check_edit(file, e, &x->edits[j], &why)) {
      file->stale = 1;
      if (src->mismatch)
        src->mismatch(src->ctx, file, e, &why);
    }
    if (file->stale) {
      memset(&x->edits[j], 0, sizeof(x->edits[j]));
      x->state = OMPDP_FIX_STALE_FILE;
      x->file_name = file->name;
    }
  }
}

/*===- choosing ------------------------------------------------------------------===*/

static int same_edit(const ompdp_fix_edit_t *a, const ompdp_fix_edit_t *b) {
  const char *x = a->e->replacement ? a->e->replacement : "";
  const char *y = b->e->replacement ? b->e->replacement : "";
  return a->file == b->file && a->start == b->start && a->end == b->end && !strcmp(x, y);
}

static int overlap(const ompdp_fix_edit_t *a, const ompdp_fix_edit_t *b) {
  if (a->file != b->file)
    return 0;
  if (a->start == a->end && b->start == b->end)
    return a->start == b->start;
  if (a->start == a->end)
    return a->start > b->start && a->start < b->end;
  if (b->start == b->end)
    return b->start > a->start && b->start < a->end;
  return a->start < b->end && b->start < a->end;
}

/* Two different rewrites that make one same edit are alternatives for the
 * same code (remove an item, or change its map type): they conflict as
 * much as overlapping ones do. */
static int conflict(const ompdp_fix_edit_t *a, const ompdp_fix_edit_t *b) {
  return overlap(a, b) || same_edit(a, b);
}

typedef struct order {
  ompdp_fix_t fix;
  size_t pos; /* in the findings' order */
} order_t;

static int cmp_fix(const void *pa, const void *pb) {
  const order_t *a = pa, *b = pb;
  if (a->fix.rw->time_saved_ns != b->fix.rw->time_saved_ns)
    return a->fix.rw->time_saved_ns > b->fix.rw->time_saved_ns ? -1 : 1;
  return (a->pos > b->pos) - (a->pos < b->pos); /* qsort is not stable */
}

int ompdp_fix_plan_make(const ompdp_finding_t *const *findings, size_t n,
                        const ompdp_fix_source_t *src, ompdp_fix_plan_t *out) {
  memset(out, 0, sizeof(*out));
  size_t total = 0;
  for (size_t i = 0; i < n; ++i)
    total += findings[i]->num_rewrites;
  order_t *v = calloc(total ? total : 1, sizeof(*v));
  if (!v)
    return -1;
  size_t m = 0;
  for (size_t i = 0; i < n; ++i)
    for (size_t j = 0; j < findings[i]->num_rewrites; ++j) {
      const ompdp_rewrite_t *rw = &findings[i]->rewrites[j];
      int seen = !rw->num_edits;
      for (size_t k = 0; k < m && !seen; ++k)
        seen = ompdp_rewrite_same_edits(v[k].fix.rw, rw);
      if (seen)
        continue;
      v[m].fix.rw = rw;
      v[m].fix.f = findings[i];
      v[m].pos = m;
      ++m;
    }
  qsort(v, m, sizeof(*v), cmp_fix);
  out->fixes = calloc(m ? m : 1, sizeof(*out->fixes));
  if (!out->fixes) {
    free(v);
    return -1;
  }
  for (size_t i = 0; i < m; ++i)
    out->fixes[i] = v[i].fix;
  out->num_fixes = m;
  free(v);

  /* Place every edit: a file with one stale edit gets none. */
  for (size_t i = 0; i < m; ++i) {
    ompdp_fix_t *x = &out->fixes[i];
    x->edits = calloc(x->rw->num_edits, sizeof(*x->edits));
    if (!x->edits) {
      ompdp_fix_plan_free(out);
      return -1;
    }
    place(x, src);
  }
  /* A file found stale by a later rewrite voids the earlier ones in it. */
  for (size_t i = 0; i < m; ++i) {
    ompdp_fix_t *x = &out->fixes[i];
    for (size_t j = 0; j < x->rw->num_edits && x->state == OMPDP_FIX_APPLY; ++j)
      if (x->edits[j].file && x->edits[j].file->stale) {
        x->state = OMPDP_FIX_STALE_FILE;
        x->file_name = x->edits[j].file->name;
      }
  }
  /* Conflicts, in order of saving: a rewrite kept keeps its edits. */
  for (size_t i = 0; i < m; ++i) {
    ompdp_fix_t *x = &out->fixes[i];
    size_t ne = x->rw->num_edits;
    for (size_t j = 0; j < ne && x->state == OMPDP_FIX_APPLY; ++j)
      for (size_t k = j + 1; k < ne && x->state == OMPDP_FIX_APPLY; ++k)
        if (conflict(&x->edits[j], &x->edits[k])) {
          x->state = OMPDP_FIX_SELF_OVERLAP;
          x->at = k;
        }
    for (size_t p = 0; p < i && x->state == OMPDP_FIX_APPLY; ++p) {
      const ompdp_fix_t *q = &out->fixes[p];
      if (q->state != OMPDP_FIX_APPLY)
        continue;
      for (size_t j = 0; j < ne && x->state == OMPDP_FIX_APPLY; ++j)
        for (size_t k = 0; k < q->rw->num_edits && x->state == OMPDP_FIX_APPLY; ++k)
          if (conflict(&x->edits[j], &q->edits[k])) {
            x->state = OMPDP_FIX_OVERLAPS;
            x->winner = p;
            x->at = j;
            x->other_at = k;
          }
    }
  }
  return 0;
}

int ompdp_fix_plan_report(const ompdp_report_t *r, const ompdp_fix_source_t *src,
                          ompdp_fix_plan_t *out) {
  const ompdp_finding_t **v = malloc((r->num_findings ? r->num_findings : 1) * sizeof(*v));
  if (!v) {
    memset(out, 0, sizeof(*out));
    return -1;
  }
  for (size_t i = 0; i < r->num_findings; ++i)
    v[i] = &r->findings[i];
  int rc = ompdp_fix_plan_make(v, r->num_findings, src, out);
  free(v);
  return rc;
}

const ompdp_fix_t *ompdp_fix_plan_find(const ompdp_fix_plan_t *p, const ompdp_rewrite_t *rw) {
  for (size_t i = 0; i < p->num_fixes; ++i)
    if (p->fixes[i].rw == rw || ompdp_rewrite_same_edits(p->fixes[i].rw, rw))
      return &p->fixes[i];
  return NULL;
}

void ompdp_fix_plan_free(ompdp_fix_plan_t *p) {
  for (size_t i = 0; i < p->num_fixes; ++i)
    free(p->fixes[i].edits);
  free(p->fixes);
  p->fixes = NULL;
  p->num_fixes = 0;
}

void ompdp_fix_mismatch_words(char *buf, size_t size, const ompdp_edit_t *e,
                              const ompdp_fix_mismatch_t *m, const char *report) {
  uint32_t line = e->range.line, col = e->range.column;
  switch (m->kind) {
  case OMPDP_FIX_CHANGED:
    snprintf(buf, size,
             "it changed since the program was built: its XXH3 is %016" PRIx64 ", the %s's %016" PRIx64,
             m->hash, report, m->report_hash);
    break;
  case OMPDP_FIX_NO_POSITION:
    snprintf(buf, size, "it has no line %" PRIu32 ", column %" PRIu32, m->line, m->column);
    break;
  case OMPDP_FIX_BACKWARDS:
    snprintf(buf, size, "the edit at %" PRIu32 ":%" PRIu32 " ends before it starts", line, col);
    break;
  case OMPDP_FIX_OFFSETS:
    snprintf(buf, size,
             "the edit at %" PRIu32 ":%" PRIu32 " has byte offsets %" PRId64 "-%" PRId64
             ", which are %" PRId64 "-%" PRId64 " in the file",
             line, col, m->offset, m->end_offset, m->start, m->end);
    break;
  case OMPDP_FIX_TEXT:
    snprintf(buf, size, "expected '%s' at %" PRIu32 ":%" PRIu32 ", found '%s'", m->expected,
             line, col, m->found);
    break;
  }
}
