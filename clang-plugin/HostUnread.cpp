//===- HostUnread.cpp - does the host read what a copy back brings? -------===//
//
// One walk of the function's host code with a stack of the statements
// around the current one: each reference to the pointer is classified by
// what encloses it (HostUnread.h lists what may). Source order stands for
// execution order, which holds in a function without labels that a jump
// names once the whole of the outermost loop around the construct counts
// as "after" it (of a buffer allocated anew in each of its iterations: the
// loops inside the pointer's scope).
//
//===----------------------------------------------------------------------===//
#include "HostUnread.h"

#include "AccessAnalysis.h"
#include "FreshHost.h"
#include "RegionTable.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"

#include <vector>

using namespace clang;

namespace {

bool calls(const CallExpr *C, StringRef Name) {
  const FunctionDecl *FD = C->getDirectCallee();
  return FD && FD->getIdentifier() && FD->getName() == Name;
}

class Uses : public RecursiveASTVisitor<Uses> {
  using Base = RecursiveASTVisitor<Uses>;

public:
  Uses(const VarDecl *V, SourceLocation CopyEnd, SourceRange Loop, const SourceManager &SM,
       const std::vector<ompdp::PointerSwap> *Moves, unsigned Depth = 0)
      : V(V), CopyEnd(CopyEnd), Loop(Loop), SM(SM), Moves(Moves), Depth(Depth) {}

  /// Another name may reach the buffer, or the order is not the source's.
  bool Unknown = false;
  /// An element is read, or the host's bytes sent, after the copy.
  bool ReadAfter = false;

  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    if (!S)
      return true;
    if (Unknown || ReadAfter)
      return false;
    // The plugin's own markers (Markers.cpp) take items' addresses for the
    // pass; they are gone before code generation.
    if (auto *C = dyn_cast<CallExpr>(S); C && ompdp::isMarkerCall(C))
      return true;
    // A swap of the pointer's group: before the copy, the buffer still had
    // its name at the copy; after it, the buffer may move to another.
    if (Moves)
      for (const ompdp::PointerSwap &W : *Moves)
        if (S == W.First || S == W.Mid || S == W.Last) {
          if (after(S->getBeginLoc()))
            Unknown = true;
          return !Unknown;
        }
    Parents.push_back(S);
    bool R;
    if (auto *D = dyn_cast<OMPExecutableDirective>(S))
      R = traverseDirective(D);
    else if (isa<LambdaExpr>(S)) {
      // A lambda's body runs whenever it is called, through a copy of the
      // pointer or a reference to it.
      ++InLambda;
      R = Base::TraverseStmt(S, nullptr);
      --InLambda;
    } else {
      R = Base::TraverseStmt(S, nullptr);
    }
    Parents.pop_back();
    return R && !Unknown && !ReadAfter;
  }

  // A label reaches the walk only when no jump names it (hostNeverReadsBack
  // looks first): a name, not another way in.

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    if (E->getDecl()->getCanonicalDecl() != V)
      return true;
    if (InLambda) {
      Unknown = true;
      return false;
    }
    classify(E);
    return !Unknown && !ReadAfter;
  }

