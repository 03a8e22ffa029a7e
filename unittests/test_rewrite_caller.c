/*===- test_rewrite_caller.c - keeping data resident at the caller -------===*\
|*
|* The rule of analysis/rewrite_caller.c on hand-written runs: a construct
|* in step() (region 1, no loop there) whose every execution ran in one call
|* (region 2) in g()'s loop, as the runtime's context says. The rewrite puts
|* the `target data` around g's loop with g's names for step's parameters
|* (checked by applying its edits to g's source); a construct that also ran
|* in other calls, a single call, an argument that changes in the loop, a
|* function whose host code uses the data, or a `to` item its device code
|* may write keep their findings as advice with the reason. And the
|* substitution itself: parameters, members, numbers, parentheses, globals.
|* And a loop that also passes `a` to other() (region 5), a function of
|* another file: kept when other()'s own table (region 6, FnParamUses) says
|* it never names that parameter, refused when it uses it, names it only in
|* constructs the run did not see map `a`, or has no record; the lookup of
|* a definition's letter (the least of several definitions); which sections
|* differ only in their length.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "check.h"
#include "edits.h"
#include "events.h"
#include "rewrite.h"
#include "rewrite_impl.h" /* ompdp_rw_in_caller_words */

#include <stdlib.h>
#include <string.h>

/*--- the substitution ------------------------------------------------------*/

/* A call region's items: one per parameter of "x\nlo\nn\ns", with these
 * arguments, all invariant but those in unsteady; then a global "table". */
static void call_items(ompdp_region_info_t *items, const char *const args[4], unsigned unsteady) {
  for (int i = 0; i < 5; ++i) {
    memset(&items[i], 0, sizeof(items[i]));
    items[i].construct = OMPDP_CK_CALL;
    items[i].file = "c.c";
    items[i].line = 7;
    items[i].parameters = "x\nlo\nn\ns";
    items[i].expr = i < 4 ? args[i] : "table";
    items[i].variable = i == 0 ? "a" : i == 4 ? "table" : "";
    items[i].access_flags = i < 4 && (unsteady & (1u << i)) ? 0 : OMPDP_IA_ARG_INVARIANT;
  }
}

/* text in the caller's words, or "!" and the reason when refused. */
static char *words(const char *text, const char *const args[4], unsigned unsteady, int globals) {
  ompdp_region_info_t items[5];
  call_items(items, args, unsteady);
  ompdp_rw_items_t call = {.items = items, .reg = {.items = items, .num_items = globals ? 5 : 4}};
  ompdp_strbuf_t why = {0};
  char *s = ompdp_rw_in_caller_words(text, items[0].parameters, &call, &why);
  if (!s) {
    ompdp_sb_puts(&why, "");
    s = malloc(strlen(why.d ? why.d : "") + 2);
    sprintf(s, "!%s", why.d ? why.d : "");
  }
  free(why.d);
  return s;
}

static int words_are(const char *text, const char *const args[4], unsigned unsteady, int globals,
                     const char *want) {
  char *s = words(text, args, unsteady, globals);
  int ok = s && !strcmp(s, want);
  if (!ok)
    fprintf(stderr, "  '%s' -> '%s', want '%s'\n", text, s ? s : "(null)", want);
  free(s);
  return ok;
}

