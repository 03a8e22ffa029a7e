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

#include "AccessAnalysis.h"
#include "FreshHost.h"
#include "RegionTable.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprOpenMP.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"

#include <algorithm>
#include <cstdint>
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

/// The statement a directive applies to, inside its captured regions (an
/// `atomic`'s or a `critical`'s is not captured: it is the statement
/// itself); null for a standalone directive.
const Stmt *directiveBody(const OMPExecutableDirective *D) {
  if (!D->hasAssociatedStmt())
    return nullptr;
  const Stmt *S = D->getAssociatedStmt();
  return isa<CapturedStmt>(S) ? D->getInnermostCapturedStmt()->getCapturedStmt() : S;
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
      const Stmt *Body = directiveBody(D);
      if (!Body)
        return;
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
  // The plugin's markers take items' addresses for the pass only.
  if (auto *C = dyn_cast<CallExpr>(S); C && isMarkerCall(C))
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

/// Whether statement S may change V, as mayWrite, the initialisers of a
/// captured statement's captures aside: a construct nested in the region
/// that captures V by reference does not write it by that (its body,
/// which may, is looked at).
bool regionMayWrite(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (auto *CS = dyn_cast<CapturedStmt>(S))
    return regionMayWrite(CS->getCapturedStmt(), V);
  if (isa<Expr>(S))
    return mayWrite(S, V);
  for (const Stmt *C : S->children())
    if (regionMayWrite(C, V))
      return true;
  return false;
}

using WritesFn = bool (*)(const Stmt *, const VarDecl *);
bool mayWriteFn(const Stmt *S, const VarDecl *V) { return mayWrite(S, V); }

/// The same value wherever both are evaluated in the region: equal
/// constants, or the same variables (none written in Body, by Writes)
/// combined by the same operators.
bool sameValue(const Expr *A, const Expr *B, ASTContext &Ctx, const Stmt *Body,
               WritesFn Writes = mayWriteFn) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  Expr::EvalResult RA, RB;
  if (!A->isValueDependent() && !B->isValueDependent() && A->EvaluateAsInt(RA, Ctx) &&
      B->EvaluateAsInt(RB, Ctx))
    return llvm::APSInt::isSameValue(RA.Val.getInt(), RB.Val.getInt());
  if (auto *VA = varOf(A)) {
    const VarDecl *VB = varOf(B);
    return VB == VA && !Writes(Body, VA);
  }
  if (auto *BA = dyn_cast<BinaryOperator>(A)) {
    auto *BB = dyn_cast<BinaryOperator>(B);
    return BB && BA->getOpcode() == BB->getOpcode() && !BA->isAssignmentOp() &&
           BA->getOpcode() != BO_Comma && sameValue(BA->getLHS(), BB->getLHS(), Ctx, Body, Writes) &&
           sameValue(BA->getRHS(), BB->getRHS(), Ctx, Body, Writes);
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

/// A loop `for (i = L; i < U; ++i)` or `i <= U` (`T i = L`, `i++`,
/// `i += 1`), i an integer its body does not write.
struct CountedLoop {
  const VarDecl *I = nullptr;
  const Expr *Start = nullptr;
  const BinaryOperator *Cond = nullptr;
};

bool countedLoop(const ForStmt *F, ASTContext &Ctx, CountedLoop &Out) {
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
  if (!I || !Start || !I->getType()->isIntegerType())
    return false;
  auto *Cond = dyn_cast_or_null<BinaryOperator>(F->getCond() ? F->getCond()->IgnoreParenImpCasts()
                                                             : nullptr);
  if (!Cond || (Cond->getOpcode() != BO_LT && Cond->getOpcode() != BO_LE) ||
      varOf(Cond->getLHS()) != I)
    return false;
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  bool IncOk = false;
  if (auto *UO = dyn_cast_or_null<UnaryOperator>(Inc))
    IncOk = UO->isIncrementOp() && varOf(UO->getSubExpr()) == I;
  else if (auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc))
    IncOk = CA->getOpcode() == BO_AddAssign && varOf(CA->getLHS()) == I && isOne(CA->getRHS(), Ctx);
  if (!IncOk || mayWrite(F->getBody(), I))
    return false;
  Out = {I, Start, Cond};
  return true;
}

/// `for (i = 0; i < Len; ++i) { ... X[i] = ...; ... }`, i changed only by
/// the increment, the assignment in every iteration: that assignment (and
/// i in *IVar), or null.
const BinaryOperator *loopWritesAll(const ForStmt *F, const VarDecl *X, const Expr *Len,
                                    uint64_t ConstLen, ASTContext &Ctx, const Stmt *Body,
                                    const VarDecl **IVar = nullptr) {
  CountedLoop CL;
  if (!countedLoop(F, Ctx, CL) || !isZero(CL.Start, Ctx) || CL.Cond->getOpcode() != BO_LT)
    return nullptr;
  const VarDecl *I = CL.I;
  const Expr *U = CL.Cond->getRHS();
  if (Len) {
    if (!sameValue(U, Len, Ctx, Body))
      return nullptr;
  } else {
    Expr::EvalResult R;
    if (U->isValueDependent() || !U->EvaluateAsInt(R, Ctx) ||
        R.Val.getInt() != llvm::APSInt::get(int64_t(ConstLen)))
      return nullptr;
  }
  MustRun M;
  M.walk(F->getBody());
  for (const BinaryOperator *A : M.Assigns) {
    auto *AS = dyn_cast<ArraySubscriptExpr>(A->getLHS()->IgnoreParenImpCasts());
    if (AS && varOf(AS->getBase()) == X && varOf(AS->getIdx()) == I &&
        !mayWrite(A->getRHS(), I)) {
      if (IVar)
        *IVar = I;
      return A;
    }
  }
  return nullptr;
}

/// Whether S names V anywhere (its own uses, not through other names; the
/// plugin's markers, which take items' addresses for the pass, aside).
bool mentions(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (auto *C = dyn_cast<CallExpr>(S); C && isMarkerCall(C))
    return false;
  if (auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl()->getCanonicalDecl() == V;
  for (const Stmt *C : S->children())
    if (mentions(C, V))
      return true;
  return false;
}

/// Whether host code S may change V: as mayWrite, but a kernel in S only
/// through a map clause that names V (a scalar it merely uses is
/// firstprivate there, a copy).
bool hostMayWrite(const Stmt *S, const VarDecl *V) {
  if (!S)
    return false;
  if (auto *D = dyn_cast<OMPExecutableDirective>(S);
      D && isOpenMPTargetExecutionDirective(D->getDirectiveKind())) {
    for (const OMPClause *C : D->clauses())
      if (C && isa<OMPMapClause>(C))
        for (const Stmt *Ch : const_cast<OMPClause *>(C)->children())
          if (mentions(Ch, V))
            return true;
    return false;
  }
  if (isa<Expr>(S))
    return mayWrite(S, V);
  for (const Stmt *C : S->children())
    if (hostMayWrite(C, V))
      return true;
  return false;
}

/// A map list item as these proofs understand it: a variable X and which
/// of its elements: a section X[0:Len] of a pointer or a one-dimensional
/// array, a whole one-dimensional array of ConstLen elements, or a whole
/// variable that is not an array (Whole).
struct Extent {
  const VarDecl *X = nullptr;
  const Expr *Len = nullptr;
  uint64_t ConstLen = 0;
  bool Whole = false;
};

bool extentOf(const Expr *Item, ASTContext &Ctx, Extent &Out) {
  const Expr *E = Item->IgnoreParenImpCasts();
  if (auto *AS = dyn_cast<ArraySectionExpr>(E)) {
    if (AS->isOMPArraySection() == false || !AS->getLength() ||
        (AS->getLowerBound() && !isZero(AS->getLowerBound(), Ctx)) ||
        (AS->getStride() && !isOne(AS->getStride(), Ctx)))
      return false;
    const VarDecl *X = varOf(AS->getBase());
    if (!X)
      return false;
    QualType T = X->getType();
    if (!T->isPointerType() &&
        !(T->isConstantArrayType() && !T->getArrayElementTypeNoTypeQual()->isArrayType()))
      return false;
    Out.X = X;
    Out.Len = AS->getLength();
    return true;
  }
  const VarDecl *X = varOf(E);
  if (!X || X->getType()->isReferenceType())
    return false;
  Out.X = X;
  if (!X->getType()->isArrayType()) {
    Out.Whole = true;
    return true;
  }
  auto *CAT = Ctx.getAsConstantArrayType(X->getType());
  if (!CAT || CAT->getElementType()->isArrayType())
    return false;
  Out.ConstLen = CAT->getSize().getZExtValue();
  return true;
}

/// The region's statements that always run (MustRun) and its body.
const Stmt *mustRun(const OMPExecutableDirective *D, MustRun &M) {
  const Stmt *Body = directiveBody(D);
  if (!Body)
    return nullptr;
  // The region's own body always runs; its loop, for a combined loop
  // construct, is the body itself.
  if (auto *F = dyn_cast<ForStmt>(Body))
    M.Loops.push_back(F);
  else
    M.walk(Body);
  return Body;
}

/// Whether clause C of a directive leaves V's storage as it is: a map or
/// `shared` clause, or the implicit firstprivate copy of a pointer (its
/// value, which still points to the mapped elements).
bool keepsStorage(const OMPClause *C, const VarDecl *V) {
  return isa<OMPMapClause, OMPSharedClause>(C) ||
         (isa<OMPFirstprivateClause>(C) && C->isImplicit() && V->getType()->isPointerType());
}

/// A clause of D that names V other than those keepsStorage allows:
/// reduction, firstprivate, private, ... give the region another object
/// than the mapped one, or combine with the mapped one's value.
bool otherClauseNames(const OMPExecutableDirective *D, const VarDecl *V) {
  for (const OMPClause *C : D->clauses())
    if (C && !keepsStorage(C, V))
      for (const Stmt *Ch : const_cast<OMPClause *>(C)->children())
        if (mentions(Ch, V))
          return true;
  return false;
}

/// Every use of X in a region body, but the one assignment that writes
/// it first: each must come after that assignment (source order, which is
/// execution order inside one loop iteration or one run of a block the
/// assignment always runs in) and, for an element, be X[I] inside Scope
/// (the loop's body), I the loop's variable.
class UsesAfter {
public:
  UsesAfter(const VarDecl *X, const VarDecl *I, const DeclRefExpr *Skip, SourceRange Scope,
            SourceLocation After, const SourceManager &SM)
      : X(X), I(I), Skip(Skip), Scope(Scope), After(After), SM(SM) {}

  bool check(const Stmt *Body) {
    walk(Body);
    return Ok;
  }

private:
  const VarDecl *X, *I;
  const DeclRefExpr *Skip;
  SourceRange Scope;
  SourceLocation After;
  const SourceManager &SM;
  std::vector<const Stmt *> Up;
  bool Ok = true;

  bool before(SourceLocation A, SourceLocation B) const {
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(A), SM.getExpansionLoc(B));
  }

  void walk(const Stmt *S) {
    if (!S || !Ok)
      return;
    if (auto *CS = dyn_cast<CapturedStmt>(S)) {
      // The body, not the captures' initialisers (the variable handed to
      // a nested construct, which is no access).
      walk(CS->getCapturedStmt());
      return;
    }
    if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      if (otherClauseNames(D, X)) {
        Ok = false;
        return;
      }
      if (D->hasAssociatedStmt())
        walk(D->getAssociatedStmt());
      return;
    }
    if (auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (DRE->getDecl()->getCanonicalDecl() == X && DRE != Skip)
        Ok = use(DRE);
      return;
    }
    Up.push_back(S);
    for (const Stmt *C : S->children())
      walk(C);
    Up.pop_back();
  }

  bool use(const DeclRefExpr *E) const {
    SourceLocation L = E->getBeginLoc();
    if (!before(After, L))
      return false;
    if (!I) // a whole variable: any use after the assignment
      return true;
    if (before(L, Scope.getBegin()) || before(Scope.getEnd(), L))
      return false;
    const Stmt *Child = E;
    for (size_t K = Up.size(); K-- > 0;) {
      const Stmt *P = Up[K];
      if (isa<ImplicitCastExpr, ParenExpr>(P)) {
        Child = P;
        continue;
      }
      auto *AS = dyn_cast<ArraySubscriptExpr>(P);
      return AS && AS->getBase() == Child && varOf(AS->getIdx()) == I;
    }
    return false;
  }
};

