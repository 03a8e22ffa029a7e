/*===- timeline_collect.h - what the engine keeps of the timeline -*- C -*-===*\
|*
|* The part of the analysis engine that keeps the operations a timeline
|* shows (report/timeline.h), within the stream mode's memory bounds. The
|* engine hands it every event and every match of a detection; at the end it
|* becomes the report's timeline section. See timeline_collect.c.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_TIMELINE_COLLECT_H
#define OMPDP_TIMELINE_COLLECT_H

#include "detect.h"
#include "timeline.h"

typedef struct ompdp_tlc ompdp_tlc_t;

/* How much to keep: full = every event; else the first `first` events,
 * up to per_finding avoidable operations of each finding, and counts of
 * the rest. */
typedef struct ompdp_tlc_config {
  int full;
  uint64_t first;
  uint64_t per_finding;
  int host_device;
} ompdp_tlc_config_t;

/* Events recent enough that a late decision (an unused allocation or
 * transfer, decided when a later event comes) still finds them. */
#define OMPDP_TLC_RING 4096
/* Bins of the counts of what is not kept. */
#define OMPDP_TLC_BINS 256

ompdp_tlc_t *ompdp_tlc_create(const ompdp_tlc_config_t *cfg);
void ompdp_tlc_destroy(ompdp_tlc_t *t);
/* One event, in analysis order, issued by host thread `thread`. 0, or -1
 * when out of memory. */
int ompdp_tlc_event(ompdp_tlc_t *t, const ompdp_xev_t *e, uint32_t thread);
/* One match of a detection (detect.h: avoid, ref, aux by kind). */
int ompdp_tlc_match(ompdp_tlc_t *t, ompdp_engine_t *g, int kind, uint64_t avoid, uint64_t ref,
                    uint64_t aux);
/* The timeline of everything fed, times in ns (ticks * mult >> 32) from the
 * first event's begin. Finding links carry the engine's finding indices.
 * Returns it (malloc'd), or NULL when out of memory. The collector can
 * still be fed afterwards (not needed: it is called at the end). */
ompdp_timeline_t *ompdp_tlc_finish(ompdp_tlc_t *t, uint64_t mult);
size_t ompdp_tlc_memory(const ompdp_tlc_t *t);

#endif /* OMPDP_TIMELINE_COLLECT_H */
