/*===- rewrite_caller.c - keeping data resident at the caller --------*- C -*-===*\
|*
|* The keep-resident rule for a construct whose repeats come from calls of
|* its function (OMPDP_RR_KEEP_RESIDENT; docs/fixes.md, "Keeping data
|* resident at the caller"): a loop in another function calls the function
|* that maps the data, so the `target data` that keeps it on the device goes
|* around the caller's loop, written with the caller's arguments for the
|* callee's parameters. Several constructs and several functions that map
|* the same buffer in that loop are kept together: the data copied back at
|* the end of one function and sent again at the start of the next (a round
|* trip across two functions) stays on the device between them.
|*
|* The run says which call each construct ran in (every time the same call,
|* the region's call), and what happened to the buffer; the compiler says
|* where the call is, its loop and the jumps out of it, what its arguments
|* are, whether they stay the same in the loop, which host code of the loop
|* uses the data, and that the callee's own host code leaves it alone. The
|* host's view is kept with `target update`s at the host statements of the
|* loop that use the data, as the keep-resident rule's update way does;
|* the callee is not edited (its maps find the data present, and its other
|* callers see no change).
|*
\*===----------------------------------------------------------------------===*/
#include "rewrite_impl.h"
#include "rewrite_safety.h" /* jumps, advice */

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SITES OMPDP_PLAN_BUF_SITES

/* The k-th call region (0-based) a site's construct ran in: 0 past the
 * last one. */
static uint32_t nth_call(const ompdp_rw_site_t *s, int k) {
  return k == 0 ? s->call : k == 1 ? s->call2 : k == 2 ? s->call3 : k == 3 ? s->call4 : 0;
}

/* How often the site's construct began in its k-th call (0: not known). */
static uint64_t nth_call_runs(const ompdp_rw_site_t *s, int k) {
  return k == 0 ? s->call_runs : k == 1 ? s->call2_runs : k == 2 ? s->call3_runs
         : k == 3   ? s->call4_runs
                    : 0;
}

/* Whether callee, a call's callee (for a call through a pointer, the
 * functions the run saw it call, one per line), names function fn. */
static int callee_is(const char *callee, const char *fn) {
  return callee && fn && *fn && ompdp_rw_line_index(callee, fn, strlen(fn)) >= 0;
}

/* The next line of a list of names one per line (*q; NULL or "" when
 * done): 1 with it in *line, *len, *q moved past it; 0 at the end. */
static int next_line(const char **q, const char **line, size_t *len) {
  if (!*q || !**q)
    return 0;
  const char *e = strchr(*q, '\n');
  *line = *q;
  *len = e ? (size_t)(e - *q) : strlen(*q);
  *q += *len + (e != NULL);
  return 1;
}

/* Line k (0-based) of a list of names one per line: 1 with it in *line,
 * *len; 0 when the list is shorter. */
static int nth_line(const char *list, size_t k, const char **line, size_t *len) {
  const char *q = list;
  for (size_t i = 0; next_line(&q, line, len); ++i)
    if (i == k)
      return 1;
  return 0;
}

/* A call's callee for words: `f()`, `f() or g()` for the functions a call
 * through a pointer called, or "the function its pointer points to". */
static void put_callee(ompdp_strbuf_t *d, const char *callee) {
  if (!callee || !*callee) {
    ompdp_sb_puts(d, "the function its pointer points to");
    return;
  }
  const char *q = callee, *name;
  size_t l;
  while (next_line(&q, &name, &l))
    ompdp_sb_printf(d, "%s%.*s()", name == callee ? "" : " or ", (int)l, name);
}

/* Whether the run saw the site's construct run in known calls only (at
 * most four, each a call of the construct's own function: not a stale
 * context left by a longjmp), the first of them into *call. */
static int site_calls_known(const ompdp_rw_plan_t *c, const ompdp_rw_site_t *s,
                            const ompdp_region_info_t *it, ompdp_region_info_t *call) {
  if (!s->call || s->call_mixed)
    return 0;
  for (int k = 0; k < OMPDP_CONTEXT_CALLS && nth_call(s, k); ++k) {
    ompdp_region_info_t x;
    if (ompdp_plan_describe(c->facts, nth_call(s, k), -1, &x) || x.construct != OMPDP_CK_CALL ||
        !callee_is(x.callee, it->function))
      return 0;
    if (k == 0)
      *call = x;
  }
  return 1;
}

/* Whether a and b (regions of kind call) are in one loop of one file. */
static int same_loop(const ompdp_region_info_t *a, const ompdp_region_info_t *b) {
  return a->loop_kind != OMPDP_LK_NONE && a->loop_kind == b->loop_kind &&
         a->loop_line == b->loop_line && a->loop_column == b->loop_column &&
         a->loop_offset == b->loop_offset && !strcmp(a->file, b->file) &&
         !strcmp(a->function, b->function);
}

/* Whether a and b (regions of kind call, in no loop) are statements of one
 * block of one function: calls in a row. */
static int same_block(const ompdp_region_info_t *a, const ompdp_region_info_t *b) {
  return a->loop_kind == OMPDP_LK_NONE && b->loop_kind == OMPDP_LK_NONE && a->block &&
         a->block == b->block && !strcmp(a->file, b->file) && !strcmp(a->function, b->function);
}

/* How many lines list has (0 for ""). */
static size_t count_lines(const char *list) {
  size_t n = list && *list ? 1 : 0;
  for (const char *p = list; p && *p; ++p)
    n += *p == '\n';
  return n;
}

/* The call's item for the callee's variable var: the argument that binds
 * the parameter of that name, or the global of that name that the call
 * records (after its arguments: one the caller does not hide); NULL when
 * there is none. */
static const ompdp_region_info_t *call_item(const ompdp_rw_items_t *call, const char *var,
                                            size_t len) {
  const char *params = call->reg.num_items ? call->reg.items[0].parameters : "";
  int k = ompdp_rw_line_index(params, var, len);
  if (k >= 0)
    return (uint32_t)k < call->reg.num_items ? &call->reg.items[k] : NULL;
  for (uint32_t i = (uint32_t)count_lines(params); i < call->reg.num_items; ++i)
    if (strlen(call->reg.items[i].variable) == len &&
        !strncmp(call->reg.items[i].variable, var, len))
      return &call->reg.items[i];
  return NULL;
}

/* `a`, `s.a`, `p->a`, `this->x`, `y[1]` (an element at a constant index,
 * whose section `y[1][0:n]` a clause may name): what may stand where a
 * list item names its variable. */
static int variable_chain(const char *s) {
  if (!*s)
    return 0;
  for (;;) {
    if (!(isalpha((unsigned char)*s) || *s == '_'))
      return 0;
    while (isalnum((unsigned char)*s) || *s == '_')
      ++s;
    while (*s == '[' && isdigit((unsigned char)s[1])) {
      const char *d = s + 1;
      while (isdigit((unsigned char)*d))
        ++d;
      if (*d != ']')
        return 0;
      s = d + 1;
    }
    if (!*s)
      return 1;
    if (*s == '.')
      s += 1;
    else if (s[0] == '-' && s[1] == '>')
      s += 2;
    else
      return 0;
  }
}

static int number_literal(const char *s) {
  if (!isdigit((unsigned char)*s))
    return 0;
  while (isalnum((unsigned char)*s) || *s == '.')
    ++s;
  return !*s;
}

/* Whether s (what follows an item's variable) is `[0:1]` or `[:1]`, and
 * nothing else: the first element alone. */
static int one_element_section(const char *s) {
  s += strspn(s, " ");
  if (*s++ != '[')
    return 0;
  s += strspn(s, " ");
  if (*s == '0')
    s += 1 + strspn(s + 1, " ");
  if (*s++ != ':')
    return 0;
  s += strspn(s, " ");
  if (*s++ != '1')
    return 0;
  s += strspn(s, " ");
  if (*s++ != ']')
    return 0;
  return !s[strspn(s, " ")];
}

/* text (an item of the callee, as written) in the caller's words: each name
 * of a parameter (among params, one per line) becomes the call's argument
 * for it (the call's items, in order), in parentheses unless it is a name
 * or a number. The first name is the item's variable: its argument must be
 * one too, or, for `x[0:1]`, an address `&v` (the item is then v itself).
 * NULL with *why set when an argument cannot stand there. */
char *ompdp_rw_in_caller_words(const char *text, const char *params,
                               const ompdp_rw_items_t *call, ompdp_strbuf_t *why) {
  if (!call->reg.num_items) {
    ompdp_sb_puts(why, "the call passes nothing the item could be written with");
    return NULL;
  }
  ompdp_strbuf_t b = {0};
  const char *p = text;
  int first = 1;
  char prev = 0, prev2 = 0; /* the last two characters before p that are not blanks */
  while (*p) {
    if (isdigit((unsigned char)*p)) { /* a number, its suffixes and exponent */
      const char *q = p;
      while (isalnum((unsigned char)*q) || *q == '.' || *q == '_')
        ++q;
      ompdp_sb_putn(&b, p, (size_t)(q - p));
      prev2 = prev;
      prev = q[-1];
      p = q;
      first = 0;
      continue;
    }
    if (!(isalpha((unsigned char)*p) || *p == '_')) {
      if (*p == '"' || *p == '\'') {
        ompdp_sb_puts(why, "the item holds a literal text, which ompdp does not rewrite");
        free(b.d);
        return NULL;
      }
      if (*p != ' ') {
        prev2 = prev;
        prev = *p;
      }
      ompdp_sb_putn(&b, p, 1);
      ++p;
      continue;
    }
    const char *q = p;
    while (isalnum((unsigned char)*q) || *q == '_')
      ++q;
    size_t len = (size_t)(q - p);
    /* A member's name (after `.` or `->`) or a qualified one is not a
     * parameter. */
    int member = prev == '.' || (prev == '>' && prev2 == '-') || (prev == ':' && prev2 == ':');
    int k = member ? -1 : ompdp_rw_line_index(params, p, len);
    if (k < 0) {
      /* A global: the call records it when the caller does not hide it. */
      if (first && !call_item(call, p, len) && call->reg.items[0].extern_callee) {
        ompdp_sb_printf(why,
                        "`%.*s` in `%s` is not a parameter of the function but a global of its "
                        "file, which the caller at %s:%" PRIu32 ", compiled from another file, "
                        "does not see (ompdp writes at a caller only what the caller's compile "
                        "sees)",
                        (int)len, p, text, ompdp_rw_basename(call->reg.items[0].file),
                        call->reg.items[0].line);
        free(b.d);
        return NULL;
      }
      if (first && !call_item(call, p, len)) {
        ompdp_sb_printf(why,
                        "`%.*s` in `%s` is not a parameter of the function, nor a global the "
                        "caller at %s:%" PRIu32 " sees (it declares a variable of that name)",
                        (int)len, p, text, ompdp_rw_basename(call->reg.items[0].file),
                        call->reg.items[0].line);
        free(b.d);
        return NULL;
      }
      ompdp_sb_putn(&b, p, len);
    } else {
      const ompdp_region_info_t *arg =
          (uint32_t)k < call->reg.num_items ? &call->items[k] : NULL;
      if (!arg || !arg->expr[0] || !(arg->access_flags & OMPDP_IA_ARG_INVARIANT)) {
        ompdp_sb_printf(why,
                        "the argument for `%.*s` at %s:%" PRIu32
                        " (`%s`) may change from one call to the next",
                        (int)len, p, ompdp_rw_basename(call->reg.items[0].file),
                        call->reg.items[0].line, arg && arg->expr[0] ? arg->expr : "?");
        free(b.d);
        return NULL;
      }
      /* `p[0:1]` with `&x` for p: the storage of x, which the caller
       * names as the variable itself (deredundancy's `&r`). */
      const char *addressed = arg->expr[0] == '&' ? arg->expr + 1 + strspn(arg->expr + 1, " ")
                                                  : NULL;
      if (first && addressed && variable_chain(addressed) && one_element_section(q)) {
        free(b.d);
        return ompdp_strdup(addressed);
      }
      if (first && !variable_chain(arg->expr)) {
        ompdp_sb_printf(why,
                        "the call at %s:%" PRIu32 " passes `%s` for `%.*s`, which is not a "
                        "variable a map clause can name",
                        ompdp_rw_basename(arg->file), arg->line, arg->expr, (int)len, p);
        free(b.d);
        return NULL;
      }
      if (first || variable_chain(arg->expr) || number_literal(arg->expr))
        ompdp_sb_puts(&b, arg->expr);
      else
        ompdp_sb_printf(&b, "(%s)", arg->expr);
    }
    prev2 = prev;
    prev = q[-1];
    p = q;
    first = 0;
  }
  return ompdp_sb_take(&b);
}

