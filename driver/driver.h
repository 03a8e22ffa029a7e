/*===- driver.h - what the ompdp subcommands share ------------*- C -*-===*\
|*
|* The driver is one file per subcommand (run.c, report.c, fix.c, diff.c,
|* merge.c, calibrate.c, devices.c, lsp.c), as llvm-xray is, plus main.c,
|* which dispatches. This header holds the few things the subcommands have
|* in common: exit codes, the walk of a command line and option matching,
|* the output format flag (report/report_formats.inc) and the rendering of
|* a report to a file or stream.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_DRIVER_H
#define OMPDP_DRIVER_H

#include "ompdp/rundir.h"
#include "report.h"
#include "report_formats.h"

#include <stdio.h>

/* Exit codes of ompdp's own failures (a program run under `ompdp run`
 * passes its own status through instead). */
enum {
  DRV_EXIT_FAILURE = 1, /* an input could not be read or an output written */
  DRV_EXIT_USAGE = 2,   /* bad command line, or an output that is not writable */
};

/* Prints "ompdp: <message>\n" on stderr. */
void drv_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Matches argv[*i] against a flag that takes a value, in any of the forms
 * "--name=V", "--name V" (and "-oV", "-o V" for a one-letter name). Returns
 * 1 and sets *value (advancing *i past a separate value), 0 if argv[*i] is
 * another flag, or -1 after an error message when the value is missing. */
int drv_flag_value(int argc, char **argv, int *i, const char *name,
                   const char **value);

/* How a subcommand's command line is walked (drv_parse_args). */
typedef struct drv_args {
  const char *command;      /* its name, for "see 'ompdp <command> --help'" */
  void (*usage)(FILE *out); /* printed on standard output for --help, -h */
  const char **output;      /* set by -o/--output FILE; NULL: it takes none */
  ompdp_report_format_t *format; /* set by --format; NULL: it takes none */
  /* Its own flags: 1 when argv[*i] is one (*i advanced past a separate
   * value, as drv_flag_value does), 0 when it is not, -1 after an error
   * message. NULL: none. */
  int (*flag)(void *ctx, int argc, char **argv, int *i);
  /* Each operand in turn: 0, or -1 after an error message. NULL: it takes
   * none. */
  int (*operand)(void *ctx, const char *arg);
  void *ctx;
} drv_args_t;

/* Walks argv[1..argc) as every subcommand does: "--" ends the flags, "-"
 * is an operand, --help and -h print the usage; then -o/--output and
 * --format where the command takes them, and its own flags. Anything else
 * is an error naming the command's --help. Returns 0, 1 after the usage was
 * printed (exit 0), or -1 after an error message (exit DRV_EXIT_USAGE). */
int drv_parse_args(int argc, char **argv, const drv_args_t *a);
/* The operands kept in order: an operand callback for drv_args_t, with
 * ctx a drv_operands_t whose v has room for every argument. */
typedef struct drv_operands {
  char **v;
  size_t n;
} drv_operands_t;
int drv_keep_operand(void *ctx, const char *arg);

/* Parses the value of --format (a format of report/report_formats.inc);
 * prints an error and returns -1 if bad. */
int drv_parse_format(const char *value, ompdp_report_format_t *out);
/* "text|json|..." for usage texts: every format --format takes. */
const char *drv_format_choices(void);

/* Writes all of data[0..len) to fd (again after EINTR and short writes).
 * Returns 0, or -1 with errno set. */
int drv_write_all(int fd, const void *data, size_t len);

/* CLOCK_MONOTONIC, in nanoseconds. */
uint64_t drv_monotonic_ns(void);

/* Checks, before any work is done, that path can be written: opens it for
 * writing (creating it if need be) and removes it again if it was created
 * here. "-" (standard output) always passes. Prints an error and returns -1
 * otherwise. */
int drv_check_output(const char *path);

/* A report already rendered (the file src) written where drv_write_report
 * writes one. Returns 0, or -1 after an error message. */
int drv_copy_report(const char *src, const char *path, FILE *dflt);
/* Renders r as fmt into path ("-" for standard output), or into dflt when
 * path is NULL. Returns 0, or -1 after an error message. */
int drv_write_report(const ompdp_report_t *r, ompdp_report_format_t fmt,
                     const char *path, FILE *dflt);

/* What drv_recover found: the events it analysed, and whether the log had
 * stopped growing before the process ended (a journal may then hold more). */
typedef struct drv_recovery {
  uint64_t events;
  int stopped;
  int gave_up; /* the runtime ran out of memory and left the report to us */
} drv_recovery_t;

