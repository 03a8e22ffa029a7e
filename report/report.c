/*===- report.c - the in-memory report model ------------------------------===*\
|*
|* Lifetime, growth and ordering of an ompdp_report_t (findings, their
|* rewrites and edits), the names of the finding and rewrite kinds, and the
|* white-space-blind comparison that checks an edit's original text. The
|* names come from OmpdpFormat.inc through the X-macro so that the runtime,
|* the driver and the compiler plugin can never disagree on how a kind is
|* spelled.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "report.h"
#include "memory.h"
#include "process.h"
#include "timeline.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const KindJson[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) Json,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const KindSummary[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) Summary,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const KindTitle[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) Title,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const KindExpl[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) Expl,
#include "ompdp/OmpdpFormat.inc"
};
static const ompdp_op_class_t KindOps[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) OMPDP_OC_##Ops,
#include "ompdp/OmpdpFormat.inc"
};

/* Every kind has its row in each of the other tables of OmpdpFormat.inc:
 * a kind added to OMPDP_FINDING_KIND alone stops the build here (rows of
 * kinds that do not exist stop it at their designated initializer). */
enum {
  RuleRows = 0
#define OMPDP_FINDING_RULE(Enum, Name, Group, Help) +1
#include "ompdp/OmpdpFormat.inc"
  ,
  TextRows = 0
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) +1
#include "ompdp/OmpdpFormat.inc"
};
_Static_assert(RuleRows == OMPDP_FK_COUNT,
               "each OMPDP_FINDING_KIND needs one OMPDP_FINDING_RULE row (OmpdpFormat.inc)");
_Static_assert(TextRows == OMPDP_FK_COUNT,
               "each OMPDP_FINDING_KIND needs one OMPDP_FINDING_TEXT row (OmpdpFormat.inc)");

