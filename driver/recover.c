/*===- recover.c - the report of a dead process, from its event log -----===*\
|*
|* Under `ompdp run`, the runtime keeps its event log in a file mapped
|* shared (rt/shm_linux.c, format in include/ompdp/crashlog.h), which the
|* kernel keeps whatever ends the process. When a process ends without a
|* report, `ompdp run` reads that file and builds the report itself: the
|* complete records of every thread, merged in the runtime's analysis order
|* (begin time, then thread, then position), go through the same analysis
|* engine (analysis/analysis.c) the runtime uses; findings are attributed from the
|* region-table sites the runtime wrote down as it met them, or from DWARF
|* through the objects and load biases it wrote down. So nothing the dying
|* process would have had to do is needed: every operation that completed
|* before it died is in the report; the one in flight, not.
|*
|* Under MPI the file also says which rank the process was, and so does the
|* report rebuilt from it, so that `ompdp merge` takes it with the others.
|*
|* What only the end of a run decides (an allocation never freed, a
|* transfer nothing overwrote, is unused) is not decided for a run that
|* died: only what the log proves counts, and a kernel in flight at the
|* death (begun, never ended) may have read what its device held. Rewrites
|* are planned only at the end of a run that completes, so there are none.
|*
|* The file was written by a program that may have written over any of its
|* memory before it died: every block, record, operation and string is
|* checked before use, and what does not check out is counted and said.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "driver.h"
#include "ompdp/crashlog.h"
#include "attribution.h"
#include "engine.h"
#include "process.h"
#include "rank.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 256
/* A transfer said to move more is taken as a corrupt record: the analysis
 * hashes that many zero bytes once (zero_transfer), which must end. */
#ifndef OMPDP_RECOVER_MAX_BYTES
#define OMPDP_RECOVER_MAX_BYTES ((uint64_t)1 << 40)
#endif

typedef struct code {
  uint64_t codeptr, bias;
  const char *file; /* in the mapped file, checked */
} code_t;

typedef struct site {
  ompdp_cl_site_t s;
  const char *file, *function, *variable, *clause;
  const char *call; /* a routine call's; NULL in an older log */
} site_t;

typedef struct block_ref {
  uint32_t a, b;
  const char *payload;
  uint64_t bytes;
} block_ref_t;

typedef struct log_cursor {
  const block_ref_t *blocks; /* one log's event blocks, by number */
  size_t n, bi;
  uint64_t ri, nrec;
  uint32_t id;
  uint64_t last_t;
  ompdp_rec_t rec; /* the record at (bi, ri) when have */
  int have;
} log_cursor_t;

typedef struct crash_log {
  const char *map;
  size_t size;
  ompdp_cl_header_t h;
  block_ref_t *events, *ops, *metas;
  size_t num_events, num_ops, num_metas;
  code_t *codes;
  size_t num_codes;
  site_t *sites;
  size_t num_sites;
  const char *argv[MAX_ARGS];
  size_t argc;
  const char **warnings;
  size_t num_warnings;
  uint64_t bad_records, bad_meta;
  int has_process; /* the MPI rank the process was (OMPDP_CL_PROCESS) */
  ompdp_process_t process; /* its strings point into the mapped file */
} crash_log_t;

static crash_log_t *the_log; /* for the attribution callbacks */

static int fail(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err, errlen, fmt, ap);
  va_end(ap);
  return -1;
}

static int push(void **v, size_t *n, size_t *cap, size_t elem, const void *x) {
  if (*n == *cap) {
    size_t ncap = *cap ? 2 * *cap : 16;
    void *nv = realloc(*v, ncap * elem);
    if (!nv)
      return -1;
    *v = nv;
    *cap = ncap;
  }
  memcpy((char *)*v + *n * elem, x, elem);
  ++*n;
  return 0;
}

