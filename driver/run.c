/*===- run.c - `ompdp run` ---------------------------------------------------===*\
|*
|* Runs a program with the ompdp runtime injected as an OMPT tool, then
|* renders the report the runtime left behind. The program must not notice:
|* its standard streams are inherited untouched, terminal signals reach it
|* directly, and ompdp exits with the program's own status (re-raising the
|* signal that killed it). The runtime is told through OMPDP_OPTIONS to write
|* a JSON report into a private temporary directory, one file per process
|* (report.<pid>.json: programs the program starts, and children it forks,
|* write their own); the driver reads them back and renders them in the
|* format asked for, the program's own first. A process that ended without
|* writing its report (a fault on any thread, SIGKILL, _exit(), the OOM
|* killer) left its event log in a directory of ours in /dev/shm
|* (events.<pid>, rt/shm_linux.c): the report is rebuilt from it
|* (recover.c), marked partial, and one line says so; where that log had
|* stopped growing, the journal of the analysis (report.<pid>.json.journal,
|* rt/journal.c) stands in for it when it holds more.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* pipe2 */
#include "driver.h"
#include "journal_format.h"
#include "ompdp_rt.h"
#include "report_views.h"
#include "projection.h"
#include "timeline.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <spawn.h>

#include "offload_images.h"
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The runtime's option names, from its one table, so that a misspelt
 * --option is refused here before the program runs. */
static const struct {
  const char *name, *description;
} RuntimeOptions[] = {
#define OMPDP_OPTION(Type, Name, Default, Description) {#Name, Description},
#include "options.inc"
};
#define NUM_RUNTIME_OPTIONS (sizeof(RuntimeOptions) / sizeof(RuntimeOptions[0]))

/* Options that ompdp run sets itself: the user's -o and --format say what
 * the report should be; the runtime always writes JSON into our directory. */
static int is_driver_option(const char *name, size_t n) {
  return (n == 6 && !strncmp(name, "output", 6)) ||
         (n == 6 && !strncmp(name, "format", 6)) ||
         (n == 9 && !strncmp(name, "crash_log", 9)) ||
         (n == 5 && !strncmp(name, "final", 5)) ||
         (n == 12 && !strncmp(name, "final_format", 12)) ||
         (n == 10 && !strncmp(name, "run_output", 10));
}

static void run_usage(FILE *out) {
  char list[128];
  fprintf(out,
          "usage: ompdp run [--format=%s] [-o FILE]\n"
          "                 [--option NAME=VALUE]... [--device=NAME|FILE] [--] PROGRAM [ARGS...]\n"
          "\n"
          "Runs PROGRAM with the ompdp runtime and prints its report on standard\n"
          "error. ompdp exits with the program's exit status.\n"
          "\n"
          "options:\n"
          "  --format=F             how to render the report (default: %s): one of\n"
          "                         %s\n",
          drv_format_choices(), ompdp_report_format_name(OMPDP_RF_TEXT),
          ompdp_report_format_list(list, sizeof(list), OMPDP_RF_ALL, ", ", " or "));
  fputs("  -o FILE                write the report to FILE instead of standard error; in\n"
        "                         FILE, %r is the MPI rank (under mpirun or srun), %p the\n"
        "                         program's process id, %h the host name, %% a '%'\n"
        "  --option NAME=VALUE    set a runtime option; NAME is one of:\n",
        out);
  for (size_t i = 0; i < NUM_RUNTIME_OPTIONS; ++i)
    if (!is_driver_option(RuntimeOptions[i].name, strlen(RuntimeOptions[i].name)))
      fprintf(out, "      %-14s %s\n", RuntimeOptions[i].name,
              RuntimeOptions[i].description);
  fputs(drv_projection_usage, out);
}

/*--- OMPDP_OPTIONS ----------------------------------------------------------*/

/* Appends " name=value", quoting the value the way the runtime's parser
 * (rt/options.c) unquotes it: in double quotes with \" and \\ escapes when
 * it holds a space, a quote or a backslash, or is empty. */
static void add_option(ompdp_strbuf_t *b, const char *name, size_t name_len,
                       const char *value) {
  if (b->len)
    ompdp_sb_puts(b, " ");
  ompdp_sb_putn(b, name, name_len);
  ompdp_sb_puts(b, "=");
  if (*value && !strpbrk(value, " \t\n\"\\")) {
    ompdp_sb_puts(b, value);
    return;
  }
  ompdp_sb_puts(b, "\"");
  for (const char *p = value; *p; ++p) {
    if (*p == '"' || *p == '\\')
      ompdp_sb_puts(b, "\\");
    ompdp_sb_putn(b, p, 1);
  }
  ompdp_sb_puts(b, "\"");
}

/* Checks one --option NAME=VALUE; prints an error and returns -1 if bad. */
static int check_option(const char *item) {
  const char *eq = strchr(item, '=');
  size_t n = eq ? (size_t)(eq - item) : 0;
  if (!eq || n == 0) {
    drv_error("--option wants NAME=VALUE, not '%s'", item);
    return -1;
  }
  if (is_driver_option(item, n)) {
    drv_error("--option %.*s is set by ompdp run itself%s", (int)n, item,
              item[0] == 'o' ? " (use -o FILE)" : item[0] == 'f' ? " (use --format)" : "");
    return -1;
  }
  size_t i = 0;
  while (i < NUM_RUNTIME_OPTIONS &&
         (strlen(RuntimeOptions[i].name) != n || strncmp(RuntimeOptions[i].name, item, n)))
    ++i;
  if (i == NUM_RUNTIME_OPTIONS) {
    drv_error("unknown runtime option '%.*s' (see 'ompdp run --help')", (int)n, item);
    return -1;
  }
  /* The value, by the rules the runtime's parser applies (rt/option_values.c):
   * a value it would refuse (journal_ms=x, verify_hashes=maybe, mode=fast)
   * would cost the run the protection asked for, so it is refused here,
   * before the program starts, in the runtime's words. */
  char name[65], err[256];
  snprintf(name, sizeof(name), "%.*s", (int)(n < 64 ? n : 64), item);
  if (ompdp_option_check(name, eq + 1, err, sizeof(err))) {
    drv_error("%s", err);
    return -1;
  }
  return 0;
}

/*--- the runtime and the temporary directory --------------------------------*/