private:
  const VarDecl *V;
  SourceLocation CopyEnd;
  SourceRange Loop;
  const SourceManager &SM;
  const std::vector<ompdp::PointerSwap> *Moves;
  std::vector<const Stmt *> Parents;
  unsigned InLambda = 0;
  /// Calls followed to get here (keepsNoCopy); at depth > 0 V is a
  /// callee's parameter, and the question is only whether its uses let
  /// another name reach the buffer: nothing is "after".
  unsigned Depth;

  bool after(SourceLocation L) const {
    if (Depth)
      return false;
    L = SM.getExpansionLoc(L);
    if (Loop.isValid() &&
        !SM.isBeforeInTranslationUnit(L, SM.getExpansionLoc(Loop.getBegin())) &&
        !SM.isBeforeInTranslationUnit(SM.getExpansionLoc(Loop.getEnd()), L))
      return true;
    return SM.isBeforeInTranslationUnit(SM.getExpansionLoc(CopyEnd), L);
  }

  bool isVar(const Expr *E) const { return ompdp::refersTo(E, V); }

  /// A clause's list item: V's elements (x[lo:len], x[i], *x) are the
  /// buffer, sent by the clause or not; the bounds are host code.
  bool item(Expr *E, bool Sends) {
    Expr *B = E->IgnoreParenImpCasts();
    const Expr *Of = nullptr;
    std::vector<Stmt *> Bounds;
    if (auto *AS = dyn_cast<ArraySectionExpr>(B)) {
      Of = AS->getBase();
      Bounds = {AS->getLowerBound(), AS->getLength(), AS->getStride()};
    } else if (auto *A = dyn_cast<ArraySubscriptExpr>(B)) {
      Of = A->getBase();
      Bounds = {A->getIdx()};
    } else if (auto *U = dyn_cast<UnaryOperator>(B); U && U->getOpcode() == UO_Deref) {
      Of = U->getSubExpr();
    }
    if (!Of || !isVar(Of))
      return TraverseStmt(E);
    if (Sends && after(E->getBeginLoc())) {
      ReadAfter = true;
      return false;
    }
    for (Stmt *S : Bounds)
      if (!TraverseStmt(S))
        return false;
    return true;
  }

  bool traverseDirective(OMPExecutableDirective *D) {
    for (OMPClause *C : D->clauses()) {
      if (!C)
        continue;
      bool Ok = true;
      if (auto *M = dyn_cast<OMPMapClause>(C)) {
        OpenMPMapClauseKind T = M->getMapType();
        bool Sends = T == OMPC_MAP_to || T == OMPC_MAP_tofrom || T == OMPC_MAP_unknown;
        for (Expr *E : M->varlists())
          Ok = Ok && item(E, Sends);
      } else if (auto *To = dyn_cast<OMPToClause>(C)) {
        for (Expr *E : To->varlists())
          Ok = Ok && item(E, true);
      } else if (auto *From = dyn_cast<OMPFromClause>(C)) {
        for (Expr *E : From->varlists())
          Ok = Ok && item(E, false);
      } else {
        // if(...), num_teams(...): host expressions. The pointer itself in
        // a list (firstprivate(x), implicit on a target region; private,
        // is_device_ptr) hands its value to the region, whose own uses
        // are looked at (host regions) or are the device's (target).
        for (Stmt *S : C->children())
          if (!isa<DeclRefExpr>(S) || !isVar(cast<DeclRefExpr>(S)))
            Ok = Ok && TraverseStmt(S);
      }
      if (!Ok)
        return false;
    }
    if (!D->hasAssociatedStmt() || D->isStandaloneDirective())
      return true;
    // A target region's body is device code: its uses of the pointer are
    // the device's copy, which the clauses above account for.
    if (isOpenMPTargetExecutionDirective(D->getDirectiveKind()))
      return true;
    Stmt *Body = D->getAssociatedStmt();
    if (isa<CapturedStmt>(Body))
      Body = D->getInnermostCapturedStmt()->getCapturedStmt();
    return TraverseStmt(Body);
  }

  /// What encloses Parents[I] (a use of the pointer or of an element),
  /// past parentheses and implicit casts; the casts seen are reported.
  const Stmt *up(size_t &I, const Stmt *&Child, bool &Load, bool &ToBool) const {
    Child = Parents[I];
    while (I > 0) {
      const Stmt *P = Parents[--I];
      if (auto *IC = dyn_cast<ImplicitCastExpr>(P)) {
        Load |= IC->getCastKind() == CK_LValueToRValue;
        ToBool |= IC->getCastKind() == CK_PointerToBoolean;
      } else if (!isa<ParenExpr>(P)) {
        return P;
      }
      Child = P;
    }
    return nullptr;
  }

  /// A use of an element (or of a member of one): written by `=`, read by
  /// a load, or else something this analysis does not follow.
  void element(size_t I, SourceLocation L) {
    for (;;) {
      const Stmt *Child;
      bool Load = false, ToBool = false;
      const Stmt *P = up(I, Child, Load, ToBool);
      if (Load || ToBool) {
        if (after(L))
          ReadAfter = true;
        return;
      }
      if (!P || isa<UnaryExprOrTypeTraitExpr>(P))
        return;
      if (auto *B = dyn_cast<BinaryOperator>(P)) {
        if (B->getOpcode() == BO_Assign && B->getLHS() == Child)
          return;
        if (B->isCompoundAssignmentOp() && B->getLHS() == Child) {
          if (after(L))
            ReadAfter = true;
          return;
        }
      }
      if (auto *U = dyn_cast<UnaryOperator>(P); U && U->isIncrementDecrementOp()) {
        if (after(L))
          ReadAfter = true;
        return;
      }
      // x[i].f, x[i].a[j]: still the element's storage.
      if (auto *M = dyn_cast<MemberExpr>(P); M && !M->isArrow() && M->getBase() == Child)
        continue;
      if (auto *A = dyn_cast<ArraySubscriptExpr>(P); A && A->getBase() == Child) {
        if (isa<ImplicitCastExpr>(Child) &&
            cast<ImplicitCastExpr>(Child)->getCastKind() == CK_ArrayToPointerDecay)
          continue;
      }
      Unknown = true; // &x[i], passed by reference, ...
      return;
    }
  }

  void classify(const DeclRefExpr *E) {
    size_t I = Parents.size() - 1;
    const Stmt *Child;
    bool Load = false, ToBool = false;
    const Stmt *P = up(I, Child, Load, ToBool);
    if (ToBool) // if (x), !x: the pointer's value, not the buffer
      return;
    if (P && !Load) {
      // x = <allocation>: the only stores freshHostBuffer allows.
      if (auto *B = dyn_cast<BinaryOperator>(P); B && B->getOpcode() == BO_Assign &&
                                                 B->getLHS() == Child)
        return;
      if (isa<UnaryExprOrTypeTraitExpr>(P))
        return;
    }
    if (P && Load) {
      if (auto *B = dyn_cast<BinaryOperator>(P); B && B->isEqualityOp())
        return; // x == NULL
      if (auto *U = dyn_cast<UnaryOperator>(P)) {
        if (U->getOpcode() == UO_LNot)
          return;
        if (U->getOpcode() == UO_Deref)
          return element(I, E->getBeginLoc());
      }
      if (auto *A = dyn_cast<ArraySubscriptExpr>(P); A && A->getBase() == Child)
        return element(I, E->getBeginLoc());
      if (auto *C = dyn_cast<CallExpr>(P); C && calls(C, "free") && C->getCallee() != Child)
        return;
      // memset(x, ...), memcpy(x, ...): written; memcpy(d, x, n): read.
      if (auto *C = dyn_cast<CallExpr>(P);
          C && C->getNumArgs() == 3 &&
          (calls(C, "memset") || calls(C, "memcpy") || calls(C, "memmove"))) {
        if (C->getArg(0)->IgnoreParenImpCasts() == E)
          return;
        if (!calls(C, "memset") && C->getArg(1)->IgnoreParenImpCasts() == E) {
          if (after(E->getBeginLoc()))
            ReadAfter = true;
          return;
        }
      }
      if (auto *Del = dyn_cast<CXXDeleteExpr>(P); Del && Del->isArrayForm())
        return;
      // `const T *q = (const T *)x;`: another name, which is followed the
      // same way (hexciton's `sigma_in` for `sin`), when the question is
      // only whether a name reaches the buffer from outside (depth > 0:
      // onlyNameOfBuffer, a callee's parameter); its reads are not ordered
      // against a copy back.
      if (Depth > 0 && aliasKeepsNoCopy(I, Child))
        return;
      // check(n, x, ref): a function whose body only reads what that
      // parameter points to, and keeps no copy of the pointer: a read here.
      if (auto *C = dyn_cast<CallExpr>(P); C && readsOnly(C, E)) {
        if (after(E->getBeginLoc()))
          ReadAfter = true;
        return;
      }
      // init(x, n) before the copy: a function that uses its parameter
      // only as this walk allows (elements read or written, freed) keeps
      // no other name for the buffer, so what it does is done before the
      // copy (after it, or in the loop that repeats it, it may read).
      if (auto *C = dyn_cast<CallExpr>(P);
          C && !after(E->getBeginLoc()) && keepsNoCopy(C, E, SM, Depth))
        return;
    }
    Unknown = true;
  }

  /// Whether the load Child (of V, the parent chain at Parents[I + 1]) is,
  /// past explicit casts to pointer types, the initializer of a local
  /// pointer variable of its own (not static, not a reference) whose every
  /// use this walk accepts (followed three names deep).
  bool aliasKeepsNoCopy(size_t I, const Stmt *Child) const {
    const Stmt *P = I < Parents.size() ? Parents[I] : nullptr;
    while (P && (isa<ParenExpr>(P) || isa<ImplicitCastExpr>(P) ||
                 (isa<ExplicitCastExpr>(P) && cast<Expr>(P)->getType()->isAnyPointerType()))) {
      Child = P;
      P = I > 0 ? Parents[--I] : nullptr;
    }
    auto *DS = dyn_cast_or_null<DeclStmt>(P);
    if (!DS || Depth >= 3)
      return false;
    for (const Decl *D : DS->decls()) {
      auto *Q = dyn_cast<VarDecl>(D);
      if (!Q || Q->getInit() != Child)
        continue;
      if (!Q->hasLocalStorage() || isa<ParmVarDecl>(Q) || Q->getType()->isReferenceType() ||
          !Q->getType()->isAnyPointerType())
        return false;
      const Stmt *Scope = nullptr;
      for (size_t J = I; J-- > 0;)
        if (isa<CompoundStmt>(Parents[J])) {
          Scope = Parents[J];
          break;
        }
      if (!Scope)
        return false;
      Uses U(Q->getCanonicalDecl(), SourceLocation(), SourceRange(), SM, nullptr, Depth + 1);
      U.TraverseStmt(const_cast<Stmt *>(Scope));
      return !U.Unknown;
    }
    return false;
  }

  /// The body of the function call C calls, and in Params its parameters
  /// that receive E (each argument that is E): null when the translation
  /// unit has no body for it, it is variadic or a member function, or E
  /// goes to a parameter that is not a pointer.
  static const FunctionDecl *receivers(const CallExpr *C, const DeclRefExpr *E,
                                       llvm::SmallVectorImpl<const ParmVarDecl *> &Params) {
    const FunctionDecl *FD = C->getDirectCallee();
    if (!FD || isa<CXXMemberCallExpr>(C) || FD->isVariadic())
      return nullptr;
    const FunctionDecl *Body = ompdp::definition(FD);
    if (!Body)
      return nullptr;
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      if (C->getArg(I)->IgnoreParenImpCasts() != E)
        continue;
      if (I >= Body->getNumParams() || !Body->getParamDecl(I)->getType()->isAnyPointerType())
        return nullptr;
      Params.push_back(Body->getParamDecl(I));
    }
    return Params.empty() ? nullptr : Body;
  }

  /// Whether call C passes E only to pointer parameters of a function
  /// whose body the translation unit has and whose every use of them this
  /// walk accepts (followed three calls deep).
  static bool keepsNoCopy(const CallExpr *C, const DeclRefExpr *E, const SourceManager &SM,
                          unsigned Depth) {
    llvm::SmallVector<const ParmVarDecl *, 2> Params;
    const FunctionDecl *Body = Depth < 3 ? receivers(C, E, Params) : nullptr;
    if (!Body)
      return false;
    for (const ParmVarDecl *P : Params) {
      Uses U(P->getCanonicalDecl(), SourceLocation(), SourceRange(), SM, nullptr, Depth + 1);
      U.TraverseStmt(Body->getBody());
      if (U.Unknown)
        return false;
    }
    return true;
  }

  /// Whether call C passes E only to pointer parameters of a function whose
  /// body the translation unit has and which only reads through them (an
  /// escape or a call nobody can see into counts as a write:
  /// analyzeHostAccesses).
  static bool readsOnly(const CallExpr *C, const DeclRefExpr *E) {
    llvm::SmallVector<const ParmVarDecl *, 2> Params;
    const FunctionDecl *Body = receivers(C, E, Params);
    if (!Body)
      return false;
    for (const ParmVarDecl *P : Params) {
      ompdp::StoragePath SP = ompdp::StoragePath::ofVariable(P);
      SP.Steps.push_back(ompdp::StoragePath::deref());
      uint32_t A = ompdp::analyzeHostAccesses(Body->getBody(), nullptr, {SP})[0];
      if (A != ompdp::AC_NONE && A != ompdp::AC_READ)
        return false;
    }
    return true;
  }
};

