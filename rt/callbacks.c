/*===- callbacks.c - OMPT EMI callbacks -----------------------------*- C -*-===*\
|*
|* Turns target, data-op and submit callbacks into event records. A begin
|* callback creates the record in this thread's buffer and leaves a pointer to
|* it where the end callback will find it (target_data->ptr for constructs,
|* *host_op_id for data ops and kernels), so no lookup and no lock is needed
|* to finish it, whichever thread runs the end.
|*
|* Hashing: host-to-device bytes are hashed at begin, from the host source;
|* device-to-host bytes at end, from the host destination. Transfers between
|* two devices are not hashed (device memory may not be readable from here).
|* The hash runs outside the recorded interval, so its cost does not inflate
|* the transfer time that the report attributes to the program.
|*
\*===----------------------------------------------------------------------===*/
#define _GNU_SOURCE
#include "callbacks.h"
#include "ompdp_rt.h"
#include "regions.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <time.h>

#define HOST_UNKNOWN (-1000000) /* not looked up yet */
#define HOST_NONE (-1000001)    /* looked up, not found: no device number matches */
static _Atomic int host_device = HOST_UNKNOWN;
static int have_submit;

uint64_t ompdp_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int ompdp_host_device(void) {
  int h = atomic_load_explicit(&host_device, memory_order_relaxed);
  if (h != HOST_UNKNOWN)
    return h;
  /* The initial device's number is omp_get_initial_device(); the tool does
   * not link against libomp, so look it up in the process. Safe from a
   * target callback, not from ompt_initialize (libomptarget is not up yet). */
  int (*get)(void) = (int (*)(void))dlsym(RTLD_DEFAULT, "omp_get_initial_device");
  h = get ? get() : HOST_NONE; /* look up once, also when it fails */
  atomic_store_explicit(&host_device, h, memory_order_relaxed);
  return h;
}

void ompdp_callbacks_set_submit(int available) { have_submit = available; }

static void hash_into(ompdp_event_t *e, const void *p, size_t n) {
  if (!p || !n)
    return;
  e->hash = ompdp_hash(p, n);
  e->flags |= OMPDP_EVF_HASHED;
  if (ompdp_opts.verify_hashes)
    ompdp_hash_verify(e->hash, p, n);
}

void ompdp_cb_target_emi(ompt_target_t kind, ompt_scope_endpoint_t endpoint, int device_num,
                         ompt_data_t *task_data, ompt_data_t *target_task_data,
                         ompt_data_t *target_data, const void *codeptr_ra) {
  if (endpoint == ompt_scope_begin) {
    ompdp_host_device();
    ompdp_event_t *e = ompdp_log_new_event();
    if (target_data)
      target_data->ptr = e;
    if (!e)
      return;
    e->type = OMPDP_EV_TARGET;
    e->flags = (uint8_t)(kind & 0xf);
    e->dst_dev = device_num;
    e->codeptr = codeptr_ra;
    /* The plugin's hook ran just before this offload call on this thread. */
    e->region = ompdp_regions_begin(codeptr_ra);
    e->t_begin = ompdp_now_ns();
    return;
  }
  if (endpoint != ompt_scope_end || !target_data || !target_data->ptr)
    return;
  ompdp_regions_end();
  ompdp_event_t *e = target_data->ptr;
  uint64_t now = ompdp_now_ns();
  e->t_end = now;
  /* The kernel certainly finished by the end of its construct; an
   * asynchronous launch returns earlier than that. */
  ompdp_event_t *k = (ompdp_event_t *)(uintptr_t)e->src_addr;
  if (k && k->t_end < now)
    k->t_end = now;
  target_data->ptr = NULL;
}