/* <directory of this executable>/../lib/libompdp-rt.so, resolved. */
static char *find_runtime(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n < 0) {
    drv_error("cannot find the ompdp executable: /proc/self/exe: %s",
              strerror(errno));
    return NULL;
  }
  exe[n] = '\0';
  /* The kernel's path has every link resolved: <prefix>/bin/ompdp, whose
   * <prefix>/lib is found without realpath's walk (a readlink per
   * component, a tenth of ompdp run's own work on /bin/true). */
  char *slash = strrchr(exe, '/');
  if (slash)
    *slash = '\0';
  slash = strrchr(exe, '/');
  if (slash)
    *slash = '\0';
  else
    exe[0] = '\0'; /* /ompdp: the root's parent is the root */
  char path[PATH_MAX + 32];
  snprintf(path, sizeof(path), "%s/lib/libompdp-rt.so", exe);
  if (access(path, R_OK) != 0) {
    drv_error("cannot find the ompdp runtime '%s': %s", path, strerror(errno));
    return NULL;
  }
  char *rt = strdup(path);
  if (!rt)
    drv_error("out of memory");
  return rt;
}

/* This user's folder of run directories in base, <base>/ompdp-<uid>, into
 * out. ompdp run makes its directories there, and looks for what killed
 * runs left there alone rather than among everything base holds (listing a
 * /tmp of 43,000 files, the host offload plugin's leftovers, took 66 ms at
 * every start). Made 0700 on first use when create is set. Returns 1 when
 * the folder is ours alone, 0 when it is not there (nothing of ours in
 * base), 2 when base holds a folder of that name that is not ours alone (a
 * link, another owner, open to others): then base itself is the place. */
static int user_folder(const char *base, char *out, size_t outlen, int create) {
  struct stat st;
  if ((size_t)snprintf(out, outlen, "%s/ompdp-%lu", base, (unsigned long)geteuid()) >= outlen)
    return 2;
  if (create && mkdir(out, 0700) && errno != EEXIST)
    return 2;
  if (lstat(out, &st))
    return create ? 2 : 0;
  return S_ISDIR(st.st_mode) && st.st_uid == geteuid() && !(st.st_mode & 077) ? 1 : 2;
}

void drv_run_bases(const char *bases[3], size_t *n) {
  static char folders[2][PATH_MAX];
  const char *own = getenv("OMPDP_RUN_DIR"), *tmp = getenv("TMPDIR");
  const char *roots[2] = {"/dev/shm", tmp && *tmp ? tmp : "/tmp"};
  *n = 0;
  if (own && *own) {
    bases[(*n)++] = own;
    return;
  }
  for (size_t i = 0; i < 2; ++i)
    switch (user_folder(roots[i], folders[i], sizeof(folders[i]), 0)) {
    case 1:
      bases[(*n)++] = folders[i];
      break;
    case 2:
      bases[(*n)++] = roots[i];
      break;
    default:
      break;
    }
}

/* A directory ompdp.XXXXXX of this run in base: in this user's folder
 * there (user_folder), or in base itself when the folder is not to be
 * had, or when base is $OMPDP_RUN_DIR (the user's choice, used as it is).
 * NULL after saying why. */
static char *make_run_dir(const char *base, int folder) {
  char path[PATH_MAX];
  if (folder && user_folder(base, path, sizeof(path), 1) == 1)
    base = path;
  char *dir = drv_path_join(base, "ompdp.XXXXXX");
  if (!dir) {
    drv_error("out of memory");
    return NULL;
  }
  if (!mkdtemp(dir)) {
    drv_error("cannot create a temporary directory in '%s': %s", base, strerror(errno));
    free(dir);
    return NULL;
  }
  return dir;
}

static char *make_temp_dir(void) {
  const char *base = getenv("OMPDP_RUN_DIR");
  if (base && *base)
    return make_run_dir(base, 0);
  base = getenv("TMPDIR");
  return make_run_dir(base && *base ? base : "/tmp", 1);
}

/* Where the runtime keeps its event log (rt/shm_linux.c), reports and
 * journals for us: a private directory in /dev/shm, whose pages live in memory and are never written
 * back to a disk; NULL (then the temporary directory) where there is none,
 * or where it is small (a container's 64 MiB), which the program may need
 * for its own shared memory, or where $OMPDP_RUN_DIR chooses the place. */
static char *make_shm_dir(void) {
  struct stat st;
  struct statvfs vfs;
  const char *own = getenv("OMPDP_RUN_DIR");
  if (own && *own)
    return NULL; /* the directory the user chose (make_temp_dir) */
  if (stat("/dev/shm", &st) || !S_ISDIR(st.st_mode) || access("/dev/shm", W_OK | X_OK) ||
      statvfs("/dev/shm", &vfs) || (uint64_t)vfs.f_bavail * vfs.f_frsize < ((uint64_t)1 << 30))
    return NULL;
  char path[PATH_MAX];
  if (user_folder("/dev/shm", path, sizeof(path), 1) != 1)
    return NULL;
  char *dir = drv_path_join(path, "ompdp.XXXXXX");
  if (dir && !mkdtemp(dir)) {
    free(dir);
    dir = NULL;
  }
  return dir;
}

/* Removes the temporary directory and whatever the runtime left in it (the
 * report, maybe a partly written one). It is ours alone, and flat. It is
 * first renamed <dir>-gone (OMPDP_RUN_DIR_GONE): from then on it holds
 * nothing to recover, so a kill halfway through (mpirun's SIGKILL after its
 * SIGTERM comes while ompdp run removes a large event log) leaves a
 * directory that `ompdp recover --all` and the next `ompdp run` remove
 * whatever is left in it, not one that a second rendering would turn into
 * a report again, or an empty one that nobody knows for ours. */
void drv_remove_run_dir(const char *dir) {
  size_t len = strlen(dir);
  char *gone = malloc(len + sizeof(OMPDP_RUN_DIR_GONE));
  if (gone) {
    memcpy(gone, dir, len);
    memcpy(gone + len, OMPDP_RUN_DIR_GONE, sizeof(OMPDP_RUN_DIR_GONE));
  }
  const char *at = gone && rename(dir, gone) == 0 ? gone : dir;
  DIR *d = opendir(at);
  if (d) {
    struct dirent *e;
    while ((e = readdir(d))) {
      if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
          !strcmp(e->d_name, OMPDP_RUN_FILE))
        continue;
      unlinkat(dirfd(d), e->d_name, 0);
    }
    unlinkat(dirfd(d), OMPDP_RUN_FILE, 0); /* last, where the rename failed */
    closedir(d);
  }
  if (rmdir(at) != 0 && errno != ENOENT)
    drv_error("cannot remove the temporary directory '%s': %s", at, strerror(errno));
  free(gone);
}

