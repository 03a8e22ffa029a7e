/*===- uses.h - which device allocations each kernel launch uses ---*- C -*-===*\
|*
|* OMPT says when device memory is allocated and freed, not which of it a
|* kernel uses: a kernel that finds its data present makes no data
|* operation at all. The compiler plugin's tag gives the runtime each
|* launch's map arguments (rt/regions.c); this file keeps the device
|* allocations alive per device and records, for each launch, an
|* OMPDP_EV_USE event for each allocation its arguments point into
|* (analysis/engine.h), which early allocations and late releases are
|* measured by (analysis/detect_lifetime.c). See uses.c.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_USES_H
#define OMPDP_USES_H

#include <stdint.h>

/* An allocation of bytes at dev_addr on device dev, for the host range at
 * host_addr (0: none, omp_target_alloc), has completed. */
void ompdp_uses_alloc(int dev, uint64_t host_addr, uint64_t bytes, uint64_t dev_addr);
/* The allocation at dev_addr on device dev is being freed. */
void ompdp_uses_delete(int dev, uint64_t dev_addr);
/* Whether the uses of a launch on device dev can be recorded now: its map
 * arguments are known (the plugin's tag) and the runtime follows the
 * device's allocations. */
int ompdp_uses_ready(int dev);
/* Records the uses of the launch on device dev whose kernel record was
 * just begun (its operation marked OMPDP_KERNEL_USES_RECORDED): for each
 * allocation its map arguments point into, one OMPDP_EV_USE record, unless
 * the allocation was used already since the last allocation or delete on
 * the device (the memory in use cannot have changed in between). */
void ompdp_uses_kernel(int dev, const void *codeptr, uint32_t region);

#endif /* OMPDP_USES_H */
