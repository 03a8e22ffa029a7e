/*===- calibrate_helper.c - bin/ompdp-calibrate, the measuring half -------===*\
|*
|* Measures one OpenMP offload device through the OpenMP device memory
|* routines, the same path a mapped variable takes through libomptarget:
|* omp_target_alloc, omp_target_memcpy in both directions (from ordinary,
|* pageable host memory, and from pinned memory when the runtime offers
|* llvm_omp_target_alloc_host), between two device buffers, and
|* omp_target_free. Each repetition allocates fresh device buffers, as a
|* construct's map does, so first-touch costs are in the copies as they are
|* in a program. A copy is timed until it is complete: around the call,
|* which returns only then (omp_target_memcpy is synchronous). The OMPT
|* data-op callbacks, which this program also registers as its own tool,
|* bracket only the start of an asynchronous copy on a GPU (an H200 once
|* "copied" 64 MiB from pinned memory in 11 us), so they time only the
|* allocations and frees, which are synchronous (the OpenMP API's own
|* bookkeeping, a few hundred nanoseconds per call, is then left out as it
|* is from a run); where no callback comes (a runtime without OMPT, or
|* OMP_TOOL=disabled), the call itself is timed. Many sizes, repeated,
|* medians; the profile goes to standard output in the format of
|* docs/devices.md, and `ompdp calibrate` checks it (physical bounds too)
|* and saves it. What it measures, size by size, goes to standard error,
|* and a size whose repetitions disagree (the slowest over twice the
|* fastest, past the first microseconds: a busy machine) is flagged.
|*
|* This is the only part of ompdp built with -fopenmp and an offload target:
|* `ompdp` itself runs it, so that no other subcommand depends on OpenMP.
|* It links nothing of ompdp (an offload link cannot take the sanitizers
|* that a test build puts in ompdp's libraries): it prints the profile with
|* the keys of cost_model.h, and `ompdp calibrate` parses that with the one
|* parser and writes it with the one writer. Arguments are checked by
|* `ompdp calibrate`; they are rechecked here only as far as safety needs.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "cost_model.h"

#include <omp-tools.h>
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* LLVM's pinned host allocation (libomptarget); absent elsewhere. */
extern void *llvm_omp_target_alloc_host(size_t size, int device_num) __attribute__((weak));
extern void llvm_omp_target_free_host(void *ptr, int device_num) __attribute__((weak));

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*--- the OMPT data-op callback: the times ompdp would measure ---------------*/

static double cb_begin, cb_sum; /* one thread measures */
static int cb_count, cb_tool;

static void on_data_op(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                       ompt_data_t *target_data, ompt_id_t *host_op_id,
                       ompt_target_data_op_t optype, void *src, int src_dev, void *dst,
                       int dst_dev, size_t bytes, const void *codeptr) {
  (void)target_task_data, (void)target_data, (void)host_op_id, (void)optype, (void)src;
  (void)src_dev, (void)dst, (void)dst_dev, (void)bytes, (void)codeptr;
  if (endpoint == ompt_scope_begin) {
    cb_begin = now_ns();
  } else if (endpoint == ompt_scope_end) {
    cb_sum += now_ns() - cb_begin;
    cb_count++;
  }
}

/* The measured device's kind (sm_90, generic-64bit, ...), for the profile's
 * description. */
static char device_type[64] = "";
static int device_type_of = -1;

static void on_device_init(int device_num, const char *type, ompt_device_t *device,
                           ompt_function_lookup_t lookup, const char *documentation) {
  (void)device, (void)lookup, (void)documentation;
  if (type && (device_type_of < 0 || device_num == device_type_of))
    snprintf(device_type, sizeof(device_type), "%s", type);
}

static int tool_init(ompt_function_lookup_t lookup, int initial_device, ompt_data_t *data) {
  (void)initial_device, (void)data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  cb_tool = set && set(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op) ==
                       ompt_set_always;
  if (set)
    set(ompt_callback_device_initialize, (ompt_callback_t)on_device_init);
  return 1;
}
static void tool_fini(ompt_data_t *data) { (void)data; }

/* Found by the OpenMP runtime in this executable (exported: ENABLE_EXPORTS). */
ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {tool_init, tool_fini, {0}};
  return &result;
}

static const char *const OpKey[OMPDP_COST_COUNT] = {
#define OMPDP_X(Enum, Key, Desc) Key,
    OMPDP_COST_OPS(OMPDP_X)
#undef OMPDP_X
};

/* The profile format of docs/devices.md; times with enough digits that
 * nothing is lost before `ompdp calibrate` reads them. */
