/*===- process_write.c - ranks in the text, JSON and SARIF reports --*- C -*-===*\
|*
|* The pieces of each format that say which rank a report comes from, or,
|* for a merged report, which ranks it holds and how each finding spreads
|* over them (process.h). The writers of the formats call these at fixed
|* places; each writes nothing for a report of one process without a
|* launcher, so such reports stay byte for byte what they were.
|*
|* JSON objects are written on one line each (a merged report's ranks one
|* per line), so that a lit test matches one with one CHECK.
|*
\*===----------------------------------------------------------------------===*/
#include "process.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/*--- JSON -------------------------------------------------------------------===*/

static void put_int_or_null(FILE *out, int64_t v) {
  if (v >= 0)
    fprintf(out, "%" PRId64, v);
  else
    fputs("null", out);
}

static void put_ints(FILE *out, const int *v, size_t n) {
  fputc('[', out);
  for (size_t i = 0; i < n; ++i)
    fprintf(out, "%s%d", i ? ", " : "", v[i]);
  fputc(']', out);
}

static void put_member_str(FILE *out, const char *name, const char *value) {
  fprintf(out, ", \"%s\": ", name);
  ompdp_json_put_string(out, value);
}

static void put_process_object(FILE *out, const ompdp_process_t *p) {
  fputs("{\"rank\": ", out);
  put_int_or_null(out, p->rank);
  fputs(", \"size\": ", out);
  put_int_or_null(out, p->size);
  fputs(", \"local_rank\": ", out);
  put_int_or_null(out, p->local_rank);
  put_member_str(out, "launcher", p->launcher);
  put_member_str(out, "job", p->job);
  put_member_str(out, "host", p->host);
  fputs(", \"pid\": ", out);
  put_int_or_null(out, p->pid);
  fputs(", \"devices\": ", out);
  put_ints(out, p->devices, p->num_devices);
  put_member_str(out, "executable", p->executable);
  put_member_str(out, "build_id", p->build_id);
  fputc('}', out);
}

/* The ranks of m whose status is s (all but the missing when s < 0). */
static void put_status_ranks(FILE *out, const ompdp_merge_info_t *m, int s) {
  fputc('[', out);
  int first = 1;
  for (size_t i = 0; i < m->num_ranks; ++i) {
    ompdp_rank_status_t st = m->ranks[i].status;
    int in = s < 0 ? st != OMPDP_RANK_MISSING
                   : (s == OMPDP_RANK_PARTIAL ? st == OMPDP_RANK_PARTIAL || st == OMPDP_RANK_RECOVERED
                                              : (int)st == s);
    if (!in)
      continue;
    fprintf(out, "%s%d", first ? "" : ", ", m->ranks[i].rank);
    first = 0;
  }
  fputc(']', out);
}

static void put_rank_entry(FILE *out, const ompdp_rank_entry_t *e) {
  fprintf(out, "{\"rank\": %d, \"status\": ", e->rank);
  ompdp_json_put_string(out, ompdp_rank_status_json(e->status));
  put_member_str(out, "file", e->file);
  put_member_str(out, "host", e->host);
  fputs(", \"pid\": ", out);
  put_int_or_null(out, e->pid);
  fputs(", \"devices\": ", out);
  put_ints(out, e->devices, e->num_devices);
  fputs(", \"exit_status\": ", out);
  if (e->has_exit_status)
    fprintf(out, "%d", e->exit_status);
  else
    fputs("null", out);
  fprintf(out,
          ", \"wall_time_ns\": %" PRIu64 ", \"time_saved_ns\": %" PRIu64
          ", \"findings\": %" PRIu64 "}",
          e->wall_time_ns, e->time_saved_ns, e->findings);
}

/* "merged", "partial" and "missing" repeat what per_rank says, for readers
 * that want only them; a reader of the model takes per_rank. */
static void put_merge_object(FILE *out, const ompdp_merge_info_t *m, const char *ind) {
  fprintf(out, "{\"size\": %d", m->size);
  put_member_str(out, "launcher", m->launcher);
  put_member_str(out, "job", m->job);
  put_member_str(out, "executable", m->executable);
  put_member_str(out, "build_id", m->build_id);
  fputs(", \"merged\": ", out);
  put_status_ranks(out, m, -1);
  fputs(", \"partial\": ", out);
  put_status_ranks(out, m, OMPDP_RANK_PARTIAL);
  fputs(", \"missing\": ", out);
  put_status_ranks(out, m, OMPDP_RANK_MISSING);
  fputs(",\n", out);
  fprintf(out, "%s\"per_rank\": [", ind);
  for (size_t i = 0; i < m->num_ranks; ++i) {
    fprintf(out, "%s%s  ", i ? ",\n" : "\n", ind);
    put_rank_entry(out, &m->ranks[i]);
  }
  fputs(m->num_ranks ? "\n" : "", out);
  fprintf(out, "%s]}", m->num_ranks ? ind : "");
}

