/*===- region_view.h - the typed view of a region-table record ----*- C -*-===*\
|*
|* What the analysis reads about an offload construct and one of its map
|* items: the compiler's region-table record (include/ompdp/OmpdpFormat.inc)
|* with its enums kept as enums (ompdp/format.h), so that the detections and
|* the rewrite planner compare values, never spellings. The runtime fills it
|* from the tables of loaded objects (rt/regions.c); tests fill it by hand.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_REGION_VIEW_H
#define OMPDP_REGION_VIEW_H

#include "ompdp/format.h"
#include "report.h"

#include <stddef.h>
#include <stdint.h>

/* Host code around a construct that uses one of its items
 * (OMPDP_HOST_ACCESS_FIELD in OmpdpFormat.inc): the record as the table
 * holds it. Flags: OMPDP_HA_* bits. */
typedef struct ompdp_host_access {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_host_access_t;

/* One region (and optionally one of its items), as recorded by the compiler,
 * with the table's numbers as the enums of ompdp/format.h. Strings are never
 * NULL ("" when unknown); line/column 0 means unknown. */
typedef struct ompdp_region_info {
  uint64_t id;             /* stable region ID (hash of file:line:col:kind) */
  ompdp_construct_kind_t construct;
  const char *file;        /* as the compiler saw it (presumed file name) */
  const char *function;    /* enclosing function, qualified */
  uint32_t line, column;   /* the directive */
  uint32_t end_line, end_column; /* end of the directive (its newline) */
  int nowait;              /* the construct has a nowait clause */
  uint32_t num_items;      /* map/motion items of the region */
  /* Innermost loop around the directive (in the same function), for
   * hoisting; OMPDP_LK_NONE when there is none. */
  ompdp_loop_kind_t loop_kind;
  uint32_t loop_line, loop_column, loop_end_line, loop_end_column;
  /* The item; all "" / 0 when the item index was -1. */
  const char *variable;    /* u, s.a, this->x */
  const char *expr;        /* the item as written: u[0:n] */
  const char *clause;      /* map(tofrom: u[0:n]) / implicit map(tofrom: a) */
  ompdp_map_type_t map_type; /* OMPDP_MT_NONE for no item */
  uint32_t modifiers;      /* OMPDP_MOD_* bits */
  int implicit;            /* added by the compiler, not written */
  uint32_t clause_line, clause_column, clause_end_line, clause_end_column;
  uint32_t item_line, item_column, item_end_line, item_end_column;
  /* For source edits: byte ranges (offset, length; length 0 = unknown) in
   * source_file, whose contents the compiler saw hashed to file_hash
   * (xxh3-64): a tool compares it with the file before editing. */
  const char *source_file; /* the file the byte ranges refer to */
  uint64_t file_hash;
  uint32_t directive_offset, directive_length; /* to the end of its line */
  uint32_t loop_offset, loop_length;           /* innermost loop, or 0, 0 */
  /* The construct's statement: the directive through the end of its
   * associated statement (just past its last token); bytes in source_file. */
  uint32_t stmt_line, stmt_column, stmt_end_line, stmt_end_column;
  uint32_t stmt_offset, stmt_length;
  /* The compound statement it is directly in ('{' byte offset + 1, 0 for
   * none) and its statement's position there. */
  uint32_t block, block_index;
  /* Declarations, and statements with a label or a jump out of them,
   * directly in that block before the construct's statement: equal counts
   * of two constructs mean there is none between them. */
  uint32_t block_decls, block_jumps;
  int stmt_own_lines; /* only blanks (or a comment) share its lines */
  /* The directive as written (white space collapsed; "" when unknown) and
   * its clauses that no item records: device(1), if(c), depend(in: x),
   * nowait, ... blank-separated. */
  const char *directive, *other_clauses;
  uint32_t clause_offset, clause_length;       /* the item's clause */
  uint32_t item_offset, item_length;           /* the item */
  /* What the region body does with the item (UNKNOWN for constructs
   * without a device body, and for no item). */
  ompdp_access_t access;
  /* What a device-side fill of the item needs (alloc_and_fill): which
   * elements (OMPDP_FILL_SECTION: fill_lower .. + fill_length as written,
   * fill_lower "" for 0; OMPDP_FILL_WHOLE: the whole variable, fill_count
   * elements), the element type as spelled, its size, and whether `= 0`
   * fills it (OMPDP_FILL_SCALAR). fill_flags 0: unknown, no fill. */
  uint32_t fill_flags, fill_elem_size, fill_count;
  const char *fill_type, *fill_lower, *fill_length;
  /* Host code that uses the item in the innermost loop around the
   * construct, or for a construct in no loop in its block, in source
   * order (NULL, 0 for none; points into the table). */
  const ompdp_host_access_t *host_accesses;
  uint32_t num_host_accesses;
} ompdp_region_info_t;

/* Fills *out for region (a runtime handle, nonzero) and item (-1 for the
 * region only). Returns 0, or -1 if region or item is unknown. */
typedef int (*ompdp_describe_fn)(uint32_t region, int item, ompdp_region_info_t *out);

/* Names a finding's map item as the compiler recorded it (it, an item's
 * record): its region ID and the item's range (the clause's for an item
 * without one). The runtime calls this where it attributes the finding's
 * event; the plugin and `ompdp fix` check the source against both. */
static inline void ompdp_region_info_name_item(const ompdp_region_info_t *it,
                                               ompdp_finding_t *f) {
  f->region_id = it->id;
  if (it->item_line) {
    f->range.line = it->item_line;
    f->range.column = it->item_column;
    f->range.end_line = it->item_end_line;
    f->range.end_column = it->item_end_column;
  } else if (it->clause_line) {
    f->range.line = it->clause_line;
    f->range.column = it->clause_column;
    f->range.end_line = it->clause_end_line;
    f->range.end_column = it->clause_end_column;
  }
}

#endif /* OMPDP_REGION_VIEW_H */
