//===- HostValues.cpp - whether host code stores computed values in an item ===//
//
// Part of the AST walk (RegionCollectorImpl.h). A fill on the device (the
// alloc_and_fill rewrite) takes the place of a copy whose bytes one run saw
// to be zeros, or one value repeated. That holds for every input only if
// what the host stored there is a constant: `b[i] = 1.0f` on one path and
// `fscanf(fp, "%f", &b[i])` on another (a program that reads its input from
// a file or makes it up) fills with 1.0f only when the run took the first.
// For each item with fill facts this looks, at the end of the translation
// unit (when every caller has been seen), for a store of a value the
// compiler cannot evaluate (analyzeHostValueStores): in the construct's
// function; through a pointer parameter, at every call of the function in
// the translation unit, in the caller, with the argument's storage (to a
// bounded depth); for a global, in every function. In `main`, which runs
// once, only what runs before the construct or the call counts (a host
// reference computation after the offload writes the same buffer). What it finds is
// evidence (fill flag HOST_VALUES): code in other files is not seen, and
// the rewrite still says what it assumes.
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

#include "AccessAnalysis.h"

namespace {

/// The storage a call's argument A gives a pointer parameter whose item is
/// Param (its path starts with the dereference): the variable behind `p`,
/// `p + k`, `&p[k]` or an array that decays, with the rest of the path.
bool argumentStorage(const Expr *A, const StoragePath &Param, StoragePath &Out) {
  const VarDecl *VD = pointedVariable(A);
  if (!VD)
    return false;
  Out = StoragePath::ofVariable(VD);
  if (!Out.Valid)
    return false;
  QualType T = VD->getType();
  if (T->isAnyPointerType())
    Out.Steps.append(Param.Steps.begin(), Param.Steps.end());
  else if (T->isArrayType())
    Out.Steps.append(Param.Steps.begin() + 1, Param.Steps.end());
  else
    return false;
  return true;
}

} // namespace

void RegionCollector::Impl::noteCall(const CallExpr *CE) {
  if (!Fn)
    return;
  if (const FunctionDecl *Callee = CE->getDirectCallee())
    CallsOf[Callee->getCanonicalDecl()].push_back({CE, Fn});
}

void RegionCollector::Impl::noteValueChecks(uint32_t Index, const Pending &P,
                                            SourceLocation At) {
  if (!Fn)
    return;
  const Region &R = Table.regions()[Index];
  for (size_t I = 0; I < R.Items.size() && I < P.Storage.size(); ++I)
    if ((R.Items[I].FillFlags & (FF_SECTION | FF_WHOLE)) && P.Storage[I].Valid &&
        P.Storage[I].Root != StoragePath::thisRoot())
      ValueChecks.push_back({Index, uint32_t(I), Fn, At, P.Storage[I]});
}

/// The host code of G that can run before At (a construct, or a call that
/// reaches one) and store what it then copies: in `main`, which runs once,
/// the statements of its body that begin before At (the one that holds At
/// with all of it: a loop around At runs its later statements before the
/// next execution); in any other function the whole body, since a later
/// call may copy what this one stored after At.
std::vector<const Stmt *> RegionCollector::Impl::runsBefore(const FunctionDecl *G,
                                                            SourceLocation At) const {
  auto *Body = dyn_cast_or_null<CompoundStmt>(G->getBody());
  if (!Body || !G->isMain() || At.isInvalid())
    return {G->getBody()};
  std::vector<const Stmt *> Out;
  SourceLocation P = SM.getExpansionLoc(At);
  for (const Stmt *S : Body->body())
    if (SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S->getBeginLoc()), P))
      Out.push_back(S);
  return Out;
}

/// Whether host code stores computed values into SP, the storage of an
/// item of function F at At: in F, in F's callers (before their calls) for
/// a pointer parameter, in every function for a global.
bool RegionCollector::Impl::valuesVary(const FunctionDecl *F, SourceLocation At,
                                       const StoragePath &SP, unsigned Depth) {
  auto *Var = dyn_cast<VarDecl>(static_cast<const Decl *>(SP.Root));
  if (!F || !Var)
    return false;
  if (Var->hasGlobalStorage() && !Var->isStaticLocal())
    return llvm::any_of(Bodies, [&](const FunctionDecl *G) {
      return G->getBody() && analyzeHostValueStores({G->getBody()}, Ctx, {SP})[0];
    });
  if (F->getBody() && analyzeHostValueStores(runsBefore(F, At), Ctx, {SP})[0])
    return true;
  auto *PV = dyn_cast<ParmVarDecl>(Var);
  if (!PV || Depth >= 3 || SP.Steps.empty() || SP.Steps[0] != StoragePath::deref())
    return false;
  auto It = CallsOf.find(F->getCanonicalDecl());
  if (It == CallsOf.end())
    return false;
  unsigned Index = PV->getFunctionScopeIndex();
  for (const auto &[CE, Caller] : It->second) {
    StoragePath Arg;
    if (Index < CE->getNumArgs() && argumentStorage(CE->getArg(Index), SP, Arg) &&
        valuesVary(Caller, CE->getBeginLoc(), Arg, Depth + 1))
      return true;
  }
  return false;
}
