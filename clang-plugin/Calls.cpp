//===- Calls.cpp - calls of functions that hold constructs ----------------===//
//
// Part of the AST walk (RegionCollectorImpl.h). The commonest waste left in
// real programs is a construct in a function that a loop elsewhere calls:
// each call maps the data again, and the `target data` that would keep it
// on the device belongs around the caller's loop. To write it there, and
// to know that it is right, the rewrite needs three things this file
// records:
//
//   - each call of a function whose body holds a construct (directly, or in
//     a function it calls), or of one defined in another file that takes a
//     pointer (extern-callee: its constructs' file says what they map, and
//     names its parameters, FnParameters), as a region of kind CALL: the
//     call as written,
//     its statement, the loop around it and the jumps out of that loop, its
//     arguments (one item each: the variable behind it, the argument as
//     written, the parameter it binds, whether it stays the same in the
//     loop, and the host code of the loop that uses what a pointer argument
//     points to), and the callee with its parameters' names. A marker
//     before the call (as for a routine call) lets the pass tag it, so that
//     the runtime knows which call each construct runs in;
//   - for each item of a construct, whether it can be written at a caller
//     (every name in it a parameter the function never writes: params-only)
//     and whether the function's own host code leaves its storage alone
//     (fn-host-unused): then keeping it on the device around the caller's
//     loop changes nothing the function sees.
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

#include "clang/AST/Mangle.h"
#include "llvm/ADT/StringSet.h"

namespace {

/// Whether S holds a directive that maps data, or a call for which Calls
/// says so.
bool holdsIn(const Stmt *S, const std::function<bool(const FunctionDecl *)> &Calls) {
  if (!S)
    return false;
  if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    OpenMPDirectiveKind K = D->getDirectiveKind();
    if (isOpenMPTargetExecutionDirective(K) || isOpenMPTargetDataManagementDirective(K))
      return true;
  }
  if (auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee(); FD && Calls(FD))
      return true;
  if (isa<LambdaExpr>(S))
    return false; // a lambda's body runs where it is called
  for (const Stmt *C : S->children())
    if (holdsIn(C, Calls))
      return true;
  return false;
}

/// Whether FD is the plugin's marker (its calls are not the program's).
bool isMarker(const FunctionDecl *FD) {
  return FD && FD->getIdentifier() && FD->getName() == OMPDP_MARKER_FN;
}

/// For Elem >= 0: what S is when it is `a[k]`, a constant element of the
/// array of pointers D: 1 element Elem, -1 another element (other storage,
/// as another variable is); 0 neither (or Elem < 0).
int elementOf(const Stmt *S, const void *D, int64_t Elem) {
  auto *AE = dyn_cast<ArraySubscriptExpr>(S);
  if (Elem < 0 || !AE)
    return 0;
  int64_t K = StoragePath::pointerElement(AE);
  auto *DRE = dyn_cast<DeclRefExpr>(AE->getBase()->IgnoreParenImpCasts());
  if (K < 0 || !DRE || DRE->getDecl()->getCanonicalDecl() != D)
    return 0;
  return K == Elem ? 1 : -1;
}

} // namespace

/// For a call through a pointer to a function held in a variable (`f(a)`,
/// `(*f)(a)`, f a parameter or a local or global variable; not a member
/// pointer, not a variadic type): the variable, with its parameters'
/// names as its declaration writes them (Names, "" where it writes none);
/// nullptr otherwise.
const VarDecl *ompdp::collector::indirectCallee(const CallExpr *CE,
                                                llvm::SmallVectorImpl<std::string> *Names) {
  if (CE->getDirectCallee() || isa<CXXMemberCallExpr, CXXOperatorCallExpr>(CE))
    return nullptr;
  const Expr *C = CE->getCallee()->IgnoreParenImpCasts();
  if (auto *UO = dyn_cast<UnaryOperator>(C); UO && UO->getOpcode() == UO_Deref)
    C = UO->getSubExpr()->IgnoreParenImpCasts();
  auto *DRE = dyn_cast<DeclRefExpr>(C);
  auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || !VD->getType()->isFunctionPointerType())
    return nullptr;
  auto *FPT = VD->getType()->getPointeeType()->getAs<FunctionProtoType>();
  if (!FPT || FPT->isVariadic() || FPT->getNumParams() != CE->getNumArgs())
    return nullptr;
  if (Names) {
    Names->assign(CE->getNumArgs(), std::string());
    if (const TypeSourceInfo *TSI = VD->getTypeSourceInfo())
      if (auto PTL = TSI->getTypeLoc().getAsAdjusted<PointerTypeLoc>())
        if (auto FTL = PTL.getPointeeLoc().IgnoreParens().getAs<FunctionProtoTypeLoc>())
          for (unsigned I = 0; I < FTL.getNumParams() && I < Names->size(); ++I)
            if (const ParmVarDecl *PD = FTL.getParam(I); PD && PD->getIdentifier())
              (*Names)[I] = PD->getName().str();
  }
  return VD;
}

