/*===- report_sarif.c - the report for editors and code scanning ----------===*\
|*
|* Renders the model as a SARIF 2.1.0 log (OASIS Static Analysis Results
|* Interchange Format): one run of the tool "ompdp", one rule per finding
|* kind (OMPDP_FINDING_KIND / OMPDP_FINDING_RULE), one result per finding
|* with its location (the map item when the compiler recorded it, else the
|* construct), the operation it repeats as a related location, its numbers
|* as properties, and its rewrites as fixes (artifactChanges of deleted
|* regions and inserted text). Warnings of the report become tool execution
|* notifications. Columns are the compiler's byte columns, which equal
|* code points on ASCII lines.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* gmtime_r */
#include "report.h"
#include "cost_model.h" /* projections */
#include "process.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>

/* RFC 3986: everything but the unreserved characters and '/' is
 * percent-encoded, so any path gives a valid URI reference. */
static void put_path_uri(FILE *out, const char *path) {
  static const char Hex[] = "0123456789ABCDEF";
  fputc('"', out);
  if (path[0] == '/')
    fputs("file://", out);
  for (const unsigned char *p = (const unsigned char *)path; *p; ++p) {
    unsigned char c = *p;
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
        c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      fputc(c, out);
    else
      fprintf(out, "%%%c%c", Hex[c >> 4], Hex[c & 15]);
  }
  fputc('"', out);
}

/* A relative path is relative to the source root of the run (the place
 * the program was built), which SARIF names with a uriBaseId. */
static void put_artifact(FILE *out, const char *file) {
  fputs("{\"uri\": ", out);
  put_path_uri(out, file);
  if (file[0] != '/')
    fputs(", \"uriBaseId\": \"%SRCROOT%\"", out);
  fputc('}', out);
}

static void put_region(FILE *out, const ompdp_range_t *r) {
  fprintf(out,
          "{\"startLine\": %" PRIu32 ", \"startColumn\": %" PRIu32 ", \"endLine\": %" PRIu32
          ", \"endColumn\": %" PRIu32,
          r->line, r->column, r->end_line, r->end_column);
  if (r->offset >= 0 && r->end_offset >= r->offset)
    fprintf(out, ", \"byteOffset\": %" PRId64 ", \"byteLength\": %" PRId64, r->offset,
            r->end_offset - r->offset);
  fputc('}', out);
}

/* A location's region: the map item's range when known, else the
 * construct's line (and column). */
static void put_physical(FILE *out, const ompdp_loc_t *l, const ompdp_range_t *r) {
  fputs("{\"artifactLocation\": ", out);
  put_artifact(out, l->file);
  if (r && r->line) {
    fputs(", \"region\": ", out);
    put_region(out, r);
  } else if (l->line) {
    fprintf(out, ", \"region\": {\"startLine\": %" PRIu32, l->line);
    if (l->column)
      fprintf(out, ", \"startColumn\": %" PRIu32, l->column);
    fputc('}', out);
  }
  fputc('}', out);
}

static void put_message(FILE *out, const char *text) {
  fputs("{\"text\": ", out);
  ompdp_json_put_string(out, text && *text ? text : "-");
  fputc('}', out);
}

/* "Round trips of `b` (implicit map(tofrom: b)): 3 avoidable, 3.0 KiB,
 * 1.2 us to save. <suggestion>" */
static void put_result_message(FILE *out, const ompdp_finding_t *f,
                               const ompdp_projection_t *pr) {
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF], b3[OMPDP_UNIT_BUF], head[512];
  size_t n = (size_t)snprintf(head, sizeof(head), "%s", ompdp_finding_kind_title(f->kind));
  if (f->variable && n < sizeof(head))
    n += (size_t)snprintf(head + n, sizeof(head) - n, " of `%s`", f->variable);
  if ((f->clause || f->call) && n < sizeof(head))
    n += (size_t)snprintf(head + n, sizeof(head) - n, " (%s)", f->clause ? f->clause : f->call);
  if (n < sizeof(head) && !ompdp_verdict_saves(f->verdict))
    n += (size_t)snprintf(head + n, sizeof(head) - n, ": %" PRIu64 " repeated, %s, no saving (%s).",
                          f->count, ompdp_format_bytes(b1, f->bytes),
                          ompdp_verdict_json(f->verdict));
  else if (n < sizeof(head) && f->peak) /* memory held while unused: a peak, no time */
    n += (size_t)snprintf(head + n, sizeof(head) - n,
                          ": %" PRIu64 " allocation%s, %s, the device's peak %s lower.", f->count,
                          f->count == 1 ? "" : "s", ompdp_format_bytes(b1, f->bytes),
                          ompdp_format_bytes(b2, f->peak_saved_bytes));
  else if (n < sizeof(head))
    n += (size_t)snprintf(head + n, sizeof(head) - n, ": %" PRIu64 " avoidable, %s, %s to save.",
                          f->count, ompdp_format_bytes(b1, f->bytes),
                          ompdp_format_time(b2, f->time_saved_ns));
  if (pr && n < sizeof(head))
    snprintf(head + n, sizeof(head) - n, " Projected for %s: %s to save.", pr->device,
             ompdp_format_time(b3, f->projected_saved_ns));
  fputs("{\"text\": ", out);
  if (!f->suggestion) {
    ompdp_json_put_string(out, head);
  } else {
    size_t hl = strlen(head), sl = strlen(f->suggestion);
    char buf[2048];
    if (hl + 1 + sl < sizeof(buf)) {
      memcpy(buf, head, hl);
      buf[hl] = ' ';
      memcpy(buf + hl + 1, f->suggestion, sl + 1);
      ompdp_json_put_string(out, buf);
    } else {
      ompdp_json_put_string(out, head);
    }
  }
  fputc('}', out);
}