/// Whether the body of D writes every element of E before reading any,
/// whenever it runs: the bytes a copy in sends there are never read.
bool writesFirst(const OMPExecutableDirective *D, const Extent &E, ASTContext &Ctx,
                 const SourceManager &SM) {
  if (!D || !D->hasAssociatedStmt() || D->hasClausesOfKind<OMPIfClause>() ||
      otherClauseNames(D, E.X))
    return false;
  MustRun M;
  const Stmt *Body = mustRun(D, M);
  if (E.Whole) {
    for (const BinaryOperator *A : M.Assigns)
      if (auto *L = dyn_cast<DeclRefExpr>(A->getLHS()->IgnoreParenImpCasts());
          L && L->getDecl()->getCanonicalDecl() == E.X &&
          UsesAfter(E.X, nullptr, L, SourceRange(), A->getEndLoc(), SM).check(Body))
        return true;
    return false;
  }
  for (const ForStmt *F : M.Loops) {
    const VarDecl *I = nullptr;
    const BinaryOperator *A = loopWritesAll(F, E.X, E.Len, E.ConstLen, Ctx, Body, &I);
    if (!A)
      continue;
    auto *AS = cast<ArraySubscriptExpr>(A->getLHS()->IgnoreParenImpCasts());
    auto *Base = dyn_cast<DeclRefExpr>(AS->getBase()->IgnoreParenImpCasts());
    if (Base && !mentions(F->getCond(), E.X) && !mentions(F->getInc(), E.X) &&
        UsesAfter(E.X, I, Base, F->getBody()->getSourceRange(), A->getEndLoc(), SM)
            .check(Body))
      return true;
  }
  return false;
}

