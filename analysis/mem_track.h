/*===- mem_track.h - device memory in use, as the engine follows it -*- C -*-===*\
|*
|* The part of the analysis engine that follows how much memory each device
|* has allocated (report/memory.h): fed every event in analysis order, it
|* keeps the bytes in use per device, the peak and the first moment it was
|* reached, the sites (construct and map item, routine call) that held it
|* then, and a bounded series of the bytes in use over time. It answers the
|* detection of memory held while unused (detect_lifetime.c): the running
|* maximum, the moment of the peak so far, and the largest use from a
|* moment on (checkpoints). See mem_track.c.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_MEM_TRACK_H
#define OMPDP_MEM_TRACK_H

#include "detect.h"

typedef struct ompdp_memtrack ompdp_memtrack_t;

ompdp_memtrack_t *ompdp_mem_create(int host_device);
void ompdp_mem_destroy(ompdp_memtrack_t *t);
size_t ompdp_mem_memory(const ompdp_memtrack_t *t);

/* One event, in analysis order (uses change nothing). 0, or -1 when out of
 * memory. */
int ompdp_mem_event(ompdp_memtrack_t *t, const ompdp_xev_t *e);

/* The bytes in use on dev now, the most in use so far, and the most in use
 * before the latest event that changed dev's memory (for an allocation
 * just fed: the most before it). 0 for a device without allocations. */
uint64_t ompdp_mem_in_use(const ompdp_memtrack_t *t, int dev);
uint64_t ompdp_mem_max(const ompdp_memtrack_t *t, int dev);
uint64_t ompdp_mem_max_before(const ompdp_memtrack_t *t, int dev);

/* The moment dev's most so far was first reached: the position (seq) of
 * the allocation that reached it, and a generation that changes whenever
 * that moment does (a new, higher peak). 0, or -1 for a device without
 * allocations. Asking fixes what held that peak (the holders the report
 * names), so it costs a copy of the sites that hold memory the first time
 * after each new peak. */
int ompdp_mem_peak(ompdp_memtrack_t *t, int dev, uint64_t *seq, uint32_t *generation);
/* The generation alone, without fixing the holders (0 for a device without
 * allocations). */
uint32_t ompdp_mem_generation(const ompdp_memtrack_t *t, int dev);

/* A checkpoint of dev now: ompdp_mem_max_since later gives the most in use
 * from now to then. Valid while the peak's generation stays what it is
 * now (checkpoints are dropped with a new peak); OMPDP_NONE when out of
 * memory. */
uint32_t ompdp_mem_checkpoint(ompdp_memtrack_t *t, int dev);
uint64_t ompdp_mem_max_since(const ompdp_memtrack_t *t, int dev, uint32_t cp);

/* The report's device memory entries (report/memory.h), times in ns
 * (ticks * mult >> 32) from the first event's begin; holders named by
 * attribute (NULL: locations unknown). 0, or -1 when out of memory. */
int ompdp_mem_fill(ompdp_memtrack_t *t, ompdp_report_t *r, uint64_t mult,
                   ompdp_attribute_fn attribute);

#endif /* OMPDP_MEM_TRACK_H */
