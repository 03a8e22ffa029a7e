/*===- projection.h - the --device flags of report and run ----*- C -*-===*\
|*
|* `ompdp report` and `ompdp run` price a report for another device with the
|* same three flags (--device, --host-memory, --kernel-scale); this is their
|* one parser and the one place that loads the profile and projects.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_DRIVER_PROJECTION_H
#define OMPDP_DRIVER_PROJECTION_H

#include "cost_model.h"

typedef struct drv_projection {
  const char *device;   /* NULL: no projection */
  const char *host_memory;
  const char *kernel_scale;
  int pinned;
  double scale;
  int builtin;
  ompdp_device_profile_t profile; /* loaded by drv_projection_load */
} drv_projection_t;

/* Matches argv[*i] against the projection flags (as drv_flag_value does).
 * Returns 1 when it was one, 0 when not, -1 after an error message. */
int drv_projection_flag(int argc, char **argv, int *i, drv_projection_t *p);

/* Checks the flags together and loads the profile, before any other work.
 * Returns 0, or -1 after a one-line error. */
int drv_projection_load(drv_projection_t *p);

/* Prices r when a device was given (else does nothing). Returns 0, or -1
 * after an error message. */
int drv_projection_apply(const drv_projection_t *p, ompdp_report_t *r);

/* The flags' lines for a command's --help. */
extern const char drv_projection_usage[];

#endif /* OMPDP_DRIVER_PROJECTION_H */
