//===- RegionCollector.cpp - find offload constructs in a translation unit ===//
//
// A RecursiveASTVisitor keeps a stack of the loops around the current
// statement (reset at every function or lambda body, since a loop around a
// lambda's definition does not repeat the lambda's body) and the function it
// is in. Template instantiations are visited, not patterns: Sema adds the
// implicit map clauses only once types are known. Locations are presumed
// locations of the expansion, exactly what Clang's OpenMP code generation
// writes into the ident_t and .offload_mapnames strings, which is how the
// pass later finds the region and the item behind each offload call.
//
//===----------------------------------------------------------------------===//
#include "RegionCollector.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;
using namespace ompdp;

namespace {

class Collector : public RecursiveASTVisitor<Collector> {
public:
  Collector(ASTContext &Ctx, TableBuilder &Table)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Table(Table),
        Policy(Ctx.getLangOpts()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  // No data recursion: children must be traversed while the loop stack
  // still holds their loops, not queued for later.
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    return RecursiveASTVisitor::TraverseStmt(S, nullptr);
  }

  bool TraverseDecl(Decl *D) {
    auto *FD = llvm::dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return RecursiveASTVisitor::TraverseDecl(D);
    // Dependent code has no implicit clauses yet; its instantiations do.
    if (FD->isDependentContext())
      return true;
    std::vector<const Stmt *> SavedLoops;
    SavedLoops.swap(Loops);
    const FunctionDecl *SavedFn = Fn;
    Fn = FD;
    bool R = RecursiveASTVisitor::TraverseDecl(D);
    Fn = SavedFn;
    Loops.swap(SavedLoops);
    return R;
  }

#define OMPDP_LOOP(Class)                                                      \
  bool Traverse##Class(Class *S, DataRecursionQueue *Q = nullptr) {            \
    Loops.push_back(S);                                                        \
    bool R = RecursiveASTVisitor::Traverse##Class(S, Q);                       \
    Loops.pop_back();                                                          \
    return R;                                                                  \
  }
  OMPDP_LOOP(ForStmt)
  OMPDP_LOOP(WhileStmt)
  OMPDP_LOOP(DoStmt)
  OMPDP_LOOP(CXXForRangeStmt)
#undef OMPDP_LOOP