/* The kept buffer: its sites and what they say together. */
typedef struct kept {
  uint32_t sites[MAX_SITES];
  size_t n;
  int dev;
  uint32_t call;                /* the outer site's call (its arguments name the item) */
  ompdp_rw_items_t call_ri;     /* its records (owned) */
  const ompdp_region_info_t *outer; /* the item written at the caller (in outer_ri) */
  ompdp_rw_items_t outer_ri;    /* owned */
  uint64_t size, calls;
  /* The functions whose constructs map it, in source order (their names
   * point into the plan). */
  const char *fns[MAX_SITES];
  const char *fn_files[MAX_SITES];
  uint32_t fn_lines[MAX_SITES];
  size_t nfns;
  int to, from, dev_changes, host_changed, to_written;
  int to_read; /* a construct sends it and the device may read what it sends (not WRITES_FIRST) */
  uint64_t before, bytes_before, allocs, dur_before;
  ompdp_oc_t rm;
  /* Calls in a row, in no loop: the first and the last call (handles) of
   * one block, around which the `target data` and its braces go. */
  int row;
  /* The distinct calls (handles) the constructs ran in. */
  uint32_t seen[OMPDP_CONTEXT_CALLS * MAX_SITES];
  int nseen;
  uint32_t first_call, last_call;
  ompdp_region_info_t first, last;
  int outside_calls; /* some constructs also ran in calls outside the loop */
  /* Two levels (lift): the constructs ran in one call (mid) of their
   * function, in no loop, in a function that the loop of k->call calls
   * every time. The section is written through mid's arguments in its
   * function's parameters (ParamArgs) and then k->call's arguments. */
  uint32_t mid;
  ompdp_rw_items_t mid_ri; /* mid's records, expr its ParamArgs (owned) */
  char *mid_args;          /* the strings mid_ri's exprs point into (owned) */
  char *lift_expr;         /* the kept section in k->call's words (owned) */
  char *lift_var;          /* the middle function's parameter that passes the kept variable (owned) */
  /* A construct's function whose host code reads the item (FN_HOST_READS),
   * and its variable (strings of the plan). */
  const char *fn_reads, *fn_reads_var;
} kept_t;

static void kept_free(kept_t *k) {
  free(k->call_ri.items);
  free(k->outer_ri.items);
  free(k->mid_ri.items);
  free(k->mid_args);
  free(k->lift_expr);
  free(k->lift_var);
  memset(k, 0, sizeof(*k));
}

/* The call whose loop keeps buffer b: of the calls in a loop that its
 * sites' constructs ran in, the one that ran most (the run counted it);
 * 0 when none is in a loop or the counts are not known. A call of the
 * same function before or after that loop (a warm-up, a check) is left as
 * it is (outside_loop). */
static uint32_t primary_call(const ompdp_plan_t *p, const ompdp_plan_buf_t *b) {
  uint32_t best = 0, runs = 0;
  for (int j = 0; j < b->num_sites; ++j) {
    const ompdp_rw_site_t *s = &p->sites[b->sites[j] - 1];
    for (int q = 0; q < OMPDP_CONTEXT_CALLS && nth_call(s, q); ++q) {
      ompdp_region_info_t ci;
      if (!ompdp_plan_describe(p, nth_call(s, q), -1, &ci) && ci.construct == OMPDP_CK_CALL &&
          ci.loop_kind != OMPDP_LK_NONE && ci.call_runs > runs) {
        best = nth_call(s, q);
        runs = ci.call_runs;
      }
    }
  }
  return best;
}

/* Whether call (a call region) is of the function of call0, a call in a
 * loop, and outside that loop's statement: it cannot run while the loop
 * does (but through recursion), so a `target data` around the loop leaves
 * it as it is. Both must have counted executions. */
static int outside_loop(const ompdp_region_info_t *call, const ompdp_region_info_t *call0) {
  if (call0->loop_kind == OMPDP_LK_NONE || !call0->loop_length || !call->call_runs ||
      !call0->call_runs || !call->source_file || !call0->source_file ||
      strcmp(call->source_file, call0->source_file) || strcmp(call->function, call0->function))
    return 0;
  uint64_t b = call0->loop_offset, e = b + call0->loop_length;
  uint64_t cb = call->directive_offset, ce = cb + call->directive_length;
  /* Whatever loop the call is in: none, one around the kept loop (a
   * round's warm-up), or another loop of its own beside it (a warm-up loop
   * before the timing loop): its calls map as before. One `target data`
   * around both loops would keep the data across them too, but not when
   * host code between them declares names used after them or uses the
   * data, which the compiler records only for the code of each call's own
   * loop; the loop that ran most calls is kept (primary_call), the other's
   * are left. */
  return ce <= b || cb >= e;
}

/* The share of site s's operations made in its calls in the loop (in of
 * total executions, each of which made the same: the caller checked). */
static void site_share(ompdp_rw_site_t *s, uint64_t in, uint64_t total) {
#define SHARE(f) s->f = s->f / total * in
  SHARE(h2d);
  SHARE(d2h);
  SHARE(allocs);
  SHARE(deletes);
  SHARE(bytes_h2d);
  SHARE(bytes_d2h);
  SHARE(dur_h2d);
  SHARE(dur_d2h);
  SHARE(dur_alloc);
  SHARE(dur_delete);
#undef SHARE
}

/* Notes the function of construct it among k's, in source order. */
static void add_function(kept_t *k, const ompdp_region_info_t *it) {
  size_t i = 0;
  for (; i < k->nfns; ++i) {
    if (!strcmp(k->fns[i], it->function))
      return;
    int c = strcmp(it->file, k->fn_files[i]);
    if (c < 0 || (c == 0 && it->line < k->fn_lines[i]))
      break;
  }
  if (k->nfns == MAX_SITES)
    return;
  memmove(&k->fns[i + 1], &k->fns[i], (k->nfns - i) * sizeof(k->fns[0]));
  memmove(&k->fn_files[i + 1], &k->fn_files[i], (k->nfns - i) * sizeof(k->fn_files[0]));
  memmove(&k->fn_lines[i + 1], &k->fn_lines[i], (k->nfns - i) * sizeof(k->fn_lines[0]));
  k->fns[i] = it->function;
  k->fn_files[i] = it->file;
  k->fn_lines[i] = it->line;
  ++k->nfns;
}

/* "f()", "f() and g()", "f(), g() and h()"; with or: "... or h()". */
static void put_functions(ompdp_strbuf_t *d, const kept_t *k, const char *last) {
  for (size_t i = 0; i < k->nfns; ++i)
    ompdp_sb_printf(d, "%s%s()", i == 0 ? "" : i + 1 == k->nfns ? last : ", ", k->fns[i]);
}

/* Adds name to list (*n of max) unless it is there; *more when full. */
static void add_distinct(const char **list, int max, int *n, int *more, const char *name) {
  for (int q = 0; q < *n; ++q)
    if (!strcmp(list[q], name))
      return;
  if (*n < max)
    list[(*n)++] = name;
  else
    *more = 1;
}

/* An item that its function allocates anew at each call and uses on the
 * host: nothing to keep at a caller, whichever calls ran it. */
static int fresh_used(const ompdp_region_info_t *it) {
  return it->construct != OMPDP_CK_TARGET_UPDATE && (it->access_flags & OMPDP_IA_FRESH_HOST) &&
         !(it->access_flags & OMPDP_IA_FN_HOST_UNUSED);
}

/* The reason for every finding of buffer b when one of its sites maps
 * such an item (the reason to give first): each variable so allocated, in
 * the order of the sites. A host address may be several variables' in
 * turn (malloc puts a new buffer where a freed one was), so the words name
 * them all, for every finding of the buffer. 1 when written. */
static int fresh_buffer(const ompdp_plan_t *p, const ompdp_plan_buf_t *b, ompdp_strbuf_t *why) {
  enum { MAX_NAMED = 4 };
  ompdp_region_info_t first = {0};
  const char *names[MAX_NAMED], *fns[MAX_NAMED];
  int n = 0, more = 0, nfns = 0, more_fns = 0;
  for (int j = 0; j < b->num_sites; ++j) {
    const ompdp_rw_site_t *s = &p->sites[b->sites[j] - 1];
    ompdp_region_info_t it;
    /* A construct the run saw begin once (main's own `target data`
     * around a kept loop) repeats nothing, whatever its function
     * allocates: its buffer says nothing of calls. */
    if (s->item < 0 || s->runs == 1 || ompdp_plan_describe(p, s->region, s->item, &it) ||
        !fresh_used(&it))
      continue;
    if (!n && !more)
      first = it;
    add_distinct(fns, MAX_NAMED, &nfns, &more_fns, it.function);
    add_distinct(names, MAX_NAMED, &n, &more, it.variable);
  }
  if (!n)
    return 0;
  ompdp_sb_printf(why, "each call of %s", first.function);
  if (nfns == 2 && !more_fns)
    ompdp_sb_printf(why, " (and of %s)", fns[1]);
  else if (nfns > 1)
    ompdp_sb_puts(why, " (and of other functions)");
  ompdp_sb_puts(why, " allocates ");
  for (int q = 0; q < n; ++q)
    ompdp_sb_printf(why, "%s`%s`", !q ? "" : q + 1 < n || more ? ", " : " and ", names[q]);
  if (more)
    ompdp_sb_puts(why, " and others");
  int one = n == 1 && !more;
  ompdp_sb_printf(why,
                  " anew on the host%s and %s host code uses %s, so no device copy can be "
                  "kept from one call to the next: allocating %s once before the calls is a "
                  "change of the host code that ompdp does not make",
                  one ? "" : " (malloc may give one the address another had)",
                  nfns > 1 ? "their" : "its", one ? "it" : "them", one ? "it" : "them");
  return 1;
}

/*===- two levels -----------------------------------------------------------===*/

/* Of two letters of FnParamUses ('u' < 'm' < '-' in what they allow the
 * caller to assume; 0 none yet), the one that allows least. */
static char least_use(char have, char c) {
  int rank = c == 'u' ? 2 : c == 'm' ? 1 : 0;
  int had = have == 'u' ? 2 : have == 'm' ? 1 : 0;
  return !have || rank < had ? c : have;
}

/* What the definition of function fn (len bytes, a function of nparams
 * parameters) does on the host with its parameter at pos, as the tables of
 * the run record it (FnParamUses): 0 when no region of the plan is in such
 * a function (no definition recorded: none of its constructs ran, its file
 * was built without the plugin, or by an older one). Not raw: from its
 * constructs' records, 'u' never names it, 'm' names it only in OpenMP
 * clauses and device code, '-' anything else (3.9), and of several
 * definitions of that name (static functions of several files, overloads
 * of as many parameters) the least the letter allows. Raw: the letter as
 * written (the 3.15 letters too), from any region of the function, calls
 * included (a function with no construct of its own records it on its
 * calls), '-' where two definitions disagree. */
static char definition_letter(const ompdp_plan_t *p, const char *fn, size_t len, size_t nparams,
                              size_t pos, int raw) {
  char use = 0;
  for (size_t i = 0; p && len && i < p->num_regions; ++i) {
    const ompdp_region_info_t *g = &p->regions[i].head;
    if ((!raw && g->construct == OMPDP_CK_CALL) || !g->function || strlen(g->function) != len ||
        strncmp(g->function, fn, len) || count_lines(g->fn_parameters) != nparams ||
        !g->fn_param_uses || strlen(g->fn_param_uses) != nparams || pos >= nparams)
      continue;
    char c = g->fn_param_uses[pos];
    if (raw)
      use = !use || use == c ? c : '-';
    else
      use = least_use(use, c == 'u' || c == 'm' ? c : '-');
  }
  return use;
}

/* Of a function whose parameter at pos has the letter 'e' or 'b' (its one
 * use as itself passes it to one call of a function defined elsewhere):
 * whether the plan holds that call and its callee leaves the data to its
 * constructs, which the run saw map it in that very call (mid, a handle),
 * or never names it. */
static int passes_on(const ompdp_rw_plan_t *c, uint32_t mid, const char *fn, size_t nparams,
                     size_t pos) {
  const ompdp_plan_t *p = c->facts;
  int found = 0, ok = 0;
  for (size_t i = 0; i < p->num_regions; ++i) {
    const ompdp_plan_region_t *g = &p->regions[i];
    const ompdp_region_info_t *h = &g->head;
    if (h->construct != OMPDP_CK_CALL || !h->function || strcmp(h->function, fn) ||
        count_lines(h->fn_parameters) != nparams)
      continue;
    /* The parameter's name, in the function's own list. */
    const char *name;
    size_t l;
    if (!nth_line(h->fn_parameters, pos, &name, &l) || !l)
      return 0;
    size_t nargs = count_lines(h->parameters);
    for (uint32_t j = 0; j < g->head.num_items && j < nargs; ++j) {
      const ompdp_region_info_t *x = &g->items[j];
      if (strlen(x->variable) != l || strncmp(x->variable, name, l) || strcmp(x->expr, x->variable))
        continue;
      ++found;
      char use = ompdp_rw_callee_param_use(p, h->callee, nargs, j);
      ok = use == 'u' || (use == 'm' && g->handle == mid);
    }
  }
  return found == 1 && ok;
}

