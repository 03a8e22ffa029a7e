//===- FreshHost.h - is an item's host buffer allocated by each call? -----===//
//
// A function that allocates a buffer, maps it and frees it maps a new host
// buffer at each call, which malloc may put where the last one was: the
// runtime then sees "the same host address" allocated and copied again,
// and would call it the same buffer. This is the compiler's fact that it
// is not (OmpdpFormat.inc: OMPDP_ITEM_ACCESS_FLAG, FRESH_HOST), and the
// same for a function's own automatic variables (AUTOMATIC).
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_FRESHHOST_H
#define OMPDP_CLANG_PLUGIN_FRESHHOST_H

#include <vector>

namespace clang {
class CallExpr;
class Expr;
class FunctionDecl;
class Stmt;
class VarDecl;
} // namespace clang

namespace ompdp {

/// A swap of two local pointers of a function: the statements
/// `T *t = a; a = b; b = t;` (or `t = a;` first), consecutive in a block,
/// t referred to nowhere else, or one call `std::swap(a, b)` / `swap(a, b)`
/// (First == Mid == Last). A and B canonical.
struct PointerSwap {
  const clang::Stmt *First = nullptr, *Mid = nullptr, *Last = nullptr;
  const clang::VarDecl *A = nullptr, *B = nullptr;
};

/// The pointer swaps of Fn's body.
std::vector<PointerSwap> pointerSwaps(const clang::FunctionDecl *Fn);

/// Whether Var is one of a group of local pointers of Fn (Var and the
/// pointers it is swapped with, and theirs) that Fn sets only from
/// allocations, each at least once, and by the swaps (Swaps, of
/// pointerSwaps) among them, their addresses never taken: whatever the
/// swaps did, they point to distinct buffers of their own, and a buffer
/// changes names only at a swap. The swaps that move Var's buffer go in
/// *Moves (those of the group).
bool swappedFreshBuffer(const clang::FunctionDecl *Fn, const clang::VarDecl *Var,
                        const std::vector<PointerSwap> &Swaps,
                        std::vector<PointerSwap> *Moves);

/// Whether Var, a local pointer variable of Fn (not a parameter, not
/// static), gets its value in Fn only from allocations (malloc, calloc,
/// realloc, aligned_alloc, new[], posix_memalign(&Var, ...), a call of a
/// function with the malloc attribute or of one whose definition returns
/// only such allocations: as its initializer or assigned) and null, at
/// least one allocation, with its address never taken otherwise: each call
/// of Fn then points it at a buffer of its own.
bool freshHostBuffer(const clang::FunctionDecl *Fn, const clang::VarDecl *Var);

/// Whether Var is an automatic variable of Fn (declared in it, not a
/// parameter, not static, not a reference): each call of Fn has an object
/// of its own, which the stack may put where the last call's was
/// (OmpdpFormat.inc: OMPDP_ITEM_ACCESS_FLAG, AUTOMATIC).
bool ownAutomaticStorage(const clang::FunctionDecl *Fn, const clang::VarDecl *Var);

/// Whether E, parentheses and implicit casts aside, names V (canonical).
bool refersTo(const clang::Expr *E, const clang::VarDecl *V);

/// Whether C calls the plugin's marker (Markers.cpp), which takes the
/// address of its items' variables for the pass and is gone before code
/// generation: walks over a function's uses of a variable skip it.
bool isMarkerCall(const clang::CallExpr *C);

} // namespace ompdp

#endif
