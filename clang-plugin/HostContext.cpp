//===- HostContext.cpp - a construct's statement and the host code around it ===//
//
// Part of the AST walk (RegionCollectorImpl.h): for each construct, its
// statement (the directive through its associated statement) and the
// compound statement it is directly in, so that a rewrite can put braces
// around constructs in a row; and the host statements of the innermost
// loop around it (or of its block) that use each of its items, whether
// each runs exactly or at most once per execution of the construct, and
// whether a directive can go on a line of its own before and after it
// (OMPDP_HOST_ACCESS_FIELD in OmpdpFormat.inc), so that a rewrite can put
// `target update`s there.
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

#include "AccessAnalysis.h"

#include "llvm/ADT/StringExtras.h"

/// A jump out of S when it is a loop body or a block's statement
/// (break/continue not inside a nested loop or switch; return, goto), or,
/// with Labels, a label in it (a goto from outside may jump in).
bool ompdp::collector::leavesIteration(const Stmt *S, bool Nested, bool Labels) {
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
  fillStatementIn(P, D, Parents.size() >= 2 ? Parents[Parents.size() - 2]
                                            : nullptr);
}

/// The preprocessor conditional branch that the end of bytes At of file F
/// (from a block's `{`) is in: 0 for the level At starts at, else the
/// ordinal (from 1) of the #if, #elif or #else directive that began it
/// there, with the high bit for a branch of a group opened before At. A
/// nested group opened and closed in between leaves the value as it was,
/// so two statements of a block with one value have only whole groups
/// between them, and braces around them are kept or dropped together. A
/// directive is a line whose first token is `#`; one inside a comment
/// counts too (a refusal, never a wrong edit).
uint32_t RegionCollector::Impl::conditionalBranch(FileID F, Span At) const {
  bool Invalid = false;
  StringRef Data = SM.getBufferData(F, &Invalid);
  if (Invalid || !At.Length || At.Offset + At.Length > Data.size())
    return 0;
  StringRef Text = Data.substr(At.Offset, At.Length);
  llvm::SmallVector<uint32_t, 4> Open; // the branches the open groups left
  uint32_t Cur = 0, N = 0;
  const uint32_t Outer = 0x80000000u;
  while (!Text.empty()) {
    auto [Line, Rest] = Text.split('\n');
    Text = Rest;
    Line = Line.ltrim(" \t\f\v\r");
    if (!Line.consume_front("#"))
      continue;
    Line = Line.ltrim(" \t");
    StringRef Name = Line.take_while([](char C) { return llvm::isAlpha(C); });
    if (Name == "if" || Name == "ifdef" || Name == "ifndef") {
      Open.push_back(Cur);
      Cur = ++N;
    } else if (Name == "elif" || Name == "elifdef" || Name == "elifndef" || Name == "else") {
      Cur = Open.empty() ? Outer | ++N : ++N;
    } else if (Name == "endif") {
      if (Open.empty()) {
        Cur = Outer | ++N;
      } else {
        Cur = Open.back();
        Open.pop_back();
      }
    }
  }
  return Cur;
}

/// S's range (a standalone directive ends with its line), whether it has
/// its lines to itself, and, when Parent is a compound statement, its
/// place there and what comes before it.
void RegionCollector::Impl::fillStatementIn(Pending &P, const Stmt *S,
                                            const Stmt *Parent) {
  Region &R = P.R;
  SourceRange SR = stmtRange(S);
  SourceLocation B = SR.getBegin(), After = SR.getEnd();
  R.StmtBegin = pos(B);
  R.StmtEnd = pos(After);
  R.StmtBytes = span(P.File, B, After);
  if (ownLines(B, After))
    R.Flags |= RF_OWN_LINES;
  if (auto *CS = dyn_cast_or_null<CompoundStmt>(Parent)) {
    Span Brace = span(P.File, CS->getLBracLoc(), CS->getLBracLoc());
    if (CS->getLBracLoc().isValid() &&
        SM.getFileID(SM.getExpansionLoc(CS->getLBracLoc())) == P.File) {
      R.Block = Brace.Offset + 1;
      uint32_t I = 0, Decls = 0, Jumps = 0;
      for (const Stmt *C : CS->body()) {
        if (C == S) {
          R.BlockIndex = I;
          R.BlockDecls = Decls;
          R.BlockJumps = Jumps;
          // Braces around statements of two branches of an #if could be
          // compiled out one without the other.
          R.BlockBranch = conditionalBranch(P.File, span(P.File, CS->getLBracLoc(), B));
          break;
        }
        ++I;
        Decls += isa<DeclStmt>(C);
        Jumps += leavesIteration(C, false, true);
      }
    }
  }
}

