/*===- rewrite.c - concrete source rewrites for findings ------------------===*\
|*
|* The text primitives build edits from region records only: the clause as
|* the compiler recorded it (white space collapsed), the item, clause,
|* directive and loop ranges. The policy decides from the event log whether
|* a rewrite keeps the program's results (the bytes the run moved say
|* whether the host or the device changed the data) and what it saves. The
|* rules are documented in docs/fixes.md; this file follows them.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite.h"
#include "detect.h" /* overbroad rules */
#include "strbuf.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

static char *trim(char *s) {
  while (is_space(*s))
    ++s;
  size_t n = strlen(s);
  while (n && is_space(s[n - 1]))
    s[--n] = '\0';
  return s;
}

/*===- edits ---------------------------------------------------------------===*/

static const char *OOM = "out of memory";

/* Appends the edit [line:col, end_line:end_col) -> replacement of the file
 * of the construct `at` describes. */
static int add_edit(ompdp_rewrite_t *rw, const ompdp_region_info_t *at, uint32_t line,
                    uint32_t col, uint32_t end_line, uint32_t end_col, const char *original,
                    const char *replacement, const char **why) {
  const char *file = at->file;
  if (!file || !*file) {
    *why = "the construct's file is unknown";
    return -1;
  }
  ompdp_edit_t *e = ompdp_rewrite_add_edit(rw);
  if (!e) {
    *why = OOM;
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
    *why = OOM;
    return -1;
  }
  return 0;
}

/*===- clauses as the compiler recorded them ------------------------------===*/

#define MAX_MODS 8

/* "map(always, close, tofrom: u[0:n], v)" split into its name, modifiers,
 * map type and list. Points into buf. */
typedef struct clause {
  char *buf;
  const char *name;
  const char *mods[MAX_MODS];
  int num_mods;
  const char *type; /* NULL when the clause names none */
  const char *list;
} clause_t;

/* Whether s is a map type a map clause can name (OMPDP_MAP_TYPE). */
static int is_map_type(const char *s) {
  switch (ompdp_map_type_parse(s)) {
  case OMPDP_MT_TO:
  case OMPDP_MT_FROM:
  case OMPDP_MT_TOFROM:
  case OMPDP_MT_ALLOC:
  case OMPDP_MT_RELEASE:
  case OMPDP_MT_DELETE:
    return 1;
  case OMPDP_MT_NONE:
  case OMPDP_MT_FIRSTPRIVATE:
  case OMPDP_MT_UPDATE_TO:
  case OMPDP_MT_UPDATE_FROM:
  case OMPDP_MT_IS_DEVICE_PTR:
  case OMPDP_MT_HAS_DEVICE_ADDR:
  case OMPDP_MT_COUNT:
    return 0;
  }
  return 0;
}

/* Returns 0, or -1 if text is not a clause of the form name(...). */
static int parse_clause(const char *text, clause_t *c) {
  memset(c, 0, sizeof(*c));
  if (!strncmp(text, "implicit ", 9))
    text += 9;
  c->buf = ompdp_strdup(text);
  if (!c->buf)
    return -1;
  char *s = trim(c->buf);
  char *open = strchr(s, '(');
  size_t n = strlen(s);
  if (!open || n < 2 || s[n - 1] != ')')
    return -1;
  *open = '\0';
  s[n - 1] = '\0';
  c->name = trim(s);
  char *inner = open + 1;
  /* The ':' that ends the modifiers is the first one outside brackets that
   * is not half of a C++ '::'. */
  int depth = 0;
  char *colon = NULL;
  for (char *p = inner; *p; ++p) {
    if (*p == '(' || *p == '[' || *p == '{')
      ++depth;
    else if (*p == ')' || *p == ']' || *p == '}')
      --depth;
    else if (*p == ':' && depth == 0) {
      if (p[1] == ':') {
        ++p;
        continue;
      }
      colon = p;
      break;
    }
    if (depth < 0)
      return -1;
  }
  if (!colon) {
    c->list = trim(inner);
    return *c->list ? 0 : -1;
  }
  *colon = '\0';
  c->list = trim(colon + 1);
  /* Modifiers: separated by commas and/or blanks, each an identifier with an
   * optional parenthesized argument (mapper(id), iterator(...)). */
  char *p = inner;
  for (;;) {
    while (*p == ',' || is_space(*p))
      ++p;
    if (!*p)
      break;
    char *start = p;
    depth = 0;
    while (*p && (depth > 0 || (*p != ',' && !is_space(*p)))) {
      if (*p == '(')
        ++depth;
      else if (*p == ')')
        --depth;
      ++p;
    }
    /* "mapper (id)": the argument may follow a blank. */
    char *q = p;
    while (is_space(*q))
      ++q;
    if (*q == '(') {
      while (*q && !(*q == ')' && depth == 0)) {
        if (*q == '(')
          ++depth;
        else if (*q == ')')
          --depth;
        ++q;
      }
      p = *q ? q + 1 : q;
    }
    char save = *p;
    *p = '\0';
    if (c->num_mods == MAX_MODS)
      return -1;
    c->mods[c->num_mods++] = start;
    if (!save)
      break;
    ++p;
  }
  if (c->num_mods && is_map_type(c->mods[c->num_mods - 1]))
    c->type = c->mods[--c->num_mods];
  return *c->list ? 0 : -1;
}

static void clause_free(clause_t *c) { free(c->buf); }

/* name(mods..., type: list), with always added (always > 0), removed
 * (always < 0) or left as it was. */
static void put_map_clause(ompdp_strbuf_t *b, const clause_t *c, ompdp_map_type_t type,
                           int always, const char *list) {
  int first = 1;
  ompdp_sb_puts(b, "map(");
  if (always > 0) {
    ompdp_sb_puts(b, "always");
    first = 0;
  }
  for (int i = 0; c && i < c->num_mods; ++i) {
    if (always != 0 && !strcmp(c->mods[i], "always"))
      continue;
    if (!first)
      ompdp_sb_puts(b, ", ");
    ompdp_sb_puts(b, c->mods[i]);
    first = 0;
  }
  if (!first)
    ompdp_sb_puts(b, ", ");
  ompdp_sb_printf(b, "%s: %s)", ompdp_map_type_name(type), list);
}

/*===- text primitives -----------------------------------------------------===*/

static int explicit_item(const ompdp_region_info_t *it) {
  return !it->implicit && it->clause_line && it->clause_column &&
         it->clause_end_line && it->clause_end_column;
}

static int same_clause(const ompdp_region_info_t *a, const ompdp_region_info_t *b) {
  return a->clause_line == b->clause_line && a->clause_column == b->clause_column &&
         a->clause_end_line == b->clause_end_line &&
         a->clause_end_column == b->clause_end_column;
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
    return 0;
  }
  return 0;
}

/* The item's siblings in its clause, in source order (the compiler records
 * a clause's items in order). Returns their number; *pos is k's place. */
static uint32_t siblings(const ompdp_rw_region_t *reg, uint32_t k, uint32_t *sib,
                         uint32_t max, uint32_t *pos) {
  uint32_t n = 0;
  for (uint32_t j = 0; j < reg->num_items && n < max; ++j)
    if (explicit_item(&reg->items[j]) && same_clause(&reg->items[j], &reg->items[k])) {
      if (j == k)
        *pos = n;
      sib[n++] = j;
    }
  return n;
}

/* The depend clauses ("depend(in: x) depend(out: y)") in a directive's
 * other clauses: each one's dependence type and list, in turn. Returns 0
 * at the end, -1 on a clause it cannot read. */
static int next_depend(const char **p, char *type, size_t tn, char *list, size_t ln) {
  const char *d = strstr(*p, "depend(");
  if (!d)
    return 0;
  const char *q = d + 7, *colon = NULL;
  int depth = 1;
  for (; *q && depth; ++q) {
    if (*q == '(' || *q == '[')
      ++depth;
    else if (*q == ')' || *q == ']')
      --depth;
    else if (*q == ':' && depth == 1 && !colon && q[1] != ':')
      colon = q;
  }
  if (depth || !colon || (size_t)(colon - d - 7) >= tn || (size_t)(q - colon) > ln)
    return -1;
  memcpy(type, d + 7, (size_t)(colon - d - 7));
  type[colon - d - 7] = '\0';
  memcpy(list, colon + 1, (size_t)(q - colon - 2));
  list[q - colon - 2] = '\0';
  *p = q;
  return 1;
}

/* Whether removing a directive with these other clauses keeps the order
 * of the tasks around it. Its depend clauses order tasks through their
 * list items; with one list item, every task that depended on it depends
 * instead on what it depended on (the same item), so no order is lost.
 * With several items, it may have been the only link between tasks on
 * different items (depend(in: x) depend(out: y)); dependence types other
 * than in/out/inout (mutexinoutset, inoutset, depobj, iterators) are not
 * reasoned about. */
static int depend_removable(const char *other) {
  char type[64], list[256], first[256] = "";
  const char *p = other ? other : "";
  int r;
  while ((r = next_depend(&p, type, sizeof(type), list, sizeof(list))) == 1) {
    char *t = trim(type), *l = trim(list);
    if (strcmp(t, "in") && strcmp(t, "out") && strcmp(t, "inout"))
      return 0;
    if (strchr(l, ','))
      return 0;
    if (!first[0])
      snprintf(first, sizeof(first), "%s", l);
    else if (strcmp(first, l))
      return 0;
  }
  return r == 0;
}

static const char *basename_of(const char *path);

/* What removing the directive of `it` (when rw removes it) assumes about
 * the clauses no item records, appended to a. */
static void removal_assumption(const ompdp_rewrite_t *rw, const ompdp_region_info_t *it,
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
              basename_of(it->file), it->line);
  if (it->nowait || strstr(other, "nowait"))
    ompdp_sb_printf(a,
              "%sthe deferred task of the `%s nowait` at %s:%" PRIu32 " is gone: a `taskwait` "
              "that waited for it has nothing of it left to wait for",
              a->len ? "; " : "", ompdp_construct_kind_name(it->construct),
              basename_of(it->file), it->line);
}

/* Deletes the directive's whole lines: indentation, text and newline. */
static int remove_directive(ompdp_rewrite_t *rw, const ompdp_region_info_t *it,
                            const char **why) {
  if (!it->line || !it->end_line || it->end_line < it->line) {
    *why = "the directive's range is unknown";
    return -1;
  }
  if (!depend_removable(it->other_clauses)) {
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
                    it->clause,
              it->nowait ? " nowait" : "");
  char *o = ompdp_sb_take(&orig);
  if (!o) {
    *why = OOM;
    return -1;
  }
  int rc = add_edit(rw, it, it->line, 1, it->end_line + 1, 1, o, "", why);
  free(o);
  return rc;
}