  bool VisitOMPExecutableDirective(OMPExecutableDirective *D);

private:
  Pos pos(SourceLocation L) const {
    Pos P;
    if (L.isInvalid())
      return P;
    PresumedLoc PL = SM.getPresumedLoc(L);
    if (PL.isInvalid())
      return P;
    P.Line = PL.getLine();
    P.Column = PL.getColumn();
    return P;
  }
  /// End of the last token of a range, as a presumed location.
  Pos endPos(SourceLocation L) const {
    if (L.isInvalid())
      return Pos();
    SourceLocation E = SM.getExpansionRange(L).getEnd();
    E = Lexer::getLocForEndOfToken(E, 0, SM, Ctx.getLangOpts());
    return pos(E.isValid() ? E : L);
  }
  /// Text of a range as written; empty if it is not one contiguous piece.
  std::string text(SourceRange R) const {
    if (R.isInvalid())
      return "";
    SourceLocation B = SM.getSpellingLoc(R.getBegin());
    SourceLocation E = SM.getSpellingLoc(R.getEnd());
    if (SM.getFileID(B) != SM.getFileID(E))
      return "";
    bool Invalid = false;
    StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(B, E),
                                       SM, Ctx.getLangOpts(), &Invalid);
    if (Invalid)
      return "";
    // One line for people: collapse whitespace runs.
    std::string Out;
    bool Space = false;
    for (char C : T) {
      if (C == '\\' || C == '\n' || C == '\r' || C == '\t' || C == ' ') {
        Space = true;
        continue;
      }
      if (Space && !Out.empty())
        Out.push_back(' ');
      Space = false;
      Out.push_back(C);
    }
    return Out;
  }
  std::string printed(const Expr *E) const {
    std::string S;
    llvm::raw_string_ostream OS(S);
    E->printPretty(OS, nullptr, Policy);
    return S;
  }
  /// The variable an item names: the item without its array sections and
  /// subscripts (u[0:n] -> u, s.a[0:s.n] -> s.a, this->x[0:n] -> this->x).
  std::string baseName(const Expr *E) const {
    for (;;) {
      E = E->IgnoreParenImpCasts();
      if (auto *AS = dyn_cast<ArraySectionExpr>(E))
        E = AS->getBase();
      else if (auto *AE = dyn_cast<ArraySubscriptExpr>(E))
        E = AE->getBase();
      else if (auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref)
        E = UO->getSubExpr();
      else if (auto *SH = dyn_cast<OMPArrayShapingExpr>(E))
        E = SH->getBase();
      else
        break;
    }
    return printed(E);
  }
  const ValueDecl *baseDecl(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    if (auto *DRE = dyn_cast<DeclRefExpr>(E))
      return DRE->getDecl();
    if (auto *ME = dyn_cast<MemberExpr>(E)) {
      if (isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        return ME->getMemberDecl();
      return baseDecl(ME->getBase());
    }
    if (auto *AS = dyn_cast<ArraySectionExpr>(E))
      return baseDecl(AS->getBase());
    if (auto *AE = dyn_cast<ArraySubscriptExpr>(E))
      return baseDecl(AE->getBase());
    if (auto *UO = dyn_cast<UnaryOperator>(E))
      return baseDecl(UO->getSubExpr());
    if (auto *SH = dyn_cast<OMPArrayShapingExpr>(E))
      return baseDecl(SH->getBase());
    return nullptr;
  }

  void addUncoveredCaptures(Region &R, OMPExecutableDirective *D);
  void addListItems(Region &R, const OMPClause *C, ArrayRef<const Expr *> Vars,
                    uint32_t Type, uint32_t Mods, StringRef Head);

  ASTContext &Ctx;
  SourceManager &SM;
  TableBuilder &Table;
  PrintingPolicy Policy;
  std::vector<const Stmt *> Loops;
  const FunctionDecl *Fn = nullptr;
};

uint32_t constructKind(OpenMPDirectiveKind K) {
  switch (K) {
  case llvm::omp::OMPD_target_data:
    return CK_TARGET_DATA;
  case llvm::omp::OMPD_target_enter_data:
    return CK_TARGET_ENTER_DATA;
  case llvm::omp::OMPD_target_exit_data:
    return CK_TARGET_EXIT_DATA;
  case llvm::omp::OMPD_target_update:
    return CK_TARGET_UPDATE;
  default:
    return isOpenMPTargetExecutionDirective(K) ? CK_TARGET : CK_UNKNOWN;
  }
}

uint32_t mapType(OpenMPMapClauseKind K) {
  switch (K) {
  case OMPC_MAP_to:
    return MT_TO;
  case OMPC_MAP_from:
    return MT_FROM;
  case OMPC_MAP_tofrom:
  case OMPC_MAP_unknown: // no map-type given: tofrom
    return MT_TOFROM;
  case OMPC_MAP_alloc:
    return MT_ALLOC;
  case OMPC_MAP_release:
    return MT_RELEASE;
  case OMPC_MAP_delete:
    return MT_DELETE;
  default:
    return MT_NONE;
  }
}

const char *loopKind(const Stmt *S) {
  switch (S->getStmtClass()) {
  case Stmt::ForStmtClass:
    return "for";
  case Stmt::WhileStmtClass:
    return "while";
  case Stmt::DoStmtClass:
    return "do";
  default:
    return "range-for";
  }
}

} // namespace