/// The innermost loop's statement, for a rewrite that wraps it: its last
/// line, whether it has its lines to itself in a compound statement, and
/// the jumps out of it (a `target data` before it would be left by them).
void RegionCollector::Impl::fillLoopExits(Pending &P) {
  if (Loops.empty())
    return;
  Region &R = P.R;
  const Stmt *L = Loops.back();
  SourceLocation B = L->getBeginLoc(), After = stmtEnd(L);
  R.LoopStmtEndLine = pos(After).Line;
  // The statement that holds the loop: the one before it on the stack.
  const Stmt *Parent = nullptr;
  for (size_t I = Parents.size(); I-- > 1;)
    if (Parents[I] == L) {
      Parent = Parents[I - 1];
      break;
    }
  if (Parent && isa<CompoundStmt>(Parent) && ownLines(B, After) &&
      SM.getFileID(B) == P.File)
    R.Flags |= RF_LOOP_OWN_LINES;
  auto [It, New] = LoopJumps.try_emplace(L);
  if (New)
    It->second = jumpsOutOfLoop(L, Parents.empty() ? nullptr : Parents[0]);
  for (const Jump &J : It->second) {
    LoopExit X;
    X.Kind = J.Kind;
    SourceLocation JB = J.S->getBeginLoc();
    SourceLocation JE = J.Statement ? stmtEnd(J.S) : endOfToken(J.S->getEndLoc());
    X.Begin = pos(JB);
    X.End = pos(JE);
    X.Bytes = span(P.File, JB, JE);
    bool InFile = JB.isFileID() && JE.isFileID() && SM.getFileID(JB) == P.File &&
                  X.Bytes.Length;
    if (J.Statement && InFile) {
      X.Flags |= EF_STATEMENT;
      if (J.InBlock && ownLines(JB, JE))
        X.Flags |= EF_OWN_LINES;
    }
    if (J.InTry)
      X.Flags |= EF_IN_TRY;
    R.Exits.push_back(X);
  }
}

/// Host code around the construct that uses its items: the statements of
/// the innermost loop's body (and its condition and increment), or, for a
/// construct in no loop, of the block it is directly in.
// Items reached through a pointer that host code in Scope (or the loop's
// Header) stores to, or that the loop's body declares: the item is then
// another buffer from one iteration
// (or one construct of a row) to the next, whatever addresses the run saw
// (malloc puts a new buffer where a freed one was), and a `target data`
// around them would map the pointer's value before the first store.
static void markBaseStores(Region &R, const std::vector<StoragePath> &Storage,
                           const Stmt *D, const Stmt *Scope,
                           const std::vector<const Stmt *> &Header,
                           const std::vector<size_t> &Which, bool LoopBody,
                           const SourceManager &SM) {
  std::vector<size_t> Own;
  std::vector<StoragePath> Bases;
  for (size_t I : Which) {
    const StoragePath &SP = Storage[I];
    auto Deref = std::find(SP.Steps.begin(), SP.Steps.end(), StoragePath::deref());
    if (!SP.Valid || Deref == SP.Steps.end())
      continue;
    StoragePath B;
    B.Root = SP.Root;
    B.Steps.assign(SP.Steps.begin(), Deref);
    B.Valid = true;
    Own.push_back(I);
    Bases.push_back(std::move(B));
  }
  if (Own.empty())
    return;
  // A pointer declared in the loop's body is a new variable in each
  // iteration, set by its declaration: before the loop it does not exist.
  if (LoopBody) {
    SourceLocation B = SM.getExpansionLoc(Scope->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Scope->getEndLoc());
    for (size_t K = 0; K < Own.size(); ++K) {
      auto *V = Bases[K].Root == StoragePath::thisRoot()
                    ? nullptr
                    : dyn_cast<VarDecl>(static_cast<const Decl *>(Bases[K].Root));
      if (!V || !V->hasLocalStorage())
        continue;
      SourceLocation L = SM.getExpansionLoc(V->getLocation());
      if (!SM.isBeforeInTranslationUnit(L, B) && !SM.isBeforeInTranslationUnit(E, L))
        R.Items[Own[K]].AccessFlags |= IA_BASE_STORED;
    }
  }
  std::vector<const Stmt *> Ss(Header.begin(), Header.end());
  Ss.push_back(Scope);
  for (const Stmt *S : Ss) {
    if (!S)
      continue;
    std::vector<uint32_t> A = analyzeHostAccesses(S, D, Bases);
    for (size_t K = 0; K < Own.size() && K < A.size(); ++K)
      if (A[K] == AC_WRITE || A[K] == AC_READ_WRITE || A[K] == AC_UNKNOWN)
        R.Items[Own[K]].AccessFlags |= IA_BASE_STORED;
  }
}