/* A string at p inside [p, end), NUL-terminated there; NULL if not. */
static const char *string_at(const char **p, const char *end) {
  const char *s = *p;
  if (s >= end)
    return NULL;
  const char *z = memchr(s, 0, (size_t)(end - s));
  if (!z)
    return NULL;
  *p = z + 1;
  return s;
}

/* The records an EVENTS block holds: those its count says were begun
 * (a reused block keeps an earlier chunk's records past it), at most what
 * fits. */
static uint64_t events_begun(const block_ref_t *b) {
  uint64_t fits = (b->bytes - OMPDP_CL_EVENTS_OFFSET) / sizeof(ompdp_rec_t);
  uint32_t used;
  memcpy(&used, b->payload + OMPDP_CL_EVENTS_USED_OFFSET, sizeof(used));
  return used < fits ? used : fits;
}

static int cmp_block(const void *x, const void *y) {
  const block_ref_t *a = x, *b = y;
  if (a->a != b->a)
    return a->a < b->a ? -1 : 1;
  return a->b < b->b ? -1 : a->b > b->b;
}

/* The META records of one block. */
static int read_meta(crash_log_t *L, const block_ref_t *blk) {
  uint64_t used;
  memcpy(&used, &((const ompdp_cl_block_t *)blk->payload - 1)->used, sizeof(used));
  if (used > blk->bytes) {
    L->bad_meta++;
    used = blk->bytes;
  }
  size_t cap_codes = L->num_codes, cap_sites = L->num_sites, cap_w = L->num_warnings;
  const char *p = blk->payload, *end = blk->payload + used;
  while ((size_t)(end - p) >= sizeof(ompdp_cl_meta_t)) {
    ompdp_cl_meta_t m;
    memcpy(&m, p, sizeof(m));
    if (m.size < sizeof(m) || m.size % 8 || m.size > (size_t)(end - p)) {
      L->bad_meta++;
      break;
    }
    const char *q = p + sizeof(m), *rend = p + m.size;
    int ok = 1;
    switch (m.type) {
    case OMPDP_CL_CODE: {
      code_t c;
      ompdp_cl_code_t cc;
      ok = (size_t)(rend - q) >= sizeof(cc);
      if (!ok)
        break;
      memcpy(&cc, q, sizeof(cc));
      q += sizeof(cc);
      c.codeptr = cc.codeptr;
      c.bias = cc.bias;
      c.file = string_at(&q, rend);
      ok = c.file && c.file[0];
      if (ok && push((void **)&L->codes, &L->num_codes, &cap_codes, sizeof(c), &c))
        return -1;
      break;
    }
    case OMPDP_CL_SITE: {
      site_t s;
      ok = (size_t)(rend - q) >= sizeof(s.s);
      if (!ok)
        break;
      memcpy(&s.s, q, sizeof(s.s));
      q += sizeof(s.s);
      s.file = string_at(&q, rend);
      s.function = string_at(&q, rend);
      s.variable = string_at(&q, rend);
      s.clause = string_at(&q, rend);
      ok = s.clause != NULL;
      s.call = ok && q < rend ? string_at(&q, rend) : NULL;
      if (ok && push((void **)&L->sites, &L->num_sites, &cap_sites, sizeof(s), &s))
        return -1;
      break;
    }
    case OMPDP_CL_ARGV: {
      uint32_t argc;
      ok = (size_t)(rend - q) >= sizeof(argc);
      if (!ok)
        break;
      memcpy(&argc, q, sizeof(argc));
      q += sizeof(argc);
      L->argc = 0;
      for (uint32_t i = 0; i < argc && i < MAX_ARGS && ok; ++i) {
        const char *a = string_at(&q, rend);
        ok = a != NULL;
        if (ok)
          L->argv[L->argc++] = a;
      }
      break;
    }
    case OMPDP_CL_PROCESS: {
      ompdp_cl_process_t cp;
      ok = (size_t)(rend - q) >= sizeof(cp);
      if (!ok)
        break;
      memcpy(&cp, q, sizeof(cp));
      q += sizeof(cp);
      const char *strs[5];
      for (int k = 0; k < 5 && ok; ++k)
        ok = (strs[k] = string_at(&q, rend)) != NULL;
      ok = ok && cp.rank >= 0 && cp.size > cp.rank && cp.local_rank >= -1;
      if (!ok)
        break;
      ompdp_process_t *p = &L->process;
      ompdp_process_init(p);
      p->rank = cp.rank;
      p->size = cp.size;
      p->local_rank = cp.local_rank;
      char **const dst[5] = {&p->launcher, &p->job, &p->host, &p->executable, &p->build_id};
      for (int k = 0; k < 5; ++k)
        *dst[k] = strs[k][0] ? (char *)strs[k] : NULL;
      L->has_process = 1;
      break;
    }
    case OMPDP_CL_WARNING: {
      const char *w = string_at(&q, rend);
      ok = w != NULL;
      if (ok && push((void **)&L->warnings, &L->num_warnings, &cap_w, sizeof(w), &w))
        return -1;
      break;
    }
    default:
      ok = 0;
    }
    if (!ok)
      L->bad_meta++;
    p = rend;
  }
  return 0;
}

