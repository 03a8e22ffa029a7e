/*===- rewrite_text.c - text primitives of the rewrites ---------------*- C -*-===*\
|*
|* Edits built from region records only: the clause, item, directive and
|* loop ranges the compiler recorded, never the run. Each primitive removes
|* an item (with its clause, or its directive), changes its map type, puts
|* a `target data` before a loop, or `target update`s around the host
|* statements that use an item; every edit carries the original text it
|* expects, so that `ompdp fix` and the compiler plugin can refuse a file
|* that changed since the build. Unit-tested in unittests/test_rewrite*.c.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *ompdp_rw_basename(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

int ompdp_rw_line_index(const char *list, const char *name, size_t len) {
  int i = 0;
  for (const char *p = list; p && *p; ++i) {
    const char *e = strchr(p, '\n');
    size_t n = e ? (size_t)(e - p) : strlen(p);
    if (n == len && !strncmp(p, name, len))
      return i;
    p = e ? e + 1 : NULL;
  }
  return -1;
}

size_t ompdp_rw_attached_base(const char *expr) {
  /* The first bracket at depth 0 whose contents hold a ':' at their own
   * depth (not '::') opens the section; the base is the text before it. */
  int depth = 0;
  const char *open = NULL;
  for (const char *q = expr; *q; ++q) {
    if (*q == '[' || *q == '(') {
      if (*q == '[' && !depth)
        open = q;
      ++depth;
    } else if ((*q == ']' || *q == ')') && depth) {
      if (!--depth)
        open = NULL;
    } else if (*q == ':' && depth == 1 && open && q[1] != ':' && q[-1] != ':') {
      for (const char *b = expr; b < open; ++b)
        if (*b == '[' || *b == '.' || (*b == '-' && b[1] == '>'))
          return (size_t)(open - expr);
      return 0;
    }
  }
  return 0;
}

/*===- edits ---------------------------------------------------------------===*/

/* Appends the edit [line:col, end_line:end_col) -> replacement of the file
 * of the construct `at` describes. */
int ompdp_rw_add_edit(ompdp_rewrite_t *rw, const ompdp_region_info_t *at, uint32_t line,
                      uint32_t col, uint32_t end_line, uint32_t end_col, const char *original,
                      const char *replacement, const char **why) {
  const char *file = at->file;
  if (!file || !*file) {
    *why = "the construct's file is unknown";
    return -1;
  }
  ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
  if (!e) {
    *why = OMPDP_RW_OOM;
    return -1;
  }
  e->file = ompdp_strdup(file);
  e->range.line = line;
  e->range.column = col;
  e->range.end_line = end_line;
  e->range.end_column = end_col;
  e->original = ompdp_strdup(original);
  e->replacement = ompdp_strdup(replacement);
  /* The hash is of the file the compiler read, which is the edited one
   * unless a #line directive renamed it. */
  if (at->source_file && !strcmp(at->source_file, file))
    e->file_hash = at->file_hash;
  if (!e->file || (original && !e->original) || !e->replacement) {
    *why = OMPDP_RW_OOM;
    return -1;
  }
  return 0;
}

/*===- text primitives -----------------------------------------------------===*/

int ompdp_rw_explicit_item(const ompdp_region_info_t *it) {
  return !it->implicit && it->clause_line && it->clause_column && it->clause_end_line &&
         it->clause_end_column;
}

int ompdp_rw_same_clause(const ompdp_region_info_t *a, const ompdp_region_info_t *b) {
  return a->clause_line == b->clause_line && a->clause_column == b->clause_column &&
         a->clause_end_line == b->clause_end_line && a->clause_end_column == b->clause_end_column;
}

