/*===- rewrite_combine.c - one rewrite for several items of a construct -*- C -*-===*\
|*
|* The item rules plan each finding on its own, so two zero-filled items of
|* one construct get two alloc-and-fill rewrites whose new directives go at
|* the same place, and two implicit items that only the region reads get
|* two `map(to: ...)` clauses at the end of one directive: `ompdp fix` could
|* apply only one of them, and the other would wait for another run. Here the rewrites of one kind at one
|* construct become one rewrite that every finding it fixes shows (and that
|* consumers apply once, ompdp_rewrite_same_edits): insertions at the same
|* place are put one after the other, in the findings' order (so are two
|* directives put before one loop, each written as a replacement that keeps
|* the loop's first line: keep-resident rewrites of several items), and
|* equal edits are made once. Rewrites whose edits overlap in any other way (two
|* items of one clause, each splitting it) are left as they are: they are
|* alternatives, and the fix planner keeps the one that saves more.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"

#include <stdlib.h>
#include <string.h>

static int pos_before(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
  return l1 < l2 || (l1 == l2 && c1 < c2);
}

static int same_range(const ompdp_range_t *a, const ompdp_range_t *b) {
  return a->line == b->line && a->column == b->column && a->end_line == b->end_line &&
         a->end_column == b->end_column;
}

static int is_empty(const ompdp_range_t *r) {
  return r->line == r->end_line && r->column == r->end_column;
}

/* As the fix planner tells overlapping edits apart (report/fix_plan.c),
 * by line and column. */
static int overlap(const ompdp_edit_t *a, const ompdp_edit_t *b) {
  const ompdp_range_t *x = &a->range, *y = &b->range;
  if (strcmp(a->file, b->file))
    return 0;
  if (is_empty(x) && is_empty(y))
    return same_range(x, y);
  if (is_empty(x))
    return pos_before(y->line, y->column, x->line, x->column) &&
           pos_before(x->line, x->column, y->end_line, y->end_column);
  if (is_empty(y))
    return pos_before(x->line, x->column, y->line, y->column) &&
           pos_before(y->line, y->column, x->end_line, x->end_column);
  return pos_before(x->line, x->column, y->end_line, y->end_column) &&
         pos_before(y->line, y->column, x->end_line, x->end_column);
}

/* An edit that only puts text in: nothing, or only white space, replaced. */
static int inserts(const ompdp_edit_t *e) {
  return is_empty(&e->range) || (e->original && ompdp_text_matches("", 0, e->original));
}

/* An edit that puts text before what it replaces, and keeps that: a
 * directive on a line of its own before a loop, written as a replacement
 * of the loop's indentation and keyword ("  for" -> "  #pragma ...\n  for"). */
static int keeps_original(const ompdp_edit_t *e) {
  if (is_empty(&e->range) || !e->original || !e->original[0])
    return 0;
  size_t no = strlen(e->original), nr = strlen(e->replacement);
  return nr > no && !strcmp(e->replacement + nr - no, e->original);
}

/* a's text, sep (when both have text), then b's. NULL when out of memory. */
static char *joined(const char *a, const char *b, const char *sep) {
  size_t na = strlen(a), nb = strlen(b);
  size_t ns = sep && na && nb ? strlen(sep) : 0;
  char *s = malloc(na + ns + nb + 1);
  if (!s)
    return NULL;
  memcpy(s, a, na);
  memcpy(s + na, sep ? sep : "", ns);
  memcpy(s + na + ns, b, nb + 1);
  return s;
}

static int is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* How many trailing blanks a and b have in common. */
static size_t common_tail(const char *a, const char *b) {
  size_t na = strlen(a), nb = strlen(b), k = 0;
  while (k < na && k < nb && a[na - 1 - k] == b[nb - 1 - k] && is_blank(a[na - 1 - k]))
    ++k;
  return k;
}

/* Two edits of one range, x's text then y's. An insertion's texts stand
 * alone; a replacement of blanks (the end of a directive's line, the rest
 * of a statement's) ends each text with what stands for those blanks (a
 * newline), which the joined text has once: " map(to: a)\n" and
 * " map(to: b)\n" make " map(to: a) map(to: b)\n". NULL when out of
 * memory. */