/* Maps the file and checks its header and block headers. */
static int open_log(const char *path, crash_log_t *L, char *err, size_t errlen) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0)
    return fail(err, errlen, "%s: %s", path, strerror(errno));
  struct stat st;
  if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < OMPDP_CL_PAGE) {
    close(fd);
    return fail(err, errlen, "%s: not an event log (too short)", path);
  }
  void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  int map_err = errno;
  close(fd);
  if (p == MAP_FAILED)
    return fail(err, errlen, "%s: %s", path, strerror(map_err));
  L->map = p;
  L->size = (size_t)st.st_size;
  memcpy(&L->h, p, sizeof(L->h));
  const ompdp_cl_header_t *h = &L->h;
  if (h->magic != OMPDP_CL_MAGIC)
    return fail(err, errlen, "%s: not an event log (bad magic)", path);
  if (h->version != OMPDP_CL_VERSION)
    return fail(err, errlen, "%s: event log version %u is not supported (this ompdp reads %u)",
                path, h->version, OMPDP_CL_VERSION);
  if (h->header_size != OMPDP_CL_PAGE || h->block_header_size != sizeof(ompdp_cl_block_t) ||
      h->rec_size != sizeof(ompdp_rec_t) || h->op_size != sizeof(ompdp_op_t) ||
      h->events_offset != OMPDP_CL_EVENTS_OFFSET)
    return fail(err, errlen, "%s: the event log's record sizes are not this ompdp's", path);
  uint64_t end = h->next_off < L->size ? h->next_off : L->size;
  end -= end % OMPDP_CL_PAGE;
  size_t cap_e = 0, cap_o = 0, cap_m = 0;
  for (uint64_t off = OMPDP_CL_PAGE; off + sizeof(ompdp_cl_block_t) <= end;) {
    ompdp_cl_block_t b;
    memcpy(&b, L->map + off, sizeof(b));
    if (b.magic != OMPDP_CL_BLOCK_MAGIC || b.size < OMPDP_CL_PAGE || b.size % OMPDP_CL_PAGE ||
        b.size > end - off)
      return fail(err, errlen, "%s: the event log is corrupt (block at %" PRIu64 ")", path, off);
    block_ref_t r = {b.a, b.b, L->map + off + sizeof(b), b.size - sizeof(b)};
    int rc = 0;
    if (b.kind == OMPDP_CL_EVENTS && r.bytes >= OMPDP_CL_EVENTS_OFFSET)
      rc = push((void **)&L->events, &L->num_events, &cap_e, sizeof(r), &r);
    else if (b.kind == OMPDP_CL_OPS && r.bytes >= OMPDP_CL_OPS_PER_BLOCK * sizeof(ompdp_op_t) &&
             b.a < 16)
      rc = push((void **)&L->ops, &L->num_ops, &cap_o, sizeof(r), &r);
    else if (b.kind == OMPDP_CL_META)
      rc = push((void **)&L->metas, &L->num_metas, &cap_m, sizeof(r), &r);
    if (rc)
      return fail(err, errlen, "out of memory");
    off += b.size;
  }
  if (L->num_events > 1)
    qsort(L->events, L->num_events, sizeof(*L->events), cmp_block);
  /* One chunk in two blocks (a copy, and the block not yet reused or
   * being reused): the one with more records begun. */
  size_t kept = 0;
  for (size_t i = 0; i < L->num_events; ++i) {
    if (kept && L->events[kept - 1].a == L->events[i].a &&
        L->events[kept - 1].b == L->events[i].b) {
      if (events_begun(&L->events[i]) > events_begun(&L->events[kept - 1]))
        L->events[kept - 1] = L->events[i];
      continue;
    }
    L->events[kept++] = L->events[i];
  }
  L->num_events = kept;
  if (L->num_ops > 1)
    qsort(L->ops, L->num_ops, sizeof(*L->ops), cmp_block);
  if (L->num_metas > 1)
    qsort(L->metas, L->num_metas, sizeof(*L->metas), cmp_block);
  for (size_t i = 0; i < L->num_metas; ++i)
    if (read_meta(L, &L->metas[i]))
      return fail(err, errlen, "out of memory");
  return 0;
}

