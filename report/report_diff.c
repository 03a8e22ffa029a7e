/*===- report_diff.c - two reports of a program, compared ---------------===*\
|*
|* `ompdp diff BEFORE.json AFTER.json` (driver/diff.c) says what a fix
|* changed: per finding (gone, new, fewer or more avoidable operations, the
|* same) and in the totals the runtime observed (transfers, bytes,
|* allocations, deletes, kernels, transfer time, the time the fixes would
|* save, the findings' avoidable operations by kind).
|*
|* A finding is the same finding in both runs when it has the same kind and
|* the same site: the compiler's region ID and map item when both reports
|* have them (stable across builds, docs/region-table.md), else file, line,
|* column and function, and variable; then those left over by kind,
|* variable and file ("moved": the fix put a construct around the one that
|* had the finding, which now shows at the new construct). Counts and bytes
|* decide whether a
|* finding grew: they are the same from run to run of the same input, where
|* times are not (times are shown, never judged). So does each device's peak
|* of memory in use (report/memory.h): a peak that grew fails the CI gate
|* as waste that grew does.
|*
\*===----------------------------------------------------------------------===*/
#include "memory.h"
#include "report_views.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static int same_str(const char *a, const char *b) {
  return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_site(const ompdp_finding_t *a, const ompdp_finding_t *b) {
  if (a->kind != b->kind)
    return 0;
  if (a->region_id && b->region_id)
    return a->region_id == b->region_id && a->item == b->item;
  return same_str(a->loc.file, b->loc.file) && a->loc.line == b->loc.line &&
         a->loc.column == b->loc.column && same_str(a->loc.function, b->loc.function) &&
         same_str(a->variable, b->variable);
}

/* -1 fewer, 0 the same, 1 more: operations first, then bytes. */
static int compare(const ompdp_finding_t *a, const ompdp_finding_t *b) {
  if (a->count != b->count)
    return a->count < b->count ? 1 : -1;
  if (a->bytes != b->bytes)
    return a->bytes < b->bytes ? 1 : -1;
  return 0;
}

static uint64_t total_count(const ompdp_report_t *r) {
  uint64_t n = 0;
  for (size_t i = 0; i < r->num_findings; ++i)
    n += r->findings[i].count;
  return n;
}

/* The same variable of the same file: what is left of a finding after a
 * fix that moved its construct. */
static int same_variable(const ompdp_finding_t *a, const ompdp_finding_t *b) {
  return a->kind == b->kind && a->variable && b->variable && !strcmp(a->variable, b->variable) &&
         same_str(a->loc.file, b->loc.file);
}

/* The peak of (device, rank) in d's peaks, added when new; NULL when out
 * of memory. */
static struct ompdp_diff_peak *peak_of(ompdp_diff_t *d, int32_t dev, int rank) {
  for (size_t i = 0; i < d->num_peaks; ++i)
    if (d->peaks[i].device == dev && d->peaks[i].rank == rank)
      return &d->peaks[i];
  struct ompdp_diff_peak *v = realloc(d->peaks, (d->num_peaks + 1) * sizeof(*v));
  if (!v)
    return NULL;
  d->peaks = v;
  v[d->num_peaks] = (struct ompdp_diff_peak){dev, rank, 0, 0};
  return &v[d->num_peaks++];
}

static int cmp_peak(const void *a, const void *b) {
  const struct ompdp_diff_peak *x = a, *y = b;
  if (x->rank != y->rank)
    return x->rank < y->rank ? -1 : 1;
  return (x->device > y->device) - (x->device < y->device);
}

static int diff_peaks(ompdp_diff_t *d) {
  for (int side = 0; side < 2; ++side) {
    const ompdp_report_t *r = side ? d->after : d->before;
    for (size_t i = 0; i < r->num_device_memory; ++i) {
      const ompdp_device_memory_t *m = &r->device_memory[i];
      struct ompdp_diff_peak *p = peak_of(d, m->device, m->rank);
      if (!p) {
        ompdp_diff_free(d);
        return -1;
      }
      if (side)
        p->after = m->peak_bytes;
      else
        p->before = m->peak_bytes;
    }
  }
  qsort(d->peaks, d->num_peaks, sizeof(*d->peaks), cmp_peak);
  for (size_t i = 0; i < d->num_peaks; ++i)
    d->peak_grew |= d->peaks[i].after > d->peaks[i].before;
  return 0;
}

