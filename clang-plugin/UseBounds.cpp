//===- UseBounds.cpp - where a mapped item may be used in its block ------===//
//
// Part of the AST walk (RegionCollectorImpl.h): for each item of `target
// enter data`, `target exit data` and `target data`, the statements of the
// compound statement the directive is in (of its body, for `target data`)
// that may use the item, so that a rewrite can allocate the item's device
// copy at its first use and release it after its last (OMPDP_USE_FLAG and
// the Use* item fields, region table 3.3). The run says which construct
// used the memory first and last; these bounds are what proves that moving
// the directive there leaves every use of the item, in every run, where the
// device copy exists.
//
// A statement may use the item when it names a variable of the item's
// expression or of the directive's other clauses (host code, another
// construct, a call that is passed it), when it declares a variable of one
// of those names (the directive moved past it would name another object),
// and, for storage that other code can reach without being passed it (a
// global or static variable, a member through `this`), when it calls a
// function. Other pointers to the same buffer are not followed; the rewrite
// says so in its assumption, as the others do.
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

#include "llvm/ADT/StringSet.h"

namespace {

/// What the statements must not touch for the item to stay where it is.
struct Watched {
  llvm::SmallPtrSet<const Decl *, 8> Decls;
  llvm::StringSet<> Names;
  bool Calls = false; // the storage is reachable from any function
  bool This = false;  // a member reached through `this`
};

/// Adds the variables E names to W.
class Collect : public RecursiveASTVisitor<Collect> {
public:
  explicit Collect(Watched &W) : W(W) {}
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    const ValueDecl *D = E->getDecl();
    W.Decls.insert(D->getCanonicalDecl());
    if (!D->getName().empty())
      W.Names.insert(D->getName());
    if (auto *V = dyn_cast<VarDecl>(D); V && V->hasGlobalStorage())
      W.Calls = true;
    return true;
  }
  bool VisitCXXThisExpr(CXXThisExpr *) {
    W.This = W.Calls = true;
    return true;
  }

private:
  Watched &W;
};

/// Whether a statement may use what W watches.
class Finder : public RecursiveASTVisitor<Finder> {
public:
  explicit Finder(const Watched &W) : W(W) {}
  bool shouldVisitImplicitCode() const { return true; }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitDeclRefExpr(DeclRefExpr *E) {
    Found |= W.Decls.count(E->getDecl()->getCanonicalDecl()) != 0;
    return !Found;
  }
  bool VisitCallExpr(CallExpr *) {
    Found |= W.Calls;
    return !Found;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *) {
    Found |= W.Calls; // a constructor is a call
    return !Found;
  }
  bool VisitCXXThisExpr(CXXThisExpr *) {
    Found |= W.This;
    return !Found;
  }
  bool VisitNamedDecl(NamedDecl *D) {
    Found |= isa<VarDecl>(D) && !D->getName().empty() && W.Names.count(D->getName());
    return !Found;
  }
  bool Found = false;

private:
  const Watched &W;
};

bool mayUse(const Stmt *S, const Watched &W) {
  Finder F(W);
  F.TraverseStmt(const_cast<Stmt *>(S));
  return F.Found;
}

} // namespace

/// S without the marker wrapper `{ M; D }` an earlier directive got.
static const Stmt *unwrap(const Stmt *S, const llvm::DenseSet<const Stmt *> &Done) {
  if (auto *CS = dyn_cast_or_null<CompoundStmt>(S); CS && CS->size() == 2 && Done.count(CS))
    return CS->body_back();
  return S;
}

/// The construct statement S is, or that the body of the loop S is begins
/// (Last: ends) with.
static const OMPExecutableDirective *
edgeConstruct(const Stmt *S, bool Last, const llvm::DenseSet<const Stmt *> &Done) {
  S = unwrap(S, Done);
  if (auto *D = dyn_cast_or_null<OMPExecutableDirective>(S))
    return D;
  const Stmt *Body = nullptr;
  if (auto *F = dyn_cast_or_null<ForStmt>(S))
    Body = F->getBody();
  else if (auto *W = dyn_cast_or_null<WhileStmt>(S))
    Body = W->getBody();
  else if (auto *Do = dyn_cast_or_null<DoStmt>(S))
    Body = Do->getBody();
  else if (auto *RF = dyn_cast_or_null<CXXForRangeStmt>(S))
    Body = RF->getBody();
  if (auto *CS = dyn_cast_or_null<CompoundStmt>(Body)) {
    if (CS->body_empty())
      return nullptr;
    Body = Last ? CS->body_back() : CS->body_front();
  }
  return dyn_cast_or_null<OMPExecutableDirective>(unwrap(Body, Done));
}