void ompdp_json_put_process(FILE *out, const ompdp_report_t *r) {
  if (r->merge) {
    fputs("  \"ranks\": ", out);
    put_merge_object(out, r->merge, "    ");
    fputs(",\n", out);
  } else if (r->process) {
    fputs("  \"process\": ", out);
    put_process_object(out, r->process);
    fputs(",\n", out);
  }
}

static void put_stat(FILE *out, const char *name, const ompdp_stat_t *s) {
  fprintf(out,
          ", \"%s\": {\"min\": %" PRIu64 ", \"median\": %" PRIu64 ", \"max\": %" PRIu64 "}",
          name, s->min, s->median, s->max);
}

static void put_spread_object(FILE *out, const ompdp_spread_t *s) {
  fputs("{\"ranks\": ", out);
  put_ints(out, s->ranks, s->num_ranks);
  put_stat(out, "count", &s->count);
  put_stat(out, "bytes", &s->bytes);
  put_stat(out, "time_saved_ns", &s->time_saved_ns);
  fputs(", \"rewrite_ranks\": [", out);
  for (size_t i = 0; i < s->num_rewrite_ranks; ++i) {
    fputs(i ? ", " : "", out);
    put_ints(out, s->rewrite_ranks[i].ranks, s->rewrite_ranks[i].num_ranks);
  }
  fputs("]}", out);
}

void ompdp_json_put_spread(FILE *out, const ompdp_finding_t *f) {
  if (!f->spread)
    return;
  fputs(",\n      \"spread\": ", out);
  put_spread_object(out, f->spread);
}

/*--- text -------------------------------------------------------------------===*/

/* Control characters escaped, as the text report does everywhere. */
static void put_text(FILE *out, const char *s) {
  for (; s && *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c < 0x20 || c == 0x7f)
      fprintf(out, "\\x%02x", c);
    else
      fputc(c, out);
  }
}

static void put_devices_text(FILE *out, const int *d, size_t n) {
  if (!n)
    fputc('-', out);
  for (size_t i = 0; i < n; ++i)
    fprintf(out, "%s%d", i ? "," : "", d[i]);
}

/* "openmpi job 1234" */
static void put_launcher_text(FILE *out, const char *launcher, const char *job) {
  put_text(out, launcher ? launcher : "unknown launcher");
  if (job) {
    fputs(" job ", out);
    put_text(out, job);
  }
}

/* More ranks than this are listed only when not complete. */
#define MAX_RANK_LINES 64

static void put_merge_text(FILE *out, const ompdp_merge_info_t *m) {
  size_t merged = 0, partial = 0, missing = 0;
  int *lists[3];
  for (int i = 0; i < 3; ++i)
    lists[i] = malloc((m->num_ranks ? m->num_ranks : 1) * sizeof(int));
  for (size_t i = 0; i < m->num_ranks; ++i) {
    const ompdp_rank_entry_t *e = &m->ranks[i];
    if (e->status == OMPDP_RANK_MISSING) {
      if (lists[2])
        lists[2][missing] = e->rank;
      ++missing;
      continue;
    }
    if (lists[0])
      lists[0][merged] = e->rank;
    ++merged;
    if (e->status != OMPDP_RANK_COMPLETE) {
      if (lists[1])
        lists[1][partial] = e->rank;
      ++partial;
    }
  }
  char buf[256];
  fprintf(out, "ranks: %zu of %d merged (%s) from ", merged, m->size,
          lists[0] ? ompdp_format_ranks(buf, sizeof(buf), lists[0], merged) : "?");
  put_launcher_text(out, m->launcher, m->job);
  if (partial)
    fprintf(out, "; partial: %s",
            lists[1] ? ompdp_format_ranks(buf, sizeof(buf), lists[1], partial) : "?");
  if (missing)
    fprintf(out, "; missing: %s",
            lists[2] ? ompdp_format_ranks(buf, sizeof(buf), lists[2], missing) : "?");
  fputc('\n', out);
  for (int i = 0; i < 3; ++i)
    free(lists[i]);
  for (size_t i = 0; i < m->num_ranks; ++i) {
    const ompdp_rank_entry_t *e = &m->ranks[i];
    if (m->num_ranks > MAX_RANK_LINES && e->status == OMPDP_RANK_COMPLETE)
      continue;
    char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF];
    fprintf(out, "  rank %d: %s", e->rank, ompdp_rank_status_json(e->status));
    if (e->status == OMPDP_RANK_MISSING) {
      fputs(" (no report or journal)\n", out);
      continue;
    }
    fputs(" host=", out);
    put_text(out, e->host ? e->host : "?");
    fputs(" devices=", out);
    put_devices_text(out, e->devices, e->num_devices);
    if (e->has_exit_status)
      fprintf(out, " exit=%d", e->exit_status);
    fprintf(out, " wall=%s saved=%s findings=%" PRIu64 "  ",
            ompdp_format_time(b1, e->wall_time_ns), ompdp_format_time(b2, e->time_saved_ns),
            e->findings);
    put_text(out, e->file);
    fputc('\n', out);
  }
}

