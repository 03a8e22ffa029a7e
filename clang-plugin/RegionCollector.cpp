//===- RegionCollector.cpp - find offload constructs and mark them -------===//
//
// A RecursiveASTVisitor keeps a stack of the loops around the current
// statement (reset at every function or lambda body, since a loop around a
// lambda's definition does not repeat the lambda's body), the function it is
// in, the innermost function-like context (function, lambda, OpenMP captured
// region) and the statements above it. Template instantiations are visited,
// not patterns: Sema adds the implicit map clauses only once types are
// known, and code generation only ever emits instantiations.
//
// Markers. Without debug info Clang's offload calls say nothing about where
// they come from, and turning debug info on makes OpenMP code generation
// quadratic in the number of constructs. So before code generation sees a
// function, each directive D is replaced by `{ M; D }`, where
//   M = __ompdp_marker(<region index>, &<variable of item 0>, ...)
// calls an internal no-op function (null where an item has no variable
// worth comparing). Code generation emits the call right before the
// directive's code, in the same function; the pass finds each offload
// call's region by the nearest marker before it, matches the call's map
// arguments to items by comparing the address computations, and deletes
// the markers and the function. The AST is only changed in code that
// nothing is instantiated from.
//
//===----------------------------------------------------------------------===//
#include "RegionCollector.h"

#include "AccessAnalysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/xxhash.h"

#include <functional>
#include <unordered_map>

using namespace clang;
using namespace ompdp;

