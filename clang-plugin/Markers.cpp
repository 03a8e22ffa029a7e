//===- Markers.cpp - the markers the pass finds each region by ----------===//
//
// Part of the AST walk (RegionCollectorImpl.h). Before code generation sees
// a function, each directive D is replaced by `{ M; D }`, where
//   M = __ompdp_marker(<region index>, &<variable of item 0>, ...)
// calls an internal no-op function (null where an item has no variable
// worth comparing); the pass (llvm-pass/TagOffloadCalls.cpp) finds each
// offload call's region by the nearest marker before it, matches the call's
// map arguments to items by their address computations, and deletes the
// markers and the function.
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

namespace {

/// CapturedStmt has no public way to change its statement (only
/// serialization may), but a directive that is the whole body of an OpenMP
/// region is its captured statement. An explicit instantiation may name a
/// private member; this one hands out CapturedStmt::setCapturedStmt.
struct CapturedStmtSetter {
  using Type = void (CapturedStmt::*)(Stmt *);
  friend Type privateMember(CapturedStmtSetter);
};
template <typename Tag, typename Tag::Type Member> struct GrantAccess {
  friend typename Tag::Type privateMember(Tag) { return Member; }
};
template struct GrantAccess<CapturedStmtSetter, &CapturedStmt::setCapturedStmt>;

} // namespace

/// A reference to VD from the directive's context: it refers to an
/// enclosing variable (a lambda or captured-region capture) when VD is a
/// local of an outer function-like context.
Expr *RegionCollector::Impl::varRef(VarDecl *VD, SourceLocation L) {
  if (!VD || Contexts.empty())
    return nullptr;
  bool Enclosing = false;
  if (VD->hasLocalStorage()) {
    Enclosing = true;
    for (const DeclContext *DC = VD->getDeclContext(); DC; DC = DC->getParent())
      if (DC == Contexts.back()) {
        Enclosing = false;
        break;
      }
  }
  return DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(),
                             VD, Enclosing, L,
                             VD->getType().getNonReferenceType(), VK_LValue);
}

/// (the address of) the variable of item E, usable at the directive (null
/// when there is none worth marking). Explicit items are written outside
/// the region, so their expressions already belong there; implicit ones
/// come from inside the region and are rebuilt.
Expr *RegionCollector::Impl::itemAddress(const Expr *E, bool Implicit,
                                         SourceLocation L) {
  const Expr *V = stripToVariable(E);
  if (isa<CXXThisExpr>(V))
    return const_cast<Expr *>(V);
  if (Implicit) {
    if (auto *DRE = dyn_cast<DeclRefExpr>(V))
      V = varRef(const_cast<VarDecl *>(dyn_cast<VarDecl>(DRE->getDecl())), L);
    else if (auto *ME = dyn_cast<MemberExpr>(V);
             !ME || !isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      V = nullptr;
  }
  if (!V || !V->isLValue() || V->refersToBitField() ||
      V->getType()->isFunctionType() || V->HasSideEffects(Ctx))
    return nullptr;
  return UnaryOperator::Create(Ctx, const_cast<Expr *>(V), UO_AddrOf,
                               Ctx.getPointerType(V->getType()), VK_PRValue,
                               OK_Ordinary, L, false, FPOptionsOverride());
}

/// static void __ompdp_marker(unsigned, ...) {}, named so in C and C++
/// (an asm label: no mangling). Handed to code generation at the end of the
/// translation unit, once calls to it exist.
FunctionDecl *RegionCollector::Impl::markerDecl() {
  if (MarkerFD)
    return MarkerFD;
  FunctionProtoType::ExtProtoInfo EPI;
  EPI.Variadic = true;
  // It cannot throw: calls, not invokes, even in cleanup scopes.
  if (Ctx.getLangOpts().CPlusPlus)
    EPI.ExceptionSpec.Type = EST_BasicNoexcept;
  QualType FT = Ctx.getFunctionType(Ctx.VoidTy, {Ctx.UnsignedIntTy}, EPI);
  TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
  auto *FD =
      FunctionDecl::Create(Ctx, TU, SourceLocation(), SourceLocation(),
                           DeclarationName(&Ctx.Idents.get(OMPDP_MARKER_FN)),
                           FT, Ctx.getTrivialTypeSourceInfo(FT), SC_Static);
  auto *Region = ParmVarDecl::Create(
      Ctx, FD, SourceLocation(), SourceLocation(), nullptr, Ctx.UnsignedIntTy,
      Ctx.getTrivialTypeSourceInfo(Ctx.UnsignedIntTy), SC_None, nullptr);
  FD->setParams({Region});
  FD->setBody(CompoundStmt::Create(Ctx, {}, FPOptionsOverride(),
                                   SourceLocation(), SourceLocation()));
  FD->addAttr(AsmLabelAttr::CreateImplicit(Ctx, OMPDP_MARKER_FN,
                                           /*LiteralLabel=*/false));
  FD->addAttr(NoThrowAttr::CreateImplicit(Ctx));
  FD->setImplicit();
  MarkerFD = FD;
  return FD;
}

/// The call `__ompdp_marker(Args...)` at L.
Expr *RegionCollector::Impl::markerCall(FunctionDecl *FD, ArrayRef<Expr *> Args,
                                        SourceLocation L) {
  auto *Ref =
      DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), FD,
                          false, L, FD->getType(), VK_LValue);
  Expr *Callee = ImplicitCastExpr::Create(
      Ctx, Ctx.getPointerType(FD->getType()), CK_FunctionToPointerDecay, Ref,
      nullptr, VK_PRValue, FPOptionsOverride());
  return CallExpr::Create(Ctx, Callee, Args, Ctx.VoidTy, VK_PRValue, L,
                          FPOptionsOverride());
}

