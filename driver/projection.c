/*===- projection.c - the --device flags of report and run ----------------===*\
|*
|* Parses --device=NAME|FILE, --host-memory=pageable|pinned and
|* --kernel-scale=X, refuses what makes no sense before a program is run
|* (a scale without a device, a device that does not load), and projects a
|* report through the cost model (report/cost_model.c).
|*
\*===----------------------------------------------------------------------===*/
#include "projection.h"
#include "driver.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char drv_projection_usage[] =
    "  --device=NAME|FILE     also project every saving for a device: a built-in profile\n"
    "                         ('ompdp devices' lists them) or a profile file from\n"
    "                         'ompdp calibrate'; the projected figures are labelled as such\n"
    "  --host-memory=pageable|pinned\n"
    "                         how the program's host memory is taken (default: pageable)\n"
    "  --kernel-scale=X       kernels take X times their measured time there (default 1)\n";

int drv_projection_flag(int argc, char **argv, int *i, drv_projection_t *p) {
  const char *v;
  int m;
  if ((m = drv_flag_value(argc, argv, i, "device", &v)) != 0) {
    if (m > 0 && !*v) {
      drv_error("--device needs a device name or a profile file");
      return -1;
    }
    p->device = v;
    return m;
  }
  if ((m = drv_flag_value(argc, argv, i, "host-memory", &v)) != 0) {
    if (m < 0)
      return -1;
    if (strcmp(v, "pageable") && strcmp(v, "pinned")) {
      drv_error("unknown --host-memory '%s' (use pageable or pinned)", v);
      return -1;
    }
    p->host_memory = v;
    p->pinned = !strcmp(v, "pinned");
    return 1;
  }
  if ((m = drv_flag_value(argc, argv, i, "kernel-scale", &v)) != 0) {
    if (m < 0)
      return -1;
    char *end;
    double d = strtod(v, &end);
    if (end == v || *end || !isfinite(d) || d <= 0 || d > 1e6) {
      drv_error("--kernel-scale wants a number above 0 (at most 1e6), not '%s'", v);
      return -1;
    }
    p->kernel_scale = v;
    p->scale = d;
    return 1;
  }
  return 0;
}

int drv_projection_load(drv_projection_t *p) {
  if (!p->device) {
    if (p->kernel_scale || p->host_memory) {
      drv_error("%s needs --device (the device to project for)",
                p->kernel_scale ? "--kernel-scale" : "--host-memory");
      return -1;
    }
    return 0;
  }
  char err[640];
  if (ompdp_profile_load(p->device, &p->profile, &p->builtin, err, sizeof(err))) {
    drv_error("%s", err);
    return -1;
  }
  return 0;
}

int drv_projection_apply(const drv_projection_t *p, ompdp_report_t *r) {
  if (!p->device)
    return 0;
  ompdp_projection_opts_t o = {
      .pinned = p->pinned,
      .kernel_scale = p->kernel_scale ? p->scale : 1.0,
      .source = p->builtin ? "built-in" : p->device,
  };
  if (ompdp_report_project(r, &p->profile, &o)) {
    drv_error("out of memory");
    return -1;
  }
  return 0;
}
