//===- FreshHost.cpp - is an item's host buffer allocated by each call? ---===//
//
// One walk of the function's body: every store to the variable (its
// initializer, `v = ...`) must be an allocation, and nothing may take its
// address (then anything could store to it). At least one allocation.
//
//===----------------------------------------------------------------------===//
#include "FreshHost.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;
using ompdp::isMarkerCall;
using ompdp::refersTo;

namespace {

bool isAllocation(const Expr *E) {
  if (!E)
    return false;
  E = E->IgnoreParenImpCasts();
  while (auto *C = dyn_cast<ExplicitCastExpr>(E))
    E = C->getSubExpr()->IgnoreParenImpCasts();
  if (auto *N = dyn_cast<CXXNewExpr>(E))
    return N->isArray();
  auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  return N == "malloc" || N == "calloc" || N == "realloc" || N == "aligned_alloc" ||
         N == "valloc" || N == "memalign";
}

class Stores : public RecursiveASTVisitor<Stores> {
public:
  explicit Stores(const VarDecl *V) : V(V) {}
  const VarDecl *V;
  unsigned Allocations = 0;
  bool Other = false;

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && refersTo(B->getLHS(), V)) {
      if (B->getOpcode() == BO_Assign && isAllocation(B->getRHS()))
        ++Allocations;
      else
        Other = true;
    }
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *U) {
    if (refersTo(U->getSubExpr(), V) &&
        (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp()))
      Other = true;
    return true;
  }
  // The plugin's markers before the function's other directives
  // (Markers.cpp) take the address of their items' variables for the pass;
  // they are gone before code generation.
  bool TraverseCallExpr(CallExpr *C, DataRecursionQueue *Q = nullptr) {
    return isMarkerCall(C) || RecursiveASTVisitor::TraverseCallExpr(C, Q);
  }
  // Bound to a reference (`int *&r = p`, std::swap(p, q)): it may be
  // stored to there. An argument taken by value is converted to an rvalue
  // first; one that is still the variable itself binds to a reference.
  bool VisitCallExpr(CallExpr *C) {
    for (const Expr *A : C->arguments())
      if (auto *R = dyn_cast<DeclRefExpr>(A->IgnoreParens());
          R && R->getDecl()->getCanonicalDecl() == V)
        Other = true;
    return true;
  }
  bool VisitVarDecl(VarDecl *D) {
    if (D->getType()->isReferenceType() && refersTo(D->getInit(), V))
      Other = true;
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *L) {
    for (const LambdaCapture &C : L->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
          C.getCapturedVar()->getCanonicalDecl() == V)
        Other = true;
    return true;
  }
};

} // namespace

bool ompdp::refersTo(const Expr *E, const VarDecl *V) {
  auto *R = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  return R && R->getDecl()->getCanonicalDecl() == V;
}

bool ompdp::isMarkerCall(const CallExpr *C) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  return FD && FD->getIdentifier() && FD->getName() == "__ompdp_marker";
}

bool ompdp::freshHostBuffer(const FunctionDecl *Fn, const VarDecl *Var) {
  if (!Fn || !Fn->getBody() || !Var || !Var->getType()->isPointerType() ||
      !ownAutomaticStorage(Fn, Var))
    return false;
  const VarDecl *V = Var->getCanonicalDecl();
  Stores S(V);
  if (V->getInit()) {
    if (isAllocation(V->getInit()))
      ++S.Allocations;
    else
      S.Other = true;
  }
  S.TraverseStmt(Fn->getBody());
  return S.Allocations && !S.Other;
}

bool ompdp::ownAutomaticStorage(const FunctionDecl *Fn, const VarDecl *Var) {
  if (!Fn || !Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage() ||
      Var->getType()->isReferenceType())
    return false;
  const DeclContext *DC = Var->getCanonicalDecl()->getDeclContext();
  return DC == Fn || Fn->Encloses(DC);
}
