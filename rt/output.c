/*===- output.c - where and how the report is written --------------*- C -*-===*\
|*
|* Honours the output and format options. In the output path, %p stands for
|* the process id (%% for a '%'), so that every process of a run writes its
|* own file: `ompdp run` relies on it. A child made by fork() (without exec)
|* whose path has no %p writes to <output>.<pid>, and never to stderr, so it
|* can neither clobber nor interleave with the parent's report.
|*
|* A report file is written whole or not at all: into a new temporary file
|* next to it, renamed over the path when complete. So a reader never sees
|* half a report, a full disk leaves the previous file alone, and a symlink
|* planted at the path is replaced, never followed. Files are created with
|* mode 0666 less the user's umask. A path that is not a regular file (a
|* device such as /dev/full, a FIFO) is written in place, still without
|* following a symlink. When the report cannot be written where asked, it
|* goes to stderr instead, after a one-line error: nothing measured is lost.
|* Nor is a report lost for want of memory for its stream: one is set aside
|* at start-up, on a static buffer.
|*
|* stderr is used only while fd 2 is still the file it was when the runtime
|* was loaded: a program that closed its stderr, or opened a file of its own
|* as fd 2, must not find the report in it. SIGPIPE from a reader that went
|* away is blocked while writing, so it cannot end the program.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "ompdp_rt.h"
#include "report_formats.h"
#include "rank.h"
#include "shm.h"
#include "tool.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/*--- stderr -------------------------------------------------------------===*/

static int stderr_known;
static dev_t stderr_dev;
static ino_t stderr_ino;

/* The runtime is loaded at the program's first OpenMP call, or at start-up
 * when preloaded: fd 2 is then still the program's own stderr. */
__attribute__((constructor)) static void remember_stderr(void) {
  struct stat st;
  if (fstat(STDERR_FILENO, &st) == 0) {
    stderr_dev = st.st_dev;
    stderr_ino = st.st_ino;
    stderr_known = 1;
  }
}

int ompdp_stderr_usable(void) {
  struct stat st;
  return stderr_known && fstat(STDERR_FILENO, &st) == 0 && st.st_dev == stderr_dev &&
         st.st_ino == stderr_ino;
}

/* One "ompdp: ..." line on stderr, if it is still the program's. */
static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...) {
  if (!ompdp_stderr_usable())
    return;
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  dprintf(STDERR_FILENO, "ompdp: %s\n", msg);
}

/*--- SIGPIPE --------------------------------------------------------------===*/

typedef struct pipe_guard {
  sigset_t old_mask;
  int was_pending;
  int on;
} pipe_guard_t;

/* on: the descriptor may be a pipe or a socket. A file the runtime just
 * made (replace_file) raises no SIGPIPE, and the guard's four system calls
 * were a tenth of what a short run's two reports cost. */
static void guard_sigpipe(pipe_guard_t *g, int on) {
  g->on = on;
  if (!on)
    return;
  sigset_t set, pending;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &set, &g->old_mask);
  g->was_pending = sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE);
}

/* Discards a SIGPIPE that our writes raised (one the program had pending
 * before stays), then restores the mask. */
static void unguard_sigpipe(const pipe_guard_t *g) {
  if (!g->on)
    return;
  sigset_t set, pending;
  sigemptyset(&set);
  sigaddset(&set, SIGPIPE);
  if (!g->was_pending && sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE)) {
    struct timespec zero = {0, 0};
    sigtimedwait(&set, NULL, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &g->old_mask, NULL);
}

/*--- rendering --------------------------------------------------------------===*/

/* What goes into a file: the report in the format asked for, or the bytes
 * of a journal. Returns 0, or -1 with errno set. */
typedef int (*emit_fn)(const void *ctx, FILE *out);

/* r in the format called fmt (options.c checked it: anything else is
 * text). */
static int write_as(const ompdp_report_t *r, const char *fmt, FILE *out) {
  ompdp_report_format_t f = OMPDP_RF_TEXT;
  ompdp_report_format_parse(fmt, OMPDP_RF_RUNTIME, &f);
  return ompdp_report_write_as(r, f, out);
}

