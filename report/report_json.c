/*===- report_json.c - the report for tools -----------------------------===*\
|*
|* Renders the model as the JSON report that the driver and the compiler
|* plugin read back (report_json_read.c). The output is always valid JSON,
|* whatever bytes the model's strings hold: control characters are escaped
|* and bytes that are not valid UTF-8 become U+FFFD. Integers are written
|* exactly; the one double is written with the fewest digits that read back
|* to the same value, independent of the program's locale.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "report.h"
#include "cost_model.h" /* operations by class and projections */
#include "memory.h"     /* device memory in use */
#include "process.h"
#include "timeline.h"

#include <errno.h>
#include <inttypes.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

size_t ompdp_utf8_len(const unsigned char *s, size_t n) {
  unsigned char c = s[0];
  size_t len;
  unsigned lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c < 0x80)
    return 1;
  if (c >= 0xC2 && c <= 0xDF)
    len = 2;
  else if (c >= 0xE0 && c <= 0xEF) {
    len = 3;
    if (c == 0xE0)
      lo = 0xA0;
    else if (c == 0xED)
      hi = 0x9F;
  } else if (c >= 0xF0 && c <= 0xF4) {
    len = 4;
    if (c == 0xF0)
      lo = 0x90;
    else if (c == 0xF4)
      hi = 0x8F;
  } else
    return 0;
  if (n < len || s[1] < lo || s[1] > hi)
    return 0;
  for (size_t i = 2; i < len; ++i)
    if (s[i] < 0x80 || s[i] > 0xBF)
      return 0;
  return len;
}

void ompdp_json_put_string(FILE *out, const char *str) {
  if (!str) {
    fputs("null", out);
    return;
  }
  const unsigned char *s = (const unsigned char *)str;
  size_t n = strlen(str);
  fputc('"', out);
  for (size_t i = 0; i < n;) {
    unsigned char c = s[i];
    if (c == '"' || c == '\\') {
      fputc('\\', out);
      fputc(c, out);
      ++i;
    } else if (c < 0x20 || c == 0x7F) {
      switch (c) {
      case '\b': fputs("\\b", out); break;
      case '\f': fputs("\\f", out); break;
      case '\n': fputs("\\n", out); break;
      case '\r': fputs("\\r", out); break;
      case '\t': fputs("\\t", out); break;
      default: fprintf(out, "\\u%04x", c); break;
      }
      ++i;
    } else if (c < 0x80) {
      fputc(c, out);
      ++i;
    } else {
      size_t len = ompdp_utf8_len(s + i, n - i);
      /* U+FFFD itself is escaped too: a replaced byte reads back as U+FFFD,
       * and must then be written the same way again, so that a report read
       * back and rewritten is byte-identical. */
      if (len == 3 && !memcmp(s + i, "\xEF\xBF\xBD", 3)) {
        fputs("\\ufffd", out);
        i += 3;
      } else if (len) {
        fwrite(s + i, 1, len, out);
        i += len;
      } else {
        fputs("\\ufffd", out);
        ++i;
      }
    }
  }
  fputc('"', out);
}

/* Formats d into buf (at least 32 bytes) in the C locale, whatever locale
 * the program under test has set: a decimal comma would break the JSON. The
 * shortest of %.15g..%.17g that reads back identically is used, so 1.25
 * stays "1.25" and no value loses bits. JSON has no inf/nan: those become
 * null. */
void ompdp_json_format_double(char *buf, size_t size, double d) {
  if (!isfinite(d)) {
    snprintf(buf, size, "null");
    return;
  }
  locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
  locale_t old = c ? uselocale(c) : (locale_t)0;
  for (int prec = 15; prec <= 17; ++prec) {
    snprintf(buf, size, "%.*g", prec, d);
    if (strtod(buf, NULL) == d)
      break;
  }
  if (c) {
    uselocale(old);
    freelocale(c);
  }
  /* Without a locale of our own, replace whatever decimal separator the
   * program's locale used. */
  for (char *p = buf; *p; ++p)
    if (*p == ',')
      *p = '.';
  if (!strpbrk(buf, ".eE")) {
    size_t len = strlen(buf);
    if (len + 2 < size)
      memcpy(buf + len, ".0", 3);
  }
}