static void test_words(void) {
  const char *const plain[4] = {"a", "8", "m + 1", "box"};
  /* Names and numbers as they are, anything else in parentheses. */
  CHECK(words_are("x[0:n]", plain, 0, 0, "a[0:(m + 1)]"));
  CHECK(words_are("x[lo:n - lo]", plain, 0, 0, "a[8:(m + 1) - 8]"));
  /* A member's name, a number's suffix or a qualified name is no parameter. */
  CHECK(words_are("x[0:s.n]", plain, 0, 0, "a[0:box.n]"));
  CHECK(words_are("x[0:s->lo]", plain, 0, 0, "a[0:box->lo]"));
  CHECK(words_are("x[0x1n:1e3f]", plain, 0, 0, "a[0x1n:1e3f]"));
  CHECK(words_are("x[0:ns::n]", plain, 0, 0, "a[0:ns::n]"));
  CHECK(words_are("x[0:N]", plain, 0, 0, "a[0:N]"));
  /* A variable passed for the item's variable: a name or a member chain. */
  const char *const member[4] = {"s.data", "0", "len", "box"};
  CHECK(words_are("x[lo:n]", member, 0, 0, "s.data[0:len]"));
  const char *const offset[4] = {"a + 1", "0", "len", "box"};
  CHECK(words_are("x[0:n]", offset, 0, 0,
                  "!the call at c.c:7 passes `a + 1` for `x`, which is not a variable a map "
                  "clause can name"));
  /* The address of a variable, for a one-element section of the item's
   * pointer: the variable itself; a longer section stays refused. */
  const char *const address[4] = {"&r", "0", "len", "box"};
  CHECK(words_are("x[0:1]", address, 0, 0, "r"));
  CHECK(words_are("x[ : 1 ]", address, 0, 0, "r"));
  CHECK(words_are("x[0:n]", address, 0, 0,
                  "!the call at c.c:7 passes `&r` for `x`, which is not a variable a map "
                  "clause can name"));
  CHECK(words_are("x[1:1]", address, 0, 0,
                  "!the call at c.c:7 passes `&r` for `x`, which is not a variable a map "
                  "clause can name"));
  /* An argument that may change from one call to the next. */
  CHECK(words_are("x[0:n]", plain, 1u << 2, 0,
                  "!the argument for `n` at c.c:7 (`m + 1`) may change from one call to the "
                  "next"));
  CHECK(words_are("x[0:8]", plain, 1u << 2, 0, "a[0:8]")); /* n unused: no matter */
  /* A global the call records; one it does not (the caller hides it). */
  CHECK(words_are("table[lo:8]", plain, 0, 1, "table[8:8]"));
  CHECK(words_are("table[lo:8]", plain, 0, 0,
                  "!`table` in `table[lo:8]` is not a parameter of the function, nor a global the "
                  "caller at c.c:7 sees (it declares a variable of that name)"));
}

/*--- whole runs --------------------------------------------------------------*/

/* g's source: the loop that calls step(a, n). */
static const char caller_src[] = "void g(float *a, int n) {\n"
                                 "  for (int s = 0; s < 4; ++s) {\n"
                                 "    step(a, n);\n"
                                 "  }\n"
                                 "}\n";

/* What the compiler recorded, as the test varies it. */
static struct {
  uint32_t item_flags; /* of step's construct's item */
  uint32_t n_flags;    /* of the call's argument n */
  ompdp_map_type_t map;
  /* The loop also runs `other(a);` (line 4, bytes 60..72): region 5, a
   * call of a function defined in another file; region 6 a construct of
   * other() with its FnParamUses (NULL: none recorded). */
  int other;
  const char *other_uses;
  /* The construct maps y[0:n] too (item 1), and the odd calls map y
   * where the even ones map x: one host address, two variables (a buffer
   * malloc gives again). */
  int second;
} facts;

static const ompdp_host_access_t other_use = {
    .Item = 0,
    .Access = OMPDP_ACCESS_READ_WRITE,
    .Flags = OMPDP_HA_STATEMENT | OMPDP_HA_EVERY_TIME | OMPDP_HA_AT_MOST_ONCE | OMPDP_HA_AFTER,
    .Line = 4,
    .Column = 5,
    .EndLine = 4,
    .EndColumn = 14,
    .Offset = 60,
    .Length = 10,
    .ExternArgs = 1,
};

/* Region 1: `#pragma omp target map(tofrom: x[0:n])` in step(), in no
 * loop. Region 2: the call step(a, n) at c.c:3:5 in g()'s loop. */
