/*===- report_merge.c - one report from the reports of many ranks ---*- C -*-===*\
|*
|* The merge of report_merge.h. Each report is folded in as it comes and
|* then freed by the caller: the merger keeps one merged finding per
|* (kind, site), with one small value per rank that has it (for the
|* spread), the ranks' entries and the warnings grouped by text. Findings
|* are found by a key in an open-addressing table; the key is the
|* compiler's region ID and map item when the report has them (stable
|* across ranks whatever their devices), else the location, variable,
|* clause and related location. A rank whose report holds two findings of
|* one key (two devices of one site) contributes their sum.
|*
|* Device memory is per rank: each rank's devices keep their own peak
|* (ranks do not share a device's memory, and when they share a device
|* their peaks need not coincide), one entry per rank and device.
|*
|* The result does not depend on the order of the inputs: what is taken
|* from one rank (a finding's text and location, a rewrite's description,
|* the program's argv) is the lowest rank's, and lists are sorted.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "memory.h"
#include "report_merge.h"
#include "strbuf.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One rank's part of a merged finding. */
typedef struct value {
  int rank;
  uint64_t count, bytes, saved;
} value_t;

typedef struct mfinding {
  ompdp_finding_t f; /* sums; text and location from rep_rank */
  int rep_rank;
  char *key;
  uint64_t hash;
  value_t *vals; /* in the order ranks came */
  size_t nvals, capvals;
  /* Per rewrite of f: the rank and position it was first seen at (the
   * lowest), which orders the rewrites. */
  int *rw_rank;
  size_t *rw_index;
  ompdp_rank_list_t *rw_ranks; /* the ranks that made each */
  size_t caprw;
} mfinding_t;

typedef struct warning {
  char *text;
  int *ranks;
  size_t n, cap;
} warning_t;

struct ompdp_merger {
  size_t inputs;
  /* What every report must agree on: taken from the first. */
  char *ref_name;
  int ref_has_rank;
  char *ref_exe;    /* executable, or argv[0] */
  char *ref_build;  /* NULL: unknown */
  char *ref_job;
  char *ref_launcher;
  int ref_size;
  /* Ranks seen: a bitmap, and their entries. */
  unsigned char *seen;
  size_t seen_bytes;
  ompdp_rank_entry_t *ranks;
  size_t nranks, capranks;
  int max_rank;
  /* Sums; argv from the lowest rank. */
  ompdp_report_t acc;
  int argv_rank;
  uint64_t max_wall, max_rest;
  /* Findings. */
  mfinding_t *f;
  size_t nf, capf;
  size_t *index; /* entry + 1, 0: empty; power of two */
  size_t capindex;
  warning_t *warns;
  size_t nwarns, capwarns;
  int oom;
};

/* Grows *arr (of *cap elements of size elem) to hold n + 1. */
static int reserve(void **arr, size_t *cap, size_t n, size_t elem) {
  if (n < *cap)
    return 0;
  size_t ncap = *cap ? *cap * 2 : 8;
  if (ncap > SIZE_MAX / elem)
    return -1;
  void *p = realloc(*arr, ncap * elem);
  if (!p)
    return -1;
  *arr = p;
  *cap = ncap;
  return 0;
}

ompdp_merger_t *ompdp_merger_create(void) {
  ompdp_merger_t *m = calloc(1, sizeof(*m));
  if (!m)
    return NULL;
  ompdp_report_init(&m->acc);
  m->argv_rank = -1;
  m->max_rank = -1;
  return m;
}

static void free_mfinding(mfinding_t *x) {
  ompdp_finding_free(&x->f);
  free(x->key);
  free(x->vals);
  free(x->rw_rank);
  free(x->rw_index);
  for (size_t i = 0; i < x->f.num_rewrites && x->rw_ranks; ++i)
    free(x->rw_ranks[i].ranks);
  free(x->rw_ranks);
}

void ompdp_merger_destroy(ompdp_merger_t *m) {
  if (!m)
    return;
  free(m->ref_name);
  free(m->ref_exe);
  free(m->ref_build);
  free(m->ref_job);
  free(m->ref_launcher);
  free(m->seen);
  for (size_t i = 0; i < m->nranks; ++i) {
    free(m->ranks[i].file);
    free(m->ranks[i].host);
    free(m->ranks[i].devices);
  }
  free(m->ranks);
  ompdp_report_free(&m->acc);
  for (size_t i = 0; i < m->nf; ++i)
    free_mfinding(&m->f[i]);
  free(m->f);
  free(m->index);
  for (size_t i = 0; i < m->nwarns; ++i) {
    free(m->warns[i].text);
    free(m->warns[i].ranks);
  }
  free(m->warns);
  free(m);
}