int ompdp_diff_compute(const ompdp_report_t *before, const ompdp_report_t *after,
                       ompdp_diff_t *d) {
  memset(d, 0, sizeof(*d));
  d->before = before;
  d->after = after;
  size_t nb = before->num_findings, na = after->num_findings;
  d->rows = calloc(nb + na ? nb + na : 1, sizeof(*d->rows));
  size_t *match = malloc((nb ? nb : 1) * sizeof(*match)); /* after index, or SIZE_MAX */
  char *used = calloc(na ? na : 1, 1), *moved = calloc(nb ? nb : 1, 1);
  if (!d->rows || !match || !used || !moved) {
    free(d->rows);
    d->rows = NULL;
    free(match);
    free(used);
    free(moved);
    return -1;
  }
  for (int pass = 0; pass < 2; ++pass)
    for (size_t i = 0; i < nb; ++i) {
      if (!pass)
        match[i] = SIZE_MAX;
      else if (match[i] != SIZE_MAX)
        continue;
      for (size_t j = 0; j < na && match[i] == SIZE_MAX; ++j)
        if (!used[j] && (pass ? same_variable(&before->findings[i], &after->findings[j])
                              : same_site(&before->findings[i], &after->findings[j]))) {
          match[i] = j;
          used[j] = 1;
          moved[i] = (char)pass;
        }
    }
  /* Gone first, then the rest of the before side in its order, then new. */
  for (size_t i = 0; i < nb; ++i)
    if (match[i] == SIZE_MAX) {
      d->rows[d->num_rows++] = (ompdp_diff_row_t){&before->findings[i], NULL, 0};
      d->gone++;
    }
  for (size_t i = 0; i < nb; ++i) {
    if (match[i] == SIZE_MAX)
      continue;
    const ompdp_finding_t *b = &before->findings[i], *a = &after->findings[match[i]];
    d->rows[d->num_rows++] = (ompdp_diff_row_t){b, a, moved[i]};
    int c = compare(b, a);
    if (c > 0)
      d->grew++;
    else if (c < 0)
      d->shrank++;
    else if (moved[i])
      d->moved++;
    else
      d->same++;
  }
  for (size_t j = 0; j < na; ++j)
    if (!used[j]) {
      d->rows[d->num_rows++] = (ompdp_diff_row_t){NULL, &after->findings[j], 0};
      d->added++;
    }
  free(match);
  free(used);
  free(moved);
  d->waste_grew = d->added || d->grew || total_count(after) > total_count(before);
  return diff_peaks(d);
}

void ompdp_diff_free(ompdp_diff_t *d) {
  free(d->rows);
  d->rows = NULL;
  d->num_rows = 0;
  free(d->peaks);
  d->peaks = NULL;
  d->num_peaks = 0;
}

static const char *status(const ompdp_diff_row_t *row) {
  if (!row->after)
    return "gone";
  if (!row->before)
    return "new";
  int c = compare(row->before, row->after);
  return c > 0 ? "more" : c < 0 ? "fewer" : row->moved ? "moved" : "same";
}

/*===- text ------------------------------------------------------------------===*/

typedef enum { U_COUNT, U_BYTES, U_TIME } unit_t;

static const char *fmt(char *buf, unit_t u, uint64_t v) {
  if (u == U_BYTES)
    return ompdp_format_bytes(buf, v);
  if (u == U_TIME)
    return ompdp_format_time(buf, v);
  snprintf(buf, OMPDP_UNIT_BUF, "%" PRIu64, v);
  return buf;
}

static void text_total(FILE *out, const char *name, unit_t u, uint64_t a, uint64_t b) {
  char x[OMPDP_UNIT_BUF], y[OMPDP_UNIT_BUF], z[OMPDP_UNIT_BUF + 2];
  if (a == b) {
    snprintf(z, sizeof(z), "=");
  } else {
    z[0] = a > b ? '-' : '+';
    fmt(z + 1, u, a > b ? a - b : b - a);
  }
  fprintf(out, "  %-28s %12s %12s %12s", name, fmt(x, u, a), fmt(y, u, b), z);
  if (a && a != b)
    fprintf(out, "  (%+.1f%%)", ((double)b - (double)a) * 100.0 / (double)a);
  fputc('\n', out);
}

static void text_site(FILE *out, const ompdp_finding_t *f) {
  fprintf(out, "%s", ompdp_finding_kind_json(f->kind));
  if (f->variable)
    fprintf(out, " %s", f->variable);
  fprintf(out, "  %s", f->loc.file ? f->loc.file : "<unknown file>");
  if (f->loc.file && f->loc.line)
    fprintf(out, ":%u:%u", f->loc.line, f->loc.column);
  if (f->loc.function)
    fprintf(out, " in %s", f->loc.function);
}