void ompdp_text_put_process(FILE *out, const ompdp_report_t *r) {
  if (r->merge) {
    put_merge_text(out, r->merge);
    return;
  }
  const ompdp_process_t *p = r->process;
  if (!p)
    return;
  fputs("rank: ", out);
  if (p->rank >= 0)
    fprintf(out, "%d", p->rank);
  else
    fputc('?', out);
  if (p->size >= 0)
    fprintf(out, " of %d", p->size);
  fputs(" (", out);
  put_launcher_text(out, p->launcher, p->job);
  fputs(") on ", out);
  put_text(out, p->host ? p->host : "?");
  if (p->pid >= 0)
    fprintf(out, ", pid %" PRId64, p->pid);
  fputs(", devices ", out);
  put_devices_text(out, p->devices, p->num_devices);
  fputc('\n', out);
}

int ompdp_text_put_merged_saving(FILE *out, const ompdp_report_t *r) {
  if (!r->merge)
    return 0;
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF];
  size_t merged = 0;
  for (size_t i = 0; i < r->merge->num_ranks; ++i)
    merged += r->merge->ranks[i].status != OMPDP_RANK_MISSING;
  fprintf(out,
          "time that the fixes would save: %s summed over %zu rank%s; the slowest rank ran %s "
          "(predicted speedup of the job %.2fx)\n",
          ompdp_format_time(b1, r->time_saved_ns), merged, merged == 1 ? "" : "s",
          ompdp_format_time(b2, r->wall_time_ns), r->predicted_speedup);
  return 1;
}

void ompdp_text_put_spread(FILE *out, const ompdp_finding_t *f) {
  const ompdp_spread_t *s = f->spread;
  if (!s)
    return;
  char ranks[256], b[6][OMPDP_UNIT_BUF];
  fprintf(out, "    ranks: %s (%zu)  per rank min/median/max: count=%" PRIu64 "/%" PRIu64
               "/%" PRIu64 " bytes=%s/%s/%s saved=%s/%s/%s\n",
          ompdp_format_ranks(ranks, sizeof(ranks), s->ranks, s->num_ranks), s->num_ranks,
          s->count.min, s->count.median, s->count.max, ompdp_format_bytes(b[0], s->bytes.min),
          ompdp_format_bytes(b[1], s->bytes.median), ompdp_format_bytes(b[2], s->bytes.max),
          ompdp_format_time(b[3], s->time_saved_ns.min),
          ompdp_format_time(b[4], s->time_saved_ns.median),
          ompdp_format_time(b[5], s->time_saved_ns.max));
  /* Rewrites that not every rank of the finding made (the rewrites follow
   * in this order). */
  int all = 1;
  for (size_t i = 0; i < s->num_rewrite_ranks; ++i)
    all &= s->rewrite_ranks[i].num_ranks == s->num_ranks;
  if (all)
    return;
  fputs("    rewrites by rank:", out);
  for (size_t i = 0; i < s->num_rewrite_ranks; ++i)
    fprintf(out, "%s %zu. ranks %s", i ? ";" : "", i + 1,
            ompdp_format_ranks(ranks, sizeof(ranks), s->rewrite_ranks[i].ranks,
                               s->rewrite_ranks[i].num_ranks));
  fputc('\n', out);
}

/*--- SARIF ------------------------------------------------------------------===*/

void ompdp_sarif_put_invocation_process(FILE *out, const ompdp_report_t *r) {
  const ompdp_process_t *p = r->merge ? NULL : r->process;
  if (!p)
    return;
  if (p->host) {
    fputs(", \"machine\": ", out);
    ompdp_json_put_string(out, p->host);
  }
  if (p->pid >= 0)
    fprintf(out, ", \"processId\": %" PRId64, p->pid);
}

void ompdp_sarif_put_run_process(FILE *out, const ompdp_report_t *r) {
  if (r->merge) {
    fputs(", \"ranks\": ", out);
    put_merge_object(out, r->merge, "        ");
  } else if (r->process) {
    fputs(", \"process\": ", out);
    put_process_object(out, r->process);
  }
}

void ompdp_sarif_put_spread(FILE *out, const ompdp_finding_t *f) {
  if (!f->spread)
    return;
  fputs(", \"spread\": ", out);
  put_spread_object(out, f->spread);
}