/* Directives that need a map or motion clause to be valid at all. */
static int needs_list_clause(ompdp_construct_kind_t construct) {
  switch (construct) {
  case OMPDP_CK_TARGET_ENTER_DATA:
  case OMPDP_CK_TARGET_EXIT_DATA:
  case OMPDP_CK_TARGET_UPDATE:
  case OMPDP_CK_TARGET_DATA:
    return 1;
  case OMPDP_CK_UNKNOWN:
  case OMPDP_CK_TARGET:
  case OMPDP_CK_COUNT:
  /* Routine calls have no clauses (and are never rewritten as such). */
  case OMPDP_CK_TARGET_ALLOC:
  case OMPDP_CK_TARGET_FREE:
  case OMPDP_CK_TARGET_MEMCPY:
  case OMPDP_CK_TARGET_MEMCPY_RECT:
  case OMPDP_CK_TARGET_MEMCPY_ASYNC:
  case OMPDP_CK_TARGET_MEMCPY_RECT_ASYNC:
  case OMPDP_CK_TARGET_MEMSET:
  case OMPDP_CK_TARGET_MEMSET_ASYNC:
  case OMPDP_CK_TARGET_ASSOCIATE_PTR:
  case OMPDP_CK_TARGET_DISASSOCIATE_PTR:
  case OMPDP_CK_CALL: /* nor are calls of functions */
    return 0;
  }
  return 0;
}

/* The item's siblings in its clause, in source order (the compiler records
 * a clause's items in order). Returns their number; *pos is k's place. */
static uint32_t siblings(const ompdp_rw_region_t *reg, uint32_t k, uint32_t *sib, uint32_t max,
                         uint32_t *pos) {
  uint32_t n = 0;
  for (uint32_t j = 0; j < reg->num_items && n < max; ++j)
    if (ompdp_rw_explicit_item(&reg->items[j]) && ompdp_rw_same_clause(&reg->items[j], &reg->items[k])) {
      if (j == k)
        *pos = n;
      sib[n++] = j;
    }
  return n;
}

/* What removing the directive of `it` (when rw removes it) assumes about
 * the clauses no item records, appended to a. */
void ompdp_rw_removal_assumption(const ompdp_rewrite_t *rw, const ompdp_region_info_t *it,
                                 ompdp_strbuf_t *a) {
  const char *other = it->other_clauses ? it->other_clauses : "";
  int removed = 0;
  for (size_t i = 0; i < rw->num_edits; ++i) {
    const ompdp_edit_t *e = &rw->edits[i];
    removed |= e->range.line == it->line && e->range.column == 1 &&
               e->range.end_line == it->end_line + 1 && e->range.end_column == 1 &&
               !e->replacement[0];
  }
  if (!removed)
    return;
  if (strstr(other, "depend("))
    ompdp_sb_printf(a,
                    "%sthe `%s` at %s:%" PRIu32 " goes with its depend clauses: the tasks that "
                    "depended on it now depend on what it depended on through the same list item, "
                    "and nothing else relied on it for ordering",
                    a->len ? "; " : "", ompdp_construct_kind_name(it->construct),
                    ompdp_rw_basename(it->file), it->line);
  if (it->nowait || strstr(other, "nowait"))
    ompdp_sb_printf(a,
                    "%sthe deferred task of the `%s nowait` at %s:%" PRIu32
                    " is gone: a `taskwait` "
                    "that waited for it has nothing of it left to wait for",
                    a->len ? "; " : "", ompdp_construct_kind_name(it->construct),
                    ompdp_rw_basename(it->file), it->line);
}

/* Deletes the directive's whole lines: indentation, text and newline. */
static int remove_directive(ompdp_rewrite_t *rw, const ompdp_region_info_t *it, const char **why) {
  if (!it->line || !it->end_line || it->end_line < it->line) {
    *why = "the directive's range is unknown";
    return -1;
  }
  if (!ompdp_rw_depend_removable(it->other_clauses)) {
    *why = "its depend clauses order tasks through more than one list item";
    return -1;
  }
  ompdp_strbuf_t orig = {0};
  /* What the line must hold: the directive as the compiler recorded it
   * (device, if, depend, nowait and all). A table without it: the
   * directive rebuilt from its one clause, so one with other clauses is
   * refused at fix time rather than guessed at. */
  if (it->directive && it->directive[0])
    ompdp_sb_puts(&orig, it->directive);
  else
    ompdp_sb_printf(&orig, "#pragma omp %s %s%s", ompdp_construct_kind_name(it->construct),
                    it->clause, it->nowait ? " nowait" : "");
  char *o = ompdp_sb_take(&orig);
  if (!o) {
    *why = OMPDP_RW_OOM;
    return -1;
  }
  int rc = ompdp_rw_add_edit(rw, it, it->line, 1, it->end_line + 1, 1, o, "", why);
  free(o);
  return rc;
}