static int emit_report(const void *ctx, FILE *out) {
  return write_as(ctx, ompdp_opts.format, out);
}

/* Emits into out and closes out. Returns 0, or -1 with errno set. */
static int emit_and_close(emit_fn emit, const void *ctx, FILE *out, int may_pipe) {
  pipe_guard_t g;
  guard_sigpipe(&g, may_pipe);
  errno = 0;
  int rc = emit(ctx, out);
  if (fflush(out) != 0)
    rc = -1;
  int err = errno;
  if (fclose(out) != 0 && !rc) {
    rc = -1;
    err = errno;
  }
  unguard_sigpipe(&g);
  errno = rc && !err ? EIO : err;
  return rc;
}

/*--- a stream in reserve -----------------------------------------------------===*/

/* A stream needs memory (fdopen), and without one there is no report, nor
 * the line in it that says ompdp ran out of memory. So one stream into a
 * static buffer is made at start-up; a report whose stream cannot be made
 * is rendered into it and written with write(2). A report too big for it is
 * not written: half a report would be worse. It serves once. */
static char spare_buf[256 << 10];
static _Atomic(FILE *) spare;

void ompdp_output_reserve(void) {
  if (!atomic_load(&spare))
    atomic_store(&spare, fmemopen(spare_buf, sizeof(spare_buf), "w"));
}

/* Renders through the spare stream into fd, and closes fd. */
static int emit_spare(emit_fn emit, const void *ctx, int fd, int may_pipe) {
  FILE *s = atomic_exchange(&spare, NULL);
  if (!s) {
    close(fd);
    errno = ENOMEM;
    return -1;
  }
  pipe_guard_t g;
  guard_sigpipe(&g, may_pipe);
  errno = 0;
  int rc = emit(ctx, s);
  long len = rc || fflush(s) ? -1 : ftell(s);
  int err = errno ? errno : ENOMEM;
  fclose(s);
  rc = len < 0 || (size_t)len >= sizeof(spare_buf) - 1 ? -1 : 0; /* cut: too big */
  for (size_t done = 0; !rc && done < (size_t)len;) {
    ssize_t w = write(fd, spare_buf + done, (size_t)len - done);
    if (w < 0 && errno == EINTR)
      continue;
    if (w <= 0) {
      rc = -1;
      err = w < 0 ? errno : EIO;
      break;
    }
    done += (size_t)w;
  }
  if (close(fd) && !rc) {
    rc = -1;
    err = errno;
  }
  unguard_sigpipe(&g);
  errno = rc ? err : 0;
  return rc;
}

/* Emits into fd through a stream of its own, or the spare one when there is
 * no memory for a stream (reports only: a journal can wait for the next
 * flush), and closes fd. may_pipe: guard against SIGPIPE (guard_sigpipe).
 * Returns 0, or -1 with errno set. */
static int emit_to_fd(emit_fn emit, const void *ctx, int fd, int may_pipe) {
  if (fd < 0)
    return -1;
  FILE *out = fdopen(fd, "w");
  if (out)
    return emit_and_close(emit, ctx, out, may_pipe);
  if (errno == ENOMEM && emit == emit_report)
    return emit_spare(emit, ctx, fd, may_pipe);
  int err = errno;
  close(fd);
  errno = err;
  return -1;
}

/* Into a descriptor that may be a pipe, a socket or a FIFO (stderr, a
 * device named by the user): SIGPIPE guarded. */
static int emit_to(emit_fn emit, const void *ctx, int fd) { return emit_to_fd(emit, ctx, fd, 1); }

/* Through a private copy of fd 2: the program's own stderr FILE (its buffer,
 * its lock, maybe closed by the program) is never touched. */
static int write_to_stderr(const ompdp_report_t *r) {
  if (!ompdp_stderr_usable()) {
    errno = EBADF;
    return -1;
  }
  return emit_to(emit_report, r, fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3));
}

/* Writes path where it is, without following a symlink. O_NONBLOCK: a FIFO
 * that nobody reads must not hang the program's exit. */
