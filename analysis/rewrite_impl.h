/*===- rewrite_impl.h - what the files of the rewrite planner share --*- C -*-===*\
|*
|* The planner is four files, one per layer (rewrite.h has the public
|* entry points):
|*
|*   rewrite_clause.c  the text of clauses as the compiler recorded them
|*   rewrite_text.c    text primitives: edits from region records only
|*   rewrite_facts.c   what the run did to each map item and buffer (the
|*                     runtime's part: it hands them on as the report's
|*                     plan, report.h)
|*   rewrite_policy.c  per kind, which rewrite is safe and what it saves
|*                     (and rewrite_keep.c, the keep-resident rule)
|*
|* Nothing here is used outside analysis/rewrite_*.c.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REWRITE_IMPL_H
#define OMPDP_REWRITE_IMPL_H

#include "detect.h"
#include "op_account.h"
#include "rewrite.h"
#include "strbuf.h"

#define OMPDP_RW_OOM "out of memory"
/* Why no directive before the loop can map an item (OMPDP_IA_LOOP_DECLARED). */
#define LOOP_DECLARED_WHY                                                                     \
  "the item as written names a variable that the loop declares (the item's own, or one its "  \
  "section's bounds read), which does not exist before the loop where the `target data` "     \
  "would go"

/*===- clause text (rewrite_clause.c) --------------------------------------===*/

#define OMPDP_RW_MAX_MODS 8

/* "map(always, close, tofrom: u[0:n], v)" split into its name, modifiers,
 * map type and list. Points into buf. */
typedef struct ompdp_rw_clause {
  char *buf;
  const char *name;
  const char *mods[OMPDP_RW_MAX_MODS];
  int num_mods;
  const char *type; /* NULL when the clause names none */
  const char *list;
} ompdp_rw_clause_t;

/* Returns 0, or -1 if text is not a clause of the form name(...). Free c
 * with ompdp_rw_clause_free either way. */
int ompdp_rw_parse_clause(const char *text, ompdp_rw_clause_t *c);
void ompdp_rw_clause_free(ompdp_rw_clause_t *c);
/* map(mods..., type: list) into b, with always added (always > 0), removed
 * (always < 0) or left as c has it; c may be NULL. */
void ompdp_rw_put_map_clause(ompdp_strbuf_t *b, const ompdp_rw_clause_t *c, ompdp_map_type_t type,
                             int always, const char *list);
/* Whether removing a directive with these other clauses keeps the order of
 * the tasks around it (its depend clauses). */
int ompdp_rw_depend_removable(const char *other);

/*===- text primitives (rewrite_text.c) --------------------------------------===*/

/* Appends the edit [line:col, end_line:end_col) -> replacement of the file
 * of the construct `at` describes; -1 with *why set on failure. */
int ompdp_rw_add_edit(ompdp_rewrite_t *rw, const ompdp_region_info_t *at, uint32_t line,
                      uint32_t col, uint32_t end_line, uint32_t end_col, const char *original,
                      const char *replacement, const char **why);
/* An item written in a clause whose range the compiler recorded. */
int ompdp_rw_explicit_item(const ompdp_region_info_t *it);
int ompdp_rw_is_identifier(const char *s);
const char *ompdp_rw_basename(const char *path);
/* The index of name (len bytes) among the lines of list (a region table's
 * newline-separated list: a call's parameters, its arguments), or -1. */
int ompdp_rw_line_index(const char *list, const char *name, size_t len);
/* Whether the first array section of expr (`base[lo:len]`) has a base that
 * is itself stored in memory, an element of an array or a member
 * (`y[1][0:n]`, `s.p[0:n]`, `s->p[0:n]`), not a variable: a map of it
 * also maps that pointer (OpenMP's attached pointer), one allocation and
 * one copy in more, and every `target update` of it copies the pointer
 * too. The length of the base's text (`y[1]`), or 0 for a variable's
 * section and for text with no section. */
size_t ompdp_rw_attached_base(const char *expr);
/* What removing the directive of `it` (when rw removes it) assumes about
 * the clauses no item records, appended to a. */
void ompdp_rw_removal_assumption(const ompdp_rewrite_t *rw, const ompdp_region_info_t *it,
                                 ompdp_strbuf_t *a);
