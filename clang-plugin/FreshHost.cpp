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

/// How deep isAllocation follows functions that return an allocation
/// (a wrapper of a wrapper of malloc is as far as real code goes).
constexpr unsigned MaxWrapperDepth = 3;

bool returnsFreshBuffer(const FunctionDecl *FD, unsigned Depth);
bool isNull(const Expr *E);

/// E past parentheses and casts, implicit and explicit.
const Expr *withoutCasts(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (auto *C = dyn_cast<ExplicitCastExpr>(E))
    E = C->getSubExpr()->IgnoreParenImpCasts();
  return E;
}

/// Whether E makes a new buffer: malloc and its kin, new[], or a call of a
/// function that returns one (returnsFreshBuffer).
bool isAllocation(const Expr *E, unsigned Depth = 0) {
  if (!E)
    return false;
  E = withoutCasts(E);
  if (auto *N = dyn_cast<CXXNewExpr>(E))
    return N->isArray();
  // `n ? malloc(n) : NULL`: an allocation or nothing.
  if (auto *Q = dyn_cast<ConditionalOperator>(E)) {
    bool L = isAllocation(Q->getTrueExpr(), Depth), R = isAllocation(Q->getFalseExpr(), Depth);
    return (L || R) && (L || isNull(Q->getTrueExpr())) && (R || isNull(Q->getFalseExpr()));
  }
  auto *C = dyn_cast<CallExpr>(E);
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  return N == "malloc" || N == "calloc" || N == "realloc" || N == "aligned_alloc" ||
         N == "valloc" || N == "memalign" || returnsFreshBuffer(FD, Depth);
}

/// Whether E is a null pointer (`NULL`, `0`, `nullptr`, perhaps cast): a
/// store of it leaves no buffer of an earlier call in the variable.
bool isNull(const Expr *E) {
  if (!E)
    return false;
  E = withoutCasts(E);
  if (isa<CXXNullPtrLiteralExpr>(E) || isa<GNUNullExpr>(E))
    return true;
  auto *I = dyn_cast<IntegerLiteral>(E);
  return I && I->getValue() == 0;
}

/// `posix_memalign(&v, ...)` (the address perhaps cast): its variable v,
/// canonical, else null.
const VarDecl *memalignTarget(const CallExpr *C) {
  const FunctionDecl *FD = C ? C->getDirectCallee() : nullptr;
  if (!FD || !FD->getIdentifier() || FD->getName() != "posix_memalign" || C->getNumArgs() != 3)
    return nullptr;
  auto *U = dyn_cast<UnaryOperator>(withoutCasts(C->getArg(0)));
  auto *R = U && U->getOpcode() == UO_AddrOf
                ? dyn_cast<DeclRefExpr>(U->getSubExpr()->IgnoreParenImpCasts())
                : nullptr;
  auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  return V ? V->getCanonicalDecl() : nullptr;
}

class Stores : public RecursiveASTVisitor<Stores> {
public:
  explicit Stores(const VarDecl *V, const std::vector<const Stmt *> *Skip = nullptr,
                  unsigned Depth = 0)
      : V(V), Skip(Skip), Depth(Depth) {}
  const VarDecl *V;
  /// Statements whose stores are known (the swaps of a group).
  const std::vector<const Stmt *> *Skip;
  /// The depth of the function walked in isAllocation's wrappers.
  unsigned Depth;
  unsigned Allocations = 0;
  bool Other = false;

  bool TraverseStmt(Stmt *S, DataRecursionQueue *Q = nullptr) {
    if (S && Skip && llvm::is_contained(*Skip, S))
      return true;
    return RecursiveASTVisitor::TraverseStmt(S, Q);
  }