/*--- identity -----------------------------------------------------------------===*/

static const char *base_name(const char *path) {
  const char *s = path ? strrchr(path, '/') : NULL;
  return s ? s + 1 : path;
}

static const char *program_of(const ompdp_report_t *r) {
  if (r->process && r->process->executable)
    return r->process->executable;
  return r->argc && r->argv[0] ? r->argv[0] : NULL;
}

static int same_or_unknown(const char *a, const char *b) {
  return !a || !b || !strcmp(a, b);
}

/* Refuses r when it cannot belong to the run of the first report. */
static int check_identity(ompdp_merger_t *m, const ompdp_report_t *r, const char *name,
                          char *err, size_t errlen) {
  const ompdp_process_t *p = r->process;
  if (r->merge)
    return ompdp_errf(err, errlen, "%s is already a merged report (merge the reports of the ranks "
                      "instead)", name);
  if (p && p->rank < 0)
    return ompdp_errf(err, errlen, "%s has no rank", name);
  if (m->inputs == 0)
    return 0;
  if (!p || !m->ref_has_rank)
    return ompdp_errf(err, errlen,
                      "%s has no rank (it was not written under an MPI launcher such as mpirun or "
                      "srun): ompdp merges the reports of the ranks of one MPI run",
                      p ? m->ref_name : name);
  const char *exe = program_of(r);
  if (!same_or_unknown(base_name(exe), base_name(m->ref_exe)))
    return ompdp_errf(err, errlen, "%s and %s are reports of different programs (%s and %s)",
                      m->ref_name, name, m->ref_exe, exe);
  if (!same_or_unknown(p->build_id, m->ref_build))
    return ompdp_errf(err, errlen,
                      "%s and %s are reports of different builds of %s (build IDs %.16s and %.16s)",
                      m->ref_name, name, base_name(exe), m->ref_build, p->build_id);
  if (!same_or_unknown(p->launcher, m->ref_launcher) || !same_or_unknown(p->job, m->ref_job))
    return ompdp_errf(err, errlen,
                      "%s and %s are reports of different runs (%s job %s and %s job %s)",
                      m->ref_name, name, m->ref_launcher ? m->ref_launcher : "?",
                      m->ref_job ? m->ref_job : "?", p->launcher ? p->launcher : "?",
                      p->job ? p->job : "?");
  if (p->size >= 0 && m->ref_size >= 0 && p->size != m->ref_size)
    return ompdp_errf(err, errlen, "%s and %s are reports of different runs (of %d and %d ranks)",
                      m->ref_name, name, m->ref_size, p->size);
  return 0;
}

static int set_reference(ompdp_merger_t *m, const ompdp_report_t *r, const char *name) {
  const ompdp_process_t *p = r->process;
  m->ref_name = ompdp_strdup(name);
  m->ref_has_rank = p != NULL;
  m->ref_exe = ompdp_strdup(program_of(r));
  m->ref_build = ompdp_strdup(p ? p->build_id : NULL);
  m->ref_job = ompdp_strdup(p ? p->job : NULL);
  m->ref_launcher = ompdp_strdup(p ? p->launcher : NULL);
  m->ref_size = p ? p->size : 1;
  return m->ref_name ? 0 : -1;
}

/* Fills in what the first reports did not know (a job id, a build ID). */
static void complete_reference(ompdp_merger_t *m, const ompdp_process_t *p) {
  if (!p)
    return;
  if (!m->ref_build && p->build_id)
    m->ref_build = ompdp_strdup(p->build_id);
  if (!m->ref_job && p->job)
    m->ref_job = ompdp_strdup(p->job);
  if (!m->ref_launcher && p->launcher)
    m->ref_launcher = ompdp_strdup(p->launcher);
  if (m->ref_size < 0 && p->size >= 0)
    m->ref_size = p->size;
}

static int rank_seen(const ompdp_merger_t *m, int rank) {
  size_t byte = (size_t)rank / 8;
  return byte < m->seen_bytes && (m->seen[byte] >> (rank % 8) & 1);
}

static int mark_seen(ompdp_merger_t *m, int rank) {
  size_t byte = (size_t)rank / 8;
  if (byte >= m->seen_bytes) {
    size_t n = byte + 1 > 2 * m->seen_bytes ? byte + 1 : 2 * m->seen_bytes;
    unsigned char *s = realloc(m->seen, n);
    if (!s)
      return -1;
    memset(s + m->seen_bytes, 0, n - m->seen_bytes);
    m->seen = s;
    m->seen_bytes = n;
  }
  m->seen[byte] |= (unsigned char)(1u << (rank % 8));
  return 0;
}

