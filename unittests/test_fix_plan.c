/*===- test_fix_plan.c - the one fix planner of ompdp fix and the plugin ===*\
|*
|* report/fix_plan.c on hand-made findings over an in-memory file: distinct
|* rewrites most saving first, a rewrite that overlaps (or repeats an edit
|* of) one that saves more refused with the winner named, a rewrite whose
|* own edits overlap refused, a file that does not match (hash, position,
|* offsets, original text) refused whole and said once, and a file that
|* cannot be had.
|*
\*===----------------------------------------------------------------------===*/
#include "check.h"
#include "fix_plan.h"

#include <stdlib.h>
#include <string.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static const char Text[] = "int a;\nint b;\nint c;\n";

typedef struct source {
  ompdp_fix_file_t file;
  int available;
  unsigned mismatches;
  ompdp_fix_mismatch_t last;
} source_t;

static ompdp_fix_file_t *open_file(void *ctx, const char *name) {
  source_t *s = ctx;
  return s->available && !strcmp(name, "a.c") ? &s->file : NULL;
}

static void mismatch(void *ctx, ompdp_fix_file_t *f, const ompdp_edit_t *e,
                     const ompdp_fix_mismatch_t *why) {
  source_t *s = ctx;
  ++s->mismatches;
  s->last = *why;
}

/* A rewrite of f saving saved ns, with one edit line:col-line:end_col of
 * a.c holding original. */
static ompdp_rewrite_t *rewrite(ompdp_finding_t *f, uint64_t saved) {
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_REMOVE_ITEM);
  rw->time_saved_ns = saved;
  return rw;
}
static void edit(ompdp_rewrite_t *rw, uint32_t line, uint32_t col, uint32_t end_col,
                 const char *original, const char *replacement) {
  ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
  e->file = ompdp_strdup("a.c");
  e->range.line = e->range.end_line = line;
  e->range.column = col;
  e->range.end_column = end_col;
  e->original = ompdp_strdup(original);
  e->replacement = ompdp_strdup(replacement);
}

static int plan(ompdp_report_t *r, source_t *s, ompdp_fix_plan_t *p) {
  memset(&s->file, 0, sizeof(s->file));
  CHECK(ompdp_fix_file_init(&s->file, "a.c", Text, sizeof(Text) - 1) == 0);
  s->mismatches = 0;
  ompdp_fix_source_t src = {open_file, mismatch, s};
  return ompdp_fix_plan_report(r, &src, p);
}

static void test_choice(void) {
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *f1 = ompdp_report_add_finding(&r, OMPDP_FK_ROUND_TRIP);
  ompdp_finding_t *f2 = ompdp_report_add_finding(&r, OMPDP_FK_UNUSED_ALLOC);
  ompdp_finding_t *f3 = ompdp_report_add_finding(&r, OMPDP_FK_OVERBROAD_MAP);
  /* f1: "a" -> "x" (saves 10); f2: the same edit again (one rewrite), and
   * "int b" removed (saves 50); f3: "nt b" (overlaps f2's, saves 5), and
   * one whose own edits overlap. */
  edit(rewrite(f1, 10), 1, 5, 6, "a", "x");
  edit(rewrite(f2, 10), 1, 5, 6, "a", "x");
  edit(rewrite(f2, 50), 2, 1, 6, "int b", "");
  edit(rewrite(f3, 5), 2, 2, 6, "nt b", "");
  ompdp_rewrite_t *self = rewrite(f3, 1);
  edit(self, 3, 1, 4, "int", "long");
  edit(self, 3, 2, 5, "nt ", "");
  source_t s = {.available = 1};
  ompdp_fix_plan_t p;
  CHECK(plan(&r, &s, &p) == 0);
  CHECK_EQ_U64(p.num_fixes, 4);
  if (p.num_fixes == 4) {
    CHECK(p.fixes[0].rw == &f2->rewrites[1] && p.fixes[0].state == OMPDP_FIX_APPLY);
    CHECK(p.fixes[0].edits[0].start == 7 && p.fixes[0].edits[0].end == 12);
    CHECK(p.fixes[1].rw == &f1->rewrites[0] && p.fixes[1].state == OMPDP_FIX_APPLY);
    CHECK(p.fixes[1].f == f1); /* the first finding that has it */
    CHECK(p.fixes[2].state == OMPDP_FIX_OVERLAPS && p.fixes[2].winner == 0);
    CHECK(p.fixes[3].state == OMPDP_FIX_SELF_OVERLAP && p.fixes[3].at == 1);
    CHECK(ompdp_fix_plan_find(&p, &f2->rewrites[0]) == &p.fixes[1]);
  }
  CHECK_EQ_U64(s.mismatches, 0);
  ompdp_fix_plan_free(&p);
  ompdp_fix_file_free(&s.file);

  /* No file to be had: every rewrite says which. */
  s.available = 0;
  CHECK(plan(&r, &s, &p) == 0);
  for (size_t i = 0; i < p.num_fixes; ++i)
    CHECK(p.fixes[i].state == OMPDP_FIX_NO_FILE && !strcmp(p.fixes[i].file_name, "a.c"));
  ompdp_fix_plan_free(&p);
  ompdp_fix_file_free(&s.file);
  ompdp_report_free(&r);
}