/* Deletes a clause and one blank next to it. */
static int remove_clause(ompdp_rewrite_t *rw, const ompdp_region_info_t *it, const char **why) {
  uint32_t l = it->clause_line, c = it->clause_column;
  uint32_t el = it->clause_end_line, ec = it->clause_end_column;
  int one_line = it->line == it->end_line && l == it->line && el == l;
  if (one_line && ec == it->end_column && c > 1)
    --c; /* last on the line: take the blank before it */
  else if (one_line && ec < it->end_column)
    ++ec; /* take the blank after it (never the newline: that is end_column) */
  return ompdp_rw_add_edit(rw, it, l, c, el, ec, it->clause, "", why);
}

int ompdp_rw_remove_item(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg, uint32_t k,
                         const char **why) {
  if (k >= reg->num_items) {
    *why = "no such item";
    return -1;
  }
  const ompdp_region_info_t *it = &reg->items[k];
  if (!ompdp_rw_explicit_item(it)) {
    *why = "the item is implicit (no clause to remove it from)";
    return -1;
  }
  uint32_t sib[256], pos = 0;
  uint32_t ns = siblings(reg, k, sib, 256, &pos);
  if (ns > 1) {
    if (!it->item_line || !it->expr[0]) {
      *why = "the item's range is unknown";
      return -1;
    }
    ompdp_strbuf_t o = {0};
    int rc;
    if (pos + 1 < ns) {
      /* "a, " before the next item */
      const ompdp_region_info_t *next = &reg->items[sib[pos + 1]];
      if (!next->item_line) {
        *why = "the next item's range is unknown";
        return -1;
      }
      ompdp_sb_printf(&o, "%s,", it->expr);
      char *orig = ompdp_sb_take(&o);
      rc = orig ? ompdp_rw_add_edit(rw, it, it->item_line, it->item_column, next->item_line,
                                    next->item_column, orig, "", why)
                : (*why = OMPDP_RW_OOM, -1);
      free(orig);
    } else {
      /* ", z" after the previous item */
      const ompdp_region_info_t *prev = &reg->items[sib[pos - 1]];
      if (!prev->item_end_line) {
        *why = "the previous item's range is unknown";
        return -1;
      }
      ompdp_sb_printf(&o, ",%s", it->expr);
      char *orig = ompdp_sb_take(&o);
      rc = orig ? ompdp_rw_add_edit(rw, it, prev->item_end_line, prev->item_end_column,
                                    it->item_end_line, it->item_end_column, orig, "", why)
                : (*why = OMPDP_RW_OOM, -1);
      free(orig);
    }
    return rc;
  }
  /* The clause's only item: the clause goes, or the directive when the
   * clause held everything the directive maps. */
  uint32_t explicit_items = 0;
  for (uint32_t j = 0; j < reg->num_items; ++j)
    explicit_items += ompdp_rw_explicit_item(&reg->items[j]) != 0;
  if (explicit_items == 1 && needs_list_clause(it->construct))
    return remove_directive(rw, it, why);
  return remove_clause(rw, it, why);
}

int ompdp_rw_is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (++s; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return 0;
  return 1;
}

/* The map clause of explicit item it, parsed into *c (freed by the
 * caller); -1 with the reason when it is not one the rewrites understand. */
static int map_clause_of(const ompdp_region_info_t *it, ompdp_rw_clause_t *c, const char **why) {
  if (ompdp_rw_parse_clause(it->clause, c) || strcmp(c->name, "map")) {
    ompdp_rw_clause_free(c);
    *why = "not a map clause the rewrite understands";
    return -1;
  }
  return 0;
}

