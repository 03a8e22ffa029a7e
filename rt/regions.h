/*===- regions.h - compiler region tables, seen from the runtime ---*- C -*-===*\
|*
|* Objects built with the ompdp plugin (--config=<build>/lib/ompdp.cfg) carry
|* a region table (include/ompdp/OmpdpFormat.inc) and call
|* __ompdp_region_call right before every __tgt_* offloading call. This file
|* finds the tables of every loaded object, keeps the call as this thread's
|* "pending call", and lets the OMPT callbacks attribute what they see:
|*
|*   ompdp_regions_init()               once, at tool initialization
|*   target_emi begin:   r = ompdp_regions_begin(codeptr_ra)   (0: unknown)
|*   data_op_emi:        i = ompdp_regions_match_item(host_addr, bytes)
|*   target_emi end:     ompdp_regions_end()
|*   at report time:     ompdp_regions_describe(r, i, &info)
|*
|* All of it works when no object has a table (then begin returns 0 and the
|* DWARF path applies). Begin/match/end touch only thread-local state; no
|* locks or allocation on that path. Region handles are opaque, nonzero, and
|* valid for the life of the process (as long as the object that holds the
|* table stays loaded: strings in the info point into that object).
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REGIONS_H
#define OMPDP_REGIONS_H

#include "region_view.h"

#include <stddef.h>
#include <stdint.h>

/* Finds the tables of all objects loaded now (later ones are found when
 * their first call arrives). Returns the number of tables, or -1 with a
 * message on stderr if a table is malformed (the rest are still used). */
int ompdp_regions_init(void);

/* At target_emi begin, on the thread of the construct: the region of the
 * pending call on this thread (0 if none), which becomes the active call
 * until ompdp_regions_end. codeptr_ra (the offload call's return address)
 * remembers call sites without a table, so that code built without the
 * plugin does not make every construct look for newly loaded objects.
 * exit_part: the call is a construct's exit (ompt_target_exit_data), which
 * for a `target data` is the end of an execution its begin counted. */
uint32_t ompdp_regions_begin(const void *codeptr_ra, int exit_part);

/* For a data operation without a target construct, from src to dst: the
 * region of the device memory routine this thread is calling
 * (omp_target_memcpy, ...), or of the _async copy of these addresses whose
 * operation has not come yet (it runs in a task), 0 if none; and its
 * number of items (docs/region-table.md: for a copy, item 0 is the
 * destination and item 1 the source; otherwise item 0 is the pointer). */
uint32_t ompdp_regions_routine(uint64_t src, uint64_t dst, uint32_t *num_items);

/* The item of the active call whose host range holds [host_addr,
 * host_addr + bytes), as an index into the region's items, or -1. An
 * operation that no map argument holds comes from a user-defined mapper
 * (the components it pushes): it belongs to the item mapped through a
 * mapper when there is exactly one. */
int ompdp_regions_match_item(uint64_t host_addr, uint64_t bytes);

/* For the operation ompdp_regions_match_item just matched to `item` of a
 * kernel launch, when the item is an array section with SECTION_END (the
 * compiler bounded the region's elements by the section's bounds): the
 * bytes from its base pointer to its first element, the section's lower
 * bound times the element size, in *bytes; 0, or -1 when not known (no
 * such item, a pointer or member argument). */
int ompdp_regions_section_lower(int item, uint64_t *bytes);
/* Remembers that operation op came with lower bound `bytes` (an operation
 * seen with two different ones has none), and reads it back: 0, or -1
 * when op has none (the engine's section_lower). */
void ompdp_regions_note_lower(uint32_t op, uint64_t bytes);
int ompdp_regions_op_lower(uint32_t op, uint64_t *bytes);

/* The active call's num_teams and thread_limit, when it launches a kernel
 * and the compiler passed them (0: not given, or no table). */
void ompdp_regions_kernel_asks(uint32_t *teams, uint32_t *threads);
/* The map arguments of the active call when it is a kernel launch (host
 * pointers, sizes, map types, as the plugin's tag passed them): 0 and
 * their number in *n, or -1 when they are unknown (no table, not a
 * kernel). Valid until ompdp_regions_end. */
int ompdp_regions_kernel_args(int32_t *n, void *const **ptrs, const int64_t **sizes,
                              const int64_t **types);
/* The region-table item of map argument arg of the active kernel launch
 * (the compiler's match, else by name and place), or -1. */
int ompdp_regions_kernel_arg_item(int32_t arg);

/* At target_emi end: forgets the active call. */
void ompdp_regions_end(void);

/* Fills *out for region (a handle from ompdp_regions_begin) and item (-1 for
 * the region only). Returns 0, or -1 if region or item is unknown. */
int ompdp_regions_describe(uint32_t region, int item,
                           ompdp_region_info_t *out);

/* The calls construct `region` ran in (OMPDP_CALL_CONTEXT; region_view.h,
 * ompdp_context_t), and for a construct in a template the other instances
 * that never began. Returns 0, or -1 when the region never ran or is
 * unknown. */
int ompdp_regions_context(uint32_t region, ompdp_context_t *out);

/* Checks that the len bytes at buf hold a region table that the functions
 * here can read without leaving it (regions_check.c): magic, version and
 * record sizes, counts against TotalSize against len (no overflow), every
 * region's items inside the item records, every string offset inside the
 * pool, the pool NUL-terminated. Returns 0, or -1 with a one-line reason
 * in err (errlen bytes, always terminated). Pure: reads only buf. */
int ompdp_region_table_check(const void *buf, size_t len, char *err,
                             size_t errlen);

/* Number of tables known (for tests and the report header). */
int ompdp_regions_num_tables(void);

/* Called by the code the pass inserts before each offload call; exported.
 * descriptor: the call's descriptor (OMPDP_CALL_FIELD in OmpdpFormat.inc:
 * the region's record, the constant parts of the call's map arguments, the
 * item of each argument); a, b, c: a kernel launch's
 * __tgt_kernel_arguments, or a data call's args, arg_sizes and mappers
 * (NULL where the descriptor has them). */
__attribute__((visibility("default"))) void
__ompdp_region_call(const void *descriptor, void *a, void *b, void *c);

#endif /* OMPDP_REGIONS_H */