/// Whether S holds a call that is not of a function named in the source:
/// through a pointer or a virtual function. Such a call among a call's
/// arguments would come between the marker and the call through a pointer
/// that the pass looks for.
static bool holdsIndirectCall(const Stmt *S) {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return false;
  if (auto *CE = dyn_cast<CallExpr>(S)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    if (!FD)
      return true;
    if (auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && MD->isVirtual())
      return true;
  }
  if (isa<CXXConstructExpr, CXXDeleteExpr, CXXNewExpr, CXXBindTemporaryExpr>(S))
    return true; // constructors, destructors and operators new may be anything
  for (const Stmt *C : S->children())
    if (holdsIndirectCall(C))
      return true;
  return false;
}

/// Whether CE passes a pointer or an array: what a callee whose body this
/// file does not have could map.
static bool passesPointer(const CallExpr *CE) {
  return llvm::any_of(CE->arguments(), [](const Expr *A) {
    QualType T = A->IgnoreParenImpCasts()->getType();
    return T->isPointerType() || T->isArrayType();
  });
}

/// Whether S names the declaration D (canonical) anywhere: in its
/// statements, the clauses of its directives (OMPExecutableDirective::
/// children() leaves them out) and the bodies of its lambdas; the plugin's
/// markers aside. With Elem >= 0 (D an array of pointers, the storage
/// element Elem points to), `D[k]` for another constant k does not name it.
bool ompdp::collector::namesDecl(const Stmt *S, const Decl *D, int64_t Elem) {
  if (!S)
    return false;
  if (auto *CE = dyn_cast<CallExpr>(S); CE && isMarker(CE->getDirectCallee()))
    return false;
  if (elementOf(S, D, Elem) < 0)
    return false;
  if (auto *DRE = dyn_cast<DeclRefExpr>(S))
    return DRE->getDecl()->getCanonicalDecl() == D;
  if (auto *Dir = dyn_cast<OMPExecutableDirective>(S))
    for (const OMPClause *C : Dir->clauses())
      for (const Stmt *Ch : const_cast<OMPClause *>(C)->children())
        if (namesDecl(Ch, D, Elem))
          return true;
  if (auto *LE = dyn_cast<LambdaExpr>(S); LE && namesDecl(LE->getBody(), D, Elem))
    return true;
  for (const Stmt *C : S->children())
    if (namesDecl(C, D, Elem))
      return true;
  return false;
}

/// How many times S uses the variable whose canonical declaration is Root,
/// when every use passes the variable itself (`a`, not `a + 1` nor `a[0]`;
/// with Elem >= 0, element `a[Elem]` of an array of pointers, and other
/// constant elements are not uses) as an argument of a plain call of a
/// function the translation unit has no body for (or its address, `&v`,
/// for a variable that is no pointer: 3.15); 0 when S uses it
/// otherwise, or holds a directive or a lambda, whose uses this walk does
/// not follow. The planner asks the callees' own translation units what
/// they do with such arguments (FnParamUses).
unsigned ompdp::collector::externArgUses(const Stmt *S, const void *Root, int64_t Elem) {
  unsigned Refs = 0, Args = 0;
  bool Bad = false;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *X) {
    if (!X || Bad)
      return;
    if (isa<OMPExecutableDirective, LambdaExpr, BlockExpr>(X)) {
      Bad = true;
      return;
    }
    if (int E = elementOf(X, Root, Elem)) {
      Refs += E > 0;
      return;
    }
    if (auto *DRE = dyn_cast<DeclRefExpr>(X)) {
      Refs += DRE->getDecl()->getCanonicalDecl() == Root;
      return;
    }
    if (auto *CE = dyn_cast<CallExpr>(X)) {
      const FunctionDecl *FD = CE->getDirectCallee();
      if (isMarker(FD))
        return;
      // A function defined elsewhere, or one called through a pointer
      // (whose calls are recorded as of functions defined elsewhere).
      bool Opaque = (FD && !isa<CXXOperatorCallExpr, CXXMemberCallExpr>(CE) &&
                     !definition(FD) && !FD->getBuiltinID()) ||
                    (!FD && indirectCallee(CE, nullptr));
      if (Opaque) {
        Walk(CE->getCallee());
        for (const Expr *A : CE->arguments()) {
          const Expr *V = A->IgnoreParenImpCasts();
          auto *DRE = dyn_cast<DeclRefExpr>(V);
          // `&v` passes v's storage as a pointer does its pointee (3.15);
          // not a pointer's (Root is then what it points to).
          if (auto *UO = dyn_cast<UnaryOperator>(V); UO && UO->getOpcode() == UO_AddrOf && Elem < 0)
            if (auto *Of = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
                Of && !Of->getType()->isAnyPointerType())
              DRE = Of;
          if (Elem >= 0 ? elementOf(V, Root, Elem) > 0
                        : DRE && DRE->getDecl()->getCanonicalDecl() == Root) {
            ++Refs;
            ++Args;
          } else {
            Walk(A);
          }
        }
        return;
      }
    }
    for (const Stmt *C : X->children())
      Walk(C);
  };
  Walk(S);
  return Bad || Refs != Args ? 0 : Args;
}