static int print_profile(const ompdp_device_profile_t *p) {
  printf("ompdp-device-profile %d\nname %s\ndescription %s\n", OMPDP_PROFILE_VERSION, p->name,
         p->description);
  for (int op = 0; op < OMPDP_COST_COUNT; ++op)
    for (size_t i = 0; i < p->op[op].n; ++i)
      printf("%s point %.0f %.17g\n", OpKey[op], p->op[op].pt[i].size, p->op[op].pt[i].time_ns);
  return fflush(stdout) || ferror(stdout) ? -1 : 0;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
  qsort(v, n, sizeof(*v), cmp_double);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int fail(const char *msg) {
  fprintf(stderr, "ompdp: %s\n", msg);
  return 1;
}

enum { S_ALLOC, S_FREE, S_H2D, S_D2H, S_H2D_PIN, S_D2H_PIN, S_D2D, S_NUM };
static const char *const SlotName[S_NUM] = {"alloc",      "free",       "h2d_pageable",
                                            "d2h_pageable", "h2d_pinned", "d2h_pinned", "d2d"};

/* "64 KiB" (static buffers: one of each at a time in a printf). */
static const char *size_name(uint64_t size) {
  static char buf[2][32];
  static int k;
  char *b = buf[k++ & 1];
  if (size >= (1u << 20))
    snprintf(b, 32, "%llu MiB", (unsigned long long)(size >> 20));
  else if (size >= 1024)
    snprintf(b, 32, "%llu KiB", (unsigned long long)(size >> 10));
  else
    snprintf(b, 32, "%llu B", (unsigned long long)size);
  return b;
}

static const char *time_name(double ns) {
  static char buf[4][32];
  static int k;
  char *b = buf[k++ & 3];
  if (ns >= 1e6)
    snprintf(b, 32, "%.2f ms", ns / 1e6);
  else if (ns >= 1e3)
    snprintf(b, 32, "%.1f us", ns / 1e3);
  else
    snprintf(b, 32, "%.0f ns", ns);
  return b;
}

typedef struct noisy {
  int slot;
  uint64_t size;
  double lo, median, hi;
} noisy_t;
#define MAX_NOISY 8

int main(int argc, char **argv) {
  int dev = -1, reps = 15;
  uint64_t max_size = 64ull << 20;
  const char *name = "calibrated";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--device-num"))
      dev = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--reps"))
      reps = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--max-size"))
      max_size = strtoull(argv[i + 1], NULL, 10);
    else if (!strcmp(argv[i], "--name"))
      name = argv[i + 1];
  }
  if (reps < 1 || reps > 1000 || max_size < 8 || max_size > (1ull << 34))
    return fail("bad arguments to ompdp-calibrate (run it through 'ompdp calibrate')");
  int ndev = omp_get_num_devices();
  if (dev < 0)
    dev = omp_get_default_device();
  int host = omp_get_initial_device();
  if (ndev <= 0 || dev < 0 || dev >= ndev || dev == host) {
    char msg[256];
    snprintf(msg, sizeof(msg),
             "no offload device %d: this OpenMP runtime has %d (numbered from 0; is it built "
             "with offload, and does it find the device?)",
             dev, ndev);
    return fail(msg);
  }

  unsigned char *page = malloc(max_size), *page2 = malloc(max_size);
  unsigned char *pin = llvm_omp_target_alloc_host ? llvm_omp_target_alloc_host(max_size, dev) : NULL;
  if (!page || !page2)
    return fail("out of memory for the host buffers");
  memset(page, 1, max_size);
  memset(page2, 2, max_size);
  if (pin)
    memset(pin, 3, max_size);
  device_type_of = dev;
  /* The first call starts the device's plugin: not part of any figure. */
  void *warm = omp_target_alloc(8, dev);
  if (!warm)
    return fail("omp_target_alloc failed on the device");
  omp_target_memcpy(warm, page, 8, 0, 0, dev, host);
  omp_target_free(warm, dev);

  ompdp_device_profile_t p;
  memset(&p, 0, sizeof(p));
  snprintf(p.name, sizeof(p.name), "%s", name);
  char hostname[64] = "?";
  gethostname(hostname, sizeof(hostname) - 1);
  time_t t = time(NULL);
  struct tm tm;
  char date[32] = "?";
  if (gmtime_r(&t, &tm))
    strftime(date, sizeof(date), "%Y-%m-%d", &tm);
  snprintf(p.description, sizeof(p.description),
           "measured by ompdp calibrate on device %d (%s) of %d on %s, %s; medians of %d "
           "repetitions; copies timed until complete, allocations %s%s",
           dev, device_type[0] ? device_type : "?", ndev, hostname, date, reps,
           cb_tool ? "at the OMPT data-op callbacks" : "around the OpenMP calls (no OMPT)",
           pin ? "" : "; no pinned host memory (pageable figures used)");
  static const ompdp_cost_op_t Op[S_NUM] = {OMPDP_COST_ALLOC,      OMPDP_COST_FREE,
                                            OMPDP_COST_H2D_PAGEABLE, OMPDP_COST_D2H_PAGEABLE,
                                            OMPDP_COST_H2D_PINNED, OMPDP_COST_D2H_PINNED,
                                            OMPDP_COST_D2D};
  double *samples[S_NUM];
  for (int k = 0; k < S_NUM; ++k)
    if (!(samples[k] = malloc(3 * (size_t)reps * sizeof(double))))
      return fail("out of memory");

  noisy_t noisy[MAX_NOISY];
  int num_noisy = 0;
  fprintf(stderr,
          "ompdp: measuring device %d (%s): allocations, copies both ways from pageable%s host "
          "memory and within the device, 8 B to %s, %d repetitions each, medians\n",
          dev, device_type[0] ? device_type : "unknown kind", pin ? " and pinned" : "",
          size_name(max_size), reps);
  /* 8 bytes to max_size by factors of 4, and max_size itself. */
  for (uint64_t size = 8;; size = size * 4 > max_size ? max_size : size * 4) {
    size_t n[S_NUM] = {0};
    double spent = 0;
    for (int r = 0; r < reps && (r < 3 || spent < 2e9); ++r) {
      /* Three fresh buffers, as three maps would get: each copy in lands
       * in memory nothing touched yet. */
      void *d[3] = {NULL, NULL, NULL};
      double t0 = now_ns();
      int rc = 0;
/* Copies: around the call (until complete); allocations: at the callbacks. */
#define TIMED(Slot, Call)                                                                     \
  do {                                                                                        \
    cb_sum = 0, cb_count = 0;                                                                 \
    double t_ = now_ns();                                                                     \
    rc |= (Call);                                                                             \
    double w_ = now_ns() - t_;                                                                \
    int copy_ = (Slot) != S_ALLOC && (Slot) != S_FREE;                                        \
    samples[Slot][n[Slot]++] = cb_count && !copy_ ? cb_sum : w_;                              \
  } while (0)
      for (int j = 0; j < 3; ++j) {
        TIMED(S_ALLOC, (d[j] = omp_target_alloc(size, dev)) == NULL);
        if (!d[j])
          return fail("omp_target_alloc failed (is the device out of memory? try a smaller "
                      "--max-size)");
      }
      TIMED(S_H2D, omp_target_memcpy(d[0], page, size, 0, 0, dev, host));
      TIMED(S_D2H, omp_target_memcpy(page2, d[0], size, 0, 0, host, dev));
      TIMED(S_D2D, omp_target_memcpy(d[1], d[0], size, 0, 0, dev, dev));
      if (pin) {
        TIMED(S_H2D_PIN, omp_target_memcpy(d[2], pin, size, 0, 0, dev, host));
        TIMED(S_D2H_PIN, omp_target_memcpy(pin, d[2], size, 0, 0, host, dev));
      }
      if (rc)
        return fail("omp_target_memcpy failed on the device");
      for (int j = 0; j < 3; ++j)
        TIMED(S_FREE, (omp_target_free(d[j], dev), 0));
#undef TIMED
      spent += now_ns() - t0;
    }
    fprintf(stderr, "ompdp:   %9s:", size_name(size));
    for (int k = 0; k < S_NUM; ++k) {
      if (!n[k])
        continue;
      ompdp_cost_curve_t *cv = &p.op[Op[k]];
      double m = median(samples[k], n[k]);
      /* Sorted by median(): the middle half of the repetitions. */
      double q1 = samples[k][n[k] / 4], q3 = samples[k][(3 * n[k]) / 4];
      fprintf(stderr, " %s %s", SlotName[k], time_name(m));
      if (n[k] >= 4 && q3 - q1 > m / 2 && q3 - q1 > 5000) {
        if (num_noisy < MAX_NOISY)
          noisy[num_noisy] = (noisy_t){k, size, q1, m, q3};
        ++num_noisy;
      }
      if (cv->n < OMPDP_PROFILE_MAX_POINTS) {
        /* A figure of 0 ns is below the clock's resolution: say 1. */
        cv->pt[cv->n++] = (ompdp_cost_point_t){(double)size, m >= 1 ? m : 1};
        cv->given = 1;
      }
    }
    fputc('\n', stderr);
    if (size >= max_size)
      break;
  }
  /* The middle half of the repetitions spread over more than half the
   * median (and 5 us): that median is not a figure to rely on. */
  for (int i = 0; i < num_noisy && i < MAX_NOISY; ++i)
    fprintf(stderr,
            "ompdp: warning: %s at %s is noisy: the middle half of its repetitions took %s to "
            "%s (median %s); is the machine busy? measure again, or with more --reps\n",
            SlotName[noisy[i].slot], size_name(noisy[i].size), time_name(noisy[i].lo),
            time_name(noisy[i].hi), time_name(noisy[i].median));
  if (num_noisy > MAX_NOISY)
    fprintf(stderr, "ompdp: warning: %d more noisy points\n", num_noisy - MAX_NOISY);
  if (pin && llvm_omp_target_free_host)
    llvm_omp_target_free_host(pin, dev);
  free(page);
  free(page2);
  if (print_profile(&p))
    return fail("cannot write the profile");
  return 0;
}
