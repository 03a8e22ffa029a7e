/*===- recover_cmd.c - `ompdp recover`: what killed runs left behind -----===*\
|*
|* An `ompdp run` that is killed (a terminal closed, a job scheduler's kill
|* of the launcher, mpirun tearing down a job) leaves its directory
|* (ompdp.XXXXXX in /dev/shm or the temporary directory, run.c) to nobody:
|* the runtime lands the finished report of a program that ends normally
|* itself (rt/orphan_linux.c), but what it cannot (a process that died, a
|* format only the driver writes) stays there, and an event log can hold
|* gigabytes of memory. `ompdp recover` finds these directories (the file
|* `run` in them is no longer locked: run_file.c), lists them with what
|* each holds, and with --all or a directory renders every report there
|* as the killed run would have (run.c, drv_run_render_dir: the same
|* rebuilding from event logs and journals), where it would have put it,
|* then removes the directory. A directory whose processes still run is
|* left alone: their runtime writes their reports when they end. Every
|* `ompdp run` says in one line when such directories wait.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "driver.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct orphan {
  char *dir;
  drv_run_info_t info;
  uint64_t bytes;
  long running; /* a process of the run that is still alive, else 0 */
  size_t files; /* besides `run`: none when ompdp run was killed removing it */
} orphan_t;

/* 1 when pid is a live process of the run in dir: its environment names
 * the directory (OMPDP_OPTIONS), so a pid used again by another process
 * is not taken for one. */
static int runs_in(long pid, const char *dir) {
  if (pid <= 0 || (kill((pid_t)pid, 0) && errno != EPERM))
    return 0;
  char path[64];
  snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return 0;
  size_t cap = 1 << 16, len = 0;
  char *buf = malloc(cap + 1);
  ssize_t got;
  while (buf && (got = read(fd, buf + len, cap - len)) > 0)
    if ((len += (size_t)got) == cap) {
      char *nb = realloc(buf, 2 * cap + 1);
      if (!nb)
        break;
      buf = nb;
      cap *= 2;
    }
  close(fd);
  int found = buf && memmem(buf, len, dir, strlen(dir)) != NULL;
  free(buf);
  return found;
}

/* The pid in a file name the runtime writes (report.<pid>.json,
 * events.<pid>, final.<pid>.<status>, ...), or 0. */
static long file_pid(const char *name) {
  const char *p = strchr(name, '.');
  return p ? strtol(p + 1, NULL, 10) : 0;
}

/* dir (a run directory) when ompdp run is gone: its info, size and whether
 * one of its processes still runs. 1 when it is one, 0 when not. */
static int inspect(const char *dir, orphan_t *o) {
  memset(o, 0, sizeof(*o));
  char *run = drv_path_join(dir, OMPDP_RUN_FILE);
  long holder = 0;
  int rc = run && drv_run_file_read(run, &o->info, &holder) == 0;
  free(run);
  if (!rc || holder) {
    drv_run_info_free(&o->info);
    return 0;
  }
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    struct stat st;
    if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
      o->bytes += (uint64_t)st.st_blocks * 512;
    long pid = strcmp(e->d_name, OMPDP_RUN_FILE) ? file_pid(e->d_name) : 0;
    o->files += strcmp(e->d_name, OMPDP_RUN_FILE) && strcmp(e->d_name, ".") &&
                strcmp(e->d_name, "..");
    if (!o->running && runs_in(pid, dir))
      o->running = pid;
  }
  if (d)
    closedir(d);
  if (!o->running && runs_in(o->info.program_pid, dir))
    o->running = o->info.program_pid;
  o->dir = strdup(dir);
  return o->dir != NULL;
}

/* 1 when name is a run directory that its remover renamed first
 * (OMPDP_RUN_DIR_GONE): whatever is left in it was delivered or is garbage. */
static int is_gone(const char *name) {
  size_t n = strlen(name), g = sizeof(OMPDP_RUN_DIR_GONE) - 1;
  return n > g && !strcmp(name + n - g, OMPDP_RUN_DIR_GONE);
}

/* Removes the flat directory name in the directory at, and what is in it;
 * quietly: its remover may be at it too. */
static void remove_flat(int at, const char *name) {
  int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  struct dirent *e;
  while (d && (e = readdir(d)))
    if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
      unlinkat(dirfd(d), e->d_name, 0);
  if (d)
    closedir(d);
  else if (fd >= 0)
    close(fd);
  unlinkat(at, name, AT_REMOVEDIR);
}

/* dir (named name in the directory at) when it is no run's, nor will be:
 * empty, or holding only a `run` that nobody locks and that cannot be read
 * (ompdp run killed between mkdtemp and the file's first write), and older
 * than 10 s (a starting ompdp run writes and locks `run` at once).
 * Removed. */