static char *joined_edit(const ompdp_edit_t *x, const ompdp_edit_t *y) {
  if (is_empty(&x->range))
    return joined(x->replacement, y->replacement, NULL);
  if (keeps_original(x) && keeps_original(y) && !strcmp(x->original, y->original)) {
    /* x's text before the original, then y's (which ends with it). */
    char *head = ompdp_strdup(x->replacement);
    if (!head)
      return NULL;
    /* ... and the indentation before it, which y's text has too. */
    size_t n = strlen(head) - strlen(x->original);
    while (n && (head[n - 1] == ' ' || head[n - 1] == '\t'))
      --n;
    head[n] = '\0';
    char *s = joined(head, y->replacement, NULL);
    free(head);
    return s;
  }
  size_t k = common_tail(x->replacement, y->replacement);
  char *head = ompdp_strdup(x->replacement);
  if (!head)
    return NULL;
  head[strlen(head) - k] = '\0';
  char *s = joined(head, y->replacement, NULL);
  free(head);
  return s;
}

/* Whether two edits of one range can be joined: insertions, or both
 * replacing blanks and ending in the same blanks. */
static int joinable(const ompdp_edit_t *x, const ompdp_edit_t *y) {
  if (keeps_original(x) && keeps_original(y) && !strcmp(x->original, y->original))
    return 1;
  if (!inserts(x) || !inserts(y))
    return 0;
  return is_empty(&x->range) || common_tail(x->replacement, y->replacement) > 0;
}

static int replace(char **dst, char *s) {
  if (!s)
    return -1;
  free(*dst);
  *dst = s;
  return 0;
}

void ompdp_rw_ops_add(ompdp_ops_t *to, const ompdp_ops_t *from) {
  for (int k = 0; k < OMPDP_OC_COUNT; ++k) {
    to->c[k].count += from->c[k].count;
    to->c[k].bytes += from->c[k].bytes;
    to->c[k].time_ns += from->c[k].time_ns;
  }
  to->known = to->known && from->known;
}

/* Whether every edit of b can join those of a: 1 yes, 0 no. */
static int fits(const ompdp_rewrite_t *a, const ompdp_rewrite_t *b) {
  for (size_t j = 0; j < b->num_edits; ++j)
    for (size_t i = 0; i < a->num_edits; ++i) {
      const ompdp_edit_t *x = &a->edits[i], *y = &b->edits[j];
      int here = !strcmp(x->file, y->file) && same_range(&x->range, &y->range);
      if (!here && !overlap(x, y))
        continue;
      if (here && !strcmp(x->replacement, y->replacement))
        continue; /* the same edit: made once */
      if (!here || !joinable(x, y))
        return 0;
    }
  return 1;
}

/* A firstprivate rewrite whose objects go in the launch's packed buffer
 * (it adds that buffer's allocation); scalars passed by value do not. */
static int packs(const ompdp_rewrite_t *rw) {
  return rw->kind == OMPDP_RK_FIRSTPRIVATE && rw->ops_added.c[OMPDP_OC_ALLOC].count;
}

/* Adds b's words (its description after a's, its assumption unless a
 * says it already) and savings to a. *packed: a already counts the buffer
 * of firstprivate objects that a launch copies in (one for all of them).
 * 0, or -1 when out of memory. */
static int add_words_and_savings(ompdp_rewrite_t *a, const ompdp_rewrite_t *b, int *packed) {
  if (replace(&a->description, joined(a->description ? a->description : "",
                                      b->description ? b->description : "", "; and ")))
    return -1;
  if (b->assumption && (!a->assumption || !strstr(a->assumption, b->assumption)) &&
      replace(&a->assumption, joined(a->assumption ? a->assumption : "", b->assumption, "; ")))
    return -1;
  a->time_saved_ns += b->time_saved_ns;
  a->transfers_removed += b->transfers_removed;
  a->allocs_removed += b->allocs_removed;
  a->bytes_removed += b->bytes_removed;
  int fp = packs(b);
  if (fp && *packed) {
    /* One packed buffer per launch for all of them, counted already: b's
     * is saved too. */
    const ompdp_opstat_t *h = &b->ops_added.c[OMPDP_OC_H2D];
    a->transfers_removed += h->count;
    a->bytes_removed += h->bytes;
    a->allocs_removed += b->ops_added.c[OMPDP_OC_ALLOC].count;
  }
  a->lower_bound |= b->lower_bound;
  a->projected_saved_ns += b->projected_saved_ns;
  ompdp_rw_ops_add(&a->ops, &b->ops);
  if (!(fp && *packed))
    ompdp_rw_ops_add(&a->ops_added, &b->ops_added);
  *packed |= fp;
  return 0;
}

int ompdp_rw_add_savings(ompdp_rewrite_t *a, const ompdp_rewrite_t *b) {
  int packed = packs(a);
  return add_words_and_savings(a, b, &packed);
}

/* Adds b's edits and savings to a. *packed: as add_words_and_savings. 0,
 * or -1 when out of memory. */