namespace {

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

/// Text with every run of white space (and line continuation) made one
/// blank, none at either end, as text() records clauses.
std::string collapseSpace(StringRef T) {
  std::string Out;
  bool Space = false;
  for (char C : T) {
    if (C == '\\' || C == '\n' || C == '\r' || C == '\t' || C == ' ' ||
        C == '\f' || C == '\v') {
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

/// The storage an item names: the item without its array sections,
/// subscripts and dereferences (u[0:n] -> u, s.a[0:s.n] -> s.a,
/// this->x[0:n] -> this->x, *p -> p).
const Expr *stripToVariable(const Expr *E) {
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
      return E;
  }
}

/// A jump out of S when it is a loop body or a block's statement
/// (break/continue not inside a nested loop or switch; return, goto), or,
/// with Labels, a label in it (a goto from outside may jump in).
bool leavesIteration(const Stmt *S, bool Nested = false, bool Labels = false) {
  if (!S)
    return false;
  if (Labels && isa<LabelStmt>(S))
    return true;
  if (isa<ReturnStmt, GotoStmt, IndirectGotoStmt, CXXThrowExpr,
          CoreturnStmt>(S))
    return true;
  if (!Nested && isa<BreakStmt, ContinueStmt>(S))
    return true;
  if (isa<OMPExecutableDirective>(S) &&
      isOpenMPTargetExecutionDirective(
          cast<OMPExecutableDirective>(S)->getDirectiveKind()))
    return false; // device code
  bool Inner = Nested || isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt,
                             SwitchStmt>(S);
  for (const Stmt *C : S->children())
    if (leavesIteration(C, Inner, Labels))
      return true;
  return false;
}

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

class RegionCollector::Impl : public RecursiveASTVisitor<Impl> {
  using Base = RecursiveASTVisitor<Impl>;

public:
  Impl(CompilerInstance &CI, TableBuilder &Table, bool Markers)
      : Ctx(CI.getASTContext()), SM(Ctx.getSourceManager()), Table(Table),
        Markers(Markers), Policy(Ctx.getLangOpts()) {}

  void handle(Decl *D) {
    if (!D || Ctx.getDiagnostics().hasErrorOccurred())
      return;
    Loops.clear();
    Parents.clear();
    Contexts.clear();
    Fn = nullptr;
    TraverseDecl(D);
  }

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }

  // No data recursion: children must be traversed while the stacks still
  // hold their loops and parents, not queued for later.
  bool TraverseStmt(Stmt *S, DataRecursionQueue * = nullptr) {
    if (!S)
      return true;
    Parents.push_back(S);
    bool R;
    // A target region's body is device code, where no construct that maps
    // data may appear: only the directive itself matters.
    if (auto *D = dyn_cast<OMPExecutableDirective>(S);
        D && isOpenMPTargetExecutionDirective(D->getDirectiveKind()))
      R = VisitOMPExecutableDirective(D);
    else
      R = Base::TraverseStmt(S, nullptr);
    Parents.pop_back();
    return R;
  }

  bool TraverseDecl(Decl *D) {
    if (auto *CD = dyn_cast_or_null<CapturedDecl>(D)) {
      Contexts.push_back(CD);
      bool R = Base::TraverseDecl(D);
      Contexts.pop_back();
      return R;
    }
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return Base::TraverseDecl(D);
    // Dependent code has no implicit clauses yet; its instantiations do. It
    // must not be changed either: instantiations are copied from it.
    if (FD->isDependentContext())
      return true;
    std::vector<const Stmt *> SavedLoops;
    SavedLoops.swap(Loops);
    std::vector<Stmt *> SavedParents;
    SavedParents.swap(Parents);
    const FunctionDecl *SavedFn = Fn;
    Fn = FD;
    Contexts.push_back(FD);
    bool R = Base::TraverseDecl(D);
    Contexts.pop_back();
    Fn = SavedFn;
    Parents.swap(SavedParents);
    Loops.swap(SavedLoops);
    return R;
  }

  bool TraverseLambdaExpr(LambdaExpr *LE, DataRecursionQueue *Q = nullptr) {
    // A generic lambda's body is a pattern; its instantiations reach
    // handle() as functions of their own.
    if (LE->isGenericLambda() || LE->getCallOperator()->isDependentContext())
      return true;
    std::vector<const Stmt *> SavedLoops;
    SavedLoops.swap(Loops);
    Contexts.push_back(LE->getCallOperator());
    bool R = Base::TraverseLambdaExpr(LE, Q);
    Contexts.pop_back();
    Loops.swap(SavedLoops);
    return R;
  }

#define OMPDP_LOOP(Class)                                                      \
  bool Traverse##Class(Class *S, DataRecursionQueue *Q = nullptr) {            \
    Loops.push_back(S);                                                        \
    bool R = Base::Traverse##Class(S, Q);                                      \
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
  /// A region under construction and, per item, the address expression of
  /// its variable for the item marker (null: no marker).
  struct Pending {
    Region R;
    std::vector<Expr *> Addr;
    std::vector<StoragePath> Storage; // per item, for the access analysis
    FileID File; // where the directive is written (its expansion)
  };

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
  /// Just past the last token of a range (in the expansion).
  SourceLocation endOfToken(SourceLocation L) const {
    if (L.isInvalid())
      return L;
    SourceLocation E = SM.getExpansionRange(L).getEnd();
    SourceLocation After =
        Lexer::getLocForEndOfToken(E, 0, SM, Ctx.getLangOpts());
    return After.isValid() ? After : E;
  }
  Pos endPos(SourceLocation L) const { return pos(endOfToken(L)); }
  /// Bytes [B, E) of file F, both taken at their expansion; {} when they are
  /// not both in F.
  Span span(FileID F, SourceLocation B, SourceLocation E) const {
    if (B.isInvalid() || E.isInvalid())
      return Span();
    B = SM.getExpansionLoc(B);
    E = SM.getExpansionLoc(E);
    if (SM.getFileID(B) != F || SM.getFileID(E) != F)
      return Span();
    unsigned OB = SM.getFileOffset(B), OE = SM.getFileOffset(E);
    if (OE < OB)
      return Span();
    return Span{OB, OE - OB};
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
    StringRef T = Lexer::getSourceText(CharSourceRange::getTokenRange(B, E), SM,
                                       Ctx.getLangOpts(), &Invalid);
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
  /// The variable an item names, as written (u, s.a, this->x).
  std::string baseName(const Expr *E) const {
    return printed(stripToVariable(E));
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

  void fillSource(Pending &P, OMPExecutableDirective *D);
  void fillStatement(Pending &P, OMPExecutableDirective *D);
  void fillHostAccesses(Pending &P, OMPExecutableDirective *D);
  SourceLocation stmtEnd(const Stmt *S) const;
  SourceRange stmtRange(const Stmt *S) const;
  bool ownLines(SourceLocation B, SourceLocation E) const;
  void addUncoveredCaptures(Pending &P, OMPExecutableDirective *D);
  void fillFacts(Item &It, const Expr *E, QualType VarTy) const;
  void addListItems(Pending &P, const OMPClause *C, ArrayRef<const Expr *> Vars,
                    uint32_t Type, uint32_t Mods, StringRef Head);

  // Markers.
  Expr *itemAddress(const Expr *E, bool Implicit, SourceLocation L);
  Expr *varRef(VarDecl *VD, SourceLocation L);
  FunctionDecl *markerDecl();
  bool insertMarkers(OMPExecutableDirective *D, uint32_t Index,
                     const std::vector<Expr *> &Addr, size_t NumItems);
  void warnUnmarked(OMPExecutableDirective *D);

  ASTContext &Ctx;
  SourceManager &SM;
  TableBuilder &Table;
  bool Markers;
  PrintingPolicy Policy;
  std::vector<const Stmt *> Loops;
  std::vector<Stmt *> Parents;
  std::vector<const DeclContext *> Contexts;
  const FunctionDecl *Fn = nullptr;
  llvm::DenseSet<const Stmt *> Done;

public:
  FunctionDecl *MarkerFD = nullptr;

private:
  llvm::DenseMap<FileID, uint64_t> FileHashes;
  struct EntryKey {
    uint64_t Device = 0, Inode = 0;
    bool Physical = false; // the presumed file does not exist
  };
  llvm::StringMap<EntryKey> EntryKeys;
};

/// Where the directive's text is, and the key of the kernel's entry name:
/// Clang names a kernel after the unique ID (device, inode) of the presumed
/// file and the presumed line, or of the physical ones when the presumed
/// file does not exist (a #line to a name that is not a file).
void RegionCollector::Impl::fillSource(Pending &P, OMPExecutableDirective *D) {
  Region &R = P.R;
  SourceLocation B = D->getBeginLoc();
  FileID F = SM.getFileID(SM.getExpansionLoc(B));
  P.File = F;
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(F))
    R.SourceFile = FE->getName().str();
  else
    R.SourceFile = SM.getBufferName(SM.getExpansionLoc(B)).str();
  auto [HI, New] = FileHashes.try_emplace(F, 0);
  if (New) {
    bool Invalid = false;
    StringRef Data = SM.getBufferData(F, &Invalid);
    HI->second = Invalid ? 0 : llvm::xxh3_64bits(Data);
  }
  R.FileHash = HI->second;
  // The directive ends at its end of line (the annotation's end token); one
  // from a macro ends with the macro's invocation.
  SourceLocation E = D->getEndLoc();
  R.DirectiveBytes = span(F, B, E.isMacroID() ? endOfToken(E) : E);
  // The directive as written, and the clauses no item records, so that a
  // rewrite can check and keep what it does not otherwise know.
  if (R.DirectiveBytes.Length && !B.isMacroID()) {
    bool Invalid = false;
    StringRef Data = SM.getBufferData(F, &Invalid);
    if (!Invalid && uint64_t(R.DirectiveBytes.Offset) + R.DirectiveBytes.Length <=
                        Data.size())
      R.Directive = collapseSpace(
          Data.substr(R.DirectiveBytes.Offset, R.DirectiveBytes.Length));
  }
  for (const OMPClause *C : D->clauses()) {
    if (C->isImplicit() || C->getBeginLoc().isInvalid() ||
        isa<OMPMapClause, OMPToClause, OMPFromClause, OMPFirstprivateClause,
            OMPIsDevicePtrClause, OMPHasDeviceAddrClause>(C))
      continue;
    std::string T = text(SourceRange(C->getBeginLoc(), C->getEndLoc()));
    if (!T.empty())
      R.OtherClauses += (R.OtherClauses.empty() ? "" : " ") + T;
  }
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    R.LoopBytes = span(F, L->getBeginLoc(), endOfToken(L->getEndLoc()));
  }
  if (R.Kind != CK_TARGET)
    return;
  PresumedLoc PL = SM.getPresumedLoc(B);
  if (PL.isInvalid())
    return;
  auto [KI, NewKey] = EntryKeys.try_emplace(PL.getFilename());
  if (NewKey) {
    llvm::sys::fs::UniqueID ID;
    if (llvm::sys::fs::getUniqueID(PL.getFilename(), ID)) {
      KI->second.Physical = true;
      PresumedLoc Phys = SM.getPresumedLoc(B, /*UseLineDirectives=*/false);
      if (Phys.isValid() && !llvm::sys::fs::getUniqueID(Phys.getFilename(), ID))
        KI->second.Device = ID.getDevice(), KI->second.Inode = ID.getFile();
    } else {
      KI->second.Device = ID.getDevice();
      KI->second.Inode = ID.getFile();
    }
  }
  R.FileDevice = KI->second.Device;
  R.FileInode = KI->second.Inode;
  R.OffloadLine = KI->second.Physical ? SM.getPresumedLoc(B, false).getLine()
                                      : PL.getLine();
}

void RegionCollector::Impl::addListItems(Pending &P, const OMPClause *C,
                                         ArrayRef<const Expr *> Vars,
                                         uint32_t Type, uint32_t Mods,
                                         StringRef Head) {
  Region &R = P.R;
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
  FileID F = P.File;
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
    fillFacts(It, E, QualType());
    // Key of Clang's .offload_mapnames entry (with -g): the expression
    // printed (the declaration's name for implicit items) at the
    // declaration.
    const ValueDecl *VD = baseDecl(E);
    It.MatchName = (Implicit && VD) ? VD->getNameAsString() : printed(E);
    if (VD)
      It.Decl = pos(VD->getLocation());
    if (!Implicit) {
      It.ClauseBegin = pos(C->getBeginLoc());
      It.ClauseEnd = endPos(C->getEndLoc());
      It.ItemBegin = pos(E->getBeginLoc());
      It.ItemEnd = endPos(E->getEndLoc());
      It.ClauseBytes = span(F, C->getBeginLoc(), endOfToken(C->getEndLoc()));
      It.ItemBytes = span(F, E->getBeginLoc(), endOfToken(E->getEndLoc()));
    }
    R.Items.push_back(std::move(It));
    P.Storage.push_back(StoragePath::ofItem(E));
    // Firstprivate scalars are passed by value: no data to attribute.
    bool ByValue = Type == MT_FIRSTPRIVATE && !E->getType()->isArrayType() &&
                   !E->getType()->isRecordType();
    P.Addr.push_back(Markers && !ByValue
                         ? itemAddress(E, Implicit, C->getBeginLoc())
                         : nullptr);
  }
}

bool RegionCollector::Impl::VisitOMPExecutableDirective(
    OMPExecutableDirective *D) {
  uint32_t Kind = constructKind(D->getDirectiveKind());
  if (Kind == CK_UNKNOWN || !Done.insert(D).second)
    return true;
  Pending P;
  Region &R = P.R;
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
  if (D->hasClausesOfKind<OMPDependClause>())
    R.Flags |= RF_DEPEND;
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    R.LoopKind = loopKind(L);
    R.LoopBegin = pos(L->getBeginLoc());
    R.LoopEnd = endPos(L->getEndLoc());
  }
  fillSource(P, D);
  fillStatement(P, D);

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
      addListItems(P, C, Vars(M), T, Mods, Head);
    } else if (auto *To = dyn_cast<OMPToClause>(C)) {
      uint32_t Mods = 0;
      for (OpenMPMotionModifierKind K : To->getMotionModifiers())
        Mods |= K == OMPC_MOTION_MODIFIER_present  ? MM_PRESENT
                : K == OMPC_MOTION_MODIFIER_mapper ? MM_MAPPER
                                                   : 0;
      addListItems(P, C, Vars(To), MT_UPDATE_TO, Mods, "to(");
    } else if (auto *From = dyn_cast<OMPFromClause>(C)) {
      uint32_t Mods = 0;
      for (OpenMPMotionModifierKind K : From->getMotionModifiers())
        Mods |= K == OMPC_MOTION_MODIFIER_present  ? MM_PRESENT
                : K == OMPC_MOTION_MODIFIER_mapper ? MM_MAPPER
                                                   : 0;
      addListItems(P, C, Vars(From), MT_UPDATE_FROM, Mods, "from(");
    } else if (auto *FP = dyn_cast<OMPFirstprivateClause>(C)) {
      addListItems(P, C, Vars(FP), MT_FIRSTPRIVATE, 0, "firstprivate(");
    } else if (auto *IDP = dyn_cast<OMPIsDevicePtrClause>(C)) {
      addListItems(P, C, Vars(IDP), MT_IS_DEVICE_PTR, 0, "is_device_ptr(");
    } else if (auto *HDA = dyn_cast<OMPHasDeviceAddrClause>(C)) {
      addListItems(P, C, Vars(HDA), MT_HAS_DEVICE_ADDR, 0, "has_device_addr(");
    }
  }
  if (Kind == CK_TARGET) {
    addUncoveredCaptures(P, D);
    std::vector<uint32_t> Access = analyzeAccesses(D, P.Storage);
    for (size_t I = 0; I < R.Items.size() && I < Access.size(); ++I)
      R.Items[I].Access = Access[I];
  }
  fillHostAccesses(P, D);
  size_t NumItems = R.Items.size();
  bool Added = false;
  uint32_t Index = Table.add(std::move(R), Added);
  // An instantiation of a template already seen shares its region; its
  // items are the same list.
  if (!Added)
    NumItems = std::min(NumItems, Table.regions()[Index].Items.size());
  if (Markers && !insertMarkers(D, Index, P.Addr, NumItems))
    warnUnmarked(D);
  return true;
}