static int write_in_place(const ompdp_report_t *r, const char *path) {
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0666);
  if (fd < 0)
    return -1;
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0)
    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  return emit_to(emit_report, r, fd);
}

/* Writes a new temporary file beside path and renames it over path.
 * Returns 0; 1 when no temporary file can be made there (nothing written);
 * -1 with errno set when writing or renaming failed.
 *
 * clear_first: the old name at path (a file, or a link, which the rename
 * would replace just the same: the callers send devices and FIFOs to
 * write_in_place) is removed before the rename.
 * On ext4, renaming over a file makes the kernel allocate and write back
 * the new file's blocks at once (the auto_da_alloc safeguard): 170 to 360
 * us per report, a third of what the runtime costs a short program
 * (issue 30; rename over a file against unlink and rename: 340 and 30
 * us). A reader then sees the old report, no file, or the new one, never
 * part of one. Not for the journal, which must survive a SIGKILL between
 * the two calls. */
static int replace_file(const char *path, emit_fn emit, const void *ctx, int clear_first) {
  char tmp[PATH_MAX + 64];
  if (snprintf(tmp, sizeof(tmp), "%s.ompdp-%ld.tmp", path, (long)getpid()) >= (int)sizeof(tmp)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0)
    return 1;
  int rc = emit_to_fd(emit, ctx, fd, 0); /* a regular file, ours */
  if (!rc && clear_first)
    unlink(path); /* nothing there: ENOENT, and the rename goes on */
  if (!rc && rename(tmp, path) != 0)
    rc = -1;
  if (rc) {
    int err = errno;
    unlink(tmp);
    errno = err;
  }
  return rc;
}

static int write_to_file(const ompdp_report_t *r, const char *path) {
  struct stat st;
  int there = lstat(path, &st) == 0;
  if (there && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))
    return write_in_place(r, path); /* a device or a FIFO */
  /* Nothing there: nothing to remove first (one made meanwhile is
   * replaced by the rename all the same). */
  int rc = replace_file(path, emit_report, r, there);
  /* No temporary file here (a directory we may not create in, a name
   * taken): the file itself may still be writable. */
  return rc == 1 ? write_in_place(r, path) : rc;
}

/*--- the path ---------------------------------------------------------------===*/

/* Expands %p, %%, and %r and %h (the MPI rank and the host, rank_linux.c);
 * a forked child whose pattern has no %p gets ".<pid>" appended. Returns 0,
 * or -1 when the result does not fit. */
static int expand_path(const char *pattern, int forked, char *out, size_t size) {
  char pid[24], part[256];
  snprintf(pid, sizeof(pid), "%ld", (long)getpid());
  size_t n = 0;
  int has_pid = 0;
  for (const char *p = pattern; *p; ++p) {
    const char *add = p;
    size_t len = 1;
    if (p[0] == '%' && p[1] == 'p') {
      add = pid;
      len = strlen(pid);
      has_pid = 1;
      ++p;
    } else if (p[0] == '%' && p[1] == '%') {
      ++p;
    } else if (p[0] == '%' && (p[1] == 'r' || p[1] == 'h')) {
      add = ompdp_rank_path_part(p[1], part, sizeof(part), ompdp_stderr_usable());
      len = strlen(add);
      ++p;
    }
    if (n + len >= size)
      return -1;
    memcpy(out + n, add, len);
    n += len;
  }
  if (forked && !has_pid) {
    size_t len = strlen(pid);
    if (n + 1 + len >= size)
      return -1;
    out[n++] = '.';
    memcpy(out + n, pid, len);
    n += len;
  }
  out[n] = '\0';
  return 0;
}

int ompdp_output_expand(const char *pattern, char *out, size_t size) {
  return expand_path(pattern, 0, out, size);
}

int ompdp_output_expand_other(const char *pattern, char *out, size_t size) {
  return expand_path(pattern, 1, out, size);
}

