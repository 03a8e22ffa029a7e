/*===- tool_start.h - how the suite's own tools register -----------*- C -*-===*\
|*
|* The null tool (nulltool.c) and the floor tool (floortool/floortool.c)
|* register exactly the callbacks that ompdp's runtime registers
|* (rt/tool.c: target_emi, target_data_op_emi, target_submit_emi and
|* device_initialize), so that the suite compares like with like. The file
|* that includes this defines those four callbacks (cb_target_emi,
|* cb_target_data_op_emi, cb_target_submit_emi, cb_device_initialize) and
|* `finalize`; this gives it `initialize`, `ompt_start_tool` and
|* `tool_have_submit`.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_BENCH_TOOL_START_H
#define OMPDP_BENCH_TOOL_START_H

#include <omp-tools.h>

/* Whether the runtime delivers target_submit_emi (as rt/tool.c asks): where
 * it does not, a `target` construct stands for its kernel. */
static int tool_have_submit;

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data) {
  (void)initial_device_num, (void)tool_data;
  ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
  if (!set)
    return 0;
  set(ompt_callback_target_emi, (ompt_callback_t)cb_target_emi);
  set(ompt_callback_target_data_op_emi, (ompt_callback_t)cb_target_data_op_emi);
  tool_have_submit = set(ompt_callback_target_submit_emi, (ompt_callback_t)cb_target_submit_emi) >=
                     ompt_set_sometimes;
  set(ompt_callback_device_initialize, (ompt_callback_t)cb_device_initialize);
  return 1;
}

static void finalize(ompt_data_t *tool_data);

__attribute__((visibility("default"))) ompt_start_tool_result_t *
ompt_start_tool(unsigned int omp_version, const char *runtime_version) {
  (void)omp_version, (void)runtime_version;
  static ompt_start_tool_result_t result = {initialize, finalize, {0}};
  return &result;
}

#endif
