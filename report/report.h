/*===- report.h - the in-memory report model ----------------------*- C -*-===*\
|*
|* One model of an ompdp report. The runtime fills it from the event log at
|* exit; the driver fills it from a saved JSON report. Every output format
|* (text, JSON, SARIF) is rendered from this model and nothing else, so the
|* formats cannot disagree. All strings are owned by the report (malloc'd
|* copies).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REPORT_H
#define OMPDP_REPORT_H

#include "ompdp/format.h"
#include "ops.h" /* operations by class, projections (report/) */
#include "region_view.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A source location. Any string may be NULL when unknown; line/column 0
 * means unknown. */
typedef struct ompdp_loc {
  char *function;
  char *file;
  uint32_t line;
  uint32_t column;
} ompdp_loc_t;

/* A range of source text: from the first byte replaced to the first byte
 * after it (1-based lines and byte columns, as Clang counts them). An empty
 * range (end == start) is an insertion point. Byte offsets from the start of
 * the file are -1 when the compiler did not record them. */
typedef struct ompdp_range {
  uint32_t line, column;
  uint32_t end_line, end_column;
  int64_t offset, end_offset;
} ompdp_range_t;

/* One text edit: replace the range of file with replacement. original is
 * the text the range held when the program was compiled (as the compiler
 * recorded it, so it is compared ignoring white space, see
 * ompdp_text_matches); NULL when nothing is known about it. */
typedef struct ompdp_edit {
  char *file;
  ompdp_range_t range;
  char *original;
  char *replacement; /* never NULL after construction; "" deletes */
  /* XXH3-64 of the whole file as the compiler read it (0: unknown): a file
   * that no longer hashes to it changed since the program was built. */
  uint64_t file_hash;
} ompdp_edit_t;

/* A concrete source change that removes (part of) a finding's waste. The
 * edits belong together: apply all of them or none. The predicted effect is
 * what the run saw happen and the rewrite would have avoided. */
typedef struct ompdp_rewrite {
  ompdp_rewrite_kind_t kind;
  char *description;       /* what it does, in words */
  char *assumption;        /* what it relies on that ompdp could not check; NULL: nothing */
  uint64_t time_saved_ns;  /* union of the intervals of the operations it avoids */
  uint64_t transfers_removed;
  uint64_t allocs_removed;
  uint64_t bytes_removed;  /* bytes of the transfers removed */
  int lower_bound;         /* the savings are at least these: inserted updates that
                              run only under a condition are counted as always run */
  ompdp_ops_t ops;         /* the operations it removes, by class */
  ompdp_ops_t ops_added;   /* ... and those it adds (updates it inserts) */
  uint64_t projected_saved_ns; /* with a projection: its saving there */
  /* A rewrite that shortens how long device memory is held (shrink_lifetime):
   * peak is 1 and peak_saved_bytes how much lower the device's peak of
   * memory in use becomes; it claims no time. */
  int peak;
  uint64_t peak_saved_bytes;
  /* The planner's own mark (not written): its prediction is already the
   * sum over the instances of a template construct. */
  int instances_summed;
  ompdp_edit_t *edits;
  size_t num_edits;
} ompdp_rewrite_t;

