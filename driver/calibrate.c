/*===- calibrate.c - `ompdp calibrate` -----------------------------------===*\
|*
|* Measures an OpenMP offload device and writes its profile (docs/devices.md)
|* for `ompdp report --device=FILE` and `ompdp run --device=FILE`. The
|* measuring is done by bin/ompdp-calibrate, the one program of ompdp built
|* with OpenMP offload (calibrate_helper.c); this side checks the command
|* line, runs it, checks that what it printed is a profile this ompdp reads,
|* and writes it where -o says. Errors are one line.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "cost_model.h"
#include "driver.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static void calibrate_usage(FILE *out) {
  fputs("usage: ompdp calibrate [-o PROFILE] [--device-num N] [--name NAME]\n"
        "                       [--max-size BYTES] [--reps N]\n"
        "\n"
        "Measures an OpenMP offload device through the OpenMP device memory routines\n"
        "(omp_target_alloc, omp_target_memcpy both ways from pageable and pinned host\n"
        "memory and between device buffers, omp_target_free) at sizes from 8 bytes to\n"
        "--max-size, each repeated, and writes the medians as a device profile for\n"
        "'ompdp report --device=PROFILE' and 'ompdp run --device=PROFILE'.\n"
        "\n"
        "options:\n"
        "  -o PROFILE        write the profile to PROFILE (default: standard output)\n"
        "  --device-num N    the OpenMP device to measure (default: the default device)\n"
        "  --name NAME       the profile's name (default: calibrated)\n"
        "  --max-size BYTES  the largest copy, with an optional K, M or G suffix\n"
        "                    (powers of 1024; default 64M, at least 8, at most 16G)\n"
        "  --reps N          repetitions per size, 1 to 1000 (default 15)\n",
        out);
}

/* A whole number in [lo, hi], with an optional K/M/G suffix when sized. */
static int parse_count(const char *flag, const char *v, int sized, unsigned long long lo,
                       unsigned long long hi, unsigned long long *out) {
  const char *p = v;
  unsigned long long n = 0;
  if (*p < '0' || *p > '9')
    goto bad;
  for (; *p >= '0' && *p <= '9'; ++p) {
    if (n > (ULLONG_MAX - 9) / 10)
      goto bad;
    n = n * 10 + (unsigned)(*p - '0');
  }
  if (sized && *p) {
    unsigned shift = *p == 'K' || *p == 'k' ? 10 : *p == 'M' || *p == 'm' ? 20
                     : *p == 'G' || *p == 'g' ? 30 : 0;
    if (!shift || p[1] || n > (ULLONG_MAX >> shift))
      goto bad;
    n <<= shift;
    ++p;
  }
  if (*p || n < lo || n > hi)
    goto bad;
  *out = n;
  return 0;
bad:
  drv_error("%s wants %s from %llu to %llu, not '%s'", flag,
            sized ? "a size in bytes (K, M, G suffixes allowed)" : "a whole number", lo, hi, v);
  return -1;
}

/* <directory of this executable>/ompdp-calibrate. */
static int helper_path(char *buf, size_t size) {
  ssize_t n = readlink("/proc/self/exe", buf, size - 1);
  if (n <= 0 || (size_t)n >= size - 1)
    return -1;
  buf[n] = '\0';
  char *slash = strrchr(buf, '/');
  if (!slash || (size_t)(slash - buf) + sizeof("/ompdp-calibrate") > size)
    return -1;
  strcpy(slash, "/ompdp-calibrate");
  return access(buf, X_OK);
}

/* Runs the helper with args and reads what it prints (at most the size of
 * a profile). Returns its exit status (-1 when it could not run). */
static int run_helper(const char *path, char **args, char **out, size_t *len) {
  int fds[2];
  *out = NULL;
  *len = 0;
  if (pipe2(fds, O_CLOEXEC))
    return -1;
  pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return -1;
  }
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    execv(path, args);
    _exit(127);
  }
  close(fds[1]);
  size_t cap = 65536;
  char *buf = malloc(cap + 1);
  ssize_t got;
  while (buf) {
    if (*len == cap) {
      if (cap >= OMPDP_PROFILE_MAX_BYTES)
        break; /* the parser refuses it */
      char *nb = realloc(buf, cap * 2 + 1);
      if (!nb) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = nb;
      cap *= 2;
    }
    got = read(fds[0], buf + *len, cap - *len);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    *len += (size_t)got;
  }
  close(fds[0]);
  int status;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  *out = buf;
  if (buf)
    buf[*len] = '\0';
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

