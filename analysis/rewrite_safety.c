/*===- rewrite_safety.c - rewrites that cannot break a program ------------===*\
|*
|* A rewrite that breaks the user's build, changes results or hangs is the
|* worst thing ompdp can do, so what a rewrite rests on is checked here
|* against what the compiler recorded (the region table's exit records and
|* access facts) and what the run saw, and where neither settles it the
|* finding keeps words only, with the reason. The rules are those of
|* docs/fixes.md ("A rewrite never breaks a program"); rewrite.c calls
|* these functions where it builds keep-resident and overbroad rewrites.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_safety.h"
#include "report.h"
#include "rewrite_impl.h" /* ompdp_rw_is_identifier */

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const exit_kind_names[] = {
#define OMPDP_EXIT_KIND(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
};

static const char *exit_kind(uint32_t k) {
  return k < sizeof(exit_kind_names) / sizeof(exit_kind_names[0]) ? exit_kind_names[k]
                                                                     : "jump";
}

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/*===- jumps -----------------------------------------------------------------===*/

/* A jump out that `target exit data` can be put before. */
static int placeable(const ompdp_exit_t *x) {
  return x->Kind != OMPDP_EXIT_JUMP_IN && x->Kind != OMPDP_EXIT_INDIRECT_GOTO &&
         !(x->Flags & OMPDP_XF_IN_TRY) && (x->Flags & OMPDP_XF_STATEMENT) && x->Line &&
         x->Column && x->Column <= 512 && x->EndLine && x->EndColumn;
}

int ompdp_rw_loop_wrap(const ompdp_region_info_t *it, ompdp_strbuf_t *why) {
  if (!it->num_exits)
    return 0;
  const char *file = base_name(it->file);
  for (uint32_t k = 0; k < it->num_exits; ++k) {
    const ompdp_exit_t *x = &it->exits[k];
    if (placeable(x))
      continue;
    if (x->Kind == OMPDP_EXIT_JUMP_IN)
      ompdp_sb_printf(why,
                      "code outside the %s loop at %s:%" PRIu32 " jumps into it (to line %" PRIu32
                      "), so no `target data` region or `target enter data` before the loop can "
                      "be sure to run before it",
                      ompdp_loop_kind_name(it->loop_kind), file, it->loop_line, x->Line);
    else if (x->Kind == OMPDP_EXIT_INDIRECT_GOTO)
      ompdp_sb_printf(why,
                      "the computed `goto` at %s:%" PRIu32 " may leave the %s loop at %s:%" PRIu32
                      ", and a `target data` region before the loop must not be left by a jump",
                      file, x->Line, ompdp_loop_kind_name(it->loop_kind), file, it->loop_line);
    else if (x->Flags & OMPDP_XF_IN_TRY)
      ompdp_sb_printf(why,
                      "the `throw` at %s:%" PRIu32 " may or may not be caught inside the %s loop "
                      "at %s:%" PRIu32 ", so neither a `target data` region (which it must not "
                      "leave) nor a `target exit data` before it is right",
                      file, x->Line, ompdp_loop_kind_name(it->loop_kind), file, it->loop_line);
    else
      ompdp_sb_printf(why,
                      "the `%s` at %s:%" PRIu32 " leaves the %s loop at %s:%" PRIu32
                      ", which a `target data` region before the loop must not be left by, and "
                      "it is not a statement a `target exit data` can go before (a macro, or "
                      "part of an expression)",
                      exit_kind(x->Kind), file, x->Line, ompdp_loop_kind_name(it->loop_kind), file, it->loop_line);
    return -1;
  }
  if (!it->loop_own_lines || !it->loop_stmt_end_line) {
    const ompdp_exit_t *x = &it->exits[0];
    ompdp_sb_printf(why,
                    "the `%s` at %s:%" PRIu32 " leaves the %s loop at %s:%" PRIu32
                    ", which a `target data` region before the loop must not be left by, and "
                    "the loop is not a statement of a block on lines of its own, where "
                    "`target enter data` and `target exit data` could go around it",
                    exit_kind(x->Kind), file, x->Line, ompdp_loop_kind_name(it->loop_kind), file, it->loop_line);
    return -1;
  }
  return 1;
}

static const char *item_expr(const ompdp_region_info_t *x) {
  return x->implicit ? x->variable : x->expr;
}

/* `target enter data` takes to or alloc; `target exit data` from or release. */
static const char *enter_type(ompdp_map_type_t t) {
  return t == OMPDP_MT_TO || t == OMPDP_MT_TOFROM ? "to" : "alloc";
}
static const char *exit_type(ompdp_map_type_t t) {
  return t == OMPDP_MT_FROM || t == OMPDP_MT_TOFROM ? "from" : "release";
}