static void put_fix(FILE *out, const ompdp_rewrite_t *rw, const ompdp_projection_t *pr) {
  char b1[OMPDP_UNIT_BUF], b2[OMPDP_UNIT_BUF], b3[OMPDP_UNIT_BUF], desc[2048], proj[160] = "";
  if (pr)
    snprintf(proj, sizeof(proj), "; projected for %s: saves %s%s", pr->device,
             rw->lower_bound ? "at least " : "", ompdp_format_time(b3, rw->projected_saved_ns));
  snprintf(desc, sizeof(desc),
           "%s (saves %s%s: %" PRIu64 " transfer(s) of %s, %" PRIu64 " allocation(s)%s)%s%s",
           rw->description ? rw->description : ompdp_rewrite_kind_description(rw->kind),
           rw->lower_bound ? "at least " : "", ompdp_format_time(b1, rw->time_saved_ns),
           rw->transfers_removed,
           ompdp_format_bytes(b2, rw->bytes_removed), rw->allocs_removed, proj,
           rw->assumption ? "; assumes " : "", rw->assumption ? rw->assumption : "");
  fputs("{\"description\": ", out);
  put_message(out, desc);
  fputs(", \"artifactChanges\": [", out);
  /* One artifactChange per file, in the order the files first appear. */
  int first_change = 1;
  for (size_t i = 0; i < rw->num_edits; ++i) {
    const ompdp_edit_t *e = &rw->edits[i];
    int seen = 0;
    for (size_t j = 0; j < i && !seen; ++j)
      seen = !strcmp(rw->edits[j].file, e->file);
    if (seen)
      continue;
    fputs(first_change ? "" : ", ", out);
    first_change = 0;
    fputs("{\"artifactLocation\": ", out);
    put_artifact(out, e->file);
    fputs(", \"replacements\": [", out);
    int first = 1;
    for (size_t j = i; j < rw->num_edits; ++j) {
      const ompdp_edit_t *x = &rw->edits[j];
      if (strcmp(x->file, e->file))
        continue;
      fputs(first ? "{\"deletedRegion\": " : ", {\"deletedRegion\": ", out);
      first = 0;
      put_region(out, &x->range);
      if (x->replacement && *x->replacement) {
        fputs(", \"insertedContent\": {\"text\": ", out);
        ompdp_json_put_string(out, x->replacement);
        fputc('}', out);
      }
      fputc('}', out);
    }
    fputs("]}", out);
  }
  fputs("], \"properties\": {\"kind\": ", out);
  ompdp_json_put_string(out, ompdp_rewrite_kind_json(rw->kind));
  fprintf(out,
          ", \"time_saved_ns\": %" PRIu64 ", \"transfers_removed\": %" PRIu64
          ", \"allocs_removed\": %" PRIu64 ", \"bytes_removed\": %" PRIu64 "%s",
          rw->time_saved_ns, rw->transfers_removed, rw->allocs_removed, rw->bytes_removed,
          rw->lower_bound ? ", \"lower_bound\": true" : "");
  if (pr)
    fprintf(out, ", \"projected_time_saved_ns\": %" PRIu64, rw->projected_saved_ns);
  fputs("}}", out);
}

/* SARIF requires the fixes of a result to be distinct: a rewrite that
 * repeats an earlier one of the same finding is left out. */
static int repeats_earlier(const ompdp_finding_t *f, size_t i) {
  for (size_t j = 0; j < i; ++j)
    if (ompdp_rewrite_same_edits(&f->rewrites[j], &f->rewrites[i]))
      return 1;
  return 0;
}