int ompdp_rw_set_map_type(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg, uint32_t k,
                          ompdp_map_type_t type, int always, const char **why) {
  if (k >= reg->num_items) {
    *why = "no such item";
    return -1;
  }
  const ompdp_region_info_t *it = &reg->items[k];
  ompdp_strbuf_t b = {0};
  if (it->implicit) {
    /* An explicit clause at the end of the directive: the range holds just
     * the newline, which the check sees as "nothing but white space here",
     * so a line that grew since the build is refused. */
    if (!it->end_line || !it->end_column) {
      *why = "the directive's end is unknown";
      return -1;
    }
    if (!ompdp_rw_is_identifier(it->variable)) {
      *why = "the implicit item is not a plain variable";
      return -1;
    }
    ompdp_sb_putn(&b, " ", 1);
    ompdp_rw_put_map_clause(&b, NULL, type, always, it->variable);
    ompdp_sb_puts(&b, "\n");
    char *rep = ompdp_sb_take(&b);
    int rc = rep ? ompdp_rw_add_edit(rw, it, it->end_line, it->end_column, it->end_line + 1, 1, "",
                                     rep, why)
                 : (*why = OMPDP_RW_OOM, -1);
    free(rep);
    return rc;
  }
  if (!ompdp_rw_explicit_item(it)) {
    *why = "the clause's range is unknown";
    return -1;
  }
  ompdp_rw_clause_t c;
  if (map_clause_of(it, &c, why))
    return -1;
  uint32_t sib[256], pos = 0;
  uint32_t ns = siblings(reg, k, sib, 256, &pos);
  int rc;
  if (ns == 1) {
    ompdp_rw_put_map_clause(&b, &c, type, always, c.list);
    char *rep = ompdp_sb_take(&b);
    rc = rep ? ompdp_rw_add_edit(rw, it, it->clause_line, it->clause_column, it->clause_end_line,
                                 it->clause_end_column, it->clause, rep, why)
             : (*why = OMPDP_RW_OOM, -1);
    free(rep);
  } else {
    /* Take the item out of its clause and give it one of its own, right
     * after: " map(always, from: b)". */
    rc = ompdp_rw_remove_item(rw, reg, k, why);
    if (!rc) {
      ompdp_sb_putn(&b, " ", 1);
      ompdp_rw_put_map_clause(&b, &c, type, always, it->expr);
      char *rep = ompdp_sb_take(&b);
      rc = rep ? ompdp_rw_add_edit(rw, it, it->clause_end_line, it->clause_end_column,
                                   it->clause_end_line, it->clause_end_column, "", rep, why)
               : (*why = OMPDP_RW_OOM, -1);
      free(rep);
    }
  }
  ompdp_rw_clause_free(&c);
  return rc;
}

