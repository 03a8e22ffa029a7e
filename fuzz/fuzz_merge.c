/*===- fuzz_merge.c - libFuzzer target: merging the ranks' reports --------===*\
|*
|* The input is up to eight reports separated by NUL bytes (which no JSON
|* holds), each read by the report reader, rank information included
|* (report/process_read.c). Every report it accepts is handed to the merge
|* (report/report_merge.c), which must accept it or refuse it with a
|* one-line reason, without a crash, a leak or undefined behaviour. A
|* merged report must render as text, JSON and SARIF, and its JSON must read
|* back as the same report. Reports that claim jobs of more than 4096 ranks
|* are left out: a merged report lists every rank, missing ones included,
|* and the fuzzer's memory limit is not the point.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* open_memstream, memchr */
#include "process.h"
#include "report.h"
#include "report_merge.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_REPORTS 8
#define MAX_RANKS 4096

static char *render(const ompdp_report_t *r, int (*write)(const ompdp_report_t *, FILE *),
                    size_t *len) {
  char *buf = NULL;
  size_t n = 0;
  FILE *f = open_memstream(&buf, &n);
  if (!f)
    abort();
  if (write(r, f))
    __builtin_trap(); /* a memory stream does not fail */
  fclose(f);
  *len = n;
  return buf;
}

static int write_sarif(const ompdp_report_t *r, FILE *f) {
  return ompdp_report_write_sarif(r, f, "fuzz");
}

static void one_line(const char *err) {
  if (!err[0] || strchr(err, '\n'))
    __builtin_trap(); /* every refusal is one line with a reason */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  ompdp_merger_t *m = ompdp_merger_create();
  if (!m)
    return 0;
  char err[1024];
  const char *p = (const char *)data, *end = p + size;
  for (int i = 0; i < MAX_REPORTS && p <= end; ++i) {
    const char *nul = memchr(p, '\0', (size_t)(end - p));
    size_t len = nul ? (size_t)(nul - p) : (size_t)(end - p);
    ompdp_report_t r;
    err[0] = '\0';
    if (ompdp_report_read_json(p, len, &r, err, sizeof(err)) == 0) {
      const ompdp_process_t *pr = r.process;
      if (!pr || (pr->rank < MAX_RANKS && pr->size < MAX_RANKS)) {
        char name[32];
        snprintf(name, sizeof(name), "report.%d.json", i);
        err[0] = '\0';
        if (ompdp_merger_add(m, &r, name, err, sizeof(err)))
          one_line(err);
      }
      ompdp_report_free(&r);
    } else {
      one_line(err);
    }
    if (!nul)
      break;
    p = nul + 1;
  }
  ompdp_report_t out;
  err[0] = '\0';
  if (ompdp_merger_finish(m, &out, err, sizeof(err)) == 0) {
    size_t l1, l2, l3, l4;
    char *json1 = render(&out, ompdp_report_write_json, &l1);
    char *text = render(&out, ompdp_report_write_text, &l3);
    char *sarif = render(&out, write_sarif, &l4);
    ompdp_report_t back;
    if (ompdp_report_read_json(json1, l1, &back, err, sizeof(err)) != 0)
      __builtin_trap(); /* what ompdp writes, ompdp must read */
    char *json2 = render(&back, ompdp_report_write_json, &l2);
    if (l1 != l2 || memcmp(json1, json2, l1) != 0)
      __builtin_trap(); /* the round trip lost or changed something */
    char line[256];
    ompdp_merge_summary_line(&out, line, sizeof(line));
    free(json1);
    free(json2);
    free(text);
    free(sarif);
    ompdp_report_free(&back);
    ompdp_report_free(&out);
  } else {
    one_line(err);
  }
  ompdp_merger_destroy(m);
  return 0;
}