/* Deletes a clause and one blank next to it. */
static int remove_clause(ompdp_rewrite_t *rw, const ompdp_region_info_t *it,
                         const char **why) {
  uint32_t l = it->clause_line, c = it->clause_column;
  uint32_t el = it->clause_end_line, ec = it->clause_end_column;
  int one_line = it->line == it->end_line && l == it->line && el == l;
  if (one_line && ec == it->end_column && c > 1)
    --c; /* last on the line: take the blank before it */
  else if (one_line && ec < it->end_column)
    ++ec; /* take the blank after it (never the newline: that is end_column) */
  return add_edit(rw, it, l, c, el, ec, it->clause, "", why);
}

int ompdp_rw_remove_item(ompdp_rewrite_t *rw, const ompdp_rw_region_t *reg, uint32_t k,
                         const char **why) {
  if (k >= reg->num_items) {
    *why = "no such item";
    return -1;
  }
  const ompdp_region_info_t *it = &reg->items[k];
  if (!explicit_item(it)) {
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
      rc = orig ? add_edit(rw, it, it->item_line, it->item_column, next->item_line,
                           next->item_column, orig, "", why)
                : (*why = OOM, -1);
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
      rc = orig ? add_edit(rw, it, prev->item_end_line, prev->item_end_column,
                           it->item_end_line, it->item_end_column, orig, "", why)
                : (*why = OOM, -1);
      free(orig);
    }
    return rc;
  }
  /* The clause's only item: the clause goes, or the directive when the
   * clause held everything the directive maps. */
  uint32_t explicit_items = 0;
  for (uint32_t j = 0; j < reg->num_items; ++j)
    explicit_items += explicit_item(&reg->items[j]) != 0;
  if (explicit_items == 1 && needs_list_clause(it->construct))
    return remove_directive(rw, it, why);
  return remove_clause(rw, it, why);
}

static int is_identifier(const char *s) {
  if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
    return 0;
  for (++s; *s; ++s)
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
          *s == '_'))
      return 0;
  return 1;
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
    if (!is_identifier(it->variable)) {
      *why = "the implicit item is not a plain variable";
      return -1;
    }
    ompdp_sb_putn(&b, " ", 1);
    put_map_clause(&b, NULL, type, always, it->variable);
    ompdp_sb_puts(&b, "\n");
    char *rep = ompdp_sb_take(&b);
    int rc = rep ? add_edit(rw, it, it->end_line, it->end_column, it->end_line + 1, 1,
                            "", rep, why)
                 : (*why = OOM, -1);
    free(rep);
    return rc;
  }
  if (!explicit_item(it)) {
    *why = "the clause's range is unknown";
    return -1;
  }
  clause_t c;
  if (parse_clause(it->clause, &c) || strcmp(c.name, "map")) {
    clause_free(&c);
    *why = "not a map clause the rewrite understands";
    return -1;
  }
  uint32_t sib[256], pos = 0;
  uint32_t ns = siblings(reg, k, sib, 256, &pos);
  int rc;
  if (ns == 1) {
    put_map_clause(&b, &c, type, always, c.list);
    char *rep = ompdp_sb_take(&b);
    rc = rep ? add_edit(rw, it, it->clause_line, it->clause_column, it->clause_end_line,
                        it->clause_end_column, it->clause, rep, why)
             : (*why = OOM, -1);
    free(rep);
  } else {
    /* Take the item out of its clause and give it one of its own, right
     * after: " map(always, from: b)". */
    rc = ompdp_rw_remove_item(rw, reg, k, why);
    if (!rc) {
      ompdp_sb_putn(&b, " ", 1);
      put_map_clause(&b, &c, type, always, it->expr);
      char *rep = ompdp_sb_take(&b);
      rc = rep ? add_edit(rw, it, it->clause_end_line, it->clause_end_column,
                          it->clause_end_line, it->clause_end_column, "", rep, why)
               : (*why = OOM, -1);
      free(rep);
    }
  }
  clause_free(&c);
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
    if (!expr[0] || (x->implicit && !is_identifier(expr))) {
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
    *why = OOM;
    return -1;
  }
  int rc = add_edit(rw, it, it->loop_line, 1, it->loop_line,
                    it->loop_column + (uint32_t)strlen(kw), kw, rep, why);
  free(rep);
  return rc;
}