static void put_loc_members(FILE *out, const ompdp_loc_t *l, const char *ind) {
  fprintf(out, "%s\"file\": ", ind);
  ompdp_json_put_string(out, l->file);
  fprintf(out, ",\n%s\"line\": %" PRIu32 ",\n", ind, l->line);
  fprintf(out, "%s\"column\": %" PRIu32 ",\n", ind, l->column);
  fprintf(out, "%s\"function\": ", ind);
  ompdp_json_put_string(out, l->function);
}

static int range_known(const ompdp_range_t *r) { return r->line != 0; }

static void put_offset(FILE *out, int64_t off) {
  if (off >= 0)
    fprintf(out, "%" PRId64, off);
  else
    fputs("null", out);
}

/* A range on one line: {"line": L, "column": C, "end_line": L2,
 * "end_column": C2, "offset": O, "end_offset": O2}. */
static void put_range_members(FILE *out, const ompdp_range_t *r) {
  fprintf(out,
          "\"line\": %" PRIu32 ", \"column\": %" PRIu32 ", \"end_line\": %" PRIu32
          ", \"end_column\": %" PRIu32 ", \"offset\": ",
          r->line, r->column, r->end_line, r->end_column);
  put_offset(out, r->offset);
  fputs(", \"end_offset\": ", out);
  put_offset(out, r->end_offset);
}

static void put_range(FILE *out, const ompdp_range_t *r) {
  fputc('{', out);
  put_range_members(out, r);
  fputc('}', out);
}

/* One edit per line, so that a lit test can match an edit with one CHECK. */
static void put_edit(FILE *out, const ompdp_edit_t *e) {
  fputs("            {\"file\": ", out);
  ompdp_json_put_string(out, e->file);
  fputs(", ", out);
  put_range_members(out, &e->range);
  fputs(", \"original\": ", out);
  ompdp_json_put_string(out, e->original);
  fputs(", \"replacement\": ", out);
  ompdp_json_put_string(out, e->replacement ? e->replacement : "");
  if (e->file_hash)
    fprintf(out, ", \"file_hash\": \"%016" PRIx64 "\"", e->file_hash);
  else
    fputs(", \"file_hash\": null", out);
  fputc('}', out);
}

static void put_rewrite(FILE *out, const ompdp_rewrite_t *rw, int projected) {
  fputs("        {\n          \"kind\": ", out);
  ompdp_json_put_string(out, ompdp_rewrite_kind_json(rw->kind));
  fputs(",\n          \"description\": ", out);
  ompdp_json_put_string(out, rw->description ? rw->description : "");
  fputs(",\n          \"assumption\": ", out);
  ompdp_json_put_string(out, rw->assumption);
  fprintf(out, ",\n          \"time_saved_ns\": %" PRIu64, rw->time_saved_ns);
  fprintf(out, ",\n          \"transfers_removed\": %" PRIu64, rw->transfers_removed);
  fprintf(out, ",\n          \"allocs_removed\": %" PRIu64, rw->allocs_removed);
  fprintf(out, ",\n          \"bytes_removed\": %" PRIu64, rw->bytes_removed);
  if (rw->lower_bound)
    fputs(",\n          \"lower_bound\": true", out);
  if (rw->peak)
    fprintf(out, ",\n          \"peak_saved_bytes\": %" PRIu64, rw->peak_saved_bytes);
  fputs(",\n          \"edits\": [", out);
  for (size_t i = 0; i < rw->num_edits; ++i) {
    fputs(i ? ",\n" : "\n", out);
    put_edit(out, &rw->edits[i]);
  }
  fputs(rw->num_edits ? "\n          ]" : "]", out);
  /* After the edits: what the cost model needs, and its projection. */
  if (rw->ops.known) {
    fputs(",\n          \"ops\": ", out);
    ompdp_ops_write_json(out, &rw->ops);
    fputs(",\n          \"ops_added\": ", out);
    ompdp_ops_write_json(out, &rw->ops_added);
  }
  if (projected)
    fprintf(out, ",\n          \"projected_time_saved_ns\": %" PRIu64, rw->projected_saved_ns);
  fputs("\n        }", out);
}