static void sweep_stillborn(int at, const char *name, const char *dir, const struct stat *st) {
  if (time(NULL) - st->st_mtime <= 10 || !unlinkat(at, name, AT_REMOVEDIR) || errno != ENOTEMPTY)
    return;
  int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
  struct dirent *e;
  int only_run = d != NULL;
  while (only_run && (e = readdir(d)))
    only_run = !strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
               !strcmp(e->d_name, OMPDP_RUN_FILE);
  if (d)
    closedir(d);
  else if (fd >= 0)
    close(fd);
  char *run = only_run ? drv_path_join(dir, OMPDP_RUN_FILE) : NULL;
  drv_run_info_t info;
  long holder = 0;
  if (run && drv_run_file_read(run, &info, &holder) == 0)
    drv_run_info_free(&info);
  else if (run && errno == EINVAL && !holder && !unlink(run))
    unlinkat(at, name, AT_REMOVEDIR);
  free(run);
}

/* Every run directory of ours whose ompdp run is gone, in the bases. With
 * sweep, also removes what no report can come from: directories renamed
 * for removal (OMPDP_RUN_DIR_GONE) and stillborn ones (sweep_stillborn). */
static size_t find_orphans(orphan_t **out, int sweep) {
  const char *bases[3];
  size_t nb, n = 0, cap = 0;
  drv_run_bases(bases, &nb);
  *out = NULL;
  for (size_t b = 0; b < nb; ++b) {
    /* A folder with no folder in it (a link count of 2: itself and its
     * entry in the parent) holds no run: one stat instead of listing it at
     * every ompdp run. A file system that counts no links of folders (1)
     * is listed. */
    struct stat bst;
    if (sweep && stat(bases[b], &bst) == 0 && S_ISDIR(bst.st_mode) && bst.st_nlink == 2)
      continue;
    DIR *d = opendir(bases[b]);
    struct dirent *e;
    while (d && (e = readdir(d))) {
      struct stat st;
      if (strncmp(e->d_name, "ompdp.", 6) ||
          fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) || !S_ISDIR(st.st_mode) ||
          st.st_uid != geteuid())
        continue;
      if (is_gone(e->d_name)) {
        if (sweep)
          remove_flat(dirfd(d), e->d_name);
        continue;
      }
      char *dir = drv_path_join(bases[b], e->d_name);
      if (n == cap) {
        orphan_t *v = realloc(*out, (cap = cap ? 2 * cap : 8) * sizeof(*v));
        if (!v) {
          free(dir);
          break;
        }
        *out = v;
      }
      if (dir && inspect(dir, &(*out)[n]))
        ++n;
      else if (dir && sweep)
        sweep_stillborn(dirfd(d), e->d_name, dir, &st);
      free(dir);
    }
    if (d)
      closedir(d);
  }
  return n;
}

static void free_orphans(orphan_t *o, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    free(o[i].dir);
    drv_run_info_free(&o[i].info);
  }
  free(o);
}

void drv_orphans_notice(void) {
  orphan_t *o;
  size_t n = find_orphans(&o, 1), waiting = 0;
  uint64_t bytes = 0;
  const char *where = NULL;
  for (size_t i = 0; i < n; ++i)
    if (!o[i].running && o[i].files) {
      ++waiting;
      bytes += o[i].bytes;
      where = o[i].dir;
    }
  char *base = where ? strdup(where) : NULL, *slash = base ? strrchr(base, '/') : NULL;
  if (slash)
    *slash = '\0';
  if (waiting)
    drv_error("%zu earlier run%s of ompdp run %s killed before printing %s report%s (%.1f MiB "
              "in %s): 'ompdp recover' lists them and writes them",
              waiting, waiting == 1 ? "" : "s", waiting == 1 ? "was" : "were",
              waiting == 1 ? "its" : "their", waiting == 1 ? "" : "s", bytes / 1048576.0,
              base ? base : "?");
  free(base);
  free_orphans(o, n);
}

/* What a run directory holds, one line per process. */
static void list_one(const orphan_t *o) {
  const drv_run_info_t *i = &o->info;
  char *out = i->output && i->program_pid ? drv_output_path(i->output, i->program_pid) : NULL;
  printf("%s: ompdp run of %s (process %ld) was killed; %.1f MiB; reports go to %s%s\n", o->dir,
         i->program ? i->program : "?", i->program_pid, o->bytes / 1048576.0,
         out ? out : i->output ? i->output : "standard error",
         out ? " (and <it>.<pid> for other processes)" : "");
  free(out);
  DIR *d = opendir(o->dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    const char *what = !strncmp(e->d_name, "events.", 7)   ? "an event log (rebuilt into a report)"
                       : !strncmp(e->d_name, "final.", 6)  ? "the finished report"
                       : strstr(e->d_name, ".journal")     ? "a journal"
                       : !strncmp(e->d_name, "report.", 7) ? "its report"
                                                           : NULL;
    if (what)
      printf("  process %ld: %s (%s)\n", file_pid(e->d_name), what, e->d_name);
  }
  if (d)
    closedir(d);
  if (o->running)
    printf("  process %ld still runs: its runtime writes its report when it ends\n", o->running);
}