int ompdp_output_report_path(pid_t start_pid, char *out, size_t size) {
  const char *pattern = ompdp_opts.output && *ompdp_opts.output ? ompdp_opts.output : "-";
  if (!strcmp(pattern, "-") || expand_path(pattern, getpid() != start_pid, out, size))
    return -1;
  return 0;
}

/*--- the finished report ----------------------------------------------------===*/

static int emit_final(const void *ctx, FILE *out) {
  return write_as(ctx, ompdp_opts.final_format, out);
}

int ompdp_output_finished(const ompdp_report_t *r, const char *path, uint64_t failed) {
  if (!strcmp(path, "-")) {
    /* Nothing to take back once written: refused first if memory ran out. */
    if (ompdp_alloc_failures() != failed) {
      errno = ENOMEM;
      return -1;
    }
    if (!ompdp_stderr_usable()) {
      errno = EBADF;
      return -1;
    }
    return emit_to(emit_final, r, fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3));
  }
  struct stat st;
  int there = lstat(path, &st) == 0;
  int rc = there && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)
               ? emit_to(emit_final, r,
                         open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK))
               : replace_file(path, emit_final, r, there);
  if (rc)
    return -1;
  if (ompdp_alloc_failures() != failed) {
    unlink(path);
    errno = ENOMEM;
    return -1;
  }
  return 0;
}

int ompdp_output_final(const ompdp_report_t *r, int exit_status, uint64_t failed) {
  char path[PATH_MAX];
  if (expand_path(ompdp_opts.final, 0, path, sizeof(path) - 8)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  snprintf(path + strlen(path), 8, ".%d", exit_status & 0xff);
  return ompdp_output_finished(r, path, failed);
}

/*--- the journal ------------------------------------------------------------===*/

/* <report path>.journal; -1 when the report goes to stderr (no journal) or
 * the path does not fit. */
int ompdp_output_journal_path(pid_t start_pid, char *out, size_t size) {
  if (ompdp_output_report_path(start_pid, out, size))
    return -1;
  size_t n = strlen(out);
  if (n + sizeof(".journal") > size)
    return -1;
  memcpy(out + n, ".journal", sizeof(".journal"));
  return 0;
}

typedef struct bytes {
  const char *p;
  size_t n;
} bytes_t;

static int emit_bytes(const void *ctx, FILE *out) {
  const bytes_t *b = ctx;
  return fwrite(b->p, 1, b->n, out) == b->n ? 0 : -1;
}

/* Only a regular file (or nothing, or a symlink, which is replaced) is
 * replaced: a journal never goes into a device or a FIFO. */
int ompdp_output_journal(const char *path, const char *data, size_t len) {
  struct stat st;
  if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode)) {
    errno = EEXIST;
    return -1;
  }
  bytes_t b = {data, len};
  int rc = replace_file(path, emit_bytes, &b, 0);
  if (rc == 1)
    rc = -1; /* errno from the failed open */
  return rc;
}

int ompdp_output_report(const ompdp_report_t *r, pid_t start_pid) {
  const char *pattern = ompdp_opts.output && *ompdp_opts.output ? ompdp_opts.output : "-";
  int forked = getpid() != start_pid;
  if (!strcmp(pattern, "-")) {
    /* The parent reports on stderr; one report there is enough. */
    if (forked)
      return 0;
    return write_to_stderr(r);
  }
  char path[PATH_MAX];
  /* Under `ompdp run`, the crash log (rt/shm_linux.c) stays, and ompdp run
   * rebuilds the report from it, in the format the user asked for. */
  int rebuilt = ompdp_shm_active();
  const char *then = rebuilt  ? "; ompdp run will rebuild it from the event log"
                     : forked ? ""
                              : "; the report follows on stderr";
  if (expand_path(pattern, forked, path, sizeof(path))) {
    say("the report path '%.200s...' is too long%s", pattern, then);
  } else if (write_to_file(r, path) == 0) {
    return 0;
  } else {
    say("cannot write the report to '%s': %s%s", path, strerror(errno), then);
  }
  if (rebuilt)
    return -1;
  if (!forked && write_to_stderr(r))
    say("the report could not be written on stderr either: %s", strerror(errno));
  return -1;
}