int ompdp_rw_firstprivate_items(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg,
                                const uint32_t *ks, size_t nk, const char **why) {
  if (!nk || ks[0] >= reg->num_items) {
    *why = "no such item";
    return -1;
  }
  const ompdp_region_info_t *it = &reg->items[ks[0]];
  for (size_t i = 0; i < nk; ++i)
    if (ks[i] >= reg->num_items || !ompdp_rw_is_identifier(reg->items[ks[i]].variable)) {
      *why = "an item is not a plain variable";
      return -1;
    }
  ompdp_strbuf_t b = {0};
  int rc;
  if (it->implicit) {
    /* As an implicit item's explicit clause: at the end of the directive. */
    if (nk != 1 || !it->end_line || !it->end_column) {
      *why = "the directive's end is unknown";
      return -1;
    }
    ompdp_sb_printf(&b, " firstprivate(%s)\n", it->variable);
    char *rep = ompdp_sb_take(&b);
    rc = rep ? ompdp_rw_add_edit(rw, it, it->end_line, it->end_column, it->end_line + 1, 1, "",
                                 rep, why)
             : (*why = OMPDP_RW_OOM, -1);
    free(rep);
    return rc;
  }
  for (size_t i = 0; i < nk; ++i) {
    const ompdp_region_info_t *x = &reg->items[ks[i]];
    if (!ompdp_rw_explicit_item(x) || strcmp(x->expr, x->variable) || !ompdp_rw_same_clause(x, it)) {
      *why = "the items are not whole variables of one clause";
      return -1;
    }
  }
  uint32_t sib[256], pos = 0;
  uint32_t ns = siblings(reg, ks[0], sib, 256, &pos);
  ompdp_rw_clause_t c;
  if (map_clause_of(it, &c, why))
    return -1;
  /* The clause keeps its other items, with its map type and modifiers,
   * and the firstprivate clause follows it in its place. */
  ompdp_strbuf_t rest = {0}, fp = {0};
  for (uint32_t j = 0; j < ns; ++j) {
    int goes = 0;
    for (size_t i = 0; i < nk && !goes; ++i)
      goes = sib[j] == ks[i];
    ompdp_strbuf_t *to = goes ? &fp : &rest;
    ompdp_sb_printf(to, "%s%s", to->len ? ", " : "", goes ? reg->items[sib[j]].variable
                                                        : reg->items[sib[j]].expr);
  }
  if (rest.len) {
    ompdp_rw_put_map_clause(&b, &c, it->map_type, 0, rest.d);
    ompdp_sb_puts(&b, " ");
  }
  ompdp_sb_printf(&b, "firstprivate(%s)", fp.d ? fp.d : "");
  if (rest.oom || fp.oom)
    b.oom = 1;
  ompdp_rw_clause_free(&c);
  free(rest.d);
  free(fp.d);
  char *rep = ompdp_sb_take(&b);
  rc = rep ? ompdp_rw_add_edit(rw, it, it->clause_line, it->clause_column, it->clause_end_line,
                               it->clause_end_column, it->clause, rep, why)
           : (*why = OMPDP_RW_OOM, -1);
  free(rep);
  return rc;
}

int ompdp_rw_set_map_types(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg,
                           const ompdp_rw_map_change_t *ch, size_t n, const char **why) {
  if (!n || ch[0].item >= reg->num_items) {
    *why = "no such item";
    return -1;
  }
  const ompdp_region_info_t *it = &reg->items[ch[0].item];
  for (size_t i = 0; i < n; ++i) {
    const ompdp_region_info_t *x = ch[i].item < reg->num_items ? &reg->items[ch[i].item] : NULL;
    if (!x || !ompdp_rw_explicit_item(x) || !ompdp_rw_same_clause(x, it) || !x->expr[0]) {
      *why = "the items are not explicit items of one clause";
      return -1;
    }
  }
  ompdp_rw_clause_t c;
  if (map_clause_of(it, &c, why))
    return -1;
  uint32_t sib[256], pos = 0;
  uint32_t ns = siblings(reg, ch[0].item, sib, 256, &pos);
  /* What stays keeps the clause's map type and modifiers, in the clause's
   * place; each new map type (with or without `always`) follows with its
   * items, in the order they first come. */
  ompdp_strbuf_t b = {0}, rest = {0};
  for (uint32_t j = 0; j < ns; ++j) {
    int goes = 0;
    for (size_t i = 0; i < n && !goes; ++i)
      goes = sib[j] == ch[i].item;
    if (!goes)
      ompdp_sb_printf(&rest, "%s%s", rest.len ? ", " : "", reg->items[sib[j]].expr);
  }
  if (rest.len)
    ompdp_rw_put_map_clause(&b, &c, it->map_type, 0, rest.d);
  for (size_t i = 0; i < n; ++i) {
    int first = 1;
    for (size_t q = 0; q < i && first; ++q)
      first = !(ch[q].type == ch[i].type && ch[q].always == ch[i].always);
    if (!first)
      continue;
    ompdp_strbuf_t list = {0};
    for (size_t q = i; q < n; ++q)
      if (ch[q].type == ch[i].type && ch[q].always == ch[i].always)
        ompdp_sb_printf(&list, "%s%s", list.len ? ", " : "", reg->items[ch[q].item].expr);
    if (b.len)
      ompdp_sb_puts(&b, " ");
    ompdp_rw_put_map_clause(&b, &c, ch[i].type, ch[i].always, list.d ? list.d : "");
    if (list.oom)
      b.oom = 1;
    free(list.d);
  }
  if (rest.oom)
    b.oom = 1;
  ompdp_rw_clause_free(&c);
  free(rest.d);
  char *rep = ompdp_sb_take(&b);
  int rc = rep ? ompdp_rw_add_edit(rw, it, it->clause_line, it->clause_column, it->clause_end_line,
                                   it->clause_end_column, it->clause, rep, why)
               : (*why = OMPDP_RW_OOM, -1);
  free(rep);
  return rc;
}