  /// The variable's initializer, a store like the others.
  void initializer() {
    if (const Expr *I = V->getInit(); I && isAllocation(I, Depth))
      ++Allocations;
    else if (I && !isNull(I))
      Other = true;
  }

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->isAssignmentOp() && refersTo(B->getLHS(), V)) {
      if (B->getOpcode() == BO_Assign && isAllocation(B->getRHS(), Depth))
        ++Allocations;
      else if (B->getOpcode() != BO_Assign || !isNull(B->getRHS()))
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
  // posix_memalign(&v, ...) stores a new buffer in v (or, failing,
  // nothing): an allocation, not an address that escapes.
  bool TraverseCallExpr(CallExpr *C, DataRecursionQueue *Q = nullptr) {
    if (isMarkerCall(C))
      return true;
    if (memalignTarget(C) == V) {
      ++Allocations;
      return TraverseStmt(C->getArg(1), Q) && TraverseStmt(C->getArg(2), Q);
    }
    return RecursiveASTVisitor::TraverseCallExpr(C, Q);
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

/// The values of a function's return statements (not those of lambdas in
/// it); Other when a return has none.
class Returns : public RecursiveASTVisitor<Returns> {
public:
  std::vector<const Expr *> Values;
  bool Other = false;
  bool TraverseLambdaExpr(LambdaExpr *) { return true; }
  bool VisitReturnStmt(ReturnStmt *R) {
    if (R->getRetValue())
      Values.push_back(R->getRetValue());
    else
      Other = true;
    return true;
  }
};

/// Whether each call of FD returns a buffer of its own: FD is declared
/// with the malloc attribute (glibc's strdup, a user's allocator), or its
/// definition (seen in this file; an instance of a template too) returns
/// only allocations and local pointers it sets only from allocations (a
/// wrapper of malloc or posix_memalign that checks the result), null
/// aside, their addresses never taken otherwise.
bool returnsFreshBuffer(const FunctionDecl *FD, unsigned Depth) {
  if (FD->hasAttr<RestrictAttr>())
    return true;
  if (Depth >= MaxWrapperDepth || !FD->getReturnType()->isPointerType())
    return false;
  // An instance of a template is given its body at the end of the file,
  // after the plugin has looked: its template's body says the same.
  const FunctionDecl *Def = nullptr;
  if (!FD->hasBody(Def))
    if (const FunctionDecl *P = FD->getTemplateInstantiationPattern(); !P || !P->hasBody(Def))
      return false;
  if (!Def->getBody())
    return false;
  Returns R;
  R.TraverseStmt(Def->getBody());
  if (R.Other || R.Values.empty())
    return false;
  for (const Expr *E : R.Values) {
    if (isAllocation(E, Depth + 1) || isNull(E))
      continue;
    auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!V || !V->getType()->isPointerType() || !ompdp::ownAutomaticStorage(Def, V))
      return false;
    Stores S(V->getCanonicalDecl(), nullptr, Depth + 1);
    S.initializer();
    S.TraverseStmt(Def->getBody());
    if (!S.Allocations || S.Other)
      return false;
  }
  return true;
}

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
  S.initializer();
  S.TraverseStmt(Fn->getBody());
  return S.Allocations && !S.Other;
}

namespace {

/// A local pointer variable named by E (parentheses and implicit casts
/// aside), canonical; null for anything else.
const VarDecl *localPointer(const Expr *E) {
  auto *R = E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  auto *V = R ? dyn_cast<VarDecl>(R->getDecl()) : nullptr;
  return V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) && V->getType()->isPointerType()
             ? V->getCanonicalDecl()
             : nullptr;
}

/// `L = R;` of two local pointers: (L, R), else nulls.
std::pair<const VarDecl *, const VarDecl *> copyOf(const Stmt *S) {
  auto *B = dyn_cast_or_null<BinaryOperator>(S);
  if (!B || B->getOpcode() != BO_Assign)
    return {nullptr, nullptr};
  return {localPointer(B->getLHS()), localPointer(B->getRHS())};
}

/// How many times Fn's body names V.
class Count : public RecursiveASTVisitor<Count> {
public:
  explicit Count(const VarDecl *V) : V(V) {}
  const VarDecl *V;
  unsigned N = 0;
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    N += E->getDecl()->getCanonicalDecl() == V;
    return true;
  }
};

class SwapFinder : public RecursiveASTVisitor<SwapFinder> {
public:
  explicit SwapFinder(const FunctionDecl *Fn) : Fn(Fn) {}
  const FunctionDecl *Fn;
  std::vector<ompdp::PointerSwap> Swaps;

