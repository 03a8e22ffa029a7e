//===- Routines.cpp - calls of the device memory routines -----------------===//
//
// Part of the AST walk (RegionCollectorImpl.h). Programs that manage device
// memory themselves call omp_target_alloc, omp_target_memcpy, ... instead
// of writing map clauses. libomptarget reports the data operations of such
// a call without a target construct, so without this file the runtime could
// name them only by debug info, and a finding's words would speak of map
// clauses the program does not have.
//
// Each call is recorded as a region of the routine's construct kind
// (OMPDP_CONSTRUCT_KIND): the call's range, the statement that holds it, the
// loop around it, the call as written (Directive) and its arguments
// (Arguments, one per line), and one item per pointer argument named by the
// variable behind it (omp_target_alloc: the variable its result is
// assigned to). The items' order is fixed per routine, so that the runtime
// can pick the host side's item of each operation:
//   memcpy, memcpy_rect (and _async)   0: destination, 1: source
//   associate_ptr                      0: host pointer, 1: device pointer
//   alloc                              0: the variable assigned (if any)
//   free, memset (and _async), disassociate_ptr   0: the pointer
// The call becomes `(__ompdp_marker(R), call)`: an expression, so that it
// works wherever a call may stand (an initializer, a condition), and the
// pass finds the routine's call right after its marker.
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

namespace {

struct Routine {
  const char *Name;
  uint32_t Kind;
  unsigned NumArgs;
  int Pointers[2]; // argument index of item 0 and 1; -1: none
};

const Routine Routines[] = {
    {"omp_target_alloc", CK_TARGET_ALLOC, 2, {-1, -1}},
    {"omp_target_free", CK_TARGET_FREE, 2, {0, -1}},
    {"omp_target_memcpy", CK_TARGET_MEMCPY, 7, {0, 1}},
    {"omp_target_memcpy_rect", CK_TARGET_MEMCPY_RECT, 11, {0, 1}},
    {"omp_target_memcpy_async", CK_TARGET_MEMCPY_ASYNC, 9, {0, 1}},
    {"omp_target_memcpy_rect_async", CK_TARGET_MEMCPY_RECT_ASYNC, 13, {0, 1}},
    {"omp_target_memset", CK_TARGET_MEMSET, 4, {0, -1}},
    {"omp_target_memset_async", CK_TARGET_MEMSET_ASYNC, 6, {0, -1}},
    {"omp_target_associate_ptr", CK_TARGET_ASSOCIATE_PTR, 5, {0, 1}},
    {"omp_target_disassociate_ptr", CK_TARGET_DISASSOCIATE_PTR, 2, {0, -1}},
};

} // namespace