// What two uses of an item in turn do to it: the one, where the other is
// none or the same; else a read and a write.
static uint32_t accessOfBoth(uint32_t First, uint32_t Then) {
  return First == AC_NONE || First == Then ? Then : Then == AC_NONE ? First : AC_READ_WRITE;
}

// What declaration DS does with Alias, the other name of item Item (a
// local pointer initialised from a field or another variable, aliasOf),
// given Found for the whole statement: the pointer's own declaration
// (`const real *Dvv = deriv.Dvv;`, HeCBench divergence) names the storage
// and reads or writes none of it (what is done through the pointer later
// is the item's own use), so only the statement's other declarations
// count.
static uint32_t aliasUseInDeclaration(const DeclStmt *DS, const StoragePath &Item,
                                      const StoragePath &Alias, const Stmt *D,
                                      bool MotionIsUse, uint32_t Found) {
  const void *Own = Item.Root;
  if (std::none_of(DS->decl_begin(), DS->decl_end(),
                   [&](const Decl *X) { return X->getCanonicalDecl() == Own; }))
    return Found;
  uint32_t B = AC_NONE;
  for (const Decl *X : DS->decls()) {
    auto *VD = dyn_cast<VarDecl>(X);
    if (!VD || VD->getCanonicalDecl() == Own || !VD->getInit())
      continue;
    B = accessOfBoth(B, analyzeHostAccesses(VD->getInit(), D, {Alias}, MotionIsUse)[0]);
  }
  return B;
}

// Items that name a variable the construct's innermost loop declares (in
// its body, or its header: a for's initialisation, a range-for's
// variable): the item's own variable, or one its section's bounds read.
// Before the loop the name does not exist (minisweep's `Dimensions dims_b
// = sweeper.dims_b;` at the top of its step loop, a length `int n = ...;`
// computed in the body), so no `target data` before the loop can map the
// item as written.
static bool declaredIn(const VarDecl *V, SourceLocation B, SourceLocation E,
                       const SourceManager &SM) {
  if (!V || !V->hasLocalStorage())
    return false;
  SourceLocation L = SM.getExpansionLoc(V->getLocation());
  return !SM.isBeforeInTranslationUnit(L, B) && !SM.isBeforeInTranslationUnit(E, L);
}

static bool namesDeclaredIn(const Stmt *S, SourceLocation B, SourceLocation E,
                            const SourceManager &SM) {
  if (!S)
    return false;
  if (auto *R = dyn_cast<DeclRefExpr>(S))
    if (declaredIn(dyn_cast<VarDecl>(R->getDecl()), B, E, SM))
      return true;
  for (const Stmt *C : S->children())
    if (namesDeclaredIn(C, B, E, SM))
      return true;
  return false;
}

static void markLoopDeclared(Region &R, const std::vector<StoragePath> &Storage,
                             const std::vector<const Expr *> &Exprs, const Stmt *Loop,
                             const std::vector<size_t> &Which, const SourceManager &SM) {
  SourceLocation B = SM.getExpansionLoc(Loop->getBeginLoc());
  SourceLocation E = SM.getExpansionLoc(Loop->getEndLoc());
  for (size_t I : Which) {
    const StoragePath &SP = Storage[I];
    const VarDecl *Root = SP.Valid && SP.Root != StoragePath::thisRoot()
                              ? dyn_cast<VarDecl>(static_cast<const Decl *>(SP.Root))
                              : nullptr;
    if (declaredIn(Root, B, E, SM) ||
        (I < Exprs.size() && namesDeclaredIn(Exprs[I], B, E, SM)))
      R.Items[I].AccessFlags |= IA_LOOP_DECLARED;
  }
}

/// Whether expression S evaluates each of its operands exactly once when
/// it is evaluated: the casts, parentheses and full-expression wrappers
/// around a value, and an assignment (plain or compound).
static bool evaluatesOnce(const Stmt *S) {
  if (isa<ImplicitCastExpr, ParenExpr, ExplicitCastExpr, FullExpr, MaterializeTemporaryExpr,
          CXXBindTemporaryExpr>(S))
    return true;
  auto *B = dyn_cast<BinaryOperator>(S);
  return B && B->isAssignmentOp();
}