static void put_maps(ompdp_strbuf_t *b, const char *const *names, const ompdp_map_type_t *types,
                     size_t n, int enter) {
  for (size_t i = 0; i < n; ++i)
    ompdp_sb_printf(b, " map(%s: %s)", enter ? enter_type(types[i]) : exit_type(types[i]),
                    names[i]);
}

static char *take(ompdp_strbuf_t *b, const char **why) {
  char *s = ompdp_sb_take(b);
  if (!s)
    *why = "out of memory";
  return s;
}

int ompdp_rw_keep_unstructured(ompdp_rewrite_t *rw, const ompdp_region_info_t *const *items,
                               const ompdp_map_type_t *types, size_t n, const char *prologue,
                               const char **why) {
  const ompdp_region_info_t *it = n ? items[0] : NULL;
  if (!it || it->loop_kind == OMPDP_LK_NONE || !it->loop_line || !it->loop_column ||
      !it->loop_stmt_end_line || !it->loop_own_lines) {
    *why = "the loop is not a statement that directives can go around";
    return -1;
  }
  if (it->loop_column > 512) {
    *why = "the loop is indented too far";
    return -1;
  }
  for (size_t i = 0; i < n; ++i)
    if (items[i]->access_flags & OMPDP_IA_LOOP_DECLARED) {
      *why = LOOP_DECLARED_WHY;
      return -1;
    }
  const char *names[64];
  if (n > 64) {
    *why = "too many items";
    return -1;
  }
  for (size_t i = 0; i < n; ++i) {
    const ompdp_region_info_t *x = items[i];
    names[i] = item_expr(x);
    if (!names[i][0] || (x->implicit && !ompdp_rw_is_identifier(names[i]))) {
      *why = "the item cannot be named in a clause";
      return -1;
    }
    if (x->loop_line != it->loop_line || x->loop_column != it->loop_column ||
        strcmp(x->file, it->file)) {
      *why = "the items are in different loops";
      return -1;
    }
  }
  const char *kw = it->loop_kind == OMPDP_LK_WHILE ? "while"
                   : it->loop_kind == OMPDP_LK_DO  ? "do"
                                                   : "for";
  uint32_t ind = it->loop_column - 1;
  /* Before the loop: the range from column 1 to the end of its keyword, so
   * the check also proves only blanks precede it. */
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%*s#pragma omp target enter data", (int)ind, "");
  put_maps(&b, names, types, n, 1);
  ompdp_sb_printf(&b, "\n%s%*s%s", prologue ? prologue : "", (int)ind, "", kw);
  char *s = take(&b, why);
  if (!s || ompdp_rw_add_edit(rw, it, it->loop_line, 1, it->loop_line,
                              it->loop_column + (uint32_t)strlen(kw), kw, s, why)) {
    free(s);
    return -1;
  }
  free(s);
  /* After the loop: a line of its own after the loop's last line. */
  ompdp_sb_printf(&b, "%*s#pragma omp target exit data", (int)ind, "");
  put_maps(&b, names, types, n, 0);
  ompdp_sb_puts(&b, "\n");
  s = take(&b, why);
  uint32_t after = it->loop_stmt_end_line + 1;
  if (!s || ompdp_rw_add_edit(rw, it, after, 1, after, 1, "", s, why)) {
    free(s);
    return -1;
  }
  free(s);
  /* Before each jump out: a line of its own, or the jump made a block. */
  for (uint32_t k = 0; k < it->num_exits; ++k) {
    const ompdp_exit_t *x = &it->exits[k];
    if (!placeable(x)) {
      *why = "a jump out of the loop cannot get a `target exit data`";
      return -1;
    }
    uint32_t xi = x->Column - 1;
    if (x->Flags & OMPDP_XF_OWN_LINES) {
      ompdp_sb_printf(&b, "%*s#pragma omp target exit data", (int)xi, "");
      put_maps(&b, names, types, n, 0);
      ompdp_sb_puts(&b, "\n");
      s = take(&b, why);
      if (!s || ompdp_rw_add_edit(rw, it, x->Line, 1, x->Line, 1, "", s, why)) {
        free(s);
        return -1;
      }
      free(s);
      continue;
    }
    ompdp_sb_printf(&b, "{\n%*s#pragma omp target exit data", (int)xi, "");
    put_maps(&b, names, types, n, 0);
    ompdp_sb_printf(&b, "\n%*s", (int)xi, "");
    s = take(&b, why);
    if (!s || ompdp_rw_add_edit(rw, it, x->Line, x->Column, x->Line, x->Column, "", s, why) ||
        ompdp_rw_add_edit(rw, it, x->EndLine, x->EndColumn, x->EndLine, x->EndColumn, "", " }",
                          why)) {
      free(s);
      return -1;
    }
    free(s);
  }
  return 0;
}

