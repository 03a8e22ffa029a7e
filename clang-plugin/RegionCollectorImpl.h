//===- RegionCollectorImpl.h - the AST walk's state, shared -*- C++ -*-===//
//
// The RecursiveASTVisitor of RegionCollector.h and the state it keeps while
// it walks (the loops, statements and function-like contexts around the
// current statement), shared by the files that make up the walk:
//   RegionCollector.cpp  constructs, their items and source ranges
//   HostContext.cpp      the construct's statement, its block, and the host
//                        code around it that uses its items
//   Markers.cpp          the markers before each directive, for the pass
//   Routines.cpp         calls of the device memory routines, recorded
//                        like constructs and marked the same way
//   Calls.cpp            calls of functions that hold constructs, and
//                        what a caller needs to know of a construct's items
// Not used outside clang-plugin/.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_REGIONCOLLECTORIMPL_H
#define OMPDP_CLANG_PLUGIN_REGIONCOLLECTORIMPL_H

#include "RegionCollector.h"

#include "AccessAnalysis.h"
#include "FreshHost.h"
#include "JumpCheck.h"

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

namespace ompdp {
namespace collector {

/// The storage an item names: the item without its array sections,
/// subscripts and dereferences (u[0:n] -> u, s.a[0:s.n] -> s.a,
/// this->x[0:n] -> this->x, *p -> p).
const clang::Expr *stripToVariable(const clang::Expr *E);

/// Text with every run of white space (and line continuation) made one
/// blank, none at either end: how clauses, statements and arguments are
/// recorded as written.
std::string collapseSpace(llvm::StringRef T);

/// A jump out of S when it is a loop body or a block's statement
/// (break/continue not inside a nested loop or switch; return, goto), or,
/// with Labels, a label in it (a goto from outside may jump in)
/// (HostContext.cpp).
bool leavesIteration(const clang::Stmt *S, bool Nested = false, bool Labels = false);
/// What a loop (or function body) does to local variables: which it
/// writes (assigns, increments, declares) and which have their address
/// taken, counting the writes of each (Routines.cpp).
struct Writes {
  llvm::DenseMap<const clang::VarDecl *, unsigned> Stored;
  llvm::DenseSet<const clang::VarDecl *> AddressTaken;
  /// Local arrays with an element (or a member of one) written, and those
  /// used otherwise than by an element (given to a call, an element's
  /// address taken: elements may change where this walk does not look).
  llvm::DenseSet<const clang::VarDecl *> ElementStored, ElementsReached;
  /// Variables the walk saw declared (a loop's: new ones each iteration).
  llvm::DenseSet<const clang::VarDecl *> Declared;

  static const clang::VarDecl *var(const clang::Expr *E);
  /// The local array whose element (or a member of one) E is: `a[i]`,
  /// `a[i].f`, `a[i][j]`; null otherwise.
  static const clang::VarDecl *arrayOf(const clang::Expr *E);
  void walk(const clang::Stmt *S);

private:
  llvm::DenseSet<const clang::Stmt *> Subscripted; // decays a subscript reads
};

/// Whether E's value is the same at every iteration of a loop that makes
/// the writes LoopW in a function that makes FnW: constants, sizeof, local
/// variables the loop neither declares nor writes and whose address the
/// function never takes, an element of a local array at such an index that
/// the loop writes no element of and the function only subscripts
/// (`y[1]`), arithmetic and casts of them, and the routines that name
/// devices.
bool invariant(const clang::Expr *E, const Writes &LoopW, const Writes &FnW);

/// The body of loop statement L.
const clang::Stmt *loopBody(const clang::Stmt *L);

/// The variable a pointer argument is computed from: `h`, `(char *)h + off`,
/// `&a[0]`, `s.p`, `this->buf`, `v.data()`; null for anything else.
const clang::Expr *pointerVariable(const clang::Expr *E);

/// How many times S uses the variable Root (a canonical declaration), when
/// every use passes the variable itself to a call of a function without a
/// body here; 0 otherwise (Calls.cpp). Elem: as StoragePath::Elem.
unsigned externArgUses(const clang::Stmt *S, const void *Root, int64_t Elem = -1);
/// Whether S names D (a canonical declaration) anywhere, the clauses of its
/// directives and the bodies of its lambdas included (Calls.cpp). Elem: as
/// StoragePath::Elem (other constant elements of D do not name it).
bool namesDecl(const clang::Stmt *S, const clang::Decl *D, int64_t Elem = -1);
/// For a call through a pointer to a function held in a variable: the
/// variable (Calls.cpp), and its parameters' names into Names if given.
const clang::VarDecl *indirectCallee(const clang::CallExpr *CE,
                                     llvm::SmallVectorImpl<std::string> *Names);

} // namespace collector
} // namespace ompdp