namespace ompdp {
namespace collector {

const VarDecl *Writes::var(const Expr *E) {
  auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const VarDecl *Writes::arrayOf(const Expr *E) {
  bool Element = false;
  for (;;) {
    E = E->IgnoreParenImpCasts();
    if (auto *AE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = AE->getBase();
      Element = true;
    } else if (auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
      E = ME->getBase();
    } else {
      break;
    }
  }
  const VarDecl *V = Element ? var(E) : nullptr;
  return V && V->hasLocalStorage() && V->getType()->isArrayType() ? V : nullptr;
}

void Writes::walk(const Stmt *S) {
  if (!S)
    return;
  // The plugin's own markers take the address of each item's variable:
  // not the program's code.
  if (auto *CE = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *FD = CE->getDirectCallee();
        FD && FD->getIdentifier() && FD->getName() == OMPDP_MARKER_FN)
      return;
  if (auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    if (const VarDecl *V = var(BO->getLHS()))
      ++Stored[V];
    if (const VarDecl *A = arrayOf(BO->getLHS()))
      ElementStored.insert(A);
  } else if (auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp()) {
      if (const VarDecl *V = var(UO->getSubExpr()))
        ++Stored[V];
      if (const VarDecl *A = arrayOf(UO->getSubExpr()))
        ElementStored.insert(A);
    }
    if (UO->getOpcode() == UO_AddrOf) {
      if (const VarDecl *V = var(UO->getSubExpr()))
        AddressTaken.insert(V);
      if (const VarDecl *A = arrayOf(UO->getSubExpr()))
        ElementsReached.insert(A);
    }
  } else if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (auto *V = dyn_cast<VarDecl>(D)) {
        ++Stored[V];
        Declared.insert(V);
      }
  }
  // A reference bound to a variable (a reference parameter, a lambda's
  // capture) may write it where this walk does not look: taken as its
  // address.
  if (auto *CE = dyn_cast<CallExpr>(S))
    for (const Expr *A : CE->arguments())
      if (A->isLValue()) {
        if (const VarDecl *V = var(A))
          AddressTaken.insert(V);
        if (const VarDecl *Arr = arrayOf(A))
          ElementsReached.insert(Arr);
      }
  // An array's decay that a subscript reads is an element; any other (the
  // array given to a call, assigned to a pointer) reaches every element.
  if (auto *AE = dyn_cast<ArraySubscriptExpr>(S))
    Subscripted.insert(AE->getBase()->IgnoreParens());
  if (auto *IC = dyn_cast<ImplicitCastExpr>(S);
      IC && IC->getCastKind() == CK_ArrayToPointerDecay && !Subscripted.count(IC))
    if (const VarDecl *V = var(IC->getSubExpr());
        V && V->hasLocalStorage() && V->getType()->isArrayType())
      ElementsReached.insert(V);
  if (auto *LE = dyn_cast<LambdaExpr>(S)) {
    for (const LambdaCapture &C : LE->captures())
      if (C.capturesVariable() && C.getCaptureKind() == LCK_ByRef)
        if (auto *V = dyn_cast<VarDecl>(C.getCapturedVar()))
          AddressTaken.insert(V);
    walk(LE->getBody());
  }
  // A directive writes the variables it copies back from a device (map
  // from or tofrom, target update from) and its reductions, lastprivate
  // and linear variables; a section of what a pointer points to leaves
  // the pointer as it is.
  if (auto *D = dyn_cast<OMPExecutableDirective>(S))
    for (const OMPClause *C : D->clauses()) {
      auto *M = dyn_cast<OMPMapClause>(C);
      bool WritesBack =
          (M && (M->getMapType() == OMPC_MAP_from ||
                 M->getMapType() == OMPC_MAP_tofrom ||
                 M->getMapType() == OMPC_MAP_unknown)) ||
          isa<OMPFromClause, OMPReductionClause, OMPLastprivateClause,
              OMPLinearClause>(C);
      if (!WritesBack)
        continue;
      for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
        if (auto *E = dyn_cast_or_null<Expr>(Child))
          if (const VarDecl *V = var(E))
            ++Stored[V];
    }
  for (const Stmt *C : S->children())
    walk(C);
}

bool invariant(const Expr *E, const Writes &LoopW, const Writes &FnW) {
  E = E->IgnoreParenCasts();
  if (isa<IntegerLiteral, CharacterLiteral, FloatingLiteral,
          CXXNullPtrLiteralExpr, GNUNullExpr>(E))
    return true;
  // sizeof of a variable-length array is computed when it runs.
  if (auto *TT = dyn_cast<UnaryExprOrTypeTraitExpr>(E))
    return !TT->getTypeOfArgument()->isVariablyModifiedType();
  if (auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<EnumConstantDecl>(DRE->getDecl()))
      return true;
    auto *V = dyn_cast<VarDecl>(DRE->getDecl());
    if (!V)
      return false;
    // An array (as a pointer to its start): where it is does not change,
    // unless the loop declares it anew.
    if (V->getType()->isArrayType())
      return !LoopW.Stored.count(V);
    if (V->getType().isConstQualified() && V->hasInit() &&
        !V->getType()->isReferenceType() && !LoopW.Stored.count(V))
      return true;
    return V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           !LoopW.Stored.count(V) && !FnW.AddressTaken.count(V);
  }
  // y[1] of a local array of pointers set before the loop.
  if (auto *AE = dyn_cast<ArraySubscriptExpr>(E)) {
    const VarDecl *A = Writes::arrayOf(AE);
    return A && Writes::var(AE->getBase()) == A && !LoopW.Stored.count(A) &&
           !LoopW.ElementStored.count(A) && !FnW.ElementsReached.count(A) &&
           !FnW.AddressTaken.count(A) && invariant(AE->getIdx(), LoopW, FnW);
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && !BO->isCommaOp() &&
           invariant(BO->getLHS(), LoopW, FnW) &&
           invariant(BO->getRHS(), LoopW, FnW);
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    // `&x` of a variable (not a reference) the loop does not declare
    // anew: where x is does not change, whatever is stored in it
    // (deredundancy's `&r`, which each call updates).
    if (UO->getOpcode() == UO_AddrOf) {
      auto *DRE = dyn_cast<DeclRefExpr>(UO->getSubExpr()->IgnoreParens());
      auto *V = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      return V && !V->getType()->isReferenceType() &&
             (V->hasGlobalStorage() || V->hasLocalStorage()) && !LoopW.Declared.count(V);
    }
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           invariant(UO->getSubExpr(), LoopW, FnW);
  }
  if (auto *CO = dyn_cast<ConditionalOperator>(E))
    return invariant(CO->getCond(), LoopW, FnW) &&
           invariant(CO->getTrueExpr(), LoopW, FnW) &&
           invariant(CO->getFalseExpr(), LoopW, FnW);
  if (auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *FD = CE->getDirectCallee();
    return FD && FD->getIdentifier() && CE->getNumArgs() == 0 &&
           (FD->getName() == "omp_get_default_device" ||
            FD->getName() == "omp_get_initial_device" ||
            FD->getName() == "omp_get_num_devices");
  }
  return false;
}

