//===- WritesAll.h - does a target region write every element of an item? -===//
//
// `map(tofrom: x)` may become `map(from: x)` only when the region writes
// every element of x on every path before it reads any: an element it skips
// would come back from uninitialised device memory instead of keeping the
// host's value (Rodinia's bfs sets `stop` only when it finds new nodes, and
// with `from` it never stops). This is the compiler's half of that proof,
// for items the access analysis found only written (so no read comes
// first): the patterns it recognises, and nothing else, are in
// OmpdpFormat.inc (OMPDP_ITEM_ACCESS_FLAG, WRITES_ALL).
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_WRITESALL_H
#define OMPDP_CLANG_PLUGIN_WRITESALL_H

namespace clang {
class ASTContext;
class Expr;
class OMPExecutableDirective;
} // namespace clang

namespace ompdp {

/// Whether the body of target directive D writes every element of the map
/// list item Item (as written: `x`, `p[0:n]`, `a[:N]`, `a`) whenever it
/// runs. Only meaningful for an item the body does not read.
bool writesEveryElement(const clang::OMPExecutableDirective *D,
                        const clang::Expr *Item, clang::ASTContext &Ctx);

} // namespace ompdp

#endif
