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

#include <cstdint>

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

/// Whether the body of target directive D, whenever it runs, writes every
/// element of Item before it reads any (OMPDP_ITEM_ACCESS_FLAG
/// WRITES_FIRST): `x[i] = ...` in every iteration of a loop over the whole
/// section, as for writesEveryElement, with every other use of x in the
/// region an element x[i] of the same iteration after that assignment (a
/// whole variable: any use after an assignment that always runs). No
/// clause but the map may name x (a reduction combines with its value).
bool writesBeforeReading(const clang::OMPExecutableDirective *D,
                         const clang::Expr *Item, clang::ASTContext &Ctx);

/// For an item of `target data` directive D: whether the first statement
/// of its body that uses the item (its device code, followed into the
/// functions it calls; data movement; host code naming the variable) is a
/// kernel that runs at once and always on the device (no `if`, `nowait`,
/// `depend`) and writes every element before reading any
/// (writesBeforeReading, for the item's section), so that nothing reads
/// what the copy in sent. That kernel may sit in code that may not run (a
/// loop, a branch, after a jump) only when the item is not copied back
/// (CopiedBack false: nothing else reads the device's copy then, and a
/// copy back would bring uninitialised memory), and no statement after
/// that code uses the item.
bool firstUseOverwrites(const clang::OMPExecutableDirective *D,
                        const clang::Expr *Item, bool CopiedBack,
                        clang::ASTContext &Ctx);

/// For an item `x[lb : len]` of target directive D (x a local pointer or
/// one-dimensional array, or a global one-dimensional array when the
/// region calls no function but builtins): whether every use of x in the region is an
/// element x[i + c], i the variable of a loop `for (i = L; i < U; ++i)`
/// whose L is lb plus a constant and U len plus a constant (as expressions,
/// their variables not written in the region), x named by no other clause
/// and no pointer from outside the region used there that the construct
/// does not map explicitly (OMPDP_ITEM_ACCESS_FLAG SECTION_END). Then the
/// region touches only [lb + Skip, len + End), Skip >= 0.
bool sectionEndBound(const clang::OMPExecutableDirective *D, const clang::Expr *Item,
                     clang::ASTContext &Ctx, int32_t &Skip, int32_t &End);

} // namespace ompdp

#endif