static const char *loop_keyword(ompdp_loop_kind_t kind) {
  switch (kind) {
  case OMPDP_LK_WHILE:
    return "while";
  case OMPDP_LK_DO:
    return "do";
  case OMPDP_LK_NONE:
  case OMPDP_LK_FOR:
  case OMPDP_LK_RANGE_FOR:
  case OMPDP_LK_COUNT:
    return "for";
  }
  return "for";
}

int ompdp_rw_keep_resident(ompdp_rewrite_t *rw, const ompdp_region_info_t *const *items,
                           const ompdp_map_type_t *types, size_t n, const char **why) {
  const ompdp_region_info_t *it = n ? items[0] : NULL;
  if (!it || it->loop_kind == OMPDP_LK_NONE || !it->loop_line || !it->loop_column) {
    *why = "the construct is in no loop";
    return -1;
  }
  if (it->loop_column > 512) {
    *why = "the loop is indented too far";
    return -1;
  }
  /* The loop's bytes are in the construct's file: not a loop of a file
   * that #includes the construct's inside its body (its line is not one
   * of this file's). */
  if (!it->loop_length) {
    *why = "the loop around it is in another file than the construct (the construct's "
           "file is #included in the loop's body, or the loop comes from a macro), where "
           "ompdp writes no edit";
    return -1;
  }
  for (size_t i = 0; i < n; ++i)
    if (items[i]->access_flags & OMPDP_IA_LOOP_DECLARED) {
      *why = LOOP_DECLARED_WHY;
      return -1;
    }
  const char *kw = loop_keyword(it->loop_kind);
  /* The range runs from the start of the loop's line to the end of its
   * keyword: the check then also proves that only blanks precede the loop,
   * so a pragma may start the line. */
  char indent[513];
  memset(indent, ' ', it->loop_column - 1);
  indent[it->loop_column - 1] = '\0';
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%s#pragma omp target data", indent);
  for (size_t i = 0; i < n; ++i) {
    const ompdp_region_info_t *x = items[i];
    const char *expr = x->implicit ? x->variable : x->expr;
    if (!expr[0] || (x->implicit && !ompdp_rw_is_identifier(expr))) {
      free(b.d);
      *why = "the item cannot be named in a clause";
      return -1;
    }
    if (x->loop_line != it->loop_line || x->loop_column != it->loop_column ||
        strcmp(x->file, it->file)) {
      free(b.d);
      *why = "the items are in different loops";
      return -1;
    }
    ompdp_sb_printf(&b, " map(%s: %s)", ompdp_map_type_name(types[i]), expr);
  }
  ompdp_sb_printf(&b, "\n%s%s", indent, kw);
  char *rep = ompdp_sb_take(&b);
  if (!rep) {
    *why = OMPDP_RW_OOM;
    return -1;
  }
  int rc = ompdp_rw_add_edit(rw, it, it->loop_line, 1, it->loop_line,
                             it->loop_column + (uint32_t)strlen(kw), kw, rep, why);
  free(rep);
  return rc;
}