/* pattern (an -o pattern: '%' doubled) made absolute from the current
 * directory; NULL (after an error line) when out of memory or the current
 * directory is unknown: then it stays as it is. */
static char *absolute_pattern(const char *pattern) {
  if (pattern[0] == '/')
    return strdup(pattern);
  char cwd[PATH_MAX];
  if (!getcwd(cwd, sizeof(cwd)))
    return NULL;
  ompdp_strbuf_t b = {0};
  for (const char *p = cwd; *p; ++p)
    ompdp_sb_puts(&b, *p == '%' ? "%%" : (char[2]){*p, '\0'});
  ompdp_sb_printf(&b, "/%s", pattern);
  return ompdp_sb_take(&b);
}

/* The file `run` in dir (run_file.c): what we were asked, locked while we
 * live, so that a runtime that finds the lock free when the program ends
 * knows we were killed and lands the report itself (rt/orphan_linux.c),
 * and `ompdp recover` knows what to do with what is left. Its descriptor
 * is not inherited (and fcntl locks never are). 0, or -1 after an error. */
static int lock_run_dir(const char *dir, const drv_run_info_t *info, int *fd) {
  size_t len = strlen(dir) + sizeof("/" OMPDP_RUN_FILE);
  char *path = malloc(len);
  if (!path) {
    drv_error("out of memory");
    return -1;
  }
  snprintf(path, len, "%s/" OMPDP_RUN_FILE, dir);
  *fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  struct flock fl = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
  int rc = *fd < 0 || fcntl(*fd, F_SETLK, &fl) || drv_run_file_write(*fd, info) ? -1 : 0;
  if (rc)
    drv_error("cannot write '%s': %s", path, strerror(errno));
  free(path);
  return rc;
}

/*--- running the program ----------------------------------------------------*/

/* The signals the driver handles while the program runs. SIGINT and SIGQUIT
 * come from the terminal to the whole process group, so the program gets
 * them already: the driver ignores them and outlives the program to print
 * the report. SIGTERM and SIGHUP are usually sent to the driver alone: it
 * passes them on. */
static const int Handled[] = {SIGINT, SIGQUIT, SIGTERM, SIGHUP};
#define NUM_HANDLED (sizeof(Handled) / sizeof(Handled[0]))

static volatile sig_atomic_t child_pid;

static void forward_signal(int sig) {
  int saved = errno;
  pid_t pid = (pid_t)child_pid;
  if (pid > 0)
    kill(pid, sig);
  errno = saved;
}

typedef struct saved_signals {
  struct sigaction old[NUM_HANDLED];
  sigset_t old_mask;
} saved_signals_t;

static void install_signals(saved_signals_t *s) {
  sigset_t block;
  sigemptyset(&block);
  for (size_t i = 0; i < NUM_HANDLED; ++i)
    sigaddset(&block, Handled[i]);
  /* Blocked until the child's pid is known, so no signal is lost between
   * here and its start. */
  sigprocmask(SIG_BLOCK, &block, &s->old_mask);
  for (size_t i = 0; i < NUM_HANDLED; ++i) {
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sa.sa_handler = (Handled[i] == SIGINT || Handled[i] == SIGQUIT)
                        ? SIG_IGN
                        : forward_signal;
    /* One call that also returns the old action (a query first was a
     * second system call per signal, of a budget counted in tens of
     * microseconds). A signal ompdp was started with ignored (nohup) stays
     * ignored: the program inherits that, and there is nothing to pass on;
     * it is blocked meanwhile, so none comes between the two calls. */
    sigaction(Handled[i], &sa, &s->old[i]);
    if (s->old[i].sa_handler == SIG_IGN)
      sigaction(Handled[i], &s->old[i], NULL);
  }
}

static void restore_signals(const saved_signals_t *s) {
  for (size_t i = 0; i < NUM_HANDLED; ++i)
    sigaction(Handled[i], &s->old[i], NULL);
  sigprocmask(SIG_SETMASK, &s->old_mask, NULL);
}

/* Starts argv[0] and returns its pid, or -1 after an error message with
 * *exec_status set to 127 (not found) or 126 (not executable). The program
 * starts with the dispositions and mask ompdp was given: the signals ompdp
 * ignores or catches for itself are set back to their default (those it
 * was given ignored were left alone, see install_signals), and the mask is
 * the one it had. posix_spawn rather than fork: it shares the memory until
 * the exec instead of copying ompdp's page tables, and reports a failed
 * exec itself. */
static pid_t start_program(char **argv, saved_signals_t *sigs, int *exec_status) {
  *exec_status = 0;
  posix_spawnattr_t attr;
  sigset_t dflt;
  sigemptyset(&dflt);
  for (size_t i = 0; i < NUM_HANDLED; ++i)
    if (sigs->old[i].sa_handler != SIG_IGN)
      sigaddset(&dflt, Handled[i]);
  int err = posix_spawnattr_init(&attr);
  if (!err)
    err = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  if (!err)
    err = posix_spawnattr_setsigdefault(&attr, &dflt);
  if (!err)
    err = posix_spawnattr_setsigmask(&attr, &sigs->old_mask);
  pid_t pid = -1;
  fflush(NULL);
  if (!err)
    err = posix_spawnp(&pid, argv[0], NULL, &attr, argv, environ);
  posix_spawnattr_destroy(&attr);
  if (err) {
    drv_error("cannot run '%s': %s", argv[0], strerror(err));
    *exec_status = (err == ENOENT || err == ENOTDIR) ? 127 : 126;
    return -1;
  }
  child_pid = pid;
  return pid;
}

/* Leaves with the program's status: the same signal if it was killed by
 * one, else its exit code. */
