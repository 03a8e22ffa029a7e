//===- CopyOf.cpp - is an item a host copy of another variable? -----------===//
//
// One walk of the function's host code, looking for the three ways a
// program copies a buffer: a copy routine (memcpy, memmove, std::copy,
// std::copy_n), a loop of plain element assignments `x[i] = y[i]`, and an
// assignment of a whole object. The destination's storage path must be the
// item's, and the source's root another variable: anything computed on
// the way (`x[i] = 2 * y[i]`, `x[i] = y[i + 1]`) is not a copy.
//
//===----------------------------------------------------------------------===//
#include "CopyOf.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"

using namespace clang;
using namespace ompdp;

namespace {

/// The storage a pointer argument of a copy routine points to: `b` (a
/// pointer: what it points to; an array: the array), `&b[k]`, `b + k`.
StoragePath pointee(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp()) {
    const Expr *L = BO->getLHS()->IgnoreParenCasts();
    E = L->getType()->isAnyPointerType() || L->getType()->isArrayType()
            ? L
            : BO->getRHS()->IgnoreParenCasts();
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    return StoragePath::ofItem(UO->getSubExpr());
  StoragePath P = StoragePath::ofItem(E);
  if (P.Valid && E->getType()->isAnyPointerType())
    P.Steps.push_back(StoragePath::deref());
  return P;
}

bool same(const StoragePath &A, const StoragePath &B) {
  return A.Valid && B.Valid && A.Root == B.Root && A.Steps == B.Steps;
}

/// The variable an index expression is (a plain `i`), or null.
const Decl *indexVar(const Expr *E) {
  auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return R ? R->getDecl()->getCanonicalDecl() : nullptr;
}

class Copies : public RecursiveASTVisitor<Copies> {
public:
  explicit Copies(const StoragePath &Item) : Item(Item) {}
  const StoragePath &Item;
  bool Found = false;

  // Device code copies on the device: not the host's copy.
  bool dataTraverseStmtPre(Stmt *S) {
    auto *D = dyn_cast<OMPExecutableDirective>(S);
    return !D || !isOpenMPTargetExecutionDirective(D->getDirectiveKind());
  }

  bool VisitCallExpr(CallExpr *C) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || !FD->getIdentifier())
      return true;
    StringRef N = FD->getName();
    const Expr *Dst = nullptr, *Src = nullptr;
    if ((N == "memcpy" || N == "memmove" || N == "__builtin_memcpy" ||
         N == "__builtin_memmove") &&
        C->getNumArgs() == 3) {
      Dst = C->getArg(0);
      Src = C->getArg(1);
    } else if (N == "copy" && C->getNumArgs() == 3 && FD->isInStdNamespace()) {
      Dst = C->getArg(2);
      Src = C->getArg(0);
    } else if (N == "copy_n" && C->getNumArgs() == 3 && FD->isInStdNamespace()) {
      Dst = C->getArg(2);
      Src = C->getArg(0);
    }
    if (Dst && Src)
      check(pointee(Dst), pointee(Src));
    return true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() != BO_Assign)
      return true;
    const Expr *L = B->getLHS()->IgnoreParenImpCasts();
    const Expr *R = B->getRHS()->IgnoreParenImpCasts();
    auto *LS = dyn_cast<ArraySubscriptExpr>(L);
    auto *RS = dyn_cast<ArraySubscriptExpr>(R);
    if (LS && RS) {
      const Decl *I = indexVar(LS->getIdx());
      if (I && I == indexVar(RS->getIdx()))
        check(StoragePath::ofItem(LS), StoragePath::ofItem(RS));
      return true;
    }
    if (!LS && !RS && L->getType()->isRecordType())
      check(StoragePath::ofItem(L), StoragePath::ofItem(R));
    return true;
  }

private:
  void check(const StoragePath &Dst, const StoragePath &Src) {
    if (same(Dst, Item) && Src.Valid && Src.Root != Dst.Root)
      Found = true;
  }
};

} // namespace

bool ompdp::copiedFromOther(const FunctionDecl *Fn, const StoragePath &Item) {
  if (!Fn || !Fn->getBody() || !Item.Valid)
    return false;
  Copies C(Item);
  C.TraverseStmt(Fn->getBody());
  return C.Found;
}