int ompdp_rw_host_updates(ompdp_rewrite_t *rw, const ompdp_region_info_t *it, int with_from,
                          const char **why) {
  const char *expr = it->implicit ? it->variable : it->expr;
  if (!expr[0] || (it->implicit && !ompdp_rw_is_identifier(expr))) {
    *why = "the item cannot be named in a clause";
    return -1;
  }
  for (uint32_t k = 0; k < it->num_host_accesses; ++k) {
    const ompdp_host_access_t *a = &it->host_accesses[k];
    int w = a->Access == OMPDP_ACCESS_WRITE || a->Access == OMPDP_ACCESS_READ_WRITE;
    if (!(a->Flags & OMPDP_HA_STATEMENT) || !a->Line || !a->Column || a->Column > 512 ||
        !a->EndLine) {
      *why = "host code uses the item where no directive can go";
      return -1;
    }
    /* Insertions at the start of a line: the compiler checked that the
     * statement has its lines to itself. */
    for (int to = 0; to < 2; ++to) {
      if (to ? !w : !with_from)
        continue;
      if (ompdp_rw_update_line(rw, it, to ? a->EndLine + 1 : a->Line, a->Column, to, expr, why))
        return -1;
    }
  }
  return 0;
}

int ompdp_rw_update_line(ompdp_rewrite_t *rw, const ompdp_region_info_t *at, uint32_t line,
                         uint32_t column, int to, const char *expr, const char **why) {
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%*s#pragma omp target update %s(%s)\n", (int)column - 1, "",
                  to ? "to" : "from", expr);
  char *rep = ompdp_sb_take(&b);
  if (!rep) {
    *why = OMPDP_RW_OOM;
    return -1;
  }
  int rc = ompdp_rw_add_edit(rw, at, line, 1, line, 1, "", rep, why);
  free(rep);
  return rc;
}

/* Position order of edits; equal positions keep their order. */
static int pos_cmp(uint32_t l1, uint32_t c1, uint32_t l2, uint32_t c2) {
  return l1 != l2 ? (l1 < l2 ? -1 : 1) : (c1 > c2) - (c1 < c2);
}

static int edit_cmp(const ompdp_edit_t *a, const ompdp_edit_t *b) {
  int c = strcmp(a->file, b->file);
  if (!c)
    c = pos_cmp(a->range.line, a->range.column, b->range.line, b->range.column);
  if (!c)
    c = pos_cmp(a->range.end_line, a->range.end_column, b->range.end_line, b->range.end_column);
  return c;
}

static int is_insertion(const ompdp_edit_t *e) {
  return e->range.line == e->range.end_line && e->range.column == e->range.end_column;
}

/* Puts a rewrite's edits in position order, joins insertions at one place
 * (several items gaining clauses at the end of one directive) into one,
 * and returns -1 if two edits still overlap. */
int ompdp_rw_normalize_edits(ompdp_rewrite_t *rw) {
  /* insertion sort: stable, and rewrites have a handful of edits */
  for (size_t i = 1; i < rw->num_edits; ++i) {
    ompdp_edit_t e = rw->edits[i];
    size_t j = i;
    while (j > 0 && edit_cmp(&rw->edits[j - 1], &e) > 0) {
      rw->edits[j] = rw->edits[j - 1];
      --j;
    }
    rw->edits[j] = e;
  }
  size_t out = 0;
  for (size_t i = 0; i < rw->num_edits; ++i) {
    ompdp_edit_t *e = &rw->edits[i];
    if (out) {
      ompdp_edit_t *p = &rw->edits[out - 1];
      if (!strcmp(p->file, e->file) && is_insertion(p) && is_insertion(e) && !edit_cmp(p, e)) {
        size_t a = strlen(p->replacement), b = strlen(e->replacement);
        char *j = malloc(a + b + 1);
        if (!j)
          return -1;
        memcpy(j, p->replacement, a);
        memcpy(j + a, e->replacement, b + 1);
        free(p->replacement);
        p->replacement = j;
        ompdp_edit_free(e);
        continue;
      }
      if (!strcmp(p->file, e->file) &&
          pos_cmp(p->range.end_line, p->range.end_column, e->range.line, e->range.column) > 0) {
        rw->num_edits = out + (rw->num_edits - i); /* keep the rest owned */
        memmove(&rw->edits[out], e, (rw->num_edits - out) * sizeof(*e));
        return -1;
      }
    }
    if (out != i)
      rw->edits[out] = *e;
    ++out;
  }
  rw->num_edits = out;
  return 0;
}