/*--- warnings -----------------------------------------------------------------===*/

static int add_warning(ompdp_merger_t *m, const char *text, int rank) {
  warning_t *w = NULL;
  for (size_t i = 0; i < m->nwarns && !w; ++i)
    if (!strcmp(m->warns[i].text, text))
      w = &m->warns[i];
  if (!w) {
    if (reserve((void **)&m->warns, &m->capwarns, m->nwarns, sizeof(*m->warns)))
      return -1;
    w = &m->warns[m->nwarns];
    memset(w, 0, sizeof(*w));
    if (!(w->text = ompdp_strdup(text)))
      return -1;
    ++m->nwarns;
  }
  if (reserve((void **)&w->ranks, &w->cap, w->n, sizeof(*w->ranks)))
    return -1;
  w->ranks[w->n++] = rank;
  return 0;
}

/* Why a rank's report is not complete, as the rank's own warnings do not
 * say it: recovered from a journal (when, and why), or incomplete. */
static int add_status_warning(ompdp_merger_t *m, const ompdp_report_t *r, int rank) {
  if (r->recovered_reason) {
    char words[256], text[1024];
    snprintf(text, sizeof(text), "partial: %s: %s",
             ompdp_report_recovered_words(r, words, sizeof(words)), r->recovered_reason);
    return add_warning(m, text, rank);
  }
  return r->partial ? add_warning(m, "partial: the report is incomplete", rank) : 0;
}

/*--- findings -----------------------------------------------------------------===*/

static void key_str(ompdp_strbuf_t *b, const char *s) {
  if (s)
    ompdp_sb_printf(b, "%zu:%s|", strlen(s), s);
  else
    ompdp_sb_puts(b, "-|");
}

static char *finding_key(const ompdp_finding_t *f) {
  ompdp_strbuf_t b = {0};
  ompdp_sb_printf(&b, "%d|", (int)f->kind);
  if (f->region_id) {
    ompdp_sb_printf(&b, "r%016" PRIx64 "|%" PRId32, f->region_id, f->item);
  } else {
    key_str(&b, f->loc.file);
    key_str(&b, f->loc.function);
    ompdp_sb_printf(&b, "%" PRIu32 ":%" PRIu32 "|", f->loc.line, f->loc.column);
    key_str(&b, f->variable);
    key_str(&b, f->clause);
    key_str(&b, f->call);
    key_str(&b, f->related.file);
    key_str(&b, f->related.function);
    ompdp_sb_printf(&b, "%" PRIu32 ":%" PRIu32, f->related.line, f->related.column);
  }
  return ompdp_sb_take(&b);
}

static uint64_t hash_str(const char *s) {
  uint64_t h = 1469598103934665603ull; /* FNV-1a */
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h ? h : 1;
}

static int grow_index(ompdp_merger_t *m) {
  size_t cap = m->capindex ? m->capindex * 2 : 64;
  size_t *ix = calloc(cap, sizeof(*ix));
  if (!ix)
    return -1;
  for (size_t i = 0; i < m->nf; ++i) {
    size_t p = (size_t)m->f[i].hash & (cap - 1);
    while (ix[p])
      p = (p + 1) & (cap - 1);
    ix[p] = i + 1;
  }
  free(m->index);
  m->index = ix;
  m->capindex = cap;
  return 0;
}

/* The merged finding of key, or NULL (then *slot is where it goes). */
static mfinding_t *find(ompdp_merger_t *m, const char *key, uint64_t h) {
  if (!m->capindex)
    return NULL;
  for (size_t p = (size_t)h & (m->capindex - 1);; p = (p + 1) & (m->capindex - 1)) {
    size_t e = m->index[p];
    if (!e)
      return NULL;
    if (m->f[e - 1].hash == h && !strcmp(m->f[e - 1].key, key))
      return &m->f[e - 1];
  }
}

static int insert(ompdp_merger_t *m, mfinding_t *x) {
  if ((m->nf + 1) * 2 > m->capindex && grow_index(m))
    return -1;
  if (reserve((void **)&m->f, &m->capf, m->nf, sizeof(*m->f)))
    return -1;
  m->f[m->nf] = *x;
  size_t p = (size_t)x->hash & (m->capindex - 1);
  while (m->index[p])
    p = (p + 1) & (m->capindex - 1);
  m->index[p] = ++m->nf;
  return 0;
}

