//===- HostUnread.h - does the host read what a copy back brings? ---------===//
//
// A `map(from: x[0:n])`, `tofrom` or `target update from(x[0:n])` whose
// bytes the host never reads afterwards (it only overwrites or frees the
// buffer) moves data for nothing. The run sees the copies; this is the
// compiler's fact that nobody can look at what they bring (OmpdpFormat.inc:
// OMPDP_ITEM_ACCESS_FLAG, HOST_UNREAD).
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_HOSTUNREAD_H
#define OMPDP_CLANG_PLUGIN_HOSTUNREAD_H

#include "FreshHost.h"

#include "clang/Basic/SourceLocation.h"

#include <vector>

namespace clang {
class FunctionDecl;
class SourceManager;
class VarDecl;
} // namespace clang

namespace ompdp {

/// Whether no host code of Fn can read the buffer behind Var after a copy
/// back that ends at CopyEnd (the end of the construct that copies it)
/// and, when the construct is in a loop, anywhere in Loop (the outermost
/// loop around it in Fn, whose next iteration follows the copy). Var must
/// be a local pointer that Fn sets only from allocations (freshHostBuffer):
/// then the buffer is reached only through Var, and this holds when every
/// use of Var in Fn's host code is
///   - an element written by a plain assignment (`x[i] = ...`, `*x = ...`),
///     anywhere,
///   - an element read (`... = x[i]`) before the copy, outside Loop,
///   - `free(x)`, `delete[] x`, `sizeof`, an allocation stored to it,
///   - x passed, before the copy and outside Loop, to a function of the
///     file whose every use of that parameter is one of these (elements
///     read or written, freed: `init(x, n)` keeps no other name for it),
///     or passed anywhere to one that only reads through it,
///   - an item of a map or motion clause that does not send the host's
///     bytes (`from`, `alloc`, `release`, `delete`, `target update from`),
///     or that does, before the copy, outside Loop;
/// with device code (target regions' bodies) not looked into, and no label
/// in Fn (a `goto` could run code before the copy after it). Anything else
/// (the pointer passed to a call, copied, compared, captured by a lambda,
/// an element's address taken) lets another name reach the buffer: false.
///
/// Var may instead be one of a group of pointers that Fn sets only from
/// allocations and swaps (swappedFreshBuffer; Moves are the swaps of the
/// group): they point to distinct buffers, so only Var reaches the one it
/// holds at the copy as long as no swap of the group can run after the
/// copy (the swaps before it are skipped; one after it, or in Loop, gives
/// false).
///
/// Calls of memset, memcpy and memmove with Var as their destination write
/// the buffer; as memcpy's or memmove's source, read it.
bool hostNeverReadsBack(const clang::FunctionDecl *Fn, const clang::VarDecl *Var,
                        clang::SourceLocation CopyEnd, clang::SourceRange Loop,
                        const clang::SourceManager &SM,
                        const std::vector<PointerSwap> *Moves = nullptr);

} // namespace ompdp

namespace ompdp {

/// Whether Var, a local pointer that Fn sets only from allocations
/// (freshHostBuffer), is the only name of its buffer: every use of it in
/// Fn's host code is one hostNeverReadsBack accepts anywhere (elements
/// read or written, freed, compared, mapped, given to a function of the
/// file that keeps no copy), or the initializer of a local pointer of its
/// own whose uses are such (`const T *q = (const T *)x;`). Then a call
/// nobody can see into cannot reach the buffer: it was allocated here and
/// no pointer to it left the function.
bool onlyNameOfBuffer(const clang::FunctionDecl *Fn, const clang::VarDecl *Var);

} // namespace ompdp

#endif
