/*===- merge.c - `ompdp merge`: one report from the reports of the ranks ---===*\
|*
|* `mpirun -np 4 ompdp run --format=json -o report.%r.json -- ./prog` leaves
|* one report per rank; `ompdp merge -o merged.json report.*.json` makes
|* them one (report/report_merge.c): a waste that every rank has is one
|* finding with its total cost and its spread over the ranks, one that only
|* some ranks have says which. Journals (a rank killed before it wrote its
|* report, run by the runtime without `ompdp run`) are read too; a journal
|* given beside its own report is stale and left out. The reports are read
|* one at a time and folded in, so memory follows the findings, not the
|* number of ranks times the size of a report.
|*
|* The merged report is JSON by default, for `ompdp report`, `ompdp fix`
|* and the compiler plugin to read like any report; `ompdp report a.json
|* b.json ...` merges and renders in one step. Reports of different
|* programs, builds or runs are refused with one line and exit status 1.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "journal_format.h"
#include "report_merge.h"

#include <stdlib.h>
#include <string.h>

#define JOURNAL_SUFFIX ".journal"

/* 1 if paths[i] is X.journal and X is given too. */
static int stale_journal(char *const *paths, size_t n, size_t i) {
  size_t len = strlen(paths[i]), js = sizeof(JOURNAL_SUFFIX) - 1;
  if (len <= js || strcmp(paths[i] + len - js, JOURNAL_SUFFIX))
    return 0;
  for (size_t j = 0; j < n; ++j)
    if (j != i && strlen(paths[j]) == len - js && !strncmp(paths[j], paths[i], len - js))
      return 1;
  return 0;
}

int drv_merge_files(char *const *paths, size_t n, ompdp_report_t *out) {
  ompdp_report_init(out);
  ompdp_merger_t *m = ompdp_merger_create();
  if (!m) {
    drv_error("out of memory");
    return DRV_EXIT_FAILURE;
  }
  char err[1024];
  for (size_t i = 0; i < n; ++i) {
    if (stale_journal(paths, n, i)) {
      drv_error("%s is left out: the report beside it supersedes it", paths[i]);
      continue;
    }
    const char *path = strcmp(paths[i], "-") ? paths[i] : "/dev/stdin";
    ompdp_report_t r;
    if (ompdp_report_or_journal_read_file(path, NULL, &r, err, sizeof(err))) {
      drv_error("%s", err);
      ompdp_merger_destroy(m);
      return DRV_EXIT_FAILURE;
    }
    int rc = ompdp_merger_add(m, &r, paths[i], err, sizeof(err));
    ompdp_report_free(&r);
    if (rc) {
      drv_error("cannot merge: %s", err);
      ompdp_merger_destroy(m);
      return DRV_EXIT_FAILURE;
    }
  }
  int rc = ompdp_merger_finish(m, out, err, sizeof(err));
  ompdp_merger_destroy(m);
  if (rc) {
    drv_error("cannot merge: %s", err);
    return DRV_EXIT_FAILURE;
  }
  char line[512];
  if (ompdp_merge_summary_line(out, line, sizeof(line)))
    drv_error("%s", line);
  /* A rank whose `ompdp run` was killed (mpirun tearing the job down) may
   * have left its event log for `ompdp recover`: say so. */
  int missing = 0;
  for (size_t i = 0; out->merge && i < out->merge->num_ranks; ++i)
    missing |= out->merge->ranks[i].status == OMPDP_RANK_MISSING;
  if (missing)
    drv_orphans_notice();
  return 0;
}

static void merge_usage(FILE *out) {
  fprintf(out, "usage: ompdp merge [--format=%s] [-o FILE] REPORT...\n", drv_format_choices());
  fputs("\n"
        "Merges the reports of the ranks of one MPI run (from 'mpirun ... ompdp run\n"
        "--format=json -o report.%r.json -- PROGRAM') into one report: a finding of\n"
        "one construct and variable on several ranks becomes one, with its totals\n"
        "and its spread over the ranks (which ranks, min/median/max per rank).\n"
        "Journals of ranks killed before they wrote a report are read too; the\n"
        "merged report says which ranks are partial or missing. Reports of\n"
        "different programs, builds or runs are refused.\n"
        "\n"
        "options:\n"
        "  --format=F  how to render it, one of the formats above (default: json,\n"
        "              which 'ompdp report' and 'ompdp fix' read)\n"
        "  -o FILE     write it to FILE instead of standard output\n",
        out);
}

int drv_merge_main(int argc, char **argv) {
  ompdp_report_format_t fmt = OMPDP_RF_JSON;
  const char *output = NULL;
  char **inputs = calloc((size_t)argc + 1, sizeof(*inputs));
  if (!inputs) {
    drv_error("out of memory");
    return DRV_EXIT_FAILURE;
  }
  drv_operands_t ops = {.v = inputs};
  drv_args_t spec = {.command = "merge", .usage = merge_usage, .output = &output,
                     .format = &fmt, .operand = drv_keep_operand, .ctx = &ops};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc) {
    free(inputs);
    return prc > 0 ? 0 : DRV_EXIT_USAGE;
  }
  size_t n = ops.n;
  if (!n) {
    drv_error("no report given (usage: ompdp merge [--format=%s] [-o FILE] REPORT...)",
              drv_format_choices());
    free(inputs);
    return DRV_EXIT_USAGE;
  }
  if (output && drv_check_output(output)) {
    free(inputs);
    return DRV_EXIT_USAGE;
  }
  ompdp_report_t r;
  int rc = drv_merge_files(inputs, n, &r);
  free(inputs);
  if (rc)
    return rc;
  rc = drv_write_report(&r, fmt, output, stdout) ? DRV_EXIT_FAILURE : 0;
  ompdp_report_free(&r);
  return rc;
}