/* Designated initializers: the rule table may list the kinds in any order. */
static const char *const RuleName[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_RULE(Enum, Name, Group, Help) [OMPDP_FK_##Enum] = Name,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const RuleGroup[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_RULE(Enum, Name, Group, Help) [OMPDP_FK_##Enum] = Group,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const RuleHelp[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_RULE(Enum, Name, Group, Help) [OMPDP_FK_##Enum] = Help,
#include "ompdp/OmpdpFormat.inc"
};

static const char *const TextName[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) [OMPDP_FK_##Enum] = Name,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const TextWarning[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) [OMPDP_FK_##Enum] = Warning,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const TextNoun[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) [OMPDP_FK_##Enum] = Noun,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const TextNouns[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) [OMPDP_FK_##Enum] = Nouns,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const TextAt[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) [OMPDP_FK_##Enum] = At,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const TextNote[OMPDP_FK_COUNT] = {
#define OMPDP_FINDING_TEXT(Enum, Name, Warning, Noun, Nouns, At, Note) [OMPDP_FK_##Enum] = Note,
#include "ompdp/OmpdpFormat.inc"
};

static const char *const RewriteJson[OMPDP_RK_COUNT] = {
#define OMPDP_REWRITE_KIND(Enum, Json, Desc) Json,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const RewriteDesc[OMPDP_RK_COUNT] = {
#define OMPDP_REWRITE_KIND(Enum, Json, Desc) Desc,
#include "ompdp/OmpdpFormat.inc"
};

/* Out-of-range kinds get a name rather than a crash: a report model may come
 * from a newer writer or from a bug, and printing it must stay safe. */
static const char *kind_name(const char *const *table, ompdp_finding_kind_t k) {
  if ((unsigned)k >= (unsigned)OMPDP_FK_COUNT || !table[k])
    return "unknown";
  return table[k];
}

const char *ompdp_finding_kind_json(ompdp_finding_kind_t k) {
  return kind_name(KindJson, k);
}
const char *ompdp_finding_kind_summary_key(ompdp_finding_kind_t k) {
  return kind_name(KindSummary, k);
}
const char *ompdp_finding_kind_title(ompdp_finding_kind_t k) {
  return kind_name(KindTitle, k);
}
const char *ompdp_finding_kind_explanation(ompdp_finding_kind_t k) {
  return kind_name(KindExpl, k);
}
ompdp_op_class_t ompdp_finding_kind_op_class(ompdp_finding_kind_t k) {
  return (unsigned)k < (unsigned)OMPDP_FK_COUNT ? KindOps[k] : OMPDP_OC_H2D;
}
const char *ompdp_finding_kind_name(ompdp_finding_kind_t k) { return kind_name(TextName, k); }
const char *ompdp_finding_kind_warning_text(ompdp_finding_kind_t k) {
  return (unsigned)k < (unsigned)OMPDP_FK_COUNT && TextWarning[k] ? TextWarning[k] : ", ";
}
int ompdp_finding_is_copy_back(const ompdp_finding_t *f) {
  return f->ops.known && f->ops.c[OMPDP_OC_D2H].count && !f->ops.c[OMPDP_OC_H2D].count &&
         !f->ops.c[OMPDP_OC_D2D].count;
}
/* A duplicate transfer of bytes the host already had: its words say so. */
static int duplicate_back(const ompdp_finding_t *f) {
  return f->kind == OMPDP_FK_DUPLICATE_TRANSFER && ompdp_finding_is_copy_back(f);
}
const char *ompdp_finding_warning_text(const ompdp_finding_t *f) {
  if (duplicate_back(f))
    return " brings the host bytes it already has, ";
  return ompdp_finding_kind_warning_text(f->kind);
}
const char *ompdp_finding_related_at(const ompdp_finding_t *f) {
  if (duplicate_back(f))
    return "first copied back at";
  return ompdp_finding_kind_related_at(f->kind);
}
const char *ompdp_finding_related_note(const ompdp_finding_t *f) {
  if (duplicate_back(f))
    return "the same bytes first came back here";
  return ompdp_finding_kind_related_note(f->kind);
}
const char *ompdp_finding_kind_noun(ompdp_finding_kind_t k, int plural) {
  if ((unsigned)k >= (unsigned)OMPDP_FK_COUNT)
    return plural ? "operations" : "operation";
  return kind_name(plural ? TextNouns : TextNoun, k);
}
const char *ompdp_finding_kind_related_at(ompdp_finding_kind_t k) {
  return (unsigned)k < (unsigned)OMPDP_FK_COUNT && TextAt[k] ? TextAt[k] : "related to";
}
const char *ompdp_finding_kind_related_note(ompdp_finding_kind_t k) {
  return (unsigned)k < (unsigned)OMPDP_FK_COUNT && TextNote[k] ? TextNote[k] : "related operation";
}

const char *ompdp_finding_kind_rule_name(ompdp_finding_kind_t k) {
  return kind_name(RuleName, k);
}
const char *ompdp_finding_kind_warning_group(ompdp_finding_kind_t k) {
  return kind_name(RuleGroup, k);
}
const char *ompdp_finding_kind_help(ompdp_finding_kind_t k) {
  return kind_name(RuleHelp, k);
}

const char *ompdp_rewrite_kind_json(ompdp_rewrite_kind_t k) {
  return (unsigned)k < (unsigned)OMPDP_RK_COUNT ? RewriteJson[k] : RewriteJson[0];
}
const char *ompdp_rewrite_kind_description(ompdp_rewrite_kind_t k) {
  return (unsigned)k < (unsigned)OMPDP_RK_COUNT ? RewriteDesc[k] : RewriteDesc[0];
}
static const char *const VerdictJson[] = {
#define OMPDP_VERDICT(Enum, Json, Saving, Level, Desc) Json,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const VerdictDesc[] = {
#define OMPDP_VERDICT(Enum, Json, Saving, Level, Desc) Desc,
#include "ompdp/OmpdpFormat.inc"
};
static const char *const VerdictLevel[] = {
#define OMPDP_VERDICT(Enum, Json, Saving, Level, Desc) Level,
#include "ompdp/OmpdpFormat.inc"
};
static const unsigned char VerdictSaves[] = {
#define OMPDP_VERDICT(Enum, Json, Saving, Level, Desc) Saving,
#include "ompdp/OmpdpFormat.inc"
};

const char *ompdp_verdict_json(ompdp_verdict_t v) {
  return (unsigned)v < (unsigned)OMPDP_V_COUNT ? VerdictJson[v] : VerdictJson[0];
}
const char *ompdp_verdict_description(ompdp_verdict_t v) {
  return (unsigned)v < (unsigned)OMPDP_V_COUNT ? VerdictDesc[v] : VerdictDesc[0];
}
const char *ompdp_verdict_level(ompdp_verdict_t v) {
  return (unsigned)v < (unsigned)OMPDP_V_COUNT ? VerdictLevel[v] : VerdictLevel[0];
}
int ompdp_verdict_saves(ompdp_verdict_t v) {
  return (unsigned)v < (unsigned)OMPDP_V_COUNT ? VerdictSaves[v] : 1;
}
ompdp_verdict_t ompdp_verdict_from_json(const char *name) {
  for (int v = 0; name && v < OMPDP_V_COUNT; ++v)
    if (strcmp(name, VerdictJson[v]) == 0)
      return (ompdp_verdict_t)v;
  return OMPDP_V_COUNT;
}

void ompdp_report_default_verdicts(ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_findings; ++i) {
    ompdp_finding_t *f = &r->findings[i];
    if (f->verdict != OMPDP_V_NONE)
      continue;
    f->verdict = f->num_rewrites ? OMPDP_V_FIX : OMPDP_V_ADVICE;
    /* Advice says why it has no rewrite (out of memory: fewer words). */
    if (f->verdict == OMPDP_V_ADVICE && !ompdp_finding_says_why(f->suggestion))
      ompdp_finding_add_no_rewrite(f, ompdp_finding_no_plan_reason(r, f));
  }
}

