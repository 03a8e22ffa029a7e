/*===- fix_plan.h - which edits of a report to apply -----------------*- C -*-===*\
|*
|* The one choice of which rewrites of a report go into the sources, made
|* for `ompdp fix` (driver/fix.c) and the compiler plugin's fix-its
|* (clang-plugin/ProfileDiagnostics.cpp) alike, so that `ompdp fix --apply`
|* and `-Xclang -fixit` edit a file the same way. Given findings and a way
|* to get the text of the files their edits name, it returns every
|* distinct rewrite (the same edits in several findings are one rewrite),
|* most saving first, each either applied or refused with the reason:
|*
|*   - a file it cannot get, or one that does not match the report (its
|*     content hash, a position it lacks, byte offsets that disagree with
|*     line:column, an original text no longer there: the caller is told
|*     once per file, and no edit goes into that file at all);
|*   - edits that overlap each other, or overlap (or repeat) the edits of a
|*     rewrite that saves more: a rewrite is applied whole or not at all.
|*
|* Two edits conflict when their ranges share a byte, when both insert at
|* one place (their order would be a guess), or when one inserts strictly
|* inside what the other replaces. The planner reads only the texts it is
|* given and writes nothing.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_FIX_PLAN_H
#define OMPDP_FIX_PLAN_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>

/* A source file as the planner sees it: the caller owns it (and text),
 * and may mark it stale before planning (the plugin does, for a finding
 * whose item moved). */
typedef struct ompdp_fix_file {
  const char *name; /* as the report names it */
  const char *text;
  size_t len;
  size_t *lines; /* offset of the start of each line (ompdp_fix_file_init) */
  size_t num_lines;
  uint64_t hash; /* XXH3-64 of text, once hashed */
  int hashed;
  int stale; /* does not match the report: no edit goes into it */
  void *user; /* the caller's */
} ompdp_fix_file_t;

/* The offset of the start of every line of text[0..len), lines counted as
 * clang counts them ('\n', '\r' and "\r\n" each end one), in a malloc'd
 * array of *num; NULL when out of memory. */
size_t *ompdp_line_starts(const char *text, size_t len, size_t *num);
/* Where the text of line `line` (0-based) of starts[0..num) ends: where its
 * break begins, or len for the last line. */
size_t ompdp_line_end(const char *text, size_t len, const size_t *starts, size_t num,
                      size_t line);
/* The first line break of text ("\n", "\r\n" or "\r"; "\n" when none). */
const char *ompdp_line_break_of(const char *text, size_t len);

/* Indexes text[0..len) (which must outlive f). 0, or -1 when out of memory. */
int ompdp_fix_file_init(ompdp_fix_file_t *f, const char *name, const char *text, size_t len);
void ompdp_fix_file_free(ompdp_fix_file_t *f);
/* Byte offset of line:col (1-based) in f, -1 if it has no such position. A
 * position may be the newline that ends a line, and line num_lines + 1,
 * column 1 is the end of a file that ends in a newline. */
int64_t ompdp_fix_offset(const ompdp_fix_file_t *f, uint32_t line, uint32_t col);

/* Why a file does not match the report, found at one of its edits. */
typedef enum ompdp_fix_mismatch_kind {
  OMPDP_FIX_CHANGED,      /* its hash is not the report's */
  OMPDP_FIX_NO_POSITION,  /* it has no such line:column */
  OMPDP_FIX_BACKWARDS,    /* the edit ends before it starts */
  OMPDP_FIX_OFFSETS,      /* the report's byte offsets are elsewhere in it */
  OMPDP_FIX_TEXT,         /* the edit's original text is not there */
} ompdp_fix_mismatch_kind_t;

typedef struct ompdp_fix_mismatch {
  ompdp_fix_mismatch_kind_t kind;
  uint64_t hash, report_hash;     /* CHANGED */
  uint32_t line, column;          /* NO_POSITION: the position it lacks */
  int64_t offset, end_offset;     /* OFFSETS: the report's */
  int64_t start, end;             /* OFFSETS: the file's */
  char expected[80], found[80];   /* TEXT: at most 60 bytes each, on one line */
} ompdp_fix_mismatch_t;