const Stmt *loopBody(const Stmt *L) {
  if (auto *F = dyn_cast<ForStmt>(L))
    return F->getBody();
  if (auto *W = dyn_cast<WhileStmt>(L))
    return W->getBody();
  if (auto *D = dyn_cast<DoStmt>(L))
    return D->getBody();
  if (auto *R = dyn_cast<CXXForRangeStmt>(L))
    return R->getBody();
  return nullptr;
}

} // namespace collector
} // namespace ompdp

namespace {

const Routine *routineOf(const CallExpr *CE, const ASTContext &Ctx) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD || !FD->getIdentifier() ||
      !FD->getDeclContext()->getRedeclContext()->isTranslationUnit() ||
      (Ctx.getLangOpts().CPlusPlus && !FD->isExternC()))
    return nullptr;
  StringRef Name = FD->getName();
  for (const Routine &R : Routines)
    if (Name == R.Name)
      return CE->getNumArgs() == R.NumArgs ? &R : nullptr;
  return nullptr;
}

} // namespace

/// The variable a pointer argument is computed from: `h`, `(char *)h + off`,
/// `&a[0]`, `s.p`, `this->buf`, `v.data()`; null for anything else.
const Expr *ompdp::collector::pointerVariable(const Expr *E) {
  for (int Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenCasts();
    if (auto *BO = dyn_cast<BinaryOperator>(E);
        BO && BO->isAdditiveOp()) {
      E = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                   : BO->getRHS();
      continue;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf) {
      E = UO->getSubExpr();
      continue;
    }
    // A container's or smart pointer's storage: v.data(), p.get().
    if (auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      const CXXMethodDecl *MD = MC->getMethodDecl();
      if (MD && MD->getIdentifier() && MC->getNumArgs() == 0 &&
          (MD->getName() == "data" || MD->getName() == "get")) {
        E = MC->getImplicitObjectArgument();
        continue;
      }
      return nullptr;
    }
    const Expr *V = stripToVariable(E);
    return isa<DeclRefExpr, MemberExpr, CXXThisExpr>(V) ? V : nullptr;
  }
  return nullptr;
}

/// An argument as written, white space collapsed: the file's text of its
/// expansion (`N * sizeof(double)`, not N's definition); printed when it
/// has no such text (it is part of a macro's body).
std::string RegionCollector::Impl::argumentText(const Expr *A) const {
  std::string T = writtenText(CharSourceRange::getTokenRange(A->getSourceRange()));
  return T.empty() ? printed(A) : T;
}

