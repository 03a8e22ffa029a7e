/*===- rank.h - which rank of an MPI job this process is -----------*- C -*-===*\
|*
|* The runtime's side of report/process.h (rank_linux.c): the rank, host,
|* program and devices of this process, put into each report it writes
|* when a launcher started it.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_RANK_H
#define OMPDP_RANK_H

#include "ompdp_rt.h"
#include "process.h"

/* Notes the devices of an operation seen for the first time (intern.c,
 * under its shard's lock; lock-free itself). */
void ompdp_rank_note_devices(const ompdp_op_t *op);

/* Gives r its process (rank, host, pid, devices, program) when a launcher
 * started this process; does nothing otherwise. host_device is the host's
 * device number (-1: unknown), left out of the devices unless it is the
 * only one; stderr_ok: a launcher's variables that hold no rank may be
 * said on stderr (once). */
void ompdp_rank_fill(ompdp_report_t *r, int host_device, int stderr_ok);

/* This process as a launcher started it (rank, size, host, ...), or NULL
 * without a launcher; stderr_ok as for ompdp_rank_fill. */
const ompdp_process_t *ompdp_rank_self(int stderr_ok);

/* For `ompdp run` and `ompdp recover` rebuilding a report from an event
 * log (driver/recover.c): r gets the process who (its rank, host, ...)
 * with pid and the devices noted since ompdp_rank_forget_devices. */
void ompdp_rank_forget_devices(void);
void ompdp_rank_fill_as(ompdp_report_t *r, const ompdp_process_t *who, int64_t pid,
                        int host_device);

/* What %r and %h stand for in the output option (rt/output.c): the
 * launcher's rank (0 without a launcher) and the host name, into buf;
 * stderr_ok as for ompdp_rank_fill. */
const char *ompdp_rank_path_part(char which, char *buf, size_t size, int stderr_ok);

#endif /* OMPDP_RANK_H */