typedef struct ompdp_finding {
  ompdp_finding_kind_t kind;
  uint64_t count;         /* avoidable operations (Table 1 semantics) */
  uint64_t bytes;         /* bytes moved by the avoidable operations */
  uint64_t time_ns;       /* summed duration of the avoidable operations */
  uint64_t time_saved_ns; /* union of their intervals */
  int *devices;           /* device numbers involved, ascending */
  size_t num_devices;
  ompdp_loc_t loc;        /* where the avoidable operations are issued */
  ompdp_loc_t related;    /* the operation they repeat/undo, if any */
  char *variable;         /* NULL until the compiler plugin provides it */
  char *clause;           /* NULL until the compiler plugin provides it */
  char *call;             /* a device memory routine's call as written (the
                             plugin records it), instead of a clause; NULL
                             for a construct */
  char *suggestion;       /* the fix, in words */
  /* Why the planner made no rewrite for it (sentences joined by "; ",
   * malloc'd; NULL when none was said): not written as such, the verdicts
   * end the suggestion of an advice that has no rewrite with it
   * ("No rewrite: <why>.", analysis/verdict.c). */
  char *no_rewrite;
  /* Duplicate transfers only: repeats that re-send the same host buffer
   * versus other host buffers that happen to hold the same bytes. */
  uint64_t same_buffer;
  uint64_t other_buffer;
  /* What the finding is worth (OMPDP_VERDICT; analysis/verdict.c): decided
   * after the rewrites are planned, OMPDP_V_NONE before. */
  ompdp_verdict_t verdict;
  /* From the compiler's region table (0 / -1 / zero range when unknown):
   * the construct's stable region ID, the map item's index in it, and the
   * item's source range in loc.file. */
  uint64_t region_id;
  int32_t item;
  ompdp_range_t range;
  ompdp_rewrite_t *rewrites;
  size_t num_rewrites;
  ompdp_ops_t ops;             /* the avoidable operations, by class */
  uint64_t projected_saved_ns; /* with a projection: the saving there */
  /* A finding about device memory held while unused (early_alloc,
   * late_release: report/memory.h): peak is 1, and peak_saved_bytes is how
   * much lower its fix would make its device's peak (0: the peak is
   * reached at another moment too). Such a finding claims no time. */
  int peak;
  uint64_t peak_saved_bytes;
  /* The region handle (rt/regions.h) of the operations the finding counts,
   * 0 when unknown: with item, the site of the report's plan the rewrites
   * look up. Written ("region_handle") only with the plan. */
  uint32_t rt_region;
  /* A merged report's finding: which ranks have it, and its spread over
   * them (report/process.h); NULL otherwise. */
  struct ompdp_spread *spread;
  /* Names the finding to the timeline's links (report/timeline.h): the
   * engine's index of it in the runtime, its position in the file when
   * read back. Never written. */
  uint32_t timeline_id;
} ompdp_finding_t;

/* The rewrite planner's input, as the runtime writes it for the driver
 * (OMPDP_PLAN_SITE_FIELD in OmpdpFormat.inc; docs/report-format.md). */