/// Just past the last token of S, its ';' included (an expression
/// statement's range ends before it).
SourceLocation RegionCollector::Impl::stmtEnd(const Stmt *S) const {
  SourceLocation E = endOfToken(S->getEndLoc());
  if (E.isInvalid() || !E.isFileID())
    return E;
  bool Invalid = false;
  const char *C = SM.getCharacterData(E, &Invalid);
  if (Invalid)
    return E;
  unsigned Skip = 0;
  while (C[Skip] == ' ' || C[Skip] == '\t')
    ++Skip;
  if (C[Skip] == ';')
    return E.getLocWithOffset(Skip + 1);
  return E;
}

/// Where statement S is written: a directive from its `#pragma` through
/// its associated statement, the marker wrapper `{ M; D }` as D.
SourceRange RegionCollector::Impl::stmtRange(const Stmt *S) const {
  if (auto *CS = dyn_cast<CompoundStmt>(S);
      CS && CS->size() == 2 && Done.count(CS))
    S = CS->body_back();
  if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    // Standalone directives (target update, enter/exit data) may carry an
    // empty captured statement (for their task): they end with their line.
    const Stmt *Body =
        D->hasAssociatedStmt() && !D->isStandaloneDirective()
            ? D->getInnermostCapturedStmt()->getCapturedStmt()
            : nullptr;
    // The body may be a directive itself (target + parallel for).
    return SourceRange(D->getBeginLoc(),
                       Body ? stmtRange(Body).getEnd() : D->getEndLoc());
  }
  return SourceRange(S->getBeginLoc(), stmtEnd(S));
}