static int add_value(mfinding_t *x, int rank, const ompdp_finding_t *f) {
  if (x->nvals && x->vals[x->nvals - 1].rank == rank) {
    value_t *v = &x->vals[x->nvals - 1];
    v->count += f->count;
    v->bytes += f->bytes;
    v->saved += f->time_saved_ns;
    return 0;
  }
  if (reserve((void **)&x->vals, &x->capvals, x->nvals, sizeof(*x->vals)))
    return -1;
  x->vals[x->nvals++] = (value_t){rank, f->count, f->bytes, f->time_saved_ns};
  return 0;
}

/* The union of two ascending device lists, into *a. */
static int merge_devices(int **a, size_t *na, const int *b, size_t nb) {
  if (!nb)
    return 0;
  int *u = malloc((*na + nb) * sizeof(*u));
  if (!u)
    return -1;
  size_t i = 0, j = 0, n = 0;
  while (i < *na || j < nb) {
    int v;
    if (j >= nb || (i < *na && (*a)[i] < b[j]))
      v = (*a)[i++];
    else if (i >= *na || b[j] < (*a)[i])
      v = b[j++];
    else {
      v = (*a)[i++];
      ++j;
    }
    if (!n || u[n - 1] != v)
      u[n++] = v;
  }
  free(*a);
  *a = u;
  *na = n;
  return 0;
}

static int order_before(int rank_a, size_t idx_a, int rank_b, size_t idx_b) {
  return rank_a < rank_b || (rank_a == rank_b && idx_a < idx_b);
}

static int reserve_rw_order(mfinding_t *x, size_t n) {
  if (n < x->caprw)
    return 0;
  size_t cap = x->caprw ? x->caprw * 2 : 4;
  while (cap <= n)
    cap *= 2;
  int *r = realloc(x->rw_rank, cap * sizeof(*r));
  if (!r)
    return -1;
  x->rw_rank = r;
  size_t *ix = realloc(x->rw_index, cap * sizeof(*ix));
  if (!ix)
    return -1;
  x->rw_index = ix;
  ompdp_rank_list_t *l = realloc(x->rw_ranks, cap * sizeof(*l));
  if (!l)
    return -1;
  x->rw_ranks = l;
  x->caprw = cap;
  return 0;
}

/* Adds rank to l unless it is there last already (a rank's findings come
 * together). */
static int add_rank(ompdp_rank_list_t *l, int rank) {
  if (l->num_ranks && l->ranks[l->num_ranks - 1] == rank)
    return 0;
  int *r = realloc(l->ranks, (l->num_ranks + 1) * sizeof(*r));
  if (!r)
    return -1;
  l->ranks = r;
  l->ranks[l->num_ranks++] = rank;
  return 0;
}

/* Folds rewrite rw (the idx-th of rank's finding) into x: summed into an
 * identical one, else appended (taken over). */
static int fold_rewrite(mfinding_t *x, ompdp_rewrite_t *rw, int rank, size_t idx) {
  for (size_t i = 0; i < x->f.num_rewrites; ++i) {
    ompdp_rewrite_t *d = &x->f.rewrites[i];
    if (d->kind != rw->kind || !ompdp_rewrite_same_edits(d, rw))
      continue;
    d->time_saved_ns += rw->time_saved_ns;
    d->transfers_removed += rw->transfers_removed;
    d->allocs_removed += rw->allocs_removed;
    d->bytes_removed += rw->bytes_removed;
    d->lower_bound |= rw->lower_bound;
    if (add_rank(&x->rw_ranks[i], rank))
      return -1;
    if (order_before(rank, idx, x->rw_rank[i], x->rw_index[i])) {
      /* The lowest rank's words. */
      char *t = d->description;
      d->description = rw->description;
      rw->description = t;
      t = d->assumption;
      d->assumption = rw->assumption;
      rw->assumption = t;
      x->rw_rank[i] = rank;
      x->rw_index[i] = idx;
    }
    ompdp_rewrite_free(rw);
    return 0;
  }
  if (reserve_rw_order(x, x->f.num_rewrites + 1))
    return -1;
  ompdp_rank_list_t list = {NULL, 0};
  if (add_rank(&list, rank))
    return -1;
  ompdp_rewrite_t *d = ompdp_finding_add_rewrite(&x->f, rw->kind);
  if (!d) {
    free(list.ranks);
    return -1;
  }
  *d = *rw;
  memset(rw, 0, sizeof(*rw));
  x->rw_rank[x->f.num_rewrites - 1] = rank;
  x->rw_index[x->f.num_rewrites - 1] = idx;
  x->rw_ranks[x->f.num_rewrites - 1] = list;
  return 0;
}

#define SWAP(a, b)                                                                               \
  do {                                                                                           \
    __typeof__(a) t_ = (a);                                                                      \
    (a) = (b);                                                                                   \
    (b) = t_;                                                                                    \
  } while (0)