int ompdp_diff_write_text(const ompdp_diff_t *d, FILE *out) {
  const ompdp_report_t *a = d->before, *b = d->after;
  fprintf(out, "ompdp diff: %s -> %s\n", d->before_name ? d->before_name : "before",
          d->after_name ? d->after_name : "after");
  fprintf(out, "  %-28s %12s %12s %12s\n", "totals", "before", "after", "change");
  text_total(out, "transfers", U_COUNT, a->num_transfers, b->num_transfers);
  text_total(out, "bytes transferred", U_BYTES, a->bytes_transferred, b->bytes_transferred);
  text_total(out, "transfer time", U_TIME, a->transfer_time_ns, b->transfer_time_ns);
  text_total(out, "allocations", U_COUNT, a->num_allocs, b->num_allocs);
  text_total(out, "deletes", U_COUNT, a->num_deletes, b->num_deletes);
  text_total(out, "kernels", U_COUNT, a->num_kernels, b->num_kernels);
  text_total(out, "wall time", U_TIME, a->wall_time_ns, b->wall_time_ns);
  text_total(out, "time the fixes would save", U_TIME, a->time_saved_ns, b->time_saved_ns);
  text_total(out, "findings", U_COUNT, a->num_findings, b->num_findings);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    if (a->counts[k] || b->counts[k])
      text_total(out, ompdp_finding_kind_summary_key(k), U_COUNT, a->counts[k], b->counts[k]);
  for (size_t i = 0; i < d->num_peaks; ++i) {
    const struct ompdp_diff_peak *p = &d->peaks[i];
    char name[64];
    if (p->rank >= 0)
      snprintf(name, sizeof(name), "peak memory rank %d dev %" PRId32, p->rank, p->device);
    else
      snprintf(name, sizeof(name), "peak memory device %" PRId32, p->device);
    text_total(out, name, U_BYTES, p->before, p->after);
  }
  fprintf(out, "findings: %zu gone, %zu new, %zu with more avoidable operations, %zu with "
               "fewer, %zu the same, %zu moved\n",
          d->gone, d->added, d->grew, d->shrank, d->same, d->moved);
  for (size_t i = 0; i < d->num_rows; ++i) {
    const ompdp_diff_row_t *row = &d->rows[i];
    const ompdp_finding_t *f = row->before ? row->before : row->after;
    char x[OMPDP_UNIT_BUF], y[OMPDP_UNIT_BUF], s1[OMPDP_UNIT_BUF], s2[OMPDP_UNIT_BUF];
    fprintf(out, "  %-5s  ", status(row));
    text_site(out, f);
    if (row->moved)
      fprintf(out, " -> %s:%u:%u", row->after->loc.file ? row->after->loc.file : "?",
              row->after->loc.line, row->after->loc.column);
    fprintf(out, "  count %" PRIu64 " -> %" PRIu64 "  bytes %s -> %s  saved %s -> %s\n",
            row->before ? row->before->count : 0, row->after ? row->after->count : 0,
            ompdp_format_bytes(x, row->before ? row->before->bytes : 0),
            ompdp_format_bytes(y, row->after ? row->after->bytes : 0),
            ompdp_format_time(s1, row->before ? row->before->time_saved_ns : 0),
            ompdp_format_time(s2, row->after ? row->after->time_saved_ns : 0));
  }
  fprintf(out, "verdict: the waste %s",
          d->waste_grew ? "grew"
          : total_count(b) < total_count(a) || d->gone ? "shrank"
                                                       : "is the same");
  if (d->num_peaks) {
    int shrank = 0;
    for (size_t i = 0; i < d->num_peaks; ++i)
      shrank |= d->peaks[i].after < d->peaks[i].before;
    fprintf(out, "; the peak of device memory %s",
            d->peak_grew ? "grew" : shrank ? "shrank" : "is the same");
  }
  fputc('\n', out);
  return ferror(out) ? -1 : 0;
}

/*===- JSON ------------------------------------------------------------------===*/

static void json_total(FILE *out, const char *name, uint64_t a, uint64_t b, int last) {
  fprintf(out, "    \"%s\": {\"before\": %" PRIu64 ", \"after\": %" PRIu64 ", \"change\": %s%" PRIu64
               "}%s\n",
          name, a, b, b < a ? "-" : "", b < a ? a - b : b - a, last ? "" : ",");
}

static void json_side(FILE *out, const ompdp_finding_t *f) {
  if (!f) {
    fputs("null", out);
    return;
  }
  fprintf(out, "{\"count\": %" PRIu64 ", \"bytes\": %" PRIu64 ", \"time_ns\": %" PRIu64
               ", \"time_saved_ns\": %" PRIu64 "}",
          f->count, f->bytes, f->time_ns, f->time_saved_ns);
}

