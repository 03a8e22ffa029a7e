/*===- diff.c - `ompdp diff` ------------------------------------------------===*\
|*
|* `ompdp diff BEFORE.json AFTER.json` compares two reports of a program,
|* typically before and after a fix (report/report_diff.c says how findings
|* are matched), as text or JSON. The exit status gates CI as diff(1)'s
|* does: 0 when the waste did not grow, 1 when it grew (a new finding, more
|* avoidable operations or bytes) or a device's peak of memory in use
|* grew, 2 on trouble (a bad command line, a report that cannot be read).
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "report_views.h"
#include "timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

enum { DIFF_GREW = 1, DIFF_TROUBLE = 2 };

/* A comparison is written in two of the report formats. */
static const ompdp_report_format_t DiffFormats[] = {OMPDP_RF_TEXT, OMPDP_RF_JSON};

const char *drv_diff_format_choices(void) {
  static char list[32];
  if (!list[0])
    snprintf(list, sizeof(list), "%s|%s", ompdp_report_format_name(DiffFormats[0]),
             ompdp_report_format_name(DiffFormats[1]));
  return list;
}

static void diff_usage(FILE *out) {
  fprintf(out, "usage: ompdp diff [--format=%s] [-o FILE] BEFORE.json AFTER.json\n",
          drv_diff_format_choices());
  fputs("\n"
        "Compares two reports of a program (from 'ompdp run --format=json'), before\n"
        "and after a fix: the totals observed (transfers, bytes, allocations,\n"
        "kernels, times), and each finding, gone, new, with more or fewer avoidable\n"
        "operations, or the same. Findings are matched by kind and site (region and\n"
        "map item from the compiler plugin, else file:line:column and function).\n"
        "\n"
        "Exit status: 0 when the waste did not grow, 1 when it grew (a new finding,\n"
        "or more avoidable operations or bytes; times alone never count) or the peak\n"
        "of a device's memory in use grew, 2 on a bad command line or an unreadable\n"
        "report.\n"
        "\n"
        "options:\n",
        out);
  int w = (int)strlen(drv_diff_format_choices()) + 9; /* "--format=" */
  fprintf(out, "  --format=%s  how to write the comparison (default: %s)\n",
          drv_diff_format_choices(), ompdp_report_format_name(DiffFormats[0]));
  fprintf(out, "  %-*s  write it to FILE instead of standard output\n", w, "-o FILE");
}

typedef struct diff_args {
  int json;
  const char *in[2];
} diff_args_t;

/* --format: a comparison is written as text or JSON only. */
static int diff_flag(void *ctx, int argc, char **argv, int *i) {
  const char *v;
  int m = drv_flag_value(argc, argv, i, "format", &v);
  if (m <= 0)
    return m;
  ompdp_report_format_t f;
  if (ompdp_report_format_parse(v, OMPDP_RF_ALL, &f) ||
      (f != DiffFormats[0] && f != DiffFormats[1])) {
    drv_error("unknown --format '%s' for diff (use %s or %s)", v,
              ompdp_report_format_name(DiffFormats[0]), ompdp_report_format_name(DiffFormats[1]));
    return -1;
  }
  ((diff_args_t *)ctx)->json = f == OMPDP_RF_JSON;
  return 1;
}

static int diff_operand(void *ctx, const char *arg) {
  diff_args_t *da = ctx;
  if (da->in[1]) {
    drv_error("two reports to compare, not more ('%s')", arg);
    return -1;
  }
  da->in[da->in[0] ? 1 : 0] = arg;
  return 0;
}

int drv_diff_main(int argc, char **argv) {
  const char *output = NULL;
  diff_args_t da = {0};
  drv_args_t spec = {.command = "diff", .usage = diff_usage, .output = &output,
                     .flag = diff_flag, .operand = diff_operand, .ctx = &da};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc)
    return prc > 0 ? 0 : DIFF_TROUBLE;
  int json = da.json;
  const char **in = da.in;
  if (!in[1]) {
    drv_error("two reports are needed (usage: ompdp diff [--format=%s] [-o FILE] "
              "BEFORE.json AFTER.json)",
              drv_diff_format_choices());
    return DIFF_TROUBLE;
  }
  if (output && drv_check_output(output))
    return DIFF_TROUBLE;

  ompdp_report_t r[2];
  char err[1024];
  for (int k = 0; k < 2; ++k) {
    const char *path = strcmp(in[k], "-") ? in[k] : "/dev/stdin";
    if (ompdp_report_read_file_with_timeline(path, NULL, &r[k], err, sizeof(err))) {
      drv_error("%s", err);
      if (k)
        ompdp_report_free(&r[0]);
      return DIFF_TROUBLE;
    }
    ompdp_report_sort(&r[k]);
  }
  ompdp_diff_t d;
  int rc = DIFF_TROUBLE;
  if (ompdp_diff_compute(&r[0], &r[1], &d)) {
    drv_error("out of memory");
  } else {
    d.before_name = in[0];
    d.after_name = in[1];
    FILE *out = stdout;
    if (output && strcmp(output, "-")) {
      int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
      out = fd >= 0 ? fdopen(fd, "w") : NULL;
      if (!out && fd >= 0)
        close(fd);
    }
    if (!out) {
      drv_error("cannot write '%s': %s", output, strerror(errno));
    } else {
      int w = json ? ompdp_diff_write_json(&d, out) : ompdp_diff_write_text(&d, out);
      if ((out != stdout && fclose(out)) || (out == stdout && fflush(out)) || w)
        drv_error("cannot write the comparison to %s: %s", output ? output : "standard output",
                  strerror(errno));
      else
        rc = d.waste_grew || d.peak_grew ? DIFF_GREW : 0;
    }
    ompdp_diff_free(&d);
  }
  ompdp_report_free(&r[0]);
  ompdp_report_free(&r[1]);
  return rc;
}