/* Whether what the host sees of k's data is what the device holds, kept
 * or not: nothing comes back from the device, nothing changes it there,
 * and the host changed nothing between the calls. A host read then needs
 * no `target update`. */
static int host_copy_is_device_copy(const kept_t *k) {
  return !k->from && !k->dev_changes && !k->host_changed && !k->to_written;
}

/* Whether the middle function's letter use for its parameter at pos (fn,
 * of nparams parameters; mid the handle of its call that maps k's data)
 * leaves that data to the call: 'u', 'm', 'e' passed on to that call, or
 * 'r' or 'b' reads where the host's copy is the device's. */
static int middle_leaves(const ompdp_rw_plan_t *c, const kept_t *k, uint32_t mid, char use,
                         const char *fn, size_t nparams, size_t pos) {
  if (use == 'u' || use == 'm')
    return 1;
  if (use == 'r')
    return host_copy_is_device_copy(k);
  if ((use != 'e' && use != 'b') || !passes_on(c, mid, fn, nparams, pos))
    return 0;
  return use == 'e' || host_copy_is_device_copy(k);
}

/* Text t with `*(&v)` turned into `v` and parentheses around a name or a
 * number dropped (`((v))` -> `v`), not those of a call or a cast. */
static char *tidy(char *t) {
  for (int changed = 1; changed;) {
    changed = 0;
    for (char *o = strchr(t, '('); o; o = strchr(o + 1, '(')) {
      char *e = o + 1;
      int addr = o > t && o[-1] == '*' && *e == '&';
      if (addr)
        ++e;
      const char *b = e;
      while (isalnum((unsigned char)*e) || *e == '_' || *e == '.')
        ++e;
      /* Not a call's `f(x)`, nor a cast's `(T)x`. */
      if (*e != ')' || e == b || (!addr && o > t && (isalnum((unsigned char)o[-1]) || o[-1] == '_')) ||
          isalnum((unsigned char)e[1]) || e[1] == '_' || e[1] == '(')
        continue;
      size_t n = (size_t)(e - b);
      char *from = addr ? o - 1 : o;
      memmove(from, b, n);
      memmove(from + n, e + 1, strlen(e + 1) + 1);
      changed = 1;
      break;
    }
  }
  return t;
}

/* Whether the value that `*p` reads in the middle function (p its
 * parameter, whose argument at k->call is call_arg) stays the same for
 * the whole loop of k->call: the argument is `&v` of a variable whose
 * address its function passes only to calls in that loop (ADDR_ARGS_ONLY),
 * and the host code of the loop at most reads v, itself or through the
 * calls it passes `&v` to, whose own tables say they only read it ('r')
 * or never name it ('u'), the call itself included. */
static int pointee_invariant(const ompdp_rw_plan_t *c, const kept_t *k,
                             const ompdp_region_info_t *call_arg) {
  const ompdp_region_info_t *call = &k->call_ri.items[0];
  const ompdp_region_info_t *m0 = &k->mid_ri.items[0];
  if (call_arg->expr[0] != '&' || !(call_arg->access_flags & OMPDP_IA_ADDR_ARGS_ONLY))
    return 0;
  /* The call itself (whose statement the records may leave out): each
   * parameter of the middle function it passes `&v` for only reads
   * through it or never names it. */
  size_t np = count_lines(m0->fn_parameters);
  for (uint32_t j = 0; j < k->call_ri.reg.num_items && j < np; ++j) {
    const ompdp_region_info_t *x = &k->call_ri.items[j];
    if (strcmp(x->variable, call_arg->variable) || strcmp(x->expr, call_arg->expr))
      continue;
    char use = m0->fn_param_uses && j < strlen(m0->fn_param_uses) ? m0->fn_param_uses[j] : 0;
    if (use != 'r' && use != 'u')
      return 0;
  }
  for (uint32_t h = 0; h < call_arg->num_host_accesses; ++h) {
    const ompdp_host_access_t *a = &call_arg->host_accesses[h];
    if (a->Flags & OMPDP_HA_UNNAMED)
      return 0;
    if (!a->ExternArgs) {
      if (a->Access != OMPDP_ACCESS_READ)
        return 0;
      continue;
    }
    ompdp_rw_extern_arg_t args[32];
    size_t n = ompdp_rw_extern_args(c->facts, call->source_file, call->function,
                                    call_arg->variable, call_arg->expr, a, args, 32);
    if (n != a->ExternArgs)
      return 0;
    for (size_t i = 0; i < n; ++i) {
      const ompdp_region_info_t *ci = &args[i].call->head;
      if (ci->indirect_callee || !ci->callee)
        return 0;
      char use = definition_letter(c->facts, ci->callee, strlen(ci->callee),
                                   count_lines(ci->parameters), args[i].pos, 1);
      if (use != 'r' && use != 'u')
        return 0;
    }
  }
  return 1;
}

/* text (an item of the construct's function, as written) in the words of
 * k->call's function, through the middle call: its arguments in the
 * middle function's parameters (k->mid_ri), then k->call's arguments for
 * those. NULL with why set when that cannot be. */
static char *lift_words(const ompdp_rw_plan_t *c, const kept_t *k, const char *text,
                        const char *params, ompdp_strbuf_t *why) {
  const ompdp_region_info_t *m0 = &k->mid_ri.items[0];
  /* Each parameter the text names: an argument the middle function can
   * write in its parameters, and for each `*p` in that (ParamArgs writes a
   * read through p so, and a product with blanks around its `*`), a value
   * that stays the same for the whole loop. */
  for (const char *q = text; *q;) {
    if (!(isalpha((unsigned char)*q) || *q == '_')) {
      q += isdigit((unsigned char)*q) ? strspn(q, "0123456789abcdefABCDEFxXuUlL.") : 1;
      continue;
    }
    const char *b = q;
    while (isalnum((unsigned char)*q) || *q == '_')
      ++q;
    int member = b > text && (b[-1] == '.' || (b[-1] == '>' && b > text + 1 && b[-2] == '-'));
    int pos = member ? -1 : ompdp_rw_line_index(params, b, (size_t)(q - b));
    if (pos < 0 || (uint32_t)pos >= k->mid_ri.reg.num_items)
      continue;
    const char *in = k->mid_ri.items[pos].expr;
    if (!in[0]) {
      const char *line;
      size_t len;
      if (!nth_line(m0->arguments, (size_t)pos, &line, &len))
        line = NULL;
      ompdp_sb_printf(why,
                      "the call at %s:%" PRIu32 " passes `%.*s` for `%.*s`, which ompdp cannot "
                      "write in the parameters of %s() (a variable it computes or changes)",
                      ompdp_rw_basename(m0->file), m0->line, line ? (int)len : 1,
                      line ? line : "?", (int)(q - b), b, m0->function);
      return NULL;
    }
    for (const char *d = in; (d = strchr(d, '*')) != NULL; ++d) {
      const char *pb = d + 1, *pe = pb;
      while (isalnum((unsigned char)*pe) || *pe == '_')
        ++pe;
      if (pe == pb || isdigit((unsigned char)*pb))
        continue; /* (a product: ` * `) */
      int pp = ompdp_rw_line_index(m0->fn_parameters, pb, (size_t)(pe - pb));
      const ompdp_region_info_t *arg =
          pp >= 0 && (uint32_t)pp < k->call_ri.reg.num_items ? &k->call_ri.items[pp] : NULL;
      if (!arg || !pointee_invariant(c, k, arg)) {
        const ompdp_region_info_t *call = &k->call_ri.items[0];
        ompdp_sb_printf(why,
                        "%s() reads `%.*s` for `%.*s` in `%s`, and the compiler cannot tell "
                        "that what the call at %s:%" PRIu32 " passes for it (`%s`) keeps its "
                        "value for the whole loop",
                        m0->function, (int)(pe - d), d, (int)(q - b), b, text,
                        ompdp_rw_basename(call->file), call->line, arg ? arg->expr : "?");
        return NULL;
      }
    }
  }
  char *mid = ompdp_rw_in_caller_words(text, params, &k->mid_ri, why);
  if (!mid)
    return NULL;
  char *out = ompdp_rw_in_caller_words(mid, m0->fn_parameters, &k->call_ri, why);
  free(mid);
  return out ? tidy(out) : NULL;
}

/* The constructs of k's data ran in one call of their function (k->first,
 * in no loop); where the run saw that call's function called by one call
 * in a loop of another function every time, the data is kept around that
 * loop (two levels): 0 with k changed to it, else -1 (why says why when
 * the shape is this one). */
static int lift(const ompdp_rw_plan_t *c, kept_t *k, ompdp_strbuf_t *why) {
  const ompdp_plan_t *p = c->facts;
  ompdp_region_info_t up;
  uint32_t uph = k->first.outer_call;
  if (!uph || ompdp_plan_describe(p, uph, -1, &up) || up.construct != OMPDP_CK_CALL ||
      !callee_is(up.callee, k->first.function) || up.loop_kind == OMPDP_LK_NONE ||
      up.indirect_callee)
    return -1;
  if (ompdp_rw_load_region(c, k->first_call, &k->mid_ri) ||
      ompdp_rw_load_region(c, uph, &k->call_ri))
    return -1;
  ompdp_region_info_t *m0 = &k->mid_ri.items[0];
  size_t nargs = count_lines(m0->parameters);
  if (!m0->param_args || !*m0->param_args) {
    ompdp_sb_printf(why,
                    "%s() calls %s() in the %s loop at %s:%" PRIu32 " every time, and a "
                    "`target data` around that loop would keep it on the device, but the "
                    "call at %s:%" PRIu32 " passes nothing that ompdp can write in %s()'s "
                    "parameters (its plugin is older, or each argument is a value "
                    "computed there)",
                    up.function, k->first.function, ompdp_loop_kind_name(up.loop_kind),
                    ompdp_rw_basename(up.file), up.loop_line, ompdp_rw_basename(k->first.file),
                    k->first.line, k->first.function);
    return -1;
  }
  if (count_lines(up.parameters) != count_lines(m0->fn_parameters) ||
      (m0->extern_callee && nargs != count_lines(k->outer->fn_parameters)))
    return -1;
  /* Each call of the middle function made the call that maps it once (the
   * updates and the prediction count the loop's calls). */
  if (!up.call_runs || !k->calls || up.call_runs != k->calls) {
    ompdp_sb_printf(why,
                    "%s() calls %s() in the %s loop at %s:%" PRIu32 " every time, but the "
                    "run saw %s() called %" PRIu64 " times there and its call at %s:%" PRIu32
                    " run %" PRIu64 " times, so a `target data` around that loop would not "
                    "serve each call alike",
                    up.function, k->first.function, ompdp_loop_kind_name(up.loop_kind),
                    ompdp_rw_basename(up.file), up.loop_line, k->first.function,
                    (uint64_t)up.call_runs, ompdp_rw_basename(k->first.file), k->first.line,
                    k->calls);
    return -1;
  }
  k->mid_args = ompdp_strdup(m0->param_args);
  if (!k->mid_args)
    return -1;
  /* Each argument of the middle call becomes its ParamArgs line: one that
   * does not change in the call (the middle's parameters are its values at
   * entry), or none. */
  char *line = k->mid_args;
  for (size_t j = 0; j < nargs && j < k->mid_ri.reg.num_items; ++j) {
    char *e = line ? strchr(line, '\n') : NULL;
    if (e)
      *e = 0;
    ompdp_region_info_t *x = &k->mid_ri.items[j];
    x->expr = line ? line : "";
    if (x->expr[0])
      x->access_flags |= OMPDP_IA_ARG_INVARIANT;
    else
      x->access_flags &= ~(uint32_t)OMPDP_IA_ARG_INVARIANT;
    line = e ? e + 1 : NULL;
  }
  /* The construct's items name the definition's parameters, and so do
   * the middle function's ParamArgs: the calls bind them by position. */
  const char *params = m0->extern_callee ? k->outer->fn_parameters : m0->parameters;
  int up_extern = k->call_ri.items[0].extern_callee;
  for (uint32_t j = 0; j < k->mid_ri.reg.num_items; ++j)
    k->mid_ri.items[j].parameters = params;
  for (uint32_t j = 0; j < k->call_ri.reg.num_items; ++j)
    if (up_extern)
      k->call_ri.items[j].parameters = m0->fn_parameters;
  /* The kept variable: a parameter of the construct's function that the
   * middle function passes one of its own parameters for. */
  const char *var = k->outer->variable;
  int vp = ompdp_rw_line_index(params, var, strlen(var));
  const char *pass = vp >= 0 && (uint32_t)vp < k->mid_ri.reg.num_items ? k->mid_ri.items[vp].expr
                                                                         : "";
  if (!*pass || ompdp_rw_line_index(m0->fn_parameters, pass, strlen(pass)) < 0) {
    ompdp_sb_printf(why,
                    "%s() calls %s() in the %s loop at %s:%" PRIu32 " every time, but the "
                    "call at %s:%" PRIu32 " passes no parameter of %s() for `%s`",
                    up.function, k->first.function, ompdp_loop_kind_name(up.loop_kind),
                    ompdp_rw_basename(up.file), up.loop_line, ompdp_rw_basename(k->first.file),
                    k->first.line, k->first.function, var);
    return -1;
  }
  /* What the middle function's own host code does with it (its
   * FnParamUses letter; the call that maps it is followed where its
   * callee's body is in that file): nothing, only passing it on to that
   * call, or only reading data that every copy of leaves the same. */
  int pp = ompdp_rw_line_index(m0->fn_parameters, pass, strlen(pass));
  char use = m0->fn_param_uses && pp >= 0 && (size_t)pp < strlen(m0->fn_param_uses)
                 ? m0->fn_param_uses[pp]
                 : 0;
  if (!middle_leaves(c, k, k->first_call, use, m0->function, count_lines(m0->fn_parameters),
                     (size_t)pp)) {
    ompdp_sb_printf(why,
                    "%s() calls %s() in the %s loop at %s:%" PRIu32 " every time, but the host "
                    "code of %s() uses `%s` besides passing it to %s() (or the compiler cannot "
                    "tell that it does not), and would not see the data kept on the device",
                    up.function, k->first.function, ompdp_loop_kind_name(up.loop_kind),
                    ompdp_rw_basename(up.file), up.loop_line, k->first.function, pass,
                    k->mid_ri.items[0].callee);
    return -1;
  }
  k->lift_var = ompdp_strdup(pass);
  k->lift_expr = k->lift_var ? lift_words(c, k, k->outer->expr, params, why) : NULL;
  if (!k->lift_expr)
    return -1;
  k->mid = k->first_call;
  k->call = uph;
  k->row = 0;
  k->first = k->last = up;
  k->first_call = k->last_call = uph;
  k->seen[0] = uph;
  k->nseen = 1;
  return 0;
}