using namespace clang;
using namespace ompdp;
using ompdp::collector::collapseSpace;
using ompdp::collector::leavesIteration;
using ompdp::collector::invariant;
using ompdp::collector::loopBody;
using ompdp::collector::pointerVariable;
using ompdp::collector::stripToVariable;
using ompdp::collector::Writes;

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
    // A loop around a recorded call: its entry marker goes in once the
    // loop is walked (the walk of what is inside still finds the loop
    // where it stands).
    if (!PendingLoopMarkers.empty())
      if (auto It = PendingLoopMarkers.find(S); It != PendingLoopMarkers.end()) {
        uint32_t Index = It->second;
        PendingLoopMarkers.erase(It);
        insertLoopMarker(S, Index);
      }
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
    if (FD->doesThisDeclarationHaveABody())
      Bodies.push_back(FD);
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
  bool VisitCallExpr(CallExpr *CE);

private:
  /// A region under construction and, per item, the address expression of
  /// its variable for the item marker (null: no marker).
  struct Pending {
    Region R;
    std::vector<Expr *> Addr;
    std::vector<StoragePath> Storage; // per item, for the access analysis
    std::vector<const Expr *> Exprs;  // per item, the list item (null: implicit capture)
    FileID File; // where the directive is written (its expansion)
    const VarDecl *AllocVar = nullptr; // omp_target_alloc: the variable assigned
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
  uint32_t conditionalBranch(FileID F, Span At) const;
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
    // One line for people: collapse whitespace runs.
    return Invalid ? "" : collapseSpace(T);
  }
  /// Text of an expression as the file has it, for code that evaluates it
  /// again (a fill's bounds); empty if it is not one piece of the file.
  /// Unlike text(), a range through macros is the file's text for it (`N *
  /// N`): the spelling of its two ends can be one token of one macro's
  /// definition (`#define N 4096`: `4096`, a bound of one row of N rows).
  std::string fileText(SourceRange R) const {
    if (R.isInvalid())
      return "";
    if (!R.getBegin().isMacroID() && !R.getEnd().isMacroID())
      return text(R);
    CharSourceRange CR = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM,
                                                  Ctx.getLangOpts());
    if (CR.isInvalid())
      return "";
    bool Invalid = false;
    StringRef T = Lexer::getSourceText(CR, SM, Ctx.getLangOpts(), &Invalid);
    return Invalid ? "" : collapseSpace(T);
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
  void fillStatementIn(Pending &P, const Stmt *S, const Stmt *Parent);
  void fillFile(Pending &P, SourceLocation B);
  void fillContext(Region &R);
  void fillUseBounds(Pending &P, OMPExecutableDirective *D);
  std::string functionName(const FunctionDecl *FD) const;
  std::string fnParamUses(const FunctionDecl *FD);
  void fillHostAccesses(Pending &P, const Stmt *D, bool MotionIsUse = true);
  std::vector<const Stmt *> runsBetween(const OMPExecutableDirective *D) const;
  void fillLoopExits(Pending &P);
  SourceLocation stmtEnd(const Stmt *S) const;
  bool hostOrderIsSource(const OMPExecutableDirective *D) const;
  SourceRange stmtRange(const Stmt *S) const;
  bool ownLines(SourceLocation B, SourceLocation E) const;
  void addUncoveredCaptures(Pending &P, OMPExecutableDirective *D);
  /// The variables D's reduction clauses name (canonical), into Out.
  void addReduced(const OMPExecutableDirective *D,
                  llvm::SmallPtrSetImpl<const Decl *> &Out) const;
  void fillFacts(Item &It, const Expr *E, QualType VarTy) const;
  void sectionFacts(Item &It, const Expr *E) const;
  void addListItems(Pending &P, const OMPClause *C, ArrayRef<const Expr *> Vars,
                    uint32_t Type, uint32_t Mods, StringRef Head);

  // Markers.
  Expr *itemAddress(const Expr *E, bool Implicit, SourceLocation L);
  Expr *varRef(VarDecl *VD, SourceLocation L);
  FunctionDecl *markerDecl();
  Expr *markerCall(FunctionDecl *FD, ArrayRef<Expr *> Args, SourceLocation L);
  bool insertMarkers(OMPExecutableDirective *D, uint32_t Index,
                     const std::vector<Expr *> &Addr, size_t NumItems);
  void warnUnmarked(OMPExecutableDirective *D);
  bool insertCallMarker(CallExpr *CE, uint32_t Index);
  bool insertLoopMarker(Stmt *Loop, uint32_t Index);
  bool replaceChild(Stmt *Parent, Stmt *D, Stmt *W);
  std::string argumentText(const Expr *A) const;
  void fillCallHead(Pending &P, const CallExpr *CE);
  void fillCallStatement(Pending &P);
  Item routineItem(const Expr *Arg, const std::string &Call,
                   SourceRange CallRange, FileID F) const;
  bool assignedTo(Item &It, const VarDecl *&Var, const std::string &Call,
                  SourceRange CallRange, FileID F) const;
  std::string writtenText(CharSourceRange Range) const;
  void fillLoopFacts(Pending &P, const CallExpr *CE, const int Pointers[2]);

  // Host stores of computed values into items with fill facts
  // (HostValues.cpp): noted as the walk goes, decided at the end.
  void noteCall(const CallExpr *CE);
  void noteValueChecks(uint32_t Index, const Pending &P, SourceLocation At);
  std::vector<const Stmt *> runsBefore(const FunctionDecl *G, SourceLocation At) const;
  bool valuesVary(const FunctionDecl *F, SourceLocation At, const StoragePath &SP,
                  unsigned Depth);

