/*===- test_read_in_place.c - the parts of a report read without a tree --*- C -*-===*\
|*
|* A report's findings and its timeline are read in place (json_scan.c),
|* one finding at a time and the timeline value by value, so that a long
|* run's report is read in memory proportional to it:
|*   - what is read is what jansson would read: a report written by the
|*     engine (with a full timeline) reads back and renders the same bytes,
|*     and a timeline whose members come in another order reads the same;
|*   - what is refused is refused in the same words, at the same line and
|*     column: syntax errors inside and after the parts read in place, a
|*     member twice, nesting past the limit;
|*   - a type error names the JSON path of the member
|*     ("(at findings[1].devices[1])").
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "check.h"
#include "report.h"
#include "timeline.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char err[512];

static int read_text(const char *text, ompdp_report_t *r) {
  err[0] = '\0';
  return ompdp_report_read_with_timeline(text, strlen(text), NULL, r, err, sizeof(err));
}

/* text is refused with a reason that holds want. */
static void bad(const char *text, const char *want) {
  ompdp_report_t r;
  CHECK(read_text(text, &r) == -1);
  CHECK(strchr(err, '\n') == NULL);
  if (!strstr(err, want)) {
    CHECK(!"reason as expected");
    fprintf(stderr, "  got: %s\n  want: %s\n", err, want);
  }
}

static char *render_json(const ompdp_report_t *r, size_t *len) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, len);
  if (!f || ompdp_report_write_json(r, f))
    abort();
  fclose(f);
  return buf;
}

#define HDR "{\"ompdp_report_version\": 2, \"program\": {\"argv\": [\"./p\"]}, \"summary\": {}, "
#define COLS                                                                                       \
  "\"columns\": [\"seq\", \"type\", \"device\", \"src_device\", \"thread\", \"start_ns\", "        \
  "\"dur_ns\", \"bytes\", \"findings\", \"related\"]"
#define F0 "{\"kind\": \"round_trip\", \"count\": 2, \"devices\": [0]}"
#define F1 "{\"kind\": \"teleport\", \"count\": 1}"
#define F2 "{\"kind\": \"duplicate_transfer\", \"count\": 1, \"devices\": [0, 1]}"
#define OPS                                                                                        \
  "\"ops\": [[0, \"h2d\", 0, 0, 0, 0, 10, 64, [0], []], [1, \"d2h\", 1, 1, 0, 20, 5, 8, [2], [0]]]"
#define OMITTED                                                                                    \
  "\"omitted\": {\"bin_ns\": 2.5, \"lanes\": [{\"device\": 0, \"type\": \"kernel\", \"count\": 3, " \
  "\"bytes\": 0, \"time_ns\": 9, \"bins\": [1, 2]}]}"
#define SCALARS                                                                                    \
  "\"version\": 1, \"kept\": \"all\", \"events\": 5, \"first_events\": 1000, \"per_finding\": 256, " \
  "\"host_device\": 4, \"threads\": 1"

static void test_in_place(void) {
  const char *in_order = HDR "\"findings\": [" F0 ", " F1 ", " F2 "],\n \"timeline\": {" SCALARS
                             ", " COLS ", " OPS ", " OMITTED "}}";
  /* Members of the timeline in another order, unknown ones, and findings
   * after the timeline: the same model. */
  const char *shuffled = HDR "\"timeline\": {" OMITTED ", \"future\": [{\"a\": [1, {}]}], " OPS
                             ", " COLS ", " SCALARS "},\n \"findings\": [" F0 ", " F1 ", " F2 "]}";
  ompdp_report_t a, b;
  CHECK(read_text(in_order, &a) == 0);
  if (err[0])
    fprintf(stderr, "  %s\n", err);
  CHECK(read_text(shuffled, &b) == 0);
  if (err[0])
    fprintf(stderr, "  %s\n", err);
  CHECK(a.num_findings == 2 && a.timeline && a.timeline->num_ops == 2 &&
        a.timeline->num_links == 3 && a.timeline->num_lanes == 1 && a.timeline->num_bins == 2);
  /* The finding of an unknown kind is left out; positions stay the file's. */
  CHECK(a.num_findings == 2 && a.findings[1].timeline_id == 2);
  CHECK(a.timeline && a.timeline->full && a.timeline->bin_ns == 2.5 && a.timeline->host_device == 4);
  size_t la, lb;
  char *ja = render_json(&a, &la), *jb = render_json(&b, &lb);
  CHECK(la == lb && !memcmp(ja, jb, la));
  /* What is written reads back to the same bytes. */
  ompdp_report_t c;
  CHECK(ompdp_report_read_with_timeline(ja, la, NULL, &c, err, sizeof(err)) == 0);
  size_t lc;
  char *jc = render_json(&c, &lc);
  CHECK(la == lc && !memcmp(ja, jc, la));
  free(ja);
  free(jb);
  free(jc);
  ompdp_report_free(&a);
  ompdp_report_free(&b);
  ompdp_report_free(&c);
}