typedef struct ompdp_plan_site {
#define OMPDP_PLAN_SITE_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_plan_site_t;

/* A buffer (a host address mapped to one device): its device and the sites
 * that operated on it, as index + 1 in the plan's sites. */
#define OMPDP_PLAN_BUF_SITES 16
typedef struct ompdp_plan_buf {
  int32_t device;
  int32_t num_sites; /* -1: more than OMPDP_PLAN_BUF_SITES, no longer followed */
  uint32_t sites[OMPDP_PLAN_BUF_SITES];
} ompdp_plan_buf_t;

/* A construct's region-table records: head for the region alone, one per
 * map item (each with the region's fields too). The plan owns the strings
 * and host accesses they point to. */
typedef struct ompdp_plan_region {
  uint32_t handle; /* the run's region handle, as sites name it */
  ompdp_region_info_t head;
  ompdp_region_info_t *items; /* head.num_items */
} ompdp_plan_region_t;

typedef struct ompdp_plan {
  int present;       /* the run gathered the planner's input */
  int32_t host_device;
  uint64_t tick_mult; /* durations: ns = ticks * tick_mult >> 32; 0: ns */
  ompdp_plan_site_t *sites;
  size_t num_sites;
  ompdp_plan_buf_t *bufs;
  size_t num_bufs;
  ompdp_plan_region_t *regions; /* by handle, ascending */
  size_t num_regions;
} ompdp_plan_t;

/* Frees what the plan owns and empties it. */
void ompdp_plan_free(ompdp_plan_t *p);
void ompdp_plan_region_free(ompdp_plan_region_t *g);
/* Deep copy of src (a describe answer, pointing into the caller's tables)
 * into *dst, owning its strings and host accesses; 0, or -1 when out of
 * memory (dst then owns what was copied). */
int ompdp_region_info_copy(ompdp_region_info_t *dst, const ompdp_region_info_t *src);
void ompdp_region_info_free(ompdp_region_info_t *it);
/* The plan's region of that handle, or NULL. */
ompdp_plan_region_t *ompdp_plan_region_find(const ompdp_plan_t *p, uint32_t handle);
/* A describe function over the plan's regions (ompdp_describe_fn with the
 * plan): 0 and *out, or -1 for an unknown handle or item. */
int ompdp_plan_describe(const ompdp_plan_t *p, uint32_t handle, int item,
                        ompdp_region_info_t *out);
/* The indices of p's sites in (region, item) order (malloc'd; NULL when out
 * of memory), and the site of (region, item) found through them: its index
 * + 1, or 0 when p has none. */
uint32_t *ompdp_plan_site_order(const ompdp_plan_t *p);
uint32_t ompdp_plan_site_find(const ompdp_plan_t *p, const uint32_t *order, uint32_t region,
                              int item);
/* The "plan" member (plan_json.c), ending in a newline, no comma. */
void ompdp_plan_write_json(const ompdp_plan_t *p, FILE *out);

/* How the compiler built a file that rewrites edit (from the region table,
 * recorded by the plugin): `ompdp fix --apply` runs it again, as a syntax
 * check, on every file it changed (docs/fixes.md). */
typedef struct ompdp_compile_command {
  char *file;       /* the edited file, as edits name it */
  char *directory;  /* working directory of the compile */
  char **arguments; /* the compiler, then its arguments */
  size_t num_arguments;
} ompdp_compile_command_t;

/* The largest exit status a report holds: 128 + the largest signal number
 * a shell reports (an exit code is 0..255). */
#define OMPDP_EXIT_STATUS_MAX (255 + 128)

typedef struct ompdp_report {
  int version;
  /* program */
  char **argv;
  size_t argc;
  int has_exit_status;
  int exit_status;  /* as the shell reports it: 128+N for signal N, so
                     * 0..OMPDP_EXIT_STATUS_MAX */
  uint64_t wall_time_ns;
  /* summary: counts by kind, Table 1 semantics */
  uint64_t counts[OMPDP_FK_COUNT];
  uint64_t time_saved_ns; /* union over the findings whose verdict saves */
  /* The saving of the findings whose verdict does not (necessary,
   * coincidence, repeated computation), taken out of time_saved_ns when the
   * verdicts were decided: the sum of their own unions. */
  uint64_t excluded_time_ns;
  double predicted_speedup;
  /* what was observed */
  uint64_t num_transfers;
  uint64_t num_allocs;
  uint64_t num_deletes;
  uint64_t num_kernels;
  uint64_t bytes_transferred;
  uint64_t transfer_time_ns;
  uint64_t hash_collisions; /* only with the verify_hashes option */
  ompdp_ops_t observed_ops; /* every data operation, by class */
  uint64_t kernel_time_ns;  /* kernels, less the data operations inside them */
  /* Owned; NULL unless the report was priced for a device (cost_model.h). */
  ompdp_projection_t *projection;
  int partial;              /* 1 if the report is known to be incomplete */
  /* Recovered from the journal of a process that ended without writing its
   * report (rt/journal.c): why, when the journal was flushed (CLOCK_REALTIME
   * ns) and how many events it covers. recovered_reason NULL: not recovered. */
  char *recovered_reason;
  uint64_t recovered_flushed_at_ns;
  uint64_t recovered_events;
  /* 1: rebuilt by `ompdp run` from the event log the runtime kept in
   * shared memory (driver/recover.c); flushed_at_ns is then when the
   * process ended, events every complete one. 0: from a journal. */
  int recovered_from_log;
  char **warnings;          /* things the reader must know (lost callbacks...) */
  size_t num_warnings;
  ompdp_finding_t *findings;
  size_t num_findings;
  /* The MPI rank that wrote the report, or the ranks a merged report holds
   * (report/process.h); NULL when not under a launcher / not merged. */
  struct ompdp_process *process;
  struct ompdp_merge_info *merge;
  /* The operations of the run (report/timeline.h); NULL: none. Owned. */
  struct ompdp_timeline *timeline;
  /* Device memory in use: per device (and rank, merged), its peak and what
   * held it (report/memory.h). Owned. */
  struct ompdp_device_memory *device_memory;
  size_t num_device_memory;
  /* The planner's input (present only in the runtime's own reports): the
   * driver plans the rewrites from it, then drops it. */
  ompdp_plan_t plan;

  /* Per edited file, the compiles that read it ("compile_commands"). */
  ompdp_compile_command_t *compile_commands;
  size_t num_compile_commands;
} ompdp_report_t;

/* Lifetime. */
void ompdp_report_init(ompdp_report_t *r);
void ompdp_report_free(ompdp_report_t *r);
/* Frees what a finding or location owns and zeroes it. */
void ompdp_finding_free(ompdp_finding_t *f);
void ompdp_loc_free(ompdp_loc_t *l);
/* Appends a zeroed finding (item -1) and returns it, or NULL when out of
 * memory. */
ompdp_finding_t *ompdp_report_add_finding(ompdp_report_t *r, ompdp_finding_kind_t k);
/* Appends a zeroed rewrite to f / a zeroed edit (offsets -1) to rw; NULL
 * when out of memory. */
ompdp_rewrite_t *ompdp_finding_add_rewrite(ompdp_finding_t *f, ompdp_rewrite_kind_t k);
ompdp_edit_t *ompdp_rewrite_add_edit(ompdp_rewrite_t *rw);
void ompdp_rewrite_free(ompdp_rewrite_t *rw);
/* Deep copy of src into dst (whose contents are replaced, not freed).
 * Returns 0, or -1 when out of memory (dst then owns what was copied). */
int ompdp_rewrite_copy(ompdp_rewrite_t *dst, const ompdp_rewrite_t *src);
void ompdp_edit_free(ompdp_edit_t *e);
/* 1 if the two rewrites make exactly the same edits (several findings may
 * share one rewrite: consumers apply it once). */
int ompdp_rewrite_same_edits(const ompdp_rewrite_t *a, const ompdp_rewrite_t *b);
int ompdp_report_add_warning(ompdp_report_t *r, const char *msg);
/* The same, as the first warning. */
int ompdp_report_add_warning_first(ompdp_report_t *r, const char *msg);
/* How the warning begins that says a run had no device activity (the
 * program's target regions ran on the host: nothing was checked). Every
 * format shows it at the top of the report. */
#define OMPDP_NO_DEVICE_MARK "no device activity: "
/* That warning, or NULL: one beginning with the mark, or with a merged
 * report's "rank(s) ...: " before it. */
const char *ompdp_report_no_device(const ompdp_report_t *r);
/* Adds the compile of file (its working directory, the compiler and its
 * arguments one per line) unless the report has it. Returns 0, or -1 when
 * out of memory (compile_commands.c). */
int ompdp_report_add_compile_command(ompdp_report_t *r, const char *file, const char *directory,
                                     const char *args_lines);
void ompdp_compile_commands_free(ompdp_report_t *r);
/* `,\n  "compile_commands": [...]` when the report has any. */
void ompdp_json_put_compile_commands(FILE *out, const ompdp_report_t *r);

/* Sorts findings by kind, then those whose verdict saves before those whose
 * verdict saves nothing, then time saved (descending), then location. */
void ompdp_report_sort(ompdp_report_t *r);
/* How a recovered report (recovered_reason set) came to be, in the words
 * the text report, SARIF and a merge say it (without "partial: " and the
 * reason that follows): rebuilt from the event log, or recovered from the
 * journal, with the events it covers and until when. Into buf[size];
 * returns buf. */
const char *ompdp_report_recovered_words(const ompdp_report_t *r, char *buf, size_t size);
/* Recomputes predicted_speedup from wall_time_ns and time_saved_ns. */
void ompdp_report_update_speedup(ompdp_report_t *r);

/* Names from OmpdpFormat.inc. */
const char *ompdp_finding_kind_json(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_summary_key(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_title(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_explanation(ompdp_finding_kind_t k);
/* The class of operation an older report's finding (one without "ops")
 * stands for (OMPDP_FINDING_KIND's OpClass; H2D for an unknown kind). */
ompdp_op_class_t ompdp_finding_kind_op_class(ompdp_finding_kind_t k);
/* The kind in words outside the report's sections (OMPDP_FINDING_TEXT):
 * what one finding is, the compiler warning's words after the item, one
 * avoidable operation (or several), the words before the related location
 * in the text report, and the SARIF related location's message. */
const char *ompdp_finding_kind_name(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_warning_text(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_noun(ompdp_finding_kind_t k, int plural);
const char *ompdp_finding_kind_related_at(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_related_note(ompdp_finding_kind_t k);
/* 1 when f's avoidable operations are all copies back to the host (a
 * duplicate transfer of bytes the host already had). */
int ompdp_finding_is_copy_back(const ompdp_finding_t *f);
/* The compiler warning's words for f itself: its kind's, or for a duplicate
 * copied back, words that say so (never "sends the device"). */
const char *ompdp_finding_warning_text(const ompdp_finding_t *f);
/* The words before f's related location in the text report, and its SARIF
 * related location's message: its kind's, or for a duplicate copied back,
 * where the same bytes first came back. */
const char *ompdp_finding_related_at(const ompdp_finding_t *f);
const char *ompdp_finding_related_note(const ompdp_finding_t *f);
/* Returns OMPDP_FK_COUNT when the name is unknown. */
ompdp_finding_kind_t ompdp_finding_kind_from_json(const char *name);
/* SARIF rule name and compiler warning group (OMPDP_FINDING_RULE). */
const char *ompdp_finding_kind_rule_name(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_warning_group(ompdp_finding_kind_t k);
const char *ompdp_finding_kind_help(ompdp_finding_kind_t k);
/* OMPDP_VERDICT names, what each means, and its SARIF level ("warning",
 * "note"); unknown names give OMPDP_V_COUNT. ompdp_verdict_saves: 1 when a
 * finding with it counts toward the time the fixes would save. */
const char *ompdp_verdict_json(ompdp_verdict_t v);
const char *ompdp_verdict_description(ompdp_verdict_t v);
const char *ompdp_verdict_level(ompdp_verdict_t v);
int ompdp_verdict_saves(ompdp_verdict_t v);
ompdp_verdict_t ompdp_verdict_from_json(const char *name);
/* The verdict a finding has without the run's facts (a report of an older
 * ompdp, the runtime's own, one rebuilt from a journal): fix when it
 * carries a rewrite, else advice, whose suggestion then says why there is
 * no rewrite (ompdp_finding_no_plan_reason) unless its words do. */
void ompdp_report_default_verdicts(ompdp_report_t *r);
/* Whether a suggestion says why ompdp made no rewrite ("No rewrite: ...",
 * or words of its own: "ompdp does not ...", "ompdp did not ..."). */
int ompdp_finding_says_why(const char *suggestion);
/* Ends f's suggestion with "No rewrite: <why>." (once). Returns 0, or -1
 * when out of memory. */
int ompdp_finding_add_no_rewrite(ompdp_finding_t *f, const char *why);
/* Why a finding of r has no rewrite when the report has no plan to make
 * one from: no region table (no plugin), a report rebuilt from what a
 * program that died left, or no facts of the run. */
const char *ompdp_finding_no_plan_reason(const ompdp_report_t *r, const ompdp_finding_t *f);
/* OMPDP_REWRITE_KIND names; unknown names give OMPDP_RK_OTHER. */
const char *ompdp_rewrite_kind_json(ompdp_rewrite_kind_t k);
const char *ompdp_rewrite_kind_description(ompdp_rewrite_kind_t k);
ompdp_rewrite_kind_t ompdp_rewrite_kind_from_json(const char *name);

/* 1 if text[0..len) holds original, comparing only the characters that are
 * not white space (space, tab, newline, carriage return, form feed, vertical
 * tab and the backslash of a line continuation): the compiler records
 * clauses with their white space collapsed, and a check must not fail on
 * indentation. */
int ompdp_text_matches(const char *text, size_t len, const char *original);

/* Rendering. Return 0, or -1 with errno set when the stream fails. */
int ompdp_report_write_text(const ompdp_report_t *r, FILE *out);
int ompdp_report_write_json(const ompdp_report_t *r, FILE *out);
/* SARIF 2.1.0 (report_sarif.c); tool_version goes into tool.driver.version
 * (NULL: left out). */
int ompdp_report_write_sarif(const ompdp_report_t *r, FILE *out,
                             const char *tool_version);
/* SARIF naming this build of ompdp (OMPDP_VERSION_STRING) as its tool: the
 * writer of report_formats.inc. */
int ompdp_report_write_sarif_ompdp(const ompdp_report_t *r, FILE *out);

/* Reading a JSON report. Returns 0, or -1 after writing a one-line reason
 * (without the "ompdp: " prefix) into err. */
int ompdp_report_read_json(const char *text, size_t len, ompdp_report_t *r,
                           char *err, size_t errlen);
int ompdp_report_read_json_file(const char *path, ompdp_report_t *r,
                                char *err, size_t errlen);

/* Reports are a few MiB at most; the cap on reading one only keeps a wrong
 * file from exhausting memory. */
#define OMPDP_REPORT_MAX_BYTES ((size_t)256 << 20)

/* Reads a whole file (a pipe too) of at most max bytes into a malloc'd
 * buffer, NUL-terminated; what names it in errors ("report", "journal").
 * Returns 0, or -1 with errno set after writing a one-line reason that
 * names the path into err (read_file.c). */
int ompdp_read_file_capped(const char *path, size_t max, const char *what, char **out,
                           size_t *out_len, char *err, size_t errlen);
/* The same for a regular file only (a source file a report names: never a
 * FIFO or a device, EINVAL; more than max bytes, EFBIG), with its status
 * as it was read in *st (NULL: not wanted). */
struct stat;
int ompdp_read_regular_file(const char *path, size_t max, const char *what, struct stat *st,
                            char **out, size_t *out_len, char *err, size_t errlen);

/* Names a finding's map item as the compiler recorded it (it, an item's
 * record): its region ID and the item's range (the clause's for an item
 * without one). The runtime calls this where it attributes the finding's
 * event; the plugin and `ompdp fix` check the source against both. */
static inline void ompdp_region_info_name_item(const ompdp_region_info_t *it,
                                               ompdp_finding_t *f) {
  f->region_id = it->id;
  if (it->item_line) {
    f->range.line = it->item_line;
    f->range.column = it->item_column;
    f->range.end_line = it->item_end_line;
    f->range.end_column = it->item_end_column;
  } else if (it->clause_line) {
    f->range.line = it->clause_line;
    f->range.column = it->clause_column;
    f->range.end_line = it->clause_end_line;
    f->range.end_column = it->clause_end_column;
  }
}

/* strdup that accepts NULL. */
char *ompdp_strdup(const char *s);
/* A one-line reason into err[errlen] (nothing when err is NULL or errlen
 * 0), as every reader of the library gives one. Returns -1: the failure it
 * explains. */
int ompdp_errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Helpers shared by the writers. A JSON string literal for s (null for
 * NULL), always valid JSON whatever the bytes (report_json.c). */
void ompdp_json_put_string(FILE *out, const char *s);
/* The length of the well-formed UTF-8 sequence that starts s[0..n) (n >=
 * 1): 1 for ASCII, 0 when the bytes there are not one (overlong forms,
 * surrogates and code points past U+10FFFF are invalid, RFC 3629). */
size_t ompdp_utf8_len(const unsigned char *s, size_t n);
/* A double as JSON into buf[size] (at least 32): in the C locale whatever
 * the program's, the shortest of 15 to 17 digits that reads back, null for
 * what JSON cannot hold. */
void ompdp_json_format_double(char *buf, size_t size, double d);
/* Human units with one decimal into buf (OMPDP_UNIT_BUF bytes):
 * "16.0 KiB", "8.9 us" (report_text.c). */
#define OMPDP_UNIT_BUF 32
const char *ompdp_format_bytes(char *buf, uint64_t bytes);
const char *ompdp_format_time(char *buf, uint64_t ns);
/* s with control characters escaped C-style (a name holding a newline
 * stays on its line of the text report). */
void ompdp_text_put_str(FILE *out, const char *s);

#endif /* OMPDP_REPORT_H */