static int exit_like(int status) {
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    fflush(NULL);
    /* No core file for ompdp itself: the program's own is the one wanted. */
    struct rlimit no_core = {0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    raise(sig);
    return 128 + sig; /* only for a signal whose default is not to end us */
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/*--- the subcommand ---------------------------------------------------------*/

typedef struct run_args {
  ompdp_report_format_t format;
  const char *output;
  const char **options; /* NAME=VALUE items, in order */
  size_t num_options;
  char **program; /* NULL-terminated, points into argv */
  drv_projection_t proj; /* --device and its companions */
  int finished; /* the runtime writes the finished report (option final) */
  int orphaned; /* ompdp recover: what a killed run left; how the program ended is unknown */
} run_args_t;

/* Returns 0, or the exit status to leave with (0 included for --help: then
 * *done is set). */
static int parse_args(int argc, char **argv, run_args_t *a, int *done) {
  *done = 0;
  int i = 1;
  while (i < argc) {
    const char *arg = argv[i], *v;
    int m;
    if (!strcmp(arg, "--")) {
      ++i;
      break;
    }
    if (arg[0] != '-' || arg[1] == '\0')
      break; /* the program; what follows is its own */
    if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
      run_usage(stdout);
      *done = 1;
      return 0;
    }
    if ((m = drv_flag_value(argc, argv, &i, "format", &v)) != 0) {
      if (m < 0 || drv_parse_format(v, &a->format))
        return DRV_EXIT_USAGE;
    } else if ((m = drv_flag_value(argc, argv, &i, "o", &v)) != 0 ||
               (m = drv_flag_value(argc, argv, &i, "output", &v)) != 0) {
      if (m < 0)
        return DRV_EXIT_USAGE;
      a->output = v;
    } else if ((m = drv_flag_value(argc, argv, &i, "option", &v)) != 0) {
      if (m < 0 || check_option(v))
        return DRV_EXIT_USAGE;
      a->options[a->num_options++] = v;
    } else if ((m = drv_projection_flag(argc, argv, &i, &a->proj)) != 0) {
      if (m < 0)
        return DRV_EXIT_USAGE;
    } else {
      drv_error("unknown option '%s' (see 'ompdp run --help')", arg);
      return DRV_EXIT_USAGE;
    }
    ++i;
  }
  if (i >= argc) {
    drv_error("no program to run (usage: ompdp run [options] [--] PROGRAM "
              "[ARGS...])");
    return DRV_EXIT_USAGE;
  }
  a->program = argv + i;
  return 0;
}

/* OMP_TOOL=disabled (as libomp reads it: any case) keeps every tool out;
 * ompdp respects it rather than overriding the user. */
static int tool_disabled(void) {
  const char *v = getenv("OMP_TOOL");
  return v && !strcasecmp(v, "disabled");
}

/* Sets the environment that makes the OpenMP runtime load ours. An
 * OMP_TOOL the user set is left alone. */
static int set_environment(const char *runtime, const char *report_path,
                           const char *crash_log, const char *final, const char *out_pattern,
                           const run_args_t *a) {
  ompdp_strbuf_t libs = {0}, opts = {0};
  ompdp_sb_puts(&libs, runtime);
  const char *prev = getenv("OMP_TOOL_LIBRARIES");
  if (prev && *prev) {
    ompdp_sb_puts(&libs, ":");
    ompdp_sb_puts(&libs, prev);
  }
  for (size_t i = 0; i < a->num_options; ++i) {
    const char *eq = strchr(a->options[i], '=');
    add_option(&opts, a->options[i], (size_t)(eq - a->options[i]), eq + 1);
  }
  add_option(&opts, "output", 6, report_path);
  add_option(&opts, "format", 6, ompdp_report_format_name(OMPDP_RF_JSON));
  add_option(&opts, "crash_log", 9, crash_log);
  if (final) {
    add_option(&opts, "final", 5, final);
    add_option(&opts, "final_format", 12, ompdp_report_format_name(a->format));
  }
  /* Where the report goes if we are killed (rt/orphan_linux.c). */
  add_option(&opts, "run_output", 10, out_pattern ? out_pattern : "-");
  int rc = 0;
  if (libs.oom || opts.oom) {
    drv_error("out of memory");
    rc = -1;
  } else if (setenv("OMP_TOOL", "enabled", 0) ||
             setenv("OMP_TOOL_LIBRARIES", libs.d, 1) ||
             setenv("OMPDP_OPTIONS", opts.d, 1)) {
    drv_error("cannot set the environment: %s", strerror(errno));
    rc = -1;
  }
  free(libs.d);
  free(opts.d);
  return rc;
}

/* A report the runtime left: report.<pid>.json in the temporary directory
 * (a file still being written has another name), or for a process that
 * wrote no report, the event log events.<pid> it kept in the shared-memory
 * directory (driver/recover.c) and the journal report.<pid>.json.journal
 * (the one kept in case the event log stopped growing). */
typedef struct found_report {
  long pid;
  char *path; /* the report or the journal; NULL: only an event log */
  int journal;
  char *events; /* the event log, when there is no report */
} found_report_t;

#define JOURNAL_SUFFIX ".journal"

static long report_pid(const char *name, int *journal) {
  size_t n = strlen(name);
  size_t js = sizeof(JOURNAL_SUFFIX) - 1;
  *journal = n > js && !strcmp(name + n - js, JOURNAL_SUFFIX);
  if (*journal)
    n -= js;
  if (n <= sizeof("report..json") - 1 || strncmp(name, "report.", 7) ||
      strncmp(name + n - 5, ".json", 5))
    return -1;
  long pid = 0;
  for (const char *p = name + 7; p < name + n - 5; ++p) {
    if (*p < '0' || *p > '9' || pid > 100000000)
      return -1;
    pid = pid * 10 + (*p - '0');
  }
  return pid;
}

static long main_pid_for_sort;

/* The program's own report first, then by pid (the order processes start
 * in, mostly). */
static int cmp_found(const void *a, const void *b) {
  const found_report_t *x = a, *y = b;
  int xm = x->pid == main_pid_for_sort, ym = y->pid == main_pid_for_sort;
  if (xm != ym)
    return ym - xm;
  return (x->pid > y->pid) - (x->pid < y->pid);
}

/* events.<pid> in the shared-memory directory: the pid, else -1. */
static long events_pid(const char *name) {
  if (strncmp(name, "events.", 7) || !name[7])
    return -1;
  long pid = 0;
  for (const char *p = name + 7; *p; ++p) {
    if (*p < '0' || *p > '9' || pid > 100000000)
      return -1;
    pid = pid * 10 + (*p - '0');
  }
  return pid;
}

char *drv_path_join(const char *dir, const char *name) {
  size_t len = strlen(dir) + strlen(name) + 2;
  char *path = malloc(len);
  if (path)
    snprintf(path, len, "%s/%s", dir, name);
  return path;
}

static found_report_t *add_found(found_report_t **out, size_t *n, size_t *cap) {
  if (*n == *cap) {
    size_t ncap = *cap ? 2 * *cap : 4;
    found_report_t *v = realloc(*out, ncap * sizeof(*v));
    if (!v)
      return NULL;
    *out = v;
    *cap = ncap;
  }
  found_report_t *f = &(*out)[(*n)++];
  memset(f, 0, sizeof(*f));
  return f;
}

static size_t find_reports(const char *dir, pid_t main_pid, found_report_t **out) {
  *out = NULL;
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  size_t n = 0, cap = 0;
  /* Event logs, read in the same pass (a second one cost three system
   * calls more of ompdp run's budget), placed once every report is known. */
  typedef struct {
    long pid;
    char *path;
  } log_t;
  log_t *logs = NULL;
  size_t nlogs = 0, caplogs = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    int journal;
    long pid = report_pid(e->d_name, &journal);
    if (pid < 0) {
      long epid = events_pid(e->d_name);
      if (epid < 0)
        continue;
      if (nlogs == caplogs) {
        size_t ncap = caplogs ? 2 * caplogs : 4;
        log_t *v = realloc(logs, ncap * sizeof(*v));
        if (!v)
          break;
        logs = v;
        caplogs = ncap;
      }
      logs[nlogs].pid = epid;
      if (!(logs[nlogs].path = drv_path_join(dir, e->d_name)))
        break;
      ++nlogs;
      continue;
    }
    char *path = drv_path_join(dir, e->d_name);
    found_report_t *f = path ? add_found(out, &n, &cap) : NULL;
    if (!f) {
      free(path);
      break;
    }
    f->pid = pid;
    f->path = path;
    f->journal = journal;
  }
  /* A journal whose report was written is stale (the process was killed
   * between writing one and removing the other). */
  size_t kept = 0;
  for (size_t i = 0; i < n; ++i) {
    int stale = 0;
    for (size_t j = 0; (*out)[i].journal && j < n && !stale; ++j)
      stale = !(*out)[j].journal && (*out)[j].pid == (*out)[i].pid;
    if (stale)
      free((*out)[i].path);
    else
      (*out)[kept++] = (*out)[i];
  }
  n = kept;
  closedir(d);
  /* The event logs of processes with no report (the runtime removes its log
   * once the report is written, but may be killed in between), or only a
   * journal. */
  for (size_t k = 0; k < nlogs; ++k) {
    long pid = logs[k].pid;
    char *path = logs[k].path;
    logs[k].path = NULL;
    size_t i = 0;
    while (i < n && (*out)[i].pid != pid)
      ++i;
    if (i < n && !(*out)[i].journal) {
      free(path);
      continue;
    }
    found_report_t *f = i < n ? &(*out)[i] : add_found(out, &n, &cap);
    if (!f) {
      free(path);
      break;
    }
    f->pid = pid;
    f->events = path;
  }
  for (size_t k = 0; k < nlogs; ++k)
    free(logs[k].path);
  free(logs);
  main_pid_for_sort = (long)main_pid;
  if (n > 1)
    qsort(*out, n, sizeof(**out), cmp_found);
  return n;
}