/// S is written on lines of its own: only blanks before it on its first
/// line, only blanks or a // comment after it on its last, and no macro.
bool RegionCollector::Impl::ownLines(SourceLocation B, SourceLocation E) const {
  if (B.isInvalid() || E.isInvalid() || !B.isFileID() || !E.isFileID())
    return false;
  bool Invalid = false;
  const char *Begin = SM.getCharacterData(B, &Invalid);
  if (Invalid)
    return false;
  unsigned Col = SM.getColumnNumber(SM.getFileID(B), SM.getFileOffset(B));
  for (unsigned K = 1; K < Col; ++K)
    if (Begin[-int(K)] != ' ' && Begin[-int(K)] != '\t')
      return false;
  const char *End = SM.getCharacterData(E, &Invalid);
  if (Invalid)
    return false;
  while (*End == ' ' || *End == '\t')
    ++End;
  return *End == '\n' || *End == '\r' || *End == '\0' ||
         (End[0] == '/' && End[1] == '/');
}

/// The construct's statement (the directive through its associated
/// statement) and the compound statement it is directly in.
void RegionCollector::Impl::fillStatement(Pending &P,
                                          OMPExecutableDirective *D) {
  Region &R = P.R;
  // A standalone directive ends with its line (its end location).
  SourceRange SR = stmtRange(D);
  SourceLocation B = SR.getBegin(), After = SR.getEnd();
  R.StmtBegin = pos(B);
  R.StmtEnd = pos(After);
  R.StmtBytes = span(P.File, B, After);
  if (ownLines(B, After))
    R.Flags |= RF_OWN_LINES;
  if (Parents.size() >= 2)
    if (auto *CS = dyn_cast<CompoundStmt>(Parents[Parents.size() - 2])) {
      Span Brace = span(P.File, CS->getLBracLoc(), CS->getLBracLoc());
      if (CS->getLBracLoc().isValid() &&
          SM.getFileID(SM.getExpansionLoc(CS->getLBracLoc())) == P.File) {
        R.Block = Brace.Offset + 1;
        uint32_t I = 0, Decls = 0, Jumps = 0;
        for (const Stmt *S : CS->body()) {
          if (S == D) {
            R.BlockIndex = I;
            R.BlockDecls = Decls;
            R.BlockJumps = Jumps;
            break;
          }
          ++I;
          Decls += isa<DeclStmt>(S);
          Jumps += leavesIteration(S, false, true);
        }
      }
    }
}