/// How the first statement of a `target data` body that uses an item
/// treats the device's copy (firstUse below).
enum class First {
  None,        // no use
  Overwrites,  // a kernel that writes every element before reading any, and runs
  Conditional, // ... in code that may not run (a loop, a branch, after a jump)
  Other,       // anything else: a read, a partial write, code not followed
};

/// The walk of a `target data` body for its item E (storage SP): the
/// first statement, in execution order, whose device code or data
/// movement uses the item.
class FirstUse {
public:
  FirstUse(const Extent &E, const StoragePath &SP, ASTContext &Ctx)
      : E(E), SP(SP), Ctx(Ctx), SM(Ctx.getSourceManager()) {
    varsOf(E.Len);
  }

  First of(const Stmt *S) {
    if (!S)
      return First::None;
    if (auto *CS = dyn_cast<CompoundStmt>(S))
      return seq(CS->body());
    if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      if (!uses(S))
        return First::None;
      // A kernel that always runs its region on the device, at once.
      if (!isOpenMPTargetExecutionDirective(D->getDirectiveKind()) ||
          D->hasClausesOfKind<OMPNowaitClause>() || D->hasClausesOfKind<OMPDependClause>() ||
          D->hasClausesOfKind<OMPIfClause>())
        return First::Other;
      return writesFirst(D, E, Ctx, SM) ? First::Overwrites : First::Other;
    }
    if (auto *F = dyn_cast<ForStmt>(S)) {
      if (!uses(S))
        return First::None;
      if (uses(F->getInit()) || uses(F->getCond()) || uses(F->getInc()))
        return First::Other;
      return loop(of(F->getBody()));
    }
    if (auto *W = dyn_cast<WhileStmt>(S)) {
      if (!uses(S))
        return First::None;
      return uses(W->getCond()) ? First::Other : loop(of(W->getBody()));
    }
    if (auto *Do = dyn_cast<DoStmt>(S)) {
      if (!uses(S))
        return First::None;
      First R = of(Do->getBody());
      return R == First::None ? First::Other : R; // a use in the condition
    }
    if (auto *If = dyn_cast<IfStmt>(S)) {
      if (!uses(S))
        return First::None;
      if (If->getInit() || If->getConditionVariable() || uses(If->getCond()))
        return First::Other;
      First T = maybe(of(If->getThen())), F = maybe(of(If->getElse()));
      return T == First::Other || F == First::Other || (T == First::None && F == First::None)
                 ? First::Other
                 : First::Conditional;
    }
    if (auto *A = dyn_cast<AttributedStmt>(S))
      return of(A->getSubStmt());
    return uses(S) ? First::Other : First::None;
  }

