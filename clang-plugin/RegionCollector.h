//===- RegionCollector.h - find offload constructs in a translation unit --===//
//
// Walks the AST of one translation unit and records every OpenMP construct
// that maps data (target and its combined forms, target data, target enter
// data, target exit data, target update) with its map items, explicit and
// implicit, and the innermost loop around it.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_REGIONCOLLECTOR_H
#define OMPDP_CLANG_PLUGIN_REGIONCOLLECTOR_H

#include "RegionTable.h"

namespace clang {
class ASTContext;
}

namespace ompdp {
/// Adds the offload constructs of Ctx's translation unit to Table.
void collectRegions(clang::ASTContext &Ctx, TableBuilder &Table);
} // namespace ompdp

#endif