/// Host code around the construct that uses its items: the statements of
/// the innermost loop's body (and its condition and increment), or, for a
/// construct in no loop, of the block it is directly in.
void RegionCollector::Impl::fillHostAccesses(Pending &P,
                                             OMPExecutableDirective *D) {
  Region &R = P.R;
  const Stmt *Scope = nullptr; // the loop body or the block
  std::vector<const Stmt *> Header;
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    if (auto *F = dyn_cast<ForStmt>(L)) {
      Scope = F->getBody();
      Header = {F->getConditionVariableDeclStmt(), F->getCond(), F->getInc()};
    } else if (auto *W = dyn_cast<WhileStmt>(L)) {
      Scope = W->getBody();
      Header = {W->getConditionVariableDeclStmt(), W->getCond()};
    } else if (auto *Do = dyn_cast<DoStmt>(L)) {
      Scope = Do->getBody();
      Header = {Do->getCond()};
    } else if (auto *RF = dyn_cast<CXXForRangeStmt>(L)) {
      Scope = RF->getBody();
      Header = {RF->getCond(), RF->getInc(), RF->getLoopVarStmt()};
    }
  } else if (Parents.size() >= 2 &&
             isa<CompoundStmt>(Parents[Parents.size() - 2])) {
    Scope = Parents[Parents.size() - 2];
  }
  if (!Scope)
    return;
  // Which items: those with storage on both sides.
  std::vector<size_t> Which;
  std::vector<StoragePath> Paths;
  for (size_t I = 0; I < R.Items.size() && I < P.Storage.size(); ++I) {
    uint32_t T = R.Items[I].MapType;
    if (T == MT_FIRSTPRIVATE || T == MT_IS_DEVICE_PTR ||
        T == MT_HAS_DEVICE_ADDR || T == MT_NONE)
      continue;
    Which.push_back(I);
    Paths.push_back(P.Storage[I]);
  }
  if (Which.empty())
    return;
  auto *Body = dyn_cast<CompoundStmt>(Scope);
  bool DirectlyIn = Body && Parents.size() >= 2 &&
                    Parents[Parents.size() - 2] == Body;
  bool EveryTime = !Loops.empty() && DirectlyIn && !leavesIteration(Body);
  // The construct runs in every iteration that starts (nothing before it
  // leaves the iteration): a statement of the body runs at most once for
  // each execution of it.
  bool AtMostOnce = !Loops.empty() && DirectlyIn;
  if (AtMostOnce)
    for (const Stmt *S : Body->body()) {
      if (S == D || std::find(Parents.begin(), Parents.end(), S) != Parents.end())
        break;
      if (leavesIteration(S, false, true)) {
        AtMostOnce = false;
        break;
      }
    }
  uint32_t DOffset = SM.getFileOffset(SM.getExpansionLoc(D->getBeginLoc()));
  // What each statement does with each item, analysed once per statement
  // (the branches below ask again for every item). Node-based: references
  // stay valid as it grows.
  std::unordered_map<const Stmt *, std::vector<uint32_t>> Analysed;
  auto Accesses = [&](const Stmt *S) -> const std::vector<uint32_t> & {
    auto [At, New] = Analysed.try_emplace(S);
    if (New) {
      At->second = analyzeHostAccesses(S, D, Paths);
      for (size_t K = 0; K < Which.size(); ++K)
        if (!P.Storage[Which[K]].Valid) // storage unknown: any statement may use it
          At->second[K] = AC_READ_WRITE;
    }
    return At->second;
  };
  // One record per item K with Want[K] (all when Want is null) that the
  // statements Ss (adjacent, in order) use, for B..E.
  auto Record = [&](llvm::ArrayRef<const Stmt *> Ss, SourceLocation B,
                    SourceLocation E, uint32_t Flags,
                    const std::vector<char> *Want = nullptr) {
    std::vector<uint32_t> Acc(Which.size(), AC_NONE);
    bool Leaves = false;
    for (const Stmt *S : Ss) {
      const std::vector<uint32_t> &A = Accesses(S);
      for (size_t K = 0; K < Which.size(); ++K)
        Acc[K] = Acc[K] == AC_NONE || Acc[K] == A[K] ? A[K]
                 : A[K] == AC_NONE                   ? Acc[K]
                                                     : AC_READ_WRITE;
      Leaves |= leavesIteration(S, false, true);
    }
    for (size_t K = 0; K < Which.size(); ++K) {
      Item &It = R.Items[Which[K]];
      uint32_t A = Acc[K];
      if (A == AC_NONE || A == AC_UNKNOWN || (Want && !(*Want)[K]))
        continue;
      HostAccess H;
      H.Access = A;
      H.Flags = Flags;
      // An update after a write that can leave the iteration may not run.
      if ((Flags & HA_AT_MOST_ONCE) && !(Flags & HA_EVERY_TIME) &&
          A != AC_READ && Leaves)
        H.Flags &= ~HA_STATEMENT;
      H.Begin = pos(B);
      H.End = pos(E);
      H.Bytes = span(P.File, B, E);
      if (H.Bytes.Length && H.Bytes.Offset > DOffset)
        H.Flags |= HA_AFTER;
      It.HostAccesses.push_back(H);
    }
  };
  for (const Stmt *S : Header)
    if (S)
      Record(S, S->getBeginLoc(), endOfToken(S->getEndLoc()), 0);
  std::vector<const Stmt *> Stmts;
  if (Body)
    Stmts.assign(Body->body_begin(), Body->body_end());
  else
    Stmts.push_back(Scope);
  // The braces of the one branch of an if that uses item K, when no
  // condition of it (else ifs included) does: K's uses there can have
  // updates of their own, which run only when that branch does.
  std::function<const CompoundStmt *(const Stmt *, size_t)> UsingBranch =
      [&](const Stmt *S, size_t K) -> const CompoundStmt * {
    auto *If = dyn_cast<IfStmt>(S);
    if (!If || If->isConsteval())
      return nullptr;
    for (const Stmt *C : {(const Stmt *)If->getInit(),
                          (const Stmt *)If->getConditionVariableDeclStmt(),
                          (const Stmt *)If->getCond()})
      if (C && Accesses(C)[K] != AC_NONE)
        return nullptr;
    const CompoundStmt *Found = nullptr;
    if (Accesses(If->getThen())[K] != AC_NONE &&
        !(Found = dyn_cast<CompoundStmt>(If->getThen())))
      return nullptr;
    const Stmt *Else = If->getElse();
    if (Else && Accesses(Else)[K] != AC_NONE) {
      if (Found)
        return nullptr; // two branches: one update before the if instead
      Found = isa<CompoundStmt>(Else) ? cast<CompoundStmt>(Else)
                                      : UsingBranch(Else, K);
    }
    return Found;
  };
  std::function<bool(const Stmt *)> HasDirective = [&](const Stmt *S) {
    if (!S)
      return false;
    if (isa<OMPExecutableDirective>(S))
      return true;
    for (const Stmt *C : S->children())
      if (HasDirective(C))
        return true;
    return false;
  };
  auto FlagsOf = [&](const Stmt *First, const Stmt *Last) {
    return HA_AT_MOST_ONCE |
           (ownLines(stmtRange(First).getBegin(), stmtRange(Last).getEnd())
                ? HA_STATEMENT
                : 0);
  };
  // Records S for the items in Want, with Flags; an item whose uses in S
  // lie in one branch of an if (see UsingBranch), in adjacent statements
  // with no directive among them, is recorded there instead: one record
  // for the run (one update before it and one after), or the one
  // statement, looked into again.
  std::function<void(const Stmt *, uint32_t, const std::vector<char> &)>
      Visit = [&](const Stmt *S, uint32_t Flags, const std::vector<char> &Want) {
        std::vector<char> Here = Want;
        if (Flags & HA_AT_MOST_ONCE) {
          const std::vector<uint32_t> &Acc = Accesses(S);
          for (size_t K = 0; K < Which.size(); ++K) {
            if (!Want[K] || Acc[K] == AC_NONE)
              continue;
            const CompoundStmt *CS = UsingBranch(S, K);
            if (!CS)
              continue;
            // The statements that use K: adjacent, no directive among them.
            std::vector<const Stmt *> Run;
            size_t First = 0, I = 0;
            bool Ok = true;
            for (const Stmt *Sub : CS->body()) {
              if (Accesses(Sub)[K] != AC_NONE) {
                if (Run.empty())
                  First = I;
                Ok &= I == First + Run.size() && !HasDirective(Sub);
                Run.push_back(Sub);
              }
              ++I;
            }
            if (!Ok || Run.empty())
              continue;
            Here[K] = 0;
            std::vector<char> Only(Which.size(), 0);
            Only[K] = 1;
            if (Run.size() == 1)
              Visit(Run[0], FlagsOf(Run[0], Run[0]), Only);
            else
              Record(Run, stmtRange(Run.front()).getBegin(),
                     stmtRange(Run.back()).getEnd(),
                     FlagsOf(Run.front(), Run.back()), &Only);
          }
        }
        SourceRange SR = stmtRange(S);
        Record(S, SR.getBegin(), SR.getEnd(), Flags, &Here);
      };
  const std::vector<char> All(Which.size(), 1);
  for (const Stmt *S : Stmts) {
    if (S == D)
      continue;
    bool Holds = std::find(Parents.begin(), Parents.end(), S) != Parents.end();
    uint32_t Flags = 0;
    SourceRange SR = stmtRange(S);
    if (Body && !Holds && ownLines(SR.getBegin(), SR.getEnd()))
      Flags |= HA_STATEMENT;
    if (Body && !Holds && EveryTime)
      Flags |= HA_EVERY_TIME;
    if (Body && !Holds && AtMostOnce)
      Flags |= HA_AT_MOST_ONCE;
    Visit(S, Flags, All);
  }
}