private:
  const Extent &E;
  const StoragePath &SP;
  ASTContext &Ctx;
  const SourceManager &SM;
  std::vector<const VarDecl *> LenVars;

  void varsOf(const Stmt *S) {
    if (!S)
      return;
    if (const VarDecl *V = dyn_cast<Expr>(S) ? varOf(cast<Expr>(S)) : nullptr)
      LenVars.push_back(V);
    for (const Stmt *C : S->children())
      varsOf(C);
  }

  /// Code that may run no time: a first use that overwrites there may not
  /// have happened.
  static First maybe(First R) { return R == First::Overwrites ? First::Conditional : R; }
  /// A loop that uses the item, in a body that runs no time or more: its
  /// use not found in the body is one in code the walk does not follow.
  static First loop(First R) { return R == First::None ? First::Other : maybe(R); }

  First seq(llvm::iterator_range<CompoundStmt::const_body_iterator> Body) {
    First Found = First::None;
    bool Left = false; // a statement before may leave the block
    for (const Stmt *C : Body) {
      if (Found != First::None) {
        // After a conditional first use, a later one may be the first.
        if (Found == First::Conditional && uses(C))
          return First::Other;
        continue;
      }
      First R = of(C);
      if (R == First::Other)
        return R;
      if (R != First::None)
        Found = Left ? maybe(R) : R;
      if (mayLeave(C))
        Left = true;
    }
    return Found;
  }

  /// The statement names the variable (host code that may read the item
  /// or point the pointer elsewhere, a clause that moves it), or its
  /// device code (also in the functions it calls) or data movement uses
  /// the item.
  bool uses(const Stmt *S) const {
    if (!S)
      return false;
    if (mentions(S, E.X))
      return true;
    // The section's length is evaluated at the `target data`: the kernel's
    // loop bound names the same variables, which must not change before it.
    for (const VarDecl *V : LenVars)
      if (hostMayWrite(S, V))
        return true;
    std::vector<uint32_t> Dev = analyzeDeviceAccesses({S}, {SP}, /*Definite=*/false);
    std::vector<uint32_t> Host = analyzeHostAccesses(S, nullptr, {SP});
    return Dev.empty() || Host.empty() || Dev[0] != AC_NONE || Host[0] != AC_NONE;
  }
};

} // namespace

