//===- WritesAll.cpp - does a target region write every element of an item? ===//
//
// Conservative: a proof or nothing. The statements that run whenever the
// region runs are its body, the statements of a block up to the first one
// that may leave it, the body of a do loop, and the bodies of OpenMP
// constructs that run at least once where they are reached (parallel,
// teams, single, master, critical, taskgroup). There,
//   - a whole variable x is written by an assignment `x = ...`;
//   - an array section x[0:n] (or x[:n], or a whole one-dimensional array
//     of N elements) is written by a loop `for (i = 0; i < n; ++i)` (or
//     `i++`, `i += 1`; an OpenMP loop construct's loop too) whose bound is
//     the section's length (the same variables, none of them written in the
//     region, or the same constant) and whose body, in every iteration,
//     assigns `x[i] = ...` before anything can leave the iteration, with i
//     written nowhere else.
// The caller asks only about items the region never reads, so "before any
// read" holds by then.
//
//===----------------------------------------------------------------------===//
#include "WritesAll.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprOpenMP.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"

#include <vector>

using namespace clang;
using namespace ompdp;

namespace {

const VarDecl *varOf(const Expr *E) {
  if (auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()))
    if (auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return VD->getCanonicalDecl();
  return nullptr;
}

/// A statement that may leave the block it is in: a jump not nested in a
/// loop or switch of its own (break, continue), or any return, goto, throw.
bool mayLeave(const Stmt *S, bool Nested = false) {
  if (!S)
    return false;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr, CoreturnStmt>(S))
    return true;
  if (!Nested && isa<BreakStmt, ContinueStmt>(S))
    return true;
  if (isa<LambdaExpr>(S))
    return false;
  bool Inner = Nested || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (mayLeave(C, Inner))
      return true;
  return false;
}

/// OpenMP constructs whose body runs at least once where they are reached.
bool runsItsBody(const OMPExecutableDirective *D) {
  switch (D->getDirectiveKind()) {
  case llvm::omp::OMPD_parallel:
  case llvm::omp::OMPD_teams:
  case llvm::omp::OMPD_single:
  case llvm::omp::OMPD_master:
  case llvm::omp::OMPD_critical:
  case llvm::omp::OMPD_taskgroup:
  case llvm::omp::OMPD_target:
  case llvm::omp::OMPD_target_parallel:
  case llvm::omp::OMPD_target_teams:
    return !D->hasClausesOfKind<OMPIfClause>();
  case llvm::omp::OMPD_masked:
    return !D->hasClausesOfKind<OMPFilterClause>();
  default:
    return false;
  }
}

/// The statements of S that run whenever S runs: assignments and loops.
struct MustRun {
  std::vector<const BinaryOperator *> Assigns;
  std::vector<const ForStmt *> Loops;

  void walk(const Stmt *S) {
    if (!S)
      return;
    if (auto *E = dyn_cast<Expr>(S)) {
      expr(E);
      return;
    }
    if (auto *CS = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *C : CS->body()) {
        walk(C);
        if (mayLeave(C))
          break;
      }
      return;
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      Loops.push_back(F);
      walk(F->getInit());
      return;
    }
    if (auto *Do = dyn_cast<DoStmt>(S)) {
      walk(Do->getBody());
      return;
    }
    if (auto *L = dyn_cast<LabelStmt>(S))
      return walk(L->getSubStmt());
    if (auto *A = dyn_cast<AttributedStmt>(S))
      return walk(A->getSubStmt());
    if (auto *CS = dyn_cast<CapturedStmt>(S))
      return walk(CS->getCapturedStmt());
    if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      if (!D->hasAssociatedStmt())
        return;
      const Stmt *Body = D->getInnermostCapturedStmt()->getCapturedStmt();
      if (isOpenMPLoopDirective(D->getDirectiveKind())) {
        if (auto *F = dyn_cast<ForStmt>(Body))
          Loops.push_back(F);
      } else if (runsItsBody(D)) {
        walk(Body);
      }
      return;
    }
    // if, while, switch, range-for, try...: not always (or not once).
  }

  void expr(const Expr *E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (auto *BO = dyn_cast<BinaryOperator>(E)) {
      if (BO->getOpcode() == BO_Assign)
        Assigns.push_back(BO);
      else if (BO->getOpcode() == BO_Comma) {
        expr(BO->getLHS());
        expr(BO->getRHS());
      }
    }
  }
};

/// Whether S may change V: assigned, incremented, its address taken, or
/// used as an lvalue other than to read it.
bool mayWrite(const Stmt *S, const VarDecl *V, bool Read = false) {
  if (!S)
    return false;
  if (auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->getCanonicalDecl() == V && !Read;
  }
  bool ChildRead = false;
  if (auto *IC = dyn_cast<ImplicitCastExpr>(S))
    ChildRead = IC->getCastKind() == CK_LValueToRValue;
  else if (isa<ParenExpr>(S))
    ChildRead = Read;
  else if (isa<UnaryExprOrTypeTraitExpr>(S))
    return false; // sizeof: not evaluated
  for (const Stmt *C : S->children())
    if (mayWrite(C, V, ChildRead))
      return true;
  return false;
}