/// Variables a target region captures without naming them in any clause
/// (scalars passed by value, pointers, `this`): codegen maps them too.
void RegionCollector::Impl::addUncoveredCaptures(Pending &P,
                                                 OMPExecutableDirective *D) {
  if (!D->hasAssociatedStmt())
    return;
  const CapturedStmt *CS = D->getCapturedStmt(llvm::omp::OMPD_target);
  if (!CS)
    return;
  // Variables some clause already made an item of (a reduction variable,
  // say, is not one: codegen maps it as a capture).
  llvm::SmallPtrSet<const Decl *, 8> Covered;
  for (const OMPClause *C : D->clauses())
    if (isa<OMPMapClause, OMPToClause, OMPFromClause, OMPFirstprivateClause,
            OMPIsDevicePtrClause, OMPHasDeviceAddrClause>(C))
      for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
        if (auto *E = dyn_cast_or_null<Expr>(Child))
          if (const ValueDecl *VD = baseDecl(E))
            Covered.insert(VD->getCanonicalDecl());
  auto Field = CS->getCapturedRecordDecl()->field_begin();
  for (const CapturedStmt::Capture &Cap : CS->captures()) {
    QualType FieldTy = (*Field++)->getType();
    Item It;
    It.Modifiers = MM_IMPLICIT;
    Expr *Addr = nullptr;
    SourceLocation L = D->getBeginLoc();
    if (Cap.capturesThis()) {
      It.Name = It.Expr = It.MatchName = "this";
      It.MapType = MT_TOFROM;
      It.Clause = "implicit map(tofrom: this[:1])";
      if (Markers && FieldTy->isPointerType())
        Addr = CXXThisExpr::Create(Ctx, L, FieldTy, /*IsImplicit=*/true);
    } else if (Cap.capturesVariable() || Cap.capturesVariableByCopy()) {
      VarDecl *VD = Cap.getCapturedVar();
      if (Covered.count(VD->getCanonicalDecl()))
        continue;
      It.Name = It.Expr = It.MatchName = VD->getNameAsString();
      It.Decl = pos(VD->getLocation());
      bool ByCopy = Cap.capturesVariableByCopy();
      It.MapType = ByCopy ? MT_FIRSTPRIVATE : MT_TOFROM;
      It.Clause =
          (ByCopy ? "implicit firstprivate(" : "implicit map(tofrom: ") +
          It.Name + ")";
      if (!ByCopy)
        fillFacts(It, nullptr, VD->getType());
      if (Markers && !ByCopy)
        if (Expr *Ref = varRef(VD, L))
          Addr = UnaryOperator::Create(
              Ctx, Ref, UO_AddrOf, Ctx.getPointerType(Ref->getType()),
              VK_PRValue, OK_Ordinary, L, false, FPOptionsOverride());
    } else {
      continue;
    }
    P.R.Items.push_back(std::move(It));
    P.Addr.push_back(Addr);
    P.Storage.push_back(Cap.capturesThis()
                            ? StoragePath::ofThisObject()
                            : StoragePath::ofVariable(Cap.getCapturedVar()));
  }
}