bool ompdp::writesEveryElement(const OMPExecutableDirective *D, const Expr *Item,
                               ASTContext &Ctx) {
  if (!D || !Item || !D->hasAssociatedStmt() || D->hasClausesOfKind<OMPIfClause>())
    return false;
  Extent E;
  if (!extentOf(Item, Ctx, E))
    return false;
  MustRun M;
  const Stmt *Body = mustRun(D, M);
  if (E.Whole) {
    // A whole variable: one assignment to it that always runs.
    for (const BinaryOperator *A : M.Assigns)
      if (varOf(A->getLHS()) == E.X)
        return true;
    return false;
  }
  for (const ForStmt *F : M.Loops)
    if (loopWritesAll(F, E.X, E.Len, E.ConstLen, Ctx, Body))
      return true;
  return false;
}

bool ompdp::writesBeforeReading(const OMPExecutableDirective *D, const Expr *Item,
                                ASTContext &Ctx) {
  Extent E;
  return D && Item && extentOf(Item, Ctx, E) && writesFirst(D, E, Ctx, Ctx.getSourceManager());
}

bool ompdp::firstUseOverwrites(const OMPExecutableDirective *D, const Expr *Item,
                               bool CopiedBack, ASTContext &Ctx) {
  Extent E;
  if (!D || !Item || !D->hasAssociatedStmt() || D->hasClausesOfKind<OMPIfClause>() ||
      !extentOf(Item, Ctx, E))
    return false;
  StoragePath SP = StoragePath::ofItem(Item);
  if (!SP.Valid)
    return false;
  First R = FirstUse(E, SP, Ctx).of(directiveBody(D));
  // Where the kernel may not run, a copy back would bring the device's
  // uninitialised memory instead of the host's bytes; with none, nothing
  // reads the device's copy before the kernel writes it, if ever.
  return R == First::Overwrites || (R == First::Conditional && !CopiedBack);
}