static int absorb(ompdp_rewrite_t *a, const ompdp_rewrite_t *b, int *packed) {
  size_t mine = a->num_edits;
  for (size_t j = 0; j < b->num_edits; ++j) {
    const ompdp_edit_t *y = &b->edits[j];
    ompdp_edit_t *x = NULL;
    for (size_t i = 0; i < mine && !x; ++i)
      if (!strcmp(a->edits[i].file, y->file) && same_range(&a->edits[i].range, &y->range))
        x = &a->edits[i];
    if (x) {
      if (strcmp(x->replacement, y->replacement) && replace(&x->replacement, joined_edit(x, y)))
        return -1;
      continue;
    }
    ompdp_edit_t *e = ompdp_rewrite_add_edit(a);
    if (!e)
      return -1;
    e->file = ompdp_strdup(y->file);
    e->range = y->range;
    e->original = ompdp_strdup(y->original);
    e->replacement = ompdp_strdup(y->replacement);
    e->file_hash = y->file_hash;
    if (!e->file || (y->original && !e->original) || !e->replacement)
      return -1;
  }
  if (add_words_and_savings(a, b, packed))
    return -1;
  return ompdp_rw_normalize_edits(a);
}

int ompdp_rw_join(ompdp_rewrite_t *a, const ompdp_rewrite_t *b) {
  if (!fits(a, b))
    return 0;
  int packed = packs(a);
  return absorb(a, b, &packed) ? -1 : 1;
}

/* The rewrite of f of a kind in the mask (bit 1 << kind), or NULL. */
static ompdp_rewrite_t *of_kind(ompdp_finding_t *f, unsigned kinds) {
  for (size_t j = 0; j < f->num_rewrites; ++j)
    if ((kinds >> f->rewrites[j].kind & 1u) && f->rewrites[j].num_edits)
      return &f->rewrites[j];
  return NULL;
}

int ompdp_rw_combine_at_construct(ompdp_report_t *r, unsigned k) {
  size_t n = r->num_findings;
  size_t *members = malloc((n ? n : 1) * sizeof(*members));
  size_t *taken = malloc((n ? n : 1) * sizeof(*taken));
  char *done = calloc(n ? n : 1, 1);
  int rc = 0;
  if (!members || !taken || !done)
    rc = -1;
  for (size_t i = 0; i < n && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    ompdp_rewrite_t *first = of_kind(f, k);
    if (done[i] || !first || !f->rt_region)
      continue;
    /* The construct's findings with such a rewrite, in the order of their
     * items (of the source), the first of them the base. */
    size_t m = 0;
    for (size_t j = i; j < n; ++j) {
      ompdp_finding_t *g = &r->findings[j];
      if (done[j] || g->rt_region != f->rt_region || !of_kind(g, k))
        continue;
      size_t q = m++;
      for (; q > 0 && r->findings[members[q - 1]].item > g->item; --q)
        members[q] = members[q - 1];
      members[q] = j;
    }
    if (m < 2)
      continue;
    first = of_kind(&r->findings[members[0]], k);
    ompdp_rewrite_t all = {0};
    if (ompdp_rewrite_copy(&all, first)) {
      ompdp_rewrite_free(&all);
      rc = -1;
      break;
    }
    /* taken[0..nt): the distinct rewrites joined so far (members[] index);
     * a finding whose rewrite makes the same edits as one of them (a
     * rewrite copied to the site's other findings) is joined too. */
    size_t nt = 1, joinedn = 1;
    int packed = packs(first);
    taken[0] = 0;
    for (size_t q = 1; q < m && !rc; ++q) {
      ompdp_rewrite_t *rw = of_kind(&r->findings[members[q]], k);
      int same = 0;
      for (size_t t = 0; t < nt && !same; ++t)
        same = ompdp_rewrite_same_edits(rw, of_kind(&r->findings[members[taken[t]]], k));
      if (!same) {
        if (!fits(&all, rw))
          continue;
        if (absorb(&all, rw, &packed))
          rc = -1;
        taken[nt++] = joinedn;
      }
      members[joinedn++] = members[q];
    }
    /* The joined rewrite is of the first's kind (in item order). */
    for (size_t q = 0; q < joinedn && !rc && nt > 1; ++q) {
      ompdp_rewrite_t *rw = of_kind(&r->findings[members[q]], k);
      ompdp_rewrite_free(rw);
      if (ompdp_rewrite_copy(rw, &all))
        rc = -1;
      done[members[q]] = 1;
    }
    ompdp_rewrite_free(&all);
  }
  free(members);
  free(taken);
  free(done);
  return rc;
}