/// What a device-side fill of the item needs (OMPDP_FILL_FLAG, for the
/// alloc_and_fill rewrite): the element type as spelled and its size, and
/// which elements: a one-dimensional section's bounds as written, or a
/// whole variable's element count. E is the item, or null for a whole
/// variable of type VarTy (an implicit capture). Anything else (strides,
/// several dimensions, variable-length or incomplete types, const
/// elements, templates) gets no fill facts.
void RegionCollector::Impl::fillFacts(Item &It, const Expr *E,
                                      QualType VarTy) const {
  QualType Elem;
  uint32_t Flags = 0;
  std::string Lower, Length;
  uint64_t Count = 0;
  if (E) {
    E = E->IgnoreParenImpCasts();
    if (auto *AS = dyn_cast<ArraySectionExpr>(E)) {
      if (!AS->isOMPArraySection() || AS->getStride() || !AS->getLength() ||
          AS->getColonLocSecond().isValid())
        return;
      const Expr *Base = AS->getBase()->IgnoreParenImpCasts();
      if (isa<ArraySectionExpr, ArraySubscriptExpr>(Base))
        return; // more than one dimension
      QualType BT = Base->getType();
      if (const auto *PT = BT->getAs<PointerType>())
        Elem = PT->getPointeeType();
      else if (const ArrayType *AT = Ctx.getAsArrayType(BT))
        Elem = AT->getElementType();
      else
        return;
      auto Written = [&](const Expr *X) {
        std::string T = text(X->getSourceRange());
        return T.empty() ? printed(X) : T;
      };
      if (AS->getLowerBound())
        Lower = Written(AS->getLowerBound());
      Length = Written(AS->getLength());
      Flags = FF_SECTION;
    } else if (isa<DeclRefExpr, MemberExpr>(E)) {
      VarTy = E->getType();
    } else {
      return;
    }
  }
  if (!Flags) {
    if (VarTy.isNull() || VarTy->isDependentType())
      return;
    if (const auto *CAT = Ctx.getAsConstantArrayType(VarTy)) {
      Elem = Ctx.getBaseElementType(VarTy);
      Count = Ctx.getConstantArrayElementCount(CAT);
    } else if (VarTy->isArrayType() || VarTy->isReferenceType()) {
      return;
    } else {
      Elem = VarTy;
      Count = 1;
    }
    if (Count == 0 || Count > UINT32_MAX)
      return;
    Flags = FF_WHOLE;
  }
  if (Elem.isNull() || Elem->isDependentType() || Elem->isIncompleteType() ||
      Elem->isVariablyModifiedType() || Elem.isConstQualified() ||
      Elem->isFunctionType())
    return;
  bool Enum = Elem->isEnumeralType();
  if ((Elem->isArithmeticType() && !(Enum && Ctx.getLangOpts().CPlusPlus)) ||
      Elem->isPointerType())
    Flags |= FF_SCALAR;
  It.FillType = Elem.getUnqualifiedType().getAsString(Policy);
  It.FillElemSize = uint32_t(Ctx.getTypeSizeInChars(Elem).getQuantity());
  It.FillFlags = Flags;
  It.FillLower = std::move(Lower);
  It.FillLength = std::move(Length);
  It.FillCount = uint32_t(Count);
}