/* Checks every site of buffer bi for the rewrite at the caller (0), or
 * says why not in why (-1; nothing said: no call was involved). removed:
 * sites another rule rewrites. */
static int check_buffer(const ompdp_rw_plan_t *c, uint32_t bi, const size_t *removed, kept_t *k,
                        ompdp_strbuf_t *why) {
  const ompdp_plan_t *p = c->facts;
  const ompdp_plan_buf_t *b = &p->bufs[bi - 1];
  memset(k, 0, sizeof(*k));
  if (b->num_sites <= 0)
    return -1;
  k->dev = b->device;
  if (fresh_buffer(p, b, why))
    return -1;
  ompdp_region_info_t call0 = {0};
  int have_call = 0;
  uint32_t primary = primary_call(p, b);
  for (int j = 0; j < b->num_sites; ++j) {
    uint32_t x = b->sites[j] - 1;
    const ompdp_rw_site_t *s = &p->sites[x];
    ompdp_region_info_t it, call;
    /* Executions of its calls in the loop; its construct's begins in them,
     * and in its calls outside the loop. */
    uint64_t in_runs = 0, in_begins = 0, out_begins = 0;
    int outside = 0;
    uint32_t loop_call = 0;
    if (ompdp_plan_describe(p, s->region, s->item < 0 ? -1 : s->item, &it))
      return -1;
    if (!site_calls_known(c, s, &it, &call)) {
      if (have_call || j + 1 < b->num_sites || s->call_mixed)
        ompdp_sb_printf(why,
                        "the %s construct at %s:%" PRIu32 " maps it, and the run saw it run "
                        "outside the calls it could follow (a call it could not see, more "
                        "than %d, or a call through a pointer that also called a function "
                        "none of whose constructs ran)",
                        ompdp_construct_kind_name(it.construct), ompdp_rw_basename(it.file),
                        it.line, OMPDP_CONTEXT_CALLS);
      return -1;
    }
    if (!have_call) {
      uint32_t h0 = s->call;
      if (primary && primary != s->call && !ompdp_plan_describe(p, primary, -1, &call0))
        h0 = primary;
      else
        call0 = call;
      have_call = 1;
      k->row = call0.loop_kind == OMPDP_LK_NONE;
      k->first = k->last = call0;
      k->first_call = k->last_call = h0;
    }
    /* Every call it ran in: in the loop, or in the block of the row. */
    for (int q = 0; q < OMPDP_CONTEXT_CALLS && nth_call(s, q); ++q) {
      uint32_t h = nth_call(s, q);
      if (q || j)
        (void)ompdp_plan_describe(p, h, -1, &call);
      if (!k->row && outside_loop(&call, &call0)) {
        outside = 1; /* a call before or after the loop: left as it is */
        out_begins += nth_call_runs(s, q) ? nth_call_runs(s, q) : UINT32_MAX;
        continue;
      }
      in_runs += call.call_runs;
      in_begins += nth_call_runs(s, q) ? nth_call_runs(s, q) : UINT32_MAX;
      if (!loop_call)
        loop_call = h;
      if (k->row ? !same_block(&call, &call0) : !same_loop(&call, &call0)) {
        ompdp_sb_printf(why,
                        "it is mapped in calls at %s:%" PRIu32 " and %s:%" PRIu32
                        ", which are not in one %s",
                        ompdp_rw_basename(call0.file), call0.line, ompdp_rw_basename(call.file),
                        call.line, k->row ? "block of one function" : "loop");
        return -1;
      }
      /* A callee defined in another file: the call binds its arguments
       * by position, and the construct's item is written with the names of
       * the definition (FnParameters), which the call's region then uses
       * (its Parameters are the names of the declaration it saw, which may
       * differ). Both must have as many parameters. */
      if (call.extern_callee && count_lines(call.parameters) != count_lines(it.fn_parameters)) {
        ompdp_sb_printf(why,
                        "the declaration of %s that the call at %s:%" PRIu32 " sees has another "
                        "number of parameters than its definition in %s, so ompdp cannot tell "
                        "which argument the construct at %s:%" PRIu32 " maps",
                        it.function, ompdp_rw_basename(call.file), call.line,
                        ompdp_rw_basename(it.file), ompdp_rw_basename(it.file), it.line);
        return -1;
      }
      int known = 0;
      for (int u = 0; u < k->nseen && !known; ++u)
        known = k->seen[u] == h;
      if (!known && k->nseen < (int)(sizeof(k->seen) / sizeof(k->seen[0])))
        k->seen[k->nseen++] = h;
      if (call.stmt_offset < k->first.stmt_offset) {
        k->first = call;
        k->first_call = h;
      } else if (call.stmt_offset > k->last.stmt_offset) {
        k->last = call;
        k->last_call = h;
      }
    }
    /* Calls outside the loop too (a warm-up or a check before it): the
     * run counted the construct's begins in each call, and each of them
     * did the same operations, so that the loop's share of them is known. */
    ompdp_rw_site_t sc = *s;
    uint64_t site_calls = s->calls;
    if (outside) {
      uint64_t total = in_begins + out_begins;
      if (!in_runs || !in_begins || s->runs != total || s->h2d % total || s->d2h % total ||
          s->allocs % total || s->deletes % total) {
        ompdp_sb_printf(why,
                        "the %s construct at %s:%" PRIu32 " also maps it in calls outside the "
                        "loop at %s:%" PRIu32 ", and its operations there and in the loop are "
                        "not the same each time, so the loop's share of them is not known",
                        ompdp_construct_kind_name(it.construct), ompdp_rw_basename(it.file),
                        it.line, ompdp_rw_basename(call0.file), call0.loop_line);
        return -1;
      }
      site_share(&sc, in_begins, total);
      site_calls = in_runs;
      k->outside_calls = 1;
    }
    /* In a loop, the repeats must come from the calls: one call repeats
     * nothing. */
    if (!k->row && site_calls < 2)
      return -1;
    if (removed[x])
      return -1; /* another rule rewrites this construct: its own words say so */
    if (s->multi_buf || s->sizes_differ) {
      ompdp_sb_printf(why,
                      "the %s construct at %s:%" PRIu32 " maps %s from one call to the next",
                      ompdp_construct_kind_name(it.construct), ompdp_rw_basename(it.file),
                      it.line,
                      s->multi_buf ? "other host buffers" : "sections of other sizes");
      return -1;
    }
    k->sites[k->n++] = x;
    add_function(k, &it);
    if (s->item < 0)
      continue; /* the deletes of a construct that did not allocate */
    if (it.nowait || (it.modifiers & OMPDP_MOD_ALWAYS) || it.map_type == OMPDP_MT_DELETE) {
      ompdp_sb_printf(why,
                      "the %s construct at %s:%" PRIu32 " maps it with %s, which a `target "
                      "data` around the calls would not keep",
                      ompdp_construct_kind_name(it.construct), ompdp_rw_basename(it.file),
                      it.line,
                      it.nowait ? "`nowait`" : it.map_type == OMPDP_MT_DELETE ? "`delete`"
                                                                              : "`always`");
      return -1;
    }
    int update = it.construct == OMPDP_CK_TARGET_UPDATE;
    /* (An item its function allocates anew and uses: fresh_buffer above.) */
    if (!update && !(it.access_flags & OMPDP_IA_FN_HOST_UNUSED)) {
      if (!(it.access_flags & OMPDP_IA_PARAMS_ONLY) && ompdp_rw_explicit_item(&it))
        /* (The compiler looks at the function's host code only for an
         * item a caller could write.) */
        ompdp_sb_printf(why,
                        "`%s` at %s:%" PRIu32 " names more than the parameters of %s (a "
                        "local, a member, a template's parameter or an enumerator of its "
                        "own), so it cannot be written at the call",
                        it.expr, ompdp_rw_basename(it.file), it.line, it.function);
      else if (ompdp_rw_has_from(it.map_type))
        ompdp_sb_printf(why,
                        "host code of %s uses `%s` (or the compiler cannot tell that it does "
                        "not), and would no longer see the device's copy come back there",
                        it.function, it.variable);
      else if (it.access_flags & OMPDP_IA_FN_HOST_READS) {
        /* Reads only: what they see is the host's copy, kept or not,
         * where nothing comes back (checked once every site is). */
        k->fn_reads = it.function;
        k->fn_reads_var = it.variable;
        goto host_reads_only;
      } else
        ompdp_sb_printf(why,
                        "host code of %s uses `%s` (or the compiler cannot tell that it does "
                        "not): it may change it between the calls, and a copy kept on the "
                        "device would miss the change",
                        it.function, it.variable);
      return -1;
    }
  host_reads_only:
    if (ompdp_rw_has_to(it.map_type) && !ompdp_rw_has_from(it.map_type) &&
        (it.access == OMPDP_ACCESS_WRITE || it.access == OMPDP_ACCESS_READ_WRITE)) {
      ompdp_sb_printf(why,
                      "the region at %s:%" PRIu32 " writes this `to` item, so each call must "
                      "start from the host's copy",
                      ompdp_rw_basename(it.file), it.line);
      return -1;
    }
    /* Sent and never copied back: today each call starts from the host's
     * copy, kept it would start from what the device left there. */
    if (ompdp_rw_has_to(it.map_type) && !(it.access_flags & OMPDP_IA_FN_DEVICE_READS))
      k->to_written = 1;
    if (s->host_changed)
      k->host_changed = 1;
    if (update)
      continue; /* an update moves what it moves, kept or not */
    k->to |= ompdp_rw_has_to(it.map_type);
    k->to_read |= ompdp_rw_has_to(it.map_type) && !(it.access_flags & OMPDP_IA_WRITES_FIRST);
    k->from |= ompdp_rw_has_from(it.map_type);
    if (ompdp_rw_device_changes(s, &it))
      k->dev_changes = 1;
    k->before += sc.h2d + sc.d2h;
    k->bytes_before += sc.bytes_h2d + sc.bytes_d2h;
    k->allocs += sc.allocs;
    k->dur_before += sc.dur_h2d + sc.dur_d2h + sc.dur_alloc + sc.dur_delete;
    ompdp_oc_add(k->rm, OMPDP_OC_H2D, sc.h2d, sc.bytes_h2d, sc.dur_h2d);
    ompdp_oc_add(k->rm, OMPDP_OC_D2H, sc.d2h, sc.bytes_d2h, sc.dur_d2h);
    ompdp_rw_oc_site_allocs(k->rm, &sc, sc.allocs, 1);
    /* The largest section the callee maps, written as it is there. */
    if (s->allocs && s->alloc_bytes > k->size && ompdp_rw_explicit_item(&it)) {
      k->size = s->alloc_bytes;
      k->outer = NULL;
      free(k->outer_ri.items);
      k->outer_ri.items = NULL;
      if (!(it.access_flags & OMPDP_IA_PARAMS_ONLY)) {
        ompdp_sb_printf(why,
                        "`%s` at %s:%" PRIu32 " names more than the parameters of %s, so it "
                        "cannot be written at the call",
                        it.expr, ompdp_rw_basename(it.file), it.line, it.function);
        return -1;
      }
      if (ompdp_rw_load_region(c, s->region, &k->outer_ri))
        return -1;
      k->outer = &k->outer_ri.items[s->item];
      k->call = outside ? loop_call : s->call;
    }
    /* Each call runs it as often: the updates are counted per call. */
    if (k->calls && site_calls != k->calls) {
      ompdp_sb_puts(why, "the calls that map it ran different numbers of times");
      return -1;
    }
    k->calls = site_calls;
  }
  if (!k->outer || k->allocs < 2)
    return -1;
  if (k->fn_reads && !host_copy_is_device_copy(k)) {
    ompdp_sb_printf(why,
                    "host code of %s reads `%s`, and what it reads would no longer be what the "
                    "device's copy holds",
                    k->fn_reads, k->fn_reads_var);
    return -1;
  }
  if (k->row && k->nseen < 2 && lift(c, k, why) < 0 && !why->len) {
    /* One call: what repeats it is further up. Where the run saw the
     * call's function called from one loop every time, that loop is the
     * place to keep it (lift); these words where it could not say more. */
    ompdp_region_info_t up;
    if (!ompdp_plan_describe(p, k->first.outer_call, -1, &up) &&
        up.construct == OMPDP_CK_CALL && callee_is(up.callee, k->first.function) &&
        up.loop_kind != OMPDP_LK_NONE)
      ompdp_sb_printf(why,
                      "the call at %s:%" PRIu32 " that repeats it is in no loop of %s either; "
                      "%s() calls %s() in the %s loop at %s:%" PRIu32 " every time, and a "
                      "`target data` around that loop, with `%s` written in %s()'s terms, "
                      "would keep it on the device from one call to the next, but ompdp keeps "
                      "data at one caller only",
                      ompdp_rw_basename(k->first.file), k->first.line, k->first.function,
                      up.function, k->first.function, ompdp_loop_kind_name(up.loop_kind),
                      ompdp_rw_basename(up.file), up.loop_line, k->outer->expr, up.function);
    else
      ompdp_sb_printf(why,
                      "the call at %s:%" PRIu32 " that repeats it is in no loop of %s either, "
                      "and ompdp keeps data at one caller only",
                      ompdp_rw_basename(k->first.file), k->first.line, k->first.function);
    return -1;
  }
  if (k->row && k->nseen < 2 && !k->mid)
    return -1; /* (lift said why) */
  if (k->to_written && !k->from) {
    ompdp_sb_printf(why,
                    "device code of %s may write `%s`, which no construct copies back: each "
                    "call starts from the host's copy, which keeping it would change",
                    k->outer->function, k->outer->variable);
    return -1;
  }
  if (k->mid)
    return 0; /* (lift loaded k->call's records) */
  if (ompdp_rw_load_region(c, k->call, &k->call_ri))
    return -1;
  /* A callee defined in another file: its definition's names (checked
   * above to be as many) bind the call's arguments. */
  if (k->call_ri.reg.num_items && k->call_ri.items[0].extern_callee)
    for (uint32_t j = 0; j < k->call_ri.reg.num_items; ++j)
      k->call_ri.items[j].parameters = k->outer->fn_parameters;
  return 0;
}