int ompdp_rw_host_updates(ompdp_rewrite_t *rw, const ompdp_region_info_t *it, int with_from,
                          const char **why) {
  const char *expr = it->implicit ? it->variable : it->expr;
  if (!expr[0] || (it->implicit && !is_identifier(expr))) {
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
    char indent[513];
    memset(indent, ' ', a->Column - 1);
    indent[a->Column - 1] = '\0';
    /* Insertions at the start of a line: the compiler checked that the
     * statement has its lines to itself. */
    for (int to = 0; to < 2; ++to) {
      if (to ? !w : !with_from)
        continue;
      ompdp_strbuf_t b = {0};
      ompdp_sb_printf(&b, "%s#pragma omp target update %s(%s)\n", indent, to ? "to" : "from", expr);
      char *rep = ompdp_sb_take(&b);
      if (!rep) {
        *why = OOM;
        return -1;
      }
      uint32_t line = to ? a->EndLine + 1 : a->Line;
      int rc = add_edit(rw, it, line, 1, line, 1, "", rep, why);
      free(rep);
      if (rc)
        return -1;
    }
  }
  return 0;
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
static int normalize_edits(ompdp_rewrite_t *rw) {
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
      if (!strcmp(p->file, e->file) && is_insertion(p) && is_insertion(e) &&
          !edit_cmp(p, e)) {
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

/*===- the run's facts, collected as the events stream by -----------------===*/

/* A small open-addressing map from three words to an index + 1. */
typedef struct imap {
  struct imap_slot {
    uint64_t k[3];
    uint32_t v; /* 0: empty */
  } *s;
  size_t cap, n;
} imap_t;

static uint64_t imap_hash(uint64_t a, uint64_t b, uint64_t c) {
  uint64_t h = a * 0x9E3779B97F4A7C15ull ^ (b + 0x632BE59BD9B4E019ull) * 0xC2B2AE3D27D4EB4Full ^
               (c + 0x165667B19E3779F9ull) * 0xD6E8FEB86659FD93ull;
  return h ^ (h >> 29);
}

static uint32_t *imap_slot(imap_t *m, uint64_t a, uint64_t b, uint64_t c, int insert) {
  if (insert && (m->n + 1) * 4 > m->cap * 3) {
    size_t cap = m->cap ? m->cap * 2 : 64;
    struct imap_slot *ns = calloc(cap, sizeof(*ns));
    if (!ns)
      return NULL;
    for (size_t i = 0; i < m->cap; ++i)
      if (m->s[i].v) {
        size_t j = imap_hash(m->s[i].k[0], m->s[i].k[1], m->s[i].k[2]) & (cap - 1);
        while (ns[j].v)
          j = (j + 1) & (cap - 1);
        ns[j] = m->s[i];
      }
    free(m->s);
    m->s = ns;
    m->cap = cap;
  }
  if (!m->cap)
    return NULL;
  size_t j = imap_hash(a, b, c) & (m->cap - 1);
  while (m->s[j].v) {
    if (m->s[j].k[0] == a && m->s[j].k[1] == b && m->s[j].k[2] == c)
      return &m->s[j].v;
    j = (j + 1) & (m->cap - 1);
  }
  if (!insert)
    return NULL;
  m->s[j].k[0] = a;
  m->s[j].k[1] = b;
  m->s[j].k[2] = c;
  m->n++;
  return &m->s[j].v; /* 0: the caller fills it */
}

/* Everything the policies need to know about one site: a map item of one
 * construct (region handle, item), or (region, -1) for the deletes of a
 * construct that did not allocate. Durations are in the event's time unit
 * (converted once, at the end): the operations of one construct on one
 * buffer follow each other, so their sum is the union the analysis would
 * compute. */
typedef struct rw_site {
  uint32_t region;
  int item;
  uint32_t buf;       /* its buffer + 1 */
  int multi_buf;      /* it worked on more than one buffer */
  int foreign;        /* another site used the buffer since this one's last operation */
  int interleaved;    /* ... and then this one came back */
  int touched;
  uint64_t allocs, h2d, d2h, deletes;
  uint64_t alloc_bytes;
  int sizes_differ;
  int host_changed;   /* a copy in (not the first) carried other bytes than the device had */
  int dev_changed;    /* a copy out carried other bytes than the device had received */
  uint64_t dur_alloc, dur_alloc_first, dur_delete, dur_delete_last;
  uint64_t dur_h2d, dur_h2d_first, dur_d2h;
  uint64_t bytes_h2d, bytes_h2d_first, bytes_d2h;
  /* Lifetimes of the allocations it made (unused allocations). */
  uint64_t lt_count, lt_bad, lt_transfers, lt_bytes, lt_dur;
  uint32_t lt_exit_region;
  int lt_exit_item;
  int lt_exit_mixed;
  /* A copy in of it was copied back before being overwritten or freed. */
  int copied_back;
  /* A copy in (its first included) carried other bytes than the device
   * had, or the device's bytes were not known (constructs in a row). */
  int in_changed;
  /* Copies in whose bytes were all zero (zero_transfer). */
  uint64_t h2d_zero;
} rw_site_t;

#define MAX_BUF_SITES 16
#define MAX_BUFFERS (1u << 20)

/* One buffer: a host address mapped to one device. */
typedef struct rw_buf {
  uint64_t addr;
  int dev;
  uint64_t last_hash; /* the bytes the device last had, when known */
  int known;
  uint32_t alloc_site; /* site + 1 of the live allocation */
  uint32_t sites[MAX_BUF_SITES];
  int num_sites;      /* -1: too many, no longer tracked (all disqualified) */
  /* The live allocation's lifetime. */
  int lt_open, lt_ok, lt_in_known;
  uint64_t lt_in_hash;
  uint32_t lt_exit_region;
  int lt_exit_item;
  uint64_t lt_transfers, lt_bytes, lt_dur;
  uint32_t pending; /* site + 1 of a copy in not yet overwritten or freed */
} rw_buf_t;

struct ompdp_rw_facts {
  int host;
  int failed; /* out of memory or too many buffers: no rewrites */
  imap_t site_map, buf_map, dev_map;
  rw_site_t *sites;
  size_t num_sites, cap_sites;
  rw_buf_t *bufs;
  size_t num_bufs, cap_bufs;
  /* The last size asked of ompdp_zero_hash, and its hash. */
  uint64_t zero_bytes, zero_hash;
};

ompdp_rw_facts_t *ompdp_rw_facts_create(int host_device) {
  ompdp_rw_facts_t *f = calloc(1, sizeof(*f));
  if (f)
    f->host = host_device;
  return f;
}

void ompdp_rw_facts_destroy(ompdp_rw_facts_t *f) {
  if (!f)
    return;
  free(f->site_map.s);
  free(f->buf_map.s);
  free(f->dev_map.s);
  free(f->sites);
  free(f->bufs);
  free(f);
}

static int is_h2d(int host, const ompdp_event_t *e) {
  return e->type == OMPDP_EV_TRANSFER && e->src_dev == host && e->dst_dev != host;
}
static int is_d2h(int host, const ompdp_event_t *e) {
  return e->type == OMPDP_EV_TRANSFER && e->dst_dev == host && e->src_dev != host;
}
static uint64_t dur(const ompdp_event_t *e) {
  return e->t_end > e->t_begin ? e->t_end - e->t_begin : 0;
}

static uint32_t site_of(ompdp_rw_facts_t *f, uint32_t region, int item) {
  uint32_t *v = imap_slot(&f->site_map, region, (uint64_t)(int64_t)item, 0, 1);
  if (!v)
    return 0;
  if (*v)
    return *v;
  if (f->num_sites == f->cap_sites) {
    size_t cap = f->cap_sites ? f->cap_sites * 2 : 16;
    rw_site_t *ns = realloc(f->sites, cap * sizeof(*ns));
    if (!ns)
      return 0;
    f->sites = ns;
    f->cap_sites = cap;
  }
  rw_site_t *s = &f->sites[f->num_sites];
  memset(s, 0, sizeof(*s));
  s->region = region;
  s->item = item;
  s->lt_exit_item = -1;
  return *v = (uint32_t)++f->num_sites;
}

/* The buffer's index + 1; 0 when it is not followed (create == 0) or on
 * failure (f->failed set). */
static uint32_t buf_of(ompdp_rw_facts_t *f, uint64_t addr, int dev, int create) {
  uint32_t *v = imap_slot(&f->buf_map, addr, (uint64_t)(int64_t)dev, 0, create);
  if (!v) {
    if (create)
      f->failed = -1;
    return 0;
  }
  if (*v || !create)
    return *v;
  if (f->num_bufs == MAX_BUFFERS) {
    f->failed = 1; /* too many to follow: no rewrites, but not an error */
    return 0;
  }
  if (f->num_bufs == f->cap_bufs) {
    size_t cap = f->cap_bufs ? f->cap_bufs * 2 : 16;
    rw_buf_t *nb = realloc(f->bufs, cap * sizeof(*nb));
    if (!nb) {
      f->failed = -1;
      return 0;
    }
    f->bufs = nb;
    f->cap_bufs = cap;
  }
  rw_buf_t *b = &f->bufs[f->num_bufs];
  memset(b, 0, sizeof(*b));
  b->addr = addr;
  b->dev = dev;
  b->lt_exit_item = -1;
  return *v = (uint32_t)++f->num_bufs;
}

/* Another site's operation on b, or this site's: updates who interleaves
 * with whom. */
static void touch(ompdp_rw_facts_t *f, rw_buf_t *b, uint32_t bi, uint32_t site) {
  if (b->num_sites < 0)
    return;
  int found = 0;
  for (int i = 0; i < b->num_sites; ++i) {
    if (b->sites[i] == site)
      found = 1;
    else
      f->sites[b->sites[i] - 1].foreign = 1;
  }
  if (!site)
    return; /* an operation no site owns (no region table) */
  rw_site_t *s = &f->sites[site - 1];
  if (s->touched && s->foreign)
    s->interleaved = 1;
  s->foreign = 0;
  s->touched = 1;
  if (s->buf && s->buf != bi)
    s->multi_buf = 1;
  s->buf = bi;
  if (!found) {
    if (b->num_sites == MAX_BUF_SITES) {
      for (int i = 0; i < b->num_sites; ++i)
        f->sites[b->sites[i] - 1].interleaved = 1;
      s->interleaved = 1;
      b->num_sites = -1;
    } else {
      b->sites[b->num_sites++] = site;
    }
  }
}

/* Ends the live allocation of b at delete e: credits its lifetime to the
 * site that allocated. */
static void end_lifetime(ompdp_rw_facts_t *f, rw_buf_t *b, const ompdp_event_t *e) {
  if (!b->lt_open || !b->alloc_site)
    return;
  rw_site_t *s = &f->sites[b->alloc_site - 1];
  int ok = b->lt_ok && (!b->lt_exit_region || b->lt_exit_region == e->region);
  s->lt_count++;
  s->lt_bad += !ok;
  if (s->lt_exit_region && s->lt_exit_region != e->region)
    s->lt_exit_mixed = 1;
  s->lt_exit_region = e->region;
  if (b->lt_exit_item >= 0)
    s->lt_exit_item = b->lt_exit_item;
  s->lt_transfers += b->lt_transfers;
  s->lt_bytes += b->lt_bytes;
  s->lt_dur += b->lt_dur + dur(e);
  b->lt_open = 0;
}

int ompdp_rw_facts_feed(ompdp_rw_facts_t *f, const ompdp_event_t *e) {
  if (f->failed)
    return f->failed < 0 ? -1 : 0;
  if (!(e->flags & OMPDP_EVF_COMPLETE) ||
      (e->type != OMPDP_EV_ALLOC && e->type != OMPDP_EV_TRANSFER && e->type != OMPDP_EV_DELETE))
    return 0;
  int host = f->host;
  uint32_t bi = 0;
  int create = e->region != 0;
  if (e->type == OMPDP_EV_DELETE) {
    uint32_t *d = imap_slot(&f->dev_map, e->src_addr, (uint64_t)(int64_t)e->src_dev, 0, 0);
    if (d) {
      bi = *d;
      *d = 0; /* freed: a later allocation there may be another buffer */
    }
  } else if (e->type == OMPDP_EV_ALLOC || is_h2d(host, e)) {
    bi = buf_of(f, e->src_addr, e->dst_dev, create);
  } else if (is_d2h(host, e)) {
    bi = buf_of(f, e->dst_addr, e->src_dev, create);
  }
  if (e->type == OMPDP_EV_ALLOC) {
    /* Remember which buffer lives at this device address (or forget an
     * older one that lived there). */
    uint32_t *d = imap_slot(&f->dev_map, e->dst_addr, (uint64_t)(int64_t)e->dst_dev, 0, bi != 0);
    if (d)
      *d = bi;
    else if (bi)
      goto oom;
  }
  if (!bi)
    return f->failed < 0 ? -1 : 0;
  rw_buf_t *b = &f->bufs[bi - 1];

  /* The site: deletes carry no item; one by the construct that allocated
   * belongs to that allocation's site. */
  uint32_t si = 0;
  if (e->region) {
    if (e->type == OMPDP_EV_DELETE && b->alloc_site &&
        f->sites[b->alloc_site - 1].region == e->region)
      si = b->alloc_site;
    else
      si = site_of(f, e->region, e->type == OMPDP_EV_DELETE ? -1 : e->item);
    if (!si)
      goto oom;
    b = &f->bufs[bi - 1];
  }
  touch(f, b, bi, si);
  rw_site_t *s = si ? &f->sites[si - 1] : NULL;

  /* Lifetime of the live allocation: only its own copy in, and copies
   * back that return what went in, may happen while it is unused. */
  if (b->lt_open && e->type == OMPDP_EV_TRANSFER) {
    if (is_h2d(host, e) && si && si == b->alloc_site) {
      b->lt_in_known = (e->flags & OMPDP_EVF_HASHED) != 0;
      b->lt_in_hash = e->hash;
    } else if (is_d2h(host, e) && e->region &&
               (!b->lt_exit_region || b->lt_exit_region == e->region) && b->lt_in_known &&
               (e->flags & OMPDP_EVF_HASHED) && e->hash == b->lt_in_hash) {
      b->lt_exit_region = e->region;
      if (e->item >= 0)
        b->lt_exit_item = e->item;
    } else {
      b->lt_ok = 0;
    }
    b->lt_transfers++;
    b->lt_bytes += e->bytes;
    b->lt_dur += dur(e);
  }

  switch (e->type) {
  case OMPDP_EV_ALLOC:
    b->pending = 0;
    b->alloc_site = si;
    b->lt_open = 1;
    b->lt_ok = 1;
    b->lt_in_known = 0;
    b->lt_exit_region = 0;
    b->lt_exit_item = -1;
    b->lt_transfers = b->lt_bytes = 0;
    b->lt_dur = dur(e);
    if (s) {
      if (s->allocs && s->alloc_bytes != e->bytes)
        s->sizes_differ = 1;
      if (!s->allocs)
        s->dur_alloc_first = dur(e);
      s->alloc_bytes = e->bytes;
      s->allocs++;
      s->dur_alloc += dur(e);
    }
    break;
  case OMPDP_EV_DELETE:
    b->pending = 0;
    end_lifetime(f, b, e);
    b->alloc_site = 0;
    if (s) {
      s->deletes++;
      s->dur_delete += dur(e);
      s->dur_delete_last = dur(e);
    }
    break;
  default: {
    int hashed = (e->flags & OMPDP_EVF_HASHED) != 0;
    int same = b->known && hashed && e->hash == b->last_hash;
    if (is_h2d(host, e)) {
      b->pending = si;
      if (s) {
        if (s->h2d && !same)
          s->host_changed = 1;
        if (!same)
          s->in_changed = 1;
        if (!s->h2d) {
          s->dur_h2d_first = dur(e);
          s->bytes_h2d_first = e->bytes;
        }
        s->h2d++;
        s->dur_h2d += dur(e);
        s->bytes_h2d += e->bytes;
        if (hashed && e->bytes) {
          if (f->zero_bytes != e->bytes) {
            f->zero_bytes = e->bytes;
            f->zero_hash = ompdp_zero_hash(e->bytes);
          }
          s->h2d_zero += e->hash == f->zero_hash;
        }
      }
    } else {
      if (b->pending)
        f->sites[b->pending - 1].copied_back = 1;
      if (s) {
        if (!same)
          s->dev_changed = 1;
        s->d2h++;
        s->dur_d2h += dur(e);
        s->bytes_d2h += e->bytes;
      }
    }
    b->known = hashed;
    b->last_hash = e->hash;
    break;
  }
  }
  return 0;
oom:
  f->failed = -1;
  return -1;
}

/*===- policy ---------------------------------------------------------------===*/

/* The region's records, for the text primitives. */
typedef struct region_items {
  ompdp_region_info_t *items;
  ompdp_rw_region_t reg;
} region_items_t;

static int load_region(ompdp_describe_fn describe, uint32_t region, region_items_t *out) {
  ompdp_region_info_t head;
  memset(out, 0, sizeof(*out));
  if (describe(region, -1, &head) || head.num_items == 0 || head.num_items > 4096)
    return -1;
  out->items = calloc(head.num_items, sizeof(*out->items));
  if (!out->items)
    return -1;
  for (uint32_t j = 0; j < head.num_items; ++j)
    if (describe(region, (int)j, &out->items[j])) {
      free(out->items);
      out->items = NULL;
      return -1;
    }
  out->reg.items = out->items;
  out->reg.num_items = head.num_items;
  return 0;
}

static const char *basename_of(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static int has_to(ompdp_map_type_t t) { return t == OMPDP_MT_TO || t == OMPDP_MT_TOFROM; }
static int has_from(ompdp_map_type_t t) { return t == OMPDP_MT_FROM || t == OMPDP_MT_TOFROM; }
/* A construct that maps for a structured block: target, target data. */
static int is_structured(ompdp_construct_kind_t k) {
  return k == OMPDP_CK_TARGET || k == OMPDP_CK_TARGET_DATA;
}

typedef struct plan_ctx {
  const ompdp_rw_facts_t *facts;
  ompdp_describe_fn describe;
  uint64_t mult; /* ns = time * mult >> 32; 0: time is in ns */
} plan_ctx_t;

static uint64_t to_ns(const plan_ctx_t *c, uint64_t t) {
  return c->mult ? (uint64_t)(((unsigned __int128)t * c->mult) >> 32) : t;
}

/* Attaches the saving and words to the finding's last rewrite and returns
 * 0, or drops that rewrite and returns -1 when its text could not be
 * made (or memory ran out). */
static int finish(ompdp_finding_t *f, int text_rc, uint64_t transfers, uint64_t allocs,
                  uint64_t bytes, uint64_t time_ns, ompdp_strbuf_t *desc, ompdp_strbuf_t *assume) {
  ompdp_rewrite_t *rw = &f->rewrites[f->num_rewrites - 1];
  if (!text_rc) {
    rw->transfers_removed = transfers;
    rw->allocs_removed = allocs;
    rw->bytes_removed = bytes;
    rw->time_saved_ns = time_ns;
    rw->description = ompdp_sb_take(desc);
    rw->assumption = assume && assume->len ? ompdp_sb_take(assume) : NULL;
    if (rw->description && (!assume || !assume->oom)) {
      free(assume ? assume->d : NULL);
      return 0;
    }
  }
  free(desc->d);
  free(assume ? assume->d : NULL);
  ompdp_rewrite_free(rw);
  f->num_rewrites--;
  return -1;
}

/* Duplicate transfers, round trips and repeated allocations of an item of
 * a target (or target data) construct inside a loop: keep it on the device
 * across the loop. A plan says how, for one site; the plans of one loop
 * become one rewrite (one `target data` with a map per item). */
typedef struct keep_plan {
  uint32_t site;
  region_items_t ri; /* owned */
  const ompdp_region_info_t *it;
  ompdp_map_type_t outer;
  int inner_from;
  /* The target update variant: the host's statements in the loop that
   * use the item get `target update from` before (reads, when the device
   * changes it) and `target update to` after (writes). */
  int update;
  uint32_t num_from, num_to; /* updates inserted, per iteration (at most) */
  int lower_bound;           /* some run only under a condition */
  uint64_t transfers, allocs, bytes, time;
  int dev;
  size_t group;
} keep_plan_t;

/* What the compiler says the host does with the item in the loop: the
 * number of statements that read (or write: a partial write needs the
 * device's values first) and that write it. 0 when each runs once per
 * iteration, 1 when some run at most once (under a condition, or in a body
 * that can leave the iteration after the construct): the counts are then
 * upper bounds. -1 when some use is not a statement a directive can go
 * around, or may run more than once per iteration, so that updates there
 * cannot be placed or counted. */
static int host_uses(const ompdp_region_info_t *it, uint32_t *uses, uint32_t *writes) {
  int bound = 0;
  *uses = *writes = 0;
  for (uint32_t k = 0; k < it->num_host_accesses; ++k) {
    const ompdp_host_access_t *a = &it->host_accesses[k];
    if (!(a->Flags & OMPDP_HA_STATEMENT) ||
        !(a->Flags & (OMPDP_HA_EVERY_TIME | OMPDP_HA_AT_MOST_ONCE)) || !a->Line || !a->Column ||
        a->Column > 512 || !a->EndLine)
      return -1;
    if (!(a->Flags & OMPDP_HA_EVERY_TIME))
      bound = 1;
    ++*uses;
    if (a->Access == OMPDP_ACCESS_WRITE || a->Access == OMPDP_ACCESS_READ_WRITE)
      ++*writes;
  }
  return bound;
}

/* 0 and a plan, or -1 when keeping the item resident is not safe or not
 * possible. Two ways to keep the host's view of the item: the construct
 * copies it back every iteration (`map(always, from: x)`), or the copies
 * move to the host statements that use it (`target update`); the one that
 * moves less is taken. */
static int make_keep_plan(const plan_ctx_t *c, uint32_t si, keep_plan_t *p) {
  const rw_site_t *s = &c->facts->sites[si];
  memset(p, 0, sizeof(*p));
  if (s->item < 0 || !s->buf)
    return -1;
  /* One buffer, nobody else's operations on it in between, the same size
   * every time. */
  if (s->multi_buf || s->interleaved || s->sizes_differ || s->allocs < 2 ||
      s->deletes != s->allocs)
    return -1;
  if (load_region(c->describe, s->region, &p->ri))
    return -1;
  if ((uint32_t)s->item >= p->ri.reg.num_items)
    goto no;
  const ompdp_region_info_t *it = &p->ri.items[s->item];
  ompdp_map_type_t mt = it->map_type;
  if (it->loop_kind == OMPDP_LK_NONE || it->nowait || !is_structured(it->construct) ||
      (!has_to(mt) && !has_from(mt) && mt != OMPDP_MT_ALLOC))
    goto no;
  if (it->modifiers & OMPDP_MOD_ALWAYS)
    goto no; /* always copies even when present: keeping it resident saves nothing */
  /* A `to` item the region writes: each iteration starts from the host's
   * copy today, and would start from the previous iteration's writes. The
   * run cannot see such writes; the compiler's read/write facts can. */
  if (has_to(mt) && !has_from(mt) &&
      (it->access == OMPDP_ACCESS_WRITE || it->access == OMPDP_ACCESS_READ_WRITE))
    goto no;
  int dev_changes = has_from(mt) && (s->dev_changed || !has_to(mt));
  uint64_t k = s->allocs; /* executions of the construct: iterations */
  uint64_t before = s->h2d + s->d2h;
  uint64_t in_first = has_to(mt) ? 1 : 0;
  /* The `always, from` way: the host's copies in must all have carried
   * what the device had (else the host changed it in between). */
  int always_ok = !s->host_changed && s->h2d >= in_first;
  uint64_t always_after = in_first + (dev_changes ? s->d2h : 0);
  /* The update way: every host use known, placeable and run at most once
   * per iteration (the updates are counted as if each ran every time, so
   * the saving is then a lower bound); a host that changed the data must
   * have a write the compiler saw (else it wrote through something the
   * facts miss). */
  uint32_t uses = 0, writes = 0;
  int bound = host_uses(it, &uses, &writes);
  int update_ok = bound >= 0 && (!s->host_changed || writes) && s->h2d >= in_first &&
                  (!dev_changes || s->d2h >= 1);
  uint32_t num_from = dev_changes ? uses : 0, num_to = writes;
  /* A `from` item the host uses in the loop: the outer map must bring the
   * host's values in first (a `target update from` before the first
   * kernel would fetch uninitialised device memory otherwise). */
  uint64_t up_in = in_first || num_from ? 1 : 0;
  uint64_t update_after = up_in + (dev_changes ? 1 : 0) + k * (num_from + num_to);
  /* With updates under a condition, how often they run is not known: the
   * update way is taken when even if they ran every time it would move no
   * more than the program does now (the saving is then a lower bound);
   * a copy back in every iteration would move more whenever the condition
   * fails more than once. */
  if (update_ok && update_after <= before &&
      (!always_ok || update_after < always_after || bound == 1)) {
    p->update = 1;
    p->num_from = num_from;
    p->num_to = num_to;
    p->lower_bound = bound == 1 && num_from + num_to > 0;
  } else if (!always_ok) {
    goto no;
  }
  p->site = si;
  p->it = it;
  p->dev = c->facts->bufs[s->buf - 1].dev;
  p->allocs = s->allocs - 1;
  p->time = (s->dur_alloc - s->dur_alloc_first) + (s->dur_delete - s->dur_delete_last);
  if (p->update) {
    p->outer = up_in ? (dev_changes ? OMPDP_MT_TOFROM : OMPDP_MT_TO)
                     : (dev_changes ? OMPDP_MT_FROM : OMPDP_MT_ALLOC);
    uint64_t moved = k * (num_from + num_to);
    uint64_t avg_h2d = s->h2d ? s->dur_h2d / s->h2d : 0;
    uint64_t avg_d2h = s->d2h ? s->dur_d2h / s->d2h : 0;
    uint64_t size = s->alloc_bytes;
    uint64_t bytes_before = s->bytes_h2d + s->bytes_d2h;
    uint64_t bytes_after = (up_in ? size : 0) +
                           (dev_changes ? s->bytes_d2h / s->d2h : 0) + moved * size;
    uint64_t t_before = s->dur_h2d + s->dur_d2h;
    uint64_t t_after = (up_in ? (in_first ? s->dur_h2d_first : avg_d2h) : 0) +
                       (dev_changes ? avg_d2h : 0) +
                       k * (num_from * avg_d2h + num_to * avg_h2d);
    p->transfers = before - update_after;
    p->bytes = bytes_before > bytes_after ? bytes_before - bytes_after : 0;
    p->time += t_before > t_after ? t_before - t_after : 0;
    return 0;
  }
  p->inner_from = dev_changes;
  p->outer = has_to(mt) ? OMPDP_MT_TO : OMPDP_MT_ALLOC;
  if (s->h2d > 1) {
    p->transfers += s->h2d - 1;
    p->bytes += s->bytes_h2d - s->bytes_h2d_first;
    p->time += s->dur_h2d - s->dur_h2d_first;
  }
  if (!p->inner_from) {
    p->transfers += s->d2h;
    p->bytes += s->bytes_d2h;
    p->time += s->dur_d2h;
  }
  return 0;
no:
  free(p->ri.items);
  p->ri.items = NULL;
  return -1;
}

static const char *plan_name(const keep_plan_t *p) {
  return p->it->implicit ? p->it->variable : p->it->expr;
}

/* One rewrite for the plans ps[0..n) of one loop, into rw (zeroed).
 * Returns 0, or -1 (rw then holds whatever was built: free it). */
static int build_keep(const plan_ctx_t *c, ompdp_rewrite_t *rw, keep_plan_t *const *ps,
                      size_t n) {
  const ompdp_region_info_t *items[64];
  ompdp_map_type_t types[64];
  const char *why = NULL;
  if (n > 64)
    return -1;
  uint64_t transfers = 0, allocs = 0, bytes = 0, time = 0;
  for (size_t i = 0; i < n; ++i) {
    items[i] = ps[i]->it;
    types[i] = ps[i]->outer;
    transfers += ps[i]->transfers;
    allocs += ps[i]->allocs;
    bytes += ps[i]->bytes;
    time += ps[i]->time;
    rw->lower_bound |= ps[i]->lower_bound;
  }
  rw->kind = OMPDP_RK_KEEP_RESIDENT;
  int rc = ompdp_rw_keep_resident(rw, items, types, n, &why);
  for (size_t i = 0; i < n && !rc; ++i)
    if (ps[i]->inner_from)
      rc = ompdp_rw_set_map_type(rw, &ps[i]->ri.reg, (uint32_t)c->facts->sites[ps[i]->site].item,
                                 OMPDP_MT_FROM, 1, &why);
    else if (ps[i]->update)
      rc = ompdp_rw_host_updates(rw, ps[i]->it, ps[i]->num_from != 0, &why);
  if (rc || normalize_edits(rw))
    return -1;

  const ompdp_region_info_t *it = ps[0]->it;
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_puts(&d, "keep ");
  for (size_t i = 0; i < n; ++i)
    ompdp_sb_printf(&d, "%s`%s`", i == 0 ? "" : i + 1 == n ? " and " : ", ", plan_name(ps[i]));
  ompdp_sb_printf(&d,
                  " on device %d for the whole %s loop at %s:%" PRIu32 ": `#pragma omp target data",
                  ps[0]->dev, ompdp_loop_kind_name(it->loop_kind), basename_of(it->file),
                  it->loop_line);
  for (size_t i = 0; i < n; ++i)
    ompdp_sb_printf(&d, " map(%s: %s)", ompdp_map_type_name(ps[i]->outer), plan_name(ps[i]));
  ompdp_sb_puts(&d, "` before it");
  for (size_t i = 0; i < n; ++i) {
    const keep_plan_t *p = ps[i];
    if (p->inner_from)
      ompdp_sb_printf(&d, "; the %s construct at line %" PRIu32 " copies `%s` back with "
                    "`map(always, from: %s)`",
                ompdp_construct_kind_name(p->it->construct), p->it->line, plan_name(p),
                plan_name(p));
    else if (p->update) {
      const ompdp_region_info_t *x = p->it;
      int any = 0;
      for (uint32_t k = 0; k < x->num_host_accesses; ++k) {
        const ompdp_host_access_t *h = &x->host_accesses[k];
        int w = h->Access == OMPDP_ACCESS_WRITE || h->Access == OMPDP_ACCESS_READ_WRITE;
        if (p->num_from)
          ompdp_sb_printf(&d, "%s`target update from(%s)` before line %" PRIu32,
                          any++ ? ", " : "; ", plan_name(p), h->Line);
        if (w)
          ompdp_sb_printf(&d, "%s`target update to(%s)` after line %" PRIu32, any++ ? ", " : "; ",
                    plan_name(p), h->EndLine);
      }
      if (!x->num_host_accesses)
        ompdp_sb_printf(&d, "; no host code in the loop uses `%s`%s", plan_name(p),
                  has_from(p->outer) ? ", so it comes back once, after the loop" : "");
      else if (has_from(p->outer))
        ompdp_sb_printf(&d, "; it comes back once more after the loop");
      ompdp_sb_printf(&a,
                "%sno host code in the loop reaches `%s` through another pointer (the "
                "compiler follows the uses of `%s` itself)",
                a.len ? "; " : "", x->variable, x->variable);
    } else if (has_from(p->it->map_type))
      ompdp_sb_printf(&d, "; the device never changed `%s`, so nothing needs to come back",
                plan_name(p));
    if (has_to(p->it->map_type) && !has_from(p->it->map_type) &&
        p->it->access == OMPDP_ACCESS_UNKNOWN)
      ompdp_sb_printf(&a,
                "%sthe region does not write `%s` (the run cannot see writes to a `to` item; "
                "with them, one iteration would see the previous one's values)",
                a.len ? "; " : "", p->it->variable);
    if (strcmp(plan_name(p), p->it->variable))
      ompdp_sb_printf(&a, "%sthe names in `%s` mean the same before the loop", a.len ? "; " : "",
                plan_name(p));
  }
  rw->transfers_removed = transfers;
  rw->allocs_removed = allocs;
  rw->bytes_removed = bytes;
  rw->time_saved_ns = to_ns(c, time);
  rw->description = ompdp_sb_take(&d);
  rw->assumption = a.len ? ompdp_sb_take(&a) : (free(a.d), NULL);
  return rw->description && (!a.oom) ? 0 : -1;
}

/* The keep-resident rewrites of the whole report: plans per site, grouped
 * by loop, each group's rewrite copied to every finding it fixes. When a
 * group's edits cannot be combined, each plan gets a rewrite of its own. */
static int keep_resident_all(const plan_ctx_t *c, ompdp_report_t *r, const size_t *removed) {
  const ompdp_rw_facts_t *facts = c->facts;
  int rc = -1;
  int *plan_of = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(int)); /* +1, -1: none */
  keep_plan_t *plans = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(*plans));
  size_t np = 0, ng = 0;
  ompdp_rewrite_t *groups = NULL;
  int *group_ok = NULL;
  if (!plan_of || !plans)
    goto out;
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    if (f->kind != OMPDP_FK_DUPLICATE_TRANSFER && f->kind != OMPDP_FK_ROUND_TRIP &&
        f->kind != OMPDP_FK_REPEATED_ALLOC)
      continue;
    uint32_t *si = imap_slot((imap_t *)&facts->site_map, f->rt_region,
                             (uint64_t)(int64_t)f->item, 0, 0);
    if (!f->rt_region || f->item < 0 || !si || !*si || plan_of[*si - 1] || removed[*si - 1])
      continue;
    if (make_keep_plan(c, *si - 1, &plans[np]) == 0) {
      plan_of[*si - 1] = (int)++np;
    } else {
      plan_of[*si - 1] = -1;
    }
  }
  /* Group by loop. */
  for (size_t i = 0; i < np; ++i) {
    plans[i].group = ng;
    for (size_t j = 0; j < i; ++j)
      if (plans[j].it->loop_line == plans[i].it->loop_line &&
          plans[j].it->loop_column == plans[i].it->loop_column &&
          !strcmp(plans[j].it->file, plans[i].it->file)) {
        plans[i].group = plans[j].group;
        break;
      }
    if (plans[i].group == ng)
      ++ng;
  }
  groups = calloc(ng ? ng : 1, sizeof(*groups));
  group_ok = calloc(ng ? ng : 1, sizeof(*group_ok));
  if (!groups || !group_ok)
    goto out;
  keep_plan_t *members[64];
  for (size_t g = 0; g < ng; ++g) {
    size_t n = 0;
    for (size_t i = 0; i < np && n < 64; ++i)
      if (plans[i].group == g)
        members[n++] = &plans[i];
    group_ok[g] = build_keep(c, &groups[g], members, n) == 0;
    if (!group_ok[g])
      ompdp_rewrite_free(&groups[g]);
  }
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    if (f->kind != OMPDP_FK_DUPLICATE_TRANSFER && f->kind != OMPDP_FK_ROUND_TRIP &&
        f->kind != OMPDP_FK_REPEATED_ALLOC)
      continue;
    uint32_t *si = imap_slot((imap_t *)&facts->site_map, f->rt_region,
                             (uint64_t)(int64_t)f->item, 0, 0);
    if (!f->rt_region || f->item < 0 || !si || !*si || plan_of[*si - 1] <= 0)
      continue;
    keep_plan_t *p = &plans[plan_of[*si - 1] - 1];
    ompdp_rewrite_t own = {0};
    const ompdp_rewrite_t *src = &groups[p->group];
    if (!group_ok[p->group]) {
      keep_plan_t *one = p;
      if (build_keep(c, &own, &one, 1)) {
        ompdp_rewrite_free(&own);
        continue;
      }
      src = &own;
    }
    ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_KEEP_RESIDENT);
    int bad = !rw || ompdp_rewrite_copy(rw, src);
    ompdp_rewrite_free(&own);
    if (bad)
      goto out;
  }
  rc = 0;