/* The last --option name=N, or dflt. */
static int option_int(const run_args_t *a, const char *name, int dflt) {
  size_t n = strlen(name);
  int v = dflt;
  for (size_t i = 0; i < a->num_options; ++i)
    if (!strncmp(a->options[i], name, n) && a->options[i][n] == '=')
      v = atoi(a->options[i] + n + 1);
  return v;
}

/* 1 if the user turned the runtime option name off (--option name=0). */
static int option_off(const run_args_t *a, const char *name) {
  return option_int(a, name, 1) <= 0;
}

/* Why there is no report, in one line. */
static void say_why_no_runtime(const char *program);

static void explain_no_report(const run_args_t *a, int status, int disabled) {
  if (disabled) {
    drv_error("no report: OMP_TOOL=disabled kept the OpenMP runtime from loading ompdp");
  } else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) {
    drv_error("no report: %s was killed by signal %d (%s), which no program can "
              "catch, before ompdp could write one%s",
              a->program[0], SIGKILL, strsignal(SIGKILL),
              !option_off(a, "journal_ms")      ? " or save its journal (every journal_ms)"
              : option_off(a, "crash_log_mb") ? ", and the event log and the journal were off "
                                                "(crash_log_mb=0, journal_ms=0)"
                                              : ", and the journal was off (journal_ms=0)");
  } else if (WIFSIGNALED(status)) {
    drv_error("no report: %s was killed by signal %d (%s) before ompdp could write one",
              a->program[0], WTERMSIG(status), strsignal(WTERMSIG(status)));
  } else {
    say_why_no_runtime(a->program[0]);
  }
}

/* The program as posix_spawnp found it: a name without '/' on PATH. */
static int find_program(const char *name, char *out, size_t len) {
  if (strchr(name, '/'))
    return snprintf(out, len, "%s", name) < (int)len ? 0 : -1;
  const char *path = getenv("PATH");
  for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
    const char *end = strchr(p, ':');
    size_t dl = end ? (size_t)(end - p) : strlen(p);
    if (snprintf(out, len, "%.*s%s%s", (int)dl, p, dl ? "/" : "", name) < (int)len &&
        access(out, X_OK) == 0)
      return 0;
    p += dl + (end != NULL);
  }
  return -1;
}

/* A program that never started the runtime: why, from its file. The
 * usual causes are builds: no OpenMP runtime at all, or target regions
 * compiled for the host only (no -fopenmp-targets), whose code makes no
 * OpenMP call, so the runtime, and ompdp's tool with it, never starts. */
static void say_why_no_runtime(const char *program) {
  char path[PATH_MAX];
  ompdp_offload_info_t info;
  memset(&info, 0, sizeof(info));
  if (find_program(program, path, sizeof(path)) || ompdp_offload_scan_file(path, &info)) {
    drv_error("no report: %s did not load an OMPT-capable OpenMP runtime or ended before "
              "writing one",
              program);
  } else if (!info.links_openmp && !info.num_images) {
    drv_error("no report: %s does not link an OpenMP runtime (libomp): build it with -fopenmp "
              "and -fopenmp-targets=<device triple>",
              program);
  } else if (!info.num_images && info.target_functions) {
    int one = info.target_functions == 1;
    drv_error("no report: %s was built without -fopenmp-targets: its %u target region%s "
              "compiled for the host only, run%s as plain host code and never start%s the "
              "OpenMP runtime, so no data moved and nothing was checked; build with "
              "-fopenmp-targets=nvptx64-nvidia-cuda (or x86_64-pc-linux-gnu for offload to "
              "the host)",
              program, info.target_functions, one ? " is" : "s are", one ? "s" : "",
              one ? "s" : "");
  } else if (!info.num_images) {
    drv_error("no report: %s has no target region and no device image (was it built with "
              "-fopenmp-targets?) and never started the OpenMP runtime",
              program);
  } else {
    drv_error("no report: %s did not load an OMPT-capable OpenMP runtime (is "
              "LD_LIBRARY_PATH or its RUNPATH pointing at one without OMPT?) or ended before "
              "writing one",
              program);
  }
}

