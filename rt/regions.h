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

#include <stddef.h>
#include <stdint.h>

/* Host code around a construct that uses one of its items
 * (OMPDP_HOST_ACCESS_FIELD in OmpdpFormat.inc): the record as the table
 * holds it. Flags: OMPDP_HA_* bits. */
typedef struct ompdp_host_access {
#define OMPDP_HOST_ACCESS_FIELD(Type, Name, Desc) Type Name;
#include "ompdp/OmpdpFormat.inc"
} ompdp_host_access_t;

enum {
#define OMPDP_HOST_ACCESS_FLAG(Enum, Bit, Spelling) OMPDP_HA_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

/* One region (and optionally one of its items), as recorded by the compiler.
 * Strings are never NULL ("" when unknown); line/column 0 means unknown. */
typedef struct ompdp_region_info {
  uint64_t id;             /* stable region ID (hash of file:line:col:kind) */
  const char *construct;   /* "target", "target data", "target enter data",
                              "target exit data", "target update" */
  const char *file;        /* as the compiler saw it (presumed file name) */
  const char *function;    /* enclosing function, qualified */
  uint32_t line, column;   /* the directive */
  uint32_t end_line, end_column; /* end of the directive (its newline) */
  int nowait;              /* the construct has a nowait clause */
  uint32_t num_items;      /* map/motion items of the region */
  /* Innermost loop around the directive (in the same function), for
   * hoisting; loop_kind is "" when there is none. */
  const char *loop_kind;   /* "for", "while", "do", "range-for" */
  uint32_t loop_line, loop_column, loop_end_line, loop_end_column;
  /* The item; all "" / 0 when the item index was -1. */
  const char *variable;    /* u, s.a, this->x */
  const char *expr;        /* the item as written: u[0:n] */
  const char *clause;      /* map(tofrom: u[0:n]) / implicit map(tofrom: a) */
  const char *map_type;    /* to, from, tofrom, alloc, release, delete,
                              firstprivate, update to, update from, ... */
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
  /* What the region body does with the item: OMPDP_ACCESS_* ("unknown"
   * for constructs without a device body, and for no item). */
  uint32_t access;
  const char *access_name; /* "unknown", "none", "read", "write", "read-write" */
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

enum {
#define OMPDP_ACCESS(Enum, Spelling) OMPDP_ACCESS_##Enum,
#include "ompdp/OmpdpFormat.inc"
};

enum {
#define OMPDP_MAP_MODIFIER(Enum, Bit, Spelling) OMPDP_MOD_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

enum {
#define OMPDP_FILL_FLAG(Enum, Bit, Spelling) OMPDP_FILL_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

/* Finds the tables of all objects loaded now (later ones are found when
 * their first call arrives). Returns the number of tables, or -1 with a
 * message on stderr if a table is malformed (the rest are still used). */
int ompdp_regions_init(void);

/* At target_emi begin, on the thread of the construct: the region of the
 * pending call on this thread (0 if none), which becomes the active call
 * until ompdp_regions_end. codeptr_ra (the offload call's return address)
 * remembers call sites without a table, so that code built without the
 * plugin does not make every construct look for newly loaded objects. */
uint32_t ompdp_regions_begin(const void *codeptr_ra);

/* The item of the active call whose host range holds [host_addr,
 * host_addr + bytes), as an index into the region's items, or -1. An
 * operation that no map argument holds comes from a user-defined mapper
 * (the components it pushes): it belongs to the item mapped through a
 * mapper when there is exactly one. */
int ompdp_regions_match_item(uint64_t host_addr, uint64_t bytes);

/* At target_emi end: forgets the active call. */
void ompdp_regions_end(void);

/* Fills *out for region (a handle from ompdp_regions_begin) and item (-1 for
 * the region only). Returns 0, or -1 if region or item is unknown. */
int ompdp_regions_describe(uint32_t region, int item,
                           ompdp_region_info_t *out);

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