static int describe(uint32_t region, int item, ompdp_region_info_t *out) {
  memset(out, 0, sizeof(*out));
  out->directive = out->other_clauses = out->arguments = out->stmt_text = "";
  out->compile_dir = out->compile_args = out->fill_type = out->fill_lower = "";
  out->fill_length = out->callee = out->parameters = out->source_file = "";
  out->variable = out->expr = out->clause = "";
  if (region == 1) {
    out->construct = OMPDP_CK_TARGET;
    out->file = "s.c";
    out->function = "step";
    out->line = 2;
    out->column = 1;
    out->num_items = facts.second ? 2 : 1;
    if (item >= (int)out->num_items)
      return -1;
    if (item >= 0) {
      out->variable = item ? "y" : "x";
      out->expr = item ? "y[0:n]" : "x[0:n]";
      out->clause = facts.map == OMPDP_MT_TO ? "map(to: x[0:n])" : "map(tofrom: x[0:n])";
      out->map_type = facts.map;
      out->access = facts.map == OMPDP_MT_TO ? OMPDP_ACCESS_READ : OMPDP_ACCESS_READ_WRITE;
      out->access_flags = facts.item_flags;
      out->clause_line = out->clause_end_line = out->item_line = out->item_end_line = 2;
      out->clause_column = 20;
      out->clause_end_column = 39;
      out->item_column = 32;
      out->item_end_column = 38;
    }
    return 0;
  }
  if (region == 5 || region == 6) {
    out->file = out->source_file = region == 5 ? "c.c" : "o.c";
    out->construct = region == 5 ? OMPDP_CK_CALL : OMPDP_CK_TARGET;
    out->function = region == 5 ? "g" : "other";
    out->line = region == 5 ? 4 : 9;
    out->column = 5;
    if (region == 5) {
      out->callee = "other";
      out->parameters = "p";
      out->extern_callee = 1;
      out->directive_offset = 62;
      out->loop_kind = OMPDP_LK_FOR;
      out->loop_line = 2;
      out->loop_length = 64;
      out->loop_column = 3;
      out->num_items = 1;
      if (item > 0)
        return -1;
      if (item == 0)
        out->expr = out->variable = "a";
    } else {
      out->fn_parameters = "p";
      out->fn_param_uses = facts.other_uses;
      if (item >= 0)
        return -1;
    }
    return 0;
  }
  if (region != 2 && region != 3)
    return -1;
  out->construct = OMPDP_CK_CALL;
  out->file = out->source_file = "c.c";
  out->function = "g";
  out->callee = "step";
  out->parameters = "x\nn";
  out->line = region == 2 ? 3 : 7;
  out->column = 5;
  out->loop_kind = OMPDP_LK_FOR;
  out->loop_line = region == 2 ? 2 : 6;
  out->loop_length = 64;
  out->loop_column = 3;
  out->loop_stmt_end_line = 4;
  out->loop_own_lines = 1;
  out->num_items = 2;
  if (item > 1)
    return -1;
  if (item == 0) {
    out->expr = out->variable = "a";
    out->access_flags = OMPDP_IA_ARG_INVARIANT;
    if (facts.other && region == 2) {
      out->host_accesses = &other_use;
      out->num_host_accesses = 1;
    }
  } else if (item == 1) {
    out->expr = out->variable = "n";
    out->access_flags = facts.n_flags;
  }
  return 0;
}

static struct {
  int mixed;
  int second; /* it also ran in region 3, the call in g's second loop */
  uint64_t calls;
} context_of;

static int context(uint32_t region, ompdp_context_t *out) {
  if (region != 1)
    return -1;
  memset(out, 0, sizeof(*out));
  out->calls[0] = 2;
  out->calls[1] = context_of.second ? 3 : 0;
  out->other = context_of.mixed;
  out->count = context_of.calls;
  return 0;
}

