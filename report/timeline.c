/*===- timeline.c - the report's timeline section ------------------------===*\
|*
|* Lifetime of the timeline model (timeline.h) and its JSON form, which the
|* runtime writes into the report (report_json.c calls it) and the driver
|* writes again when it re-renders a report. An operation is one array of
|* the columns named in "columns", one per line: a timeline of every event
|* is long, and named members would triple its size. Plain stdio like the
|* rest of the writers: the runtime links this, and no JSON library.
|*
\*===----------------------------------------------------------------------===*/
#include "timeline.h"

#include "report.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static const char *const TypeJson[] = {
#define OMPDP_TL_JSON(Enum, Json, Title) Json,
    OMPDP_TL_TYPES(OMPDP_TL_JSON)
#undef OMPDP_TL_JSON
};
static const char *const TypeTitle[] = {
#define OMPDP_TL_TITLE(Enum, Json, Title) Title,
    OMPDP_TL_TYPES(OMPDP_TL_TITLE)
#undef OMPDP_TL_TITLE
};

const char *ompdp_tl_type_json(int type) {
  return type >= 0 && type < OMPDP_TL_NTYPES ? TypeJson[type] : "unknown";
}

const char *ompdp_tl_type_title(int type) {
  return type >= 0 && type < OMPDP_TL_NTYPES ? TypeTitle[type] : "unknown";
}

int ompdp_tl_type_from_json(const char *name) {
  for (int t = 0; name && t < OMPDP_TL_NTYPES; ++t)
    if (!strcmp(name, TypeJson[t]))
      return t;
  return OMPDP_TL_NTYPES;
}

void ompdp_timeline_free(ompdp_timeline_t *t) {
  if (!t)
    return;
  free(t->ops);
  free(t->links);
  for (size_t i = 0; i < t->num_lanes; ++i)
    free(t->lanes[i].bins);
  free(t->lanes);
  memset(t, 0, sizeof(*t));
}

/*===- finding ids to positions ----------------------------------------------===*/

typedef struct idpos {
  uint32_t id;
  uint32_t pos;
} idpos_t;

