//===- CopyOf.h - is an item a host copy of another variable? -------------===//
//
// Two different variables that hold equal bytes are, to the run, a
// duplicate of the first one's bytes; only the compiler can tell whether
// one is a copy of the other (then the device could make the copy from
// what it has) or whether they merely hold equal values (two buffers
// initialised alike: each is an input the device needs). This is that
// fact (OmpdpFormat.inc: OMPDP_ITEM_ACCESS_FLAG, COPY_OF_OTHER).
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_COPYOF_H
#define OMPDP_CLANG_PLUGIN_COPYOF_H

#include "AccessAnalysis.h"

namespace clang {
class FunctionDecl;
} // namespace clang

namespace ompdp {

/// Whether host code of Fn copies the storage of another variable into
/// Item whole: memcpy, memmove or std::copy/std::copy_n whose destination
/// is the item's storage and whose source is another variable's, an
/// element-by-element assignment `x[i] = y[i]` (the same index variable on
/// both sides, nothing computed), or `x = y` of a whole object.
bool copiedFromOther(const clang::FunctionDecl *Fn, const StoragePath &Item);

} // namespace ompdp

#endif