/* A call the run saw k's data mapped in (k->seen) whose statement holds
 * host access a (the call's arguments, or a statement that holds the
 * call): 1 with it in *ci. extern_only: only calls of functions defined in
 * another file, and a call the plan cannot describe is passed over;
 * otherwise such a call counts (nothing shows it is elsewhere). */
static int call_at(const ompdp_rw_plan_t *c, const kept_t *k, const ompdp_host_access_t *a,
                   int extern_only, ompdp_region_info_t *ci) {
  for (int q = 0; q < k->nseen; ++q) {
    if (ompdp_plan_describe(c->facts, k->seen[q], -1, ci)) {
      if (!extern_only)
        return 1;
      continue;
    }
    if ((!extern_only || ci->extern_callee) && a->Offset <= ci->directive_offset &&
        ci->directive_offset - a->Offset < a->Length)
      return 1;
  }
  return 0;
}

/* Whether braces can go around calls in a row (k->first .. k->last): 0,
 * or -1 with the reason in why. */
static int row_placeable(const kept_t *k, ompdp_strbuf_t *why) {
  const ompdp_region_info_t *f = &k->first, *l = &k->last;
  if (ompdp_rw_row_split(f, l, "calls", why))
    return -1;
  if (f->stmt_is_decl || l->stmt_is_decl) {
    ompdp_sb_printf(why,
                    "the call at %s:%" PRIu32 " is in a declaration, whose names braces around "
                    "the calls would hide from the code after them",
                    ompdp_rw_basename(f->file), (f->stmt_is_decl ? f : l)->line);
    return -1;
  }
  if (f->block_decls != l->block_decls || !f->stmt_own_lines || !l->stmt_own_lines ||
      !f->stmt_line || !l->stmt_end_line || !f->stmt_column || f->stmt_column > 512) {
    ompdp_sb_printf(why,
                    "the calls at %s:%" PRIu32 " and %" PRIu32 " are not statements on lines of "
                    "their own with no declaration between them, around which braces could go",
                    ompdp_rw_basename(f->file), f->line, l->line);
    return -1;
  }
  return 0;
}

/* `#pragma omp target data map(type: expr)` and `{` on lines of their own
 * before the first call of the row, `}` after the last. */
static int row_braces(ompdp_rewrite_t *rw, const kept_t *k, ompdp_map_type_t type,
                      const char *expr, const char **why) {
  int ind = (int)k->first.stmt_column - 1;
  ompdp_strbuf_t open = {0}, close = {0};
  ompdp_sb_printf(&open, "%*s#pragma omp target data map(%s: %s)\n%*s{\n", ind, "",
                  ompdp_map_type_name(type), expr, ind, "");
  ompdp_sb_printf(&close, "%*s}\n", ind, "");
  char *o = ompdp_sb_take(&open), *c = ompdp_sb_take(&close);
  int rc = !o || !c ? (*why = OMPDP_RW_OOM, -1)
           : ompdp_rw_add_edit(rw, &k->first, k->first.stmt_line, 1, k->first.stmt_line, 1, "",
                               o, why) ||
                   ompdp_rw_add_edit(rw, &k->first, k->last.stmt_end_line + 1, 1,
                                     k->last.stmt_end_line + 1, 1, "", c, why)
               ? -1
               : 0;
  free(o);
  free(c);
  return rc;
}

/* Of a call through a pointer, callee names every function the run saw it
 * call, one per line: the least any of them allows, 0 when one of them has
 * no record. */
char ompdp_rw_callee_param_use(const ompdp_plan_t *p, const char *callee, size_t nparams,
                               size_t pos) {
  char use = 0;
  const char *q = callee, *name;
  size_t l;
  while (next_line(&q, &name, &l)) {
    char c = definition_letter(p, name, l, nparams, pos, 0);
    if (!c)
      return 0;
    use = least_use(use, c);
  }
  return use;
}

/* The name of a call's parameter at pos (params one per line), for words. */
static void put_param(ompdp_strbuf_t *d, const char *params, size_t pos) {
  const char *name;
  size_t len;
  if (!nth_line(params, pos, &name, &len) || !len || *name == '#') {
    ompdp_sb_printf(d, "its parameter %zu", pos + 1); /* unnamed (a pointer's type: #k) */
    return;
  }
  ompdp_sb_printf(d, "its parameter `%.*s`", (int)len, name);
}

size_t ompdp_rw_extern_args(const ompdp_plan_t *p, const char *source_file,
                            const char *function, const char *variable, const char *expr,
                            const ompdp_host_access_t *a, ompdp_rw_extern_arg_t *out,
                            size_t max) {
  size_t n = 0;
  if (!a->ExternArgs || !a->Length || !source_file)
    return 0;
  for (size_t i = 0; i < p->num_regions && n < max; ++i) {
    const ompdp_plan_region_t *g = &p->regions[i];
    const ompdp_region_info_t *ci = &g->head;
    if (ci->construct != OMPDP_CK_CALL || !ci->extern_callee || !ci->source_file ||
        strcmp(ci->source_file, source_file) ||
        (function && (!ci->function || strcmp(ci->function, function))) ||
        ci->directive_offset < a->Offset ||
        ci->directive_offset - a->Offset >= a->Length)
      continue;
    size_t nparams = count_lines(ci->parameters);
    for (uint32_t j = 0; j < ci->num_items && j < nparams && n < max; ++j) {
      const ompdp_region_info_t *x = &g->items[j];
      if (strcmp(x->variable, variable) ||
          (strcmp(x->expr, variable) && (!expr || strcmp(x->expr, expr))))
        continue;
      out[n].call = g;
      out[n].pos = j;
      out[n].use = ompdp_rw_callee_param_use(p, ci->callee, nparams, j);
      ++n;
    }
  }
  return n;
}

int ompdp_rw_extern_calls_leave(const ompdp_plan_t *p, const char *source_file,
                                const char *function, const char *variable, const char *expr,
                                const ompdp_host_access_t *a) {
  ompdp_rw_extern_arg_t args[32];
  size_t n = ompdp_rw_extern_args(p, source_file, function, variable, expr, a, args, 32);
  if (!n || n != a->ExternArgs)
    return 0;
  for (size_t i = 0; i < n; ++i)
    if (args[i].use != 'u' && args[i].use != 'm')
      return 0;
  return 1;
}

/* Host access a of the kept data (arg, the outer call's argument) in the
 * caller: 1 when it is no host use the kept copy needs to be told of, 0
 * when it is one (the general rules then apply), -1 with the reason in why
 * when it rules the rewrite out.
 *   - The statement passes the variable itself only to calls of functions
 *     defined elsewhere (ExternArgs): each callee's own table must record
 *     that its host code leaves that parameter alone ('u'), or names it
 *     only in its constructs ('m', which the run must have seen map this
 *     data in that call: the rule checked each of them), and those calls
 *     must be all of them.
 *   - The statement never names it (UNNAMED): only an opaque call might
 *     reach it, through another pointer. For data sent and never changed
 *     on the device, a read there sees the same bytes, and the run saw no
 *     call send bytes the device did not have (no host write between the
 *     calls); otherwise the general rules count it as a use. */
static int elsewhere(const ompdp_rw_plan_t *c, const kept_t *k, const ompdp_region_info_t *call,
                     const ompdp_region_info_t *arg, const ompdp_host_access_t *a,
                     ompdp_strbuf_t *why) {
  const ompdp_plan_t *p = c->facts;
  if (a->Flags & OMPDP_HA_UNNAMED)
    return host_copy_is_device_copy(k);
  if (!a->ExternArgs || !a->Length)
    return 0;
  ompdp_rw_extern_arg_t args[32];
  size_t found = ompdp_rw_extern_args(p, call->source_file, call->function, arg->variable,
                                      arg->expr, a, args, 32);
  for (size_t i = 0; i < found; ++i) {
    const ompdp_region_info_t *ci = &args[i].call->head;
    char use = args[i].use;
    int seen = 0;
    for (int q = 0; q < k->nseen && !seen; ++q)
      seen = k->seen[q] == args[i].call->handle;
    if (use == 'u' || (use == 'm' && seen))
      continue;
    /* Two levels: the call of the middle function, which passes the data
     * on to the call that maps it ('e'), only reads it ('r') or both
     * ('b'), a read where the device's copy is the host's throughout. */
    if (k->mid && args[i].call->handle == k->call && ci->callee && !ci->indirect_callee) {
      size_t np = count_lines(ci->parameters);
      char raw = definition_letter(p, ci->callee, strlen(ci->callee), np, args[i].pos, 1);
      if ((raw == 'e' || raw == 'r' || raw == 'b') &&
          middle_leaves(c, k, k->mid, raw, ci->callee, np, args[i].pos))
        continue;
      if (raw && use != 'm')
        use = raw == 'u' ? 'u' : '-'; /* (for the words: its definition is known) */
    }
    ompdp_sb_printf(why, "the call at %s:%" PRIu32 " passes `%s` to ",
                    ompdp_rw_basename(ci->file), ci->line, arg->variable);
    put_callee(why, ci->callee);
    ompdp_sb_puts(why, ", ");
    if (!use && ci->indirect_callee)
      ompdp_sb_printf(why,
                      "through a pointer, and the run does not know every function it "
                      "called (more than %d, or one in which no construct ran), so ompdp "
                      "cannot tell what their host code does with the data",
                      OMPDP_CONTEXT_CALLS);
    else if (!use)
      ompdp_sb_printf(why,
                      "defined in another file for which the run recorded no definition "
                      "(none of its constructs ran, or its file was built without the ompdp "
                      "plugin), so ompdp cannot tell what its host code does with the data");
    else if (use == 'm') {
      ompdp_sb_puts(why, "which maps ");
      put_param(why, ci->parameters, args[i].pos);
      ompdp_sb_puts(why, " in constructs none of which the run saw map this data in that "
                         "call, so ompdp cannot tell how they would map it");
    } else {
      ompdp_sb_puts(why, "whose host code uses ");
      put_param(why, ci->parameters, args[i].pos);
      ompdp_sb_puts(why, " (or the compiler cannot tell that it does not), and would not "
                         "see the data kept on the device");
    }
    return -1;
  }
  if (found != a->ExternArgs) {
    ompdp_sb_printf(why,
                    "the statement at %s:%" PRIu32 " passes `%s` to a function defined in "
                    "another file in which no construct ran, so the run has no record of what "
                    "its host code does with it",
                    ompdp_rw_basename(call->file), a->Line, arg->variable);
    return -1;
  }
  return 1;
}