static void put_result(FILE *out, const ompdp_finding_t *f, const ompdp_projection_t *pr) {
  fputs("        {\n          \"ruleId\": ", out);
  ompdp_json_put_string(out, ompdp_finding_kind_json(f->kind));
  /* A finding that is no saving (necessary, coincidence, repeated
   * computation) is a note: code scanning lists it without failing a check. */
  fprintf(out, ",\n          \"ruleIndex\": %d,\n          \"level\": \"%s\",\n",
          (int)f->kind, ompdp_verdict_level(f->verdict));
  fputs("          \"message\": ", out);
  put_result_message(out, f, pr);
  if (f->loc.file) {
    fputs(",\n          \"locations\": [{\"physicalLocation\": ", out);
    put_physical(out, &f->loc, f->range.line ? &f->range : NULL);
    if (f->loc.function) {
      fputs(", \"logicalLocations\": [{\"name\": ", out);
      ompdp_json_put_string(out, f->loc.function);
      fputs(", \"kind\": \"function\"}]", out);
    }
    fputs("}]", out);
  }
  if (f->related.file) {
    fputs(",\n          \"relatedLocations\": [{\"id\": 1, \"physicalLocation\": ", out);
    put_physical(out, &f->related, NULL);
    fputs(", \"message\": ", out);
    put_message(out, ompdp_finding_related_note(f));
    fputs("}]", out);
  }
  if (f->region_id) {
    /* Stable across runs and edits elsewhere in the file: the construct's
     * region ID (a hash of file:line:col:kind) and the item. */
    fprintf(out,
            ",\n          \"partialFingerprints\": {\"ompdpSite/v1\": \"%s:%016" PRIx64
            ":%" PRId32 "\"}",
            ompdp_finding_kind_json(f->kind), f->region_id, f->item);
  }
  fprintf(out,
          ",\n          \"properties\": {\"count\": %" PRIu64 ", \"bytes\": %" PRIu64
          ", \"time_ns\": %" PRIu64 ", \"time_saved_ns\": %" PRIu64 ", \"devices\": [",
          f->count, f->bytes, f->time_ns, f->time_saved_ns);
  for (size_t i = 0; i < f->num_devices; ++i)
    fprintf(out, "%s%d", i ? ", " : "", f->devices[i]);
  fputs("]", out);
  if (f->peak)
    fprintf(out, ", \"peakSavedBytes\": %" PRIu64, f->peak_saved_bytes);
  if (f->variable) {
    fputs(", \"variable\": ", out);
    ompdp_json_put_string(out, f->variable);
  }
  if (f->clause) {
    fputs(", \"clause\": ", out);
    ompdp_json_put_string(out, f->clause);
  }
  if (f->call) {
    fputs(", \"call\": ", out);
    ompdp_json_put_string(out, f->call);
  }
  if (f->verdict != OMPDP_V_NONE) {
    fputs(", \"verdict\": ", out);
    ompdp_json_put_string(out, ompdp_verdict_json(f->verdict));
  }
  if (pr)
    fprintf(out, ", \"projected_time_saved_ns\": %" PRIu64, f->projected_saved_ns);
  ompdp_sarif_put_spread(out, f); /* a merged report's: over the ranks */
  fputc('}', out);
  int any = 0;
  for (size_t i = 0; i < f->num_rewrites; ++i) {
    if (repeats_earlier(f, i) || !f->rewrites[i].num_edits)
      continue;
    fputs(any ? ",\n            " : ",\n          \"fixes\": [\n            ", out);
    any = 1;
    put_fix(out, &f->rewrites[i], pr);
  }
  if (any)
    fputs("\n          ]", out);
  fputs("\n        }", out);
}

static void put_rules(FILE *out) {
  fputs("          \"rules\": [", out);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k) {
    fputs(k ? ",\n            {\"id\": " : "\n            {\"id\": ", out);
    ompdp_json_put_string(out, ompdp_finding_kind_json(k));
    fputs(", \"name\": ", out);
    ompdp_json_put_string(out, ompdp_finding_kind_rule_name(k));
    fputs(", \"shortDescription\": ", out);
    put_message(out, ompdp_finding_kind_title(k));
    fputs(", \"fullDescription\": ", out);
    put_message(out, ompdp_finding_kind_explanation(k));
    fputs(", \"help\": ", out);
    put_message(out, ompdp_finding_kind_help(k));
    fputs(", \"defaultConfiguration\": {\"level\": \"warning\"}, \"properties\": "
          "{\"tags\": [\"performance\", \"openmp\"], \"warningGroup\": ",
          out);
    ompdp_json_put_string(out, ompdp_finding_kind_warning_group(k));
    fputs("}}", out);
  }
  fputs("\n          ]\n", out);
}

