/*===- output.c - where and how the report is written --------------*- C -*-===*\
|*
|* Honours the output and format options. A report file is created without
|* following a symlink planted at its path, with the user's umask. A child
|* made by fork() (without exec) shares the parent's options; it writes to
|* <output>.<pid> so it can neither clobber nor interleave with the parent's
|* report.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int ompdp_output_report(const ompdp_report_t *r, pid_t start_pid) {
  const char *path = ompdp_opts.output ? ompdp_opts.output : "-";
  int json = ompdp_opts.format && !strcmp(ompdp_opts.format, "json");
  char child_path[4096];
  if (getpid() != start_pid) {
    if (!strcmp(path, "-"))
      return 0; /* the parent reports on stderr; one report there is enough */
    snprintf(child_path, sizeof(child_path), "%s.%ld", path, (long)getpid());
    path = child_path;
  }
  FILE *out;
  int fd = -1;
  if (!strcmp(path, "-")) {
    out = stderr;
  } else {
    fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd < 0 || !(out = fdopen(fd, "w"))) {
      fprintf(stderr, "ompdp: cannot write the report to '%s': %s\n", path, strerror(errno));
      if (fd >= 0)
        close(fd);
      /* Never lose it: fall back to stderr. */
      out = stderr;
      fd = -1;
    }
  }
  int rc = json ? ompdp_report_write_json(r, out) : ompdp_report_write_text(r, out);
  if (fflush(out) != 0)
    rc = -1;
  if (rc)
    fprintf(stderr, "ompdp: writing the report to '%s' failed: %s\n", path, strerror(errno));
  if (fd >= 0 && fclose(out) != 0) {
    fprintf(stderr, "ompdp: writing the report to '%s' failed: %s\n", path, strerror(errno));
    rc = -1;
  }
  return rc;
}
