/*===- shm.h - the event log in a file that outlives the process -*- C -*-===*\
|*
|* Under `ompdp run` (option crash_log), the chunks of the event log, the
|* operation table and what attribution needs live in one file mapped
|* shared (include/ompdp/crashlog.h has the format, rt/shm_linux.c the
|* code), so that `ompdp run` can build the report of a process that died
|* without writing one. Without the option nothing here does anything, and
|* the callers use their own memory.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_SHM_H
#define OMPDP_SHM_H

#include <stddef.h>
#include <stdint.h>

/* Creates the file the crash_log option names (%p: the pid), unless the
 * option is empty or crash_log_mb is 0. Returns 0 when the log is on. */
int ompdp_shm_init(void);
/* 1 while the file holds every event: the report of a death is `ompdp
 * run`'s to make (no journal, and no report from a signal handler). */
int ompdp_shm_active(void);

/* A block of the file for kind (OMPDP_CL_EVENTS, OMPDP_CL_OPS) holding at
 * least want bytes, zeroed, mapped shared: its payload, and its length in
 * *got. An event block may be one given back and copied (ompdp_shm_free):
 * its count of records begun is 0, its old records are past it. NULL when
 * the log is off or cannot grow (the caller then uses its own memory; the
 * log stops holding every event). */
void *ompdp_shm_alloc(int kind, uint32_t a, uint32_t b, size_t want, size_t *got);
/* Gives back a block from ompdp_shm_alloc: an event block whose records
 * are all analysed, when reuse is set, is copied to the end of the file
 * and kept for a later chunk; otherwise, or when it cannot be copied,
 * unmapped (the file keeps it). */
void ompdp_shm_free(void *payload, int reuse);

/* What the report needs besides events: the host's device number, a
 * warning, an event dropped, an allocation of the runtime that failed. */
void ompdp_shm_note_host(int host_device);
void ompdp_shm_note_warning(const char *msg);
void ompdp_shm_note_dropped(void);
void ompdp_shm_note_alloc_failure(void);

/* The runtime gives up its report (why: OMPDP_CL_GAVE_UP_*) for `ompdp
 * run` to rebuild from the file. Returns 1 if the file holds every event
 * (and now says why), 0 otherwise (the runtime must report what it has). */
int ompdp_shm_abandon(uint32_t why);

/* Removes the file (its mappings stay): the report that supersedes it was
 * written where no ompdp run will remove it (rt/orphan_linux.c). */
void ompdp_shm_remove(void);

/* Consumed event blocks copied to the end of the file so that their pages
 * take later chunks, and how often a chunk got such pages (verbose=1). */
void ompdp_shm_reuse_stats(uint64_t *copied, uint64_t *reused);
/* Bytes of the file so far (verbose=1 says, at exit). */
uint64_t ompdp_shm_bytes(void);


#endif /* OMPDP_SHM_H */