/// The labels of S that a jump may reach: targets of `goto`, and every
/// label when S has a computed `goto` (a label no jump names is only a
/// name: `end: return 0;`).
void jumpTargets(const Stmt *S, llvm::SmallPtrSetImpl<const LabelDecl *> &Out, bool &Computed) {
  if (!S)
    return;
  if (auto *G = dyn_cast<GotoStmt>(S))
    Out.insert(G->getLabel());
  else if (auto *A = dyn_cast<AddrLabelExpr>(S))
    Out.insert(A->getLabel());
  else if (isa<IndirectGotoStmt>(S))
    Computed = true;
  for (const Stmt *C : S->children())
    jumpTargets(C, Out, Computed);
}

bool hasLabel(const Stmt *S, const llvm::SmallPtrSetImpl<const LabelDecl *> &Targets,
              bool Computed) {
  if (!S)
    return false;
  if (auto *L = dyn_cast<LabelStmt>(S); L && (Computed || Targets.count(L->getDecl())))
    return true;
  if (isa<IndirectGotoStmt>(S))
    return true;
  for (const Stmt *C : S->children())
    if (hasLabel(C, Targets, Computed))
      return true;
  return false;
}

/// Whether a jump may enter S's statements out of source order.
bool hasLabel(const Stmt *S) {
  llvm::SmallPtrSet<const LabelDecl *, 4> Targets;
  bool Computed = false;
  jumpTargets(S, Targets, Computed);
  return hasLabel(S, Targets, Computed);
}

} // namespace

bool ompdp::hostNeverReadsBack(const FunctionDecl *Fn, const VarDecl *Var,
                               SourceLocation CopyEnd, SourceRange Loop,
                               const SourceManager &SM,
                               const std::vector<PointerSwap> *Moves) {
  if (!Fn || !Fn->getBody() || !Var || CopyEnd.isInvalid() || hasLabel(Fn->getBody()))
    return false;
  Uses U(Var->getCanonicalDecl(), CopyEnd, Loop, SM, Moves);
  U.TraverseStmt(Fn->getBody());
  return !U.Unknown && !U.ReadAfter;
}

bool ompdp::onlyNameOfBuffer(const FunctionDecl *Fn, const VarDecl *Var) {
  if (!Fn || !Fn->getBody() || !Var || !freshHostBuffer(Fn, Var))
    return false;
  // Nothing is "after" at depth 1: only whether another name reaches it.
  Uses U(Var->getCanonicalDecl(), SourceLocation(), SourceRange(),
         Fn->getASTContext().getSourceManager(), nullptr, 1);
  U.TraverseStmt(Fn->getBody());
  return !U.Unknown;
}