namespace {

/// How a pointer parameter PD is used in S (FnParamUses 'r' and 'e',
/// 3.15): Refs counts every name of it, DerefReads those that are `*p`
/// or `p[i]` read as a value, ExternArgs those passed as themselves to a plain call
/// of a function the translation unit has no body for and that the table
/// records as a call region (not variadic, not inline, not in a system
/// header, not a member or an operator).
struct PointerUses {
  unsigned Refs = 0, DerefReads = 0, ExternArgs = 0;
};

void pointerUses(const Stmt *S, const ParmVarDecl *PD, const SourceManager &SM,
                 PointerUses &U, bool InDirective = false) {
  if (!S)
    return;
  // In a directive (its clauses, device code): a name only.
  if (InDirective || isa<OMPExecutableDirective>(S)) {
    if (auto *DRE = dyn_cast<DeclRefExpr>(S))
      U.Refs += DRE->getDecl()->getCanonicalDecl() == PD->getCanonicalDecl();
    for (const Stmt *C : S->children())
      pointerUses(C, PD, SM, U, true);
    return;
  }
  auto IsPD = [&](const Expr *E) {
    auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    return DRE && DRE->getDecl()->getCanonicalDecl() == PD->getCanonicalDecl();
  };
  if (auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    U.Refs += DRE->getDecl()->getCanonicalDecl() == PD->getCanonicalDecl();
    return;
  }
  if (auto *ICE = dyn_cast<ImplicitCastExpr>(S); ICE && ICE->getCastKind() == CK_LValueToRValue) {
    const Expr *Sub = ICE->getSubExpr()->IgnoreParens();
    auto *UO = dyn_cast<UnaryOperator>(Sub);
    if (UO && UO->getOpcode() == UO_Deref && IsPD(UO->getSubExpr()) &&
        UO->getType()->isScalarType()) {
      ++U.Refs;
      ++U.DerefReads;
      return;
    }
    // An element read, `p[i]` (the index walked as any expression).
    auto *AS = dyn_cast<ArraySubscriptExpr>(Sub);
    if (AS && AS->getType()->isScalarType() && IsPD(AS->getBase())) {
      ++U.Refs;
      ++U.DerefReads;
      pointerUses(AS->getIdx(), PD, SM, U);
      return;
    }
  }
  if (auto *CE = dyn_cast<CallExpr>(S); CE && !isa<CXXOperatorCallExpr, CXXMemberCallExpr>(CE)) {
    // As recordCall records a call of a function defined elsewhere.
    const FunctionDecl *FD = CE->getDirectCallee();
    QualType T = CE->getType();
    bool Opaque = FD && !definition(FD) && !FD->getBuiltinID() && !FD->isVariadic() &&
                  !FD->isInlineSpecified() && CE->isPRValue() &&
                  (T->isVoidType() || T->isScalarType()) &&
                  !SM.isInSystemHeader(SM.getExpansionLoc(FD->getLocation())) &&
                  !SM.isInSystemHeader(SM.getExpansionLoc(CE->getBeginLoc()));
    if (Opaque) {
      pointerUses(CE->getCallee(), PD, SM, U);
      for (const Expr *A : CE->arguments()) {
        if (IsPD(A) && A->getType()->isPointerType()) {
          ++U.Refs;
          ++U.ExternArgs;
        } else {
          pointerUses(A, PD, SM, U);
        }
      }
      return;
    }
  }
  for (const Stmt *C : S->children())
    pointerUses(C, PD, SM, U);
}

/// E (an argument of a call in Fn, or an initialiser under one) in Fn's
/// parameters' terms (ParamArgs, 3.15): a parameter passed by value that
/// Fn never writes nor takes the address of, `*p` for a pointer parameter
/// only ever read through (its letter in Uses, Fn's FnParamUses, is 'r'), a
/// constant local of arithmetic type replaced by its initialiser in
/// parentheses (its value is that expression's at Fn's entry: the
/// parameters it names never change), and integer literals, parentheses and
/// arithmetic of them. False where E is anything else, or comes out of a
/// macro.
bool paramTerms(const Expr *E, const FunctionDecl *Fn, const Writes &FnW,
                llvm::StringRef Uses, std::string &Out, unsigned Depth = 0) {
  if (!E || Depth > 8 || E->getBeginLoc().isMacroID() || E->getEndLoc().isMacroID())
    return false;
  E = E->IgnoreImpCasts();
  auto InParens = [&](const Expr *Sub) {
    Out += '(';
    if (!paramTerms(Sub, Fn, FnW, Uses, Out, Depth + 1))
      return false;
    Out += ')';
    return true;
  };
  if (auto *PE = dyn_cast<ParenExpr>(E))
    return InParens(PE->getSubExpr());
  if (auto *IL = dyn_cast<IntegerLiteral>(E)) {
    if (IL->getValue().getActiveBits() > 63)
      return false;
    Out += std::to_string(IL->getValue().getZExtValue());
    return true;
  }
  if (auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (auto *PD = dyn_cast<ParmVarDecl>(DRE->getDecl())) {
      if (PD->getDeclContext() != Fn || PD->getType()->isReferenceType() ||
          FnW.Stored.count(PD) || FnW.AddressTaken.count(PD) || PD->getName().empty())
        return false;
      Out += PD->getName();
      return true;
    }
    auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
        VD->getDeclContext() != Fn || !VD->getType().isConstQualified() ||
        !VD->getType()->isArithmeticType() || !VD->getInit() || FnW.AddressTaken.count(VD) ||
        FnW.Stored.lookup(VD) > 1 /* its declaration */)
      return false;
    return InParens(VD->getInit());
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus) {
      Out += UO->getOpcode() == UO_Minus ? "-" : "+";
      return paramTerms(UO->getSubExpr(), Fn, FnW, Uses, Out, Depth + 1);
    }
    if (UO->getOpcode() != UO_Deref || !UO->getType()->isArithmeticType())
      return false;
    auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParenImpCasts());
    auto *PD = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    if (!PD || PD->getDeclContext() != Fn || PD->getFunctionScopeIndex() >= Uses.size() ||
        Uses[PD->getFunctionScopeIndex()] != 'r')
      return false;
    Out += '*';
    Out += PD->getName();
    return true;
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    switch (BO->getOpcode()) {
    case BO_Add: case BO_Sub: case BO_Mul: case BO_Div: case BO_Rem:
      break;
    default:
      return false;
    }
    if (!paramTerms(BO->getLHS(), Fn, FnW, Uses, Out, Depth + 1))
      return false;
    Out += ' ';
    Out += BO->getOpcodeStr();
    Out += ' ';
    return paramTerms(BO->getRHS(), Fn, FnW, Uses, Out, Depth + 1);
  }
  return false;
}