int ompdp_diff_write_json(const ompdp_diff_t *d, FILE *out) {
  const ompdp_report_t *a = d->before, *b = d->after;
  fputs("{\n  \"ompdp_diff_version\": 1,\n  \"before\": ", out);
  ompdp_json_put_string(out, d->before_name);
  fputs(",\n  \"after\": ", out);
  ompdp_json_put_string(out, d->after_name);
  fprintf(out, ",\n  \"waste_grew\": %s,\n", d->waste_grew ? "true" : "false");
  fprintf(out, "  \"peak_grew\": %s,\n  \"device_memory\": [", d->peak_grew ? "true" : "false");
  for (size_t i = 0; i < d->num_peaks; ++i) {
    const struct ompdp_diff_peak *p = &d->peaks[i];
    fprintf(out, "%s\n    {\"device\": %" PRId32 ", ", i ? "," : "", p->device);
    if (p->rank >= 0)
      fprintf(out, "\"rank\": %d, ", p->rank);
    fprintf(out, "\"peak_bytes\": {\"before\": %" PRIu64 ", \"after\": %" PRIu64
                 ", \"change\": %s%" PRIu64 "}}",
            p->before, p->after, p->after < p->before ? "-" : "",
            p->after < p->before ? p->before - p->after : p->after - p->before);
  }
  fputs(d->num_peaks ? "\n  ],\n" : "],\n", out);
  fprintf(out, "  \"findings_summary\": {\"gone\": %zu, \"new\": %zu, \"more\": %zu, "
               "\"fewer\": %zu, \"same\": %zu, \"moved\": %zu},\n",
          d->gone, d->added, d->grew, d->shrank, d->same, d->moved);
  fputs("  \"totals\": {\n", out);
  json_total(out, "transfers", a->num_transfers, b->num_transfers, 0);
  json_total(out, "bytes_transferred", a->bytes_transferred, b->bytes_transferred, 0);
  json_total(out, "transfer_time_ns", a->transfer_time_ns, b->transfer_time_ns, 0);
  json_total(out, "allocs", a->num_allocs, b->num_allocs, 0);
  json_total(out, "deletes", a->num_deletes, b->num_deletes, 0);
  json_total(out, "kernels", a->num_kernels, b->num_kernels, 0);
  json_total(out, "wall_time_ns", a->wall_time_ns, b->wall_time_ns, 0);
  json_total(out, "time_saved_ns", a->time_saved_ns, b->time_saved_ns, 0);
  json_total(out, "findings", a->num_findings, b->num_findings, 0);
  json_total(out, "avoidable_operations", total_count(a), total_count(b), 0);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    json_total(out, ompdp_finding_kind_summary_key(k), a->counts[k], b->counts[k],
               k == OMPDP_FK_COUNT - 1);
  fputs("  },\n  \"findings\": [", out);
  for (size_t i = 0; i < d->num_rows; ++i) {
    const ompdp_diff_row_t *row = &d->rows[i];
    const ompdp_finding_t *f = row->before ? row->before : row->after;
    fprintf(out, "%s\n    {\"status\": \"%s\", \"kind\": \"%s\", \"variable\": ", i ? "," : "",
            status(row), ompdp_finding_kind_json(f->kind));
    ompdp_json_put_string(out, f->variable);
    fputs(", \"file\": ", out);
    ompdp_json_put_string(out, f->loc.file);
    fprintf(out, ", \"line\": %u, \"column\": %u, \"function\": ", f->loc.line, f->loc.column);
    ompdp_json_put_string(out, f->loc.function);
    if (f->region_id)
      fprintf(out, ", \"region_id\": \"%016" PRIx64 "\", \"item\": %d", f->region_id, f->item);
    else
      fputs(", \"region_id\": null, \"item\": null", out);
    fprintf(out, ", \"moved\": %s", row->moved ? "true" : "false");
    if (row->moved) {
      fputs(", \"moved_to\": {\"file\": ", out);
      ompdp_json_put_string(out, row->after->loc.file);
      fprintf(out, ", \"line\": %u, \"column\": %u}", row->after->loc.line,
              row->after->loc.column);
    }
    fputs(", \"before\": ", out);
    json_side(out, row->before);
    fputs(", \"after\": ", out);
    json_side(out, row->after);
    fputc('}', out);
  }
  fputs(d->num_rows ? "\n  ]\n}\n" : "]\n}\n", out);
  return ferror(out) ? -1 : 0;
}
