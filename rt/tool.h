/*===- tool.h - lifecycle entry points shared by tool, signals, output -*- C -*-===*\
|*
|* The report is written once per process, from whichever of finalize, the
|* exit hook or a fatal signal comes first.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_TOOL_H
#define OMPDP_TOOL_H

#include "report.h"

#include <stdint.h>
#include <sys/types.h>

/* signo != 0: called from a fatal signal handler; the report is partial. */
void ompdp_write_report_once(int signo);
void ompdp_signals_install(void);
/* Writes the report where the options say; start_pid is the pid that
 * initialised the tool (a forked child writes to <output>.<pid>). */
int ompdp_output_report(const ompdp_report_t *r, pid_t start_pid);
/* Writes the finished report (option final) to <final>.<exit status>, in
 * final_format, and removes it again if an allocation of the runtime failed
 * since there were `failed` failures. Returns 0, or -1 with errno set. */
int ompdp_output_final(const ompdp_report_t *r, int exit_status, uint64_t failed);
/* The finished report, in final_format, written whole to path ("-": the
 * program's stderr, while it is still that), and taken back if an
 * allocation of the runtime failed since there were `failed` failures.
 * Returns 0, or -1 with errno set. */
int ompdp_output_finished(const ompdp_report_t *r, const char *path, uint64_t failed);
/* Where this process writes its report (option output, %p expanded, a
 * forked child's .<pid>): 0, or -1 for stderr or a path that does not fit. */
int ompdp_output_report_path(pid_t start_pid, char *out, size_t size);
/* Sets aside, while memory is still there (before the options can make an
 * allocation fail), what writing one report needs besides its file. */
void ompdp_output_reserve(void);
/* The journal beside the report (rt/journal.c): its path (-1: the report
 * goes to stderr, so there is none), and writing it whole through a
 * temporary file (0, or -1 with errno set). */
int ompdp_output_journal_path(pid_t start_pid, char *out, size_t size);
int ompdp_output_journal(const char *path, const char *data, size_t len);
/* pattern with %p (the pid) and %% expanded into out. Returns 0, or -1
 * when it does not fit. */
int ompdp_output_expand(const char *pattern, char *out, size_t size);
/* The same for a process other than the one the pattern names: a pattern
 * without %p gets ".<pid>" (as a forked child's report). */
int ompdp_output_expand_other(const char *pattern, char *out, size_t size);
/* When `ompdp run` was killed before the program ended (orphan_linux.c):
 * init finds its lock (option run_output) at start-up; driver_gone is 1
 * when it is gone; main_output is where ompdp run would have put this
 * process's report ("-": stderr; NULL: it cannot be said here, ompdp
 * recover writes it); done removes the event log and, when the report
 * landed there (landed: its path), the process's files in ompdp run's
 * directory, and says where the report is. */
void ompdp_orphan_init(void);
int ompdp_orphan_driver_gone(void);
const char *ompdp_orphan_main_output(int forked);
void ompdp_orphan_done(pid_t start_pid, const char *landed);
/* In a child made by fork(): the CLOCK_MONOTONIC time of the fork (0 in the
 * process that started the tool). Its report covers only later events. */
uint64_t ompdp_fork_time_ns(void);
/* The runtime's own allocations (alloc_linux.c): arm the test hook (the
 * from-th allocation on fails, count of them, 0: all); how many were made
 * and how many failed since. */
void ompdp_alloc_arm(int from, int count);
uint64_t ompdp_alloc_calls(void);
uint64_t ompdp_alloc_failures(void);
/* 1 while fd 2 is still the stderr the program started with. */
int ompdp_stderr_usable(void);

#endif
