/*===- ompt_shim.c - an OMPT layer between libomp and the tool under test --===*\
|*
|* Loaded as the OMPT tool (OMP_TOOL_LIBRARIES), it loads the real tool from
|* $SHIM_TOOL and passes everything through, except:
|*   SHIM_REFUSE=name,name...  ompt_set_callback answers ompt_set_never for
|*       these callbacks (target_emi, target_data_op_emi,
|*       target_submit_emi): an OpenMP runtime without them.
|*   SHIM_SYNTH=1  before the tool's finalize, delivers data operations no
|*       host-offload program can make, through the callbacks the tool
|*       registered: transfers of 0 bytes (to and from device 1, no
|*       buffers), two allocations of 5 GiB of the same host address on
|*       device 1 (each freed), and a 6 GiB copy from device 1 to device 2.
|* Built by the tests that use it; not part of ompdp.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp-tools.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static ompt_start_tool_result_t *tool;
static ompt_function_lookup_t real_lookup;
static ompt_set_callback_t real_set;
static ompt_callback_target_data_op_emi_t tool_data_op;
static ompt_callback_target_emi_t tool_target;
static int host_device = -1;

/* Learns the host's device number while libomptarget is up (it is not yet
 * at initialize, and no longer at finalize). */
static void shim_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                        ompt_data_t *task_data, ompt_data_t *target_task_data,
                        ompt_data_t *target_data, const void *codeptr_ra) {
  if (host_device < 0) {
    int (*initial)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_initial_device");
    host_device = initial ? initial() : -1;
  }
  tool_target(kind, endpoint, device_num, task_data, target_task_data, target_data, codeptr_ra);
}

static const char *callback_name(ompt_callbacks_t which) {
  switch ((int)which) {
  case ompt_callback_target_emi: return "target_emi";
  case ompt_callback_target_data_op_emi: return "target_data_op_emi";
  case ompt_callback_target_submit_emi: return "target_submit_emi";
  default: return "";
  }
}

static int refused(ompt_callbacks_t which) {
  const char *list = getenv("SHIM_REFUSE"), *name = callback_name(which);
  size_t n = strlen(name);
  for (const char *p = list; p && n && (p = strstr(p, name)); p += n)
    if ((p == list || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
      return 1;
  return 0;
}

static ompt_set_result_t shim_set(ompt_callbacks_t which, ompt_callback_t cb) {
  if (refused(which))
    return ompt_set_never;
  if (which == ompt_callback_target_emi) {
    tool_target = (ompt_callback_target_emi_t)cb;
    cb = (ompt_callback_t)shim_target;
  }
  ompt_set_result_t r = real_set(which, cb);
  if (which == ompt_callback_target_data_op_emi && r >= ompt_set_sometimes)
    tool_data_op = (ompt_callback_target_data_op_emi_t)cb;
  return r;
}

static ompt_interface_fn_t shim_lookup(const char *name) {
  if (!strcmp(name, "ompt_set_callback")) {
    real_set = (ompt_set_callback_t)real_lookup(name);
    return real_set ? (ompt_interface_fn_t)shim_set : NULL;
  }
  return real_lookup(name);
}

static int shim_init(ompt_function_lookup_t lookup, int initial_device, ompt_data_t *data) {
  real_lookup = lookup;
  return tool->initialize(shim_lookup, initial_device, &tool->tool_data);
}

static void op(ompt_target_data_op_t kind, uint64_t src, int src_dev, uint64_t dst, int dst_dev,
               size_t bytes) {
  ompt_id_t id = 0;
  tool_data_op(ompt_scope_begin, NULL, NULL, &id, kind, (void *)(uintptr_t)src, src_dev,
               (void *)(uintptr_t)dst, dst_dev, bytes, NULL);
  tool_data_op(ompt_scope_end, NULL, NULL, &id, kind, (void *)(uintptr_t)src, src_dev,
               (void *)(uintptr_t)dst, dst_dev, bytes, NULL);
}

static void shim_fini(ompt_data_t *data) {
  if (getenv("SHIM_SYNTH") && tool_data_op && host_device >= 0) {
    int host = host_device;
    if (getenv("SHIM_VERBOSE"))
      fprintf(stderr, "ompt_shim: host device %d\n", host);
    const size_t gib = (size_t)1 << 30;
    op(ompt_target_data_transfer_to_device, 0, host, 0, 1, 0);
    op(ompt_target_data_transfer_from_device, 0, 1, 0, host, 0);
    for (int i = 0; i < 2; ++i) {
      op(ompt_target_data_alloc, 0x7f0000000000, host, 0x5f0000000000, 1, 5 * gib);
      op(ompt_target_data_delete, 0x5f0000000000, 1, 0, host, 0);
    }
    op(ompt_target_data_transfer_to_device, 0x5f0000000000, 1, 0x6f0000000000, 2, 6 * gib);
  }
  tool->finalize(&tool->tool_data);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  static ompt_start_tool_result_t result = {shim_init, shim_fini, {0}};
  const char *path = getenv("SHIM_TOOL");
  void *h = path ? dlopen(path, RTLD_NOW | RTLD_LOCAL) : NULL;
  ompt_start_tool_result_t *(*start)(unsigned int, const char *) =
      h ? (ompt_start_tool_result_t * (*)(unsigned int, const char *)) dlsym(h, "ompt_start_tool")
        : NULL;
  if (!start || !(tool = start(omp_version, runtime_version))) {
    fprintf(stderr, "ompt_shim: no tool in '%s'\n", path ? path : "(SHIM_TOOL unset)");
    return NULL;
  }
  return &result;
}