static void put_finding(FILE *out, const ompdp_finding_t *f, int projected, int with_plan) {
  fputs("    {\n      \"kind\": ", out);
  ompdp_json_put_string(out, ompdp_finding_kind_json(f->kind));
  fprintf(out, ",\n      \"count\": %" PRIu64 ",\n", f->count);
  fprintf(out, "      \"bytes\": %" PRIu64 ",\n", f->bytes);
  fprintf(out, "      \"time_ns\": %" PRIu64 ",\n", f->time_ns);
  fprintf(out, "      \"time_saved_ns\": %" PRIu64 ",\n", f->time_saved_ns);
  fputs("      \"devices\": [", out);
  for (size_t i = 0; i < f->num_devices; ++i)
    fprintf(out, "%s%d", i ? ", " : "", f->devices[i]);
  fputs("],\n", out);
  put_loc_members(out, &f->loc, "      ");
  fputs(",\n      \"variable\": ", out);
  ompdp_json_put_string(out, f->variable);
  fputs(",\n      \"clause\": ", out);
  ompdp_json_put_string(out, f->clause);
  /* A routine call instead of a clause: optional, left out otherwise. */
  if (f->call) {
    fputs(",\n      \"call\": ", out);
    ompdp_json_put_string(out, f->call);
  }
  fputs(",\n      \"suggestion\": ", out);
  ompdp_json_put_string(out, f->suggestion);
  /* Undecided (the runtime's own report, before the planner): left out,
   * and a reader gives it the verdict of an older report's finding. */
  if (f->verdict != OMPDP_V_NONE) {
    fputs(",\n      \"verdict\": ", out);
    ompdp_json_put_string(out, ompdp_verdict_json(f->verdict));
  }
  fputs(",\n      \"related\": ", out);
  if (f->related.file || f->related.function || f->related.line ||
      f->related.column) {
    fputs("{\n", out);
    put_loc_members(out, &f->related, "        ");
    fputs("\n      }", out);
  } else {
    fputs("null", out);
  }
  if (f->kind == OMPDP_FK_DUPLICATE_TRANSFER) {
    fprintf(out, ",\n      \"same_buffer\": %" PRIu64, f->same_buffer);
    fprintf(out, ",\n      \"other_buffer\": %" PRIu64, f->other_buffer);
  }
  /* A hex string: 64-bit IDs do not survive readers that hold numbers as
   * doubles. */
  if (f->region_id)
    fprintf(out, ",\n      \"region_id\": \"%016" PRIx64 "\"", f->region_id);
  else
    fputs(",\n      \"region_id\": null", out);
  if (f->item >= 0)
    fprintf(out, ",\n      \"item\": %" PRId32, f->item);
  else
    fputs(",\n      \"item\": null", out);
  fputs(",\n      \"range\": ", out);
  if (range_known(&f->range))
    put_range(out, &f->range);
  else
    fputs("null", out);
  /* The site of the runtime's plan, only beside the plan. */
  if (with_plan && f->rt_region)
    fprintf(out, ",\n      \"region_handle\": %" PRIu32, f->rt_region);
  fputs(",\n      \"rewrites\": [", out);
  for (size_t i = 0; i < f->num_rewrites; ++i) {
    fputs(i ? ",\n" : "\n", out);
    put_rewrite(out, &f->rewrites[i], projected);
  }
  fputs(f->num_rewrites ? "\n      ]" : "]", out);
  if (f->ops.known) {
    fputs(",\n      \"ops\": ", out);
    ompdp_ops_write_json(out, &f->ops);
  }
  if (projected)
    fprintf(out, ",\n      \"projected_time_saved_ns\": %" PRIu64, f->projected_saved_ns);
  /* Device memory held while unused: what its fix takes off the peak. */
  if (f->peak)
    fprintf(out, ",\n      \"peak_saved_bytes\": %" PRIu64, f->peak_saved_bytes);
  ompdp_json_put_spread(out, f); /* a merged report's: over the ranks */
  fputs("\n    }", out);
}