/* The verdict of one finding over the ranks: what saves on some rank is
 * worth doing (a rewrite first); otherwise the lowest rank's. */
static ompdp_verdict_t merge_verdict(ompdp_verdict_t a, ompdp_verdict_t b) {
  if (a == OMPDP_V_FIX || b == OMPDP_V_FIX)
    return OMPDP_V_FIX;
  if (a == OMPDP_V_ADVICE || b == OMPDP_V_ADVICE)
    return OMPDP_V_ADVICE;
  return a == OMPDP_V_NONE ? b : a;
}

static int fold_finding(ompdp_merger_t *m, ompdp_finding_t *f, int rank) {
  char *key = finding_key(f);
  if (!key)
    return -1;
  uint64_t h = hash_str(key);
  mfinding_t *x = find(m, key, h);
  if (!x) {
    mfinding_t n;
    memset(&n, 0, sizeof(n));
    n.key = key;
    n.hash = h;
    n.rep_rank = rank;
    n.f = *f;
    /* The rewrites are moved over one by one, for their order keys. */
    n.f.rewrites = NULL;
    n.f.num_rewrites = 0;
    n.f.spread = NULL;
    ompdp_finding_t rest = *f;
    memset(f, 0, sizeof(*f));
    f->rewrites = rest.rewrites;
    f->num_rewrites = rest.num_rewrites;
    int rc = add_value(&n, rank, &n.f);
    for (size_t i = 0; !rc && i < f->num_rewrites; ++i)
      rc = fold_rewrite(&n, &f->rewrites[i], rank, i);
    if (rc || insert(m, &n)) {
      free_mfinding(&n);
      return -1;
    }
    ompdp_spread_free(rest.spread);
    return 0;
  }
  free(key);
  ompdp_finding_t *d = &x->f;
  d->count += f->count;
  d->bytes += f->bytes;
  d->time_ns += f->time_ns;
  d->time_saved_ns += f->time_saved_ns;
  d->same_buffer += f->same_buffer;
  d->other_buffer += f->other_buffer;
  d->peak |= f->peak; /* a rank's own peak: the largest saving of any rank */
  if (f->peak_saved_bytes > d->peak_saved_bytes)
    d->peak_saved_bytes = f->peak_saved_bytes;
  d->verdict = merge_verdict(d->verdict, f->verdict);
  if (add_value(x, rank, f) || merge_devices(&d->devices, &d->num_devices, f->devices,
                                             f->num_devices))
    return -1;
  if (rank < x->rep_rank) {
    /* The lowest rank's words and places. */
    SWAP(d->loc, f->loc);
    SWAP(d->related, f->related);
    SWAP(d->variable, f->variable);
    SWAP(d->clause, f->clause);
    SWAP(d->call, f->call);
    SWAP(d->suggestion, f->suggestion);
    d->range = f->range;
    x->rep_rank = rank;
  }
  for (size_t i = 0; i < f->num_rewrites; ++i)
    if (fold_rewrite(x, &f->rewrites[i], rank, i))
      return -1;
  return 0;
}

/*--- adding a report ------------------------------------------------------------===*/

static int copy_ints(int **dst, size_t *n, const int *src, size_t len) {
  *dst = NULL;
  *n = 0;
  if (!len)
    return 0;
  *dst = malloc(len * sizeof(**dst));
  if (!*dst)
    return -1;
  memcpy(*dst, src, len * sizeof(**dst));
  *n = len;
  return 0;
}

static int add_rank_entry(ompdp_merger_t *m, const ompdp_report_t *r, const char *name,
                          int rank) {
  if (reserve((void **)&m->ranks, &m->capranks, m->nranks, sizeof(*m->ranks)))
    return -1;
  ompdp_rank_entry_t *e = &m->ranks[m->nranks];
  memset(e, 0, sizeof(*e));
  e->rank = rank;
  e->status = r->recovered_reason ? OMPDP_RANK_RECOVERED
              : r->partial        ? OMPDP_RANK_PARTIAL
                                  : OMPDP_RANK_COMPLETE;
  e->pid = r->process ? r->process->pid : -1;
  e->has_exit_status = r->has_exit_status;
  e->exit_status = r->exit_status;
  e->wall_time_ns = r->wall_time_ns;
  e->time_saved_ns = r->time_saved_ns;
  e->findings = r->num_findings;
  e->file = ompdp_strdup(name);
  e->host = r->process ? ompdp_strdup(r->process->host) : NULL;
  ++m->nranks; /* freed with the merger from here on */
  if (!e->file || (r->process && r->process->host && !e->host))
    return -1;
  return r->process ? copy_ints(&e->devices, &e->num_devices, r->process->devices,
                                r->process->num_devices)
                    : 0;
}

