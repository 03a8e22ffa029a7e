/*===- floortool.c - the least an exact tool does per event --------*- C -*-===*\
|*
|* The benchmark suite's "floor tool": an OMPT tool that registers the
|* callbacks ompdp registers (as benchmarks/nulltool does) and does, on the
|* program's thread, only what any tool that reports exact duplicate and
|* round-trip transfers with their times must do for each event:
|*   - read the clock when an operation, a kernel launch or a construct
|*     begins and ends;
|*   - hash every transferred byte (XXH3-64, as ompdp) when a copy ends;
|*   - store what it saw: a 40-byte record (begin, end, hash, the addresses
|*     and size folded into a key) in a per-thread buffer.
|* It keeps nothing beyond a 1 MiB buffer per thread, which it reuses (a
|* real tool also hands full buffers to an analysis: not counted here),
|* interns nothing, analyses nothing and writes no report. Loaded with
|*
|*   OMP_TOOL=enabled OMP_TOOL_LIBRARIES=.../libfloortool.so ./prog
|*
|* its distance from the null tool is the floor of the per-event goal
|* (benchmarks/run.py, "per event: the floor"): a tool that stays exact
|* cannot cost less than this on the program's thread.
|*
|* Built by benchmarks/run.py as a shared library; depends on omp-tools.h
|* and xxhash.h (inline).
|*
\*===----------------------------------------------------------------------===*/
#define XXH_INLINE_ALL
#include <omp-tools.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <xxhash.h>
#if defined(__x86_64__)
#include <x86intrin.h>
#else
#include <time.h>
#endif

typedef struct rec {
  uint64_t begin, end, hash, key;
  uint32_t kind, device;
} rec_t;

#define REC_MAX ((1u << 20) / sizeof(rec_t))

static _Thread_local rec_t *buf __attribute__((tls_model("initial-exec")));
static _Thread_local uint32_t pos __attribute__((tls_model("initial-exec")));
/* The records must be observable, or the compiler could drop them. */
volatile uint64_t floortool_records;

static inline uint64_t now(void) {
#if defined(__x86_64__)
  return __rdtsc();
#else
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

static void store(uint64_t begin, uint64_t end, uint64_t hash, uint64_t key, uint32_t kind,
                  uint32_t device) {
  if (__builtin_expect(!buf, 0)) {
    buf = malloc(REC_MAX * sizeof(rec_t));
    if (!buf)
      return;
  }
  buf[pos] = (rec_t){begin, end, hash, key, kind, device};
  if (++pos == REC_MAX) {
    pos = 0;
    floortool_records += REC_MAX;
  }
}

static void cb_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra) {
  (void)task_data, (void)target_task_data;
  if (endpoint == ompt_scope_begin)
    target_data->value = now();
  else
    store(target_data->value, now(), 0, (uint64_t)(uintptr_t)codeptr_ra, (uint32_t)kind,
          (uint32_t)device_num);
}

static void cb_target_data_op_emi(ompt_scope_endpoint_t endpoint,
                                  ompt_data_t *target_task_data, ompt_data_t *target_data,
                                  ompt_id_t *host_op_id, ompt_target_data_op_t optype,
                                  void *src_addr, int src_device_num, void *dest_addr,
                                  int dest_device_num, size_t bytes, const void *codeptr_ra) {
  (void)target_task_data, (void)target_data;
  /* The begin time rides in the operation's id, which the EMI interface
   * hands back at its end. */
  if (endpoint == ompt_scope_begin) {
    *host_op_id = now();
    return;
  }
  uint64_t end = now(), hash = 0;
  /* The host's copy of the bytes, once the copy is done. */
  if (optype == ompt_target_data_transfer_to_device ||
      optype == ompt_target_data_transfer_to_device_async)
    hash = XXH3_64bits(src_addr, bytes);
  else if (optype == ompt_target_data_transfer_from_device ||
           optype == ompt_target_data_transfer_from_device_async)
    hash = XXH3_64bits(dest_addr, bytes);
  uint64_t key = (uint64_t)(uintptr_t)src_addr ^ ((uint64_t)(uintptr_t)dest_addr << 1) ^
                 ((uint64_t)bytes << 7) ^ (uint64_t)(uintptr_t)codeptr_ra;
  store(*host_op_id, end, hash, key, (uint32_t)optype,
        (uint32_t)src_device_num << 16 | (uint32_t)dest_device_num);
}

static void cb_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                 ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  (void)target_data;
  if (endpoint == ompt_scope_begin)
    *host_op_id = now();
  else
    store(*host_op_id, now(), 0, 0, 100, requested_num_teams);
}

static void cb_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation) {
  (void)device_num, (void)type, (void)device, (void)lookup, (void)documentation;
}

static void finalize(ompt_data_t *tool_data) {
  (void)tool_data;
  floortool_records += pos;
}

#include "../nulltool/tool_start.h"