void Collector::addListItems(Region &R, const OMPClause *C,
                             ArrayRef<const Expr *> Vars, uint32_t Type,
                             uint32_t Mods, StringRef Head) {
  bool Implicit = C->isImplicit() || C->getBeginLoc().isInvalid();
  std::string ClauseText;
  if (!Implicit)
    ClauseText = text(SourceRange(C->getBeginLoc(), C->getEndLoc()));
  if (ClauseText.empty()) {
    // Synthesize: "implicit map(tofrom: a, b)".
    llvm::raw_string_ostream OS(ClauseText);
    if (Implicit)
      OS << "implicit ";
    OS << Head;
    for (size_t I = 0; I < Vars.size(); ++I)
      OS << (I ? ", " : "") << printed(Vars[I]);
    OS << ")";
  }
  if (Implicit)
    Mods |= MM_IMPLICIT;
  for (const Expr *E : Vars) {
    Item It;
    if (Implicit) // one implicit clause per item, as a person would write it
      ClauseText = ("implicit " + Head + printed(E) + ")").str();
    It.Name = baseName(E);
    It.Expr = Implicit ? "" : text(E->getSourceRange());
    if (It.Expr.empty())
      It.Expr = printed(E);
    It.Clause = ClauseText;
    It.MapType = Type;
    It.Modifiers = Mods;
    // Key of Clang's .offload_mapnames entry: the expression printed (the
    // declaration's name for implicit items) at the declaration.
    const ValueDecl *VD = baseDecl(E);
    It.MatchName = (Implicit && VD) ? VD->getNameAsString() : printed(E);
    if (VD)
      It.Decl = pos(VD->getLocation());
    if (!Implicit) {
      It.ClauseBegin = pos(C->getBeginLoc());
      It.ClauseEnd = endPos(C->getEndLoc());
      It.ItemBegin = pos(E->getBeginLoc());
      It.ItemEnd = endPos(E->getEndLoc());
    }
    R.Items.push_back(std::move(It));
  }
}

bool Collector::VisitOMPExecutableDirective(OMPExecutableDirective *D) {
  uint32_t Kind = constructKind(D->getDirectiveKind());
  if (Kind == CK_UNKNOWN)
    return true;
  Region R;
  R.Kind = Kind;
  SourceLocation B = D->getBeginLoc();
  PresumedLoc PL = SM.getPresumedLoc(B);
  if (PL.isValid())
    R.File = PL.getFilename();
  R.Begin = pos(B);
  R.End = pos(D->getEndLoc());
  R.Id = regionId(R.File, R.Begin.Line, R.Begin.Column, Kind);
  if (Fn)
    R.Function = Fn->getQualifiedNameAsString();
  if (B.isMacroID())
    R.Flags |= RF_IN_MACRO;
  if (Fn && Fn->isTemplateInstantiation())
    R.Flags |= RF_IN_TEMPLATE;
  if (D->hasClausesOfKind<OMPNowaitClause>())
    R.Flags |= RF_NOWAIT;
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    R.LoopKind = loopKind(L);
    R.LoopBegin = pos(L->getBeginLoc());
    R.LoopEnd = endPos(L->getEndLoc());
  }

  auto Vars = [](auto *C) {
    std::vector<const Expr *> V;
    for (const Expr *E : C->varlists())
      V.push_back(E);
    return V;
  };
  for (const OMPClause *C : D->clauses()) {
    if (auto *M = dyn_cast<OMPMapClause>(C)) {
      uint32_t Mods = 0;
      for (OpenMPMapModifierKind K : M->getMapTypeModifiers()) {
        if (K == OMPC_MAP_MODIFIER_always)
          Mods |= MM_ALWAYS;
        else if (K == OMPC_MAP_MODIFIER_close)
          Mods |= MM_CLOSE;
        else if (K == OMPC_MAP_MODIFIER_present)
          Mods |= MM_PRESENT;
        else if (K == OMPC_MAP_MODIFIER_mapper)
          Mods |= MM_MAPPER;
      }
      uint32_t T = mapType(M->getMapType());
      std::string Head = std::string("map(") + mapTypeName(T) + ": ";
      addListItems(R, C, Vars(M), T, Mods, Head);
    } else if (auto *To = dyn_cast<OMPToClause>(C)) {
      uint32_t Mods = 0;
      for (OpenMPMotionModifierKind K : To->getMotionModifiers())
        Mods |= K == OMPC_MOTION_MODIFIER_present  ? MM_PRESENT
                : K == OMPC_MOTION_MODIFIER_mapper ? MM_MAPPER
                                                   : 0;
      addListItems(R, C, Vars(To), MT_UPDATE_TO, Mods, "to(");
    } else if (auto *From = dyn_cast<OMPFromClause>(C)) {
      uint32_t Mods = 0;
      for (OpenMPMotionModifierKind K : From->getMotionModifiers())
        Mods |= K == OMPC_MOTION_MODIFIER_present  ? MM_PRESENT
                : K == OMPC_MOTION_MODIFIER_mapper ? MM_MAPPER
                                                   : 0;
      addListItems(R, C, Vars(From), MT_UPDATE_FROM, Mods, "from(");
    } else if (auto *FP = dyn_cast<OMPFirstprivateClause>(C)) {
      addListItems(R, C, Vars(FP), MT_FIRSTPRIVATE, 0, "firstprivate(");
    } else if (auto *IDP = dyn_cast<OMPIsDevicePtrClause>(C)) {
      addListItems(R, C, Vars(IDP), MT_IS_DEVICE_PTR, 0, "is_device_ptr(");
    } else if (auto *HDA = dyn_cast<OMPHasDeviceAddrClause>(C)) {
      addListItems(R, C, Vars(HDA), MT_HAS_DEVICE_ADDR, 0,
                   "has_device_addr(");
    }
  }
  if (Kind == CK_TARGET)
    addUncoveredCaptures(R, D);
  Table.add(std::move(R));
  return true;
}