int ompdp_merger_add(ompdp_merger_t *m, ompdp_report_t *r, const char *name, char *err,
                     size_t errlen) {
  if (!name)
    name = "<report>";
  if (check_identity(m, r, name, err, errlen))
    return -1;
  int rank = r->process ? r->process->rank : 0;
  if (rank_seen(m, rank)) {
    const char *other = "another report";
    for (size_t i = 0; i < m->nranks; ++i)
      if (m->ranks[i].rank == rank && m->ranks[i].file)
        other = m->ranks[i].file;
    return ompdp_errf(err, errlen, "%s and %s are both the report of rank %d", other, name, rank);
  }
  if (m->ref_size > 0 && r->process && rank >= m->ref_size)
    return ompdp_errf(err, errlen, "%s is rank %d, not a rank of a run of %d", name, rank,
                      m->ref_size);
  if (m->inputs == 0 ? set_reference(m, r, name) : 0)
    return ompdp_errf(err, errlen, "out of memory");
  complete_reference(m, r->process);
  ++m->inputs;
  if (mark_seen(m, rank) || add_rank_entry(m, r, name, rank))
    goto oom;
  if (rank > m->max_rank)
    m->max_rank = rank;

  ompdp_report_t *a = &m->acc;
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    a->counts[k] += r->counts[k];
  a->time_saved_ns += r->time_saved_ns;
  a->excluded_time_ns += r->excluded_time_ns;
  a->num_transfers += r->num_transfers;
  a->num_allocs += r->num_allocs;
  a->num_deletes += r->num_deletes;
  a->num_kernels += r->num_kernels;
  a->bytes_transferred += r->bytes_transferred;
  a->transfer_time_ns += r->transfer_time_ns;
  a->hash_collisions += r->hash_collisions;
  uint64_t rest = r->time_saved_ns >= r->wall_time_ns ? (r->wall_time_ns ? 1 : 0)
                                                       : r->wall_time_ns - r->time_saved_ns;
  if (r->wall_time_ns > m->max_wall)
    m->max_wall = r->wall_time_ns;
  if (rest > m->max_rest)
    m->max_rest = rest;
  if (m->argv_rank < 0 || rank < m->argv_rank) {
    SWAP(a->argv, r->argv);
    SWAP(a->argc, r->argc);
    m->argv_rank = rank;
  }
  for (size_t i = 0; i < r->num_warnings; ++i)
    if (add_warning(m, r->warnings[i] ? r->warnings[i] : "", rank))
      goto oom;
  if (add_status_warning(m, r, rank))
    goto oom;
  for (size_t i = 0; i < r->num_findings; ++i)
    if (fold_finding(m, &r->findings[i], rank))
      goto oom;
  for (size_t i = 0; i < r->num_device_memory; ++i)
    if (ompdp_report_copy_memory(a, &r->device_memory[i], rank))
      goto oom;
  return 0;
oom:
  m->oom = 1;
  return ompdp_errf(err, errlen, "out of memory");
}