/* calls executions of step's construct: each allocates x (4 KiB at host
 * 0x1000), copies it in (what came back last), runs, copies it back
 * changed (tofrom) and frees it. */
static void run(seq_t *s, int calls) {
  seq_init(s);
  for (int k = 0; k < calls; ++k) {
    int item = facts.second ? k % 2 : 0;
    ompdp_event_t *e = &s->ev[alloc(s, 0, 0x1000, 0x9000, 4096)];
    e->region = 1;
    e->item = item;
    e = &s->ev[h2d(s, 0, 0x1000, 0x9000, 4096, facts.map == OMPDP_MT_TO ? 100 : 100 + (uint64_t)k)];
    e->region = 1;
    e->item = item;
    kernel(s, 0);
    if (facts.map == OMPDP_MT_TOFROM) {
      e = &s->ev[d2h(s, 0, 0x9000, 0x1000, 4096, 101 + (uint64_t)k)];
      e->region = 1;
      e->item = item;
    }
    e = &s->ev[del(s, 0, 0x9000)];
    e->region = 1;
  }
}

/* The report of s with a repeated allocation of region 1's item, planned
 * with the context above. */
static void plan(const seq_t *s, ompdp_report_t *r, uint64_t count) {
  ompdp_report_init(r);
  ompdp_finding_t *f = ompdp_report_add_finding(r, OMPDP_FK_REPEATED_ALLOC);
  f->count = count;
  f->rt_region = 1;
  f->item = 0;
  f->variable = ompdp_strdup("x");
  f->suggestion = ompdp_strdup("allocate it once outside the loop"); /* the detection's */
  ompdp_rw_facts_t *rf = ompdp_rw_facts_create(HOST);
  for (size_t i = 0; i < s->n; ++i)
    CHECK(ompdp_rw_facts_feed(rf, &s->ev[i]) == 0);
  CHECK(ompdp_rw_facts_to_plan(rf, r, describe, context, 0, &r->plan) == 0);
  ompdp_rw_facts_destroy(rf);
  /* other()'s call and construct: in the plan as the run copies the
   * records of every construct and call it saw (handles after the others). */
  for (uint32_t h = 5; facts.other && h <= (facts.other_uses ? 6u : 5u); ++h) {
    ompdp_plan_t *p = &r->plan;
    ompdp_plan_region_t *g = realloc(p->regions, (p->num_regions + 1) * sizeof(*g));
    REQUIRE(g);
    p->regions = g;
    g = &p->regions[p->num_regions++];
    memset(g, 0, sizeof(*g));
    g->handle = h;
    ompdp_region_info_t x;
    REQUIRE(describe(h, -1, &x) == 0);
    REQUIRE(ompdp_region_info_copy(&g->head, &x) == 0);
    if (x.num_items) {
      g->items = calloc(x.num_items, sizeof(*g->items));
      REQUIRE(g->items);
      for (uint32_t j = 0; j < x.num_items; ++j) {
        REQUIRE(describe(h, (int)j, &x) == 0);
        REQUIRE(ompdp_region_info_copy(&g->items[j], &x) == 0);
      }
    }
  }
  CHECK(ompdp_rewrite_report(r) == 0);
}

/* Four calls of step's construct, planned into r. */
static void planned(ompdp_report_t *r) {
  seq_t s;
  run(&s, 4);
  plan(&s, r, 3);
}

/* The facts of a construct the rule keeps: tofrom, params-only,
 * fn-host-unused, n invariant, four calls from one loop. */
static void keepable(void) {
  facts.item_flags = OMPDP_IA_PARAMS_ONLY | OMPDP_IA_FN_HOST_UNUSED;
  facts.n_flags = OMPDP_IA_ARG_INVARIANT;
  facts.map = OMPDP_MT_TOFROM;
  context_of.mixed = context_of.second = 0;
  context_of.calls = 4;
}

