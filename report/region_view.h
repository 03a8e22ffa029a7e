/*===- region_view.h - the typed view of a region-table record ----*- C -*-===*\
|*
|* What the analysis reads about an offload construct and one of its map
|* items: the compiler's region-table record (include/ompdp/OmpdpFormat.inc)
|* with its enums kept as enums (ompdp/format.h), so that the detections and
|* the rewrite planner compare values, never spellings. The runtime fills it
|* from the tables of loaded objects (rt/regions.c), the report reader from
|* a report's plan (the records a run copies for the planner), tests by
|* hand.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REGION_VIEW_H
#define OMPDP_REGION_VIEW_H

#include "ompdp/format.h"

#include <stddef.h>
#include <stdint.h>

/* Host code around a construct that uses one of its items
 * (OMPDP_HOST_ACCESS_FIELD in OmpdpFormat.inc): the record as the table
 * holds it. Flags: OMPDP_HA_* bits. */
typedef struct ompdp_host_access {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_host_access_t;

/* A jump out of (or into) the innermost loop around a construct
 * (OMPDP_EXIT_FIELD, region table 3.1): the record as the table holds it.
 * Kind: OMPDP_EXIT_*; Flags: OMPDP_XF_* bits. */
typedef struct ompdp_exit {
#define OMPDP_EXIT_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_exit_t;

/* The C types of OMPDP_VIEW_*_FIELD kinds. */
#define OMPDP_VIEW_CTYPE_U32 uint32_t
#define OMPDP_VIEW_CTYPE_U64 uint64_t
#define OMPDP_VIEW_CTYPE_INT int
#define OMPDP_VIEW_CTYPE_STR const char *
#define OMPDP_VIEW_CTYPE_CONSTRUCT ompdp_construct_kind_t
#define OMPDP_VIEW_CTYPE_LOOP ompdp_loop_kind_t
#define OMPDP_VIEW_CTYPE_MAP_TYPE ompdp_map_type_t
#define OMPDP_VIEW_CTYPE_ACCESS ompdp_access_t

/* One region (and optionally one of its items), as recorded by the compiler,
 * with the table's numbers as the enums of ompdp/format.h: the fields of
 * OMPDP_VIEW_REGION_FIELD and OMPDP_VIEW_ITEM_FIELD (OmpdpFormat.inc, which
 * describes each). Strings are never NULL ("" when unknown); line/column 0
 * means unknown; the item's fields are "", 0, OMPDP_MT_NONE and
 * OMPDP_ACCESS_UNKNOWN for the region alone. */
typedef struct ompdp_region_info {
#define OMPDP_VIEW_REGION_FIELD(Kind, Name, Desc) OMPDP_VIEW_CTYPE_##Kind Name;
#include "ompdp/OmpdpFormat.inc"
#define OMPDP_VIEW_ITEM_FIELD(Kind, Name, Desc) OMPDP_VIEW_CTYPE_##Kind Name;
#include "ompdp/OmpdpFormat.inc"
  /* Host code that uses the item in the innermost loop around the
   * construct, or for a construct in no loop in its block, in source order
   * (NULL, 0 for none). */
  const ompdp_host_access_t *host_accesses;
  uint32_t num_host_accesses;
  /* The jumps out of (and into) the construct's innermost loop, in source
   * order (NULL, 0 for none). */
  const ompdp_exit_t *exits;
  uint32_t num_exits;
} ompdp_region_info_t;

/* Fills *out for region (a runtime handle, nonzero) and item (-1 for the
 * region only). Returns 0, or -1 if region or item is unknown. */
typedef int (*ompdp_describe_fn)(uint32_t region, int item, ompdp_region_info_t *out);

/* The calls a construct ran in, as the run saw them (rt/regions.c,
 * ompdp_regions_context): the handles of the regions of the distinct
 * tagged calls, innermost, the first ones seen (0: no more), whether it
 * also ran outside any of them (in no tagged call, in more calls than
 * these, or too deep to follow), and how often the first call ran. */
#define OMPDP_CONTEXT_CALLS 4
/* The most other instances of a template's construct that a context
 * names as never run. */
#define OMPDP_CONTEXT_UNRUN 8
typedef struct ompdp_context {
  uint32_t calls[OMPDP_CONTEXT_CALLS];
  int other;
  uint64_t count; /* executions of the first call */
  uint64_t runs;  /* executions of the construct itself (its begins) */
  /* A call through a pointer (3.14): the handle of a construct of each
   * distinct function it called (0: no more). */
  uint32_t targets[OMPDP_CONTEXT_CALLS];
  /* A construct: how often it began in each of its calls. */
  uint64_t call_runs[OMPDP_CONTEXT_CALLS];
  /* A construct in a template: the handles of its other instances (the
   * regions of its table at the same place, of the same kind) that never
   * ran, num_unrun of them (at most OMPDP_CONTEXT_UNRUN; unrun_more: there
   * were more). */
  uint32_t unrun[OMPDP_CONTEXT_UNRUN];
  uint32_t num_unrun;
  int unrun_more;
} ompdp_context_t;
/* 0 and *out, or -1 when the run does not know the region's calls. */
typedef int (*ompdp_context_fn)(uint32_t region, ompdp_context_t *out);

#endif /* OMPDP_REGION_VIEW_H */