/* Renders what dir holds and removes it. 0, or -1. */
static int recover_one_dir(const orphan_t *o, const char *output) {
  if (!o->files) { /* ompdp run was killed removing it: nothing was lost */
    drv_remove_run_dir(o->dir);
    return 0;
  }
  if (o->running) {
    drv_error("%s: process %ld of the run still runs; its runtime writes its report when it "
              "ends (nothing recovered)", o->dir, o->running);
    return -1;
  }
  /* Ours now: a second `ompdp recover` leaves it alone. */
  char *run = drv_path_join(o->dir, OMPDP_RUN_FILE);
  int fd = run ? open(run, O_RDWR | O_CLOEXEC | O_NOFOLLOW) : -1;
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  free(run);
  if (fd < 0 || fcntl(fd, F_SETLK, &fl)) {
    drv_error("%s: in use (another ompdp recover?)", o->dir);
    if (fd >= 0)
      close(fd);
    return -1;
  }
  int n = drv_run_render_dir(o->dir, &o->info, output);
  if (n == 0)
    drv_error("%s: no report, event log or journal was left", o->dir);
  if (n >= 0)
    drv_remove_run_dir(o->dir);
  close(fd);
  return n < 0 ? -1 : 0;
}

static void recover_usage(FILE *out) {
  fputs("usage: ompdp recover [--all | DIR...] [-o FILE]\n"
        "\n"
        "Finds what runs of 'ompdp run' that were killed left behind (their\n"
        "directories ompdp.XXXXXX in /dev/shm or the temporary directory, or in\n"
        "$OMPDP_RUN_DIR): reports not printed, event logs of processes that died.\n"
        "Without arguments, lists them. With --all, or the directories named,\n"
        "writes each report as the killed run would have (its -o and format;\n"
        "reports rebuilt from event logs are marked partial) and removes the\n"
        "directory. A directory whose processes still run is left alone.\n"
        "\n"
        "options:\n"
        "  --all      every directory the listing shows\n"
        "  -o FILE    write the report there instead (one directory, one report)\n",
        out);
}

typedef struct recover_ctx {
  int all;
  drv_operands_t dirs;
} recover_ctx_t;

/* --all, the one flag of its own. */
static int recover_flag(void *ctx, int argc, char **argv, int *i) {
  (void)argc;
  if (strcmp(argv[*i], "--all"))
    return 0;
  ((recover_ctx_t *)ctx)->all = 1;
  return 1;
}

static int recover_operand(void *ctx, const char *arg) {
  return drv_keep_operand(&((recover_ctx_t *)ctx)->dirs, arg);
}

int drv_recover_main(int argc, char **argv) {
  const char *output = NULL;
  recover_ctx_t c = {0};
  c.dirs.v = calloc((size_t)argc + 1, sizeof(*c.dirs.v));
  if (!c.dirs.v) {
    drv_error("out of memory");
    return DRV_EXIT_FAILURE;
  }
  drv_args_t spec = {.command = "recover", .usage = recover_usage, .output = &output,
                     .flag = recover_flag, .operand = recover_operand, .ctx = &c};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc) {
    free(c.dirs.v);
    return prc > 0 ? 0 : DRV_EXIT_USAGE;
  }
  int all = c.all;
  char **dirs = c.dirs.v;
  size_t ndirs = c.dirs.n;
  if (all && ndirs) {
    drv_error("--all or directories, not both");
    free(dirs);
    return DRV_EXIT_USAGE;
  }
  if (output && !ndirs) {
    drv_error("-o names one report: give the directory it comes from");
    free(dirs);
    return DRV_EXIT_USAGE;
  }
  int rc = 0;
  if (ndirs) {
    for (size_t i = 0; i < ndirs; ++i) {
      orphan_t o;
      if (!inspect(dirs[i], &o)) {
        long holder = 0;
        drv_run_info_t info;
        char *run = drv_path_join(dirs[i], OMPDP_RUN_FILE);
        int ok = run && drv_run_file_read(run, &info, &holder) == 0;
        free(run);
        if (ok)
          drv_run_info_free(&info);
        drv_error(ok && holder ? "%s is in use by ompdp run (process %ld)"
                               : "%s is not the directory of an ompdp run",
                  dirs[i], holder);
        rc = DRV_EXIT_FAILURE;
        continue;
      }
      if (recover_one_dir(&o, output))
        rc = DRV_EXIT_FAILURE;
      free(o.dir);
      drv_run_info_free(&o.info);
    }
    free(dirs);
    return rc;
  }
  free(dirs);
  orphan_t *o;
  size_t n = find_orphans(&o, all);
  size_t shown = 0;
  for (size_t i = 0; i < n; ++i) {
    if (!all) {
      if (o[i].files) {
        list_one(&o[i]);
        ++shown;
      }
    } else if (o[i].running && o[i].files) {
      drv_error("%s: process %ld still runs; its runtime writes its report when it ends",
                o[i].dir, o[i].running);
    } else if (recover_one_dir(&o[i], NULL)) {
      rc = DRV_EXIT_FAILURE;
    }
  }
  if (!shown && !all)
    printf("no run of ompdp run was killed with reports left behind\n");
  else if (!all)
    printf("'ompdp recover --all' writes them (or 'ompdp recover DIR', one)\n");
  free_orphans(o, n);
  return rc;
}