out:
  for (size_t i = 0; plans && i < np; ++i)
    free(plans[i].ri.items);
  for (size_t g = 0; groups && g < ng; ++g)
    ompdp_rewrite_free(&groups[g]);
  free(groups);
  free(group_ok);
  free(plans);
  free(plan_of);
  return rc;
}

/* Constructs in a row, not in a loop (the paper's Listing 1): the map items
 * of one variable in sibling constructs of one block, each allocating,
 * copying and freeing the same buffer, become one `target data` around
 * them (`{` before the first, `}` after the last), when nothing between
 * them can see the difference: no host code in between uses the item (the
 * compiler's host-access facts), no declaration, label or jump lies in
 * between (the braces would change their meaning), and the run shows that
 * every copy in after the first carried what the device already had. */
#define MAX_ROW 16

static const char *item_name(const ompdp_region_info_t *it) {
  return it->implicit ? it->variable : it->expr;
}

/* 0 and the rewrite in rw, or -1: the sites sis[0..n) of one buffer. */
static int build_row(const plan_ctx_t *c, const uint32_t *sis, size_t n, ompdp_rewrite_t *rw) {
  const ompdp_rw_facts_t *facts = c->facts;
  region_items_t ri[MAX_ROW];
  const ompdp_region_info_t *its[MAX_ROW];
  uint32_t order[MAX_ROW];
  size_t loaded = 0;
  int rc = -1;
  const char *why = NULL;
  if (n < 2 || n > MAX_ROW)
    return -1;
  for (; loaded < n; ++loaded) {
    const rw_site_t *s = &facts->sites[sis[loaded]];
    if (s->item < 0 || load_region(c->describe, s->region, &ri[loaded]))
      goto out;
    if ((uint32_t)s->item >= ri[loaded].reg.num_items) {
      ++loaded;
      goto out;
    }
    its[loaded] = &ri[loaded].items[s->item];
    order[loaded] = (uint32_t)loaded;
  }
  /* Source order. */
  for (size_t i = 1; i < n; ++i)
    for (size_t j = i; j > 0 && its[order[j - 1]]->stmt_offset > its[order[j]]->stmt_offset; --j) {
      uint32_t t = order[j];
      order[j] = order[j - 1];
      order[j - 1] = t;
    }
  const ompdp_region_info_t *first = its[order[0]], *last = its[order[n - 1]];
  const rw_site_t *s0 = &facts->sites[sis[order[0]]];
  int to = 0, from = 0;
  uint64_t before = 0, bytes_before = 0, dur_before = 0, ops = 0;
  for (size_t i = 0; i < n; ++i) {
    const rw_site_t *s = &facts->sites[sis[order[i]]];
    const ompdp_region_info_t *it = its[order[i]];
    ompdp_map_type_t mt = it->map_type;
    if (s->multi_buf || s->sizes_differ || !s->allocs || s->allocs != s->deletes ||
        s->allocs != s0->allocs || s->buf != s0->buf || (i && s->in_changed) ||
        it->loop_kind != OMPDP_LK_NONE || !it->block || it->block != first->block ||
        strcmp(it->file, first->file) || strcmp(it->source_file, first->source_file) ||
        !is_structured(it->construct) || it->nowait || (it->modifiers & OMPDP_MOD_ALWAYS) ||
        !it->stmt_line || !it->stmt_length || strcmp(item_name(it), item_name(first)) ||
        (!has_to(mt) && !has_from(mt) && mt != OMPDP_MT_ALLOC))
      goto out;
    if (i && it->stmt_offset < its[order[i - 1]]->stmt_offset + its[order[i - 1]]->stmt_length)
      goto out; /* the same construct twice, or nested */
    /* A `to` item the device writes: the next construct would start from
     * the host's copy today, from the device's writes then. */
    if (has_to(mt) && !has_from(mt) &&
        (it->access == OMPDP_ACCESS_WRITE || it->access == OMPDP_ACCESS_READ_WRITE))
      goto out;
    /* Host code in the block that uses the item must lie outside the row. */
    for (uint32_t k = 0; k < it->num_host_accesses; ++k) {
      const ompdp_host_access_t *a = &it->host_accesses[k];
      if (!a->Length || (a->Offset < last->stmt_offset + last->stmt_length &&
                         a->Offset + a->Length > first->stmt_offset))
        goto out;
    }
    to |= has_to(mt);
    from |= has_from(mt) && (s->dev_changed || !has_to(mt));
    before += s->h2d + s->d2h;
    bytes_before += s->bytes_h2d + s->bytes_d2h;
    dur_before += s->dur_h2d + s->dur_d2h + s->dur_alloc + s->dur_delete;
    ops += s->h2d + s->d2h + s->allocs + s->deletes;
  }
  if (first->block_decls != last->block_decls || first->block_jumps != last->block_jumps ||
      !last->stmt_own_lines || !last->stmt_end_line || first->stmt_column > 512)
    goto out;
  uint64_t m = s0->allocs; /* executions of the row */
  uint64_t after = m * (uint64_t)(to + from);
  if (after > before)
    goto out;
  const char *type = ompdp_map_type_name(to && from ? OMPDP_MT_TOFROM
                                         : to       ? OMPDP_MT_TO
                                         : from     ? OMPDP_MT_FROM
                                                    : OMPDP_MT_ALLOC);
  const char *expr = item_name(first);
  if (!expr[0] || (first->implicit && !is_identifier(expr)))
    goto out;

  char indent[513];
  memset(indent, ' ', first->stmt_column - 1);
  indent[first->stmt_column - 1] = '\0';
  ompdp_strbuf_t open = {0}, close = {0};
  ompdp_sb_printf(&open, "%s#pragma omp target data map(%s: %s)\n%s{\n", indent, type, expr,
                  indent);
  ompdp_sb_printf(&close, "%s}\n", indent);
  char *o = ompdp_sb_take(&open), *cl = ompdp_sb_take(&close);
  rw->kind = OMPDP_RK_KEEP_RESIDENT;
  int erc = !o || !cl ||
            add_edit(rw, first, first->stmt_line, 1, first->stmt_line, 1, "", o, &why) ||
            add_edit(rw, first, last->stmt_end_line + 1, 1, last->stmt_end_line + 1, 1, "", cl,
                     &why) ||
            normalize_edits(rw);
  free(o);
  free(cl);
  if (erc)
    goto out;

  uint64_t size = s0->alloc_bytes;
  uint64_t avg = ops ? dur_before / ops : 0;
  uint64_t bytes_after = after * size;
  uint64_t dur_after = avg * (after + 2 * m);
  rw->transfers_removed = before - after;
  rw->allocs_removed = (n - 1) * m;
  rw->bytes_removed = bytes_before > bytes_after ? bytes_before - bytes_after : 0;
  rw->time_saved_ns = to_ns(c, dur_before > dur_after ? dur_before - dur_after : 0);
  ompdp_strbuf_t d = {0}, a = {0};
  ompdp_sb_printf(&d, "keep `%s` on device %d across the %zu constructs in a row at %s:%" PRIu32,
            expr, facts->bufs[s0->buf - 1].dev, n, basename_of(first->file), first->line);
  for (size_t i = 1; i < n; ++i)
    ompdp_sb_printf(&d, "%s%" PRIu32, i + 1 == n ? " and " : ", ", its[order[i]]->line);
  ompdp_sb_printf(&d, ": `#pragma omp target data map(%s: %s)` and `{` before line %" PRIu32
                ", `}` after line %" PRIu32 "; no host code between them uses `%s`",
            type, expr, first->stmt_line, last->stmt_end_line, expr);
  if (from)
    ompdp_sb_printf(&d, ", and it comes back once, after the last");
  ompdp_sb_printf(&a, "no host code between them reaches `%s` through another pointer",
            first->variable);
  rw->description = ompdp_sb_take(&d);
  rw->assumption = ompdp_sb_take(&a);
  rc = rw->description && rw->assumption ? 0 : -1;
out:
  for (size_t i = 0; i < loaded; ++i)
    free(ri[i].items);
  return rc;
}