static void test_kept(void) {
  keepable();
  ompdp_report_t r;
  planned(&r);
  const ompdp_finding_t *f = &r.findings[0];
  REQUIRE(f->num_rewrites == 1);
  const ompdp_rewrite_t *rw = &f->rewrites[0];
  CHECK(rw->kind == OMPDP_RK_KEEP_RESIDENT);
  CHECK(f->verdict == OMPDP_V_FIX);
  /* 8 copies become one in and one back; 4 allocations one. */
  CHECK_EQ_U64(rw->transfers_removed, 6);
  CHECK_EQ_U64(rw->allocs_removed, 3);
  CHECK(!strcmp(rw->description,
                "keep `a[0:n]` on device 0 for the whole for loop at c.c:2 that calls step(), "
                "where it is `x[0:n]`: `#pragma omp target data map(tofrom: a[0:n])` before it; "
                "the maps in step() then find it present; no host code in the loop uses `a`, so "
                "it comes back once, after it"));
  REQUIRE(rw->num_edits == 1);
  CHECK(!strcmp(rw->edits[0].file, "c.c"));
  char *out = apply(caller_src, rw);
  CHECK(out && !strcmp(out, "void g(float *a, int n) {\n"
                            "  #pragma omp target data map(tofrom: a[0:n])\n"
                            "  for (int s = 0; s < 4; ++s) {\n"
                            "    step(a, n);\n"
                            "  }\n"
                            "}\n"));
  free(out);
  ompdp_report_free(&r);
}

/* The finding's suggestion ends with "No rewrite: <why>" (why NULL: it has
 * no rewrite at all, whatever it says). */
static void refused(const char *why) {
  ompdp_report_t r;
  planned(&r);
  const ompdp_finding_t *f = &r.findings[0];
  CHECK(f->num_rewrites == 0);
  CHECK(f->verdict == OMPDP_V_ADVICE);
  /* After the words the verdict adds, the reason comes last. */
  const char *got = f->suggestion ? strstr(f->suggestion, "No rewrite: ") : NULL;
  if (why && !(got && !strcmp(got + 12, why))) {
    CHECK(!"the reason");
    fprintf(stderr, "  got '%s'\n  want '%s'\n", got ? got + 12 : "(none)", why);
  }
  ompdp_report_free(&r);
}

static void test_refused(void) {
  facts.item_flags = OMPDP_IA_PARAMS_ONLY | OMPDP_IA_FN_HOST_UNUSED;
  facts.n_flags = OMPDP_IA_ARG_INVARIANT;
  facts.map = OMPDP_MT_TOFROM;
  context_of.calls = 4;
  /* Ran outside the calls the run followed too. */
  context_of.mixed = 1;
  refused("the target construct at s.c:2 maps it, and the run saw it run outside the calls "
          "it could follow (a call it could not see, more than 4, or a call through a "
          "pointer that also called a function none of whose constructs ran).");
  context_of.mixed = 0;
  /* Ran in calls from two loops of g. */
  context_of.second = 1;
  refused("it is mapped in calls at c.c:3 and c.c:7, which are not in one loop.");
  context_of.second = 0;
  /* The length changes in the loop. */
  facts.n_flags = 0;
  refused("the argument for `n` at c.c:3 (`n`) may change from one call to the next.");
  facts.n_flags = OMPDP_IA_ARG_INVARIANT;
  /* step's own host code uses x. */
  facts.item_flags = OMPDP_IA_PARAMS_ONLY;
  refused("host code of step uses `x` (or the compiler cannot tell that it does not), and "
          "would no longer see the device's copy come back there.");
  /* Not written with step's parameters alone. */
  facts.item_flags = OMPDP_IA_FN_HOST_UNUSED;
  refused("`x[0:n]` at s.c:2 names more than the parameters of step, so it cannot be written "
          "at the call.");
  /* step allocates x anew at each call and uses it on the host: the
   * reason given first, whatever the calls (here it also ran outside the
   * calls the run followed). */
  facts.item_flags = OMPDP_IA_PARAMS_ONLY | OMPDP_IA_FRESH_HOST;
  context_of.mixed = 1;
  refused("each call of step allocates `x` anew on the host and its host code uses it, so no "
          "device copy can be kept from one call to the next: allocating it once before the "
          "calls is a change of the host code that ompdp does not make.");
  context_of.mixed = 0;
  /* x and y at one host address in turn: the words name both, for the
   * finding of either. */
  facts.second = 1;
  refused("each call of step allocates `x` and `y` anew on the host (malloc may give one the "
          "address another had) and its host code uses them, so no device copy can be kept "
          "from one call to the next: allocating them once before the calls is a change of the "
          "host code that ompdp does not make.");
  facts.second = 0;
  /* A `to` item that the device code may write and nothing copies back. */
  facts.item_flags = OMPDP_IA_PARAMS_ONLY | OMPDP_IA_FN_HOST_UNUSED;
  facts.map = OMPDP_MT_TO;
  refused("device code of step may write `x`, which no construct copies back: each call "
          "starts from the host's copy, which keeping it would change.");
  facts.item_flags |= OMPDP_IA_FN_DEVICE_READS;
  {
    ompdp_report_t r;
    planned(&r);
    CHECK(r.findings[0].num_rewrites == 1);
    ompdp_report_free(&r);
  }
}