int ompdp_finding_says_why(const char *s) {
  return s && (strstr(s, "No rewrite:") || strstr(s, "ompdp does not") ||
               strstr(s, "ompdp did not"));
}

int ompdp_finding_add_no_rewrite(ompdp_finding_t *f, const char *why) {
  if (!why || !*why)
    return 0;
  const char *old = f->suggestion ? f->suggestion : "";
  if (strstr(old, why))
    return 0;
  size_t n = strlen(old);
  const char *sep = !n ? "" : old[n - 1] == '.' ? " " : ". ";
  size_t len = n + strlen(sep) + strlen("No rewrite: .") + strlen(why) + 1;
  char *s = malloc(len);
  if (!s)
    return -1;
  snprintf(s, len, "%s%sNo rewrite: %s.", old, sep, why);
  free(f->suggestion);
  f->suggestion = s;
  return 0;
}

const char *ompdp_finding_no_plan_reason(const ompdp_report_t *r, const ompdp_finding_t *f) {
  if (!f->region_id && !f->rt_region)
    return "the program was not compiled with the ompdp plugin (`-fplugin=.../ompdp.so`), so "
           "ompdp has no region table with the clauses to edit";
  if (r->recovered_reason)
    return r->recovered_from_log
               ? "the report was rebuilt from the event log of a program that died, and the "
                 "log does not carry the facts of the run that rewrites are planned from"
               : "the report was rebuilt from the journal of a program that died, and the "
                 "journal does not carry the facts of the run that rewrites are planned from";
  return "the report does not carry the facts of the run that rewrites are planned from "
         "(ompdp ran short of memory gathering them, which a warning says, or an older ompdp "
         "wrote it)";
}

ompdp_rewrite_kind_t ompdp_rewrite_kind_from_json(const char *name) {
  for (int k = 0; name && k < OMPDP_RK_COUNT; ++k)
    if (strcmp(name, RewriteJson[k]) == 0)
      return (ompdp_rewrite_kind_t)k;
  return OMPDP_RK_OTHER;
}

