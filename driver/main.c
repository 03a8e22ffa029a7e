/*===- main.c - the ompdp command ----------------------------------------===*\
|*
|* Entry point of `ompdp`: handles --help and --version and hands the rest
|* of the command line to the subcommand named first. Also holds the small
|* helpers every subcommand uses: the walk of its command line
|* (drv_parse_args), matching a flag, errors, writing a whole buffer, the
|* monotonic clock.
|*
\*===----------------------------------------------------------------------===*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "driver.h"

#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#ifndef OMPDP_VERSION_STRING
#define OMPDP_VERSION_STRING "unknown"
#endif

void drv_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("ompdp: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

int drv_flag_value(int argc, char **argv, int *i, const char *name,
                   const char **value) {
  const char *a = argv[*i];
  size_t len = strlen(name);
  int short_flag = len == 1;
  const char *dashes = short_flag ? "-" : "--";
  size_t dl = strlen(dashes);
  if (strncmp(a, dashes, dl) != 0 || strncmp(a + dl, name, len) != 0)
    return 0;
  const char *rest = a + dl + len;
  if (*rest == '\0') {
    if (*i + 1 >= argc) {
      drv_error("%s%s needs a value", dashes, name);
      return -1;
    }
    *value = argv[++*i];
    return 1;
  }
  if (*rest == '=' && !short_flag) {
    *value = rest + 1;
    return 1;
  }
  if (short_flag) {
    *value = rest; /* -oFILE */
    return 1;
  }
  return 0; /* a longer flag that merely starts with name */
}

int drv_parse_args(int argc, char **argv, const drv_args_t *a) {
  int only_operands = 0;
  for (int i = 1; i < argc; ++i) {
    const char *arg = argv[i], *v;
    int m;
    if (only_operands || arg[0] != '-' || arg[1] == '\0') {
      if (!a->operand) {
        drv_error("unknown argument '%s' (see 'ompdp %s --help')", arg, a->command);
        return -1;
      }
      if (a->operand(a->ctx, arg))
        return -1;
      continue;
    }
    if (!strcmp(arg, "--")) {
      only_operands = 1;
      continue;
    }
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      a->usage(stdout);
      return 1;
    }
    if (a->format && (m = drv_flag_value(argc, argv, &i, "format", &v)) != 0) {
      if (m < 0 || drv_parse_format(v, a->format))
        return -1;
      continue;
    }
    if (a->output && ((m = drv_flag_value(argc, argv, &i, "o", &v)) != 0 ||
                      (m = drv_flag_value(argc, argv, &i, "output", &v)) != 0)) {
      if (m < 0)
        return -1;
      *a->output = v;
      continue;
    }
    if (a->flag && (m = a->flag(a->ctx, argc, argv, &i)) != 0) {
      if (m < 0)
        return -1;
      continue;
    }
    drv_error("unknown option '%s' (see 'ompdp %s --help')", arg, a->command);
    return -1;
  }
  return 0;
}

uint64_t drv_monotonic_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int drv_write_all(int fd, const void *data, size_t len) {
  const char *p = data;
  for (size_t off = 0; off < len;) {
    ssize_t w = write(fd, p + off, len - off);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0)
      return -1;
    off += (size_t)w;
  }
  return 0;
}

int drv_keep_operand(void *ctx, const char *arg) {
  drv_operands_t *o = ctx;
  o->v[o->n++] = (char *)arg;
  return 0;
}

static void usage(FILE *out) {
  const char *f = drv_format_choices();
  fprintf(out,
          "usage: ompdp <command> [options]\n"
          "\n"
          "Finds wasted data movement in OpenMP offload programs.\n"
          "\n"
          "commands:\n"
          "  run     run a program under the ompdp runtime and print its report\n"
          "          ompdp run [--format=%s] [-o FILE]\n"
          "                    [--option NAME=VALUE]... [--] PROGRAM [ARGS...]\n"
          "          (in -o, %%r is the MPI rank, %%p the process id, %%h the host)\n"
          "  report  render a saved JSON report (several: the ranks of an MPI run, merged)\n"
          "          ompdp report [--format=%s] [-o FILE] REPORT.json...\n"
          "  merge   merge the reports of the ranks of an MPI run into one\n"
          "          ompdp merge [--format=%s] [-o FILE] REPORT.json...\n"
          "  fix     turn a report's rewrites into clang-apply-replacements YAML, or\n"
          "          apply them to the sources\n"
          "          ompdp fix [-o FIXES.yaml | --apply] REPORT.json\n"
          "  diff    compare two reports of a program, before and after a fix; exits\n"
          "          with 1 when the waste grew\n"
          "          ompdp diff [--format=%s] [-o FILE] BEFORE.json AFTER.json\n",
          f, f, f, drv_diff_format_choices());
  fputs("  calibrate  measure an offload device and write its profile for --device\n"
        "          ompdp calibrate [-o PROFILE] [--device-num N]\n"
        "  devices  list the built-in device profiles, or show one\n"
        "          ompdp devices [NAME|PROFILE]\n"
        "\n"
        "'run' and 'report' also take --device=NAME|PROFILE: every saving is then\n"
        "projected for that device too (docs/devices.md).\n"
        "  lsp     a language server: findings as diagnostics, rewrites as code\n"
        "          actions, in any editor that speaks LSP (docs/lsp.md)\n"
        "          ompdp lsp [--report FILE]... [--source-root DIR]\n"
        "  recover the reports that runs of 'ompdp run' which were killed left behind\n"
        "          ompdp recover [--all | DIR...] [-o FILE]\n"
        "\n"
        "options:\n"
        "  --help      show this help ('ompdp <command> --help' for a command's)\n"
        "  --version   show the version\n",
        out);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    usage(stderr);
    return DRV_EXIT_USAGE;
  }
  const char *cmd = argv[1];
  if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
    usage(stdout);
    return 0;
  }
  if (!strcmp(cmd, "--version")) {
    printf("ompdp %s (report format version %d)\n", OMPDP_VERSION_STRING,
           OMPDP_REPORT_VERSION);
    return 0;
  }
  if (!strcmp(cmd, "run"))
    return drv_run_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "report"))
    return drv_report_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "fix"))
    return drv_fix_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "calibrate"))
    return drv_calibrate_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "devices"))
    return drv_devices_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "merge"))
    return drv_merge_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "diff"))
    return drv_diff_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "lsp"))
    return drv_lsp_main(argc - 1, argv + 1);
  if (!strcmp(cmd, "recover"))
    return drv_recover_main(argc - 1, argv + 1);
  if (cmd[0] == '-')
    drv_error("unknown option '%s' (see 'ompdp --help')", cmd);
  else
    drv_error("unknown command '%s' (see 'ompdp --help')", cmd);
  return DRV_EXIT_USAGE;
}