/// The same value wherever both are evaluated in the region: equal
/// constants, or the same variables (none written in Body) combined by the
/// same operators.
bool sameValue(const Expr *A, const Expr *B, ASTContext &Ctx, const Stmt *Body) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  Expr::EvalResult RA, RB;
  if (!A->isValueDependent() && !B->isValueDependent() && A->EvaluateAsInt(RA, Ctx) &&
      B->EvaluateAsInt(RB, Ctx))
    return llvm::APSInt::isSameValue(RA.Val.getInt(), RB.Val.getInt());
  if (auto *VA = varOf(A)) {
    const VarDecl *VB = varOf(B);
    return VB == VA && !mayWrite(Body, VA);
  }
  if (auto *BA = dyn_cast<BinaryOperator>(A)) {
    auto *BB = dyn_cast<BinaryOperator>(B);
    return BB && BA->getOpcode() == BB->getOpcode() && !BA->isAssignmentOp() &&
           BA->getOpcode() != BO_Comma && sameValue(BA->getLHS(), BB->getLHS(), Ctx, Body) &&
           sameValue(BA->getRHS(), BB->getRHS(), Ctx, Body);
  }
  return false;
}

bool isZero(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  return !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 0;
}

bool isOne(const Expr *E, ASTContext &Ctx) {
  Expr::EvalResult R;
  return !E->isValueDependent() && E->EvaluateAsInt(R, Ctx) && R.Val.getInt() == 1;
}

/// `for (i = 0; i < Len; ++i) { ... X[i] = ...; ... }`, i changed only by
/// the increment, the assignment in every iteration.
bool loopWritesAll(const ForStmt *F, const VarDecl *X, const Expr *Len, uint64_t ConstLen,
                   ASTContext &Ctx, const Stmt *Body) {
  const VarDecl *I = nullptr;
  const Expr *Start = nullptr;
  if (auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (!DS->isSingleDecl())
      return false;
    auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl());
    if (!VD || !VD->getInit())
      return false;
    I = VD->getCanonicalDecl();
    Start = VD->getInit();
  } else if (auto *E = dyn_cast_or_null<Expr>(F->getInit())) {
    auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParens());
    if (!BO || BO->getOpcode() != BO_Assign || !(I = varOf(BO->getLHS())))
      return false;
    Start = BO->getRHS();
  }
  if (!I || !Start || !isZero(Start, Ctx) || !I->getType()->isIntegerType())
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts()
                                                             : nullptr);
  if (!Cond || Cond->getOpcode() != BO_LT || varOf(Cond->getLHS()) != I)
    return false;
  const Expr *U = Cond->getRHS();
  if (Len) {
    if (!sameValue(U, Len, Ctx, Body))
      return false;
  } else {
    Expr::EvalResult R;
    if (U->isValueDependent() || !U->EvaluateAsInt(R, Ctx) ||
        R.Val.getInt() != llvm::APSInt::get(int64_t(ConstLen)))
      return false;
  }
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  bool IncOk = false;
  if (auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    IncOk = UO->isIncrementOp() && varOf(UO->getSubExpr()) == I;
  else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    IncOk = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == I && isOne(CA->getRHS(), Ctx);
  if (!IncOk || mayWrite(F->getBody(), I))
    return false;
  MustRun M;
  M.walk(F->getBody());
  for (const BinaryOperator *A : M.Assigns) {
    auto *AS = dyn_cast<ArraySubscriptExpr>(A->getLHS()->IgnoreParenImpCasts());
    if (AS && varOf(AS->getBase()) == X && varOf(AS->getIdx()) == I &&
        !mayWrite(A->getRHS(), I))
      return true;
  }
  return false;
}

} // namespace

bool ompdp::writesEveryElement(const OMPExecutableDirective *D, const Expr *Item,
                               ASTContext &Ctx) {
  if (!D || !Item || !D->hasAssociatedStmt() || D->hasClausesOfKind<OMPIfClause>())
    return false;
  const Stmt *Body = D->getInnermostCapturedStmt()->getCapturedStmt();
  MustRun M;
  // The region's own body always runs; its loop, for a combined loop
  // construct, is the body itself.
  if (auto *F = dyn_cast<ForStmt>(Body))
    M.Loops.push_back(F);
  else
    M.walk(Body);
  const Expr *E = Item->IgnoreParenImpCasts();
  const Expr *Len = nullptr;
  uint64_t ConstLen = 0;
  const VarDecl *X = nullptr;
  if (auto *AS = dyn_cast<ArraySectionExpr>(E)) {
    if (AS->isOMPArraySection() == false || !AS->getLength() ||
        (AS->getLowerBound() && !isZero(AS->getLowerBound(), Ctx)) ||
        (AS->getStride() && !isOne(AS->getStride(), Ctx)))
      return false;
    X = varOf(AS->getBase());
    if (!X)
      return false;
    QualType T = X->getType();
    if (!T->isPointerType() && !(T->isConstantArrayType() && !T->getArrayElementTypeNoTypeQual()->isArrayType()))
      return false;
    Len = AS->getLength();
  } else if ((X = varOf(E))) {
    QualType T = X->getType();
    if (T->isReferenceType())
      return false;
    if (!T->isArrayType()) {
      // A whole variable: one assignment to it that always runs.
      for (const BinaryOperator *A : M.Assigns)
        if (varOf(A->getLHS()) == X)
          return true;
      return false;
    }
    auto *CAT = Ctx.getAsConstantArrayType(T);
    if (!CAT || CAT->getElementType()->isArrayType())
      return false;
    ConstLen = CAT->getSize().getZExtValue();
  } else {
    return false;
  }
  for (const ForStmt *F : M.Loops)
    if (loopWritesAll(F, X, Len, ConstLen, Ctx, Body))
      return true;
  return false;
}
