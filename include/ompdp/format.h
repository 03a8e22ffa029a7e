/*===- format.h - C view of the shared formats ---------------------*- C -*-===*\
|*
|* Enumerations and tables generated from OmpdpFormat.inc for C code (the
|* runtime, the analysis, the report library and the driver): finding and
|* rewrite kinds, and the typed values of region-table records (construct
|* kinds, map types, accesses, loop kinds, flag bits) with their spellings,
|* so that C code compares enums, never strings. C++ code includes
|* OmpdpFormat.inc directly.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_FORMAT_H
#define OMPDP_FORMAT_H

#include "ompdp/OmpdpFormat.inc"

#include <string.h>

typedef enum ompdp_finding_kind {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Ops, Title, Expl) OMPDP_FK_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_FK_COUNT
} ompdp_finding_kind_t;

typedef enum ompdp_rewrite_kind {
#define OMPDP_REWRITE_KIND(Enum, Json, Desc) OMPDP_RK_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_RK_COUNT
} ompdp_rewrite_kind_t;

typedef enum ompdp_verdict {
#define OMPDP_VERDICT(Enum, Json, Saving, Level, Desc) OMPDP_V_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_V_COUNT
} ompdp_verdict_t;

typedef enum ompdp_op_class {
#define OMPDP_OP_CLASS(Enum, Json, Desc) OMPDP_OC_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_OC_COUNT
} ompdp_op_class_t;

/*===- region-table values --------------------------------------------------===*/

typedef enum ompdp_construct_kind {
#define OMPDP_CONSTRUCT_KIND(Enum, Spelling) OMPDP_CK_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_CK_COUNT
} ompdp_construct_kind_t;

typedef enum ompdp_map_type {
#define OMPDP_MAP_TYPE(Enum, Spelling) OMPDP_MT_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_MT_COUNT
} ompdp_map_type_t;

typedef enum ompdp_access {
#define OMPDP_ACCESS(Enum, Spelling) OMPDP_ACCESS_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_ACCESS_COUNT
} ompdp_access_t;

typedef enum ompdp_loop_kind {
#define OMPDP_LOOP_KIND(Enum, Spelling) OMPDP_LK_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_LK_COUNT
} ompdp_loop_kind_t;

enum {
#define OMPDP_MAP_MODIFIER(Enum, Bit, Spelling) OMPDP_MOD_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

enum {
#define OMPDP_FILL_FLAG(Enum, Bit, Spelling) OMPDP_FILL_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

enum {
#define OMPDP_HOST_ACCESS_FLAG(Enum, Bit, Spelling) OMPDP_HA_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

/* How an exit record leaves its loop (OMPDP_EXIT_KIND), its flags
 * (OMPDP_EXIT_FLAG) and what the compiler proved about an item's access
 * (OMPDP_ITEM_ACCESS_FLAG): region table 3.1. */
enum {
#define OMPDP_EXIT_KIND(Enum, Spelling) OMPDP_EXIT_##Enum,
#include "ompdp/OmpdpFormat.inc"
};
enum {
#define OMPDP_EXIT_FLAG(Enum, Bit, Spelling) OMPDP_XF_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};
enum {
#define OMPDP_ITEM_ACCESS_FLAG(Enum, Bit, Spelling) OMPDP_IA_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

/* Where an item may be used in its construct's block (OMPDP_USE_FLAG):
 * region table 3.3. */
enum {
#define OMPDP_USE_FLAG(Enum, Bit, Spelling) OMPDP_USE_##Enum = 1u << Bit,
#include "ompdp/OmpdpFormat.inc"
};

/* Spellings, as OmpdpFormat.inc gives them; out-of-range values (a newer
 * table's) read as the table's first entry ("unknown", "none", ""). */
static inline const char *ompdp_construct_kind_name(ompdp_construct_kind_t k) {
  static const char *const names[] = {
#define OMPDP_CONSTRUCT_KIND(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return (unsigned)k < OMPDP_CK_COUNT ? names[k] : names[0];
}
static inline const char *ompdp_map_type_name(ompdp_map_type_t t) {
  static const char *const names[] = {
#define OMPDP_MAP_TYPE(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return (unsigned)t < OMPDP_MT_COUNT ? names[t] : names[0];
}
static inline const char *ompdp_access_name(ompdp_access_t a) {
  static const char *const names[] = {
#define OMPDP_ACCESS(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return (unsigned)a < OMPDP_ACCESS_COUNT ? names[a] : names[0];
}
static inline const char *ompdp_loop_kind_name(ompdp_loop_kind_t k) {
  static const char *const names[] = {
#define OMPDP_LOOP_KIND(Enum, Spelling) Spelling,
#include "ompdp/OmpdpFormat.inc"
  };
  return (unsigned)k < OMPDP_LK_COUNT ? names[k] : names[0];
}

/* Whether a region is a call of a device memory routine (omp_target_alloc,
 * omp_target_memcpy, ...) rather than a directive. */
static inline int ompdp_construct_is_routine(ompdp_construct_kind_t k) {
  return k >= OMPDP_CK_TARGET_ALLOC && k <= OMPDP_CK_TARGET_DISASSOCIATE_PTR;
}

/* The value a spelling names; count (OMPDP_*_COUNT) when none does. */
static inline ompdp_map_type_t ompdp_map_type_parse(const char *s) {
  for (unsigned t = 0; t < OMPDP_MT_COUNT; ++t)
    if (!strcmp(s, ompdp_map_type_name((ompdp_map_type_t)t)))
      return (ompdp_map_type_t)t;
  return OMPDP_MT_COUNT;
}
static inline ompdp_construct_kind_t ompdp_construct_kind_parse(const char *s) {
  for (unsigned k = 0; k < OMPDP_CK_COUNT; ++k)
    if (!strcmp(s, ompdp_construct_kind_name((ompdp_construct_kind_t)k)))
      return (ompdp_construct_kind_t)k;
  return OMPDP_CK_COUNT;
}
static inline ompdp_access_t ompdp_access_parse(const char *s) {
  for (unsigned a = 0; a < OMPDP_ACCESS_COUNT; ++a)
    if (!strcmp(s, ompdp_access_name((ompdp_access_t)a)))
      return (ompdp_access_t)a;
  return OMPDP_ACCESS_COUNT;
}
static inline ompdp_loop_kind_t ompdp_loop_kind_parse(const char *s) {
  for (unsigned k = 0; k < OMPDP_LK_COUNT; ++k)
    if (!strcmp(s, ompdp_loop_kind_name((ompdp_loop_kind_t)k)))
      return (ompdp_loop_kind_t)k;
  return OMPDP_LK_COUNT;
}

#endif /* OMPDP_FORMAT_H */
