/*===- devices.c - `ompdp devices` ---------------------------------------===*\
|*
|* Lists the built-in device profiles, or shows what one profile (built-in
|* or a file, as --device takes them) says an operation costs at a few
|* sizes, so that a user can see what a projection rests on before reading
|* one. It also checks a profile file: a bad one is the same one-line error
|* that --device gives.
|*
\*===----------------------------------------------------------------------===*/
#include "cost_model.h"
#include "driver.h"

#include <string.h>

static void devices_usage(FILE *out) {
  fputs("usage: ompdp devices [NAME|FILE]\n"
        "\n"
        "Without an argument, lists the built-in device profiles that --device takes.\n"
        "With one, shows the time and bandwidth that profile gives each kind of data\n"
        "operation at a few sizes (figures and sources: docs/devices.md).\n",
        out);
}

static void show(const ompdp_device_profile_t *p, int builtin, const char *spec) {
  static const double Sizes[] = {8, 4096, 65536, 1 << 20, 16 << 20, 256 << 20};
  static const char *const Labels[] = {"8 B", "4 KiB", "64 KiB", "1 MiB", "16 MiB", "256 MiB"};
  const size_t ns = sizeof(Sizes) / sizeof(Sizes[0]);
  printf("%s (%s%s)\n", p->name, builtin ? "built-in" : "profile ", builtin ? "" : spec);
  if (p->description[0])
    printf("  %s\n", p->description);
  printf("\n%-14s", "time per op");
  for (size_t i = 0; i < ns; ++i)
    printf(" %11s", Labels[i]);
  fputc('\n', stdout);
  for (int op = 0; op < OMPDP_COST_COUNT; ++op) {
    printf("%-14s", ompdp_cost_op_key((ompdp_cost_op_t)op));
    for (size_t i = 0; i < ns; ++i) {
      char b[OMPDP_UNIT_BUF];
      double t = ompdp_profile_time(p, (ompdp_cost_op_t)op, Sizes[i]);
      printf(" %11s", ompdp_format_time(b, t < 1.8e19 ? (uint64_t)t : UINT64_MAX));
    }
    printf("%s\n", p->op[op].given ? "" : "  (not measured: falls back)");
  }
  printf("\n%-14s", "GB/s");
  for (size_t i = 0; i < ns; ++i)
    printf(" %11s", Labels[i]);
  fputc('\n', stdout);
  for (int op = OMPDP_COST_H2D_PAGEABLE; op <= OMPDP_COST_D2D; ++op) {
    printf("%-14s", ompdp_cost_op_key((ompdp_cost_op_t)op));
    for (size_t i = 0; i < ns; ++i) {
      double t = ompdp_profile_time(p, (ompdp_cost_op_t)op, Sizes[i]);
      printf(" %11.2f", t > 0 ? Sizes[i] / t : 0.0);
    }
    fputc('\n', stdout);
  }
}

int drv_devices_main(int argc, char **argv) {
  const char *spec = NULL;
  for (int i = 1; i < argc; ++i) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      devices_usage(stdout);
      return 0;
    }
    if (argv[i][0] == '-' && argv[i][1]) {
      drv_error("unknown option '%s' (see 'ompdp devices --help')", argv[i]);
      return DRV_EXIT_USAGE;
    }
    if (spec) {
      drv_error("one device at a time ('%s' and '%s' given)", spec, argv[i]);
      return DRV_EXIT_USAGE;
    }
    spec = argv[i];
  }
  ompdp_device_profile_t p;
  char err[640];
  if (!spec) {
    printf("built-in device profiles (--device=NAME; figures and sources: docs/devices.md):\n");
    for (size_t i = 0; i < ompdp_profile_builtin_count(); ++i) {
      const char *t = ompdp_profile_builtin_text(i);
      if (ompdp_profile_parse(t, strlen(t), ompdp_profile_builtin_name(i), &p, err, sizeof(err))) {
        drv_error("%s", err);
        return DRV_EXIT_FAILURE;
      }
      printf("  %-10s %s", p.name, p.description);
      int any = 0;
      for (int a = 0; a < OMPDP_PROFILE_MAX_ALIASES; ++a)
        if (p.aliases[a][0])
          printf("%s%s", any++ ? ", " : " (also: ", p.aliases[a]);
      printf("%s\n", any ? ")" : "");
    }
    return 0;
  }
  int builtin;
  if (ompdp_profile_load(spec, &p, &builtin, err, sizeof(err))) {
    drv_error("%s", err);
    return DRV_EXIT_FAILURE;
  }
  show(&p, builtin, spec);
  return 0;
}
