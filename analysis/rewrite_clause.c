/*===- rewrite_clause.c - the text of clauses ------------------------*- C -*-===*\
|*
|* Reading and writing clauses as the compiler recorded them (white space
|* collapsed, rewrite_impl.h): a map clause split into its name, modifiers,
|* map type (OMPDP_MAP_TYPE spellings) and list, and rebuilt with another
|* map type; the depend clauses among a directive's other clauses, to tell
|* whether removing the directive keeps the order of the tasks around it.
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"

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
int ompdp_rw_parse_clause(const char *text, ompdp_rw_clause_t *c) {
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
    if (c->num_mods == OMPDP_RW_MAX_MODS)
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

void ompdp_rw_clause_free(ompdp_rw_clause_t *c) { free(c->buf); }

/* name(mods..., type: list), with always added (always > 0), removed
 * (always < 0) or left as it was. */
void ompdp_rw_put_map_clause(ompdp_strbuf_t *b, const ompdp_rw_clause_t *c, ompdp_map_type_t type,
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
int ompdp_rw_depend_removable(const char *other) {
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
