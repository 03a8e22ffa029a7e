/*===- callbacks.h - the OMPT callbacks ompdp registers -------------*- C -*-===*\
|*
|* Declared here so that tool.c can register them and tests can call them
|* directly with synthetic arguments.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_CALLBACKS_H
#define OMPDP_CALLBACKS_H

#include <omp-tools.h>
#include <stdint.h>

void ompdp_cb_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                         ompt_data_t *task_data, ompt_data_t *target_task_data,
                         ompt_data_t *target_data, const void *codeptr_ra);
void ompdp_cb_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                                 ompt_data_t *target_data, ompt_id_t *host_op_id,
                                 ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                                 void *dest_addr, int dest_device_num, size_t bytes,
                                 const void *codeptr_ra);
void ompdp_cb_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                ompt_id_t *host_op_id, unsigned int requested_num_teams);

/* Kernels that ran with far fewer teams or threads than they asked for
 * (provision.c): the launch brackets the kernel's host regions. */
void ompdp_provision_init(void);
void ompdp_provision_launch_begin(const void *codeptr, uint32_t region, int device, int kind,
                                  unsigned requested_num_teams);
void ompdp_provision_launch_end(void);
void ompdp_cb_parallel_begin(ompt_data_t *encountering_task_data,
                             const ompt_frame_t *encountering_task_frame,
                             ompt_data_t *parallel_data, unsigned int requested_parallelism,
                             int flags, const void *codeptr_ra);
void ompdp_cb_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                            ompt_data_t *task_data, unsigned int actual_parallelism,
                            unsigned int index, int flags);

/* The host's device number (omp_get_initial_device()). */
int ompdp_host_device(void);
void ompdp_callbacks_set_submit(int available);
/* From ompt_callback_device_initialize: the device's type string says
 * whether its memory is the host's (then its side of a transfer can be
 * hashed while the transfer runs). */
void ompdp_note_device(int device_num, const char *type);
void ompdp_cb_device_initialize(int device_num, const char *type, ompt_device_t *device,
                                ompt_function_lookup_t lookup, const char *documentation);

#endif