/* Whether a and b are the same text but for blanks. */
static int same_words(const char *a, const char *b) {
  for (;;) {
    while (*a == ' ' || *a == '\t')
      ++a;
    while (*b == ' ' || *b == '\t')
      ++b;
    if (*a != *b)
      return 0;
    if (!*a)
      return 1;
    ++a;
    ++b;
  }
}

/* The length of the first array section of text (`a[lo:len]...`): its
 * bytes [*b, *e); 0 when text has no section with a length. */
static int section_length(const char *text, size_t *b, size_t *e) {
  const char *o = strchr(text, '[');
  if (!o)
    return 0;
  int depth = 0;
  const char *colon = NULL;
  for (const char *q = o + 1; *q; ++q) {
    if (*q == '[' || *q == '(')
      ++depth;
    else if ((*q == ']' || *q == ')') && depth)
      --depth;
    else if (*q == ':' && !depth && !colon && q[1] != ':' && q[-1] != ':')
      colon = q;
    else if (*q == ']' && !depth) {
      if (!colon)
        return 0;
      *b = (size_t)(colon + 1 - text);
      *e = (size_t)(q - text);
      return 1;
    }
  }
  return 0;
}

int ompdp_rw_only_length_differs(const char *a, const char *b) {
  size_t ab, ae, bb, be;
  if (!section_length(a, &ab, &ae) || !section_length(b, &bb, &be) || ab != bb ||
      strncmp(a, b, ab) || strcmp(a + ae, b + be))
    return 0;
  return 1;
}

/* Every construct that maps k's data names, at its call, the section kept
 * (expr, the largest the run saw, in the caller's words), or one that
 * differs from it only in its length: 0, with those others' words in also
 * (for the rewrite's assumption: the kept section holds them, as it did in
 * the run); or -1 with the reason in why. Another start, or a section the
 * caller's words cannot write whose size the run saw differ, could leave a
 * map that finds its data only partly present, which fails; one whose size
 * the run saw equal is taken as the same, as for one function. */
static int same_sections(const ompdp_rw_plan_t *c, const kept_t *k, const char *expr,
                         ompdp_strbuf_t *also, ompdp_strbuf_t *why) {
  for (size_t i = 0; i < k->n; ++i) {
    const ompdp_rw_site_t *s = &c->facts->sites[k->sites[i]];
    ompdp_region_info_t it;
    if (s->item < 0 || ompdp_plan_describe(c->facts, s->region, s->item, &it) ||
        it.construct == OMPDP_CK_TARGET_UPDATE || !ompdp_rw_explicit_item(&it))
      continue;
    ompdp_rw_items_t ri = {0};
    if (!k->mid && ompdp_rw_load_region(c, s->call, &ri))
      continue;
    ompdp_strbuf_t no = {0};
    char *w = NULL;
    if (!(it.access_flags & OMPDP_IA_PARAMS_ONLY))
      ;
    else if (k->mid) /* (every site ran in the middle call) */
      w = lift_words(c, k, it.expr, k->mid_ri.items[0].parameters, &no);
    else
      w = ompdp_rw_in_caller_words(
          it.expr, ri.items[0].extern_callee ? it.fn_parameters : ri.items[0].parameters, &ri,
          &no);
    int bad = 0;
    if (!w)
      bad = s->alloc_bytes != k->size;
    else if (!same_words(w, expr)) {
      if (ompdp_rw_only_length_differs(w, expr)) {
        if (!also->len || !strstr(also->d, w))
          ompdp_sb_printf(also, "%s`%s`", also->len ? ", " : "", w);
      } else {
        bad = 1;
      }
    }
    if (bad)
      ompdp_sb_printf(why,
                      "%s() maps `%s` (%s:%" PRIu32 "), which is %s%s%s at its call, and the "
                      "section kept would be `%s`: a map that finds its data only partly "
                      "present fails",
                      it.function, it.expr, ompdp_rw_basename(it.file), it.line, w ? "`" : "",
                      w ? w : "not written with the call's arguments", w ? "`" : "", expr);
    free(w);
    free(no.d);
    free(ri.items);
    if (bad)
      return -1;
  }
  return 0;
}

/* The reason for a host use at line where no `target update` can go. */
static void nowhere(ompdp_strbuf_t *why, const ompdp_region_info_t *call, uint32_t line,
                    const char *variable) {
  ompdp_sb_printf(why,
                  "host code at %s:%" PRIu32 " uses `%s` where no `target update` can go "
                  "(or may run more than once a call)",
                  ompdp_rw_basename(call->file), line, variable);
}

/* The rewrite for kept buffer k, into rw (zeroed): 0, or -1 with the reason
 * in why. */
