/*===- report_text.c - the report for people --------------------------------===*\
|*
|* Renders the model as plain text. The layout is kept stable and easy to
|* grep, because lit tests FileCheck it: every finding is one row that starts
|* with the kind's JSON name, followed by indented detail lines (its
|* rewrites: one line each, then one line per edit); numbers use fixed human
|* units (B/KiB/MiB/GiB, ns/us/ms/s) with one decimal.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "report.h"
#include "cost_model.h" /* ompdp_projection_label */
#include "memory.h"     /* the peak of device memory */
#include "process.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* OMPDP_UNIT_BUF is enough for "18446744073709551615 B" and
 * "18446744073.7 s". */

const char *ompdp_format_bytes(char *buf, uint64_t b) {
  static const char *const Units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (b < 1024) {
    snprintf(buf, OMPDP_UNIT_BUF, "%" PRIu64 " B", b);
    return buf;
  }
  double v = (double)b / 1024.0;
  size_t u = 0;
  while (v >= 1024.0 && u + 1 < sizeof(Units) / sizeof(Units[0])) {
    v /= 1024.0;
    ++u;
  }
  snprintf(buf, OMPDP_UNIT_BUF, "%.1f %s", v, Units[u]);
  return buf;
}

const char *ompdp_format_time(char *buf, uint64_t ns) {
  if (ns < 1000)
    snprintf(buf, OMPDP_UNIT_BUF, "%" PRIu64 " ns", ns);
  else if (ns < 1000000)
    snprintf(buf, OMPDP_UNIT_BUF, "%.1f us", (double)ns / 1e3);
  else if (ns < 1000000000)
    snprintf(buf, OMPDP_UNIT_BUF, "%.1f ms", (double)ns / 1e6);
  else
    snprintf(buf, OMPDP_UNIT_BUF, "%.1f s", (double)ns / 1e9);
  return buf;
}

/* Writes s with control characters escaped C-style, so that a name holding
 * a newline cannot break the one-row-per-finding layout. */
static void put_str_n(FILE *out, const char *s, size_t n) {
  for (size_t i = 0; i < n && s[i]; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c == '\n')
      fputs("\\n", out);
    else if (c == '\t')
      fputs("\\t", out);
    else if (c < 0x20 || c == 0x7F)
      fprintf(out, "\\x%02x", c);
    else
      fputc(c, out);
  }
}

static void put_str(FILE *out, const char *s) { put_str_n(out, s, SIZE_MAX); }
void ompdp_text_put_str(FILE *out, const char *s) { put_str(out, s); }

static int loc_known(const ompdp_loc_t *l) {
  return l->file || l->function || l->line;
}

/* file:line:col in function; the parts that are unknown are left out. */
static void put_loc(FILE *out, const ompdp_loc_t *l) {
  put_str(out, l->file ? l->file : "<unknown file>");
  if (l->line) {
    fprintf(out, ":%" PRIu32, l->line);
    if (l->column)
      fprintf(out, ":%" PRIu32, l->column);
  }
  if (l->function) {
    fputs(" in ", out);
    put_str(out, l->function);
  }
}

static void put_pos(FILE *out, uint32_t line, uint32_t col) {
  fprintf(out, "%" PRIu32 ":%" PRIu32, line, col);
}

/* Quoted and escaped, so that an edit's text (newlines included) stays on
 * its one line. */
static void put_quoted(FILE *out, const char *s) {
  fputc('"', out);
  for (; *s; ++s) {
    if (*s == '"' || *s == '\\') {
      fputc('\\', out);
      fputc(*s, out);
    } else {
      put_str_n(out, s, 1);
    }
  }
  fputc('"', out);
}