static void close_log(crash_log_t *L) {
  if (L->map)
    munmap((void *)L->map, L->size);
  free(L->events);
  free(L->ops);
  free(L->metas);
  free(L->codes);
  free(L->sites);
  free(L->warnings);
}

/* The operation of a runtime id, checked; 0 when found. */
static int op_of(const crash_log_t *L, uint32_t id, ompdp_op_t *out) {
  uint32_t shard = id & 15, idx = id >> 4;
  block_ref_t key = {shard, idx / OMPDP_CL_OPS_PER_BLOCK, NULL, 0};
  if (!L->num_ops)
    return -1;
  const block_ref_t *b = bsearch(&key, L->ops, L->num_ops, sizeof(*L->ops), cmp_block);
  if (!b)
    return -1;
  memcpy(out, b->payload + (size_t)(idx % OMPDP_CL_OPS_PER_BLOCK) * sizeof(*out), sizeof(*out));
  return out->type <= OMPDP_EV_STORED_LAST ? 0 : -1;
}

/*===- the merge --------------------------------------------------------------===*/

/* Moves k to its next record that goes to the analysis (complete, after a
 * fork, before a stop, in order); have = 0 when the log is done. */
static void advance(const crash_log_t *L, log_cursor_t *k, uint64_t *bad) {
  k->have = 0;
  while (k->bi < k->n) {
    const block_ref_t *b = &k->blocks[k->bi];
    if (k->ri >= k->nrec) {
      if (++k->bi < k->n)
        k->nrec = events_begun(&k->blocks[k->bi]);
      k->ri = 0;
      continue;
    }
    ompdp_rec_t r;
    memcpy(&r, b->payload + OMPDP_CL_EVENTS_OFFSET + k->ri * sizeof(r), sizeof(r));
    k->ri++;
    /* Never begun, or an operation in flight: not in the report, but a
     * kernel in flight may have read what the device held (the engine
     * takes it as running to the end; nothing counts it). */
    if (!(r.op & OMPDP_REC_COMPLETE) && ompdp_rec_type(r.op) != OMPDP_EV_KERNEL)
      continue;
    if (r.t_begin < L->h.skip_before_ticks ||
        (L->h.stopped && r.t_begin >= L->h.stopped_at_ticks))
      continue;
    if (r.t_begin < k->last_t) { /* a thread's records are in order: not ours */
      (*bad)++;
      continue;
    }
    k->last_t = r.t_begin;
    k->rec = r;
    k->have = 1;
    return;
  }
}

