/*===- cost_model.h - what data movement costs on a device ---------*- C -*-===*\
|*
|* A device profile prices one data operation of a given size: a copy from
|* the host to the device or back (from pageable or pinned host memory), a
|* copy between device memories, a device allocation and its free. Each is
|* a curve of time against size: measured points joined by straight lines,
|* flat below the first point, and beyond the last one growing at a
|* bandwidth (given, or the last point's own: its size over its time). A latency and a bandwidth alone
|* make the classic model t(s) = latency + s / bandwidth. Profiles come from
|* the built-in table (devices/NAME.txt, compiled in), from a file that `ompdp
|* calibrate` wrote, or from one written by hand; the text format is in
|* docs/devices.md. Kernels are not modelled: their measured time is kept,
|* or scaled by a factor the user gives.
|*
|* ompdp_report_project prices every operation the report counts (the run,
|* each finding, each rewrite) on the profile and stores the projection in
|* the report model, which the formats render next to the measured figures.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_COST_MODEL_H
#define OMPDP_COST_MODEL_H

#include "report.h"

#include <stddef.h>
#include <stdio.h>

/* What a profile prices, in the order of the profile file's keys. */
#define OMPDP_COST_OPS(X)                                                                     \
  X(H2D_PAGEABLE, "h2d_pageable", "host-to-device copy from pageable host memory")           \
  X(H2D_PINNED, "h2d_pinned", "host-to-device copy from pinned host memory")                 \
  X(D2H_PAGEABLE, "d2h_pageable", "device-to-host copy into pageable host memory")           \
  X(D2H_PINNED, "d2h_pinned", "device-to-host copy into pinned host memory")                 \
  X(D2D, "d2d", "copy between two buffers of the device")                                    \
  X(ALLOC, "alloc", "device allocation")                                                     \
  X(FREE, "free", "device deallocation")

typedef enum ompdp_cost_op {
#define OMPDP_X(Enum, Key, Desc) OMPDP_COST_##Enum,
  OMPDP_COST_OPS(OMPDP_X)
#undef OMPDP_X
  OMPDP_COST_COUNT
} ompdp_cost_op_t;

#define OMPDP_PROFILE_VERSION 1
#define OMPDP_PROFILE_MAX_POINTS 128
#define OMPDP_PROFILE_MAX_ALIASES 4
#define OMPDP_PROFILE_MAX_BYTES (1u << 20) /* a profile file is at most 1 MiB */

typedef struct ompdp_cost_point {
  double size;    /* bytes */
  double time_ns; /* one operation of that size */
} ompdp_cost_point_t;

typedef struct ompdp_cost_curve {
  size_t n; /* points, strictly increasing sizes */
  ompdp_cost_point_t pt[OMPDP_PROFILE_MAX_POINTS];
  double bandwidth; /* bytes per ns (= GB/s) past the last point; 0: the last segment's */
  int given;        /* the profile had figures for it (else a fallback is used) */
} ompdp_cost_curve_t;

typedef struct ompdp_device_profile {
  char name[64];
  char aliases[OMPDP_PROFILE_MAX_ALIASES][64];
  char description[256];
  ompdp_cost_curve_t op[OMPDP_COST_COUNT];
} ompdp_device_profile_t;

/* The profile file key of op ("h2d_pageable", ...), and its description. */
const char *ompdp_cost_op_key(ompdp_cost_op_t op);
const char *ompdp_cost_op_description(ompdp_cost_op_t op);

/* Parses a profile from text[0..len). what names the text in errors (a
 * path, or "built-in profile h100"). Returns 0, or -1 after writing a
 * one-line reason ("what:LINE: ...") into err. Required: the header line,
 * a name, and figures for h2d_pageable, d2h_pageable, alloc and free;
 * pinned copies default to pageable ones, d2d to h2d_pinned. */
int ompdp_profile_parse(const char *text, size_t len, const char *what,
                        ompdp_device_profile_t *p, char *err, size_t errlen);

/* A built-in profile by name or alias, else the profile file at spec (a
 * spec with a '/' is always a file). *builtin says which. Returns 0, or -1
 * after writing a one-line reason into err. */
int ompdp_profile_load(const char *spec, ompdp_device_profile_t *p, int *builtin, char *err,
                       size_t errlen);

/* The built-in profiles: their count, and the name and text of each. */
size_t ompdp_profile_builtin_count(void);
const char *ompdp_profile_builtin_name(size_t i);
const char *ompdp_profile_builtin_text(size_t i);

/* Writes p in the profile format (what `ompdp calibrate` saves; parsing it
 * gives p again). Returns 0, or -1 when the stream fails. */
int ompdp_profile_write(const ompdp_device_profile_t *p, FILE *out);

/* Time of one operation of size bytes, in ns. */
double ompdp_profile_time(const ompdp_device_profile_t *p, ompdp_cost_op_t op, double size);

/* The curve that prices a class of operations (pinned: copies from or to
 * pinned host memory). */
ompdp_cost_op_t ompdp_cost_op_for(ompdp_op_class_t c, int pinned);

/* Time of the operations ops on p, in ns: each class as count operations
 * of its mean size. */
double ompdp_ops_project(const ompdp_device_profile_t *p, const ompdp_ops_t *ops, int pinned);

typedef struct ompdp_projection_opts {
  int pinned;          /* host memory is pinned (default: pageable) */
  double kernel_scale; /* kernels take this times their measured time (1: as measured) */
  const char *source;  /* "built-in" or the profile's path */
} ompdp_projection_opts_t;

/* Prices r on p and stores the projection in r (replacing one it had):
 * r->projection, and projected_saved_ns of every finding and rewrite.
 * Reports without the per-class breakdown (older writers) get it inferred
 * from the finding kinds, which the projection says. Returns 0, or -1 when
 * out of memory. */
int ompdp_report_project(ompdp_report_t *r, const ompdp_device_profile_t *p,
                         const ompdp_projection_opts_t *o);

/* The breakdown of a finding or rewrite when the report has none, from its
 * kind and totals (exposed for tests). */
void ompdp_ops_infer_finding(const ompdp_finding_t *f, ompdp_ops_t *out);
void ompdp_ops_infer_rewrite(const ompdp_rewrite_t *rw, ompdp_ops_t *out);

/* Renderers used by the report formats (ops_format.c). */
void ompdp_ops_write_json(FILE *out, const ompdp_ops_t *ops);
void ompdp_projection_write_json(FILE *out, const ompdp_projection_t *p, const char *indent);
/* "h100-sxm (built-in profile; pageable host memory; kernels x1)" */
void ompdp_projection_label(const ompdp_projection_t *p, char *buf, size_t size);

#endif /* OMPDP_COST_MODEL_H */