static int is_keep_kind(const ompdp_finding_t *f) {
  return f->kind == OMPDP_FK_DUPLICATE_TRANSFER || f->kind == OMPDP_FK_ROUND_TRIP ||
         f->kind == OMPDP_FK_REPEATED_ALLOC;
}

/* The site index + 1 of a finding that keeping data resident fixes, or 0. */
static uint32_t keep_site(const ompdp_rw_facts_t *facts, const ompdp_finding_t *f) {
  if (!is_keep_kind(f) || !f->rt_region || f->item < 0)
    return 0;
  uint32_t *si = imap_slot((imap_t *)&facts->site_map, f->rt_region, (uint64_t)(int64_t)f->item,
                           0, 0);
  return si ? *si : 0;
}

/* The rewrites for constructs in a row, copied to every finding of theirs
 * (findings a loop's rewrite already fixes are left alone). */
static int row_resident_all(const plan_ctx_t *c, ompdp_report_t *r, const size_t *removed) {
  const ompdp_rw_facts_t *facts = c->facts;
  char *done = calloc(facts->num_sites ? facts->num_sites : 1, 1);
  if (!done)
    return -1;
  int rc = 0;
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    uint32_t si = keep_site(facts, f);
    if (!si || done[si - 1] || f->num_rewrites)
      continue;
    const rw_site_t *s = &facts->sites[si - 1];
    if (!s->buf)
      continue;
    const rw_buf_t *b = &facts->bufs[s->buf - 1];
    if (b->num_sites < 2)
      continue;
    uint32_t sis[MAX_ROW];
    size_t n = 0;
    int ok = 1;
    for (int k = 0; k < b->num_sites && k < MAX_ROW; ++k) {
      uint32_t x = b->sites[k] - 1;
      done[x] = 1;
      if (removed[x] || facts->sites[x].item < 0)
        ok = 0;
      else
        sis[n++] = x;
    }
    ompdp_rewrite_t rw = {0};
    if (!ok || build_row(c, sis, n, &rw)) {
      ompdp_rewrite_free(&rw);
      continue;
    }
    for (size_t j = 0; j < r->num_findings && !rc; ++j) {
      ompdp_finding_t *g = &r->findings[j];
      uint32_t sj = keep_site(facts, g);
      int member = 0;
      for (size_t k = 0; sj && k < n; ++k)
        member |= sis[k] == sj - 1;
      if (!member || g->num_rewrites)
        continue;
      ompdp_rewrite_t *dst = ompdp_finding_add_rewrite(g, OMPDP_RK_KEEP_RESIDENT);
      if (!dst || ompdp_rewrite_copy(dst, &rw))
        rc = -1;
    }
    ompdp_rewrite_free(&rw);
  }
  free(done);
  return rc;
}