/// Whether S takes V's address only as a direct argument of a call inside
/// Within (ADDR_ARGS_ONLY, 3.15): no `&v` elsewhere, no reference bound to
/// v (an lvalue argument), no capture by reference. The calls inside
/// Within are the statements whose host accesses the region records.
bool addressOnlyInArgs(const Stmt *S, const VarDecl *V, SourceRange Within,
                       const SourceManager &SM) {
  if (!S)
    return true;
  auto IsV = [&](const Expr *E) {
    auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParens());
    return DRE && DRE->getDecl()->getCanonicalDecl() == V->getCanonicalDecl();
  };
  if (auto *CE = dyn_cast<CallExpr>(S)) {
    if (!addressOnlyInArgs(CE->getCallee(), V, Within, SM))
      return false;
    bool Inside = !SM.isBeforeInTranslationUnit(CE->getBeginLoc(), Within.getBegin()) &&
                  !SM.isBeforeInTranslationUnit(Within.getEnd(), CE->getEndLoc());
    for (const Expr *A : CE->arguments()) {
      const Expr *X = A->IgnoreParenImpCasts();
      if (auto *UO = dyn_cast<UnaryOperator>(X); UO && UO->getOpcode() == UO_AddrOf &&
                                                   IsV(UO->getSubExpr())) {
        if (!Inside)
          return false;
        continue;
      }
      if (A->isGLValue() && IsV(A))
        return false; // bound to a reference
      if (!addressOnlyInArgs(A, V, Within, SM))
        return false;
    }
    return true;
  }
  if (auto *UO = dyn_cast<UnaryOperator>(S); UO && UO->getOpcode() == UO_AddrOf &&
                                               IsV(UO->getSubExpr()))
    return false;
  if (auto *LE = dyn_cast<LambdaExpr>(S))
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef &&
          C.getCapturedVar()->getCanonicalDecl() == V->getCanonicalDecl())
        return false;
  for (const Stmt *C : S->children())
    if (!addressOnlyInArgs(C, V, Within, SM))
      return false;
  return true;
}

} // namespace