/* file:L:C-L2:C2: replace "old" with "new" | insert "new" | delete "old". */
static void put_edit(FILE *out, const ompdp_edit_t *e) {
  const ompdp_range_t *r = &e->range;
  /* An empty range, or one that must hold nothing but white space (the
   * end of a line), is where text goes in. */
  int empty = r->line == r->end_line && r->column == r->end_column;
  int insert = empty || (e->original && !*e->original);
  const char *rep = e->replacement ? e->replacement : "";
  fputs("      ", out);
  put_str(out, e->file ? e->file : "<unknown file>");
  fputc(':', out);
  put_pos(out, r->line, r->column);
  if (!empty) {
    fputc('-', out);
    put_pos(out, r->end_line, r->end_column);
  }
  fputs(": ", out);
  if (insert) {
    fputs("insert ", out);
    put_quoted(out, rep);
  } else {
    fputs(*rep ? "replace " : "delete ", out);
    if (e->original)
      put_quoted(out, e->original);
    else
      fputs("the text", out);
    if (*rep) {
      fputs(" with ", out);
      put_quoted(out, rep);
    }
  }
  fputc('\n', out);
}

/* "rewrite (keep_resident): <description>  [saves 1.2 us: 3 transfers (12.0
 * KiB), 3 allocations]" and one line per edit. */
static void put_rewrite(FILE *out, const ompdp_rewrite_t *rw, int projected) {
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF], b3[OMPDP_UNIT_BUF];
  fprintf(out, "    rewrite (%s): ", ompdp_rewrite_kind_json(rw->kind));
  put_str(out, rw->description ? rw->description : "");
  if (rw->peak) {
    /* Memory held for less time: the peak is what it saves, not time. */
    fprintf(out, "  [lowers the peak of device memory by %s; saves no time]\n",
            ompdp_format_bytes(b1, rw->peak_saved_bytes));
  } else {
    fprintf(out, "  [saves %s%s: %" PRIu64 " transfer%s (%s), %" PRIu64 " allocation%s",
            rw->lower_bound ? "at least " : "", ompdp_format_time(b1, rw->time_saved_ns),
            rw->transfers_removed,
            rw->transfers_removed == 1 ? "" : "s", ompdp_format_bytes(b2, rw->bytes_removed),
            rw->allocs_removed, rw->allocs_removed == 1 ? "" : "s");
    if (projected)
      fprintf(out, "; projected: saves %s%s", rw->lower_bound ? "at least " : "",
              ompdp_format_time(b3, rw->projected_saved_ns));
    fputs("]\n", out);
  }
  if (rw->assumption) {
    fputs("      assumes: ", out);
    put_str(out, rw->assumption);
    fputc('\n', out);
  }
  for (size_t i = 0; i < rw->num_edits; ++i)
    put_edit(out, &rw->edits[i]);
}

/* The finding before f in v[0..i) that shows rewrite rw already (the same
 * edits: one rewrite that fixes several findings), or NULL. */
static const ompdp_finding_t *shown_before(const ompdp_finding_t *v, size_t i,
                                           const ompdp_rewrite_t *rw) {
  if (!rw->num_edits)
    return NULL;
  for (size_t k = 0; k < i; ++k)
    for (size_t j = 0; j < v[k].num_rewrites; ++j)
      if (ompdp_rewrite_same_edits(&v[k].rewrites[j], rw))
        return &v[k];
  return NULL;
}

/* "rewrite (alloc_and_fill): the one shown above for zero_transfer of `x` at
 * prog.c:43:1" */
static void put_rewrite_again(FILE *out, const ompdp_rewrite_t *rw, const ompdp_finding_t *g) {
  fprintf(out, "    rewrite (%s): the one shown above for %s", ompdp_rewrite_kind_json(rw->kind),
          ompdp_finding_kind_json(g->kind));
  if (g->variable) {
    fputs(" of `", out);
    put_str(out, g->variable);
    fputc('`', out);
  }
  fputs(" at ", out);
  put_loc(out, &g->loc);
  fputc('\n', out);
}

