/*===- memory.h - device memory in use: the peak and what holds it -*- C -*-===*\
|*
|* What a report says about each device's memory over the run
|* ("device_memory", docs/report-format.md): the bytes allocated there by
|* the events ompdp records (mapped data, omp_target_alloc, the runtime's
|* own allocations where OMPT shows them; never the tool's own device
|* memory, which is no OMPT event), their peak, when it happened, the
|* variables that held it then (largest first, with their clause and
|* line), how much lower the fixes would make it, and the bytes in use
|* over time, for the HTML page's memory track and the Chrome trace's
|* counter. The engine fills it (analysis/memory.c); every format renders
|* it from here.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_MEMORY_H
#define OMPDP_MEMORY_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Holders a report keeps per device, the largest; the rest are summed. */
#define OMPDP_MEM_HOLDERS 16
/* Points of the memory-in-use series a device keeps at most. */
#define OMPDP_MEM_SERIES_MAX 1024

/* What held memory at the peak: the allocations of one site (construct and
 * map item, or routine call) live then. Strings are owned, NULL when
 * unknown. */
typedef struct ompdp_mem_holder {
  ompdp_loc_t loc;  /* where it was allocated */
  char *variable;   /* with the compiler plugin */
  char *clause;     /* ... its map clause as written */
  char *call;       /* ... or the routine call (omp_target_alloc) */
  uint64_t bytes;
  uint64_t allocations;
} ompdp_mem_holder_t;

/* The bytes in use from t_ns on (ns from the run's first event, as the
 * timeline counts), at most: a point that stands for several changes holds
 * the largest value among them, so a series never hides the peak. */
typedef struct ompdp_mem_point {
  uint64_t t_ns;
  uint64_t bytes;
} ompdp_mem_point_t;

typedef struct ompdp_device_memory {
  int32_t device;
  int rank;                   /* a merged report's: the rank; -1 otherwise */
  uint64_t peak_bytes;        /* the most in use at once */
  uint64_t peak_time_ns;      /* when it was first reached (ns from the first event) */
  uint64_t peak_allocations;  /* allocations live then */
  uint64_t final_bytes;       /* in use when the run ended (never freed) */
  uint64_t allocated_bytes;   /* every allocation's bytes, summed */
  uint64_t allocations;       /* allocations on the device */
  uint64_t end_ns;            /* the last event's end (the series' end) */
  /* How much lower the peak would be with the fixes of the findings that
   * predict a saving on this device (early_alloc, late_release): at least
   * the largest of their savings (each finding's own, peak_saved_bytes);
   * 0: none. */
  uint64_t peak_saved_bytes;
  ompdp_mem_holder_t *holders; /* largest first */
  size_t num_holders;
  uint64_t other_bytes, other_allocations; /* holders past OMPDP_MEM_HOLDERS */
  ompdp_mem_point_t *series;
  size_t num_series;
} ompdp_device_memory_t;

void ompdp_device_memory_free(ompdp_device_memory_t *m); /* what it owns */
/* Frees r's device memory entries. */
void ompdp_report_memory_free(ompdp_report_t *r);
/* Appends an entry (zeroed, rank -1) to r; NULL when out of memory. */
ompdp_device_memory_t *ompdp_report_add_memory(ompdp_report_t *r, int32_t device);
/* Deep copy of src into a new entry of r (a merge); -1 when out of memory. */
int ompdp_report_copy_memory(ompdp_report_t *r, const ompdp_device_memory_t *src, int rank);
/* The peak savings of r's findings (peak_saved_bytes, their devices), as
 * each entry's peak_saved_bytes: the largest finding's on its device. */
void ompdp_report_memory_savings(ompdp_report_t *r);

/* Text: one line per device (and rank) after the time to save:
 *   peak device memory: 7.6 MiB on device 0 at 1.2 ms: big 3.8 MiB (map(alloc:
 *   big[0:n]), prog.c:10), ...
 * and, where the fixes lower it, how much. Nothing without entries. */
void ompdp_text_put_memory(FILE *out, const ompdp_report_t *r);
/* JSON: `  "device_memory": [...],\n` after "observed"; nothing without
 * entries. */
void ompdp_json_put_memory(FILE *out, const ompdp_report_t *r);

/* Reads the value of "device_memory" (v, in the report reader's document
 * d) into r (memory_read.c, the report reader's): 0, or -1 with the
 * reason in d. A report without it has none. */
struct ompdp_json_doc;
struct json_t;
int ompdp_memory_read_json(struct ompdp_json_doc *d, const struct json_t *v, ompdp_report_t *r);

#endif /* OMPDP_MEMORY_H */