/* White space as the compiler collapses it when it records a clause (see
 * RegionCollector's text()), plus the form feed and vertical tab of C. */
static int is_ws(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
         c == '\v' || c == '\\';
}

int ompdp_text_matches(const char *text, size_t len, const char *original) {
  const unsigned char *t = (const unsigned char *)text;
  const unsigned char *o = (const unsigned char *)original;
  size_t i = 0;
  for (;;) {
    while (i < len && is_ws(t[i]))
      ++i;
    while (*o && is_ws(*o))
      ++o;
    if (i == len || !*o)
      return i == len && !*o;
    if (t[i] != *o)
      return 0;
    ++i;
    ++o;
  }
}

ompdp_finding_kind_t ompdp_finding_kind_from_json(const char *name) {
  if (!name)
    return OMPDP_FK_COUNT;
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    if (strcmp(name, KindJson[k]) == 0)
      return (ompdp_finding_kind_t)k;
  return OMPDP_FK_COUNT;
}

int ompdp_errf(char *err, size_t errlen, const char *fmt, ...) {
  if (err && errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
  }
  return -1;
}

char *ompdp_strdup(const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  char *d = malloc(n);
  if (d)
    memcpy(d, s, n);
  return d;
}

void ompdp_report_init(ompdp_report_t *r) {
  memset(r, 0, sizeof(*r));
  r->version = OMPDP_REPORT_VERSION;
  r->predicted_speedup = 1.0;
}

void ompdp_loc_free(ompdp_loc_t *l) {
  free(l->function);
  free(l->file);
  l->function = l->file = NULL;
}

void ompdp_edit_free(ompdp_edit_t *e) {
  free(e->file);
  free(e->original);
  free(e->replacement);
  memset(e, 0, sizeof(*e));
}

void ompdp_rewrite_free(ompdp_rewrite_t *rw) {
  for (size_t i = 0; i < rw->num_edits; ++i)
    ompdp_edit_free(&rw->edits[i]);
  free(rw->edits);
  free(rw->description);
  free(rw->assumption);
  memset(rw, 0, sizeof(*rw));
}

void ompdp_finding_free(ompdp_finding_t *f) {
  for (size_t i = 0; i < f->num_rewrites; ++i)
    ompdp_rewrite_free(&f->rewrites[i]);
  free(f->rewrites);
  free(f->devices);
  ompdp_loc_free(&f->loc);
  ompdp_loc_free(&f->related);
  free(f->variable);
  free(f->clause);
  free(f->call);
  free(f->suggestion);
  free(f->no_rewrite);
  ompdp_spread_free(f->spread);
  memset(f, 0, sizeof(*f));
}

void ompdp_report_free(ompdp_report_t *r) {
  if (!r)
    return;
  for (size_t i = 0; i < r->argc; ++i)
    free(r->argv[i]);
  free(r->argv);
  for (size_t i = 0; i < r->num_warnings; ++i)
    free(r->warnings[i]);
  free(r->warnings);
  for (size_t i = 0; i < r->num_findings; ++i)
    ompdp_finding_free(&r->findings[i]);
  free(r->findings);
  free(r->recovered_reason);
  ompdp_projection_free(r->projection);
  ompdp_process_free(r->process);
  ompdp_merge_info_free(r->merge);
  ompdp_timeline_free(r->timeline);
  free(r->timeline);
  ompdp_report_memory_free(r);
  ompdp_plan_free(&r->plan);
  ompdp_compile_commands_free(r);
  ompdp_report_init(r);
}

/* The arrays grow to the next power of two (at least 4), so the count alone
 * tells whether the array is full: the fixed model needs no capacity field,
 * and n appends cost O(n) copies in total. */
static int grow(void **arr, size_t n, size_t elem) {
  size_t cap;
  if (n == 0)
    cap = 4;
  else if (n >= 4 && (n & (n - 1)) == 0)
    cap = n * 2;
  else
    return 0;
  if (cap > SIZE_MAX / elem)
    return -1;
  void *p = realloc(*arr, cap * elem);
  if (!p)
    return -1;
  *arr = p;
  return 0;
}