/* The report of a process that wrote none, from its event log (or, where
 * the log stopped growing before the end and the journal holds more, from
 * its journal) into r. Returns 0 after saying in one line where it comes
 * from, -1 (nothing in r) after saying why there is none. */
static int recover_one(const found_report_t *f, const char *why, int is_main, int status,
                       uint64_t ended_at_ns, ompdp_report_t *r) {
  char err[1024];
  drv_recovery_t info = {0};
  int have_log = f->events && drv_recover(f->events, why, is_main ? ended_at_ns : 0, r, &info,
                                          err, sizeof(err)) == 0;
  if (f->events && !have_log)
    drv_error("the event log of process %ld is unreadable: %s", f->pid, err);
  if (f->path && (!have_log || info.stopped)) {
    ompdp_report_t j;
    if (ompdp_report_read_file_with_timeline(f->path, why, &j, err, sizeof(err))) {
      drv_error("the journal of process %ld is unreadable: %s", f->pid, err);
    } else if (!have_log || j.recovered_events > info.events) {
      if (have_log)
        ompdp_report_free(r);
      *r = j;
      char when[32] = "?";
      time_t secs = (time_t)(r->recovered_flushed_at_ns / 1000000000u);
      struct tm tm;
      if (localtime_r(&secs, &tm))
        strftime(when, sizeof(when), "%H:%M:%S", &tm);
      drv_error("%s; its report is recovered from the journal flushed at %s (%llu events) "
                "and is partial",
                why, when, (unsigned long long)r->recovered_events);
      return 0;
    } else {
      ompdp_report_free(&j);
    }
  }
  if (!have_log)
    return -1;
  if (info.gave_up)
    drv_error("the runtime ran out of memory in process %ld; its report is rebuilt from the "
              "event log it kept (%llu events), without rewrites",
              f->pid, (unsigned long long)info.events);
  else
    drv_error("%s; ompdp rebuilt its report from the event log it kept (%llu events: every "
              "operation that completed), and it is partial",
              why, (unsigned long long)info.events);
  if (is_main && WIFSIGNALED(status)) {
    char buf[160];
    snprintf(buf, sizeof(buf), "the program was stopped by signal %d (%s): the operations in "
             "flight then are lost", WTERMSIG(status), strsignal(WTERMSIG(status)));
    if (ompdp_report_add_warning(r, buf))
      drv_error("out of memory");
  }
  return 0;
}

/* Plans a report's rewrites, sorts its findings and projects it (--device).
 * A report rebuilt from the event log carries no plan (it says so in its
 * warnings) and is left as it is. */
static void complete_other(ompdp_report_t *r, const run_args_t *a) {
  drv_plan_rewrites(r);
  ompdp_report_sort(r);
  drv_projection_apply(&a->proj, r);
}

/* The program's own report, completed as complete_other does and with what
 * only the driver knows: how the program ended. The runtime's finished
 * report (option final) must come out the same. */
static void complete_report(ompdp_report_t *r, const run_args_t *a, int status) {
  if (!a->orphaned) {
    r->has_exit_status = WIFEXITED(status) || WIFSIGNALED(status);
    r->exit_status = WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
  }
  /* A runtime that could not read its command line leaves argv empty. */
  if (r->argc == 0) {
    size_t n = 0;
    while (a->program[n])
      ++n;
    int ok = (r->argv = calloc(n ? n : 1, sizeof(*r->argv))) != NULL;
    for (size_t i = 0; ok && i < n; ++i) {
      r->argv[i] = ompdp_strdup(a->program[i]);
      ok = r->argv[i] != NULL;
      r->argc += ok;
    }
    if (!ok)
      drv_error("out of memory");
  }
  complete_other(r, a);
}

/* Reads one report, completes it with what only the driver knows (how the
 * program ended, when it is the program's own) and renders it to path
 * (NULL: stderr). */
static void render_one(const found_report_t *f, int is_main, const run_args_t *a,
                       int status, uint64_t ended_at_ns, const char *path) {
  ompdp_report_t r;
  char err[1024], why[256];
  if (a->orphaned)
    snprintf(why, sizeof(why), "ompdp run was killed, and %s ended without writing its report",
             is_main ? "the program" : "a process it started");
  else if (!is_main)
    snprintf(why, sizeof(why), "process %ld ended without writing its report", f->pid);
  else if (WIFSIGNALED(status))
    snprintf(why, sizeof(why), "the program was killed by signal %d (%s) before it could "
             "write its report", WTERMSIG(status), strsignal(WTERMSIG(status)));
  else
    snprintf(why, sizeof(why), "the program ended (exit status %d) without writing its "
             "report", WEXITSTATUS(status));
  if (f->journal || f->events) {
    if (recover_one(f, why, is_main, status, ended_at_ns, &r))
      return;
  } else if (ompdp_report_read_file_with_timeline(f->path, NULL, &r, err, sizeof(err))) {
    drv_error("the report of process %ld is unreadable: %s", f->pid, err);
    return;
  }
  if (is_main)
    complete_report(&r, a, status);
  else
    complete_other(&r, a);
  /* A file that cannot take it (a full disk) loses nothing: the error
   * says so, and the report goes to stderr after all. */
  if (drv_write_report(&r, a->format, path, stderr) && path && strcmp(path, "-")) {
    drv_error("the report follows on standard error");
    drv_write_report(&r, a->format, NULL, stderr);
  }
  ompdp_report_free(&r);
}

/* The finished report the runtime wrote (option final) for the exit status
 * the program ended with, when it is the only report: printed as it is,
 * since reading the report back and completing it here would give the same
 * bytes (OMPDP_CHECK_FINAL=1 checks that it does). 1 when it was used. */