  bool VisitCompoundStmt(CompoundStmt *CS) {
    std::vector<Stmt *> B(CS->body_begin(), CS->body_end());
    for (size_t I = 0; I < B.size(); ++I) {
      // std::swap(a, b), swap(a, b)
      if (auto *C = dyn_cast<CallExpr>(B[I]); C && C->getNumArgs() == 2) {
        const FunctionDecl *FD = C->getDirectCallee();
        const VarDecl *A = localPointer(C->getArg(0)), *Bv = localPointer(C->getArg(1));
        if (FD && FD->getIdentifier() && FD->getName() == "swap" && A && Bv && A != Bv)
          Swaps.push_back({B[I], B[I], B[I], A, Bv});
        continue;
      }
      if (I + 2 >= B.size())
        continue;
      // t = a (a declaration `T *t = a;`, or an assignment)
      const VarDecl *T = nullptr, *A = nullptr;
      bool Declared = false;
      if (auto *DS = dyn_cast<DeclStmt>(B[I]); DS && DS->isSingleDecl()) {
        auto *TD = dyn_cast<VarDecl>(DS->getSingleDecl());
        if (TD && TD->getType()->isPointerType() && TD->hasLocalStorage() &&
            !TD->getType()->isReferenceType()) {
          T = TD->getCanonicalDecl();
          A = localPointer(TD->getInit());
          Declared = true;
        }
      } else {
        std::tie(T, A) = copyOf(B[I]);
      }
      auto [A2, Bv] = copyOf(B[I + 1]);
      auto [B2, T2] = copyOf(B[I + 2]);
      if (!T || !A || A2 != A || !Bv || B2 != Bv || T2 != T || A == Bv || T == A || T == Bv)
        continue;
      // The temporary is the swap's alone: named by these statements only
      // (a declared one once more, in the third).
      Count N(T);
      N.TraverseStmt(Fn->getBody());
      if (N.N != (Declared ? 1u : 2u))
        continue;
      Swaps.push_back({B[I], B[I + 1], B[I + 2], A, Bv});
      I += 2;
    }
    return true;
  }
};

} // namespace

std::vector<ompdp::PointerSwap> ompdp::pointerSwaps(const FunctionDecl *Fn) {
  if (!Fn || !Fn->getBody())
    return {};
  SwapFinder F(Fn);
  F.TraverseStmt(Fn->getBody());
  return F.Swaps;
}

bool ompdp::swappedFreshBuffer(const FunctionDecl *Fn, const VarDecl *Var,
                               const std::vector<PointerSwap> &Swaps,
                               std::vector<PointerSwap> *Moves) {
  if (!Fn || !Fn->getBody() || !Var || Swaps.empty())
    return false;
  // The group: Var and every pointer a swap pairs with one of the group.
  std::vector<const VarDecl *> Group = {Var->getCanonicalDecl()};
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (const PointerSwap &W : Swaps) {
      bool HasA = llvm::is_contained(Group, W.A), HasB = llvm::is_contained(Group, W.B);
      if (HasA != HasB) {
        Group.push_back(HasA ? W.B : W.A);
        Grew = true;
      }
    }
  }
  std::vector<const Stmt *> Known;
  for (const PointerSwap &W : Swaps)
    if (llvm::is_contained(Group, W.A)) {
      if (Moves)
        Moves->push_back(W);
      Known.insert(Known.end(), {W.First, W.Mid, W.Last});
    }
  for (const VarDecl *M : Group) {
    if (!ownAutomaticStorage(Fn, M))
      return false;
    Stores S(M, &Known);
    S.initializer();
    S.TraverseStmt(Fn->getBody());
    if (!S.Allocations || S.Other)
      return false;
  }
  return Group.size() > 1;
}

bool ompdp::ownAutomaticStorage(const FunctionDecl *Fn, const VarDecl *Var) {
  if (!Fn || !Var || isa<ParmVarDecl>(Var) || !Var->hasLocalStorage() ||
      Var->getType()->isReferenceType())
    return false;
  const DeclContext *DC = Var->getCanonicalDecl()->getDeclContext();
  return DC == Fn || Fn->Encloses(DC);
}