ompdp_finding_t *ompdp_report_add_finding(ompdp_report_t *r,
                                          ompdp_finding_kind_t k) {
  if (grow((void **)&r->findings, r->num_findings, sizeof(*r->findings)))
    return NULL;
  ompdp_finding_t *f = &r->findings[r->num_findings++];
  memset(f, 0, sizeof(*f));
  f->kind = k;
  f->item = -1;
  f->range.offset = f->range.end_offset = -1;
  return f;
}

ompdp_rewrite_t *ompdp_finding_add_rewrite(ompdp_finding_t *f,
                                           ompdp_rewrite_kind_t k) {
  if (grow((void **)&f->rewrites, f->num_rewrites, sizeof(*f->rewrites)))
    return NULL;
  ompdp_rewrite_t *rw = &f->rewrites[f->num_rewrites++];
  memset(rw, 0, sizeof(*rw));
  rw->kind = k;
  return rw;
}

ompdp_edit_t *ompdp_rewrite_add_edit(ompdp_rewrite_t *rw) {
  if (grow((void **)&rw->edits, rw->num_edits, sizeof(*rw->edits)))
    return NULL;
  ompdp_edit_t *e = &rw->edits[rw->num_edits++];
  memset(e, 0, sizeof(*e));
  e->range.offset = e->range.end_offset = -1;
  return e;
}

int ompdp_rewrite_copy(ompdp_rewrite_t *dst, const ompdp_rewrite_t *src) {
  memset(dst, 0, sizeof(*dst));
  dst->kind = src->kind;
  dst->time_saved_ns = src->time_saved_ns;
  dst->transfers_removed = src->transfers_removed;
  dst->lower_bound = src->lower_bound;
  dst->allocs_removed = src->allocs_removed;
  dst->bytes_removed = src->bytes_removed;
  dst->ops = src->ops;
  dst->ops_added = src->ops_added;
  dst->projected_saved_ns = src->projected_saved_ns;
  dst->peak = src->peak;
  dst->peak_saved_bytes = src->peak_saved_bytes;
  dst->instances_summed = src->instances_summed; /* a copy of a sum is that sum */
  dst->description = ompdp_strdup(src->description);
  dst->assumption = ompdp_strdup(src->assumption);
  if ((src->description && !dst->description) || (src->assumption && !dst->assumption))
    return -1;
  for (size_t i = 0; i < src->num_edits; ++i) {
    const ompdp_edit_t *s = &src->edits[i];
    ompdp_edit_t *d = ompdp_rewrite_add_edit(dst);
    if (!d)
      return -1;
    d->range = s->range;
    d->file_hash = s->file_hash;
    d->file = ompdp_strdup(s->file);
    d->original = ompdp_strdup(s->original);
    d->replacement = ompdp_strdup(s->replacement);
    if ((s->file && !d->file) || (s->original && !d->original) ||
        (s->replacement && !d->replacement))
      return -1;
  }
  return 0;
}

