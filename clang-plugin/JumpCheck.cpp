//===- JumpCheck.cpp - jumps out of the code a rewrite wraps -------------===//
//
// One walk over the loop with what a break and a continue would leave (the
// innermost loop or switch around them, which is inside the loop unless
// there is none), whether a try block of the loop is around, and whether
// the statement stands where a statement may (so that `{`, a directive and
// `}` around it keep the program's meaning). Gotos leave when their label
// is not inside; labels and cases inside are collected, and only when there
// are some is the rest of the function searched for gotos (or switches)
// that reach them from outside: most loops have none, so most constructs
// cost one walk of their loop.
//
//===----------------------------------------------------------------------===//
#include "JumpCheck.h"

#include "RegionTable.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <algorithm>

using namespace clang;
using namespace ompdp;

namespace {

class Walker {
public:
  std::vector<Jump> Out;
  llvm::SmallPtrSet<const LabelDecl *, 4> Labels;      // defined inside
  llvm::SmallPtrSet<const LabelStmt *, 4> LabelStmts;
  llvm::SmallPtrSet<const SwitchCase *, 4> Cases;      // inside
  llvm::SmallPtrSet<const SwitchCase *, 4> OwnCases;   // of switches inside
  std::vector<const GotoStmt *> Gotos;                 // inside
  std::vector<const AddrLabelExpr *> Addresses;        // &&label inside

  /// S with what break/continue leave (true: something inside), whether a
  /// try block is around, and whether S stands in a statement's place
  /// (InBlock: directly in a compound statement).
  void walk(const Stmt *S, bool BreakIn, bool ContinueIn, bool InTry,
            bool StmtPos, bool InBlock) {
    if (!S)
      return;
    if (isa<LambdaExpr, BlockExpr>(S))
      return; // another function's body
    if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
      // Device code, or an OpenMP region the compiler already forbids
      // jumping out of: its clauses are host expressions, nothing more.
      (void)D;
      return;
    }
    if (auto *E = dyn_cast<Expr>(S)) {
      const Expr *Core = E->IgnoreImplicit()->IgnoreParens();
      if (auto *T = dyn_cast<CXXThrowExpr>(Core)) {
        bool Whole = StmtPos;
        add(Whole ? S : T, EK_THROW, Whole, Whole && InBlock, InTry);
        walk(T->getSubExpr(), BreakIn, ContinueIn, InTry, false, false);
        return;
      }
      for (const Stmt *C : S->children())
        walk(C, BreakIn, ContinueIn, InTry, false, false);
      if (auto *A = dyn_cast<AddrLabelExpr>(S))
        Addresses.push_back(A);
      return;
    }
    switch (S->getStmtClass()) {
    case Stmt::ReturnStmtClass:
      add(S, EK_RETURN, true, InBlock, InTry);
      walkChildren(S, BreakIn, ContinueIn, InTry);
      return;
    case Stmt::CoreturnStmtClass:
      add(S, EK_CO_RETURN, true, InBlock, InTry);
      return;
    case Stmt::GotoStmtClass:
      Gotos.push_back(cast<GotoStmt>(S));
      // Placed (as a jump out, or not) once every label inside is known.
      Out.push_back(Jump{S, EK_GOTO, true, InBlock, InTry});
      return;
    case Stmt::IndirectGotoStmtClass:
      add(S, EK_INDIRECT_GOTO, true, InBlock, InTry);
      return;
    case Stmt::BreakStmtClass:
      if (!BreakIn)
        add(S, EK_BREAK, true, InBlock, InTry);
      return;
    case Stmt::ContinueStmtClass:
      if (!ContinueIn)
        add(S, EK_CONTINUE, true, InBlock, InTry);
      return;
    case Stmt::CompoundStmtClass:
      for (const Stmt *C : cast<CompoundStmt>(S)->body())
        walk(C, BreakIn, ContinueIn, InTry, true, true);
      return;
    case Stmt::LabelStmtClass: {
      auto *L = cast<LabelStmt>(S);
      Labels.insert(L->getDecl());
      LabelStmts.insert(L);
      walk(L->getSubStmt(), BreakIn, ContinueIn, InTry, true, false);
      return;
    }
    case Stmt::CaseStmtClass:
    case Stmt::DefaultStmtClass: {
      auto *C = cast<SwitchCase>(S);
      Cases.insert(C);
      if (auto *CS = dyn_cast<CaseStmt>(C)) {
        walk(CS->getLHS(), BreakIn, ContinueIn, InTry, false, false);
        walk(CS->getRHS(), BreakIn, ContinueIn, InTry, false, false);
      }
      walk(C->getSubStmt(), BreakIn, ContinueIn, InTry, true, false);
      return;
    }
    case Stmt::IfStmtClass: {
      auto *If = cast<IfStmt>(S);
      walk(If->getInit(), BreakIn, ContinueIn, InTry, false, false);
      walk(If->getConditionVariableDeclStmt(), BreakIn, ContinueIn, InTry, false,
           false);
      walk(If->getCond(), BreakIn, ContinueIn, InTry, false, false);
      walk(If->getThen(), BreakIn, ContinueIn, InTry, true, false);
      walk(If->getElse(), BreakIn, ContinueIn, InTry, true, false);
      return;
    }
    case Stmt::ForStmtClass:
    case Stmt::WhileStmtClass:
    case Stmt::DoStmtClass:
    case Stmt::CXXForRangeStmtClass: {
      const Stmt *Body = loopBody(S);
      for (const Stmt *C : S->children())
        if (C != Body)
          walk(C, BreakIn, ContinueIn, InTry, false, false);
      walk(Body, true, true, InTry, true, false);
      return;
    }
    case Stmt::SwitchStmtClass: {
      auto *Sw = cast<SwitchStmt>(S);
      for (const SwitchCase *C = Sw->getSwitchCaseList(); C;
           C = C->getNextSwitchCase())
        OwnCases.insert(C);
      walk(Sw->getInit(), BreakIn, ContinueIn, InTry, false, false);
      walk(Sw->getConditionVariableDeclStmt(), BreakIn, ContinueIn, InTry,
           false, false);
      walk(Sw->getCond(), BreakIn, ContinueIn, InTry, false, false);
      walk(Sw->getBody(), true, ContinueIn, InTry, true, false);
      return;
    }
    case Stmt::CXXTryStmtClass: {
      auto *T = cast<CXXTryStmt>(S);
      walk(T->getTryBlock(), BreakIn, ContinueIn, true, true, false);
      for (unsigned I = 0; I < T->getNumHandlers(); ++I)
        walk(T->getHandler(I)->getHandlerBlock(), BreakIn, ContinueIn, InTry,
             true, false);
      return;
    }
    default:
      walkChildren(S, BreakIn, ContinueIn, InTry);
      return;
    }
  }

