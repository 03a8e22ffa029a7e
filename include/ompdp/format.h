/*===- format.h - C view of the shared formats ---------------------*- C -*-===*\
|*
|* Enumerations and tables generated from OmpdpFormat.inc for C code (the
|* runtime and the driver). C++ code includes OmpdpFormat.inc directly.
|*
\*===----------------------------------------------------------------------===*/
#ifndef OMPDP_FORMAT_H
#define OMPDP_FORMAT_H

#include "ompdp/OmpdpFormat.inc"

typedef enum ompdp_finding_kind {
#define OMPDP_FINDING_KIND(Enum, Json, Summary, Title, Expl) OMPDP_FK_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_FK_COUNT
} ompdp_finding_kind_t;

typedef enum ompdp_rewrite_kind {
#define OMPDP_REWRITE_KIND(Enum, Json, Desc) OMPDP_RK_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_RK_COUNT
} ompdp_rewrite_kind_t;

typedef enum ompdp_op_class {
#define OMPDP_OP_CLASS(Enum, Json, Desc) OMPDP_OC_##Enum,
#include "ompdp/OmpdpFormat.inc"
  OMPDP_OC_COUNT
} ompdp_op_class_t;

#endif /* OMPDP_FORMAT_H */