//===- array sections larger than the region uses -----------------------===//
//
// `x[lo : hi]` with a loop `for (i = lo; i < hi; ++i) ... x[i] ...` moves
// hi elements from x + lo where the region touches hi - lo: the end index
// written where the length belongs. The proof bounds every use of x in
// the region by the loops' ranges, compared with the section's bounds as
// expressions plus a constant; anything it does not recognise leaves the
// item without the fact.

namespace {

/// E as B + C: B the part that is not a constant (null when all of E is),
/// C the constant added to it (`n - 1`: n, -1; `lo + 2 + 1`: lo, 3).
struct Affine {
  const Expr *B = nullptr;
  int64_t C = 0;
  bool Ok = true;
};

Affine affineOf(const Expr *E, ASTContext &Ctx) {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult R;
  if (!E->isValueDependent() && E->EvaluateAsInt(R, Ctx)) {
    if (R.Val.getInt().getSignificantBits() > 32)
      return {nullptr, 0, false};
    return {nullptr, R.Val.getInt().getExtValue(), true};
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    Expr::EvalResult K;
    auto Const = [&](const Expr *X, int64_t &V) {
      X = X->IgnoreParenImpCasts();
      if (X->isValueDependent() || !X->EvaluateAsInt(K, Ctx) ||
          K.Val.getInt().getSignificantBits() > 32)
        return false;
      V = K.Val.getInt().getExtValue();
      return true;
    };
    int64_t V = 0;
    if ((BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub) && Const(BO->getRHS(), V)) {
      Affine A = affineOf(BO->getLHS(), Ctx);
      A.C += BO->getOpcode() == BO_Add ? V : -V;
      return A;
    }
    if (BO->getOpcode() == BO_Add && Const(BO->getLHS(), V)) {
      Affine A = affineOf(BO->getRHS(), Ctx);
      A.C += V;
      return A;
    }
  }
  return {E, 0, true};
}

/// The constant D such that A == B + D wherever both are evaluated in the
/// region (Body), when there is one.
bool offsetBetween(const Expr *A, const Expr *B, ASTContext &Ctx, const Stmt *Body,
                   int64_t &D) {
  Affine X = affineOf(A, Ctx), Y = affineOf(B, Ctx);
  if (!X.Ok || !Y.Ok || !X.B != !Y.B || (X.B && !sameValue(X.B, Y.B, Ctx, Body, regionMayWrite)))
    return false;
  D = X.C - Y.C;
  return true;
}

/// Bounds every use of X in a region by the loops around it.
class SectionUses {
public:
  SectionUses(const VarDecl *X, const Expr *Lower, const Expr *Len, const Stmt *Body,
              llvm::SmallPtrSetImpl<const VarDecl *> &Mapped, ASTContext &Ctx, bool NoCalls)
      : X(X), Lower(Lower), Len(Len), Body(Body), Mapped(Mapped), Ctx(Ctx), NoCalls(NoCalls) {}