/// FnParamUses (3.9): per parameter of FD, 'u' when its body never names
/// it; 'm' for a pointer the body never assigns nor takes the address of,
/// whose pointee no host code reads, writes or lets escape (calls followed
/// into the bodies the translation unit has), so that only the clauses of
/// OpenMP directives and device code name it; 'r' (3.15) for such a pointer
/// whose every use is `*p` or `p[i]` read as a value; 'e' (3.15) for one
/// whose one use passes it, as itself, to a call of a function defined
/// elsewhere (recorded as a call region: the planner asks that callee's
/// table); 'b' (3.15) for one both read through and passed on so, once;
/// '-' otherwise. A caller in
/// another file may then keep what it passes there on the device across
/// the call: the function's host code never sees the difference.
std::string RegionCollector::Impl::fnParamUses(const FunctionDecl *FD) {
  auto [It, New] = ParamUses.try_emplace(FD);
  if (!New)
    return It->second;
  std::string U;
  const Stmt *Body = FD->getBody();
  Writes W;
  if (Body)
    W.walk(Body);
  for (const ParmVarDecl *PD : FD->parameters()) {
    char C = '-';
    if (Body && !collector::namesDecl(Body, PD->getCanonicalDecl())) {
      C = 'u';
    } else if (Body && PD->getType()->isPointerType() && !W.Stored.count(PD) &&
               !W.AddressTaken.count(PD)) {
      StoragePath SP = StoragePath::ofVariable(PD);
      SP.Steps.push_back(StoragePath::deref());
      if (analyzeHostAccesses(Body, nullptr, {SP}, /*MotionIsUse=*/false)[0] == AC_NONE) {
        C = 'm';
      } else {
        PointerUses PU;
        pointerUses(Body, PD, SM, PU);
        if (PU.Refs && PU.DerefReads == PU.Refs)
          C = 'r';
        else if (PU.Refs == 1 && PU.ExternArgs == 1)
          C = 'e';
        else if (PU.ExternArgs == 1 && PU.DerefReads + 1 == PU.Refs)
          C = 'b';
      }
    }
    U += C;
  }
  It = ParamUses.find(FD); // the walk above may have grown the map
  It->second = U;
  return U;
}

namespace {

/// The global variables (not pointers: an array or an object, whose
/// storage is where the variable is) that the map and motion clauses of
/// the directives in S name as their items' variables.
void mappedGlobals(const Stmt *S, llvm::SmallVectorImpl<const VarDecl *> &Out) {
  if (!S || isa<LambdaExpr>(S))
    return;
  if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    for (const OMPClause *C : D->clauses())
      if (isa<OMPMapClause, OMPToClause, OMPFromClause>(C))
        for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
          if (auto *E = dyn_cast_or_null<Expr>(Child))
            if (auto *DRE = dyn_cast<DeclRefExpr>(stripToVariable(E)))
              if (auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
                  VD && VD->isFileVarDecl() && !VD->getType()->isPointerType() &&
                  !VD->getType()->isReferenceType() && !llvm::is_contained(Out, VD))
                Out.push_back(VD);
    if (isOpenMPTargetExecutionDirective(D->getDirectiveKind()))
      return; // device code below
  }
  for (const Stmt *C : S->children())
    mappedGlobals(C, Out);
}

/// The names of the variables declared in S.
void declaredNames(const Stmt *S, llvm::StringSet<> &Out) {
  if (!S)
    return;
  if (auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (auto *ND = dyn_cast<NamedDecl>(D))
        Out.insert(ND->getName());
  for (const Stmt *C : S->children())
    declaredNames(C, Out);
}

} // namespace

/// Whether FD's body (or that of a function it calls, to a bounded depth)
/// holds a construct that maps data. A function being looked at already
/// counts as holding none (recursion adds nothing).
bool RegionCollector::Impl::holdsConstructs(const FunctionDecl *FD, unsigned Depth) {
  const FunctionDecl *Def = FD ? definition(FD) : nullptr;
  if (!Def || Depth > 4 || SM.isInSystemHeader(Def->getLocation()))
    return false;
  auto [It, New] = Holds.try_emplace(Def, false);
  if (!New)
    return It->second;
  bool H = holdsIn(Def->getBody(), [&](const FunctionDecl *Callee) {
    return holdsConstructs(Callee, Depth + 1);
  });
  Holds[Def] = H;
  return H;
}