  static const Stmt *loopBody(const Stmt *S) {
    if (auto *F = dyn_cast<ForStmt>(S))
      return F->getBody();
    if (auto *W = dyn_cast<WhileStmt>(S))
      return W->getBody();
    if (auto *Do = dyn_cast<DoStmt>(S))
      return Do->getBody();
    return cast<CXXForRangeStmt>(S)->getBody();
  }

private:
  void add(const Stmt *S, uint32_t Kind, bool Statement, bool InBlock,
           bool InTry) {
    Out.push_back(Jump{S, Kind, Statement, InBlock, InTry});
  }
  void walkChildren(const Stmt *S, bool BreakIn, bool ContinueIn, bool InTry) {
    for (const Stmt *C : S->children())
      walk(C, BreakIn, ContinueIn, InTry, false, false);
  }
};

/// Gotos, switches and label addresses of the function outside Skip that
/// reach the labels or cases of W inside it.
class Outside {
public:
  Outside(const Walker &W, const Stmt *Skip) : W(W), Skip(Skip) {}
  llvm::DenseSet<const Stmt *> Reached; // label or case statements inside

  void walk(const Stmt *S) {
    if (!S || S == Skip)
      return;
    if (auto *G = dyn_cast<GotoStmt>(S)) {
      if (W.Labels.count(G->getLabel()))
        Reached.insert(G->getLabel()->getStmt());
    } else if (auto *A = dyn_cast<AddrLabelExpr>(S)) {
      if (W.Labels.count(A->getLabel()))
        Reached.insert(A->getLabel()->getStmt());
    } else if (auto *Sw = dyn_cast<SwitchStmt>(S)) {
      for (const SwitchCase *C = Sw->getSwitchCaseList(); C;
           C = C->getNextSwitchCase())
        if (W.Cases.count(C))
          Reached.insert(C);
    }
    for (const Stmt *C : S->children())
      walk(C);
  }

private:
  const Walker &W;
  const Stmt *Skip;
};

} // namespace

std::vector<Jump> ompdp::jumpsOutOfLoop(const Stmt *Loop,
                                        const Stmt *Function) {
  Walker W;
  // The loop's own break and continue stay inside the wrapped statement.
  W.walk(Loop, true, true, false, true, false);
  std::vector<Jump> Out;
  for (const Jump &J : W.Out) {
    if (J.Kind == EK_GOTO &&
        W.Labels.count(cast<GotoStmt>(J.S)->getLabel()))
      continue; // a jump inside the loop
    Out.push_back(J);
  }
  // A label's address taken inside may be jumped to from anywhere.
  bool Inside = !W.Labels.empty() || W.Cases.size() > W.OwnCases.size();
  if (Inside) {
    llvm::DenseSet<const Stmt *> In;
    for (const AddrLabelExpr *A : W.Addresses)
      if (W.Labels.count(A->getLabel()))
        In.insert(A->getLabel()->getStmt());
    if (Function) {
      Outside O(W, Loop);
      O.walk(Function);
      In.insert(O.Reached.begin(), O.Reached.end());
    }
    for (const SwitchCase *C : W.Cases)
      if (!W.OwnCases.count(C))
        In.insert(C); // its switch is not inside: a jump in
    // In source order, after the jumps out (the walk's order).
    std::vector<const Stmt *> Sorted(In.begin(), In.end());
    std::sort(Sorted.begin(), Sorted.end(), [](const Stmt *A, const Stmt *B) {
      return A->getBeginLoc() < B->getBeginLoc();
    });
    for (const Stmt *S : Sorted)
      Out.push_back(Jump{S, EK_JUMP_IN, false, false, false});
  }
  return Out;
}
