/*===- count_through.c - a counting OMPT tool in front of ompdp -----------===*\
|*
|* Linked into a test program, it is the program's own OMPT tool (libomp
|* finds ompt_start_tool in the executable first). It loads the tool that
|* OMP_TOOL_LIBRARIES names first (ompdp's runtime, under `ompdp run`), if
|* any, passes every callback through to it, and counts the operations that
|* complete, the way ompdp counts them: a data operation at its end, a
|* kernel when its construct ends (or when the next kernel of the construct
|* is launched). Each count is written through, as it changes, to the file
|* $COUNT_OUTPUT, mapped shared, so it is there whatever kills the process:
|*
|*   8 little-endian uint64: transfers allocs deletes kernels
|*   bytes_transferred pending_kind pending_bytes completions
|*
|* Around each completion, under one lock: pending_kind (1 transfer, 2
|* alloc, 3 delete, 4 kernel) is set, ompdp's callback runs, the count is
|* added and pending cleared. A death from outside that lands in between
|* leaves pending set: that operation was in flight, and ompdp may or may
|* not have counted it.
|*
|* Deaths made to order, at the K-th completion ($COUNT_CRASH_AT; with
|* COUNT_CRASH_ON=helper, the K-th on a thread other than the initial one),
|* after the count is written, still holding the lock (so no other thread
|* is half-way through a completion): COUNT_CRASH_HOW=kill (SIGKILL, the
|* default), segv (a write through a null pointer, in this callback, on
|* this thread) or abort. count_through_quiesce() takes the lock for good,
|* for a program that crashes by itself and wants exact counts.
|* Built by the tests that use it; not part of ompdp.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <omp-tools.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

enum { TRANSFERS, ALLOCS, DELETES, KERNELS, BYTES, PENDING, PENDING_BYTES, COMPLETIONS, NUM };

static volatile uint64_t *counts;
static uint64_t scratch[NUM];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t crash_at, helper_completions;
static int crash_on_helper;
static const char *crash_how = "kill";

static ompt_start_tool_result_t *inner;
static ompt_function_lookup_t real_lookup;
static ompt_set_callback_t real_set;
static ompt_callback_target_emi_t in_target;
static ompt_callback_target_data_op_emi_t in_data_op;
static ompt_callback_target_submit_emi_t in_submit;

/* Each construct's data: ompdp's own ompt_data_t, and its kernels. */
typedef struct construct {
  ompt_data_t inner;
  int kernels;
} construct_t;

static ompt_data_t *inner_data(ompt_data_t *d) {
  return d && d->ptr ? &((construct_t *)d->ptr)->inner : NULL;
}

void count_through_quiesce(void) { pthread_mutex_lock(&lock); }

static void crash(void) {
  if (!strcmp(crash_how, "segv"))
    *(volatile int *)(uintptr_t)0 = 1;
  else if (!strcmp(crash_how, "abort"))
    abort();
  kill(getpid(), SIGKILL);
  for (;;)
    pause();
}

/* Under the lock: before ompdp completes an operation of kind. */
static void begin_completion(int kind, uint64_t bytes) {
  counts[PENDING_BYTES] = bytes;
  counts[PENDING] = (uint64_t)kind + 1;
}

/* Under the lock: after it did. */
static void end_completion(int kind, uint64_t bytes) {
  counts[kind]++;
  if (kind == TRANSFERS)
    counts[BYTES] += bytes;
  counts[PENDING] = 0;
  counts[PENDING_BYTES] = 0;
  uint64_t n = ++counts[COMPLETIONS];
  if (crash_on_helper && syscall(SYS_gettid) != getpid())
    n = ++helper_completions;
  else if (crash_on_helper)
    return;
  if (crash_at && n == crash_at)
    crash();
}

static int kind_of(ompt_target_data_op_t op) {
  switch ((int)op) {
  case ompt_target_data_alloc:
  case ompt_target_data_alloc_async:
    return ALLOCS;
  case ompt_target_data_transfer_to_device:
  case ompt_target_data_transfer_from_device:
  case ompt_target_data_transfer_to_device_async:
  case ompt_target_data_transfer_from_device_async:
    return TRANSFERS;
  case ompt_target_data_delete:
  case ompt_target_data_delete_async:
    return DELETES;
  default:
    return -1;
  }
}

static void on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                      ompt_data_t *task_data, ompt_data_t *target_task_data,
                      ompt_data_t *target_data, const void *codeptr_ra) {
  if (endpoint == ompt_scope_begin) {
    construct_t *c = calloc(1, sizeof(*c));
    if (target_data)
      target_data->ptr = c;
    if (in_target)
      in_target(kind, endpoint, device_num, task_data, target_task_data,
                c ? &c->inner : NULL, codeptr_ra);
    return;
  }
  construct_t *c = target_data ? target_data->ptr : NULL;
  int kernel = c && c->kernels > 0;
  pthread_mutex_lock(&lock);
  if (kernel)
    begin_completion(KERNELS, 0);
  if (in_target)
    in_target(kind, endpoint, device_num, task_data, target_task_data, c ? &c->inner : NULL,
              codeptr_ra);
  if (kernel)
    end_completion(KERNELS, 0);
  pthread_mutex_unlock(&lock);
  if (target_data)
    target_data->ptr = NULL;
  free(c);
}