/* Puts a rewrite's edits in position order, joins insertions at one place,
 * and returns -1 if two edits still overlap. */
int ompdp_rw_normalize_edits(ompdp_rewrite_t *rw);

/* Adds from's operations to to's, class by class; the breakdown is known
 * only where both knew it (rewrite_combine.c). */
void ompdp_rw_ops_add(ompdp_ops_t *to, const ompdp_ops_t *from);
/* Several rewrites that are one text (the instances of a template's
 * construct, or of its caller): rw's predicted effect added into total,
 * and total's given to rw, marked summed (rewrite_policy.c). */
void ompdp_rw_prediction_add(ompdp_rewrite_t *total, const ompdp_rewrite_t *rw);
void ompdp_rw_prediction_set(ompdp_rewrite_t *rw, const ompdp_rewrite_t *total);

/*===- the run's facts (rewrite_facts.c, report.h) --------------------------===*/

/* A site of the run's plan: a map item of one construct (region handle,
 * item), or (region, -1) for the deletes of a construct that did not
 * allocate (OMPDP_PLAN_SITE_FIELD in OmpdpFormat.inc says what each field
 * counts). */
typedef ompdp_plan_site_t ompdp_rw_site_t;

/*===- policy (rewrite_policy.c, rewrite_keep.c) ------------------------------===*/

/* The rule of a finding's kind, from the table of detections. */
ompdp_rewrite_rule_t ompdp_rw_rule(const ompdp_finding_t *f);

struct ompdp_rw_plan;

/* A region's records, for the text primitives. */
typedef struct ompdp_rw_items {
  ompdp_region_info_t *items;
  ompdp_rw_region_t reg;
} ompdp_rw_items_t;
/* All records of region (items malloc'd); 0, or -1 when the plan has none. */
int ompdp_rw_load_region(const struct ompdp_rw_plan *c, uint32_t region, ompdp_rw_items_t *out);

/* What the policies plan from: the run's plan (sites, buffers and the
 * records of their regions) and an index of its sites. */
typedef struct ompdp_rw_plan {
  const ompdp_plan_t *facts;
  uint32_t *by_site; /* site indexes, by (region, item) */
  uint64_t mult;     /* ns = time * mult >> 32; 0: time is in ns */
  /* Per site: 1 when a rewrite already drops its copies back (an
   * overbroad map's `tofrom` -> `to`: the host never reads them, or the
   * region only reads the item), which a fill's `target exit data` then
   * does not bring back either; NULL: none. */
  const unsigned char *no_copy_back;
  /* Per site: finding + 1 whose rewrite already takes it (keeping it
   * resident, removing it, ...), which a rewrite that groups the items of
   * one clause (firstprivate) then leaves out; NULL: none. */
  const size_t *claimed;
} ompdp_rw_plan_t;

/* The site of (region, item): its index + 1, or 0 when the run had none. */
uint32_t ompdp_rw_site_find(const ompdp_rw_plan_t *c, uint32_t region, int item);

static inline uint64_t ompdp_rw_to_ns(const ompdp_rw_plan_t *c, uint64_t t) {
  return c->mult ? (uint64_t)(((unsigned __int128)t * c->mult) >> 32) : t;
}
static inline int ompdp_rw_has_to(ompdp_map_type_t t) {
  return t == OMPDP_MT_TO || t == OMPDP_MT_TOFROM;
}
static inline int ompdp_rw_has_from(ompdp_map_type_t t) {
  return t == OMPDP_MT_FROM || t == OMPDP_MT_TOFROM;
}
/* Whether the device changes the data an item of site s brings back (its
 * map has a from part): the run saw a copy back differ, or the item is
 * only copied back (the device makes it), or it is a reduction's variable,
 * which its kernel changes whatever one run's bytes say (contributions that
 * summed to nothing say nothing of the next run). */
static inline int ompdp_rw_device_changes(const ompdp_rw_site_t *s,
                                          const ompdp_region_info_t *it) {
  return ompdp_rw_has_from(it->map_type) &&
         (s->dev_changed || !ompdp_rw_has_to(it->map_type) ||
          (it->access_flags & OMPDP_IA_REDUCTION));
}
/* A construct that maps for a structured block: target, target data. */
static inline int ompdp_rw_is_structured(ompdp_construct_kind_t k) {
  return k == OMPDP_CK_TARGET || k == OMPDP_CK_TARGET_DATA;
}