//===- markers
//-------------------------------------------------------------===//

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
  auto *Ref =
      DeclRefExpr::Create(Ctx, NestedNameSpecifierLoc(), SourceLocation(), FD,
                          false, L, FD->getType(), VK_LValue);
  Expr *Callee = ImplicitCastExpr::Create(
      Ctx, Ctx.getPointerType(FD->getType()), CK_FunctionToPointerDecay, Ref,
      nullptr, VK_PRValue, FPOptionsOverride());
  Expr *M = CallExpr::Create(Ctx, Callee, Args, Ctx.VoidTy, VK_PRValue, L,
                             FPOptionsOverride());
  Stmt *Body[] = {M, D};
  auto *W = CompoundStmt::Create(Ctx, Body, FPOptionsOverride(), L, L);
  Done.insert(W);
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

void RegionCollector::Impl::warnUnmarked(OMPExecutableDirective *D) {
  DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  unsigned ID = Diags.getCustomDiagID(
      DiagnosticsEngine::Warning,
      "ompdp: cannot mark this directive; its offload calls will be "
      "attributed by debug info only");
  Diags.Report(D->getBeginLoc(), ID);
}

RegionCollector::RegionCollector(CompilerInstance &CI, TableBuilder &Table,
                                 bool Markers)
    : P(std::make_unique<Impl>(CI, Table, Markers)) {}

RegionCollector::~RegionCollector() = default;

void RegionCollector::handle(Decl *D) { P->handle(D); }

FunctionDecl *RegionCollector::markerFunction() const { return P->MarkerFD; }
