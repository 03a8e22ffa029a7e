/*===- report.c - `ompdp report` and report rendering ----------------------===*\
|*
|* `ompdp report REPORT.json` reads a saved JSON report (or the journal of a
|* process that could not write one, rt/journal.c) and renders it again,
|* as text for people, as (normalized) JSON, or as SARIF for editors and
|* code-scanning services. The rendering helpers here are also what `ompdp
|* run` uses, so both commands print a report the same way.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L
#include "driver.h"
#include "rewrite.h"
#include "journal_format.h"
#include "projection.h"
#include "report_views.h"
#include "timeline.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int drv_parse_format(const char *value, ompdp_report_format_t *out) {
  if (!ompdp_report_format_parse(value, OMPDP_RF_ALL, out))
    return 0;
  char list[128];
  drv_error("unknown --format '%s' (use %s)", value,
            ompdp_report_format_list(list, sizeof(list), OMPDP_RF_ALL, ", ", " or "));
  return -1;
}

const char *drv_format_choices(void) {
  static char list[128];
  if (!list[0])
    ompdp_report_format_choices(list, sizeof(list), OMPDP_RF_ALL);
  return list;
}

int drv_check_output(const char *path) {
  if (!strcmp(path, "-"))
    return 0;
  if (!*path) {
    drv_error("-o needs a file name");
    return -1;
  }
  /* O_NONBLOCK: a FIFO without a reader must not hang the check.
   * O_NOFOLLOW: a symlink planted at the path is refused, never followed. */
  int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NONBLOCK, 0666);
  if (fd >= 0) {
    close(fd);
    unlink(path); /* created only to test: leave no empty file behind */
    return 0;
  }
  if (errno == EEXIST) {
    fd = open(path, O_WRONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
    if (fd >= 0 || errno == ENXIO) {
      if (fd >= 0)
        close(fd);
      return 0;
    }
    if (errno == ELOOP) {
      drv_error("cannot write '%s': it is a symbolic link, which ompdp does not follow",
                path);
      return -1;
    }
  }
  drv_error("cannot write '%s': %s", path, strerror(errno));
  return -1;
}

/* Where a report goes: path (a file, created with the user's umask and never
 * through a symlink; "-": standard output) or dflt. NULL after an error
 * message; *name says which, for the next one.
 *
 * An existing file is overwritten in place and cut to the new length when
 * closed (close_destination), not truncated first: on ext4, truncating a
 * file to zero makes the kernel write back its replacement at once (the
 * auto_da_alloc safeguard) and, mounted with discard, wait for its old
 * blocks to be discarded, which cost up to a millisecond per report, as
 * much as the rest of `ompdp run`'s work on a short program. */
static FILE *open_destination(const char *path, FILE *dflt, const char **name) {
  FILE *out = dflt;
  *name = dflt == stdout ? "standard output" : "standard error";
  if (path && strcmp(path, "-") != 0) {
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out && fd >= 0)
      close(fd);
    *name = path;
    if (!out)
      drv_error("cannot write '%s': %s", path, strerror(errno));
  } else if (path) {
    out = stdout;
    *name = "standard output";
  }
  return out;
}

/* Closes out unless it is a standard stream; rc and the error of the write
 * become those of the close when the write went well. */
static int close_destination(FILE *out, const char *name, int rc, int err) {
  struct stat st;
  if (out != stdout && out != stderr && fstat(fileno(out), &st) == 0 && S_ISREG(st.st_mode)) {
    /* What the old file had beyond the report is cut off (after a failed
     * write too, so that no old report shows through). */
    int flushed = fflush(out) == 0;
    off_t end = ftello(out);
    if ((!flushed || end < 0 || ftruncate(fileno(out), end) != 0) && !rc) {
      rc = -1;
      err = errno;
    }
  }
  if (out != stdout && out != stderr && fclose(out) != 0 && rc == 0) {
    rc = -1;
    err = errno;
  }
  if (rc) {
    drv_error("cannot write the report to %s: %s", name, strerror(err));
    return -1;
  }
  return 0;
}

int drv_copy_report(const char *src, const char *path, FILE *dflt) {
  char *data, err[512];
  size_t len;
  if (ompdp_read_file_capped(src, OMPDP_REPORT_MAX_BYTES, "report", &data, &len, err,
                             sizeof(err))) {
    drv_error("%s", err);
    return -1;
  }
  const char *name;
  FILE *out = open_destination(path, dflt, &name);
  if (!out) {
    free(data);
    return -1;
  }
  errno = 0;
  int rc = fwrite(data, 1, len, out) == len ? 0 : -1;
  free(data);
  return close_destination(out, name, rc, errno);
}