public:
  void finish();

private:
  // Calls of functions that hold constructs (Calls.cpp).
  bool holdsConstructs(const FunctionDecl *FD, unsigned Depth = 0);
  void recordCall(CallExpr *CE);
  void recordCallAs(CallExpr *CE, const FunctionDecl *Callee, const VarDecl *FnPtr,
                    llvm::ArrayRef<std::string> Params, bool Extern = false);
  /// Whether the walk is in Fn's own host code: its body, or the body of a
  /// `target data` in it (host code that runs in place, though clang
  /// captures it), not a lambda's or another directive's.
  bool inFnHostCode() const;
  void fillCallerFacts(Pending &P);

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
  llvm::DenseMap<const Stmt *, uint32_t> PendingLoopMarkers; // loop -> its first call region
  /// Per loop, the jumps out of it (JumpCheck), for its constructs.
  llvm::DenseMap<const Stmt *, std::vector<Jump>> LoopJumps;
  /// Per function, whether its body holds a construct that maps data,
  /// directly or in a function it calls (Calls.cpp).
  llvm::DenseMap<const FunctionDecl *, bool> Holds;
  /// Per function, its pointer swaps (FreshHost.h), found at its first item
  /// that needs them.
  llvm::DenseMap<const FunctionDecl *, std::vector<PointerSwap>> Swaps;
  /// HostValues.cpp: the items to decide at the end, every call by callee
  /// (its canonical declaration) with the function it is in, and every
  /// function with a body.
  struct ValueCheck {
    uint32_t Region, Item;
    const FunctionDecl *Fn;
    SourceLocation At; // the construct
    StoragePath Storage;
  };
  std::vector<ValueCheck> ValueChecks;
  /// Copies back of buffers each call allocates anew, whose host reads
  /// (HostUnread.h) are decided at the end too: the functions that read
  /// them may be template instances made only then.
  struct UnreadCheck {
    uint32_t Region, Item;
    const FunctionDecl *Fn;
    const VarDecl *Var;
    SourceLocation CopyEnd;
    SourceRange Loop;
  };
  std::vector<UnreadCheck> UnreadChecks;
  llvm::DenseMap<const FunctionDecl *,
                 std::vector<std::pair<const CallExpr *, const FunctionDecl *>>>
      CallsOf;
  std::vector<const FunctionDecl *> Bodies;
  /// Per function, FnParamUses (Calls.cpp).
  llvm::DenseMap<const FunctionDecl *, std::string> ParamUses;

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

#endif