typedef struct calibrate_args {
  const char *name;
  unsigned long long dev, max_size, reps;
} calibrate_args_t;

static int calibrate_flag(void *ctx, int argc, char **argv, int *i) {
  calibrate_args_t *ca = ctx;
  const char *v;
  int m;
  if ((m = drv_flag_value(argc, argv, i, "device-num", &v)) != 0)
    return m < 0 || parse_count("--device-num", v, 0, 0, 1023, &ca->dev) ? -1 : 1;
  if ((m = drv_flag_value(argc, argv, i, "max-size", &v)) != 0)
    return m < 0 || parse_count("--max-size", v, 1, 8, 16ull << 30, &ca->max_size) ? -1 : 1;
  if ((m = drv_flag_value(argc, argv, i, "reps", &v)) != 0)
    return m < 0 || parse_count("--reps", v, 0, 1, 1000, &ca->reps) ? -1 : 1;
  if ((m = drv_flag_value(argc, argv, i, "name", &v)) <= 0)
    return m;
  ompdp_device_profile_t probe;
  char text[160], err[256];
  snprintf(text, sizeof(text),
           "ompdp-device-profile 1\nname %.100s\nh2d_pageable latency 1000\nd2h_pageable "
           "latency 1000\nalloc latency 1000\nfree latency 1000\n",
           v);
  if (strlen(v) > 63 || strpbrk(v, " \t\n") ||
      ompdp_profile_parse(text, strlen(text), "--name", &probe, err, sizeof(err))) {
    drv_error("--name wants one word of letters, digits, '-', '_' or '.' (at most 63), "
              "not '%s'",
              v);
    return -1;
  }
  ca->name = v;
  return 1;
}

int drv_calibrate_main(int argc, char **argv) {
  const char *output = NULL;
  calibrate_args_t ca = {.name = "calibrated", .dev = ULLONG_MAX, .max_size = 64ull << 20,
                         .reps = 15};
  drv_args_t spec = {.command = "calibrate", .usage = calibrate_usage, .output = &output,
                     .flag = calibrate_flag, .ctx = &ca};
  int prc = drv_parse_args(argc, argv, &spec);
  if (prc)
    return prc > 0 ? 0 : DRV_EXIT_USAGE;
  const char *name = ca.name;
  unsigned long long dev = ca.dev, max_size = ca.max_size, reps = ca.reps;
  if (output && drv_check_output(output))
    return DRV_EXIT_USAGE;
  char path[PATH_MAX];
  if (helper_path(path, sizeof(path))) {
    drv_error("cannot find ompdp-calibrate next to ompdp (it is built with OpenMP offload; "
              "was the build complete?)");
    return DRV_EXIT_FAILURE;
  }
  char devs[32], sizes[32], nreps[32];
  snprintf(devs, sizeof(devs), "%lld", dev == ULLONG_MAX ? -1ll : (long long)dev);
  snprintf(sizes, sizeof(sizes), "%llu", max_size);
  snprintf(nreps, sizeof(nreps), "%llu", reps);
  char *args[] = {path,     "--device-num", devs,         "--max-size", sizes,
                  "--reps", nreps,          "--name",     (char *)name, NULL};
  char *text;
  size_t len;
  fflush(NULL);
  int st = run_helper(path, args, &text, &len);
  if (st != 0) {
    /* The helper said why on stderr (one line), unless it could not run. */
    if (st < 0 || st == 127)
      drv_error("cannot run %s", path);
    else if (st > 128)
      drv_error("ompdp-calibrate was killed by signal %d", st - 128);
    free(text);
    return DRV_EXIT_FAILURE;
  }
  ompdp_device_profile_t p;
  char err[640];
  if (!text || ompdp_profile_parse(text, len, "the measured profile", &p, err, sizeof(err))) {
    drv_error("%s", text ? err : "out of memory");
    free(text);
    return DRV_EXIT_FAILURE;
  }
  FILE *out = stdout;
  if (output && strcmp(output, "-")) {
    int fd = open(output, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
    out = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!out) {
      drv_error("cannot write '%s': %s", output, strerror(errno));
      if (fd >= 0)
        close(fd);
      free(text);
      return DRV_EXIT_FAILURE;
    }
  }
  int rc = ompdp_profile_write(&p, out);
  if (out != stdout && fclose(out) && !rc)
    rc = -1;
  free(text);
  if (rc) {
    drv_error("cannot write the profile to %s: %s", output ? output : "standard output",
              strerror(errno));
    return DRV_EXIT_FAILURE;
  }
  return 0;
}