static int print_finished(const char *dir, pid_t pid, const found_report_t *found, size_t n,
                          const run_args_t *a, int status) {
  if (!a->finished || n != 1 || found[0].pid != (long)pid || found[0].journal ||
      found[0].events || !WIFEXITED(status))
    return 0;
  size_t len = strlen(dir) + 64;
  char *path = malloc(len);
  if (!path)
    return 0;
  snprintf(path, len, "%s/final.%ld.%d", dir, (long)pid, WEXITSTATUS(status));
  int used = 0;
  const char *check = getenv("OMPDP_CHECK_FINAL");
  if (check && *check && strcmp(check, "0")) {
    /* Completed here as well, into memory, and compared byte for byte. */
    char *mine = NULL, *theirs = NULL;
    size_t mine_len = 0, theirs_len = 0;
    ompdp_report_t r;
    char err[512];
    FILE *m = open_memstream(&mine, &mine_len);
    int ok = m && !ompdp_report_read_file_with_timeline(found[0].path, NULL, &r, err, sizeof(err));
    if (ok) {
      complete_report(&r, a, status);
      ompdp_report_render(&r, a->format, m);
      ompdp_report_free(&r);
    }
    if (m)
      fclose(m);
    int have = !ompdp_read_file_capped(path, OMPDP_REPORT_MAX_BYTES, "report", &theirs,
                                       &theirs_len, err, sizeof(err));
    fprintf(stderr, "ompdp: check: the runtime's finished report %s\n",
            !have                                ? "is missing"
            : !ok                                ? "cannot be compared"
            : mine_len == theirs_len && !memcmp(mine, theirs, mine_len) ? "is identical"
                                                                        : "DIFFERS");
    free(mine);
    free(theirs);
  } else if (access(path, R_OK) == 0) {
    const char *out = a->output;
    if (drv_copy_report(path, out, stderr) && out && strcmp(out, "-")) {
      drv_error("the report follows on standard error");
      drv_copy_report(path, NULL, stderr);
    }
    used = 1;
  }
  free(path);
  return used;
}

/* Renders every report the runtime wrote: the program's own (or the only
 * one) where -o says, further ones (other processes) after it on stderr, or
 * to <-o FILE>.<pid>. */
static size_t render(const char *dir, pid_t pid, const run_args_t *a, int status,
                     uint64_t ended_at_ns, int disabled) {
  found_report_t *found;
  size_t n = find_reports(dir, pid, &found);
  if (n == 0 && !a->orphaned)
    explain_no_report(a, status, disabled);
  int printed = print_finished(dir, pid, found, n, a, status);
  int to_file = a->output && strcmp(a->output, "-") != 0;
  for (size_t i = 0; i < n && !printed; ++i) {
    /* What a killed run left: the program's own report may have been
     * written by its runtime (rt/orphan_linux.c), and the one found first
     * is then another process's. */
    int is_main = found[i].pid == (long)pid || (n == 1 && !a->orphaned);
    char *path = NULL;
    if (i == 0 && (!a->orphaned || is_main)) {
      path = a->output ? strdup(a->output) : NULL;
    } else if (to_file) {
      size_t len = strlen(a->output) + 24;
      path = malloc(len);
      if (path)
        snprintf(path, len, "%s.%ld", a->output, found[i].pid);
    }
    if (i == 1)
      drv_error("%zu processes wrote reports; those of the others follow%s%s%s", n,
                to_file ? " in " : "", to_file ? a->output : "", to_file ? ".<pid>" : "");
    if ((i == 0 && a->output && !path) || (i > 0 && to_file && !path))
      drv_error("out of memory");
    else
      render_one(&found[i], is_main, a, status, ended_at_ns, path);
    free(path);
  }
  for (size_t i = 0; i < n; ++i) {
    free(found[i].path);
    free(found[i].events);
  }
  free(found);
  return n;
}

/* final.<pid>.<status> in dir: the finished report of the program (the
 * runtime wrote it for us, and we were killed before printing it), its
 * path and the status; NULL when there is none. */
static char *find_final(const char *dir, long pid, int *code) {
  DIR *d = opendir(dir);
  char prefix[40], *path = NULL;
  snprintf(prefix, sizeof(prefix), "final.%ld.", pid);
  struct dirent *e;
  while (d && !path && (e = readdir(d))) {
    char *end;
    if (strncmp(e->d_name, prefix, strlen(prefix)))
      continue;
    long v = strtol(e->d_name + strlen(prefix), &end, 10);
    if (*end || v < 0 || v > 255)
      continue;
    *code = (int)v;
    path = drv_path_join(dir, e->d_name);
  }
  if (d)
    closedir(d);
  return path;
}

int drv_run_render_dir(const char *dir, const drv_run_info_t *info, const char *output) {
  run_args_t a;
  memset(&a, 0, sizeof(a));
  a.orphaned = 1;
  char *program[2] = {info->program ? info->program : "?", NULL};
  a.program = program;
  if (!info->format || drv_parse_format(info->format, &a.format))
    a.format = OMPDP_RF_TEXT;
  a.proj.device = info->device;
  a.proj.host_memory = info->host_memory;
  a.proj.kernel_scale = info->kernel_scale;
  if (drv_projection_load(&a.proj))
    return -1;
  long pid = info->program_pid;
  char *path = output ? strdup(output)
               : info->output && pid ? drv_output_path(info->output, pid)
               : info->output ? strdup(info->output) : NULL;
  if ((output || info->output) && !path) {
    drv_error("out of memory");
    return -1;
  }
  a.output = path;
  int code, written = 0;
  /* The runtime's finished report, which we were killed before printing:
   * as it is, and the program's other files with it are done. */
  char *final = pid ? find_final(dir, pid, &code) : NULL;
  if (final && drv_copy_report(final, a.output, stderr) == 0) {
    ++written;
    char name[64];
    snprintf(name, sizeof(name), "report.%ld.json", pid);
    unlinkat(AT_FDCWD, final, 0);
    char *rep = drv_path_join(dir, name);
    if (rep)
      unlink(rep);
    free(rep);
    snprintf(name, sizeof(name), "events.%ld", pid);
    if ((rep = drv_path_join(dir, name)))
      unlink(rep);
    free(rep);
  }
  free(final);
  written += (int)render(dir, (pid_t)pid, &a, 0, 0, 0);
  free(path);
  return written;
}

/* dir + name, with any '%' of dir doubled: a path pattern for the runtime,
 * which expands %p in name. NULL when out of memory. */
static char *runtime_path(const char *dir, const char *name) {
  char *path = malloc(2 * strlen(dir) + strlen(name) + 1), *q = path;
  if (!path)
    return NULL;
  for (const char *p = dir; *p; ++p) {
    *q++ = *p;
    if (*p == '%')
      *q++ = '%';
  }
  strcpy(q, name);
  return path;
}