static int before(const log_cursor_t *a, const log_cursor_t *b) {
  if (a->rec.t_begin != b->rec.t_begin)
    return a->rec.t_begin < b->rec.t_begin;
  return a->id < b->id;
}

/* Feeds every complete record to g in analysis order, and every kernel in
 * flight. *last_end: the latest end seen (ticks). Returns the complete
 * events fed, or -1 (out of memory). */
static int64_t replay(crash_log_t *L, ompdp_engine_t *g, uint64_t *last_end) {
  size_t nlogs = 0;
  for (size_t i = 0; i < L->num_events; ++i)
    if (i == 0 || L->events[i].a != L->events[i - 1].a)
      ++nlogs;
  log_cursor_t *k = calloc(nlogs ? nlogs : 1, sizeof(*k));
  if (!k)
    return -1;
  size_t n = 0;
  for (size_t i = 0; i < L->num_events;) {
    size_t j = i;
    while (j < L->num_events && L->events[j].a == L->events[i].a)
      ++j;
    k[n] = (log_cursor_t){.blocks = &L->events[i], .n = j - i, .id = L->events[i].a};
    k[n].nrec = events_begun(&L->events[i]);
    advance(L, &k[n], &L->bad_records);
    ++n;
    i = j;
  }
  uint64_t seq = 0, done = 0; /* fed; of them complete (in flight: not an event) */
  int64_t rc = 0;
  for (;;) {
    log_cursor_t *best = NULL;
    for (size_t i = 0; i < n; ++i)
      if (k[i].have && (!best || before(&k[i], best)))
        best = &k[i];
    if (!best)
      break;
    ompdp_rec_t r = best->rec;
    advance(L, best, &L->bad_records);
    ompdp_op_t op;
    int type = ompdp_rec_type(r.op);
    if (op_of(L, ompdp_rec_op_id(r.op), &op) || op.type != type ||
        (type == OMPDP_EV_TRANSFER && op.bytes > OMPDP_RECOVER_MAX_BYTES)) {
      L->bad_records++;
      continue;
    }
    ompdp_rank_note_devices(&op); /* the rank's devices (rank_linux.c) */
    uint32_t id = ompdp_op_intern(&op);
    if (id == OMPDP_NONE) {
      rc = -1;
      break;
    }
    if (type != OMPDP_EV_TRANSFER && r.x < r.t_begin)
      r.x = r.t_begin; /* an end before the begin is not the runtime's */
    int complete = (r.op & OMPDP_REC_COMPLETE) != 0;
    r.op = ompdp_rec_word(id, type, (r.op & OMPDP_REC_HASHED) != 0, complete);
    uint64_t end = complete ? ompdp_rec_end(&r, r.op) : r.t_begin;
    if (end > *last_end)
      *last_end = end;
    done += complete;
    if (ompdp_engine_feed(g, &r, r.op, seq++)) {
      rc = -1;
      break;
    }
  }
  free(k);
  return rc ? rc : (int64_t)done;
}

/*===- attribution ------------------------------------------------------------===*/

static const site_t *site_of(uint32_t region, int item) {
  for (size_t i = 0; i < the_log->num_sites; ++i)
    if (the_log->sites[i].s.region == region && the_log->sites[i].s.item == item)
      return &the_log->sites[i];
  return NULL;
}

static int find_object(uint64_t addr, const char **file, uint64_t *bias) {
  for (size_t i = 0; i < the_log->num_codes; ++i)
    if (the_log->codes[i].codeptr == addr + 1) {
      *file = the_log->codes[i].file;
      *bias = the_log->codes[i].bias;
      return 0;
    }
  return -1;
}

static char *dup_nonempty(const char *s) { return s && s[0] ? ompdp_strdup(s) : NULL; }

/* As the runtime attributes (rt/tool.c, attribute_op): the region table's
 * site when the operation came from one (with, for a finding's site, its
 * map item: variable, clause, the compiler's region id and the item's
 * range), else DWARF of its call site. */