/* The loop passes `a` to other() too. */
static void test_other_file(void) {
  keepable();
  facts.other = 1;
  /* other() never names p: no host use, no update. */
  facts.other_uses = "u";
  {
    ompdp_report_t r;
    planned(&r);
    const ompdp_finding_t *f = &r.findings[0];
    REQUIRE(f->num_rewrites == 1);
    CHECK_EQ_U64(f->rewrites[0].transfers_removed, 6);
    CHECK(strstr(f->rewrites[0].description, "#pragma omp target data map(tofrom: a[0:n])"));
    CHECK(!strstr(f->rewrites[0].description, "target update"));
    ompdp_report_free(&r);
  }
  /* Its host code uses p. */
  facts.other_uses = "-";
  refused("the call at c.c:4 passes `a` to other(), whose host code uses its parameter `p` "
          "(or the compiler cannot tell that it does not), and would not see the data kept "
          "on the device.");
  /* Its constructs map p, but none ran in that call: how is unknown. */
  facts.other_uses = "m";
  refused("the call at c.c:4 passes `a` to other(), which maps its parameter `p` in "
          "constructs none of which the run saw map this data in that call, so ompdp cannot "
          "tell how they would map it.");
  /* No definition recorded. */
  facts.other_uses = NULL;
  refused("the call at c.c:4 passes `a` to other(), defined in another file for which the run "
          "recorded no definition (none of its constructs ran, or its file was built without "
          "the ompdp plugin), so ompdp cannot tell what its host code does with the data.");
  facts.other = 0;
  facts.other_uses = NULL;
}

/* The least letter of every definition of a name with that many
 * parameters; 0 when none. */
static void test_param_use(void) {
  ompdp_plan_region_t g[4];
  memset(g, 0, sizeof(g));
  const char *fn[4] = {"f", "f", "f", "h"};
  const char *params[4] = {"a\nb", "a\nb", "a", "a\nb"};
  const char *uses[4] = {"mu", "uu", "-", "--"};
  for (int i = 0; i < 4; ++i) {
    g[i].handle = (uint32_t)i + 1;
    g[i].head.construct = OMPDP_CK_TARGET;
    g[i].head.function = fn[i];
    g[i].head.fn_parameters = params[i];
    g[i].head.fn_param_uses = uses[i];
  }
  ompdp_plan_t p = {.regions = g, .num_regions = 4};
  CHECK(ompdp_rw_callee_param_use(&p, "f", 2, 0) == 'm'); /* "mu" and "uu" */
  CHECK(ompdp_rw_callee_param_use(&p, "f", 2, 1) == 'u');
  CHECK(ompdp_rw_callee_param_use(&p, "f", 1, 0) == '-'); /* the overload of one */
  CHECK(ompdp_rw_callee_param_use(&p, "f", 3, 0) == 0);   /* none of three */
  CHECK(ompdp_rw_callee_param_use(&p, "h", 2, 1) == '-');
  CHECK(ompdp_rw_callee_param_use(&p, "k", 2, 0) == 0);
  /* A table of before 3.9: no letters, no record. */
  g[3].head.fn_param_uses = "";
  CHECK(ompdp_rw_callee_param_use(&p, "h", 2, 0) == 0);
  /* A call region is no definition. */
  g[0].head.construct = g[1].head.construct = OMPDP_CK_CALL;
  CHECK(ompdp_rw_callee_param_use(&p, "f", 2, 0) == 0);
}

