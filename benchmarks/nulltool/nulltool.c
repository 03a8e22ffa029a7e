/*===- nulltool.c - an OMPT tool that does nothing, for the floor --*- C -*-===*\
|*
|* The benchmark suite's "null tool": it registers exactly the callbacks that
|* ompdp's runtime registers (rt/tool.c: target_emi, target_data_op_emi,
|* target_submit_emi and device_initialize), with empty bodies, and nothing
|* else: no thread, no memory, no report. Loaded with
|*
|*   OMP_TOOL=enabled OMP_TOOL_LIBRARIES=.../libnulltool.so ./prog
|*
|* it measures what the OpenMP runtime (libomp, libomptarget) charges any
|* tool that enables these EMI callbacks (return addresses, the OMPT
|* interface objects it builds around every data operation, the indirect
|* calls), so that run.py can separate that floor from what ompdp adds on
|* top of it.
|*
|* Built by benchmarks/run.py as a shared library; depends only on omp-tools.h.
|*
\*===----------------------------------------------------------------------===*/
#include <omp-tools.h>
#include <stddef.h>

static void cb_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                          ompt_data_t *task_data, ompt_data_t *target_task_data,
                          ompt_data_t *target_data, const void *codeptr_ra) {
  (void)kind, (void)endpoint, (void)device_num, (void)task_data, (void)target_task_data;
  (void)target_data, (void)codeptr_ra;
}

static void cb_target_data_op_emi(ompt_scope_endpoint_t endpoint,
                                  ompt_data_t *target_task_data, ompt_data_t *target_data,
                                  ompt_id_t *host_op_id, ompt_target_data_op_t optype,
                                  void *src_addr, int src_device_num, void *dest_addr,
                                  int dest_device_num, size_t bytes, const void *codeptr_ra) {
  (void)endpoint, (void)target_task_data, (void)target_data, (void)host_op_id, (void)optype;
  (void)src_addr, (void)src_device_num, (void)dest_addr, (void)dest_device_num, (void)bytes;
  (void)codeptr_ra;
}

static void cb_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                 ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  (void)endpoint, (void)target_data, (void)host_op_id, (void)requested_num_teams;
}

static void cb_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                 ompt_function_lookup_t lookup, const char *documentation) {
  (void)device_num, (void)type, (void)device, (void)lookup, (void)documentation;
}

static void finalize(ompt_data_t *tool_data) { (void)tool_data; }

#include "tool_start.h"