static void attribute(const ompdp_op_t *o, ompdp_loc_t *loc, ompdp_finding_t *fs) {
  const site_t *s = o->region ? site_of(o->region, o->item) : NULL;
  if (s) {
    memset(loc, 0, sizeof(*loc));
    loc->file = ompdp_strdup(s->file);
    loc->function = ompdp_strdup(s->function);
    loc->line = s->s.line;
    loc->column = s->s.column;
    if (o->item < 0 || !fs)
      return;
    if (s->variable[0]) {
      fs->variable = dup_nonempty(s->variable);
      fs->clause = dup_nonempty(s->clause);
    }
    if (s->call)
      fs->call = dup_nonempty(s->call);
    fs->region_id = s->s.region_id;
    fs->range.line = s->s.range_line;
    fs->range.column = s->s.range_column;
    fs->range.end_line = s->s.range_end_line;
    fs->range.end_column = s->s.range_end_column;
    return;
  }
  ompdp_attribute(o->codeptr, o->construct, loc);
}

/*===- the report ---------------------------------------------------------------===*/

/* ns = ticks * mult >> 32, the scale measured from the runtime's start to
 * now: the TSC is the same on every CPU where the runtime used it. */
static uint64_t tick_mult(const ompdp_cl_header_t *h) {
#if defined(__x86_64__)
  if (h->clock_is_tsc) {
    uint32_t lo, hi;
    __asm__ __volatile__("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi)::"memory");
    uint64_t t = ((uint64_t)hi << 32) | lo;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    if (t > h->start_ticks && ns > h->start_ns)
      return (uint64_t)(((unsigned __int128)(ns - h->start_ns) << 32) / (t - h->start_ticks));
  }
#endif
  (void)h;
  return 1ull << 32;
}

static int warn(ompdp_report_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int warn(ompdp_report_t *r, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return ompdp_report_add_warning(r, buf);
}

int drv_recover(const char *path, const char *reason, uint64_t ended_at_ns, ompdp_report_t *r,
                drv_recovery_t *info, char *err, size_t errlen) {
  crash_log_t L;
  memset(&L, 0, sizeof(L));
  memset(info, 0, sizeof(*info));
  ompdp_report_init(r);
  int rc = open_log(path, &L, err, errlen);
  if (rc) {
    close_log(&L);
    return rc;
  }
  const ompdp_cl_header_t *h = &L.h;
  the_log = &L;
  /* The engine as the runtime had it configured (rt/tool.c, engine_config):
   * the zero_min_bytes option's 0 means every non-empty copy, the engine's 1.
   * No timeline: the log is replayed once, at the end. */
  int host = h->host_device == OMPDP_CL_HOST_UNKNOWN ? -1 : h->host_device;
  ompdp_engine_config_t cfg = {.host_device = host,
                               .content_limit = h->content_limit,
                               .zero_min_bytes = h->zero_min_bytes ? h->zero_min_bytes : 1,
                               .peak_min_bytes = h->peak_min_bytes ? h->peak_min_bytes : 1,
                               .lifetime_all = h->lifetime_all != 0};
  ompdp_engine_t *g = ompdp_engine_create(&cfg);
  uint64_t last_end = h->start_ticks;
  ompdp_rank_forget_devices();
  int64_t events = g ? replay(&L, g, &last_end) : -1;
  uint64_t mult = tick_mult(h);
  uint64_t last_ns =
      h->start_realtime_ns +
      ompdp_ticks_to_ns(last_end > h->start_ticks ? last_end - h->start_ticks : 0, mult);
  uint64_t end_ns = ended_at_ns > h->start_realtime_ns ? ended_at_ns : last_ns;
  ompdp_engine_result_t res = {.wall_time_ns = end_ns - h->start_realtime_ns,
                               .tick_mult = mult,
                               .attribute = attribute};
  ompdp_attribution_set_object_finder(find_object);
  if (!g || events < 0 || ompdp_engine_finish_early(g, r, &res)) {
    ompdp_engine_destroy(g);
    ompdp_attribution_done();
    ompdp_attribution_set_object_finder(NULL);
    close_log(&L);
    ompdp_report_free(r);
    the_log = NULL;
    return fail(err, errlen, "out of memory while analysing the event log");
  }
  ompdp_engine_destroy(g);
  ompdp_attribution_done();
  ompdp_attribution_set_object_finder(NULL);
  r->partial = 1;
  r->recovered_from_log = 1;
  if (h->gave_up)
    reason = "ompdp ran out of memory analysing the events in the process, and left its report "
             "to ompdp run";
  r->recovered_reason = ompdp_strdup(reason ? reason : "the process ended without writing its "
                                                      "report");
  r->recovered_flushed_at_ns = end_ns;
  r->recovered_events = (uint64_t)events;
  int oom = !r->recovered_reason;
  if (L.argc) {
    r->argv = calloc(L.argc, sizeof(*r->argv));
    for (size_t i = 0; r->argv && i < L.argc; ++i)
      if ((r->argv[r->argc] = ompdp_strdup(L.argv[i])))
        r->argc++;
    oom |= r->argc != L.argc;
  }
  for (size_t i = 0; i < L.num_warnings; ++i)
    oom |= ompdp_report_add_warning(r, L.warnings[i]) != 0;
  /* Under MPI: which rank, so that ompdp merge takes the report. */
  if (L.has_process) {
    ompdp_rank_fill_as(r, &L.process, h->pid, host);
    oom |= !r->process;
  }
  oom |= warn(r, "unused allocations and unused transfers are only those the event log proves "
                 "(freed, or overwritten, with no kernel in between): a mapping still alive at "
                 "the death, or one a kernel in flight could read, is not called unused") != 0;
  if (L.num_sites)
    oom |= warn(r, "no rewrites: the event log does not carry the planner's input (the plan the "
                   "runtime writes at the end of a run that completes), so ompdp run cannot plan "
                   "them") != 0;
  if (h->parent_pid)
    oom |= warn(r, "process %d is a child that process %d forked: this report covers only what "
                   "it did after the fork", h->pid, h->parent_pid) != 0;
  /* One line, worded as the runtime's (rt/tool.c). */
  if (h->alloc_failures || h->dropped || h->gave_up) {
    char failed[80] = "", dropped[64] = "";
    if (h->alloc_failures)
      snprintf(failed, sizeof(failed), "%" PRIu64 " of its allocations failed in the process; ",
               h->alloc_failures);
    if (h->dropped)
      snprintf(dropped, sizeof(dropped), "%" PRIu64 " events were dropped; ", h->dropped);
    oom |= warn(r, "ompdp ran out of memory: %s%s%swhat else needed memory (source locations, "
                   "the timeline) may be missing", failed, dropped,
                h->gave_up ? "its analysis stopped, so this report is rebuilt from the event "
                             "log, without rewrites; " : "") != 0;
  }
  if (h->stopped)
    oom |= warn(r, "the event log stopped growing (%s): operations that began after that are "
                   "missing",
                h->stopped == OMPDP_CL_STOP_CAP ? "the crash_log_mb cap was reached"
                : h->stopped == OMPDP_CL_STOP_FULL ? "its file system was full"
                                                   : "out of memory") != 0;
  if (L.bad_records || L.bad_meta)
    oom |= warn(r, "%" PRIu64 " records of the event log were unreadable (the program may have "
                   "written over ompdp's memory) and are left out",
                L.bad_records + L.bad_meta) != 0;
  ompdp_report_sort(r);
  info->events = (uint64_t)events;
  info->stopped = h->stopped != 0;
  info->gave_up = h->gave_up != 0;
  close_log(&L);
  the_log = NULL;
  if (oom)
    fprintf(stderr, "ompdp: out of memory while rebuilding the report; parts of it are missing\n");
  return 0;
}