static int cmp_idpos(const void *a, const void *b) {
  const idpos_t *x = a, *y = b;
  if (x->id != y->id)
    return x->id < y->id ? -1 : 1;
  return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Sorted (id, position) pairs of r's findings; NULL (and *n = 0) when r has
 * none or memory ran out (position then searches r's findings one by one:
 * slower, the same answer, so no writer fails for want of this memory). */
static idpos_t *id_map(const ompdp_report_t *r, size_t *n) {
  *n = 0;
  if (!r->num_findings)
    return NULL;
  idpos_t *m = malloc(r->num_findings * sizeof(*m));
  if (!m)
    return NULL;
  for (size_t i = 0; i < r->num_findings; ++i)
    m[i] = (idpos_t){r->findings[i].timeline_id, (uint32_t)i};
  qsort(m, r->num_findings, sizeof(*m), cmp_idpos);
  *n = r->num_findings;
  return m;
}

/* The position of the finding with this id, or -1. */
static long position(const ompdp_report_t *r, const idpos_t *m, size_t n, uint32_t id) {
  if (!m) {
    for (size_t i = 0; i < r->num_findings; ++i)
      if (r->findings[i].timeline_id == id)
        return (long)i;
    return -1;
  }
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (m[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && m[lo].id == id ? (long)m[lo].pos : -1;
}

long *ompdp_timeline_link_positions(const ompdp_report_t *r) {
  const ompdp_timeline_t *t = r->timeline;
  if (!t || !t->num_links)
    return NULL;
  long *pos = malloc(t->num_links * sizeof(*pos));
  if (!pos)
    return NULL;
  size_t n;
  idpos_t *m = id_map(r, &n);
  for (size_t i = 0; i < t->num_links; ++i)
    pos[i] = position(r, m, n, t->links[i].finding);
  free(m);
  return pos;
}

void ompdp_timeline_count_shown(const ompdp_report_t *r, uint64_t *counts) {
  memset(counts, 0, r->num_findings * sizeof(*counts));
  const ompdp_timeline_t *t = r->timeline;
  if (!t)
    return;
  size_t n;
  idpos_t *m = id_map(r, &n);
  /* A finding counts its allocations: the delete of each is linked too,
   * and is not one more. */
  for (size_t i = 0; i < t->num_ops; ++i) {
    const ompdp_tl_op_t *o = &t->ops[i];
    if (o->type == OMPDP_TL_DELETE)
      continue;
    for (size_t k = o->first_link; k < o->first_link + o->num_links && k < t->num_links; ++k) {
      long p = t->links[k].related ? -1 : position(r, m, n, t->links[k].finding);
      if (p >= 0)
        counts[p]++;
    }
  }
  free(m);
}

/*===- findings by variable and construct ------------------------------------===*/

static int str_cmp(const char *a, const char *b) { return strcmp(a ? a : "", b ? b : ""); }

static const ompdp_report_t *group_sort_r;

/* By variable, then location (file, line, column, function), then
 * position: a group's findings come together, in report order. */
static int cmp_group_key(const void *a, const void *b) {
  size_t i = *(const size_t *)a, j = *(const size_t *)b;
  const ompdp_finding_t *x = &group_sort_r->findings[i], *y = &group_sort_r->findings[j];
  int c = str_cmp(x->variable, y->variable);
  if (!c)
    c = str_cmp(x->loc.file, y->loc.file);
  if (!c)
    c = x->loc.line < y->loc.line ? -1 : x->loc.line > y->loc.line;
  if (!c)
    c = x->loc.column < y->loc.column ? -1 : x->loc.column > y->loc.column;
  if (!c)
    c = str_cmp(x->loc.function, y->loc.function);
  return c ? c : i < j ? -1 : i > j;
}

static int same_group(const ompdp_finding_t *x, const ompdp_finding_t *y) {
  return !str_cmp(x->variable, y->variable) && !str_cmp(x->loc.file, y->loc.file) &&
         x->loc.line == y->loc.line && x->loc.column == y->loc.column &&
         !str_cmp(x->loc.function, y->loc.function);
}

typedef struct giv {
  size_t group, finding; /* finding: position in r->findings */
  uint64_t start, end;
} giv_t;

static int cmp_giv(const void *a, const void *b) {
  const giv_t *x = a, *y = b;
  if (x->group != y->group)
    return x->group < y->group ? -1 : 1;
  return x->start < y->start ? -1 : x->start > y->start;
}

/* The length of the union of v[0..n) (sorted by start); with only, of
 * those of that finding. */
static uint64_t union_len(const giv_t *v, size_t n, long only) {
  uint64_t total = 0, cs = 0, ce = 0;
  int open = 0;
  for (size_t i = 0; i < n; ++i) {
    if (only >= 0 && v[i].finding != (size_t)only)
      continue;
    if (open && v[i].start <= ce) {
      ce = v[i].end > ce ? v[i].end : ce;
      continue;
    }
    total += open ? ce - cs : 0;
    cs = v[i].start;
    ce = v[i].end;
    open = 1;
  }
  return total + (open ? ce - cs : 0);
}

/* What a group's saving findings save together, as the run's total counts
 * it: each avoidable operation once (the union of their intervals), from
 * the timeline's operations of those findings (v, sorted). Exact when the
 * timeline holds every one (shown == count) or one finding saves alone;
 * else a range: from what is known to at most that plus what the missing
 * operations of each finding can add. */
static void group_saving(const ompdp_report_t *r, ompdp_finding_group_t *g, const size_t *idx,
                         const giv_t *v, size_t nv, const uint64_t *shown) {
  uint64_t most = 0, sum = 0, rest = 0;
  size_t saving = 0;
  int complete = 1;
  uint64_t u = union_len(v, nv, -1);
  for (size_t k = g->first; k < g->first + g->n; ++k) {
    const ompdp_finding_t *f = &r->findings[idx[k]];
    if (!ompdp_verdict_saves(f->verdict))
      continue;
    ++saving;
    most = f->time_saved_ns > most ? f->time_saved_ns : most;
    sum += f->time_saved_ns;
    if (shown[idx[k]] < f->count) {
      complete = 0;
      uint64_t known = union_len(v, nv, (long)idx[k]);
      rest += f->time_saved_ns > known ? f->time_saved_ns - known : 0;
    }
  }
  if (saving <= 1) {
    g->saved_ns = g->saved_max_ns = most;
    return;
  }
  g->saved_ns = u > most ? u : most;
  if (complete) {
    g->saved_max_ns = g->saved_ns;
    return;
  }
  uint64_t hi = u + rest < sum ? u + rest : sum;
  g->saved_max_ns = hi > g->saved_ns ? hi : g->saved_ns;
}

int ompdp_report_groups(const ompdp_report_t *r, ompdp_finding_group_t **groups, size_t *ngroups,
                        size_t **order) {
  *groups = NULL;
  *ngroups = 0;
  *order = NULL;
  if (!r->num_findings)
    return 0;
  size_t n = r->num_findings, ng = 0, nv = 0;
  size_t *idx = malloc(n * sizeof(*idx)), *gof = malloc(n * sizeof(*gof));
  ompdp_finding_group_t *g = calloc(n, sizeof(*g));
  uint64_t *shown = malloc(n * sizeof(*shown));
  long *pos = ompdp_timeline_link_positions(r);
  const ompdp_timeline_t *t = r->timeline;
  giv_t *v = t && t->num_links ? malloc(t->num_links * sizeof(*v)) : NULL;
  if (!idx || !gof || !g || !shown || (t && t->num_links && (!pos || !v))) {
    free(idx), free(gof), free(g), free(shown), free(pos), free(v);
    return -1;
  }
  for (size_t i = 0; i < n; ++i)
    idx[i] = i;
  group_sort_r = r;
  qsort(idx, n, sizeof(*idx), cmp_group_key);
  for (size_t k = 0; k < n; ++k) {
    if (!k || !same_group(&r->findings[idx[k - 1]], &r->findings[idx[k]]))
      g[ng++].first = k;
    g[ng - 1].n++;
    gof[idx[k]] = ng - 1;
  }
  ompdp_timeline_count_shown(r, shown);
  /* The avoidable operations of the saving findings, by group. */
  for (size_t i = 0; t && i < t->num_ops; ++i) {
    const ompdp_tl_op_t *o = &t->ops[i];
    for (size_t k = o->first_link; k < o->first_link + o->num_links && k < t->num_links; ++k)
      if (!t->links[k].related && pos[k] >= 0 &&
          ompdp_verdict_saves(r->findings[pos[k]].verdict))
        v[nv++] = (giv_t){gof[pos[k]], (size_t)pos[k], o->start_ns, o->start_ns + o->dur_ns};
  }
  if (nv > 1)
    qsort(v, nv, sizeof(*v), cmp_giv);
  for (size_t a = 0, b = 0; a < ng; ++a) {
    size_t e = b;
    while (e < nv && v[e].group == a)
      ++e;
    group_saving(r, &g[a], idx, v ? v + b : NULL, e - b, shown);
    b = e;
  }
  free(gof);
  free(shown);
  free(pos);
  free(v);
  *groups = g;
  *ngroups = ng;
  *order = idx;
  return 0;
}

/*===- JSON ----------------------------------------------------------------------===*/

/* Integers written by hand into a line buffer, then one fwrite: the bounded
 * timeline of a short program is most of the report, and fprintf with eight
 * conversions per operation (about 3,500 instructions each, callgrind) was
 * half of what the runtime spent at exit on benchmarks/programs/patterns.
 * The bytes are those printf writes (integers have no locale). */
enum { NUM_MAX = 21 }; /* "-9223372036854775808" and a separator */

static char *put_u64(char *p, uint64_t v) {
  char tmp[20];
  int n = 0;
  do {
    tmp[n++] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  while (n)
    *p++ = tmp[--n];
  return p;
}

static char *put_i64(char *p, int64_t v) {
  if (v < 0) {
    *p++ = '-';
    return put_u64(p, (uint64_t)0 - (uint64_t)v);
  }
  return put_u64(p, (uint64_t)v);
}

static char *put_lit(char *p, const char *s) {
  size_t n = strlen(s);
  memcpy(p, s, n);
  return p + n;
}

static void put_links(FILE *out, const ompdp_report_t *r, const ompdp_tl_op_t *o,
                      uint32_t related, const idpos_t *m, size_t n) {
  const ompdp_timeline_t *t = r->timeline;
  fputc('[', out);
  int any = 0;
  for (size_t i = o->first_link; i < o->first_link + o->num_links && i < t->num_links; ++i) {
    if (t->links[i].related != related)
      continue;
    long p = position(r, m, n, t->links[i].finding);
    if (p < 0)
      continue;
    char buf[NUM_MAX + 1], *e = buf;
    if (any)
      *e++ = ',';
    e = put_i64(e, p);
    fwrite(buf, 1, (size_t)(e - buf), out);
    any = 1;
  }
  fputc(']', out);
}

int ompdp_timeline_write_json(const ompdp_report_t *r, FILE *out) {
  const ompdp_timeline_t *t = r->timeline;
  size_t n;
  idpos_t *m = id_map(r, &n);
  fprintf(out,
          "{\"version\": %d, \"kept\": \"%s\", \"events\": %" PRIu64
          ", \"first_events\": %" PRIu64 ", \"per_finding\": %" PRIu64
          ", \"host_device\": %" PRId32 ", \"threads\": %" PRIu32 ",\n",
          OMPDP_TIMELINE_VERSION, t->full ? "all" : "bounded", t->events, t->first,
          t->per_finding, t->host_device, t->threads);
  fputs("    \"columns\": [\"seq\", \"type\", \"device\", \"src_device\", \"thread\", "
        "\"start_ns\", \"dur_ns\", \"bytes\", \"findings\", \"related\"],\n",
        out);
  fputs("    \"ops\": [", out);
  for (size_t i = 0; i < t->num_ops; ++i) {
    const ompdp_tl_op_t *o = &t->ops[i];
    /* "%s\n      [seq, \"type\", device, src_device, thread, start_ns,
     * dur_ns, bytes, " in two pieces around the type's name. */
    char buf[8 * NUM_MAX + 16], *e = buf;
    e = put_lit(e, i ? ",\n      [" : "\n      [");
    e = put_u64(e, o->seq);
    e = put_lit(e, ", \"");
    fwrite(buf, 1, (size_t)(e - buf), out);
    fputs(ompdp_tl_type_json(o->type), out);
    e = put_lit(buf, "\", ");
    e = put_i64(e, o->device);
    e = put_lit(e, ", ");
    e = put_i64(e, o->src_device);
    e = put_lit(e, ", ");
    e = put_u64(e, o->thread);
    e = put_lit(e, ", ");
    e = put_u64(e, o->start_ns);
    e = put_lit(e, ", ");
    e = put_u64(e, o->dur_ns);
    e = put_lit(e, ", ");
    e = put_u64(e, o->bytes);
    e = put_lit(e, ", ");
    fwrite(buf, 1, (size_t)(e - buf), out);
    put_links(out, r, o, 0, m, n);
    fputs(", ", out);
    put_links(out, r, o, 1, m, n);
    fputc(']', out);
  }
  fputs(t->num_ops ? "\n    ],\n" : "],\n", out);
  /* In picoseconds, written by hand: the program's locale may have a
   * decimal comma, which printf would use. */
  uint64_t ps = t->bin_ns > 0 && t->bin_ns < 1e15 ? (uint64_t)(t->bin_ns * 1000.0 + 0.5) : 0;
  fprintf(out, "    \"omitted\": {\"bin_ns\": %" PRIu64 ".%03u, \"lanes\": [", ps / 1000,
          (unsigned)(ps % 1000));
  for (size_t i = 0; i < t->num_lanes; ++i) {
    const ompdp_tl_lane_t *l = &t->lanes[i];
    fprintf(out,
            "%s\n      {\"device\": %" PRId32 ", \"type\": \"%s\", \"count\": %" PRIu64
            ", \"bytes\": %" PRIu64 ", \"time_ns\": %" PRIu64 ", \"bins\": [",
            i ? "," : "", l->device, ompdp_tl_type_json(l->type), l->count, l->bytes,
            l->time_ns);
    for (size_t b = 0; b < t->num_bins; ++b) {
      char buf[NUM_MAX + 1], *e = buf;
      if (b)
        *e++ = ',';
      e = put_u64(e, l->bins ? l->bins[b] : 0);
      fwrite(buf, 1, (size_t)(e - buf), out);
    }
    fputs("]}", out);
  }
  fputs(t->num_lanes ? "\n    ]}}" : "]}}", out);
  free(m);
  return ferror(out) ? -1 : 0;
}