void ompdp_cb_target_submit_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_data,
                                ompt_id_t *host_op_id, unsigned int requested_num_teams) {
  if (endpoint == ompt_scope_begin) {
    ompdp_event_t *t = target_data ? target_data->ptr : NULL;
    ompdp_event_t *k = ompdp_log_new_event();
    if (host_op_id)
      *host_op_id = (ompt_id_t)(uintptr_t)k;
    if (!k)
      return;
    k->type = OMPDP_EV_KERNEL;
    k->t_begin = ompdp_now_ns();
    if (t) {
      k->dst_dev = t->dst_dev;
      k->codeptr = t->codeptr;
      k->region = t->region;
      k->flags |= (uint8_t)(t->flags << OMPDP_EVF_CONSTRUCT_SHIFT);
      t->src_addr = (uint64_t)(uintptr_t)k; /* see the target end above */
    }
    return;
  }
  if (endpoint != ompt_scope_end || !host_op_id || !*host_op_id)
    return;
  ompdp_event_t *k = (ompdp_event_t *)(uintptr_t)*host_op_id;
  uint64_t now = ompdp_now_ns();
  if (k->t_end < now)
    k->t_end = now;
  k->flags |= OMPDP_EVF_COMPLETE;
}

static int event_type(ompt_target_data_op_t op) {
  switch ((int)op) {
  case ompt_target_data_alloc:
  case ompt_target_data_alloc_async:
    return OMPDP_EV_ALLOC;
  case ompt_target_data_transfer_to_device:
  case ompt_target_data_transfer_from_device:
  case ompt_target_data_transfer_to_device_async:
  case ompt_target_data_transfer_from_device_async:
    return OMPDP_EV_TRANSFER;
  case ompt_target_data_delete:
  case ompt_target_data_delete_async:
    return OMPDP_EV_DELETE;
  default: /* associate/disassociate move nothing */
    return -1;
  }
}

void ompdp_cb_target_data_op_emi(ompt_scope_endpoint_t endpoint, ompt_data_t *target_task_data,
                                 ompt_data_t *target_data, ompt_id_t *host_op_id,
                                 ompt_target_data_op_t optype, void *src_addr, int src_device_num,
                                 void *dest_addr, int dest_device_num, size_t bytes,
                                 const void *codeptr_ra) {
  if (!host_op_id)
    return;
  if (endpoint == ompt_scope_begin) {
    *host_op_id = 0;
    int type = event_type(optype);
    if (type < 0)
      return;
    ompdp_event_t *e = ompdp_log_new_event();
    if (!e)
      return;
    e->type = (uint8_t)type;
    e->src_addr = (uint64_t)(uintptr_t)src_addr;
    e->dst_addr = (uint64_t)(uintptr_t)dest_addr;
    e->src_dev = src_device_num;
    e->dst_dev = dest_device_num;
    e->bytes = bytes;
    e->codeptr = codeptr_ra;
    ompdp_event_t *t = target_data ? target_data->ptr : NULL;
    if (t) {
      e->region = t->region;
      e->flags |= (uint8_t)(t->flags << OMPDP_EVF_CONSTRUCT_SHIFT);
      if (!e->codeptr)
        e->codeptr = t->codeptr;
    }
    int host = ompdp_host_device();
    if (e->region && type != OMPDP_EV_DELETE) {
      /* Which map item: by the host side of the operation. A delete only
       * names the device address, so it stays unattributed to an item. */
      uint64_t host_addr = dest_device_num == host && src_device_num != host
                               ? e->dst_addr : e->src_addr;
      e->item = (int16_t)ompdp_regions_match_item(host_addr, bytes);
    }
    if (type == OMPDP_EV_TRANSFER && src_device_num == host && dest_device_num != src_device_num)
      hash_into(e, src_addr, bytes);
    e->t_begin = ompdp_now_ns();
    *host_op_id = (ompt_id_t)(uintptr_t)e;
    return;
  }
  if (endpoint != ompt_scope_end || !*host_op_id)
    return;
  ompdp_event_t *e = (ompdp_event_t *)(uintptr_t)*host_op_id;
  e->t_end = ompdp_now_ns();
  if (e->type == OMPDP_EV_ALLOC && dest_addr)
    e->dst_addr = (uint64_t)(uintptr_t)dest_addr; /* the device address is known now */
  if (e->type == OMPDP_EV_TRANSFER && dest_device_num == ompdp_host_device() &&
      src_device_num != dest_device_num)
    hash_into(e, dest_addr, bytes);
  e->flags |= OMPDP_EVF_COMPLETE;
}