bool RegionCollector::Impl::inFnHostCode() const {
  size_t I = Contexts.size(), Captured = 0;
  while (I > 0 && isa<CapturedDecl>(Contexts[I - 1])) {
    ++Captured;
    --I;
  }
  if (!Fn || I == 0 || Contexts[I - 1] != Fn)
    return false;
  size_t Data = 0;
  for (const Stmt *S : Parents)
    if (isa<OMPExecutableDirective>(S)) {
      if (!isa<OMPTargetDataDirective>(S))
        return false;
      ++Data;
    }
  return Captured <= Data;
}

/// A call of a function that holds constructs: recorded as a region of
/// kind CALL (see the file comment) and marked as a routine call is. Only
/// calls the marker's comma cannot change: of a function (not through a
/// pointer, not virtual, not an operator) that returns nothing or a
/// scalar, in the function's own host code (inFnHostCode: not a lambda or
/// an OpenMP region inside it, but the body of a `target data`).
void RegionCollector::Impl::recordCall(CallExpr *CE) {
  if (!Fn || Parents.empty() || Parents.back() != CE || !inFnHostCode() ||
      isa<CXXOperatorCallExpr>(CE))
    return;
  const FunctionDecl *Callee = CE->getDirectCallee();
  QualType T = CE->getType();
  if (!CE->isPRValue() || !(T->isVoidType() || T->isScalarType()))
    return;
  // Through a pointer to a function (3.14): the run says which functions
  // it calls, and their constructs' files say what they map; recorded as
  // a call of a function defined elsewhere, the arguments bound by
  // position.
  llvm::SmallVector<std::string, 8> PtrParams;
  const VarDecl *FnPtr = Callee ? nullptr : collector::indirectCallee(CE, &PtrParams);
  if (FnPtr) {
    if (SM.isInSystemHeader(SM.getExpansionLoc(CE->getBeginLoc())) ||
        holdsIndirectCall(CE->getCallee()) ||
        llvm::any_of(CE->arguments(), [](const Expr *A) { return holdsIndirectCall(A); }) ||
        !passesPointer(CE))
      return;
    recordCallAs(CE, nullptr, FnPtr, PtrParams);
    return;
  }
  if (!Callee || Callee->getBuiltinID() || Callee->isVariadic())
    return;
  if (auto *MD = dyn_cast<CXXMethodDecl>(Callee); MD && MD->isVirtual())
    return;
  // A function defined in another file may hold constructs too: its calls
  // that pass pointers are recorded, flagged, so that the runtime knows the
  // call its constructs run in (the callee's file records their facts).
  bool Extern = false;
  if (!holdsConstructs(Callee)) {
    Extern = !definition(Callee) && !Callee->isInlineSpecified() &&
             !SM.isInSystemHeader(SM.getExpansionLoc(Callee->getLocation())) &&
             !SM.isInSystemHeader(SM.getExpansionLoc(CE->getBeginLoc())) && passesPointer(CE);
    if (!Extern)
      return;
  }
  llvm::SmallVector<std::string, 8> Params;
  for (const ParmVarDecl *PD : Callee->parameters())
    Params.push_back(PD->getName().str());
  recordCallAs(CE, Callee, nullptr, Params, Extern);
}