static void test_refused(void) {
  /* Type errors name their path. */
  bad(HDR "\"findings\": [" F0 ", {\"kind\": \"round_trip\", \"count\": \"3\"}]}",
      "\"count\" must be a non-negative integer (at findings[1].count)");
  bad(HDR "\"findings\": [" F0 ", {\"kind\": \"round_trip\", \"devices\": [1, \"x\"]}]}",
      "(at findings[1].devices[1])");
  bad(HDR "\"findings\": [{\"kind\": \"round_trip\", \"rewrites\": [{\"kind\": \"remove_item\", "
          "\"edits\": [{\"file\": \"a.c\", \"line\": true}]}]}]}",
      "(at findings[0].rewrites[0].edits[0].line)");
  bad("{\"ompdp_report_version\": 2, \"program\": {\"argv\": [\"./p\", 3]}, \"summary\": {}, "
      "\"findings\": []}",
      "(at program.argv[1])");
  bad(HDR "\"findings\": [], \"observed\": {\"ops\": {\"h2d\": {\"bytes\": -1}}}}",
      "(at observed.ops.h2d.bytes)");
  bad(HDR "\"findings\": [{\"kind\": \"round_trip\", \"range\": {\"line\": 1}}]}",
      "a range has no \"column\" (at findings[0].range)");
  /* Syntax errors at the same line and column as before: inside the
   * findings, after them, inside and after the timeline. */
  bad(HDR "\"findings\": [" F0 ",\n {\"kind\": 01}]}", "invalid JSON at line 2, column 11: invalid number (leading zero)");
  bad(HDR "\"findings\": [" F0 "],\n \"partial\": tru}", "invalid JSON at line 2, column 13");
  bad(HDR "\"findings\": [],\n \"timeline\": {\"version\": [1 2]}}",
      "invalid JSON at line 2, column 29: unexpected '2' (expected ',' or ']')");
  bad(HDR "\"timeline\": {\"a\": \"\\u0000\"},\n \"findings\": []}", "\\u0000 is not allowed");
  bad(HDR "\"timeline\": null, \"findings\": [],\n \"partial\": true, \"partial\": false}",
      "invalid JSON at line 2, column 19: member \"partial\" appears twice");
  bad(HDR "\"findings\": [], \"findings\": []}", "member \"findings\" appears twice");
  bad(HDR "\"findings\": [], \"timeline\": null, \"timeline\": null}",
      "member \"timeline\" appears twice");
  bad(HDR "\"findings\": [" F0 "], \"timeline\": {" SCALARS ", \"version\": 1}}",
      "member \"version\" appears twice");
  bad(HDR "\"findings\": [{\"kind\": \"round_trip\", \"kind\": \"round_trip\"}]}", "appears twice");
  bad(HDR "\"findings\": [1]}", "array of objects (at findings[0])");
  bad(HDR "\"findings\": [" F0 ",]}", "invalid JSON");
  /* Timeline values. */
  bad(HDR "\"findings\": [], \"timeline\": {" SCALARS ", " COLS ", \"ops\": [[0, \"h2d\", 0, 0, 0, 0, "
          "10, 64, [0], []]], " OMITTED "}}",
      "timeline: ops[0] findings[0] names a finding, and the report has none");
  bad(HDR "\"findings\": [" F0 "], \"timeline\": {" SCALARS ", " COLS ", \"ops\": [[0, \"h2d\", 0, "
          "0, 0, 0, 10, 64, [0]]], " OMITTED "}}",
      "timeline: ops[0] must be an array of 10 values");
  bad(HDR "\"findings\": [" F0 "], \"timeline\": {" SCALARS ", " COLS ", \"ops\": [[0, \"h2d\", 0, "
          "0, 0, 0, 10.5, 64, [0], []]], " OMITTED "}}",
      "timeline: ops[0] must be an integer");
  bad(HDR "\"findings\": [], \"timeline\": {\"version\": 1, \"kept\": \"all\"}}",
      "timeline: \"events\" is missing");
  bad(HDR "\"findings\": [], \"timeline\": [1]}", "timeline: must be an object");
  /* Nesting far past the limit, inside the parts read in place. */
  size_t deep = 100000;
  char *d = malloc(deep * 2 + 256);
  for (int k = 0; k < 2; ++k) {
    size_t n = (size_t)sprintf(d, "%s\"%s\": [", HDR, k ? "findings" : "timeline");
    memset(d + n, '[', deep);
    memset(d + n + deep, ']', deep);
    strcpy(d + n + 2 * deep, k ? "]}" : "], \"findings\": []}");
    bad(d, "nesting deeper than the parser allows");
  }
  free(d);
}

int main(void) {
  test_in_place();
  test_refused();
  return CHECK_DONE();
}
