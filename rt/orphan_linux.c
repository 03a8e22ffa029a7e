/*===- orphan_linux.c - the report when `ompdp run` itself was killed -*- C -*-===*\
|*
|* `ompdp run` renders the report the runtime leaves in its directory once
|* the program ends. When `ompdp run` is killed first (a terminal closed, a
|* job scheduler's kill of the launcher, mpirun tearing a job down), the
|* program runs on to its end, and nobody would read what it leaves. So
|* the driver holds a lock on the file `run` in its directory for as long
|* as it lives (driver/run.c), and the runtime tests it when it writes the
|* report: when the lock is free, ompdp run is gone, and the runtime lands
|* the finished report (rewrites planned, the exit status, in the format
|* asked for: option final_format) where ompdp run would have put it (its
|* -o, option run_output; stderr without one), then removes its files from
|* the directory, and the directory once it is empty. What it cannot land
|* (another format, a report that is not the finished one) stays there,
|* with the event log removed (the report supersedes it), and `ompdp
|* recover` writes it; a process that dies leaves its event log there for
|* `ompdp recover` too.
|*
|* The lock is an fcntl lock: the kernel releases it whatever ends the
|* driver, and F_GETLK names its holder, so the program's own process
|* (whose parent was the driver when it started) is told from the
|* processes it starts, whose reports go to <-o>.<pid>, as ompdp run
|* renders them.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp/rundir.h"
#include "ompdp_rt.h"
#include "shm.h"
#include "tool.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char run_dir[PATH_MAX], run_file[PATH_MAX + 8];
static int main_process; /* started by ompdp run itself */

/* The holder of the driver's lock: its pid, 0 when the lock is free, -1
 * when the file cannot be read (no ompdp run, or it removed its
 * directory: it is done). */
static long lock_holder(void) {
  int fd = open(run_file, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return -1;
  struct flock fl = {.l_type = F_RDLCK, .l_whence = SEEK_SET};
  int rc = fcntl(fd, F_GETLK, &fl);
  close(fd);
  if (rc)
    return -1;
  return fl.l_type == F_UNLCK ? 0 : (long)fl.l_pid;
}

void ompdp_orphan_init(void) {
  const char *out = ompdp_opts.output;
  const char *slash = out ? strrchr(out, '/') : NULL;
  if (!ompdp_opts.run_output[0] || !slash || (size_t)(slash - out) >= sizeof(run_dir))
    return;
  memcpy(run_dir, out, (size_t)(slash - out));
  run_dir[slash - out] = '\0';
  snprintf(run_file, sizeof(run_file), "%s/" OMPDP_RUN_FILE, run_dir);
  long driver = lock_holder();
  main_process = driver > 0 && (long)getppid() == driver;
}

int ompdp_orphan_driver_gone(void) { return run_file[0] && lock_holder() == 0; }

const char *ompdp_orphan_main_output(int forked) {
  static char path[PATH_MAX];
  const char *pattern = ompdp_opts.run_output;
  if (!strcmp(pattern, "-"))
    return main_process && !forked ? "-" : NULL; /* others: ompdp recover */
  int rc = main_process && !forked ? ompdp_output_expand(pattern, path, sizeof(path))
                                   : ompdp_output_expand_other(pattern, path, sizeof(path));
  return rc ? NULL : path;
}

/* Removes the directory when nothing but the driver's file is left in it
 * (other processes of the run may still write theirs). */
static void remove_dir_if_done(void) {
  DIR *d = opendir(run_dir);
  if (!d)
    return;
  int others = 0;
  struct dirent *e;
  while ((e = readdir(d)) && !others)
    others = strcmp(e->d_name, ".") && strcmp(e->d_name, "..") &&
             strcmp(e->d_name, OMPDP_RUN_FILE);
  closedir(d);
  if (others)
    return;
  /* Renamed first (ompdp/rundir.h): killed halfway, the runtime leaves a
   * directory that ompdp recover and the next ompdp run sweep. */
  char gone[sizeof(run_dir) + sizeof(OMPDP_RUN_DIR_GONE)];
  snprintf(gone, sizeof(gone), "%s" OMPDP_RUN_DIR_GONE, run_dir);
  const char *at = rename(run_dir, gone) == 0 ? gone : run_dir;
  char run[sizeof(gone) + sizeof("/" OMPDP_RUN_FILE)];
  snprintf(run, sizeof(run), "%s/" OMPDP_RUN_FILE, at);
  if (unlink(run) == 0)
    rmdir(at);
}

void ompdp_orphan_done(pid_t start_pid, const char *landed) {
  char report[PATH_MAX];
  int have_report = ompdp_output_report_path(start_pid, report, sizeof(report)) == 0;
  /* The report (here or there) supersedes the event log, which can be
   * gigabytes of the machine's memory. */
  ompdp_shm_remove();
  if (landed) {
    if (have_report)
      unlink(report);
    remove_dir_if_done();
    if (ompdp_stderr_usable() && strcmp(landed, "-"))
      dprintf(STDERR_FILENO, "ompdp: ompdp run is gone (killed?): the runtime wrote the report "
                             "of process %ld to %s\n", (long)getpid(), landed);
  } else if (ompdp_stderr_usable()) {
    dprintf(STDERR_FILENO, "ompdp: ompdp run is gone (killed?): the report of process %ld is "
                           "kept in %s; 'ompdp recover %s' writes it where ompdp run would "
                           "have\n", (long)getpid(), run_dir, run_dir);
  }
}