/// The file's text of range R, white space collapsed; "" when R is not in
/// one file.
std::string RegionCollector::Impl::writtenText(CharSourceRange Range) const {
  CharSourceRange R = Lexer::makeFileCharRange(Range, SM, Ctx.getLangOpts());
  bool Invalid = false;
  StringRef T = R.isValid() ? Lexer::getSourceText(R, SM, Ctx.getLangOpts(),
                                                   &Invalid)
                            : StringRef();
  return Invalid ? "" : collapseSpace(T);
}

/// The item of pointer argument Arg: the variable behind it, the argument
/// as written and its range; the "clause" is the call.
Item RegionCollector::Impl::routineItem(const Expr *Arg, const std::string &Call,
                                        SourceRange CallRange, FileID F) const {
  Item It;
  if (const Expr *V = pointerVariable(Arg))
    It.Name = printed(V);
  It.Expr = argumentText(Arg);
  It.Clause = Call;
  It.MapType = MT_NONE;
  It.ClauseBegin = pos(CallRange.getBegin());
  It.ClauseEnd = endPos(CallRange.getEnd());
  It.ClauseBytes = span(F, CallRange.getBegin(), endOfToken(CallRange.getEnd()));
  It.ItemBegin = pos(Arg->getBeginLoc());
  It.ItemEnd = endPos(Arg->getEndLoc());
  It.ItemBytes = span(F, Arg->getBeginLoc(), endOfToken(Arg->getEndLoc()));
  return It;
}

/// omp_target_alloc's result, when the call is (under casts) the right
/// side of an assignment or a variable's initializer: the item is what it
/// is assigned to. 0 when it is used otherwise.
bool RegionCollector::Impl::assignedTo(Item &It, const VarDecl *&Var,
                                       const std::string &Call,
                                       SourceRange CallRange, FileID F) const {
  const Expr *Inner = cast<Expr>(Parents.back());
  size_t I = Parents.size() - 1;
  while (I > 0 && isa<CastExpr, ParenExpr, ExprWithCleanups>(Parents[I - 1]))
    Inner = cast<Expr>(Parents[--I]);
  if (I == 0)
    return false;
  const Stmt *P = Parents[I - 1];
  if (auto *BO = dyn_cast<BinaryOperator>(P);
      BO && BO->getOpcode() == BO_Assign && BO->getRHS() == Inner) {
    It = routineItem(BO->getLHS(), Call, CallRange, F);
    Var = Writes::var(BO->getLHS());
    return true;
  }
  auto *DS = dyn_cast<DeclStmt>(P);
  if (!DS)
    return false;
  for (const Decl *D : DS->decls())
    if (auto *VD = dyn_cast<VarDecl>(D); VD && VD->getInit() == Inner) {
      Var = VD;
      It = Item();
      It.Name = It.Expr = VD->getNameAsString();
      It.Clause = Call;
      It.MapType = MT_NONE;
      It.ClauseBegin = pos(CallRange.getBegin());
      It.ClauseEnd = endPos(CallRange.getEnd());
      It.ClauseBytes =
          span(F, CallRange.getBegin(), endOfToken(CallRange.getEnd()));
      It.ItemBegin = pos(VD->getLocation());
      It.ItemEnd = endPos(VD->getLocation());
      It.ItemBytes =
          span(F, VD->getLocation(), endOfToken(VD->getLocation()));
      return true;
    }
  return false;
}

/// What every call region records of the call (P.R.Kind set): its file,
/// place, ID, function and loop, source bytes, the call as written and its
/// arguments, one per line.
void RegionCollector::Impl::fillCallHead(Pending &P, const CallExpr *CE) {
  Region &R = P.R;
  SourceLocation B = CE->getBeginLoc(), E = CE->getEndLoc();
  PresumedLoc PL = SM.getPresumedLoc(B);
  if (PL.isValid())
    R.File = PL.getFilename();
  R.Begin = pos(B);
  R.End = endPos(E);
  R.Id = regionId(R.File, R.Begin.Line, R.Begin.Column, R.Kind);
  fillContext(R);
  if (B.isMacroID())
    R.Flags |= RF_IN_MACRO;
  fillFile(P, B);
  R.DirectiveBytes = span(P.File, B, endOfToken(E));
  R.Directive = argumentText(CE);
  for (const Expr *A : CE->arguments()) {
    if (!R.Arguments.empty())
      R.Arguments += '\n';
    R.Arguments += argumentText(A);
  }
}