/* The item of a region that maps variable: the only one, else -1. */
static int item_by_name(const region_items_t *ri, const char *variable) {
  int found = -1;
  for (uint32_t j = 0; j < ri->reg.num_items; ++j)
    if (!strcmp(ri->items[j].variable, variable)) {
      if (found >= 0)
        return -1;
      found = (int)j;
    }
  return found;
}

/* Unused allocations made by `target enter data` (with their `target exit
 * data`) or by `target data`: remove the item. */
static int plan_unused_alloc(const plan_ctx_t *c, ompdp_finding_t *f, const region_items_t *ri,
                             const rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int enter = it->construct == OMPDP_CK_TARGET_ENTER_DATA;
  if (!enter && it->construct != OMPDP_CK_TARGET_DATA)
    return -1;
  /* Every allocation of the site unused, freed, and nothing but its own
   * copy in and a faithful copy back in its lifetime. */
  if (s->allocs != f->count || s->lt_count != s->allocs || s->lt_bad || s->lt_exit_mixed ||
      s->multi_buf || !s->lt_exit_region || (!enter && s->lt_exit_region != s->region))
    return -1;
  region_items_t xr = {0};
  int exit_item = -1;
  if (enter) {
    if (load_region(c->describe, s->lt_exit_region, &xr))
      return -1;
    exit_item = s->lt_exit_item >= 0 ? s->lt_exit_item : item_by_name(&xr, it->variable);
    if (xr.items[0].construct != OMPDP_CK_TARGET_EXIT_DATA || exit_item < 0 ||
        (uint32_t)exit_item >= xr.reg.num_items) {
      free(xr.items);
      return -1;
    }
  }
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_REMOVE_ITEM);
  if (!rw) {
    free(xr.items);
    return -2;
  }
  const char *why = NULL;
  int rc = ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why);
  if (!rc && enter)
    rc = ompdp_rw_remove_item(rw, &xr.reg, (uint32_t)exit_item, &why);
  ompdp_strbuf_t d = {0};
  ompdp_sb_printf(&d, "remove `%s` from `%s` at %s:%" PRIu32, it->expr,
                  ompdp_construct_kind_name(it->construct), basename_of(it->file), it->line);
  if (enter)
    ompdp_sb_printf(&d, " and from `target exit data` at %s:%" PRIu32,
                    basename_of(xr.items[0].file), xr.items[0].line);
  ompdp_sb_puts(&d, ": no kernel ran while the memory existed");
  ompdp_strbuf_t a = {0};
  if (!rc) {
    removal_assumption(rw, it, &a);
    if (enter)
      removal_assumption(rw, &xr.items[exit_item], &a);
  }
  free(xr.items);
  return finish(f, rc, s->lt_transfers, s->allocs, s->lt_bytes, to_ns(c, s->lt_dur), &d, &a);
}