  /// Whether every use is bounded, and the bounds.
  bool check(int64_t &Skip, int64_t &End) {
    walk(Body);
    if (!Ok || !Any)
      return false;
    Skip = MinSkip;
    End = MaxEnd;
    return true;
  }

private:
  /// A loop variable I over [Lower + K, Len + M).
  struct Loop {
    const VarDecl *I;
    int64_t K, M;
  };
  const VarDecl *X;
  const Expr *Lower, *Len;
  const Stmt *Body;
  llvm::SmallPtrSetImpl<const VarDecl *> &Mapped;
  ASTContext &Ctx;
  llvm::SmallVector<Loop, 4> Loops;
  llvm::SmallPtrSet<const VarDecl *, 8> Locals;
  bool NoCalls; // x is a global: a function called in the region may use it
  bool Ok = true, Any = false;
  int64_t MinSkip = INT64_MAX, MaxEnd = INT64_MIN;

  /// `for (T i = L; i < U; ++i)` (or `i = L`, `<=`, `i++`, `i += 1`), i an
  /// integer the body does not write, L and U the section's bounds plus
  /// constants.
  bool loopOf(const ForStmt *F, Loop &Out) {
    CountedLoop CL;
    if (!countedLoop(F, Ctx, CL) || mentions(CL.Start, CL.I) || mentions(CL.Cond->getRHS(), CL.I))
      return false;
    const VarDecl *I = CL.I;
    const Expr *Start = CL.Start;
    const BinaryOperator *Cond = CL.Cond;
    int64_t K, M;
    if (!offsetBetween(Start, Lower, Ctx, Body, K) ||
        !offsetBetween(Cond->getRHS(), Len, Ctx, Body, M))
      return false;
    Out = {I, K, M + (Cond->getOpcode() == BO_LE ? 1 : 0)};
    return true;
  }

  /// x[i + c] with i a loop's variable: the element's bounds.
  bool element(const ArraySubscriptExpr *AS) {
    Affine A = affineOf(AS->getIdx(), Ctx);
    const VarDecl *I = A.Ok && A.B ? varOf(A.B) : nullptr;
    for (size_t K = Loops.size(); I && K-- > 0;)
      if (Loops[K].I == I) {
        MinSkip = std::min(MinSkip, Loops[K].K + A.C);
        MaxEnd = std::max(MaxEnd, Loops[K].M + A.C);
        Any = true;
        return true;
      }
    return false;
  }

  void walk(const Stmt *S) {
    if (!S || !Ok)
      return;
    if (auto *CS = dyn_cast<CapturedStmt>(S))
      return walk(CS->getCapturedStmt()); // not the captures' initialisers
    if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      // A nested construct's own clause naming x (private, reduction,
      // map) gives it another object, or combines with it.
      for (const OMPClause *C : D->clauses())
        if (C && !C->isImplicit())
          for (const Stmt *Ch : const_cast<OMPClause *>(C)->children())
            if (mentions(Ch, X))
              Ok = false;
      if (D->hasAssociatedStmt())
        walk(D->getAssociatedStmt());
      return;
    }
    if (auto *C = dyn_cast<CallExpr>(S)) {
      if (isMarkerCall(C))
        return;
      if (NoCalls && !C->getBuiltinCallee())
        Ok = false;
    }
    if (isa<LambdaExpr>(S)) {
      Ok = !mentions(S, X);
      return;
    }
    if (auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (auto *VD = dyn_cast<VarDecl>(D))
          Locals.insert(VD->getCanonicalDecl());
    if (auto *F = dyn_cast<ForStmt>(S)) {
      Loop L;
      if (loopOf(F, L)) {
        Locals.insert(L.I);
        for (const Stmt *Part : {F->getInit(), static_cast<const Stmt *>(F->getCond()),
                                 static_cast<const Stmt *>(F->getInc())})
          if (mentions(Part, X))
            Ok = false;
        Loops.push_back(L);
        walk(F->getBody());
        Loops.pop_back();
        return;
      }
    }
    if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf) {
      // &x[i]: the element's address may reach any other element.
      if (mentions(UO->getSubExpr(), X)) {
        Ok = false;
        return;
      }
    }
    if (auto *AS = dyn_cast<ArraySubscriptExpr>(S); AS && varOf(AS->getBase()) == X) {
      if (!element(AS))
        Ok = false;
      return walk(AS->getIdx());
    }
    if (auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD)
        return;
      VD = VD->getCanonicalDecl();
      // x other than as an element: its value escapes. Another pointer
      // from outside the region that no clause of the construct maps
      // explicitly may point into x's section (`double *row = x + k`).
      if (VD == X || (VD->getType()->isPointerType() && !Locals.count(VD) && !Mapped.count(VD)))
        Ok = false;
      return;
    }
    for (const Stmt *C : S->children())
      walk(C);
  }
};

} // namespace