int drv_write_report(const ompdp_report_t *r, ompdp_report_format_t fmt,
                     const char *path, FILE *dflt) {
  const char *name;
  FILE *out = open_destination(path, dflt, &name);
  if (!out)
    return -1;
  errno = 0;
  int rc = ompdp_report_render(r, fmt, out);
  return close_destination(out, name, rc, errno);
}

void drv_plan_rewrites(ompdp_report_t *r) {
  if (ompdp_rewrite_report(r))
    drv_error("out of memory while building rewrites; some findings have none");
}

static void report_usage(FILE *out) {
  fprintf(out,
          "usage: ompdp report [--format=%s] [-o FILE]\n"
          "                    [--device=NAME|FILE] REPORT.json...\n",
          drv_format_choices());
  fputs("\n"
        "Reads a JSON report (from 'ompdp run --format=json -o FILE' or the\n"
        "runtime's output=FILE option) and renders it; '-' reads standard input.\n"
        "A journal (FILE.journal, left by a process killed before it wrote its\n"
        "report) is read too: the report of its last flush, marked partial.\n"
        "SARIF 2.1.0 is for editors' SARIF viewers and code-scanning services:\n"
        "one result per finding, with its rewrites as fixes.\n"
        "Several reports are the ranks of one MPI run: they are merged first, as\n"
        "'ompdp merge' does.\n"
        "HTML is one self-contained page: summary, findings with their rewrites\n"
        "as diffs, and the timeline of each device. A trace is Chrome trace-event\n"
        "JSON for Perfetto (ui.perfetto.dev) and chrome://tracing.\n"
        "\n"
        "options:\n",
        out);
  int w = (int)strlen(drv_format_choices()) + 9; /* "--format=" */
  fprintf(out, "  --format=%s  how to render it (default: %s)\n", drv_format_choices(),
          ompdp_report_format_name(OMPDP_RF_TEXT));
  fprintf(out, "  %-*s  write it to FILE instead of standard output\n", w, "-o FILE");
  fputs(drv_projection_usage, out);
}

typedef struct report_args {
  drv_projection_t proj;
  drv_operands_t inputs;
} report_args_t;

static int report_flag(void *ctx, int argc, char **argv, int *i) {
  return drv_projection_flag(argc, argv, i, &((report_args_t *)ctx)->proj);
}

static int report_operand(void *ctx, const char *arg) {
  return drv_keep_operand(&((report_args_t *)ctx)->inputs, arg);
}

/* inputs has room for every argument. */
static int report_main(int argc, char **argv, char **inputs) {
  ompdp_report_format_t fmt = OMPDP_RF_TEXT;
  const char *output = NULL, *input = NULL;
  report_args_t ra = {.inputs = {.v = inputs}};
  drv_projection_t *proj = &ra.proj;
  drv_args_t spec = {.command = "report", .usage = report_usage, .output = &output,
                     .format = &fmt, .flag = report_flag, .operand = report_operand,
                     .ctx = &ra};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc)
    return prc > 0 ? 0 : DRV_EXIT_USAGE;
  size_t num_inputs = ra.inputs.n;
  if (num_inputs)
    input = inputs[num_inputs - 1];
  if (!input) {
    drv_error("no report given (usage: ompdp report [--format=%s] [-o FILE] REPORT.json)",
              drv_format_choices());
    return DRV_EXIT_USAGE;
  }
  if (output && drv_check_output(output))
    return DRV_EXIT_USAGE;
  if (drv_projection_load(proj))
    return DRV_EXIT_USAGE;

  ompdp_report_t r;
  char err[512];
  if (!strcmp(input, "-"))
    input = "/dev/stdin";
  if (num_inputs > 1) {
    /* Several reports are the ranks of an MPI run: merged (merge.c). */
    int mrc = drv_merge_files(inputs, num_inputs, &r);
    if (mrc)
      return mrc;
  } else if (ompdp_report_read_file_with_timeline(input, NULL, &r, err, sizeof(err))) {
    drv_error("%s", err);
    return DRV_EXIT_FAILURE;
  }
  drv_plan_rewrites(&r);
  ompdp_report_sort(&r);
  int rc = drv_projection_apply(proj, &r) || drv_write_report(&r, fmt, output, stdout);
  ompdp_report_free(&r);
  return rc ? DRV_EXIT_FAILURE : 0;
}

int drv_report_main(int argc, char **argv) {
  char **inputs = calloc((size_t)argc + 1, sizeof(*inputs));
  if (!inputs) {
    drv_error("out of memory");
    return DRV_EXIT_FAILURE;
  }
  int rc = report_main(argc, argv, inputs);
  free(inputs);
  return rc;
}