/* Unused copies in: remove the `target update` item, or map the item
 * without its copy in. */
static int plan_unused_transfer(const plan_ctx_t *c, ompdp_finding_t *f,
                                const region_items_t *ri, const rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int update = it->construct == OMPDP_CK_TARGET_UPDATE;
  if (update ? it->map_type != OMPDP_MT_UPDATE_TO : !has_to(it->map_type))
    return -1;
  /* Every copy in of the site unused, and none copied back to the host
   * before being overwritten (without it, the host would get older bytes). */
  if (s->h2d != f->count || s->copied_back || s->multi_buf)
    return -1;
  ompdp_rewrite_t *rw =
      ompdp_finding_add_rewrite(f, update ? OMPDP_RK_REMOVE_ITEM : OMPDP_RK_CHANGE_MAP_TYPE);
  if (!rw)
    return -2;
  const char *why = NULL;
  ompdp_map_type_t to = it->map_type == OMPDP_MT_TOFROM ? OMPDP_MT_FROM : OMPDP_MT_ALLOC;
  int rc = update ? ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why)
                  : ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item, to,
                                          to == OMPDP_MT_ALLOC ? -1 : 0, &why);
  ompdp_strbuf_t d = {0};
  if (update)
    ompdp_sb_printf(
        &d, "remove `%s` from `target update` at %s:%" PRIu32 ": no kernel read what it sent",
        it->expr, basename_of(it->file), it->line);
  else
    ompdp_sb_printf(&d,
              "map `%s` with `%s` instead of `%s` at %s:%" PRIu32
              ": no kernel read what the copy in sent",
              it->implicit ? it->variable : it->expr, ompdp_map_type_name(to),
              ompdp_map_type_name(it->map_type), basename_of(it->file), it->line);
  ompdp_strbuf_t a = {0};
  if (!rc)
    removal_assumption(rw, it, &a);
  return finish(f, rc, s->h2d, 0, s->bytes_h2d, to_ns(c, s->dur_h2d), &d, &a);
}

/* Overbroad maps (detect_overbroad.c): the item a target region never
 * touches goes; a tofrom item it only reads becomes `to`, one it only
 * writes `from`. The run must agree with the region table: the copies
 * back that disappear returned the bytes the device had received (else
 * the host got other bytes from them). `from` relies on the region writing
 * every element, which neither the run nor the table can tell. */
static int plan_overbroad(const plan_ctx_t *c, ompdp_finding_t *f, const region_items_t *ri,
                          const rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int rule = ompdp_overbroad_rule(it);
  if (rule == OMPDP_OVERBROAD_NONE || s->multi_buf)
    return -1;
  if (rule != OMPDP_OVERBROAD_FROM && s->d2h && s->dev_changed)
    return -1;
  const char *name = it->implicit ? it->variable : it->expr;
  uint64_t transfers, allocs = 0, bytes, time;
  if (rule == OMPDP_OVERBROAD_REMOVE) {
    transfers = s->h2d + s->d2h;
    allocs = s->allocs;
    bytes = s->bytes_h2d + s->bytes_d2h;
    time = s->dur_h2d + s->dur_d2h + s->dur_alloc + s->dur_delete;
  } else if (rule == OMPDP_OVERBROAD_TO) {
    transfers = s->d2h;
    bytes = s->bytes_d2h;
    time = s->dur_d2h;
  } else {
    transfers = s->h2d;
    bytes = s->bytes_h2d;
    time = s->dur_h2d;
  }
  if (!transfers && !allocs)
    return -1;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(
      f, rule == OMPDP_OVERBROAD_REMOVE ? OMPDP_RK_REMOVE_ITEM : OMPDP_RK_CHANGE_MAP_TYPE);
  if (!rw)
    return -2;
  const char *why = NULL;
  int rc = rule == OMPDP_OVERBROAD_REMOVE
               ? ompdp_rw_remove_item(rw, &ri->reg, (uint32_t)s->item, &why)
               : ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item,
                                       rule == OMPDP_OVERBROAD_TO ? OMPDP_MT_TO : OMPDP_MT_FROM, 0,
                                       &why);
  ompdp_strbuf_t d = {0}, a = {0};
  if (rule == OMPDP_OVERBROAD_REMOVE)
    ompdp_sb_printf(
        &d, "remove `%s` from `target` at %s:%" PRIu32 ": the region never reads or writes it",
        name, basename_of(it->file), it->line);
  else
    ompdp_sb_printf(
        &d, "map `%s` with `%s` instead of `tofrom` at %s:%" PRIu32 ": the region only %s it", name,
        rule == OMPDP_OVERBROAD_TO ? "to" : "from", basename_of(it->file), it->line,
        rule == OMPDP_OVERBROAD_TO ? "reads" : "writes");
  if (rule == OMPDP_OVERBROAD_FROM)
    ompdp_sb_printf(&a,
              "the region writes every element of `%s` (an element it does not write would come "
              "back from uninitialised device memory instead of keeping the host's value)",
              name);
  return finish(f, rc, transfers, allocs, bytes, to_ns(c, time), &d, &a);
}

/* Bounds as written that may change something when evaluated once more. */
static int has_side_effect(const char *x) {
  for (const char *p = x; *p; ++p) {
    if ((p[0] == '+' && p[1] == '+') || (p[0] == '-' && p[1] == '-'))
      return 1;
    if (*p == '=' && p[1] != '=' && (p == x || !strchr("=<>!", p[-1])))
      return 1;
  }
  return 0;
}

/* A name a type can be spelled with again where the item is used. */
static int respellable_type(const char *t) {
  return *t && !strchr(t, '(') && !strstr(t, "unnamed") && !strstr(t, "anonymous");
}

/* The device-side fill of the item (its fill facts, region_view.h): a
 * `target teams distribute parallel for` that finds the item present
 * (map(alloc: ...)) and writes zero to every element, with `= 0` for an
 * arithmetic or pointer element and byte by byte otherwise. Every line is
 * indented with ind spaces and ends with a newline; dev is the
 * construct's device clause (" device(1)") or "". Returns 0, or -1 when
 * the item's facts do not allow one. */
static int put_fill(ompdp_strbuf_t *b, const ompdp_region_info_t *it, uint32_t ind,
                    const char *dev) {
  const char *v = it->variable;
  int scalar = (it->fill_flags & OMPDP_FILL_SCALAR) != 0;
  if (!is_identifier(v) || !respellable_type(it->fill_type) || !it->fill_elem_size)
    return -1;
  ompdp_strbuf_t first = {0}, count = {0};
  if (it->fill_flags & OMPDP_FILL_SECTION) {
    if (!it->fill_length[0] || has_side_effect(it->fill_length) ||
        has_side_effect(it->fill_lower))
      return -1;
    if (it->fill_lower[0] && strcmp(it->fill_lower, "0"))
      ompdp_sb_printf(&first, "%s[(%s) + ompdp_i]", v, it->fill_lower);
    else
      ompdp_sb_printf(&first, "%s[ompdp_i]", v);
    ompdp_sb_printf(&count, "(%s)", it->fill_length);
  } else if (it->fill_flags & OMPDP_FILL_WHOLE) {
    if (!it->fill_count)
      return -1;
    if (it->fill_count == 1 && scalar)
      ompdp_sb_puts(&first, v); /* one object: no loop needed, but one is fine */
    else
      ompdp_sb_printf(&first, "((%s *)&%s)[ompdp_i]", it->fill_type, v);
    ompdp_sb_printf(&count, "%" PRIu32, it->fill_count);
  } else {
    return -1;
  }
  char *at = ompdp_sb_take(&first), *n = ompdp_sb_take(&count);
  if (!at || !n) {
    free(at);
    free(n);
    b->oom = 1;
    return -1;
  }
  ompdp_sb_printf(b, "%*s#pragma omp target teams distribute parallel for map(alloc: %s)%s\n",
            (int)ind, "", it->expr, dev);
  if ((it->fill_flags & OMPDP_FILL_WHOLE) && it->fill_count == 1 && scalar) {
    ompdp_sb_printf(b, "%*sfor (long long ompdp_i = 0; ompdp_i < 1; ++ompdp_i)\n", (int)ind, "");
    ompdp_sb_printf(b, "%*s  %s = 0;\n", (int)ind, "", at);
  } else if (scalar) {
    ompdp_sb_printf(b, "%*sfor (long long ompdp_i = 0; ompdp_i < %s; ++ompdp_i)\n", (int)ind, "",
                    n);
    ompdp_sb_printf(b, "%*s  %s = 0;\n", (int)ind, "", at);
  } else {
    /* Byte by byte, from the first element on. */
    ompdp_sb_printf(b,
              "%*sfor (long long ompdp_i = 0; ompdp_i < %s * (long long)sizeof(%s); ++ompdp_i)\n",
              (int)ind, "", n, it->fill_type);
    if (it->fill_flags & OMPDP_FILL_WHOLE)
      ompdp_sb_printf(b, "%*s  ((unsigned char *)&%s)[ompdp_i] = 0;\n", (int)ind, "", v);
    else if (it->fill_lower[0] && strcmp(it->fill_lower, "0"))
      ompdp_sb_printf(b, "%*s  ((unsigned char *)&%s[%s])[ompdp_i] = 0;\n", (int)ind, "", v,
                it->fill_lower);
    else
      ompdp_sb_printf(b, "%*s  ((unsigned char *)%s)[ompdp_i] = 0;\n", (int)ind, "", v);
  }
  free(at);
  free(n);
  return 0;
}

/* Zero-filled copies in (detect_zero.c): the item is allocated on the
 * device and filled there instead of copied.
 * - `target enter data map(to: x)`: the map becomes `alloc`, the fill
 *   follows the directive.
 * - `target` / `target data` with `map(to|tofrom: x)`: `target enter data
 *   map(alloc: x)` and the fill go before the construct, which then finds x
 *   present (and moves nothing for it), and `target exit data map(from: x)`
 *   (tofrom: the copy back happens there, at the same point, with the same
 *   bytes) or `map(release: x)` after it.
 * Made only when every copy in at the site was all zeros and came with its
 * allocation, on one buffer; for target/target data only when no other
 * construct ever mapped that buffer (so x was never present already, which
 * would make the original copy nothing and the fill overwrite the device's
 * data). */