/// recordCall's region for CE, a call of Callee, or (Callee null) one
/// through the pointer FnPtr; Params: the callee's parameters' names.
void RegionCollector::Impl::recordCallAs(CallExpr *CE, const FunctionDecl *Callee,
                                         const VarDecl *FnPtr,
                                         llvm::ArrayRef<std::string> Params, bool Extern) {
  if (!Done.insert(CE).second)
    return;
  Pending P;
  Region &R = P.R;
  R.Kind = CK_CALL;
  fillCallHead(P, CE);
  if (Extern || FnPtr)
    R.Flags |= RF_EXTERN_CALLEE;
  SourceLocation B = CE->getBeginLoc(), E = CE->getEndLoc();
  if (FnPtr) {
    // No symbol: the pass finds the call through a pointer after the
    // marker; the runtime names the functions it calls.
    R.Flags |= RF_INDIRECT_CALLEE;
    R.Callee = FnPtr->getName().str();
  } else {
    R.Callee = functionName(Callee);
    std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
    llvm::raw_string_ostream OS(R.CalleeSymbol);
    if (MC->shouldMangleDeclName(Callee))
      MC->mangleName(GlobalDecl(Callee), OS);
    else
      OS << Callee->getName();
  }
  // One line per parameter; a pointer's type may leave one unnamed (#k).
  for (size_t I = 0; I < Params.size(); ++I) {
    if (I)
      R.Parameters += '\n';
    R.Parameters += Params[I].empty() && FnPtr ? "#" + std::to_string(I + 1) : Params[I];
  }
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    R.LoopBytes = span(P.File, L->getBeginLoc(), endOfToken(L->getEndLoc()));
  }
  fillCallStatement(P);
  fillLoopExits(P);
  // What may change between calls: the loop around the call, or, in no
  // loop, the block the call's statement is in.
  Writes ScopeW, FnW;
  SourceRange ScopeRange;
  if (!Loops.empty()) {
    ScopeW.walk(Loops.back());
    ScopeRange = Loops.back()->getSourceRange();
  } else
    for (size_t I = Parents.size(); I-- > 0;)
      if (isa<CompoundStmt>(Parents[I])) {
        ScopeW.walk(Parents[I]);
        ScopeRange = Parents[I]->getSourceRange();
        break;
      }
  if (Fn->getBody())
    FnW.walk(Fn->getBody());
  SourceRange CallRange(B, E);
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const Expr *A = CE->getArg(I);
    Item It;
    It.Expr = isa<CXXDefaultArgExpr>(A) ? std::string() : argumentText(A);
    if (I < Params.size())
      It.MatchName = Params[I];
    It.Clause = R.Directive;
    It.MapType = MT_NONE;
    It.ClauseBegin = pos(B);
    It.ClauseEnd = endPos(E);
    It.ClauseBytes = span(P.File, B, endOfToken(E));
    It.ItemBegin = pos(A->getBeginLoc());
    It.ItemEnd = endPos(A->getEndLoc());
    It.ItemBytes = span(P.File, A->getBeginLoc(), endOfToken(A->getEndLoc()));
    if (!It.Expr.empty() && invariant(A, ScopeW, FnW))
      It.AccessFlags |= IA_ARG_INVARIANT;
    // `&v`: v's address only ever goes to calls in the loop (3.15).
    if (auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenImpCasts());
        UO && UO->getOpcode() == UO_AddrOf && Fn->getBody() && !ScopeRange.isInvalid())
      if (auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens()))
        if (auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
            VD && VD->hasLocalStorage() && VD->getType()->isArithmeticType() &&
            addressOnlyInArgs(Fn->getBody(), VD, ScopeRange, SM))
          It.AccessFlags |= IA_ADDR_ARGS_ONLY;
    // The argument in Fn's parameters (3.15): a caller of Fn can write it.
    std::string InParams;
    if (I)
      R.ParamArgs += '\n';
    if (!isa<CXXDefaultArgExpr>(A) && paramTerms(A, Fn, FnW, R.FnParamUses, InParams))
      R.ParamArgs += InParams;
    // What a pointer (or array) argument points to is what the callee's
    // constructs map: the host code around the call that uses it.
    StoragePath SP;
    if (const Expr *V = pointerVariable(A); V && A->getType()->isPointerType()) {
      It.Name = printed(V);
      // What it points to: a pointer variable's pointee (`p`, `s.data`),
      // an array's elements (`a`, `&a[3]`), or the object whose address
      // is taken (`&r`, `&s.count`); not a container's storage (`v.data()`).
      QualType VT = V->IgnoreParenImpCasts()->getType();
      auto *UO = dyn_cast<UnaryOperator>(A->IgnoreParenCasts());
      bool AddrOf = UO && UO->getOpcode() == UO_AddrOf;
      SP = StoragePath::ofItem(V);
      if (SP.Valid && VT->isAnyPointerType())
        SP.Steps.push_back(StoragePath::deref());
      else if (SP.Valid && !VT->isArrayType() && !AddrOf)
        SP.Valid = false;
      // An element of an array of pointers (`y[1]`): what that element
      // points to, not the array's storage (the pointers).
      if (auto *AE = dyn_cast<ArraySubscriptExpr>(A->IgnoreParenImpCasts())) {
        StoragePath EP = StoragePath::ofItem(AE);
        if (EP.Valid && EP.Elem >= 0 && EP.Steps.empty()) {
          SP = EP;
          SP.Steps.push_back(StoragePath::deref());
        }
      }
      // Storage the analysis cannot name has no host accesses recorded:
      // no variable either, so that no planner reads "no host code uses
      // it" from their absence.
      if (!SP.Valid)
        It.Name.clear();
    } else if (const VarDecl *VD = Writes::var(A)) {
      It.Name = VD->getNameAsString();
    }
    R.Items.push_back(std::move(It));
    P.Storage.push_back(SP);
    P.Exprs.push_back(A);
    P.Addr.push_back(nullptr);
  }
  if (R.ParamArgs.find_first_not_of('\n') == std::string::npos)
    R.ParamArgs.clear();
  // Global arrays and objects the callee's constructs map: items too, so
  // that the host code of the loop that uses them is known; not where the
  // caller declares a variable of the same name, which a map clause at the
  // call would name instead.
  if (const FunctionDecl *Def = Callee ? definition(Callee) : nullptr) {
    llvm::SmallVector<const VarDecl *, 4> Globals;
    mappedGlobals(Def->getBody(), Globals);
    llvm::StringSet<> Own;
    for (const ParmVarDecl *PD : Fn->parameters())
      Own.insert(PD->getName());
    declaredNames(Fn->getBody(), Own);
    for (const VarDecl *G : Globals) {
      if (Own.count(G->getName()))
        continue;
      Item It;
      It.Name = It.Expr = G->getNameAsString();
      It.Clause = R.Directive;
      It.MapType = MT_NONE;
      It.Decl = pos(G->getLocation());
      R.Items.push_back(std::move(It));
      P.Storage.push_back(StoragePath::ofVariable(G));
      P.Exprs.push_back(nullptr);
      P.Addr.push_back(nullptr);
    }
  }
  fillHostAccesses(P, CE, /*MotionIsUse=*/false);
  bool Added = false;
  uint32_t Index = Table.add(std::move(R), Added);
  if (Markers && Added) {
    insertCallMarker(CE, Index);
    if (!Loops.empty())
      PendingLoopMarkers.try_emplace(Loops.back(), Index);
  }
}