#ifndef OMPDP_VERSION_STRING
#define OMPDP_VERSION_STRING "unknown"
#endif

int ompdp_report_write_sarif_ompdp(const ompdp_report_t *r, FILE *out) {
  return ompdp_report_write_sarif(r, out, OMPDP_VERSION_STRING);
}

int ompdp_report_write_sarif(const ompdp_report_t *r, FILE *out, const char *tool_version) {
  errno = 0;
  fputs("{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n"
        "  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": {\n"
        "        \"driver\": {\n          \"name\": \"ompdp\",\n",
        out);
  if (tool_version) {
    fputs("          \"version\": ", out);
    ompdp_json_put_string(out, tool_version);
    fputs(",\n", out);
  }
  put_rules(out);
  fputs("        }\n      },\n      \"invocations\": [{\"executionSuccessful\": true", out);
  if (r->argc) {
    fputs(", \"arguments\": [", out);
    for (size_t i = 0; i < r->argc; ++i) {
      fputs(i ? ", " : "", out);
      ompdp_json_put_string(out, r->argv[i] ? r->argv[i] : "");
    }
    fputc(']', out);
  }
  if (r->has_exit_status)
    fprintf(out, ", \"exitCode\": %d", r->exit_status);
  ompdp_sarif_put_invocation_process(out, r); /* MPI: machine, processId */
  if (r->num_warnings || r->partial || r->recovered_reason) {
    fputs(", \"toolExecutionNotifications\": [", out);
    size_t n = 0;
    /* First, and an error: the run checked nothing (report.h). */
    const char *no_device = ompdp_report_no_device(r);
    if (no_device) {
      fputs("{\"level\": \"error\", \"message\": ", out);
      put_message(out, no_device);
      fputc('}', out);
      n++;
    }
    if (r->partial) {
      fputs("{\"level\": \"warning\", \"message\": ", out);
      put_message(out, "this report is incomplete");
      fputc('}', out);
      n++;
    }
    if (r->recovered_reason) {
      /* As the text report says it: the counts are those of the last
       * journal flush, not of the whole run. */
      char words[256], text[1024];
      snprintf(text, sizeof(text), "%s: %s",
               ompdp_report_recovered_words(r, words, sizeof(words)), r->recovered_reason);
      fputs(n ? ", {\"level\": \"warning\", \"message\": "
              : "{\"level\": \"warning\", \"message\": ",
            out);
      put_message(out, text);
      fputc('}', out);
      n++;
    }
    for (size_t i = 0; i < r->num_warnings; ++i, ++n) {
      if (r->warnings[i] == no_device) {
        --n;
        continue;
      }
      fputs(n ? ", {\"level\": \"warning\", \"message\": " : "{\"level\": \"warning\", \"message\": ",
            out);
      put_message(out, r->warnings[i]);
      fputc('}', out);
    }
    fputc(']', out);
  }
  fputs("}],\n      \"columnKind\": \"unicodeCodePoints\",\n", out);
  fputs("      \"properties\": {", out);
  for (int k = 0; k < OMPDP_FK_COUNT; ++k)
    fprintf(out, "\"%s\": %" PRIu64 ", ", ompdp_finding_kind_summary_key(k), r->counts[k]);
  fprintf(out,
          "\"time_saved_ns\": %" PRIu64 ", \"excluded_time_ns\": %" PRIu64
          ", \"wall_time_ns\": %" PRIu64 ", \"transfers\": %" PRIu64
          ", \"allocs\": %" PRIu64 ", \"kernels\": %" PRIu64 ", \"partial\": %s",
          r->time_saved_ns, r->excluded_time_ns, r->wall_time_ns, r->num_transfers, r->num_allocs,
          r->num_kernels, r->partial ? "true" : "false");
  if (r->projection) { /* the run priced for a device */
    fputs(", \"projection\": ", out);
    ompdp_projection_write_json(out, r->projection, "      ");
  }
  ompdp_sarif_put_run_process(out, r); /* MPI: the rank, or the ranks */
  fputs("},\n", out);
  fputs("      \"results\": [", out);
  for (size_t i = 0; i < r->num_findings; ++i) {
    fputs(i ? ",\n" : "\n", out);
    put_result(out, &r->findings[i], r->projection);
  }
  fputs(r->num_findings ? "\n      ]\n    }\n  ]\n}\n" : "]\n    }\n  ]\n}\n", out);
  if (fflush(out) != 0 || ferror(out)) {
    if (errno == 0)
      errno = EIO;
    return -1;
  }
  return 0;
}