void RegionCollector::Impl::fillHostAccesses(Pending &P, const Stmt *D,
                                             bool MotionIsUse) {
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
        T == MT_HAS_DEVICE_ADDR || (T == MT_NONE && R.Kind != CK_CALL))
      continue;
    // A call's arguments: those that point to storage the host can use.
    if (R.Kind == CK_CALL && !P.Storage[I].Valid)
      continue;
    Which.push_back(I);
    Paths.push_back(P.Storage[I]);
  }
  if (Which.empty())
    return;
  markBaseStores(R, P.Storage, D, Scope, Header, Which, !Loops.empty(), SM);
  if (!Loops.empty())
    markLoopDeclared(R, P.Storage, P.Exprs, Loops.back(), Which, SM);
  auto *Body = dyn_cast<CompoundStmt>(Scope);
  // A call's region: the call may stand in an expression statement that
  // evaluates it exactly once each time it runs (`t = f(...);`, a cast of
  // its value), which then stands for it in the body. Not through `?:`,
  // `&&` or `||`, which may skip it.
  size_t Up = Parents.size() >= 2 ? Parents.size() - 2 : 0;
  if (R.Kind == CK_CALL)
    while (Up > 0 && evaluatesOnce(Parents[Up]))
      --Up;
  bool DirectlyIn = Body && Parents.size() >= 2 && Parents[Up] == Body;
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
  // An item that a local pointer points to, the pointer initialised from
  // a field or another variable, is used by that name too (gmm's loop reads
  // `clusters.N[i]`, the call's argument being `clusters_N`): its other
  // name is analysed after the items, and counts as theirs.
  std::vector<StoragePath> Names = Paths;
  std::vector<size_t> AliasAt(Which.size(), 0); // 0: none, else index in Names
  for (size_t K = 0; K < Which.size(); ++K)
    if (StoragePath A = StoragePath::aliasOf(Paths[K]); A.Valid) {
      AliasAt[K] = Names.size();
      Names.push_back(A);
    }
  // What each statement does with each item, analysed once per statement
  // (the branches below ask again for every item). Node-based: references
  // stay valid as it grows.
  std::unordered_map<const Stmt *, std::vector<uint32_t>> Analysed;
  auto Accesses = [&](const Stmt *S) -> const std::vector<uint32_t> & {
    auto [At, New] = Analysed.try_emplace(S);
    if (New) {
      At->second = analyzeHostAccesses(S, D, Names, MotionIsUse);
      for (size_t K = 0; K < Which.size(); ++K) {
        uint32_t &A = At->second[K];
        uint32_t B = AliasAt[K] ? At->second[AliasAt[K]] : AC_NONE;
        if (AliasAt[K])
          if (auto *DS = dyn_cast<DeclStmt>(S))
            B = aliasUseInDeclaration(DS, Paths[K], Names[AliasAt[K]], D, MotionIsUse, B);
        if (B != AC_NONE && B != AC_UNKNOWN)
          A = A == AC_NONE || A == AC_UNKNOWN || A == B ? B : AC_READ_WRITE;
        if (!P.Storage[Which[K]].Valid) // storage unknown: any statement may use it
          A = AC_READ_WRITE;
      }
      At->second.resize(Which.size());
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
        Acc[K] = accessOfBoth(Acc[K], A[K]);
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
      // An item (a call's argument, a construct's) that the statements use
      // only by passing the variable itself to functions defined
      // elsewhere: the planner asks those functions' own tables what they
      // do with it (ExternArgs).
      const StoragePath &SP = Paths[K];
      if (SP.Valid && SP.Root &&
          (SP.Steps.empty() ||
           (SP.Steps.size() == 1 && SP.Steps[0] == StoragePath::deref()))) {
        // Statements that never name it use it only in that an opaque
        // call may reach anything behind a pointer (unnamed).
        unsigned N = 0;
        bool Named = false, Other = false;
        for (const Stmt *S : Ss) {
          if (Accesses(S)[K] == AC_NONE)
            continue;
          if (!collector::namesDecl(S, static_cast<const Decl *>(SP.Root), SP.Elem)) {
            // By its other name: named, and not only passed to functions.
            if (AliasAt[K] &&
                collector::namesDecl(S, static_cast<const Decl *>(Names[AliasAt[K]].Root)))
              Named = Other = true;
            continue;
          }
          Named = true;
          unsigned M = collector::externArgUses(S, SP.Root, SP.Elem);
          Other |= !M;
          N += M;
        }
        if (!Named)
          H.Flags |= HA_UNNAMED;
        else if (!Other)
          H.ExternArgs = N;
      }
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