/* An early allocation or late release at item s->item of region ri (f's
 * site): its `target enter data` or `exit data` moved to the first or last
 * use, or its `target data` item split into enter and exit data around the
 * uses (rewrite_lifetime.c). 0: a rewrite; -1: none (advice may say why);
 * -2: out of memory. */
int ompdp_rw_shrink_lifetime(const struct ompdp_rw_plan *c, ompdp_finding_t *f,
                             const ompdp_rw_items_t *ri, const ompdp_rw_site_t *s);
/* The device-side fill of item it (its fill facts): a `target teams
 * distribute parallel for` that finds it present and writes zeros, every
 * line indented by ind spaces, on device clause dev (" device(1)" or "");
 * 0, or -1 when the facts allow none (rewrite_policy.c). */
int ompdp_rw_put_fill(ompdp_strbuf_t *b, const ompdp_region_info_t *it, uint32_t ind,
                      const char *dev);
/* A value other than zero of a scalar element type (its spelling and
 * size, as the region table records them) as a C literal whose conversion
 * to that type gives the element's bytes back exactly: the low elem_size
 * bytes of pattern (byte i is bits 8i..8i+7), which repeats every period
 * bytes. 1 with the literal in out, else 0 (fill_literal.c). */
int ompdp_fill_literal(const char *type, uint32_t elem_size, uint64_t pattern, uint32_t period,
                       char *out, size_t size);
/* The construct's device clause as " device(...)" into dev ("" for none);
 * -1 when it has another clause no item records (if, depend, nowait, ...),
 * which a fill in its place would have to follow too. */
int ompdp_rw_device_clause(const ompdp_region_info_t *it, char *dev, size_t size);

/* Whether braces around statements first .. last of one block would be
 * split by a jump, a label or a preprocessor conditional between them: 0,
 * or -1 with the reason, naming them as what (rewrite_keep.c). */
int ompdp_rw_row_split(const ompdp_region_info_t *first, const ompdp_region_info_t *last,
                       const char *what, ompdp_strbuf_t *why);

/* Repeated allocations at omp_target_alloc calls: the allocation before
 * the loop and its omp_target_free after it, or advice saying why not
 * (rewrite_routine.c). 0, or -1 when out of memory. */
int ompdp_rw_hoist_allocs(const ompdp_rw_plan_t *c, ompdp_report_t *r);

/* Records for f that another finding's rewrite (by's, at the same
 * construct) changes its clause, so that `also` (another rewrite of it)
 * would not add up. Returns 0, or -1 when out of memory. */
int ompdp_rw_advise_claimed(ompdp_finding_t *f, const ompdp_finding_t *by, const char *also);

/* text_rc, having recorded for f (ompdp_rw_advise) why the rewrite's text
 * could not be made when it could not (text_rc != 0, why not NULL and not
 * OMPDP_RW_OOM). For the text_rc of ompdp_rw_finish. */
int ompdp_rw_text_said(ompdp_finding_t *f, int text_rc, const char *why);

/* Attaches the saving and words to the finding's last rewrite and returns
 * 0, or drops that rewrite and returns -1 when its text could not be made
 * (text_rc != 0) or memory ran out. Takes desc and assume (may be NULL). */
int ompdp_rw_finish(ompdp_finding_t *f, int text_rc, uint64_t transfers, uint64_t allocs,
                    uint64_t bytes, uint64_t time_ns, ompdp_strbuf_t *desc, ompdp_strbuf_t *assume);

/* The operations a rewrite removes (rm) and adds (add, may be NULL), by
 * class, for the cost model (times in the plan's units): set on f's last
 * rewrite when ompdp_rw_finish kept it (rc 0). Returns rc. */
int ompdp_rw_with_ops(const ompdp_rw_plan_t *c, ompdp_finding_t *f, int rc, const ompdp_oc_t rm,
                      const ompdp_oc_t add);
/* A site's allocations (all, or those after the first, with their deletes
 * but the last: what keeping the item resident removes), into oc. */
void ompdp_rw_oc_site_allocs(ompdp_oc_t oc, const ompdp_rw_site_t *s, uint64_t n, int all);