int ompdp_report_write_json(const ompdp_report_t *r, FILE *out) {
  char num[64];
  errno = 0;
  /* The version written is the one this code writes, whatever the model
   * says: the layout below is version OMPDP_REPORT_VERSION. */
  fprintf(out, "{\n  \"ompdp_report_version\": %d,\n", OMPDP_REPORT_VERSION);

  fputs("  \"program\": {\n    \"argv\": [", out);
  for (size_t i = 0; i < r->argc; ++i) {
    if (i)
      fputs(", ", out);
    ompdp_json_put_string(out, r->argv[i] ? r->argv[i] : "");
  }
  fputs("],\n    \"exit_status\": ", out);
  if (r->has_exit_status)
    fprintf(out, "%d", r->exit_status);
  else
    fputs("null", out);
  fprintf(out, ",\n    \"wall_time_ns\": %" PRIu64 "\n  },\n", r->wall_time_ns);
  ompdp_json_put_process(out, r); /* MPI: the rank, or a merged report's ranks */

  fputs("  \"summary\": {\n", out);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    fprintf(out, "    \"%s\": %" PRIu64 ",\n",
            ompdp_finding_kind_summary_key(k), r->counts[k]);
  ompdp_json_format_double(num, sizeof(num), r->predicted_speedup);
  fprintf(out, "    \"time_saved_ns\": %" PRIu64 ",\n", r->time_saved_ns);
  fprintf(out, "    \"predicted_speedup\": %s,\n", num);
  fprintf(out, "    \"excluded_time_ns\": %" PRIu64 "\n  },\n", r->excluded_time_ns);

  fprintf(out, "  \"observed\": {\n    \"transfers\": %" PRIu64 ",\n",
          r->num_transfers);
  fprintf(out, "    \"allocs\": %" PRIu64 ",\n", r->num_allocs);
  fprintf(out, "    \"deletes\": %" PRIu64 ",\n", r->num_deletes);
  fprintf(out, "    \"kernels\": %" PRIu64 ",\n", r->num_kernels);
  fprintf(out, "    \"bytes_transferred\": %" PRIu64 ",\n", r->bytes_transferred);
  fprintf(out, "    \"transfer_time_ns\": %" PRIu64 ",\n", r->transfer_time_ns);
  fprintf(out, "    \"hash_collisions\": %" PRIu64, r->hash_collisions);
  if (r->observed_ops.known) {
    fprintf(out, ",\n    \"kernel_time_ns\": %" PRIu64 ",\n    \"ops\": ", r->kernel_time_ns);
    ompdp_ops_write_json(out, &r->observed_ops);
  }
  fputs("\n  },\n", out);
  ompdp_json_put_memory(out, r); /* the peak of each device, what held it */
  /* Only when the report was priced for a device (--device). */
  if (r->projection) {
    fputs("  \"projection\": ", out);
    ompdp_projection_write_json(out, r->projection, "  ");
    fputs(",\n", out);
  }

  fprintf(out, "  \"partial\": %s,\n", r->partial ? "true" : "false");
  /* Only in a report recovered from a journal: readers that predate it
   * skip it, and every other report stays as it was. */
  if (r->recovered_reason) {
    fputs("  \"recovered\": {\"reason\": ", out);
    ompdp_json_put_string(out, r->recovered_reason);
    fprintf(out, ", \"flushed_at_ns\": %" PRIu64 ", \"events\": %" PRIu64 "%s},\n",
            r->recovered_flushed_at_ns, r->recovered_events,
            r->recovered_from_log ? ", \"source\": \"event_log\"" : "");
  }
  fputs("  \"warnings\": [", out);
  for (size_t i = 0; i < r->num_warnings; ++i) {
    fputs(i ? ",\n    " : "\n    ", out);
    ompdp_json_put_string(out, r->warnings[i] ? r->warnings[i] : "");
  }
  fputs(r->num_warnings ? "\n  ],\n" : "],\n", out);

  fputs("  \"findings\": [", out);
  for (size_t i = 0; i < r->num_findings; ++i) {
    fputs(i ? ",\n" : "\n", out);
    put_finding(out, &r->findings[i], r->projection != NULL, r->plan.present);
  }
  fputs(r->num_findings ? "\n  ]" : "]", out);
  if (r->timeline) {
    fputs(",\n  \"timeline\": ", out);
    if (ompdp_timeline_write_json(r, out))
      return -1;
  }
  ompdp_json_put_compile_commands(out, r);
  /* The runtime's input for the planner: `ompdp run` and `ompdp report`
   * plan the rewrites from it and drop it, so only the runtime writes it. */
  if (r->plan.present) {
    fputs(",\n", out);
    ompdp_plan_write_json(&r->plan, out);
    fputs("}\n", out);
  } else {
    fputs("\n}\n", out);
  }

  if (fflush(out) != 0 || ferror(out)) {
    if (errno == 0)
      errno = EIO;
    return -1;
  }
  return 0;
}