/* Rebuilds the report of a process that ended without one from the event
 * log it kept (path; include/ompdp/crashlog.h), marked partial and
 * recovered with reason; ended_at_ns: CLOCK_REALTIME when it ended (0:
 * unknown, then its last event). Returns 0, or -1 after a one-line reason
 * in err (a file that is not a whole event log). recover.c. */
int drv_recover(const char *path, const char *reason, uint64_t ended_at_ns, ompdp_report_t *r,
                drv_recovery_t *info, char *err, size_t errlen);

/* The subcommands; argv[0] is the subcommand's name. Each returns the
 * process exit status. */
/* Plans the rewrites of a report that carries the runtime's plan (its own
 * report, which the runtime writes before any planning; the finished one
 * it writes for `ompdp run` is planned already), and drops the plan; an
 * error line when memory runs out. */
void drv_plan_rewrites(ompdp_report_t *r);

int drv_run_main(int argc, char **argv);
int drv_report_main(int argc, char **argv);
int drv_fix_main(int argc, char **argv);
int drv_calibrate_main(int argc, char **argv); /* calibrate.c */
int drv_devices_main(int argc, char **argv);   /* devices.c */
int drv_merge_main(int argc, char **argv);

/* MPI (output_path.c): `ompdp run -o` with %r (the launcher's rank), %h
 * (host) and %% expanded into *pattern, %p kept for drv_output_path.
 * Returns 0, or -1 after an error message. */
int drv_output_pattern(const char *output, char **pattern);
/* The pattern with %p as pid; NULL after an error message. */
char *drv_output_path(const char *pattern, long pid);

/* What `ompdp run` was asked, in the file `run` of its directory, which it
 * keeps locked while it lives (run_file.c): for the runtime and `ompdp
 * recover` when it was killed. Strings are malloc'd, NULL when not given
 * (output NULL: stderr). */
typedef struct drv_run_info {
  long driver_pid, program_pid; /* program_pid 0: not started */
  char *format;                 /* ompdp_report_format_name */
  char *output;                 /* the -o pattern of drv_output_pattern (%p kept) */
  char *device, *host_memory, *kernel_scale; /* --device and its companions */
  char *program;                /* the program's argv[0] */
} drv_run_info_t;
/* Writes info over the whole file fd. 0, or -1 with errno set. */
int drv_run_file_write(int fd, const drv_run_info_t *info);
/* Reads the file at path into *info, and who holds its lock (0: nobody,
 * ompdp run is gone). 0, or -1 with errno set (no such file, not one). */
int drv_run_file_read(const char *path, drv_run_info_t *info, long *lock_holder);
void drv_run_info_free(drv_run_info_t *info);
/* Where `ompdp run` makes its directories, ompdp.XXXXXX: $OMPDP_RUN_DIR
 * when set, else this user's folder ompdp-<uid> in /dev/shm (when it has
 * room) and in the temporary directory ($TMPDIR, /tmp), or those
 * themselves where such a folder is not ours alone; the folders that
 * exist. *n bases into bases[3], valid until the next call. */
void drv_run_bases(const char *bases[3], size_t *n);
/* run.c: renders what the runtime left in the directory of an `ompdp run`
 * that was killed, as it would have (info), to output when given instead
 * of the recorded -o. The number of reports written, or -1. */
int drv_run_render_dir(const char *dir, const drv_run_info_t *info, const char *output);
/* dir/name, malloc'd; NULL when out of memory. */
char *drv_path_join(const char *dir, const char *name);
/* Removes a run directory and what is in it (it is flat), renamed first
 * <dir>-gone (OMPDP_RUN_DIR_GONE, ompdp/rundir.h). */
void drv_remove_run_dir(const char *dir);
/* recover_cmd.c: one line when earlier runs of `ompdp run` were killed and
 * left what `ompdp recover` turns into reports; the subcommand. */
void drv_orphans_notice(void);
int drv_recover_main(int argc, char **argv);

/* merge.c: reads the reports (or journals) at paths, one rank each, and
 * merges them into *out. Returns 0, or an exit status after an error
 * message. */
int drv_merge_files(char *const *paths, size_t n, ompdp_report_t *out);
int drv_diff_main(int argc, char **argv);
/* "text|json": the formats ompdp diff writes a comparison in (diff.c). */
const char *drv_diff_format_choices(void);
int drv_lsp_main(int argc, char **argv);

#endif /* OMPDP_DRIVER_H */