/* Makes the rewrites at one construct of the kinds in the mask (bit
 * 1 << kind) one rewrite, of the first's kind, which each finding it fixes
 * shows (rewrite_combine.c). 0, or -1 when out of memory. */
int ompdp_rw_combine_at_construct(ompdp_report_t *r, unsigned kinds);
/* Joins b's edits, words and savings into a when its edits fit a's (the
 * same edit made once, insertions at one place one after the other): 1;
 * 0 when they do not fit (a unchanged); -1 when out of memory
 * (rewrite_combine.c). */
int ompdp_rw_join(ompdp_rewrite_t *a, const ompdp_rewrite_t *b);
/* Adds b's words (description, assumption) and savings to a, as joining
 * does, without its edits: for a rewrite whose edits were written anew
 * for several (rewrite_combine.c). 0, or -1 when out of memory. */
int ompdp_rw_add_savings(ompdp_rewrite_t *a, const ompdp_rewrite_t *b);

/* The keep-resident rewrites of the whole report: around loops, and around
 * constructs in a row; removed[site] != 0 marks sites another rule
 * rewrites. 0, or -1 when out of memory. With fills set, only the loops
 * where some item's copies in were all zeros, which the rewrite replaces
 * by one fill before the loop (the zero-filled copies' findings get it
 * too); the sites it rewrites are marked in removed for the other rules. */
int ompdp_rw_keep_resident_all(const ompdp_rw_plan_t *c, ompdp_report_t *r, size_t *removed,
                               int fills);
/* ... and around a caller's loop, for a construct its own function does
 * not repeat (rewrite_caller.c). */
int ompdp_rw_keep_at_caller_all(const ompdp_rw_plan_t *c, ompdp_report_t *r, const size_t *removed);
/* text (a callee's item as written) with each parameter of params (names,
 * one per line) replaced by the argument of the call `call` (its items, in
 * order) that binds it; NULL with the reason in why when an argument
 * cannot stand there (rewrite_caller.c). */
char *ompdp_rw_in_caller_words(const char *text, const char *params, const ompdp_rw_items_t *call,
                               ompdp_strbuf_t *why);
/* Whether array sections a and b (as written) differ only in the length
 * of their first dimension: the same variable, lower bound and other
 * dimensions (`a[0:n]`, `a[0:(n / 2)]`), so that the longer holds the
 * shorter (rewrite_caller.c). */
int ompdp_rw_only_length_differs(const char *a, const char *b);
/* What the run's tables record that the definition of callee (nparams
 * parameters) does on the host with its parameter at pos: 'u' never names
 * it, 'm' only in OpenMP clauses and device code, '-' else; 0 when no
 * definition is recorded (rewrite_caller.c). */
char ompdp_rw_callee_param_use(const ompdp_plan_t *p, const char *callee, size_t nparams,
                               size_t pos);
/* A call of a function defined in another file that host access record a
 * (of a construct or call of source_file) passes variable itself to (or
 * expr, the item's own expression when not null: an element `y[1]` of an
 * array of pointers): its CALL region, the argument's position and the
 * callee's use of it. */
typedef struct ompdp_rw_extern_arg {
  const ompdp_plan_region_t *call;
  uint32_t pos;
  char use; /* ompdp_rw_callee_param_use */
} ompdp_rw_extern_arg_t;
/* Those calls, at most max into out; how many (rewrite_caller.c). function,
 * when not null: only calls in that function (a template's instance: the
 * other instances' calls stand at the same place). */
size_t ompdp_rw_extern_args(const ompdp_plan_t *p, const char *source_file,
                            const char *function, const char *variable, const char *expr,
                            const ompdp_host_access_t *a, ompdp_rw_extern_arg_t *out,
                            size_t max);
/* Whether record a names variable only as the argument of such calls (its
 * ExternArgs), each of whose callees leaves it alone on the host ('u') or
 * names it only in its constructs ('m'). */
int ompdp_rw_extern_calls_leave(const ompdp_plan_t *p, const char *source_file,
                                const char *function, const char *variable, const char *expr,
                                const ompdp_host_access_t *a);
int ompdp_rw_row_resident_all(const ompdp_rw_plan_t *c, ompdp_report_t *r, const size_t *removed);

#endif /* OMPDP_REWRITE_IMPL_H */