int drv_run_main(int argc, char **argv) {
  /* With --option verbose=1, where ompdp run's own time goes (the runtime
   * says where its time in the program goes): the short-run benchmark's
   * breakdown (benchmarks/run.py). */
  uint64_t t_start = drv_monotonic_ns();
  run_args_t a;
  memset(&a, 0, sizeof(a));
  a.format = OMPDP_RF_TEXT;
  /* At most one --option per argument. */
  a.options = calloc((size_t)argc + 1, sizeof(*a.options));
  if (!a.options) {
    drv_error("out of memory");
    return DRV_EXIT_FAILURE;
  }
  int done, rc = parse_args(argc, argv, &a, &done);
  if (rc || done) {
    free(a.options);
    return rc;
  }
  /* Reports that earlier runs, killed, could not print (recover_cmd.c). */
  drv_orphans_notice();
  /* %r, %h and %p in -o (output_path.c); %p is the program's pid, and until
   * the program runs, ompdp's own. */
  char *out_pattern = NULL, *out_path = NULL;
  if (a.output && (drv_output_pattern(a.output, &out_pattern) ||
                   !(out_path = drv_output_path(out_pattern, (long)getpid())))) {
    free(out_pattern);
    free(a.options);
    return DRV_EXIT_USAGE;
  }
  if (out_path)
    a.output = out_path;
  if ((a.output && drv_check_output(a.output)) || drv_projection_load(&a.proj)) {
    free(out_pattern);
    free(out_path);
    free(a.options);
    return DRV_EXIT_USAGE;
  }

  char *runtime = find_runtime();
  /* From here SIGTERM and SIGHUP are held until the program runs (then
   * passed on to it), and once it has ended they no longer stop ompdp run
   * before it has written the report and removed its directory: a job
   * scheduler or mpirun that sends them while ompdp run makes or removes
   * the directory does not leave one that is no run's. */
  saved_signals_t sigs;
  install_signals(&sigs);
  /* One private directory for the runtime's event log, reports and
   * journals: in /dev/shm, where they cost no disk writes (and creating
   * and removing it costs less than on a disk's file system), else in the
   * temporary directory. */
  char *dir = runtime ? make_shm_dir() : NULL;
  if (runtime && !dir)
    dir = make_temp_dir();
  /* <dir>/report.%p.json, <dir>/events.%p and <dir>/final.%p. */
  char *report_path = dir ? runtime_path(dir, "/report.%p.json") : NULL;
  char *crash_log = dir ? runtime_path(dir, "/events.%p") : NULL;
  /* The runtime writes the finished report when the driver would only
   * complete it: a format it can write, and no projection. */
  a.finished = ompdp_report_format_in_runtime(a.format) && !a.proj.device;
  char *final = dir && a.finished ? runtime_path(dir, "/final.%p") : NULL;
  if (dir && (!report_path || !crash_log || (a.finished && !final)))
    drv_error("out of memory");
  /* Where the report goes if we are killed, for the runtime (whose
   * program may change directory) and ompdp recover (run from anywhere):
   * absolute. */
  char *abs_pattern = out_pattern && strcmp(out_pattern, "-") ? absolute_pattern(out_pattern)
                                                              : NULL;
  drv_run_info_t info = {.driver_pid = (long)getpid(),
                         .format = (char *)ompdp_report_format_name(a.format),
                         .output = abs_pattern ? abs_pattern : out_pattern,
                         .device = (char *)a.proj.device,
                         .host_memory = (char *)a.proj.host_memory,
                         .kernel_scale = (char *)a.proj.kernel_scale,
                         .program = a.program[0]};
  int run_fd = -1;
  if (!report_path || !crash_log || (a.finished && !final) ||
      set_environment(runtime, report_path, crash_log, final, info.output, &a) ||
      lock_run_dir(dir, &info, &run_fd)) {
    if (run_fd >= 0)
      close(run_fd);
    if (dir)
      drv_remove_run_dir(dir);
    restore_signals(&sigs);
    free(crash_log);
    free(final);
    free(report_path);
    free(dir);
    free(runtime);
    free(abs_pattern);
    free(out_pattern);
    free(out_path);
    free(a.options);
    return DRV_EXIT_USAGE;
  }
  free(runtime);
  int disabled = tool_disabled();
  if (disabled)
    drv_error("OMP_TOOL=disabled is set: the OpenMP runtime will not load ompdp, so "
              "there will be no report (unset OMP_TOOL to use ompdp)");

  int exec_status, status = 0;
  uint64_t t_spawn = drv_monotonic_ns();
  pid_t pid = start_program(a.program, &sigs, &exec_status);
  if (pid > 0) {
    info.program_pid = (long)pid;
    drv_run_file_write(run_fd, &info); /* without it, ompdp recover guesses */
  }
  char *prog_path = pid > 0 && out_pattern ? drv_output_path(out_pattern, (long)pid) : NULL;
  if (prog_path) {
    free(out_path);
    a.output = out_path = prog_path;
  }
  /* Unblocked only now: a SIGTERM that came while forking is forwarded. */
  sigprocmask(SIG_SETMASK, &sigs.old_mask, NULL);
  if (pid > 0) {
    while (waitpid(pid, &status, 0) < 0) {
      if (errno != EINTR) {
        drv_error("cannot wait for '%s': %s", a.program[0], strerror(errno));
        status = 0;
        exec_status = DRV_EXIT_FAILURE;
        break;
      }
    }
  }
  child_pid = 0;
  uint64_t t_ended = drv_monotonic_ns();
  struct timespec ended;
  clock_gettime(CLOCK_REALTIME, &ended);
  uint64_t ended_at_ns = (uint64_t)ended.tv_sec * 1000000000u + (uint64_t)ended.tv_nsec;
  if (pid > 0 && !exec_status) {
    /* A reader of our stderr or -o that went away must not turn the
     * program's exit status into SIGPIPE's: the write fails instead. */
    struct sigaction ign, old_pipe;
    memset(&ign, 0, sizeof(ign));
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGPIPE, &ign, &old_pipe);
    render(dir, pid, &a, status, ended_at_ns, disabled);
    sigaction(SIGPIPE, &old_pipe, NULL);
  }
  uint64_t t_rendered = drv_monotonic_ns();
  drv_remove_run_dir(dir);
  if (option_int(&a, "verbose", 0) > 0)
    fprintf(stderr,
            "ompdp: time in ompdp run: before the program %llu us, reading and printing the "
            "report %llu us, removing its directory %llu us\n",
            (unsigned long long)(t_spawn - t_start) / 1000,
            (unsigned long long)(t_rendered - t_ended) / 1000,
            (unsigned long long)(drv_monotonic_ns() - t_rendered) / 1000);
  close(run_fd); /* the lock goes with it */
  restore_signals(&sigs);
  free(crash_log);
  free(final);
  free(report_path);
  free(dir);
  free(abs_pattern);
  free(out_pattern);
  free(out_path);
  free(a.options);
  if (exec_status)
    return exec_status;
  return exit_like(status);
}