/// For the items of a construct (P, not added yet): which can be written at
/// a caller (params-only) and which the function's host code leaves alone
/// (fn-host-unused); see OMPDP_ITEM_ACCESS_FLAG.
void RegionCollector::Impl::fillCallerFacts(Pending &P) {
  if (!Fn || !Fn->getBody() || Contexts.empty() || Contexts.back() != Fn)
    return;
  Writes FnW;
  FnW.walk(Fn->getBody());
  for (size_t I = 0; I < P.R.Items.size() && I < P.Exprs.size(); ++I) {
    const Expr *E = P.Exprs[I];
    Item &It = P.R.Items[I];
    if (!E || (It.Modifiers & MM_IMPLICIT) || It.MapType == MT_FIRSTPRIVATE ||
        It.MapType == MT_IS_DEVICE_PTR || It.MapType == MT_HAS_DEVICE_ADDR ||
        It.MapType == MT_NONE)
      continue;
    bool Ok = true;
    std::function<void(const Stmt *)> Names = [&](const Stmt *S) {
      if (!S || !Ok)
        return;
      // A template's parameter (an instance's value, written as the
      // parameter's name) means nothing at a caller, or something else.
      if (isa<CallExpr, CXXThisExpr, LambdaExpr, StmtExpr, SubstNonTypeTemplateParmExpr>(S)) {
        Ok = false;
        return;
      }
      if (auto *DRE = dyn_cast<DeclRefExpr>(S)) {
        const ValueDecl *D = DRE->getDecl();
        auto *PD = dyn_cast<ParmVarDecl>(D);
        bool Param = PD && PD->getDeclContext() == Fn && !PD->getType()->isReferenceType() &&
                     !FnW.Stored.count(PD) && !FnW.AddressTaken.count(PD) &&
                     !DRE->getLocation().isMacroID();
        // A global array or object that is the item's storage itself: the
        // same variable at every call (its bounds must still be parameters).
        auto *VD = dyn_cast<VarDecl>(D);
        bool Global = VD && VD->isFileVarDecl() && !VD->getType()->isPointerType() &&
                      !VD->getType()->isReferenceType() && stripToVariable(E) == DRE &&
                      !DRE->getLocation().isMacroID();
        // An enumerator of the function's own enumeration is not in scope
        // at a caller.
        bool Enum = false;
        if (auto *EC = dyn_cast<EnumConstantDecl>(D))
          Enum = EC->getDeclContext()->getParent() &&
                 EC->getDeclContext()->getParent()->isFileContext();
        Ok = Param || Global || Enum;
        return;
      }
      for (const Stmt *C : S->children())
        Names(C);
    };
    Names(E);
    if (!Ok)
      continue;
    It.AccessFlags |= IA_PARAMS_ONLY;
    if (I >= P.Storage.size() || !P.Storage[I].Valid)
      continue;
    uint32_t Host =
        analyzeHostAccesses(Fn->getBody(), nullptr, {P.Storage[I]}, /*MotionIsUse=*/false)[0];
    if (Host == AC_NONE)
      It.AccessFlags |= IA_FN_HOST_UNUSED;
    else if (Host == AC_READ)
      It.AccessFlags |= IA_FN_HOST_READS;
    uint32_t Dev = analyzeDeviceAccesses({Fn->getBody()}, {P.Storage[I]}, /*Definite=*/false)[0];
    if (Dev == AC_NONE || Dev == AC_READ)
      It.AccessFlags |= IA_FN_DEVICE_READS;
  }
}