/*--- the merged report ------------------------------------------------------------===*/

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void stat_of(uint64_t *v, size_t n, ompdp_stat_t *s) {
  qsort(v, n, sizeof(*v), cmp_u64);
  s->min = v[0];
  s->max = v[n - 1];
  s->median = n % 2 ? v[n / 2] : v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

/* The spread takes the rewrites' rank lists over. */
static ompdp_spread_t *spread_of(mfinding_t *x) {
  size_t n = x->nvals;
  ompdp_spread_t *s = calloc(1, sizeof(*s));
  uint64_t *tmp = malloc(n * sizeof(*tmp));
  if (s)
    s->ranks = malloc(n * sizeof(*s->ranks));
  if (!s || !tmp || !s->ranks) {
    free(tmp);
    ompdp_spread_free(s);
    return NULL;
  }
  s->num_ranks = n;
  for (size_t i = 0; i < n; ++i)
    s->ranks[i] = x->vals[i].rank;
  qsort(s->ranks, n, sizeof(*s->ranks), cmp_int);
  for (size_t i = 0; i < n; ++i)
    tmp[i] = x->vals[i].count;
  stat_of(tmp, n, &s->count);
  for (size_t i = 0; i < n; ++i)
    tmp[i] = x->vals[i].bytes;
  stat_of(tmp, n, &s->bytes);
  for (size_t i = 0; i < n; ++i)
    tmp[i] = x->vals[i].saved;
  stat_of(tmp, n, &s->time_saved_ns);
  free(tmp);
  if (x->f.num_rewrites) {
    s->rewrite_ranks = x->rw_ranks;
    s->num_rewrite_ranks = x->f.num_rewrites;
    x->rw_ranks = NULL;
    for (size_t i = 0; i < s->num_rewrite_ranks; ++i)
      qsort(s->rewrite_ranks[i].ranks, s->rewrite_ranks[i].num_ranks, sizeof(int), cmp_int);
  }
  return s;
}

/* The rewrites in the order of the rank and position each was first seen
 * at (insertion sort: a finding has a handful). */
static void sort_rewrites(mfinding_t *x) {
  for (size_t i = 1; i < x->f.num_rewrites; ++i)
    for (size_t j = i; j > 0 && order_before(x->rw_rank[j], x->rw_index[j], x->rw_rank[j - 1],
                                             x->rw_index[j - 1]);
         --j) {
      SWAP(x->f.rewrites[j], x->f.rewrites[j - 1]);
      SWAP(x->rw_rank[j], x->rw_rank[j - 1]);
      SWAP(x->rw_index[j], x->rw_index[j - 1]);
      SWAP(x->rw_ranks[j], x->rw_ranks[j - 1]);
    }
}

static int cmp_entry(const void *a, const void *b) {
  const ompdp_rank_entry_t *x = a, *y = b;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Lowest rank first, then by text: independent of the order of inputs. */
static int cmp_warning(const void *a, const void *b) {
  const warning_t *x = a, *y = b;
  if (x->ranks[0] != y->ranks[0])
    return x->ranks[0] < y->ranks[0] ? -1 : 1;
  return strcmp(x->text, y->text);
}

static int build_merge_info(ompdp_merger_t *m, ompdp_report_t *out) {
  ompdp_merge_info_t *mi = calloc(1, sizeof(*mi));
  if (!mi)
    return -1;
  out->merge = mi;
  int size = m->ref_size > m->max_rank ? m->ref_size : m->max_rank + 1;
  mi->size = size;
  mi->launcher = ompdp_strdup(m->ref_launcher);
  mi->job = ompdp_strdup(m->ref_job);
  mi->executable = ompdp_strdup(m->ref_exe);
  mi->build_id = ompdp_strdup(m->ref_build);
  mi->ranks = calloc((size_t)size, sizeof(*mi->ranks));
  if (!mi->ranks)
    return -1;
  qsort(m->ranks, m->nranks, sizeof(*m->ranks), cmp_entry);
  size_t j = 0;
  for (int r = 0; r < size; ++r) {
    ompdp_rank_entry_t *e = &mi->ranks[mi->num_ranks++];
    if (j < m->nranks && m->ranks[j].rank == r) {
      *e = m->ranks[j];
      memset(&m->ranks[j++], 0, sizeof(m->ranks[0]));
    } else {
      e->rank = r;
      e->status = OMPDP_RANK_MISSING;
      e->pid = -1;
    }
  }
  return 0;
}

static int add_grouped_warnings(ompdp_merger_t *m, ompdp_report_t *out) {
  const ompdp_merge_info_t *mi = out->merge;
  int *missing = malloc((mi->num_ranks ? mi->num_ranks : 1) * sizeof(*missing));
  if (!missing)
    return -1;
  size_t nmiss = 0;
  for (size_t i = 0; i < mi->num_ranks; ++i)
    if (mi->ranks[i].status == OMPDP_RANK_MISSING)
      missing[nmiss++] = mi->ranks[i].rank;
  char ranks[256], text[1400];
  int rc = 0;
  if (nmiss) {
    snprintf(text, sizeof(text), "rank%s %s of %d %s missing: no report or journal of %s was "
             "merged", nmiss == 1 ? "" : "s", ompdp_format_ranks(ranks, sizeof(ranks), missing,
             nmiss), mi->size, nmiss == 1 ? "is" : "are", nmiss == 1 ? "it" : "them");
    rc = ompdp_report_add_warning(out, text);
    out->partial = 1;
  }
  free(missing);
  for (size_t i = 0; i < m->nwarns; ++i)
    qsort(m->warns[i].ranks, m->warns[i].n, sizeof(int), cmp_int);
  if (m->nwarns > 1)
    qsort(m->warns, m->nwarns, sizeof(*m->warns), cmp_warning);
  for (size_t i = 0; !rc && i < m->nwarns; ++i) {
    const warning_t *w = &m->warns[i];
    snprintf(text, sizeof(text), "rank%s %s: %s", w->n == 1 ? "" : "s",
             ompdp_format_ranks(ranks, sizeof(ranks), w->ranks, w->n), w->text);
    rc = ompdp_report_add_warning(out, text);
  }
  return rc;
}

static int cmp_memory(const void *a, const void *b) {
  const ompdp_device_memory_t *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->device > y->device) - (x->device < y->device);
}

int ompdp_merger_finish(ompdp_merger_t *m, ompdp_report_t *out, char *err, size_t errlen) {
  ompdp_report_init(out);
  if (m->oom)
    return ompdp_errf(err, errlen, "out of memory");
  if (!m->inputs)
    return ompdp_errf(err, errlen, "no report to merge");
  ompdp_report_t *a = &m->acc;
  out->argv = a->argv;
  out->argc = a->argc;
  a->argv = NULL;
  a->argc = 0;
  memcpy(out->counts, a->counts, sizeof(out->counts));
  out->time_saved_ns = a->time_saved_ns;
  out->excluded_time_ns = a->excluded_time_ns;
  out->num_transfers = a->num_transfers;
  out->num_allocs = a->num_allocs;
  out->num_deletes = a->num_deletes;
  out->num_kernels = a->num_kernels;
  out->bytes_transferred = a->bytes_transferred;
  out->transfer_time_ns = a->transfer_time_ns;
  out->hash_collisions = a->hash_collisions;
  /* Each rank's devices, in rank and device order whatever the inputs'. */
  if (a->num_device_memory > 1)
    qsort(a->device_memory, a->num_device_memory, sizeof(*a->device_memory), cmp_memory);
  out->device_memory = a->device_memory;
  out->num_device_memory = a->num_device_memory;
  a->device_memory = NULL;
  a->num_device_memory = 0;
  out->wall_time_ns = m->max_wall;
  out->predicted_speedup =
      m->max_wall && m->max_rest && out->time_saved_ns ? (double)m->max_wall / (double)m->max_rest
                                                       : 1.0;
  /* One exit status when every rank that reported had the same. */
  int same = 1;
  for (size_t i = 1; i < m->nranks; ++i)
    same &= m->ranks[i].has_exit_status == m->ranks[0].has_exit_status &&
            m->ranks[i].exit_status == m->ranks[0].exit_status;
  out->has_exit_status = same && m->ranks[0].has_exit_status;
  out->exit_status = out->has_exit_status ? m->ranks[0].exit_status : 0;
  for (size_t i = 0; i < m->nranks; ++i)
    out->partial |= m->ranks[i].status != OMPDP_RANK_COMPLETE;
  if (build_merge_info(m, out) || add_grouped_warnings(m, out))
    goto oom;
  for (size_t i = 0; i < m->nf; ++i) {
    mfinding_t *x = &m->f[i];
    sort_rewrites(x);
    ompdp_finding_t *f = ompdp_report_add_finding(out, x->f.kind);
    ompdp_spread_t *s = f ? spread_of(x) : NULL;
    if (!s)
      goto oom;
    *f = x->f;
    memset(&x->f, 0, sizeof(x->f));
    f->spread = s;
  }
  /* Ranks whose reports had no verdicts (an older ompdp's): as a reader
   * would give them. */
  ompdp_report_default_verdicts(out);
  ompdp_report_sort(out);
  return 0;
oom:
  ompdp_report_free(out);
  return ompdp_errf(err, errlen, "out of memory");
}

int ompdp_merge_summary_line(const ompdp_report_t *out, char *buf, size_t size) {
  const ompdp_merge_info_t *mi = out->merge;
  if (!mi || !size)
    return 0;
  int *miss = malloc((mi->num_ranks ? mi->num_ranks : 1) * sizeof(int));
  int *part = malloc((mi->num_ranks ? mi->num_ranks : 1) * sizeof(int));
  size_t nm = 0, np = 0, merged = 0;
  for (size_t i = 0; miss && part && i < mi->num_ranks; ++i) {
    if (mi->ranks[i].status == OMPDP_RANK_MISSING)
      miss[nm++] = mi->ranks[i].rank;
    else if (++merged, mi->ranks[i].status != OMPDP_RANK_COMPLETE)
      part[np++] = mi->ranks[i].rank;
  }
  int any = nm || np;
  if (any) {
    char a[128], b[128];
    snprintf(buf, size, "merged %zu of %d ranks%s%s%s%s", merged, mi->size,
             nm ? "; missing: " : "", nm ? ompdp_format_ranks(a, sizeof(a), miss, nm) : "",
             np ? "; partial: " : "", np ? ompdp_format_ranks(b, sizeof(b), part, np) : "");
  }
  free(miss);
  free(part);
  return any;
}
