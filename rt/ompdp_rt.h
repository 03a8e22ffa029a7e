/*===- ompdp_rt.h - internal interfaces of the ompdp runtime -------*- C -*-===*\
|*
|* The event record every OMPT callback writes, and the entry points that tie
|* the runtime's files together: event log, hashing, options, attribution,
|* analysis and output. Nothing here is visible outside libompdp-rt.so.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_RT_H
#define OMPDP_RT_H

#include "report.h"

#include <stddef.h>
#include <stdint.h>

#define OMPDP_NONE UINT32_MAX

/* What an event records. */
typedef enum ompdp_event_type {
  OMPDP_EV_ALLOC,    /* device allocation: src = host address, dst = device address */
  OMPDP_EV_DELETE,   /* device free: src = device address */
  OMPDP_EV_TRANSFER, /* copy from src (device src_dev) to dst (device dst_dev) */
  OMPDP_EV_KERNEL,   /* kernel execution on dst_dev */
  OMPDP_EV_TARGET,   /* an offload construct (target, enter/exit data, update) */
} ompdp_event_type_t;

enum ompdp_event_flags {
  OMPDP_EVF_COMPLETE = 1 << 0, /* the end callback has been seen */
  OMPDP_EVF_HASHED = 1 << 1,   /* hash holds the XXH3 of the host-side bytes */
};
/* Data ops and kernels keep the ompt_target_t kind of their construct in the
 * upper four bits of flags (attribution reads the line table differently
 * for kernel launches and data constructs). */
#define OMPDP_EVF_CONSTRUCT_SHIFT 4
#define OMPDP_EV_CONSTRUCT(e) ((int)((e)->flags >> OMPDP_EVF_CONSTRUCT_SHIFT))

/* One event. Times are CLOCK_MONOTONIC nanoseconds. Kernel intervals run from
 * the launch until the end of the enclosing construct, which over-approximates
 * an asynchronous launch safely (the kernel is done when the construct ends).
 */
typedef struct ompdp_event {
  uint64_t t_begin;
  uint64_t t_end;
  uint64_t hash;
  uint64_t src_addr;
  uint64_t dst_addr;
  uint64_t bytes;
  const void *codeptr; /* return address of the offload call in user code */
  int32_t src_dev;
  int32_t dst_dev;
  uint32_t region;     /* compiler region ID, 0 when unknown */
  int16_t item;        /* map item within the region, -1 when unknown */
  uint8_t type;        /* ompdp_event_type_t */
  uint8_t flags;       /* ompdp_event_flags; for TARGET: the ompt_target_t kind */
} ompdp_event_t;

/*===- event log (eventlog.c) ---------------------------------------------===*/

/* A new zeroed record in this thread's buffer, or NULL when out of memory.
 * Records never move, so callbacks may keep pointers to them. */
ompdp_event_t *ompdp_log_new_event(void);
/* Copies every complete record into one array sorted by (t_begin, order of
 * logging). Returns 0, or -1 when out of memory. */
int ompdp_log_collect(ompdp_event_t **out, size_t *n);
/* Number of records dropped because memory ran out. */
uint64_t ompdp_log_dropped(void);

/*===- hashing (hash.c) ---------------------------------------------------===*/

void ompdp_hash_init(void);
uint64_t ompdp_hash(const void *p, size_t n);
const char *ompdp_hash_impl_name(void);
/* verify_hashes debug mode (hash_verify.c): remember the bytes behind each
 * hash and count the hashes that stand for different bytes. */
void ompdp_hash_verify(uint64_t h, const void *p, size_t n);
uint64_t ompdp_hash_collisions(void);

/*===- options (options.c) ------------------------------------------------===*/

typedef struct ompdp_options {
#define OMPDP_OPTION(Type, Name, Default, Description) Type Name;
#include "options.inc"
} ompdp_options_t;

extern ompdp_options_t ompdp_opts;
/* Parses OMPDP_OPTIONS-style text into ompdp_opts (after defaults). Unknown
 * names and bad values are reported on stderr and make it return -1; valid
 * settings are still applied. */
int ompdp_options_parse(const char *text);
void ompdp_options_reset(void);
void ompdp_options_free(void);

/*===- attribution (attribution_linux.c) ----------------------------------===*/

/* Fills loc with the source location of the offload call whose return
 * address is codeptr (uses codeptr - 1: the call itself), made by a
 * construct of the given ompt_target_t kind (0 when unknown). Strings are
 * malloc'd. */
void ompdp_attribute(const void *codeptr, int construct, ompdp_loc_t *loc);
void ompdp_attribution_done(void);

/*===- analysis (analysis.c) ----------------------------------------------===*/

typedef struct ompdp_analysis_input {
  const ompdp_event_t *events; /* chronological */
  size_t num_events;
  int host_device;
  uint64_t wall_time_ns;
  int kernels_from_targets; /* no submit callback: use target constructs */
} ompdp_analysis_input_t;

/* Runs all detections and fills the report's summary and findings. Source
 * locations are resolved through the given function (NULL: leave unset). */
/* Fills loc (and, when not NULL, variable and clause) for event e. */
typedef void (*ompdp_attribute_fn)(const ompdp_event_t *e, ompdp_loc_t *loc, char **variable,
                                   char **clause);
int ompdp_analyze(const ompdp_analysis_input_t *in, ompdp_report_t *r,
                  ompdp_attribute_fn attribute);

/*===- time ---------------------------------------------------------------===*/

uint64_t ompdp_now_ns(void);

#endif /* OMPDP_RT_H */