static void on_data_op(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                       ompt_data_t *target_data, ompt_id_t *host_op_id,
                       ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                       void *dest_addr, int dest_device_num, size_t size,
                       const void *codeptr_ra) {
  ompt_data_t *d = inner_data(target_data);
  int kind = kind_of(optype);
  if (endpoint == ompt_scope_begin || kind < 0) {
    if (in_data_op)
      in_data_op(endpoint, target_task_data, d, host_op_id, optype, src_addr, src_device_num,
                 dest_addr, dest_device_num, size, codeptr_ra);
    return;
  }
  pthread_mutex_lock(&lock);
  begin_completion(kind, size);
  if (in_data_op)
    in_data_op(endpoint, target_task_data, d, host_op_id, optype, src_addr, src_device_num,
               dest_addr, dest_device_num, size, codeptr_ra);
  end_completion(kind, size);
  pthread_mutex_unlock(&lock);
}

static void on_submit(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                      ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  construct_t *c = target_data ? target_data->ptr : NULL;
  ompt_data_t *d = inner_data(target_data);
  /* A second launch in a construct completes the first; without a
   * construct, a launch completes at its end. */
  int completes = endpoint == ompt_scope_begin ? c && c->kernels > 0 : !c;
  pthread_mutex_lock(&lock);
  if (completes)
    begin_completion(KERNELS, 0);
  if (in_submit)
    in_submit(endpoint, d, host_op_id, requested_num_teams);
  if (completes)
    end_completion(KERNELS, 0);
  if (endpoint == ompt_scope_begin && c)
    c->kernels++;
  pthread_mutex_unlock(&lock);
}

static void on_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation);
static ompt_callback_device_initialize_t in_device_init;
static void on_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation) {
  if (in_device_init)
    in_device_init(device_num, type, device, lookup, documentation);
}

/* What the inner tool registers is kept; ours are registered instead. */
static ompt_set_result_t inner_set(ompt_callbacks_t which, ompt_callback_t cb) {
  switch ((int)which) {
  case ompt_callback_target_emi:
    in_target = (ompt_callback_target_emi_t)cb;
    return ompt_set_always;
  case ompt_callback_target_data_op_emi:
    in_data_op = (ompt_callback_target_data_op_emi_t)cb;
    return ompt_set_always;
  case ompt_callback_target_submit_emi:
    in_submit = (ompt_callback_target_submit_emi_t)cb;
    return ompt_set_always;
  case ompt_callback_device_initialize:
    in_device_init = (ompt_callback_device_initialize_t)cb;
    return ompt_set_always;
  default:
    return real_set(which, cb);
  }
}

static ompt_interface_fn_t inner_lookup(const char *name) {
  if (!strcmp(name, "ompt_set_callback"))
    return (ompt_interface_fn_t)inner_set;
  return real_lookup(name);
}

static int init(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *data) {
  real_lookup = lookup;
  real_set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!real_set ||
      real_set(ompt_callback_target_emi, (ompt_callback_t)on_target) < ompt_set_sometimes ||
      real_set(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op) <
          ompt_set_sometimes ||
      real_set(ompt_callback_target_submit_emi, (ompt_callback_t)on_submit) <
          ompt_set_sometimes) {
    fprintf(stderr, "count_through: the OpenMP runtime refused a callback\n");
    return 0;
  }
  real_set(ompt_callback_device_initialize, (ompt_callback_t)on_device_initialize);
  if (inner && !inner->initialize(inner_lookup, initial_device_num, &inner->tool_data))
    inner = NULL;
  return 1;
}

static void fini(ompt_data_t *data) {
  if (inner)
    inner->finalize(&inner->tool_data);
}

/* Counts go to a shared mapping of $COUNT_OUTPUT (else nowhere). */
static void map_counts(void) {
  counts = scratch;
  const char *path = getenv("COUNT_OUTPUT");
  int fd = path ? open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
  if (fd < 0)
    return;
  if (ftruncate(fd, sizeof(scratch)) == 0) {
    void *p = mmap(NULL, sizeof(scratch), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p != MAP_FAILED)
      counts = p;
  }
  close(fd);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  static ompt_start_tool_result_t result = {init, fini, {0}};
  map_counts();
  const char *at = getenv("COUNT_CRASH_AT");
  crash_at = at ? strtoull(at, NULL, 10) : 0;
  const char *how = getenv("COUNT_CRASH_HOW");
  if (how && *how)
    crash_how = how;
  const char *on = getenv("COUNT_CRASH_ON");
  crash_on_helper = on && !strcmp(on, "helper");
  /* The first library of OMP_TOOL_LIBRARIES: ompdp's, under ompdp run. */
  const char *libs = getenv("OMP_TOOL_LIBRARIES");
  if (libs && *libs) {
    char path[4096];
    size_t n = strcspn(libs, ":");
    if (n < sizeof(path)) {
      memcpy(path, libs, n);
      path[n] = 0;
      void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
      ompt_start_tool_result_t *(*start)(unsigned int, const char *) =
          h ? (ompt_start_tool_result_t * (*)(unsigned int, const char *))
                  dlsym(h, "ompt_start_tool")
            : NULL;
      inner = start ? start(omp_version, runtime_version) : NULL;
      if (!inner)
        fprintf(stderr, "count_through: no tool in '%s'\n", path);
    }
  }
  return &result;
}