static void put_finding(FILE *out, const ompdp_finding_t *v, size_t i, int projected) {
  const ompdp_finding_t *f = &v[i];
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF], b3[OMPDP_UNIT_BUF];
  fprintf(out, "%s  ", ompdp_finding_kind_json(f->kind));
  put_loc(out, &f->loc);
  fprintf(out, "  count=%" PRIu64 " bytes=%s time=%s saved=%s devices=",
          f->count, ompdp_format_bytes(b1, f->bytes), ompdp_format_time(b2, f->time_ns),
          ompdp_format_time(b3, f->time_saved_ns));
  if (f->num_devices == 0)
    fputc('-', out);
  for (size_t i = 0; i < f->num_devices; ++i)
    fprintf(out, "%s%d", i ? "," : "", f->devices[i]);
  if (projected)
    fprintf(out, " projected_saved=%s", ompdp_format_time(b1, f->projected_saved_ns));
  if (f->peak)
    fprintf(out, " peak_saved=%s", ompdp_format_bytes(b1, f->peak_saved_bytes));
  fputc('\n', out);
  ompdp_text_put_spread(out, f); /* a merged report's: over the ranks */

  if (f->variable || f->clause || f->call) {
    fputs("    ", out);
    if (f->variable) {
      fputs("variable: ", out);
      put_str(out, f->variable);
    }
    if (f->variable && (f->clause || f->call))
      fputs("  ", out);
    if (f->clause) {
      fputs("clause: ", out);
      put_str(out, f->clause);
    } else if (f->call) {
      fputs("call: ", out);
      put_str(out, f->call);
    }
    fputc('\n', out);
  }
  if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER &&
      (f->same_buffer || f->other_buffer))
    fprintf(out,
            "    %" PRIu64 " from the same host buffer, %" PRIu64
            " from other buffers with the same bytes\n",
            f->same_buffer, f->other_buffer);
  if (loc_known(&f->related)) {
    fprintf(out, "    %s ", ompdp_finding_related_at(f));
    put_loc(out, &f->related);
    fputc('\n', out);
  }
  if (f->verdict != OMPDP_V_NONE)
    fprintf(out, "    verdict: %s%s\n", ompdp_verdict_json(f->verdict),
            ompdp_verdict_saves(f->verdict) ? "" : " (not counted as a saving)");
  if (f->suggestion) {
    fputs("    suggestion: ", out);
    put_str(out, f->suggestion);
    fputc('\n', out);
  }
  for (size_t j = 0; j < f->num_rewrites; ++j) {
    const ompdp_finding_t *g = shown_before(v, i, &f->rewrites[j]);
    if (g)
      put_rewrite_again(out, &f->rewrites[j], g);
    else
      put_rewrite(out, &f->rewrites[j], projected);
  }
}

/* 1 when a finding's verdict keeps it out of the saving (its time may
 * round to nothing: the line is still worth showing). */
static int any_excluded(const ompdp_report_t *r) {
  for (size_t i = 0; i < r->num_findings; ++i)
    if (!ompdp_verdict_saves(r->findings[i].verdict))
      return 1;
  return 0;
}

