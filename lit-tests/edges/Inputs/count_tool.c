/*===- count_tool.c - a minimal OMPT tool that only counts -----------------===*\
|*
|* The reference ompdp's counts are checked against: it registers the same
|* EMI callbacks and counts their begin endpoints per kind with atomics,
|* nothing else. At finalize it writes "name value" lines, named like the
|* "observed" members of ompdp's JSON report, to $COUNT_TOOL_OUTPUT (or
|* stderr). Built by the tests that use it; not part of ompdp.
|*
\*===----------------------------------------------------------------------===*/
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_ullong transfers, allocs, deletes, kernels, targets, bytes, others;

static void on_target(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                      ompt_data_t *task_data, ompt_data_t *target_task_data,
                      ompt_data_t *target_data, const void *codeptr_ra) {
  if (endpoint == ompt_scope_begin)
    atomic_fetch_add(&targets, 1);
}

static void on_data_op(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                       ompt_data_t *target_data, ompt_id_t *host_op_id,
                       ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                       void *dest_addr, int dest_device_num, size_t size,
                       const void *codeptr_ra) {
  if (endpoint != ompt_scope_begin)
    return;
  switch ((int)optype) {
  case ompt_target_data_alloc:
  case ompt_target_data_alloc_async:
    atomic_fetch_add(&allocs, 1);
    break;
  case ompt_target_data_transfer_to_device:
  case ompt_target_data_transfer_from_device:
  case ompt_target_data_transfer_to_device_async:
  case ompt_target_data_transfer_from_device_async:
    atomic_fetch_add(&transfers, 1);
    atomic_fetch_add(&bytes, size);
    break;
  case ompt_target_data_delete:
  case ompt_target_data_delete_async:
    atomic_fetch_add(&deletes, 1);
    break;
  default:
    atomic_fetch_add(&others, 1);
  }
}

static void on_submit(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                      ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  if (endpoint == ompt_scope_begin)
    atomic_fetch_add(&kernels, 1);
}

static int init(ompt_function_lookup_t lookup, int initial_device_num, ompt_data_t *data) {
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set || set(ompt_callback_target_emi, (ompt_callback_t)on_target) < ompt_set_sometimes ||
      set(ompt_callback_target_data_op_emi, (ompt_callback_t)on_data_op) < ompt_set_sometimes ||
      set(ompt_callback_target_submit_emi, (ompt_callback_t)on_submit) < ompt_set_sometimes) {
    fprintf(stderr, "count_tool: the OpenMP runtime refused a callback\n");
    return 0;
  }
  return 1;
}

static void fini(ompt_data_t *data) {
  const char *path = getenv("COUNT_TOOL_OUTPUT");
  FILE *out = path ? fopen(path, "w") : stderr;
  if (!out)
    return;
  fprintf(out, "transfers %llu\nallocs %llu\ndeletes %llu\nkernels %llu\n", transfers, allocs,
          deletes, kernels);
  fprintf(out, "bytes_transferred %llu\ntargets %llu\nother_data_ops %llu\n", bytes, targets,
          others);
  if (out != stderr)
    fclose(out);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  static ompt_start_tool_result_t result = {init, fini, {0}};
  return &result;
}