/// Replaces D, where it stands, by { markers; D }.
bool RegionCollector::Impl::insertMarkers(OMPExecutableDirective *D,
                                          uint32_t Index,
                                          const std::vector<Expr *> &Addr,
                                          size_t NumItems) {
  if (Parents.size() < 2 || Parents.back() != D)
    return false;
  Stmt *Parent = Parents[Parents.size() - 2];
  SourceLocation L = D->getBeginLoc();
  FunctionDecl *FD = markerDecl();
  SmallVector<Expr *, 8> Args;
  Args.push_back(IntegerLiteral::Create(Ctx, llvm::APInt(32, Index),
                                        Ctx.UnsignedIntTy, L));
  // Trailing items without an address need no argument.
  size_t Last = std::min(NumItems, Addr.size());
  while (Last && !Addr[Last - 1])
    --Last;
  for (size_t I = 0; I < Last; ++I)
    Args.push_back(Addr[I] ? Addr[I]
                           : ImplicitCastExpr::Create(
                                 Ctx, Ctx.VoidPtrTy, CK_NullToPointer,
                                 IntegerLiteral::Create(Ctx, llvm::APInt(32, 0),
                                                        Ctx.IntTy, L),
                                 nullptr, VK_PRValue, FPOptionsOverride()));
  Expr *M = markerCall(FD, Args, L);
  Stmt *Body[] = {M, D};
  auto *W = CompoundStmt::Create(Ctx, Body, FPOptionsOverride(), L, L);
  Done.insert(W);
  return replaceChild(Parent, D, W);
}

/// Puts W where D stands in Parent.
bool RegionCollector::Impl::replaceChild(Stmt *Parent, Stmt *D, Stmt *W) {
  if (auto *CS = dyn_cast<CompoundStmt>(Parent)) {
    for (Stmt *&S : CS->body())
      if (S == D) {
        S = W;
        return true;
      }
    return false;
  }
  if (auto *Cap = dyn_cast<CapturedStmt>(Parent)) {
    // The captured statement is also the body of its CapturedDecl.
    if (Cap->getCapturedStmt() != D)
      return false;
    (Cap->*privateMember(CapturedStmtSetter()))(W);
    Cap->getCapturedDecl()->setBody(W);
    return true;
  }
  for (Stmt *&S : Parent->children())
    if (S == D) {
      S = W;
      return true;
    }
  return false;
}

/// Replaces Loop (walked, the last of Parents), where it stands, by
/// `{ __ompdp_marker(Index | OMPDP_LOOP_MARKER); Loop }`: the pass makes
/// the marker a loop-entry tag of the call region Index, the first
/// recorded in the loop (OMPDP_CALL_LOOP_ENTRY), so that the runtime counts
/// how often the loop begins. Not for a loop an OpenMP directive owns.
bool RegionCollector::Impl::insertLoopMarker(Stmt *Loop, uint32_t Index) {
  if (Parents.size() < 2 || Parents.back() != Loop)
    return false;
  Stmt *Parent = Parents[Parents.size() - 2];
  if (isa<OMPExecutableDirective>(Parent))
    return false;
  SourceLocation At = Loop->getBeginLoc();
  Expr *Args[] = {IntegerLiteral::Create(Ctx, llvm::APInt(32, Index | OMPDP_LOOP_MARKER),
                                         Ctx.UnsignedIntTy, At)};
  Stmt *Body[] = {markerCall(markerDecl(), Args, At), Loop};
  auto *W = CompoundStmt::Create(Ctx, Body, FPOptionsOverride(), At, At);
  Done.insert(W);
  return replaceChild(Parent, Loop, W);
}

void RegionCollector::Impl::warnUnmarked(OMPExecutableDirective *D) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  unsigned ID = Diags.getCustomDiagID(
      DiagnosticsEngine::Warning,
      "ompdp: cannot mark this directive; its offload calls will be "
      "attributed by debug info only");
  Diags.Report(D->getBeginLoc(), ID);
}

/// Replaces the call of a device memory routine, where it stands, by
/// `(__ompdp_marker(Index), CE)`: the marker runs right before the call's
/// arguments, and the expression keeps the call's type and value.
bool RegionCollector::Impl::insertCallMarker(CallExpr *CE, uint32_t Index) {
  if (Parents.size() < 2 || Parents.back() != CE)
    return false;
  Stmt *Parent = Parents[Parents.size() - 2];
  SourceLocation L = CE->getBeginLoc();
  FunctionDecl *FD = markerDecl();
  Expr *Args[] = {IntegerLiteral::Create(Ctx, llvm::APInt(32, Index),
                                         Ctx.UnsignedIntTy, L)};
  Expr *M = markerCall(FD, Args, L);
  Expr *W = BinaryOperator::Create(Ctx, M, CE, BO_Comma, CE->getType(),
                                   CE->getValueKind(), CE->getObjectKind(), L,
                                   FPOptionsOverride());
  Done.insert(W);
  for (Stmt *&S : Parent->children())
    if (S == CE) {
      S = W;
      return true;
    }
  return false;
}