/* A statement passing `y[1]`, an element of an array of pointers, to a
 * function of another file: the call's argument is matched by the item's
 * own expression, never by another element's. */
static void test_element_args(void) {
  ompdp_plan_region_t g[2];
  ompdp_region_info_t arg[1];
  memset(g, 0, sizeof(g));
  memset(arg, 0, sizeof(arg));
  arg[0].variable = "y";
  arg[0].expr = "y[1]";
  g[0].handle = 1;
  g[0].head.construct = OMPDP_CK_CALL;
  g[0].head.extern_callee = 1;
  g[0].head.source_file = "c.c";
  g[0].head.callee = "other";
  g[0].head.parameters = "p";
  g[0].head.directive_offset = 62;
  g[0].head.num_items = 1;
  g[0].items = arg;
  g[1].handle = 2;
  g[1].head.construct = OMPDP_CK_TARGET;
  g[1].head.function = "other";
  g[1].head.fn_parameters = "p";
  g[1].head.fn_param_uses = "m";
  ompdp_plan_t p = {.regions = g, .num_regions = 2};
  ompdp_host_access_t a = other_use;
  ompdp_rw_extern_arg_t out[2];
  CHECK(ompdp_rw_extern_args(&p, "c.c", NULL, "y", "y[1]", &a, out, 2) == 1);
  CHECK(out[0].use == 'm' && out[0].pos == 0);
  CHECK(ompdp_rw_extern_calls_leave(&p, "c.c", NULL, "y", "y[1]", &a));
  /* Another element's item, or none: not this argument. */
  CHECK(ompdp_rw_extern_args(&p, "c.c", NULL, "y", "y[2]", &a, out, 2) == 0);
  CHECK(ompdp_rw_extern_args(&p, "c.c", NULL, "y", NULL, &a, out, 2) == 0);
  CHECK(!ompdp_rw_extern_calls_leave(&p, "c.c", NULL, "y", "y[2]", &a));
  /* The variable itself still matches by its name. */
  arg[0].expr = "y";
  CHECK(ompdp_rw_extern_args(&p, "c.c", NULL, "y", NULL, &a, out, 2) == 1);
}

/* Sections kept as the longest: only their first length differs. */
static void test_lengths(void) {
  CHECK(ompdp_rw_only_length_differs("a[0:n]", "a[0:(n / 2)]"));
  CHECK(ompdp_rw_only_length_differs("s.a[lo:n][0:m]", "s.a[lo:k][0:m]"));
  CHECK(ompdp_rw_only_length_differs("a[f(i, j):n]", "a[f(i, j):m]"));
  CHECK(ompdp_rw_only_length_differs("a[:n]", "a[:m]"));
  CHECK(!ompdp_rw_only_length_differs("a[0:n]", "a[1:n - 1]"));   /* another start */
  CHECK(!ompdp_rw_only_length_differs("a[0:n]", "b[0:n]"));       /* another variable */
  CHECK(!ompdp_rw_only_length_differs("a[0:n][0:m]", "a[0:n][0:k]")); /* another dimension */
  CHECK(!ompdp_rw_only_length_differs("a", "a[0:n]"));            /* a whole variable */
  CHECK(!ompdp_rw_only_length_differs("a[i]", "a[j]"));            /* no length */
  CHECK(!ompdp_rw_only_length_differs("a[ns::k:n]", "a[ns::j:n]")); /* `::` is no colon */
}