static void put_header(FILE *out, const ompdp_report_t *r) {
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF];
  fputs("=== ompdp report ===\n", out);
  /* Before anything a reader could take for a clean bill of health. */
  const char *no_device = ompdp_report_no_device(r);
  if (no_device) {
    fputs("warning: ", out);
    put_str(out, no_device);
    fputc('\n', out);
  }
  fputs("program:", out);
  if (r->argc == 0)
    fputs(" <unknown>", out);
  for (size_t i = 0; i < r->argc; ++i) {
    fputc(' ', out);
    put_str(out, r->argv[i] ? r->argv[i] : "");
  }
  fputc('\n', out);
  if (r->has_exit_status)
    fprintf(out, "exit status: %d\n", r->exit_status);
  else
    fputs("exit status: unknown\n", out);
  ompdp_text_put_process(out, r); /* MPI: the rank, or a merged report's ranks */
  fprintf(out, "wall time: %s\n", ompdp_format_time(b1, r->wall_time_ns));
  fprintf(out,
          "observed: %" PRIu64 " transfers (%s, %s), %" PRIu64
          " allocations, %" PRIu64 " kernels, %" PRIu64 " deletes\n",
          r->num_transfers, ompdp_format_bytes(b1, r->bytes_transferred),
          ompdp_format_time(b2, r->transfer_time_ns), r->num_allocs, r->num_kernels,
          r->num_deletes);
  if (r->hash_collisions)
    fprintf(out, "hash collisions: %" PRIu64 "\n", r->hash_collisions);

  fputs("summary:", out);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    fprintf(out, " %s=%" PRIu64, ompdp_finding_kind_summary_key(k),
            r->counts[k]);
  fputc('\n', out);
  if (!ompdp_text_put_merged_saving(out, r))
    fprintf(out, "time that the fixes would save: %s of %s (predicted speedup %.2fx)\n",
            ompdp_format_time(b1, r->time_saved_ns), ompdp_format_time(b2, r->wall_time_ns),
            r->predicted_speedup);
  if (r->excluded_time_ns || any_excluded(r))
    fprintf(out, "time of findings that are no saving (necessary, coincidence, repeated "
                 "computation): %s, not counted above\n",
            ompdp_format_time(b1, r->excluded_time_ns));
  if (r->projection) {
    /* The same figures priced for another device, said to be projected. */
    const ompdp_projection_t *p = r->projection;
    char label[512], b3[OMPDP_UNIT_BUF], b4[OMPDP_UNIT_BUF];
    ompdp_projection_label(p, label, sizeof(label));
    fprintf(out, "projected for %s: %s of %s (predicted speedup %.2fx); data movement %s "
                 "projected, %s measured\n",
            label, ompdp_format_time(b1, p->time_saved_ns), ompdp_format_time(b2, p->wall_time_ns),
            p->predicted_speedup, ompdp_format_time(b3, p->projected_data_time_ns),
            ompdp_format_time(b4, p->data_time_ns));
    if (p->inferred)
      fputs("warning: the projection infers operations from the finding kinds: this report "
            "has no per-operation breakdown\n", out);
  }
  ompdp_text_put_memory(out, r); /* each device's peak, what held it */
  if (r->recovered_reason) {
    /* Said before everything else a reader looks at: these are the counts
     * of the last journal flush, not of the whole run. */
    char words[256];
    fprintf(out, "partial: %s: ", ompdp_report_recovered_words(r, words, sizeof(words)));
    put_str(out, r->recovered_reason);
    fputc('\n', out);
  }
  if (r->partial)
    fputs("warning: this report is incomplete\n", out);
  for (size_t i = 0; i < r->num_warnings; ++i) {
    if (r->warnings[i] == no_device)
      continue; /* said at the top */
    fputs("warning: ", out);
    put_str(out, r->warnings[i] ? r->warnings[i] : "");
    fputc('\n', out);
  }
}

int ompdp_report_write_text(const ompdp_report_t *r, FILE *out) {
  /* Sort a shallow copy, so that the caller's report stays as it is (it is
   * const) while the rows still come out in ompdp_report_sort's order. If
   * the copy cannot be had, the rows come out unsorted rather than not at
   * all. */
  ompdp_report_t sorted = *r;
  ompdp_finding_t *copy = NULL;
  if (r->num_findings > 1 &&
      r->num_findings <= SIZE_MAX / sizeof(*r->findings) &&
      (copy = malloc(r->num_findings * sizeof(*r->findings)))) {
    memcpy(copy, r->findings, r->num_findings * sizeof(*r->findings));
    sorted.findings = copy;
    ompdp_report_sort(&sorted);
  }

  errno = 0;
  put_header(out, &sorted);
  if (sorted.num_findings == 0)
    fputs(ompdp_report_no_device(&sorted)
              ? "\nnothing was checked: no data moved on any device (see the first warning)\n"
              : "\nno inefficient data movement found\n",
          out);
  int last_kind = -1;
  for (size_t i = 0; i < sorted.num_findings; ++i) {
    const ompdp_finding_t *f = &sorted.findings[i];
    if ((int)f->kind != last_kind) {
      last_kind = (int)f->kind;
      fprintf(out, "\n%s: %s\n", ompdp_finding_kind_title(f->kind),
              ompdp_finding_kind_explanation(f->kind));
    }
    put_finding(out, sorted.findings, i, r->projection != NULL);
  }
  free(copy);

  if (fflush(out) != 0 || ferror(out)) {
    if (errno == 0)
      errno = EIO;
    return -1;
  }
  return 0;
}