/// The statement that holds the call (an expression statement or a
/// declaration), when it is directly in a compound statement: a rewrite
/// moves whole statements only.
void RegionCollector::Impl::fillCallStatement(Pending &P) {
  size_t I = Parents.size() - 1;
  while (I > 0 && isa<Expr>(Parents[I - 1]))
    --I;
  if (I == 0)
    return;
  const Stmt *S = Parents[I], *Parent = Parents[I - 1];
  if (isa<DeclStmt>(Parent)) {
    if (I < 2)
      return;
    S = Parent;
    Parent = Parents[I - 2];
    P.R.Flags |= RF_DECL_STMT;
  }
  if (!isa<CompoundStmt>(Parent))
    return;
  fillStatementIn(P, S, Parent);
  SourceRange SR = stmtRange(S);
  P.R.StmtText = writtenText(CharSourceRange::getCharRange(SR));
  if (!Loops.empty() && loopBody(Loops.back()) == Parent)
    P.R.Flags |= RF_IN_LOOP_BODY;
}

/// What a rewrite that moves the call out of its loop needs: whether its
/// arguments (but the pointers its items name) stay the same in the loop,
/// and, for omp_target_alloc, whether the loop stores to the pointer
/// anywhere else (then each iteration's allocation may still be in use).
void RegionCollector::Impl::fillLoopFacts(Pending &P, const CallExpr *CE,
                                          const int Pointers[2]) {
  if (Loops.empty() || !Fn || !Fn->getBody())
    return;
  Writes LoopW, FnW;
  LoopW.walk(Loops.back());
  FnW.walk(Fn->getBody());
  bool Invariant = true;
  for (unsigned A = 0; A < CE->getNumArgs() && Invariant; ++A)
    if (int(A) != Pointers[0] && int(A) != Pointers[1])
      Invariant = invariant(CE->getArg(A), LoopW, FnW);
  if (Invariant)
    P.R.Flags |= RF_ARGS_INVARIANT;
  if (P.R.Kind != CK_TARGET_ALLOC || P.R.Items.empty() || !P.AllocVar)
    return;
  // The call's own assignment is one store (an initializer counts as one).
  auto It = LoopW.Stored.find(P.AllocVar);
  unsigned Others = It == LoopW.Stored.end() ? 0 : It->second - 1;
  if (Others || FnW.AddressTaken.count(P.AllocVar))
    P.R.Items[0].AccessFlags |= IA_BASE_STORED;
}

bool RegionCollector::Impl::VisitCallExpr(CallExpr *CE) {
  noteCall(CE);
  const Routine *RT = routineOf(CE, Ctx);
  if (!RT) {
    recordCall(CE); // a call of a function that holds constructs (Calls.cpp)
    return true;
  }
  if (!Fn || Parents.empty() || Parents.back() != CE ||
      !Done.insert(CE).second)
    return true;
  Pending P;
  Region &R = P.R;
  R.Kind = RT->Kind;
  fillCallHead(P, CE);
  SourceLocation B = CE->getBeginLoc(), E = CE->getEndLoc();
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    R.LoopBytes = span(P.File, L->getBeginLoc(), endOfToken(L->getEndLoc()));
  }
  fillCallStatement(P);
  fillLoopExits(P);
  SourceRange CallRange(B, E);
  if (RT->Kind == CK_TARGET_ALLOC) {
    Item It;
    if (assignedTo(It, P.AllocVar, R.Directive, CallRange, P.File))
      R.Items.push_back(std::move(It));
  } else {
    for (int A : RT->Pointers)
      if (A >= 0)
        R.Items.push_back(
            routineItem(CE->getArg(unsigned(A)), R.Directive, CallRange, P.File));
  }
  fillLoopFacts(P, CE, RT->Pointers);
  bool Added = false;
  uint32_t Index = Table.add(std::move(R), Added);
  if (Markers)
    insertCallMarker(CE, Index);
  return true;
}