static int plan_zero_fill(const plan_ctx_t *c, ompdp_finding_t *f, const region_items_t *ri,
                          const rw_site_t *s) {
  const ompdp_region_info_t *it = &ri->items[s->item];
  int enter = it->construct == OMPDP_CK_TARGET_ENTER_DATA;
  int structured = is_structured(it->construct);
  if ((!enter && !structured) || !has_to(it->map_type) || !explicit_item(it) || it->nowait)
    return -1;
  if (it->modifiers & (OMPDP_MOD_PRESENT | OMPDP_MOD_MAPPER | (enter ? 0 : OMPDP_MOD_ALWAYS)))
    return -1;
  if (!s->h2d || s->h2d_zero != s->h2d || s->allocs != s->h2d || s->multi_buf ||
      s->sizes_differ || !it->fill_elem_size || s->alloc_bytes % it->fill_elem_size)
    return -1;
  if ((it->fill_flags & OMPDP_FILL_WHOLE) &&
      s->alloc_bytes != (uint64_t)it->fill_count * it->fill_elem_size)
    return -1;
  if (structured) {
    const rw_buf_t *b = &c->facts->bufs[s->buf - 1];
    if (b->num_sites != 1 || s->foreign || s->interleaved || !it->block ||
        !it->stmt_end_line || !it->stmt_end_column)
      return -1;
  }
  /* The fill and the new directives run on the construct's device; any
   * other clause (if, depend, nowait, ...) would need them to follow it
   * too, which this rule does not do. */
  char dev[256] = "";
  const char *other = it->other_clauses ? it->other_clauses : "";
  if (*other) {
    size_t n = strlen(other);
    if (strncmp(other, "device(", 7) || other[n - 1] != ')' || strchr(other + 7, '(') ||
        n + 2 > sizeof(dev))
      return -1;
    snprintf(dev, sizeof(dev), " %s", other);
  }
  uint32_t ind = it->column > 1 ? it->column - 1 : 0;
  ompdp_strbuf_t fill = {0};
  if (put_fill(&fill, it, ind, dev)) {
    int oom = fill.oom;
    free(fill.d);
    return oom ? -2 : -1;
  }
  char *fill_text = ompdp_sb_take(&fill);
  if (!fill_text)
    return -2;
  ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_ALLOC_AND_FILL);
  if (!rw) {
    free(fill_text);
    return -2;
  }
  const char *why = NULL;
  int rc;
  ompdp_strbuf_t t = {0};
  const char *back = it->map_type == OMPDP_MT_TOFROM ? "from" : "release";
  if (enter) {
    rc = ompdp_rw_set_map_type(rw, &ri->reg, (uint32_t)s->item, OMPDP_MT_ALLOC, -1, &why);
    if (!rc)
      rc = add_edit(rw, it, it->end_line + 1, 1, it->end_line + 1, 1, "", fill_text, &why);
  } else {
    ompdp_sb_printf(&t, "%*s#pragma omp target enter data map(alloc: %s)%s\n%s", (int)ind, "",
                    it->expr, dev, fill_text);
    char *before = ompdp_sb_take(&t);
    rc = before ? add_edit(rw, it, it->line, 1, it->line, 1, "", before, &why) : (why = OOM, -1);
    free(before);
    if (!rc) {
      ompdp_strbuf_t a = {0};
      ompdp_sb_printf(&a, "\n%*s#pragma omp target exit data map(%s: %s)%s\n", (int)ind, "", back,
                it->expr, dev);
      char *after = ompdp_sb_take(&a);
      /* From the statement's end to the next line: only white space may
       * be there, so the new directive gets a line of its own. */
      rc = after ? add_edit(rw, it, it->stmt_end_line, it->stmt_end_column,
                            it->stmt_end_line + 1, 1, "", after, &why)
                 : (why = OOM, -1);
      free(after);
    }
  }
  free(fill_text);
  ompdp_strbuf_t d = {0}, as = {0};
  if (enter)
    ompdp_sb_printf(&d,
              "map `%s` with `alloc` at %s:%" PRIu32 " and fill it with zeros on the device "
              "right after: every byte copied in was zero",
              it->expr, basename_of(it->file), it->line);
  else
    ompdp_sb_printf(&d,
              "allocate `%s` and fill it with zeros on the device before the %s construct at "
              "%s:%" PRIu32 ", which then finds it present; `target exit data map(%s: %s)` after "
              "it: every byte copied in was zero",
              it->expr, ompdp_construct_kind_name(it->construct), basename_of(it->file),
              it->line, back, it->expr);
  if (enter)
    ompdp_sb_printf(&as,
              "`%s` is not on the device already when the `target enter data` runs (the run "
              "saw it allocated with every copy)",
              it->expr);
  if ((it->fill_flags & OMPDP_FILL_SECTION) &&
      (strchr(it->fill_lower, '(') || strchr(it->fill_length, '(')))
    ompdp_sb_printf(&as, "%sthe bounds of `%s` evaluate the same once more (calls in them have no "
                   "side effects)",
              as.len ? "; " : "", it->expr);
  return finish(f, rc, s->h2d, 0, s->bytes_h2d, to_ns(c, s->dur_h2d), &d, &as);
}

/* The facts' site of a finding (index + 1), 0 when there is none. */
static uint32_t site_index(const ompdp_rw_facts_t *facts, const ompdp_finding_t *f) {
  if (!f->rt_region || f->item < 0)
    return 0;
  uint32_t *si =
      imap_slot((imap_t *)&facts->site_map, f->rt_region, (uint64_t)(int64_t)f->item, 0, 0);
  return si && *si && facts->sites[*si - 1].buf ? *si : 0;
}

int ompdp_rewrite_report(ompdp_report_t *r, const ompdp_rw_facts_t *facts,
                         ompdp_describe_fn describe, uint64_t tick_mult) {
  if (!facts || !describe || facts->failed)
    return facts && facts->failed < 0 ? -1 : 0;
  plan_ctx_t c = {.facts = facts, .describe = describe, .mult = tick_mult};
  /* A site whose item goes away entirely (unused allocation) needs no
   * other rewrite: its unused transfers get the same removal, and it is not
   * kept resident. removal[site] = finding + 1 holding that rewrite. */
  size_t *removal = calloc(facts->num_sites ? facts->num_sites : 1, sizeof(*removal));
  if (!removal)
    return -1;
  int rc = 0;
  for (int pass = 0; pass < 2 && !rc; ++pass)
    for (size_t i = 0; i < r->num_findings && !rc; ++i) {
      ompdp_finding_t *f = &r->findings[i];
      ompdp_finding_kind_t want = pass ? OMPDP_FK_UNUSED_TRANSFER : OMPDP_FK_UNUSED_ALLOC;
      uint32_t si = site_index(facts, f);
      if (f->kind != want || !si)
        continue;
      if (pass && removal[si - 1]) {
        const ompdp_finding_t *by = &r->findings[removal[si - 1] - 1];
        ompdp_rewrite_t *rw = ompdp_finding_add_rewrite(f, OMPDP_RK_REMOVE_ITEM);
        if (!rw || ompdp_rewrite_copy(rw, &by->rewrites[by->num_rewrites - 1]))
          rc = -1;
        continue;
      }
      region_items_t ri;
      if (load_region(describe, f->rt_region, &ri))
        continue;
      const rw_site_t *s = &facts->sites[si - 1];
      int prc = pass ? plan_unused_transfer(&c, f, &ri, s) : plan_unused_alloc(&c, f, &ri, s);
      free(ri.items);
      if (prc == -2)
        rc = -1;
      else if (prc == 0 && !pass)
        removal[si - 1] = i + 1;
    }
  /* Overbroad maps, then zero-filled copies in (alloc and fill), each
   * planned at a site no earlier rule claimed. A site whose item is
   * removed, or whose copies in are replaced by a fill, is not also kept
   * resident. */
  static const struct {
    ompdp_finding_kind_t kind;
    int (*plan)(const plan_ctx_t *, ompdp_finding_t *, const region_items_t *,
                const rw_site_t *);
  } item_rules[] = {{OMPDP_FK_OVERBROAD_MAP, plan_overbroad},
                    {OMPDP_FK_ZERO_TRANSFER, plan_zero_fill}};
  for (size_t k = 0; k < sizeof(item_rules) / sizeof(item_rules[0]); ++k)
    for (size_t i = 0; i < r->num_findings && !rc; ++i) {
      ompdp_finding_t *f = &r->findings[i];
      uint32_t si = site_index(facts, f);
      region_items_t ri;
      if (f->kind != item_rules[k].kind || !si || removal[si - 1] ||
          load_region(describe, f->rt_region, &ri))
        continue;
      const rw_site_t *s = &facts->sites[si - 1];
      int prc = (uint32_t)s->item < ri.reg.num_items ? item_rules[k].plan(&c, f, &ri, s) : -1;
      free(ri.items);
      if (prc == -2)
        rc = -1;
      else if (prc == 0 && (f->kind == OMPDP_FK_ZERO_TRANSFER ||
                            f->rewrites[f->num_rewrites - 1].kind == OMPDP_RK_REMOVE_ITEM))
        removal[si - 1] = i + 1;
    }
  /* A site that another rule already rewrites (its map type changed, say)
   * is not also kept resident: the two would not add up (a `target data`
   * around it would make the narrowed map move nothing anyway). */
  for (size_t i = 0; i < r->num_findings; ++i) {
    uint32_t si = site_index(facts, &r->findings[i]);
    if (si && !removal[si - 1] && r->findings[i].num_rewrites)
      removal[si - 1] = i + 1;
  }
  if (!rc)
    rc = keep_resident_all(&c, r, removal);
  if (!rc)
    rc = row_resident_all(&c, r, removal);
  free(removal);
  return rc;
}

int ompdp_rewrite_report_events(ompdp_report_t *r, const ompdp_event_t *ev, size_t n,
                                int host_device, ompdp_describe_fn describe) {
  int any = 0;
  for (size_t i = 0; i < r->num_findings && !any; ++i)
    any = r->findings[i].rt_region != 0;
  if (!any)
    return 0; /* nothing the region table describes: no rewrite possible */
  ompdp_rw_facts_t *facts = ompdp_rw_facts_create(host_device);
  if (!facts)
    return -1;
  int rc = 0;
  for (size_t i = 0; i < n && !rc; ++i)
    rc = ompdp_rw_facts_feed(facts, &ev[i]);
  if (!rc)
    rc = ompdp_rewrite_report(r, facts, describe, 0);
  ompdp_rw_facts_destroy(facts);
  return rc;
}