void RegionCollector::Impl::fillUseBounds(Pending &P, OMPExecutableDirective *D) {
  Region &R = P.R;
  bool Enter = R.Kind == CK_TARGET_ENTER_DATA, Exit = R.Kind == CK_TARGET_EXIT_DATA;
  bool Data = R.Kind == CK_TARGET_DATA;
  if (!Enter && !Exit && !Data)
    return;
  // The statements to look at: after the directive, before it, or the body.
  const CompoundStmt *CS = nullptr;
  size_t From = 0, To = 0, At = 0;
  if (Data) {
    const Stmt *Body = D->hasAssociatedStmt() ? D->getAssociatedStmt() : nullptr;
    if (auto *C = dyn_cast_or_null<CapturedStmt>(Body))
      Body = C->getCapturedStmt();
    CS = dyn_cast_or_null<CompoundStmt>(Body);
    if (!CS)
      return;
    To = CS->size();
  } else {
    CS = Parents.size() >= 2 ? dyn_cast<CompoundStmt>(Parents[Parents.size() - 2]) : nullptr;
    if (!CS)
      return;
    size_t I = 0;
    for (const Stmt *C : CS->body()) {
      if (C == D)
        break;
      ++I;
    }
    if (I == CS->size())
      return;
    At = I;
    From = Enter ? I + 1 : 0;
    To = Enter ? CS->size() : I;
  }
  Stmt *const *Stmts = CS->body_begin();
  // The clauses of the directive that no item records: a directive moved
  // with an item takes them along.
  Watched Common;
  Collect CC(Common);
  for (const OMPClause *C : D->clauses())
    if (!isa<OMPMapClause, OMPToClause, OMPFromClause>(C))
      for (const Stmt *Ch : const_cast<OMPClause *>(C)->children())
        CC.TraverseStmt(const_cast<Stmt *>(Ch));
  auto BeginOwnLine = [&](SourceLocation B) {
    bool Invalid = false;
    if (!B.isFileID())
      return false;
    const char *C = SM.getCharacterData(B, &Invalid);
    unsigned Col = SM.getColumnNumber(SM.getFileID(B), SM.getFileOffset(B));
    for (unsigned K = 1; !Invalid && K < Col; ++K)
      if (C[-int(K)] != ' ' && C[-int(K)] != '\t')
        return false;
    return !Invalid;
  };
  auto EndOwnLine = [&](SourceLocation E) {
    bool Invalid = false;
    if (!E.isFileID())
      return false;
    const char *C = SM.getCharacterData(E, &Invalid);
    if (Invalid)
      return false;
    while (*C == ' ' || *C == '\t')
      ++C;
    return *C == '\n' || *C == '\r' || *C == '\0' || (C[0] == '/' && C[1] == '/');
  };
  for (size_t I = 0; I < R.Items.size() && I < P.Exprs.size(); ++I) {
    Item &It = R.Items[I];
    if (!P.Exprs[I])
      continue;
    Watched W = Common;
    Collect C(W);
    C.TraverseStmt(const_cast<Expr *>(P.Exprs[I]));
    if (W.Decls.empty() && !W.This)
      continue;
    long First = -1, Last = -1;
    for (size_t J = From; J < To; ++J)
      if (mayUse(unwrap(Stmts[J], Done), W)) {
        if (First < 0)
          First = long(J);
        Last = long(J);
      }
    if (First < 0) {
      It.UseFlags |= UF_NONE;
      continue;
    }
    // Jumps and labels among the statements a directive would move over.
    size_t JB = Data ? 0 : Enter ? At + 1 : size_t(Last) + 1;
    size_t JE = Data ? To : Enter ? size_t(First) : At;
    for (size_t J = JB; J < JE; ++J)
      if (leavesIteration(unwrap(Stmts[J], Done), false, true))
        It.UseFlags |= UF_JUMP;
    if (Enter || Data) {
      const Stmt *S = unwrap(Stmts[First], Done);
      SourceLocation B = stmtRange(S).getBegin();
      if (B.isValid() && SM.getFileID(SM.getExpansionLoc(B)) == P.File) {
        It.UseBegin = pos(B);
        It.UseBeginOffset = span(P.File, B, B).Offset;
        It.UseIndent = It.UseBegin.Column;
        if (BeginOwnLine(B))
          It.UseFlags |= UF_BEGIN_OWN_LINE;
        if (const OMPExecutableDirective *L = edgeConstruct(S, false, Done))
          It.UseLead = pos(L->getBeginLoc());
      }
    }
    if (Exit || Data) {
      const Stmt *S = unwrap(Stmts[Last], Done);
      SourceRange SR = stmtRange(S);
      SourceLocation E = SR.getEnd();
      if (E.isValid() && SM.getFileID(SM.getExpansionLoc(E)) == P.File) {
        It.UseEnd = pos(E);
        It.UseEndOffset = span(P.File, E, E).Offset;
        if (!It.UseIndent)
          It.UseIndent = pos(SR.getBegin()).Column;
        if (EndOwnLine(E))
          It.UseFlags |= UF_END_OWN_LINE;
        if (const OMPExecutableDirective *T = edgeConstruct(S, true, Done))
          It.UseTail = pos(T->getBeginLoc());
      }
    }
  }
}