bool ompdp::sectionEndBound(const OMPExecutableDirective *D, const Expr *Item,
                            ASTContext &Ctx, int32_t &Skip, int32_t &End) {
  if (!D || !Item || !D->hasAssociatedStmt())
    return false;
  auto *AS = dyn_cast<ArraySectionExpr>(Item->IgnoreParenImpCasts());
  if (!AS || !AS->isOMPArraySection() || AS->getStride() || !AS->getLength() ||
      !AS->getLowerBound() || AS->getColonLocSecond().isValid())
    return false;
  const VarDecl *X = varOf(AS->getBase());
  if (!X || X->getType()->isReferenceType())
    return false;
  QualType T = X->getType();
  bool Array = T->isConstantArrayType() && !T->getArrayElementTypeNoTypeQual()->isArrayType();
  // A local pointer or array; or a global array, which any function may
  // name: then the region may call none (builtins aside). A global
  // pointer is mapped through its own storage (its base is the pointer's
  // address, not the array's).
  bool Global = X->hasGlobalStorage();
  if ((!T->isPointerType() && !Array) || (Global && !Array))
    return false;
  // The item is the construct's one list item that names x, and the
  // explicitly mapped pointers are its other items' variables.
  unsigned Named = 0;
  llvm::SmallPtrSet<const VarDecl *, 8> Mapped;
  for (const OMPClause *C : D->clauses()) {
    if (!C || C->isImplicit())
      continue;
    for (const Stmt *Ch : const_cast<OMPClause *>(C)->children()) {
      if (!Ch)
        continue;
      if (mentions(Ch, X))
        ++Named;
      if (auto *E = dyn_cast<Expr>(Ch)) {
        const Expr *B = E->IgnoreParenImpCasts();
        if (auto *S = dyn_cast<ArraySectionExpr>(B))
          B = S->getBase();
        if (const VarDecl *V = varOf(B); V && isa<OMPMapClause, OMPIsDevicePtrClause>(C))
          Mapped.insert(V);
      }
    }
  }
  const Stmt *Body = directiveBody(D);
  if (Named != 1 || !Body)
    return false;
  int64_t K, M;
  if (!SectionUses(X, AS->getLowerBound(), AS->getLength(), Body, Mapped, Ctx, Global)
           .check(K, M) ||
      K < 0 || K > INT32_MAX || M < INT32_MIN || M > INT32_MAX)
    return false;
  // A constant lower bound tells now whether any element goes spare
  // (x[0:n] over its loop from 0 to n: none, the common case).
  Expr::EvalResult LB;
  if (!AS->getLowerBound()->isValueDependent() && AS->getLowerBound()->EvaluateAsInt(LB, Ctx) &&
      (LB.Val.getInt().getSignificantBits() > 32 || LB.Val.getInt().getExtValue() + K - M <= 0))
    return false;
  Skip = int32_t(K);
  End = int32_t(M);
  return true;
}
