/*===- rundir.h - the directory an `ompdp run` shares with its runtime -*- C -*-===*\
|*
|* `ompdp run` makes one private directory per run, ompdp.XXXXXX
|* (driver/run.c), and tells the runtime where in it to write reports,
|* journals and the event log. Two names in it are fixed, known to the
|* driver, the runtime and `ompdp recover` alike:
|*
|*   OMPDP_RUN_FILE      the file `run`: what ompdp run was asked, locked
|*                       (fcntl) for as long as ompdp run lives
|*                       (driver/run_file.c, rt/orphan_linux.c).
|*   OMPDP_RUN_DIR_GONE  appended to the directory's name by whoever removes
|*                       it (ompdp run once it printed the report, the
|*                       runtime once it landed it, ompdp recover once it
|*                       wrote it), before anything in it is removed: a
|*                       directory of that name holds nothing to recover,
|*                       so one that a kill left halfway removed is swept
|*                       (driver/recover_cmd.c) and never rendered again.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_RUNDIR_H
#define OMPDP_RUNDIR_H

#define OMPDP_RUN_FILE "run"
#define OMPDP_RUN_DIR_GONE "-gone"

#endif