static int build(const ompdp_rw_plan_t *c, kept_t *k, ompdp_rewrite_t *rw, ompdp_strbuf_t *why) {
  const ompdp_region_info_t *call = &k->call_ri.items[0];
  if (!k->call_ri.reg.num_items)
    return -1;
  char *expr = k->mid ? ompdp_strdup(k->lift_expr)
                      : ompdp_rw_in_caller_words(k->outer->expr, call->parameters, &k->call_ri, why);
  if (!expr)
    return -1;
  ompdp_strbuf_t also = {0}; /* sections of other lengths kept in this one */
  if (same_sections(c, k, expr, &also, why)) {
    free(expr);
    free(also.d);
    return -1;
  }
  int rc = -1;
  ompdp_host_access_t *between = NULL; /* calls in a row: the host code between them */
  ompdp_host_access_t *others = NULL; /* the host uses left for the rules below */
  /* The call's argument for the item's variable: its host uses in the
   * loop are those of the kept data. */
  const char *var = k->mid ? k->lift_var : k->outer->variable;
  const ompdp_region_info_t *arg = call_item(&k->call_ri, var, strlen(var));
  if (!arg || !arg->variable[0]) {
    ompdp_sb_printf(why, "the call at %s:%" PRIu32 " passes no variable for `%s`",
                    ompdp_rw_basename(call->file), call->line, var);
    goto out;
  }
  ompdp_region_info_t view = *arg; /* the call's item, naming the kept section */
  view.expr = expr;
  view.implicit = 0;
  int wrap = 0;
  if (k->row) {
    /* Calls in a row: braces go around them, so no declaration, label or
     * jump may lie between them, and the host code between them is all
     * that the data's view concerns (each statement runs once a row). */
    if (row_placeable(k, why))
      goto out;
    size_t n = 0;
    uint32_t lo = k->first.stmt_offset, hi = k->last.stmt_offset + k->last.stmt_length;
    for (uint32_t h = 0; h < arg->num_host_accesses; ++h) {
      const ompdp_host_access_t *a = &arg->host_accesses[h];
      if (!a->Length || (a->Offset + a->Length > lo && a->Offset < hi))
        ++n;
    }
    between = n ? calloc(n, sizeof(*between)) : NULL;
    if (n && !between)
      goto out;
    n = 0;
    for (uint32_t h = 0; h < arg->num_host_accesses; ++h) {
      const ompdp_host_access_t *a = &arg->host_accesses[h];
      if (!a->Length || (a->Offset + a->Length > lo && a->Offset < hi)) {
        between[n] = *a;
        /* Directly in the block, between the calls: once each row. */
        if (a->Flags & OMPDP_HA_STATEMENT)
          between[n].Flags |= OMPDP_HA_EVERY_TIME;
        ++n;
      }
    }
    view.host_accesses = between;
    view.num_host_accesses = (uint32_t)n;
  } else {
    /* A jump out of the loop: enter/exit data on every path out, or none. */
    wrap = ompdp_rw_loop_wrap(&view, why);
    if (wrap < 0)
      goto out;
  }
  /* Calls of functions defined in other files, whose own tables say they
   * leave the data alone: no host use, and no update goes there. */
  uint32_t passed = 0, passed_elsewhere = 0, left = 0;
  if (view.num_host_accesses) {
    others = calloc(view.num_host_accesses, sizeof(*others));
    if (!others)
      goto out;
  }
  for (uint32_t h = 0; h < view.num_host_accesses; ++h) {
    const ompdp_host_access_t *a = &view.host_accesses[h];
    int e = elsewhere(c, k, call, arg, a, why);
    if (e < 0)
      goto out;
    if (e) {
      passed += !(a->Flags & OMPDP_HA_UNNAMED);
      /* Not the kept call's own statement. */
      passed_elsewhere += !(a->Flags & OMPDP_HA_UNNAMED) &&
                          !(a->Offset <= call->directive_offset &&
                            call->directive_offset - a->Offset < a->Length);
    } else if (!k->from && !k->dev_changes && a->Access == OMPDP_ACCESS_READ &&
               !(a->Flags & OMPDP_HA_UNNAMED)) {
      /* A read of data no call copies back: the host's copy is the same
       * kept or not, wherever the read is. */
    } else
      others[left++] = *a;
  }
  view.host_accesses = others;
  view.num_host_accesses = left;
  uint32_t uses = 0, writes = 0;
  int bound = 0;
  /* Reads where no `target update` can go (a loop's condition): with the
   * device's copy changed only in the call, one update right after the
   * call's statement serves them, and every read after it. */
  uint32_t stuck = 0, stuck_line = 0;
  /* Where one update right after the call's statement can go, and serve
   * the loop: one call site of one function changes the device's copy (an
   * update after one call would come before another's change), and the
   * call's statement stands in a block with its lines to itself. */
  int after_placeable = !k->row && k->nfns == 1 && k->nseen == 1 && call->block &&
                        call->stmt_own_lines && call->stmt_column &&
                        call->stmt_column <= 512 && call->stmt_end_line;
  /* Data the device only produces: every construct maps it `from`, or
   * `tofrom` with a copy in that nothing reads (the compiler's
   * WRITES_FIRST), so today each call's copy back gives the host
   * the device's whole section and nothing the host does reaches the
   * device. One update right after the call's statement gives the host the
   * same bytes at the same point; what host code of the loop does with
   * them after it, reads or writes, by name or through another pointer
   * (an opaque call), sees and changes what it saw and changed before, and
   * nothing needs to go back. */
  int produced = k->from && k->dev_changes && !k->to_read && !passed_elsewhere &&
                 after_placeable;
  for (uint32_t h = 0; h < view.num_host_accesses; ++h) {
    const ompdp_host_access_t *a = &view.host_accesses[h];
    /* The statement of a call of a function defined in another file, which
     * is passed the data: its compile could not see what the callee does
     * with it besides the constructs the run saw run in it. */
    ompdp_region_info_t ci;
    if (call_at(c, k, a, 1, &ci)) {
      ompdp_sb_printf(why, "the call at %s:%" PRIu32 " passes `%s` to ",
                      ompdp_rw_basename(call->file), a->Line, arg->variable);
      put_callee(why, ci.callee);
      ompdp_sb_printf(why,
                      ", %s: compiling %s, the compiler cannot see whether its host code "
                      "uses the data besides the constructs the run saw map it, so it counts "
                      "the call as host code that does",
                      ci.indirect_callee ? "called through a pointer" : "defined in another file",
                      ompdp_rw_basename(call->file));
      goto out;
    }
    if (produced && !call_at(c, k, a, 0, &ci)) {
      stuck_line = stuck++ ? stuck_line : a->Line;
      continue;
    }
    if (!(a->Flags & OMPDP_HA_STATEMENT) ||
        !(a->Flags & (OMPDP_HA_EVERY_TIME | OMPDP_HA_AT_MOST_ONCE))) {
      if (a->Access == OMPDP_ACCESS_READ && !(a->Flags & OMPDP_HA_UNNAMED)) {
        stuck_line = stuck++ ? stuck_line : a->Line;
        continue;
      }
      nowhere(why, call, a->Line, arg->variable);
      goto out;
    }
    /* A use in a call's own statement (its arguments, or a statement
     * that holds the call) runs between the updates before and after
     * that statement and the call's maps, which then find the data
     * present: no update can go between them. */
    if (call_at(c, k, a, 0, &ci)) {
      ompdp_sb_printf(why,
                      "host code at %s:%" PRIu32 " uses `%s` in the statement of a call "
                      "that maps it, where no `target update` can go between the use and "
                      "the call",
                      ompdp_rw_basename(call->file), a->Line, arg->variable);
      goto out;
    }
    bound |= !(a->Flags & OMPDP_HA_EVERY_TIME);
    ++uses;
    writes += a->Access == OMPDP_ACCESS_WRITE || a->Access == OMPDP_ACCESS_READ_WRITE;
  }
  /* Data copied back by a callee, with calls of other functions between:
   * the host's reads would need updates between calls that pass it on. */
  if (passed && k->from && uses) {
    ompdp_sb_printf(why,
                    "a function called in the loop at %s:%" PRIu32 " copies `%s` back and host "
                    "code of the loop uses it, between calls of other functions that are "
                    "passed it",
                    ompdp_rw_basename(call->file), call->loop_line, arg->variable);
    goto out;
  }
  /* (Produced data: what the host sends, if anything, nothing reads.) */
  if (k->host_changed && !writes && !produced) {
    if (k->row)
      ompdp_sb_printf(why,
                      "the host changed `%s` between calls where the compiler sees no host "
                      "code between the calls at %s:%" PRIu32 " and %" PRIu32 " write it",
                      arg->variable, ompdp_rw_basename(k->first.file), k->first.line,
                      k->last.line);
    else
      ompdp_sb_printf(why,
                      "the host changed `%s` between calls where the compiler sees no host "
                      "code of the loop at %s:%" PRIu32 " write it",
                      arg->variable, ompdp_rw_basename(call->file), call->loop_line);
    goto out;
  }
  /* The update after the call: one function's constructs in one call
   * statement change the device's copy, a statement of a block (a loop's
   * body in braces, not the body itself: the update must stay in the loop)
   * with its lines to itself, and no host code of the loop writes it (an
   * update to would have to come between). */
  int after_call = 0;
  if (stuck) {
    /* (Produced data: the only call passed it is the kept call itself.) */
    if (!k->dev_changes || writes || (passed && !produced) || !after_placeable) {
      if (k->nseen > 1 && k->first.line != k->last.line)
        ompdp_sb_printf(why,
                        "host code at %s:%" PRIu32 " uses `%s` where no `target update` can "
                        "go, and the calls at lines %" PRIu32 " and %" PRIu32 " both change the "
                        "device's copy (an update after one call would miss the other's change)",
                        ompdp_rw_basename(call->file), stuck_line, arg->variable,
                        k->first.line, k->last.line);
      else
        nowhere(why, call, stuck_line, arg->variable);
      goto out;
    }
    after_call = 1;
    uses = 1;
    bound = 0;
  }
  uint32_t num_from = k->dev_changes ? uses : 0, num_to = writes;
  int up_in = k->to || num_from;
  ompdp_map_type_t outer = up_in ? (k->dev_changes ? OMPDP_MT_TOFROM : OMPDP_MT_TO)
                                 : (k->dev_changes ? OMPDP_MT_FROM : OMPDP_MT_ALLOC);
  /* Produced data served after each call: the host's bytes are never
   * needed on the device, and the last update brings the last result. */
  int last_back = k->dev_changes; /* the copy back at the end of the kept data */
  if (produced && after_call)
    outer = OMPDP_MT_ALLOC, up_in = 0, last_back = 0;
  /* The `target data` around the loop runs once per entry of the loop
   * (the run counted them; 1 where it could not). */
  uint64_t entries = !k->row && call->loop_entries ? call->loop_entries : 1;
  if (k->allocs <= entries) {
    ompdp_sb_printf(why,
                    "the loop at %s:%" PRIu32 " began %" PRIu64 " times and its calls allocated "
                    "it %" PRIu64 " times: a `target data` around it would allocate it as often",
                    ompdp_rw_basename(call->file), call->loop_line, entries, k->allocs);
    goto out;
  }
  uint64_t moved = k->calls * (uint64_t)(num_from + num_to);
  uint64_t after = entries * ((uint64_t)up_in + (uint64_t)last_back) + moved;
  /* The kept section's base pointer stored in memory (`y[1]` of
   * `y[1][0:n]`): the map around the loop attaches it (one copy in) and
   * each update copies it back with the section. */
  uint64_t attached =
      produced && after_call && ompdp_rw_attached_base(expr) ? entries + moved : 0;
  if (after <= k->before && after + attached > k->before) {
    ompdp_sb_printf(why,
                    "`%s` is a section of a pointer held in memory, which a map attaches and "
                    "every `target update` copies with it: keeping it on the device would take "
                    "%" PRIu64 " transfers where the calls take %" PRIu64 " now",
                    expr, after + attached, k->before);
    goto out;
  }
  if (after > k->before) {
    /* Only statements that never name it: opaque calls that might reach
     * it through another pointer, which the device copies back. */
    uint32_t unnamed = 0;
    for (uint32_t h = 0; h < view.num_host_accesses; ++h)
      unnamed += (view.host_accesses[h].Flags & OMPDP_HA_UNNAMED) != 0;
    if (unnamed == uses)
      ompdp_sb_printf(why,
                      "the loop at %s:%" PRIu32 " calls functions defined in other files that "
                      "are not passed `%s` but might reach it through another pointer, and "
                      "the `target update`s that would give them the device's copy would "
                      "move more than the calls do now",
                      ompdp_rw_basename(call->file), call->loop_line, arg->variable);
    else
      ompdp_sb_printf(why,
                      "the host uses `%s` in the loop at %s:%" PRIu32 " so often that the "
                      "`target update`s would move more than the calls do now",
                      arg->variable, ompdp_rw_basename(call->file), call->loop_line);
    goto out;
  }
  const ompdp_region_info_t *items[1] = {&view};
  ompdp_map_type_t types[1] = {outer};
  const char *what = NULL;
  rw->kind = OMPDP_RK_KEEP_RESIDENT;
  if ((k->row    ? row_braces(rw, k, outer, expr, &what)
       : wrap    ? ompdp_rw_keep_unstructured(rw, items, types, 1, NULL, &what)
                 : ompdp_rw_keep_resident(rw, items, types, 1, &what)) ||
      (uses && !after_call && ompdp_rw_host_updates(rw, &view, num_from != 0, &what)) ||
      (after_call &&
       ompdp_rw_update_line(rw, call, call->stmt_end_line + 1, call->stmt_column, 0, expr, &what)) ||
      ompdp_rw_normalize_edits(rw)) {
    ompdp_sb_puts(why, what ? what : "its edits overlap");
    goto out;
  }
  /* What it saves: every map operation of the buffer in the loop's calls;
   * one allocation, the first copy in, the last copy back and the updates
   * come instead, each taking what such an operation took on average. */
  uint64_t avg[OMPDP_OC_COUNT];
  for (int cls = 0; cls < OMPDP_OC_COUNT; ++cls)
    avg[cls] = k->rm[cls][0] ? k->rm[cls][2] / k->rm[cls][0] : 0;
  if (!avg[OMPDP_OC_D2H])
    avg[OMPDP_OC_D2H] = avg[OMPDP_OC_H2D];
  if (!avg[OMPDP_OC_H2D])
    avg[OMPDP_OC_H2D] = avg[OMPDP_OC_D2H];
  uint64_t in = entries * up_in + k->calls * num_to;
  uint64_t back = entries * last_back + k->calls * num_from;
  ompdp_oc_t add = {{0}};
  ompdp_oc_add(add, OMPDP_OC_H2D, in, in * k->size, in * avg[OMPDP_OC_H2D]);
  ompdp_oc_add(add, OMPDP_OC_D2H, back, back * k->size, back * avg[OMPDP_OC_D2H]);
  ompdp_oc_add(add, OMPDP_OC_ALLOC, entries, entries * k->size, entries * avg[OMPDP_OC_ALLOC]);
  ompdp_oc_add(add, OMPDP_OC_DELETE, entries, entries * k->size, entries * avg[OMPDP_OC_DELETE]);
  if (attached) { /* the pointer: attached once, copied back with each update */
    ompdp_oc_add(add, OMPDP_OC_H2D, entries, entries * sizeof(void *),
                 entries * avg[OMPDP_OC_H2D]);
    ompdp_oc_add(add, OMPDP_OC_D2H, attached - entries, (attached - entries) * sizeof(void *),
                 (attached - entries) * avg[OMPDP_OC_D2H]);
    ompdp_oc_add(add, OMPDP_OC_ALLOC, entries, entries * sizeof(void *),
                 entries * avg[OMPDP_OC_ALLOC]);
    ompdp_oc_add(add, OMPDP_OC_DELETE, entries, entries * sizeof(void *),
                 entries * avg[OMPDP_OC_DELETE]);
  }
  uint64_t dur_after = 0;
  for (int cls = 0; cls < OMPDP_OC_COUNT; ++cls)
    dur_after += add[cls][2];
  uint64_t bytes_after = after * k->size + attached * sizeof(void *);
  rw->transfers_removed = k->before - after - attached;
  rw->allocs_removed = k->allocs - entries - (attached ? entries : 0);
  rw->bytes_removed = k->bytes_before > bytes_after ? k->bytes_before - bytes_after : 0;
  rw->time_saved_ns = ompdp_rw_to_ns(c, k->dur_before > dur_after ? k->dur_before - dur_after : 0);
  rw->lower_bound = bound && moved;
  ompdp_oc_to_ops((const uint64_t(*)[3])k->rm, c->mult, &rw->ops);
  ompdp_oc_to_ops((const uint64_t(*)[3])add, c->mult, &rw->ops_added);
  ompdp_strbuf_t d = {0}, a = {0};
  if (k->row) {
    ompdp_sb_printf(&d, "keep `%s` on device %d across the calls of ", expr, k->dev);
    put_functions(&d, k, " and ");
    ompdp_sb_printf(&d,
                    " in a row at %s:%" PRIu32 "-%" PRIu32 ", where it is `%s`: `#pragma omp "
                    "target data map(%s: %s)` and `{` before line %" PRIu32 ", `}` after line "
                    "%" PRIu32,
                    ompdp_rw_basename(k->first.file), k->first.stmt_line, k->last.stmt_end_line,
                    k->outer->expr, ompdp_map_type_name(outer), expr, k->first.stmt_line,
                    k->last.stmt_end_line);
  } else {
    ompdp_sb_printf(&d,
                    "keep `%s` on device %d for the whole %s loop at %s:%" PRIu32 " that calls ",
                    expr, k->dev, ompdp_loop_kind_name(call->loop_kind),
                    ompdp_rw_basename(call->file), call->loop_line);
    if (k->mid)
      ompdp_sb_printf(&d, "%s(), which calls ", k->mid_ri.items[0].function);
    put_functions(&d, k, " and ");
    ompdp_sb_printf(&d, ", where it is `%s`: ", k->outer->expr);
  }
  if (!k->row && wrap) {
    const char *names[1] = {expr};
    ompdp_rw_describe_unstructured(&d, items, names, types, 1);
  } else if (!k->row) {
    ompdp_sb_printf(&d, "`#pragma omp target data map(%s: %s)` before it",
                    ompdp_map_type_name(outer), expr);
  }
  ompdp_sb_puts(&d, "; the maps in ");
  put_functions(&d, k, " and ");
  ompdp_sb_puts(&d, " then find it present");
  if (k->outside_calls) {
    ompdp_sb_puts(&d, "; the calls of ");
    put_functions(&d, k, " and ");
    ompdp_sb_puts(&d, " outside the loop map it as before");
  }
  if (entries > 1)
    ompdp_sb_printf(&d, " (the loop began %" PRIu64 " times in the run: once per beginning)",
                    entries);
  int any = 0;
  if (after_call && produced) {
    ompdp_sb_printf(&d,
                    "; `target update from(%s)` after line %" PRIu32 ", the call's, which "
                    "brings the host the call's result where the copy back at the end of ",
                    expr, call->stmt_end_line);
    put_functions(&d, k, " and ");
    ompdp_sb_printf(&d,
                    " brought it: the device only produces `%s` (no construct sends the host's "
                    "bytes), so the host code of the loop (the first at line %" PRIu32 ") needs "
                    "nothing more",
                    arg->variable, stuck_line);
  } else if (after_call)
    ompdp_sb_printf(&d,
                    "; `target update from(%s)` after line %" PRIu32 ", the call's, so that "
                    "the host's reads in the loop (line %" PRIu32 " where no directive can go "
                    "among them) see what the call computed",
                    expr, call->stmt_end_line, stuck_line);
  for (uint32_t h = 0; h < view.num_host_accesses && !after_call; ++h) {
    const ompdp_host_access_t *x = &view.host_accesses[h];
    int w = x->Access == OMPDP_ACCESS_WRITE || x->Access == OMPDP_ACCESS_READ_WRITE;
    if (num_from)
      ompdp_sb_printf(&d, "%s`target update from(%s)` before line %" PRIu32, any++ ? ", " : "; ",
                      expr, x->Line);
    if (w)
      ompdp_sb_printf(&d, "%s`target update to(%s)` after line %" PRIu32, any++ ? ", " : "; ",
                      expr, x->EndLine);
  }
  if (!uses && outer != OMPDP_MT_TO && outer != OMPDP_MT_ALLOC)
    ompdp_sb_printf(&d, "; no host code %s uses `%s`, so it comes back once, after %s",
                    k->row ? "between them" : "in the loop", arg->variable,
                    k->row ? "the last" : "it");
  if (after_call && produced) /* the loop's host code sees the host's copy, updated */
    ompdp_sb_puts(&a, "no host code in ");
  else
    ompdp_sb_printf(&a, "no host code %s%s", k->row ? "between the calls" : "in the loop",
                    k->nfns > 1 || k->mid ? ", in " : " or in ");
  if (k->mid)
    ompdp_sb_printf(&a, "%s()%s", k->mid_ri.items[0].function, k->nfns > 1 ? ", in " : " or in ");
  put_functions(&a, k, " or in ");
  ompdp_sb_printf(&a, " reaches `%s` through another pointer (the compiler follows `%s` itself)",
                  arg->variable, arg->variable);
  if (also.len)
    ompdp_sb_printf(&a, "; `%s` holds the other sections the calls map (%s), as it did in the run",
                    expr, also.d);
  /* Calls through a pointer: the run saw the functions they call. */
  for (int q = 0; q < k->nseen; ++q) {
    ompdp_region_info_t ci;
    if (ompdp_plan_describe(c->facts, k->seen[q], -1, &ci) || !ci.indirect_callee)
      continue;
    ompdp_sb_printf(&a, "; the call through a pointer at %s:%" PRIu32 " calls ",
                    ompdp_rw_basename(ci.file), ci.line);
    put_callee(&a, ci.callee);
    ompdp_sb_puts(&a, " only, as in the run");
  }
  rw->description = ompdp_sb_take(&d);
  rw->assumption = ompdp_sb_take(&a);
  rc = rw->description && rw->assumption ? 0 : -1;
out:
  free(expr);
  free(also.d);
  free(between);
  free(others);
  return rc;
}