/* A kernel launch that used the buffer's device allocation (an
 * OMPDP_EV_USE: it found the data present, in a function of another file)
 * is in the plan: the site's kuse_region and kuse_item name it, the same
 * launch twice once, a second construct beside it, and its region record
 * comes along (the verdicts read whether it writes the item). A use of
 * memory no allocation of the run holds names nothing. */
static void test_kernel_uses(void) {
  facts.map = OMPDP_MT_TOFROM;
  seq_t s;
  seq_init(&s);
  ompdp_event_t *e = &s.ev[alloc(&s, 0, 0x1000, 0x9000, 4096)];
  e->region = 1;
  e->item = 0;
  e = &s.ev[h2d(&s, 0, 0x1000, 0x9000, 4096, 100)];
  e->region = 1;
  e->item = 0;
  for (int k = 0; k < 3; ++k) {
    kernel(&s, 0);
    e = seq_add(&s, OMPDP_EV_USE, 0);
    e->dst_dev = 0;
    e->dst_addr = k == 2 ? 0x5000 : 0x9000; /* the last: no allocation there */
    e->region = 6;
    e->item = k == 1 ? 1 : 0;
  }
  ompdp_report_t r;
  ompdp_report_init(&r);
  ompdp_rw_facts_t *rf = ompdp_rw_facts_create(HOST);
  for (size_t i = 0; i < s.n; ++i)
    CHECK(ompdp_rw_facts_feed(rf, &s.ev[i]) == 0);
  ompdp_finding_t *f = ompdp_report_add_finding(&r, OMPDP_FK_DUPLICATE_TRANSFER);
  f->rt_region = 1;
  f->item = 0;
  CHECK(ompdp_rw_facts_to_plan(rf, &r, describe, context, 0, &r.plan) == 0);
  ompdp_rw_facts_destroy(rf);
  REQUIRE(r.plan.num_sites >= 1);
  const ompdp_plan_site_t *site = &r.plan.sites[0];
  CHECK(site->region == 1 && site->kuse_region == 6 && site->kuse_item == 0);
  CHECK(site->kuse_region2 == 6 && site->kuse_item2 == 1);
  int have6 = 0;
  for (size_t i = 0; i < r.plan.num_regions; ++i)
    have6 |= r.plan.regions[i].handle == 6;
  CHECK(have6);
  ompdp_report_free(&r);
}

/* The section's base pointer held in memory: a map attaches it and every
 * update copies it with the section (rewrite_caller.c counts those). */
static void test_attached_base(void) {
  CHECK(ompdp_rw_attached_base("y[1][0:num_rows]") == 4); /* `y[1]` */
  CHECK(ompdp_rw_attached_base("s.p[0:n]"));
  CHECK(ompdp_rw_attached_base("s->p[lo:len]") == 4);
  CHECK(ompdp_rw_attached_base("p[i][0:n]"));
  CHECK(!ompdp_rw_attached_base("y[0:N]"));
  CHECK(!ompdp_rw_attached_base("x[a[1]:n]")); /* an index, not a base */
  CHECK(!ompdp_rw_attached_base("x[f(1, 2):g(n)]"));
  CHECK(!ompdp_rw_attached_base("y"));
  CHECK(!ompdp_rw_attached_base("y[1]")); /* no section */
  CHECK(!ompdp_rw_attached_base("v[std::size_t(0):n]"));
}

int main(void) {
  test_attached_base();
  test_kernel_uses();
  test_words();
  test_lengths();
  test_element_args();
  test_other_file();
  test_param_use();
  test_kept();
  test_refused();
  return CHECK_DONE();
}