/// Variables a target region captures without naming them in any clause
/// (scalars passed by value, pointers, `this`): codegen maps them too.
void Collector::addUncoveredCaptures(Region &R, OMPExecutableDirective *D) {
  if (!D->hasAssociatedStmt())
    return;
  const CapturedStmt *CS = D->getCapturedStmt(llvm::omp::OMPD_target);
  if (!CS)
    return;
  llvm::SmallPtrSet<const Decl *, 8> Covered;
  for (const OMPClause *C : D->clauses())
    for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
      if (auto *E = dyn_cast_or_null<Expr>(Child))
        if (const ValueDecl *VD = baseDecl(E))
          Covered.insert(VD->getCanonicalDecl());
  for (const CapturedStmt::Capture &Cap : CS->captures()) {
    Item It;
    It.Modifiers = MM_IMPLICIT;
    if (Cap.capturesThis()) {
      It.Name = It.Expr = It.MatchName = "this";
      It.MapType = MT_TOFROM;
      It.Clause = "implicit map(tofrom: this[:1])";
    } else if (Cap.capturesVariable() || Cap.capturesVariableByCopy()) {
      const VarDecl *VD = Cap.getCapturedVar();
      if (Covered.count(VD->getCanonicalDecl()))
        continue;
      It.Name = It.Expr = It.MatchName = VD->getNameAsString();
      It.Decl = pos(VD->getLocation());
      bool ByCopy = Cap.capturesVariableByCopy();
      It.MapType = ByCopy ? MT_FIRSTPRIVATE : MT_TOFROM;
      It.Clause = (ByCopy ? "implicit firstprivate(" : "implicit map(tofrom: ") +
                  It.Name + ")";
    } else {
      continue;
    }
    R.Items.push_back(std::move(It));
  }
}

void ompdp::collectRegions(ASTContext &Ctx, TableBuilder &Table) {
  Collector(Ctx, Table).TraverseDecl(Ctx.getTranslationUnitDecl());
}
