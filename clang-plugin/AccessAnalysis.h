//===- AccessAnalysis.h - what a target region does with its map items ----===//
//
// For the fix-its of a later tool: does the body of a target region read a
// map item, write it, both, or neither? An item is a piece of storage named
// by a path from a variable (or `this`): fields and dereferences, so that
// u[0:n] is "what u points to" and s.a[0:n] is "what s.a points to". The
// body's uses are followed the same way; anything the analysis cannot
// follow (an address passed to a function, stored, or used otherwise)
// counts as read and write. The same walk over host code (the statements
// around a construct, without device bodies) says where the host uses an
// item, for the rewrites that keep data on the device across constructs.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_ACCESSANALYSIS_H
#define OMPDP_CLANG_PLUGIN_ACCESSANALYSIS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace clang {
class ASTContext;
class ArraySubscriptExpr;
class Expr;
class FunctionDecl;
class OMPExecutableDirective;
class Stmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace ompdp {

/// Storage named by a root (a variable, or `this`) and a path of steps:
/// a field (its FieldDecl) or a dereference.
struct StoragePath {
  const void *Root = nullptr; // canonical ValueDecl, or thisRoot()
  llvm::SmallVector<const void *, 4> Steps;
  /// Of an array of pointers, the element the path starts at when a
  /// constant subscript names it (`y[1][0:n]`: element 1, then what it
  /// points to); -1: any element, or not such an array. Distinct elements
  /// are distinct storage, as distinct variables are.
  int64_t Elem = -1;
  bool Valid = false;

  static const void *thisRoot();
  static const void *deref();
  /// The storage a map/motion list item names (u[0:n] -> u, deref).
  static StoragePath ofItem(const clang::Expr *E);
  /// A whole variable, or `this[:1]`.
  static StoragePath ofVariable(const clang::ValueDecl *VD);
  static StoragePath ofThisObject();
  /// The constant element `A[k]` names of an array of pointers A (a
  /// variable): k, else -1.
  static int64_t pointerElement(const clang::ArraySubscriptExpr *AE);
  /// Another name of the storage SP names, when SP starts at what a local
  /// pointer points to and the pointer was initialised from a field or a
  /// variable (`float *n = c.N;`: n[i] is c.N[i]); invalid otherwise.
  /// Host code that uses the data by the other name uses it too (gmm's
  /// loop reads `clusters.N[i]` after a call that copies back into
  /// `clusters_N`).
  static StoragePath aliasOf(const StoragePath &SP);
};

/// The OMPDP_ACCESS value of each item for the body of target directive D
/// (calls followed into the bodies the translation unit has, to a bounded
/// depth; a call nobody can see into reaches anything behind a pointer).
std::vector<uint32_t> analyzeAccesses(const clang::OMPExecutableDirective *D,
                                      llvm::ArrayRef<StoragePath> Items);

/// The OMPDP_ACCESS value of each item for host code S (a statement or an
/// expression), without Skip (the construct whose host accesses are
/// wanted), the bodies of target regions (device code) and the plugin's
/// markers. The items of target enter/exit data and target update
/// directives in S count as read and written (they move host data); with
/// MotionIsUse false, no directive's clauses count (the question is then
/// what host code does with the data, and a directive moves it the same
/// whether it is kept on the device around it or not: its explicit
/// copies still copy, and its maps find it present).
std::vector<uint32_t> analyzeHostAccesses(const clang::Stmt *S,
                                          const clang::Stmt *Skip,
                                          llvm::ArrayRef<StoragePath> Items,
                                          bool MotionIsUse = true);

/// The OMPDP_ACCESS value of each item for the device code of Stmts: the
/// target regions in them and in the functions they call whose bodies the
/// translation unit has (host code is followed, not counted). Definite:
/// only writes seen count as writes (evidence that device code writes an
/// item); otherwise escapes and calls nobody can see into count too (a
/// bound: what it may write).
std::vector<uint32_t> analyzeDeviceAccesses(llvm::ArrayRef<const clang::Stmt *> Stmts,
                                            llvm::ArrayRef<StoragePath> Items,
                                            bool Definite);

/// Which of Items host code Stmts writes (evidence, as Definite above):
/// writes seen in it and in the functions it calls whose bodies the
/// translation unit has, under a condition or not; not in device code, not
/// the data motion of target update/enter/exit data (the device's bytes,
/// not the host's), not Skip. An escape or an opaque call is no write here.
std::vector<bool> analyzeHostWrites(llvm::ArrayRef<const clang::Stmt *> Stmts,
                                    const clang::Stmt *Skip,
                                    llvm::ArrayRef<StoragePath> Items);

/// The body of FD as the translation unit has it: its definition, or, for
/// an instantiation not made yet, its template's; null when it has none.
const clang::FunctionDecl *definition(const clang::FunctionDecl *FD);

/// The variable a pointer value is an offset from: `p`, `p + k`, `k + p`,
/// `p - k`, `&p[k]`, an array that decays; null for anything else.
const clang::VarDecl *pointedVariable(const clang::Expr *E);

/// Which of Items host code Stmts stores values into that the compiler
/// cannot evaluate (read or computed at run time): an assignment of a value
/// that is no constant, an increment, a copy into it (memcpy, std::copy),
/// or a pointer to it given to code that may write through it (`fscanf`, a
/// call nobody can see into); in the functions it calls too. A store of a
/// constant (`b[i] = 1.0f`, memset of a constant) is none. Evidence, as for
/// analyzeHostWrites: what a fill from the values one run saw cannot rest on.
std::vector<bool> analyzeHostValueStores(llvm::ArrayRef<const clang::Stmt *> Stmts,
                                         const clang::ASTContext &Ctx,
                                         llvm::ArrayRef<StoragePath> Items);

} // namespace ompdp

#endif