/* What becomes of one rewrite. */
typedef enum ompdp_fix_state {
  OMPDP_FIX_APPLY,        /* every edit placed and checked, no conflict */
  OMPDP_FIX_NO_FILE,      /* an edit's file could not be had (file_name) */
  OMPDP_FIX_STALE_FILE,   /* an edit's file does not match the report (file_name) */
  OMPDP_FIX_SELF_OVERLAP, /* two of its own edits conflict (at) */
  OMPDP_FIX_OVERLAPS,     /* it conflicts with winner, which saves more (at, other_at) */
} ompdp_fix_state_t;

/* One edit placed in its file (file NULL: not placed). */
typedef struct ompdp_fix_edit {
  ompdp_fix_file_t *file;
  size_t start, end;
  const ompdp_edit_t *e;
} ompdp_fix_edit_t;

typedef struct ompdp_fix {
  const ompdp_rewrite_t *rw;
  const ompdp_finding_t *f; /* the first finding that has it */
  ompdp_fix_edit_t *edits;  /* one per edit of rw */
  ompdp_fix_state_t state;
  const char *file_name;    /* NO_FILE, STALE_FILE */
  size_t winner;            /* OVERLAPS: index of the fix kept instead */
  size_t at, other_at;      /* SELF_OVERLAP: the edit that conflicts; OVERLAPS: and the winner's */
} ompdp_fix_t;

/* The replacement text of placed edit p as it goes into its file: the new
 * lines the planner writes as '\n' take the break of the line the edit
 * starts on, so that a CRLF (or CR) file stays one. Writes it to out (when not NULL; no NUL
 * added) and returns its length. */
size_t ompdp_fix_edit_text(const ompdp_fix_edit_t *p, char *out);

/* Why a file does not match the report, found at its edit e, in words,
 * into buf[size]: the one wording of `ompdp fix`, the language server and
 * the compiler plugin. report: what the reader calls the report ("report",
 * or the plugin's "profile"). */
void ompdp_fix_mismatch_words(char *buf, size_t size, const ompdp_edit_t *e,
                              const ompdp_fix_mismatch_t *why, const char *report);

/* Places edit e in file: 0 and *p, or 1 and why it does not fit. The
 * edit's original text is compared ignoring white space; an edit that
 * replaces only white space keeps the comments the compiler did not record
 * (`} // end`), starting after them. */
int ompdp_fix_check_edit(ompdp_fix_file_t *file, const ompdp_edit_t *e, ompdp_fix_edit_t *p,
                         ompdp_fix_mismatch_t *why);

/* Where the planner gets files, and tells about mismatches. */
typedef struct ompdp_fix_source {
  /* The file that name (an edit's file) refers to, or NULL when there is
   * none to be had. Asked again for every edit: answer the same file for
   * the same name. */
  ompdp_fix_file_t *(*open)(void *ctx, const char *name);
  /* Told once per file, at the first edit that does not match it (the
   * file is then stale). May be NULL. */
  void (*mismatch)(void *ctx, ompdp_fix_file_t *file, const ompdp_edit_t *e,
                   const ompdp_fix_mismatch_t *why);
  void *ctx;
} ompdp_fix_source_t;

typedef struct ompdp_fix_plan {
  ompdp_fix_t *fixes; /* most saving first; ties in the order of the findings */
  size_t num_fixes;
} ompdp_fix_plan_t;

/* Plans the rewrites (with edits) of findings[0..n). 0, or -1 when out of
 * memory (*out is then empty). */
int ompdp_fix_plan_make(const ompdp_finding_t *const *findings, size_t n,
                        const ompdp_fix_source_t *src, ompdp_fix_plan_t *out);
/* The same for every finding of a report. */
int ompdp_fix_plan_report(const ompdp_report_t *r, const ompdp_fix_source_t *src,
                          ompdp_fix_plan_t *out);
/* The fix that rewrite rw of a planned finding became (NULL: none, it has
 * no edits). */
const ompdp_fix_t *ompdp_fix_plan_find(const ompdp_fix_plan_t *p, const ompdp_rewrite_t *rw);
void ompdp_fix_plan_free(ompdp_fix_plan_t *p);

#endif /* OMPDP_FIX_PLAN_H */
