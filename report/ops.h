/*===- ops.h - data operations by class, and their projection ------*- C -*-===*\
|*
|* What the report model says about operations by class (OMPDP_OP_CLASS:
|* host-to-device, device-to-host and device-to-device copies, device
|* allocations and deallocations): how many, how many bytes, how long they
|* took. The runtime records them per finding, per rewrite and for the whole
|* run, so that a cost model (cost_model.h) can price the same operations on
|* another device. A projection is what that pricing gives; the report
|* model holds one when the user asked for it (--device), and every format
|* renders it next to the measured figures, labelled as projected.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_OPS_H
#define OMPDP_OPS_H

#include "ompdp/format.h"

#include <stdint.h>

typedef struct ompdp_opstat {
  uint64_t count;
  uint64_t bytes;
  uint64_t time_ns; /* summed durations as measured */
} ompdp_opstat_t;

typedef struct ompdp_ops {
  ompdp_opstat_t c[OMPDP_OC_COUNT];
  /* 1 when the writer recorded the breakdown; 0 when it is unknown (a
   * report of an older ompdp): the projection then infers it. */
  int known;
} ompdp_ops_t;

/* A report priced for another device (cost_model.c fills it in). */
typedef struct ompdp_projection {
  char *device;      /* the profile's name */
  char *source;      /* "built-in" or the profile file's path */
  int pinned;        /* host memory taken as pinned (else pageable) */
  double kernel_scale; /* kernel time is multiplied by this */
  uint64_t wall_time_ns;
  uint64_t time_saved_ns;
  double predicted_speedup;
  uint64_t data_time_ns;          /* every data operation of the run, measured */
  uint64_t projected_data_time_ns; /* ... and projected */
  uint64_t kernel_time_ns;        /* kernels as measured (before scaling) */
  int inferred; /* some breakdown was inferred from finding kinds */
} ompdp_projection_t;

/* Frees p and what it owns (NULL is fine). */
void ompdp_projection_free(ompdp_projection_t *p);
/* The JSON name of an operation class ("h2d", ...). */
const char *ompdp_op_class_json(ompdp_op_class_t c);
/* Total count and time of ops over every class. */
uint64_t ompdp_ops_count(const ompdp_ops_t *ops);
uint64_t ompdp_ops_time(const ompdp_ops_t *ops);

#endif /* OMPDP_OPS_H */