/* One edit of a file does not match it: the file gets none, said once. */
static void mismatch_case(const char *what, void (*spoil)(ompdp_edit_t *),
                          ompdp_fix_mismatch_kind_t want) {
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_ROUND_TRIP);
  edit(rewrite(f, 10), 1, 5, 6, "a", "x");
  ompdp_rewrite_t *bad = rewrite(f, 20);
  edit(bad, 3, 5, 6, "c", "y");
  spoil(&bad->edits[0]);
  source_t s = {.available = 1};
  ompdp_fix_plan_t p;
  CHECK(plan(&r, &s, &p) == 0);
  CHECK_EQ_U64(s.mismatches, 1);
  CHECK(s.last.kind == want);
  CHECK(s.file.stale);
  for (size_t i = 0; i < p.num_fixes; ++i)
    CHECK(p.fixes[i].state == OMPDP_FIX_STALE_FILE);
  if (s.last.kind != want)
    fprintf(stderr, "  %s: mismatch kind %d\n", what, (int)s.last.kind);
  ompdp_fix_plan_free(&p);
  ompdp_fix_file_free(&s.file);
  ompdp_report_free(&r);
}

static void spoil_hash(ompdp_edit_t *e) { e->file_hash = XXH3_64bits(Text, sizeof(Text)) + 1; }
static void spoil_line(ompdp_edit_t *e) { e->range.line = e->range.end_line = 9; }
static void spoil_offsets(ompdp_edit_t *e) {
  e->range.offset = 1;
  e->range.end_offset = 2;
}
static void spoil_text(ompdp_edit_t *e) {
  free(e->original);
  e->original = ompdp_strdup("z");
}

static void test_mismatch(void) {
  mismatch_case("hash", spoil_hash, OMPDP_FIX_CHANGED);
  mismatch_case("line", spoil_line, OMPDP_FIX_NO_POSITION);
  mismatch_case("offsets", spoil_offsets, OMPDP_FIX_OFFSETS);
  mismatch_case("text", spoil_text, OMPDP_FIX_TEXT);
  /* The file's own hash matches. */
  ompdp_fix_file_t f;
  CHECK(ompdp_fix_file_init(&f, "a.c", Text, sizeof(Text) - 1) == 0);
  CHECK(ompdp_fix_offset(&f, 4, 1) == (int64_t)sizeof(Text) - 1); /* after the last newline */
  CHECK(ompdp_fix_offset(&f, 1, 8) == -1 && ompdp_fix_offset(&f, 0, 1) == -1);
  ompdp_fix_file_free(&f);
}

/* Lines counted as clang counts them: '\n', '\r' and "\r\n" each end one
 * ("\n\r" is two), so that the compiler's line:column names the same byte
 * here (a stray '\r' in a comment used to shift every later line by one).
 * An edit's new lines take the file's own break. */
static void test_line_endings(void) {
  static const char T[] = "a\rb\r\nc\n\rd\n";
  size_t num = 0, *l = ompdp_line_starts(T, sizeof(T) - 1, &num);
  REQUIRE(l != NULL);
  REQUIRE_EQ_U64(num, 6);
  CHECK(l[0] == 0 && l[1] == 2 && l[2] == 5 && l[3] == 7 && l[4] == 8 && l[5] == 10);
  CHECK_EQ_U64(ompdp_line_end(T, sizeof(T) - 1, l, num, 1), 3); /* before "\r\n" */
  CHECK_EQ_U64(ompdp_line_end(T, sizeof(T) - 1, l, num, 3), 7); /* empty: the '\r' */
  CHECK_EQ_U64(ompdp_line_end(T, sizeof(T) - 1, l, num, 5), 10);
  free(l);
  l = ompdp_line_starts("", 0, &num);
  CHECK(l && num == 1 && l[0] == 0);
  free(l);
  CHECK(!strcmp(ompdp_line_break_of("x;\r\ny;\n", 8), "\r\n"));
  CHECK(!strcmp(ompdp_line_break_of("x;\ry;", 6), "\r"));
  CHECK(!strcmp(ompdp_line_break_of("x;", 2), "\n"));

  /* `int c;` is line 3 of the first two (CRLF, CR) and line 4 of an LF file
   * with a stray CR in a comment; an edit there writes the break of its
   * line. */
  static const char *Files[] = {"int a;\r\nint b;\r\nint c;\r\n", "int a;\rint b;\rint c;\r",
                                "int a; // \r x\nint b;\nint c;\n"};
  static const char *Breaks[] = {"\r\n", "\r", "\n"};
  for (int i = 0; i < 3; ++i) {
    ompdp_fix_file_t f;
    REQUIRE(ompdp_fix_file_init(&f, "a.c", Files[i], strlen(Files[i])) == 0);
    int64_t at = ompdp_fix_offset(&f, i == 2 ? 4 : 3, 5);
    CHECK(at >= 0 && !strncmp(Files[i] + at, "c;", 2));
    ompdp_edit_t e = {.replacement = "x\ny\n"};
    ompdp_fix_edit_t p = {.file = &f, .start = (size_t)at, .end = (size_t)at, .e = &e};
    char out[16] = {0};
    size_t n = ompdp_fix_edit_text(&p, out);
    char want[16];
    snprintf(want, sizeof(want), "x%sy%s", Breaks[i], Breaks[i]);
    CHECK(n == strlen(want) && !strcmp(out, want) && ompdp_fix_edit_text(&p, NULL) == n);
    ompdp_fix_file_free(&f);
  }
}

int main(void) {
  test_choice();
  test_mismatch();
  test_line_endings();
  return CHECK_DONE();
}