static int same_str(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

int ompdp_rewrite_same_edits(const ompdp_rewrite_t *a, const ompdp_rewrite_t *b) {
  if (a->num_edits != b->num_edits)
    return 0;
  for (size_t i = 0; i < a->num_edits; ++i) {
    const ompdp_edit_t *x = &a->edits[i], *y = &b->edits[i];
    if (!same_str(x->file, y->file) || x->range.line != y->range.line ||
        x->range.column != y->range.column ||
        x->range.end_line != y->range.end_line ||
        x->range.end_column != y->range.end_column || x->file_hash != y->file_hash ||
        !same_str(x->replacement, y->replacement))
      return 0;
  }
  return 1;
}

int ompdp_report_add_warning(ompdp_report_t *r, const char *msg) {
  char *copy = ompdp_strdup(msg ? msg : "");
  if (!copy)
    return -1;
  if (grow((void **)&r->warnings, r->num_warnings, sizeof(*r->warnings))) {
    free(copy);
    return -1;
  }
  r->warnings[r->num_warnings++] = copy;
  return 0;
}

int ompdp_report_add_warning_first(ompdp_report_t *r, const char *msg) {
  if (ompdp_report_add_warning(r, msg))
    return -1;
  char *w = r->warnings[r->num_warnings - 1];
  memmove(r->warnings + 1, r->warnings, (r->num_warnings - 1) * sizeof(*r->warnings));
  r->warnings[0] = w;
  return 0;
}

const char *ompdp_report_no_device(const ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_warnings; ++i) {
    const char *w = r->warnings[i];
    if (!w)
      continue;
    if (!strncmp(w, "rank", 4) && (w = strstr(w, ": ")) != NULL)
      w += 2;
    if (w && !strncmp(w, OMPDP_NO_DEVICE_MARK, sizeof(OMPDP_NO_DEVICE_MARK) - 1))
      return r->warnings[i];
  }
  return NULL;
}

/* NULL (unknown) sorts after every known string, so that located findings
 * come first within equal savings. */
static int cmp_str(const char *a, const char *b) {
  if (!a || !b)
    return (a == NULL) - (b == NULL);
  return strcmp(a, b);
}

static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

static int cmp_finding(const void *pa, const void *pb) {
  const ompdp_finding_t *a = pa, *b = pb;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  /* A finding whose verdict saves nothing (necessary, coincidence, repeated
   * computation) comes after every one that saves: its time is not a
   * saving, and ranking it by that time put it before or after the real
   * savings of its kind as the run's timing went. */
  int sa = ompdp_verdict_saves(a->verdict), sb = ompdp_verdict_saves(b->verdict);
  if (sa != sb)
    return sa ? -1 : 1;
  int c = cmp_u64(b->time_saved_ns, a->time_saved_ns); /* descending */
  if (!c)
    c = cmp_str(a->loc.file, b->loc.file);
  if (!c)
    c = cmp_u64(a->loc.line, b->loc.line);
  if (!c)
    c = cmp_u64(a->loc.column, b->loc.column);
  if (!c)
    c = cmp_str(a->loc.function, b->loc.function);
  if (!c)
    c = cmp_u64(b->bytes, a->bytes);
  if (!c)
    c = cmp_u64(b->count, a->count);
  return c;
}

void ompdp_report_sort(ompdp_report_t *r) {
  if (r->num_findings > 1)
    qsort(r->findings, r->num_findings, sizeof(*r->findings), cmp_finding);
}

/* The program would have run for wall - saved; a saving that covers the whole
 * run (possible only with clock skew between host and device timelines) is
 * capped at one nanosecond of remaining time so the ratio stays finite. */
void ompdp_report_update_speedup(ompdp_report_t *r) {
  if (r->wall_time_ns == 0 || r->time_saved_ns == 0) {
    r->predicted_speedup = 1.0;
    return;
  }
  uint64_t rest = r->time_saved_ns >= r->wall_time_ns
                      ? 1
                      : r->wall_time_ns - r->time_saved_ns;
  r->predicted_speedup = (double)r->wall_time_ns / (double)rest;
}

const char *ompdp_report_recovered_words(const ompdp_report_t *r, char *buf, size_t size) {
  char when[64] = "an unknown time";
  time_t secs = (time_t)(r->recovered_flushed_at_ns / 1000000000u);
  struct tm tm;
  if (r->recovered_flushed_at_ns && gmtime_r(&secs, &tm))
    strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
  if (r->recovered_from_log)
    snprintf(buf, size,
             "rebuilt by ompdp run from the event log it kept (%" PRIu64
             " events, up to %s): every operation that completed is in it, the one in flight "
             "is lost",
             r->recovered_events, when);
  else
    snprintf(buf, size,
             "recovered from the journal flushed at %s (%" PRIu64
             " events); what happened after it is lost",
             when, r->recovered_events);
  return buf;
}