void ompdp_rw_describe_unstructured(ompdp_strbuf_t *d, const ompdp_region_info_t *const *items,
                                    const char *const *names, const ompdp_map_type_t *types,
                                    size_t n) {
  const ompdp_region_info_t *it = items[0];
  ompdp_sb_puts(d, "`#pragma omp target enter data");
  put_maps(d, names, types, n, 1);
  ompdp_sb_puts(d, "` before it and `#pragma omp target exit data");
  put_maps(d, names, types, n, 0);
  ompdp_sb_puts(d, "` after it");
  for (uint32_t k = 0; k < it->num_exits; ++k)
    ompdp_sb_printf(d, "%s the `%s` at line %" PRIu32,
                    k == 0 ? " and before" : k + 1 == it->num_exits ? " and" : ",",
                    exit_kind(it->exits[k].Kind), it->exits[k].Line);
  if (it->num_exits)
    ompdp_sb_puts(d, " (a `target data` region cannot be left by a jump)");
}

/*===- tofrom -> from -------------------------------------------------------===*/

/* One element that `= value` writes whole: then a copy back with other
 * bytes than went in means the region wrote it. */
static int single_scalar(const ompdp_region_info_t *it, uint64_t bytes) {
  if (!(it->fill_flags & OMPDP_FILL_SCALAR) || !it->fill_elem_size)
    return 0;
  if ((it->fill_flags & OMPDP_FILL_WHOLE) && it->fill_count == 1)
    return 1;
  return bytes == it->fill_elem_size;
}

int ompdp_rw_from_allowed(const ompdp_region_info_t *it, const char *name,
                          const ompdp_rw_from_run_t *run, ompdp_strbuf_t *assume,
                          ompdp_strbuf_t *why) {
  if (it->access_flags & OMPDP_IA_WRITES_ALL)
    return 1;
  int scalar = single_scalar(it, run->alloc_bytes);
  if (run->d2h_same) {
    ompdp_sb_printf(why,
                    "`map(from: %s)` is right only if the region writes every element of `%s` "
                    "on every path before reading it; the compiler could not prove that, and "
                    "in %" PRIu64 " of the %" PRIu64 " executions of this run `%s` came back "
                    "with the bytes that went in (the region did not write it then, so a "
                    "`from` map would have returned uninitialised device memory instead of "
                    "the host's value)",
                    name, name, run->d2h_same, run->d2h, name);
    return 0;
  }
  if (scalar && run->d2h && run->d2h == run->executions && !run->d2h_unhashed) {
    ompdp_sb_printf(assume,
                    "the region writes `%s` on every path, as it did in each of the %" PRIu64
                    " executions of this run (every copy back differed from the copy in; the "
                    "compiler could not prove it for every input)",
                    name, run->d2h);
    return 2;
  }
  ompdp_sb_printf(why,
                  "`map(from: %s)` is right only if the region writes every element of `%s` "
                  "on every path before reading it; the compiler could not prove that, and "
                  "the run cannot confirm it for %s",
                  name, name,
                  !scalar ? "more than one element (its copies back show only that some "
                            "element changed)"
                          : "copies whose bytes it did not hash");
  return 0;
}

/*===- the compile -----------------------------------------------------------===*/

int ompdp_rw_compile_commands(ompdp_report_t *r, const ompdp_plan_t *plan) {
  for (size_t i = 0; i < r->num_findings; ++i) {
    const ompdp_finding_t *f = &r->findings[i];
    ompdp_region_info_t info;
    if (!f->num_rewrites || !f->rt_region || ompdp_plan_describe(plan, f->rt_region, -1, &info))
      continue;
    /* Each edited file: the edits name the construct's file, or that of
     * another region of the plan (a caller's loop, for data kept there),
     * whose compile it was recorded by. */
    for (size_t k = 0; k < f->num_rewrites; ++k)
      for (size_t e = 0; e < f->rewrites[k].num_edits; ++e) {
        const char *file = f->rewrites[k].edits[e].file;
        const ompdp_region_info_t *by = file && !strcmp(file, info.file) ? &info : NULL;
        for (size_t g = 0; file && !by && g < plan->num_regions; ++g)
          if (!strcmp(plan->regions[g].head.file, file))
            by = &plan->regions[g].head;
        if (by && ompdp_report_add_compile_command(r, file, by->compile_dir, by->compile_args))
          return -1;
      }
  }
  return 0;
}

/*===- advice ----------------------------------------------------------------===*/

int ompdp_rw_advise(ompdp_finding_t *f, const char *why) {
  if (!why || !*why)
    return 0;
  const char *old = f->no_rewrite ? f->no_rewrite : "";
  if (strstr(old, why))
    return 0;
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%s%s%s", old, *old ? "; " : "", why);
  char *s = ompdp_sb_take(&b);
  if (!s)
    return -1;
  free(f->no_rewrite);
  f->no_rewrite = s;
  return 0;
}
