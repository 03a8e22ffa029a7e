/*===- fix_verify.h - `ompdp fix --apply` leaves no file that fails ---*- C -*-===*\
|*
|* After `ompdp fix --apply` has chosen its rewrites, every file it changes
|* is compiled again, as a syntax and semantic check, with the command the
|* compiler plugin recorded for it (the report's "compile_commands"), and
|* each rewrite that makes a file fail is taken back, with one line saying
|* which and why. fix.c owns the files and the rewrites; this part only
|* needs to know which rewrite edits which file and how to write a file
|* with a given set of rewrites.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_FIX_VERIFY_H
#define OMPDP_FIX_VERIFY_H

#include "report.h"

#include <stddef.h>

typedef struct drv_fix_set {
  size_t num_files;
  const char *const *names; /* each file as the report's edits name it */
  size_t num_rewrites;      /* in the order of their saving, most first */
  void *ctx;
  /* Whether rewrite rw edits file f. */
  int (*edits)(void *ctx, size_t rw, size_t f);
  /* Writes file f with the edits of the rewrites whose on[] is set (none:
   * its text as it was). Returns 0, or -1 after an error message. */
  int (*write)(void *ctx, size_t f, const unsigned char *on);
  /* "prog.c:5:1: the keep_resident rewrite for round_trip" */
  void (*describe)(void *ctx, size_t rw, char *buf, size_t size);
} drv_fix_set_t;

/* Writes every file that the rewrites of on[] edit, with them, and
 * compiles each with the report's commands for it: a file that fails as it
 * was gets none of its rewrites; otherwise the rewrites are tried in turn
 * (most saving first) and each that makes a file fail is taken back. Taken
 * back means on[rw] = 0 and one "ompdp: ..." line; the files are left
 * written with the rewrites still on. A file without a recorded command (a
 * report of an older plugin), or whose compiler cannot be run, keeps its
 * rewrites unchecked, said in one line. *refused is set when a rewrite was
 * taken back. Returns 0, or -1 when a file could not be written. */
int drv_fix_verify(const drv_fix_set_t *s, const ompdp_report_t *rep, unsigned char *on,
                   int *refused);

#endif /* OMPDP_FIX_VERIFY_H */