static uint32_t any_site(const ompdp_rw_plan_t *c, const ompdp_finding_t *f);

/* The site index + 1 of a finding this rule may fix, or 0: one of a map
 * (a `target update` copies whether the data is kept or not). */
static uint32_t finding_site(const ompdp_rw_plan_t *c, const ompdp_finding_t *f) {
  if (ompdp_rw_rule(f) != OMPDP_RR_KEEP_RESIDENT || !f->rt_region || f->item < 0 ||
      f->num_rewrites)
    return 0;
  return any_site(c, f);
}

/* The same, whatever rewrites f has. */
static uint32_t any_site(const ompdp_rw_plan_t *c, const ompdp_finding_t *f) {
  if (!f->rt_region || f->item < 0)
    return 0;
  uint32_t si = ompdp_rw_site_find(c, f->rt_region, f->item);
  if (!si || !c->facts->sites[si - 1].buf || !c->facts->sites[si - 1].call)
    return 0;
  ompdp_region_info_t it;
  if (ompdp_plan_describe(c->facts, f->rt_region, f->item, &it) ||
      it.construct == OMPDP_CK_TARGET_UPDATE)
    return 0;
  return si;
}

/* One buffer's plan: its rewrite (ok) or why not, and the caller's loop
 * it goes around. */
typedef struct planned {
  uint32_t buf;
  int ok;
  ompdp_rewrite_t rw;
  ompdp_strbuf_t why;
  int group; /* the planned entry whose rewrite it joined (its own index: none) */
  /* Its own rewrite removes no transfer of the buffer (data the device only
   * produces, brought back after each call as before): it fixes the
   * buffer's allocation findings, not its transfer findings. */
  int allocs_only;
  char *loop; /* file, function and loop position of the caller's loop; NULL for a row */
  /* The caller's loop in a template's instance: how many instances the
   * call has (0 or 1: not a template), and where, for words. */
  uint32_t instances;
  uint32_t call_line;
  const char *call_file, *call_function;
} planned_t;

/* Whether entry j leads a group whose rewrite is another instance's copy
 * of e's (same edits, as many instances). */
static int same_template_plan(const planned_t *pl, size_t j, const planned_t *e) {
  return pl[j].ok && pl[j].group == (int)j && pl[j].instances == e->instances &&
         ompdp_rewrite_same_edits(&pl[j].rw, &e->rw);
}

/* A caller in a template is one text for all its instances: the rewrites
 * planned for them (their groups' leaders, at the same place with the
 * same edits) must be one for each instance, and the prediction is their
 * sum, which every copy carries (instances_summed: the template rule of
 * rewrite_policy.c would count it once per construct of the callees).
 * Otherwise none is made: one edit there changes them all. */
static void template_callers(planned_t *pl, size_t np) {
  for (size_t i = 0; i < np; ++i) {
    planned_t *e = &pl[i];
    if (!e->ok || e->group != (int)i || e->instances < 2 || e->rw.instances_summed)
      continue;
    ompdp_rewrite_t total = {0};
    total.ops.known = e->rw.ops.known;
    total.ops_added.known = e->rw.ops_added.known;
    uint32_t n = 0;
    for (size_t j = i; j < np; ++j)
      if (same_template_plan(pl, j, e)) {
        ++n;
        ompdp_rw_prediction_add(&total, &pl[j].rw);
      }
    /* (Marking e's own group first leaves e's rewrite, which the others
     * are compared with, as it is.) */
    for (size_t j = i; j < np; ++j) {
      if (!same_template_plan(pl, j, e))
        continue;
      if (n == e->instances) {
        ompdp_rw_prediction_set(&pl[j].rw, &total);
        continue;
      }
      /* Not every instance: no rewrite, for the leader and its group. */
      for (size_t q = 0; q < np; ++q) {
        if (pl[q].group != (int)j || !pl[q].ok)
          continue;
        pl[q].ok = 0;
        ompdp_sb_printf(&pl[q].why,
                        "the loop that calls it is in %s (%s:%" PRIu32 "), an instance of a "
                        "template with %" PRIu32 " instances, and the run showed the data "
                        "kept the same way in %" PRIu32 " of them: one edit there changes "
                        "them all",
                        pl[j].call_function, ompdp_rw_basename(pl[j].call_file),
                        pl[j].call_line, e->instances, n);
      }
    }
  }
}

static int by_buffer(const void *a, const void *b) {
  uint32_t x = ((const planned_t *)a)->buf, y = ((const planned_t *)b)->buf;
  return (x > y) - (x < y);
}

int ompdp_rw_keep_at_caller_all(const ompdp_rw_plan_t *c, ompdp_report_t *r, const size_t *removed) {
  const ompdp_plan_t *p = c->facts;
  char *done = calloc(p->num_bufs ? p->num_bufs : 1, 1);
  planned_t *pl = calloc(p->num_bufs ? p->num_bufs : 1, sizeof(*pl));
  size_t np = 0;
  if (!done || !pl) {
    free(done);
    free(pl);
    return -1;
  }
  int rc = 0;
  for (size_t i = 0; i < r->num_findings && !rc; ++i) {
    uint32_t si = finding_site(c, &r->findings[i]);
    if (!si)
      continue;
    uint32_t bi = p->sites[si - 1].buf;
    if (done[bi - 1])
      continue;
    done[bi - 1] = 1;
    /* Only a construct that its own function does not repeat: a loop
     * there is the keep-resident rule's (rewrite_keep.c). */
    ompdp_region_info_t it;
    if (ompdp_plan_describe(p, p->sites[si - 1].region, p->sites[si - 1].item, &it) ||
        it.loop_kind != OMPDP_LK_NONE)
      continue;
    planned_t *e = &pl[np];
    e->buf = bi;
    e->group = (int)np;
    kept_t k;
    e->ok = check_buffer(c, bi, removed, &k, &e->why) == 0 && build(c, &k, &e->rw, &e->why) == 0;
    e->allocs_only = e->ok && !e->rw.transfers_removed;
    if (e->ok && !k.row) {
      const ompdp_region_info_t *call = &k.call_ri.items[0];
      e->instances = call->instances;
      e->call_line = call->line;
      e->call_file = call->file;         /* (strings of the plan) */
      e->call_function = call->function;
      ompdp_strbuf_t key = {0};
      ompdp_sb_printf(&key, "%s\n%s\n%" PRIu32 ":%" PRIu32 "+%" PRIu32, call->file,
                      call->function, call->loop_line, call->loop_column, call->loop_offset);
      e->loop = ompdp_sb_take(&key);
      if (!e->loop)
        rc = -1;
    }
    if (e->why.oom)
      rc = -1;
    kept_free(&k);
    ++np;
  }
  /* In the order of the buffers, not of the findings (which their times
   * order, and those change from run to run): the joined rewrite's
   * directives come out the same every run. */
  qsort(pl, np, sizeof(*pl), by_buffer);
  for (size_t i = 0; i < np; ++i)
    pl[i].group = (int)i;
  /* Buffers kept around one loop of a caller (the same argument passed to
   * several functions, or several arguments): one rewrite, each directive
   * once, which every finding of each of them shows, instead of rewrites
   * that put the same directive before the loop and overlap. */
  for (size_t i = 0; i < np && !rc; ++i) {
    if (!pl[i].loop || pl[i].group != (int)i)
      continue;
    for (size_t j = i + 1; j < np && !rc; ++j) {
      if (!pl[j].loop || pl[j].group != (int)j || strcmp(pl[i].loop, pl[j].loop))
        continue;
      int jr = ompdp_rw_join(&pl[i].rw, &pl[j].rw);
      if (jr < 0)
        rc = -1;
      else if (jr)
        pl[j].group = (int)i;
    }
  }
  if (!rc)
    template_callers(pl, np);
  for (size_t q = 0; q < np && !rc; ++q) {
    const planned_t *e = &pl[q];
    const ompdp_rewrite_t *rw = &pl[e->group].rw;
    for (size_t j = 0; j < r->num_findings && !rc; ++j) {
      ompdp_finding_t *f = &r->findings[j];
      /* A finding of the buffer whose map type change (a `tofrom` whose
       * copy in nothing reads, to `from`) the kept data replaces: the
       * calls then find it present, and their copies in go too. */
      uint32_t sa = e->ok && f->num_rewrites ? any_site(c, f) : 0;
      int replaced = sa && !e->allocs_only && p->sites[sa - 1].buf == e->buf && !removed[sa - 1] &&
                     f->rewrites[0].kind == OMPDP_RK_CHANGE_MAP_TYPE;
      if (replaced)
        while (f->num_rewrites)
          ompdp_rewrite_free(&f->rewrites[--f->num_rewrites]);
      uint32_t sj = replaced ? sa : finding_site(c, f);
      if (!sj || p->sites[sj - 1].buf != e->buf)
        continue;
      if (e->ok && e->allocs_only && ompdp_finding_kind_op_class(f->kind) != OMPDP_OC_ALLOC)
        continue; /* its copies stay: the other rules' verdict */
      if (e->ok) {
        ompdp_rewrite_t *dst = ompdp_finding_add_rewrite(f, OMPDP_RK_KEEP_RESIDENT);
        if (!dst || ompdp_rewrite_copy(dst, rw))
          rc = -1;
      } else if (e->why.len && !(f->kind == OMPDP_FK_DUPLICATE_TRANSFER && !f->same_buffer)) {
        /* Not for bytes that other buffers sent first: keeping this one
         * would not remove them, and the verdict's words say what would. */
        if (ompdp_rw_advise(f, e->why.d))
          rc = -1;
      }
    }
  }
  for (size_t q = 0; q < np; ++q) {
    free(pl[q].why.d);
    free(pl[q].loop);
    ompdp_rewrite_free(&pl[q].rw);
  }
  free(pl);
  free(done);
  return rc;
}
