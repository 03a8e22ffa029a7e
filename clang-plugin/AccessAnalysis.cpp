//===- AccessAnalysis.cpp - what a target region does with its map items --===//
//
// A walk over the region's body (the innermost captured statement of the
// target directive, nested directives included) that records every use of
// storage as (path, kind). Expressions are visited top-down with what their
// context does with them: lvalue(E, K, S) says that the storage of E, at
// the further steps S, is accessed with kind K; rvalue(E, K, S) says that
// the value of E is used, and, for a pointer, that what it points to is
// accessed with K at S (K = None: the pointer value itself goes somewhere,
// so what it points to escapes). Then an item is read (written) when a use
// lies inside its storage, or a use of storage around it takes it along.
//
//===----------------------------------------------------------------------===//
#include "AccessAnalysis.h"
#include "HostUnread.h"

#include "RegionTable.h"

#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprOpenMP.h"
#include "clang/AST/OpenMPClause.h"
#include "clang/AST/StmtOpenMP.h"
#include "clang/Basic/OpenMPKinds.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Hashing.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Builtins.h"

#include <map>
#include <tuple>

using namespace clang;
using namespace ompdp;

const void *StoragePath::thisRoot() {
  static const char Tag = 0;
  return &Tag;
}
const void *StoragePath::deref() {
  static const char Tag = 0;
  return &Tag;
}

/// Roots are canonical declarations, as Decl pointers.
static const void *rootOf(const Decl *D) { return D->getCanonicalDecl(); }

StoragePath StoragePath::ofVariable(const ValueDecl *VD) {
  StoragePath P;
  if (!VD)
    return P;
  P.Root = rootOf(VD);
  P.Valid = true;
  return P;
}

StoragePath StoragePath::ofThisObject() {
  StoragePath P;
  P.Root = thisRoot();
  P.Steps.push_back(deref());
  P.Valid = true;
  return P;
}

int64_t StoragePath::pointerElement(const ArraySubscriptExpr *AE) {
  auto *DRE = dyn_cast<DeclRefExpr>(AE->getBase()->IgnoreParenImpCasts());
  auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  if (!VD || VD->getType().isNull())
    return -1;
  auto *AT = dyn_cast_or_null<ConstantArrayType>(VD->getType()->getAsArrayTypeUnsafe());
  auto *Lit = dyn_cast<IntegerLiteral>(AE->getIdx()->IgnoreParenImpCasts());
  if (!AT || !Lit || !AT->getElementType()->isAnyPointerType() ||
      Lit->getValue().getActiveBits() > 31)
    return -1;
  return int64_t(Lit->getValue().getZExtValue());
}

StoragePath StoragePath::ofItem(const Expr *E) {
  StoragePath P;
  SmallVector<const void *, 4> Rev; // steps from the outside in
  for (;;) {
    E = E->IgnoreParenImpCasts();
    auto Elements = [&](const Expr *Base) {
      // Elements of an array are the array's storage; of a pointer, what
      // it points to.
      if (Base->IgnoreParenImpCasts()->getType()->isAnyPointerType())
        Rev.push_back(deref());
      E = Base;
    };
    if (auto *AS = dyn_cast<ArraySectionExpr>(E)) {
      Elements(AS->getBase());
    } else if (auto *AE = dyn_cast<ArraySubscriptExpr>(E)) {
      P.Elem = StoragePath::pointerElement(AE);
      Elements(AE->getBase());
    } else if (auto *SH = dyn_cast<OMPArrayShapingExpr>(E)) {
      Rev.push_back(deref());
      E = SH->getBase();
    } else if (auto *UO = dyn_cast<UnaryOperator>(E);
               UO && UO->getOpcode() == UO_Deref) {
      Rev.push_back(deref());
      E = UO->getSubExpr();
    } else if (auto *ME = dyn_cast<MemberExpr>(E)) {
      auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
      if (!FD)
        return P;
      Rev.push_back(rootOf(FD));
      if (ME->isArrow())
        Rev.push_back(deref());
      E = ME->getBase();
    } else if (isa<CXXThisExpr>(E)) {
      P.Root = thisRoot();
      break;
    } else if (auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      if (!isa<VarDecl>(DRE->getDecl()))
        return P;
      P.Root = rootOf(DRE->getDecl());
      break;
    } else {
      return P; // not a variable's storage: not analysable
    }
  }
  P.Steps.assign(Rev.rbegin(), Rev.rend());
  P.Valid = true;
  return P;
}

StoragePath StoragePath::aliasOf(const StoragePath &SP) {
  StoragePath A;
  if (!SP.Valid || SP.Root == thisRoot() || SP.Elem != -1 || SP.Steps.empty() ||
      SP.Steps[0] != deref())
    return A;
  auto *VD = dyn_cast<VarDecl>(static_cast<const Decl *>(SP.Root));
  if (!VD || !VD->isLocalVarDecl() || !VD->getType()->isPointerType() || !VD->getInit())
    return A;
  // `(float *)c.N` too; an array field decays to its first element.
  const Expr *Init = VD->getInit()->IgnoreParenCasts();
  if (!isa<MemberExpr, DeclRefExpr>(Init))
    return A;
  QualType T = Init->getType();
  if (!T->isPointerType() && !T->isArrayType())
    return A;
  A = ofItem(Init);
  if (!A.Valid || A.Root == SP.Root || A.Root == thisRoot()) {
    A.Valid = false;
    return A;
  }
  if (T->isPointerType())
    A.Steps.push_back(deref());
  A.Steps.append(SP.Steps.begin() + 1, SP.Steps.end());
  return A;
}

namespace {

/// Whether the body of S computes only from its function's parameters and
/// locals: no global or static variable that is not const, no pointer or
/// reference it did not make, no allocation, assembly or throw, and calls
/// only of builtins without side effects and of such functions (three
/// deep). Constructors of classes are not followed: refused.
bool pureBody(const Stmt *S, const ASTContext &Ctx, unsigned Depth);

bool pureFunction(const FunctionDecl *FD, const ASTContext &Ctx, unsigned Depth) {
  if (!FD || Depth > 3 || FD->isVariadic() || isa<CXXMethodDecl>(FD))
    return false;
  if (unsigned ID = FD->getBuiltinID())
    return Ctx.BuiltinInfo.isConst(ID);
  const FunctionDecl *Def = definition(FD);
  if (!Def)
    return false;
  for (const ParmVarDecl *P : Def->parameters())
    if (P->getType()->isAnyPointerType() || P->getType()->isReferenceType() ||
        P->getType()->isArrayType())
      return false;
  return pureBody(Def->getBody(), Ctx, Depth + 1);
}

bool pureBody(const Stmt *S, const ASTContext &Ctx, unsigned Depth) {
  if (!S)
    return true;
  if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S) || isa<AsmStmt>(S) || isa<CXXThrowExpr>(S) ||
      isa<LambdaExpr>(S) || isa<CXXMemberCallExpr>(S) || isa<OMPExecutableDirective>(S))
    return false;
  if (auto *CE = dyn_cast<CXXConstructExpr>(S); CE && !CE->getConstructor()->isTrivial())
    return false;
  if (auto *R = dyn_cast<DeclRefExpr>(S)) {
    auto *V = dyn_cast<VarDecl>(R->getDecl());
    if (V && V->hasGlobalStorage() && !V->getType().isConstQualified())
      return false;
  }
  if (auto *C = dyn_cast<CallExpr>(S);
      C && !pureFunction(C->getDirectCallee(), Ctx, Depth))
    return false;
  for (const Stmt *Child : S->children())
    if (!pureBody(Child, Ctx, Depth))
      return false;
  return true;
}

/// Whether E's value is a pointer (false for the untyped nodes of
/// dependent code).
bool isPointer(const Expr *E) {
  return E && !E->getType().isNull() && E->getType()->isAnyPointerType();
}

/// What an expression's context does with it. Peek: reads a pointer only
/// to follow it.
enum Kind { None, Peek, Read, Write, ReadWrite, Escape };

struct Use {
  const void *Root;
  SmallVector<const void *, 4> Steps;
  Kind K;
  int64_t Elem = -1; // as StoragePath::Elem
};

/// Whether U cannot be in P's storage: other elements of one array of
/// pointers.
bool otherElement(const StoragePath &P, int64_t UseElem) {
  return P.Elem >= 0 && UseElem >= 0 && P.Elem != UseElem;
}

using Suffix = ArrayRef<const void *>;

SmallVector<const void *, 4> prepend(const void *Step, Suffix S) {
  SmallVector<const void *, 4> Out{Step};
  Out.append(S.begin(), S.end());
  return Out;
}

/// What a call does to the storage its arguments reach, from the callee's
/// body (CallSummary): per parameter, the access of what a pointer
/// parameter points to or a reference parameter refers to; the uses of
/// global storage; whether the body makes a call nobody can see into.
struct CallSummary {
  bool Opaque = false;
  std::vector<Kind> Params;
  std::vector<Use> Globals;
};

class Walker {
public:
  std::vector<Use> Uses;
  /// A call that may touch any memory it can reach (globals, pointees).
  bool OpaqueCall = false;
  /// Host code: device bodies are skipped, and so are Skip and markers.
  bool Host = false;
  /// Host code: the clauses of directives do not count (analyzeHostAccesses).
  bool NoMotion = false;
  /// Device code only: host code is followed (into the functions it calls)
  /// but only the uses inside target regions count.
  bool DeviceOnly = false;
  /// Definite writes only (DeviceOnly's facts are evidence, not a bound):
  /// an escape or an opaque call does not count as a write.
  bool Definite = false;
  /// Host writes of the host's own values (analyzeHostWrites): the data
  /// motion of target update/enter/exit data is skipped.
  bool HostValues = false;
  /// Stores of values the compiler cannot evaluate only
  /// (analyzeHostValueStores): a store of a constant is none, and a pointer
  /// handed to code that may write through it counts as a store.
  bool ValueStores = false;
  const ASTContext *ValueCtx = nullptr; // ValueStores: to evaluate values
  /// ValueStores: copies into storage from other storage (memcpy, std::copy,
  /// `a[i] = b[j]`), destination and source: not stores of their own, the
  /// source's values (analyzeHostValueStores follows them).
  std::vector<std::pair<StoragePath, StoragePath>> Copies;
  /// ValueStores: the constants stored into storage (constantKey): two
  /// different ones make its value depend on which store ran last.
  std::vector<std::pair<StoragePath, uint64_t>> ConstStores;
  /// ValueStores: the parameters of the function being summarised whose
  /// arguments at the call are constants.
  llvm::SmallPtrSet<const ParmVarDecl *, 4> ConstParams;
  const Stmt *Skip = nullptr;
  /// Callees being summarised, outermost first (no recursion, a bounded
  /// depth); set when the bound cut an analysis short (its summary is then
  /// not kept for others).
  std::vector<const FunctionDecl *> Stack;
  bool HitLimit = false;

  void stmt(const Stmt *S);
  void clauses(const OMPExecutableDirective *D);

private:
  void lvalue(const Expr *E, Kind K, Suffix S);
  void rvalue(const Expr *E, Kind K, Suffix S);
  void any(const Expr *E) {
    if (E->isGLValue())
      lvalue(E, None, {});
    else
      rvalue(E, None, {});
  }
  void escape(const Expr *E) {
    if (E->isGLValue())
      lvalue(E, Escape, {});
    else
      rvalue(E, None, {});
  }
  void record(const void *Root, Suffix S, Kind K) {
    if (K == None || (DeviceOnly && !InDevice && !Bind))
      return;
    if (auto A = Alias.find(Root); A != Alias.end()) {
      if (S.empty() && K != Read && K != Peek)
        Alias.erase(A); // the pointer is set again: another buffer now
      else if (!S.empty() && S[0] == StoragePath::deref())
        Uses.push_back({A->second, SmallVector<const void *, 4>(S.begin(), S.end()), K});
    }
    Uses.push_back({Root, SmallVector<const void *, 4>(S.begin(), S.end()), K, NextElem});
    NextElem = -1;
  }
  /// The element of an array of pointers that the subscript being walked
  /// names (pointerElement), for the record of its array.
  int64_t NextElem = -1;
  void call(const CallExpr *C);
  void object(const CXXMemberCallExpr *MC);
  /// What an assignment of Value does to its target: a write, or, when
  /// only stores of values the program computes count (ValueStores), none
  /// for a constant.
  Kind storeOf(const Expr *Target, const Expr *Value) {
    if (!ValueStores)
      return Write;
    if (constantValue(Value)) {
      StoragePath To = StoragePath::ofItem(Target);
      if (To.Valid)
        ConstStores.push_back({To, constantKey(Value)});
      return None;
    }
    // An element copied from other storage: that storage's value.
    const Expr *V = Value->IgnoreParenImpCasts();
    bool Load = isa<ArraySubscriptExpr>(V) ||
                (isa<UnaryOperator>(V) && cast<UnaryOperator>(V)->getOpcode() == UO_Deref) ||
                (isa<MemberExpr>(V) && cast<MemberExpr>(V)->isArrow());
    if (Load) {
      StoragePath To = StoragePath::ofItem(Target), From = StoragePath::ofItem(V);
      if (To.Valid && From.Valid) {
        Copies.push_back({To, From});
        return None;
      }
    }
    return Write;
  }
  /// Which constant E stores, comparable across stores: its value's bits
  /// (every zero is 0, as memset's zeros are), or for a parameter bound to
  /// a constant argument, the parameter (its value is the caller's).
  uint64_t constantKey(const Expr *E) const {
    if (const ParmVarDecl *PV = constParam(E))
      return reinterpret_cast<uintptr_t>(PV) | 1;
    Expr::EvalResult R;
    if (!E->EvaluateAsRValue(R, *ValueCtx)) {
      // A pure call: its function and its arguments' keys.
      if (const CallExpr *C = pureCall(E)) {
        llvm::hash_code H = llvm::hash_value(C->getDirectCallee()->getCanonicalDecl());
        for (const Expr *A : C->arguments())
          H = llvm::hash_combine(H, constantKey(A));
        return static_cast<uint64_t>(H) | 1;
      }
      return 1;
    }
    if (R.Val.isInt())
      return R.Val.getInt().isZero() ? 0 : R.Val.getInt().getZExtValue() << 1;
    if (R.Val.isFloat())
      return R.Val.getFloat().isZero()
                 ? 0
                 : R.Val.getFloat().bitcastToAPInt().getZExtValue() << 1 | 0x8000000000000000u;
    return 3; // some other constant (a struct, a pointer): one of its own kind
  }
  /// What pointer value E points to: `p`, `p + k`, `&p[k]`, an array.
  static StoragePath pointee(const Expr *E) {
    const VarDecl *VD = pointedVariable(E);
    StoragePath P;
    if (!VD)
      return P;
    P = StoragePath::ofVariable(VD);
    if (VD->getType()->isAnyPointerType())
      P.Steps.push_back(StoragePath::deref());
    else if (!VD->getType()->isArrayType())
      P.Valid = false;
    return P;
  }
  /// E names a parameter whose argument at this call is a constant
  /// (`fill(a, 1)`): the parameter, else null.
  const ParmVarDecl *constParam(const Expr *E) const {
    auto *R = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
    auto *PV = R ? dyn_cast<ParmVarDecl>(R->getDecl()) : nullptr;
    return PV && ConstParams.count(PV) ? PV : nullptr;
  }
  bool constantValue(const Expr *E) const {
    if (!E || !ValueCtx || E->isValueDependent() || E->isTypeDependent())
      return false;
    if (constParam(E))
      return true;
    Expr::EvalResult R;
    return (E->EvaluateAsRValue(R, *ValueCtx) && !R.HasSideEffects) || pureCall(E);
  }
  /// A call, with constant arguments, of a function that computes from its
  /// arguments alone (pureFunction: `float_to_half(1.f)`): the same value
  /// wherever it is made, which the compiler cannot evaluate. E else null.
  const CallExpr *pureCall(const Expr *E) const {
    auto *C = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
    if (!C || isa<CXXMemberCallExpr>(C) || !pureFunction(C->getDirectCallee(), *ValueCtx, 0))
      return nullptr;
    for (const Expr *A : C->arguments())
      if (!constantValue(A))
        return nullptr;
    return C;
  }
  bool summarized(const CallExpr *C, const FunctionDecl *FD);
  /// Definite: local pointers declared as another pointer plus an offset
  /// (`float *d = data + m * n`), to what that pointer points to: a write
  /// through them is a write to its buffer (until they are set again).
  llvm::DenseMap<const void *, const void *> Alias;
  static const void *pointerBase(const Expr *E);
  /// Inside a target region (DeviceOnly); binding a callee's summary to
  /// the arguments (their uses are the callee's, so they count).
  unsigned InDevice = 0;
  bool Bind = false;
  void children(const Stmt *S) {
    for (const Stmt *Child : S->children())
      if (auto *E = dyn_cast_or_null<Expr>(Child))
        escape(E);
      else if (Child)
        stmt(Child);
  }
};

/// Whether a library function may be given a value of type T without
/// reaching the program's data through it: a number, an enumerator, a
/// string (pointer to const char), or an object of a class the library
/// itself declares (in a system header) that it cannot call back (no
/// lambda, no `operator()`: std::function, a functor), by value or by
/// reference.
static bool libraryArgument(QualType T) {
  if (T.isNull())
    return false;
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isIntegralOrEnumerationType() || T->isRealFloatingType() || T->isNullPtrType())
    return true;
  if (const auto *PT = T->getAs<PointerType>()) {
    QualType P = PT->getPointeeType();
    return P.isConstQualified() && P->isCharType();
  }
  if (const auto *AT = dyn_cast<ArrayType>(T.getTypePtr()))
    return AT->getElementType().isConstQualified() && AT->getElementType()->isCharType();
  const CXXRecordDecl *RD = T->getAsCXXRecordDecl();
  if (!RD || RD->isLambda() || !RD->hasDefinition())
    return false;
  if (!RD->getASTContext().getSourceManager().isInSystemHeader(RD->getLocation()))
    return false;
  DeclarationName Call =
      RD->getASTContext().DeclarationNames.getCXXOperatorName(OO_Call);
  return RD->lookup(Call).empty();
}

/// The C library's and the standard library's routines that fill or copy
/// memory: which argument points to what they write (Dst) and to what they
/// read (Src, -1 for none); the others are numbers or values. Their
/// effect is known, so they are no escape: memcpy(x, y, n) writes x.
static bool memoryRoutine(const FunctionDecl *FD, const CallExpr *C, int &Dst, int &Src) {
  if (!FD || !FD->getIdentifier())
    return false;
  StringRef N = FD->getName();
  N.consume_front("__builtin_");
  unsigned Args = C->getNumArgs();
  bool Std = FD->isInStdNamespace();
  Dst = 0;
  Src = -1;
  if ((N == "memcpy" || N == "memmove") && Args == 3 && !Std)
    return Src = 1, true;
  if (N == "memset" && Args == 3 && !Std)
    return true;
  if (N == "bzero" && Args == 2)
    return true;
  if (Std && (N == "copy" || N == "copy_n") && Args == 3)
    return Dst = 2, Src = 0, true;
  if (Std && (N == "fill" || N == "fill_n") && Args == 3)
    return true;
  return false;
}

static bool readsItsObject(const CXXMethodDecl *MD);

/// A parameter through which the callee can only read: a pointer to const
/// (or a reference to const) of a type without mutable members.
static bool readOnlyPointer(QualType T) {
  QualType P;
  if (const auto *PT = T->getAs<PointerType>())
    P = PT->getPointeeType();
  else if (const auto *RT = T->getAs<ReferenceType>())
    P = RT->getPointeeType();
  else
    return false;
  if (!P.isConstQualified())
    return false;
  const CXXRecordDecl *RD = P->getAsCXXRecordDecl();
  return !RD || (RD->hasDefinition() && !RD->hasMutableFields());
}

void Walker::call(const CallExpr *C) {
  const FunctionDecl *FD = C->getDirectCallee();
  if (FD && FD->getIdentifier() && FD->getName() == OMPDP_MARKER_FN)
    return; // the plugin's own marker: not the program's code
  if (Host && C == Skip) {
    // The call whose host accesses are wanted (a call of a function that
    // holds constructs): what its callee does is asked of the callee;
    // what its arguments compute is host code around it.
    for (const Expr *A : C->arguments())
      any(A);
    return;
  }
  if (FD && summarized(C, FD))
    return;
  int Dst, Src;
  if (memoryRoutine(FD, C, Dst, Src)) {
    // memset, bzero, std::fill of a constant: a store of a constant.
    int Value = FD->isInStdNamespace() ? 2 : C->getNumArgs() == 3 ? 1 : -1; // bzero: none
    bool Constant = ValueStores && Src < 0 && (Value < 0 || constantValue(C->getArg(Value)));
    if (Constant) {
      StoragePath To = pointee(C->getArg(Dst));
      if (To.Valid) {
        uint64_t Key = 0; // bzero
        if (Value >= 0 && FD->isInStdNamespace())
          Key = constantKey(C->getArg(Value));
        else if (Value >= 0) { // memset's byte
          Expr::EvalResult R;
          Key = C->getArg(Value)->EvaluateAsRValue(R, *ValueCtx) && R.Val.isInt() &&
                        !R.Val.getInt().isZero()
                    ? (R.Val.getInt().getZExtValue() & 0xff) << 1 | 0x4000000000000000u
                    : 0;
        }
        ConstStores.push_back({To, Key});
      }
    }
    if (ValueStores && Src >= 0) {
      StoragePath To = pointee(C->getArg(Dst)), From = pointee(C->getArg(Src));
      if (To.Valid && From.Valid) {
        Copies.push_back({To, From});
        Constant = true; // the source's values, followed there
      }
    }
    for (unsigned I = 0; I < C->getNumArgs(); ++I) {
      const Expr *A = C->getArg(I);
      // std::copy(first, last, out), std::fill(first, last, v): `last`
      // points into what `first` does.
      bool SameAsDst = FD->isInStdNamespace() && int(I) == 1 && Dst == 0;
      bool SameAsSrc = FD->isInStdNamespace() && int(I) == 1 && Src == 0;
      if (int(I) == Dst || SameAsDst)
        rvalue(A, Constant ? Peek : Write, {});
      else if (int(I) == Src || SameAsSrc)
        rvalue(A, Read, {});
      else
        rvalue(A, None, {});
    }
    return;
  }
  // A library function of a system header that is given no pointer to the
  // program's data (only numbers, strings, and the library's own objects,
  // such as std::chrono's time points) cannot reach that data: it would
  // need a pointer kept from an earlier call, and the libraries that keep
  // one (MPI's nonblocking calls, asynchronous I/O) take a pointer at the
  // call that uses it again (`MPI_Wait(&req)`), which keeps the call
  // opaque. What it is given escapes below as for any call.
  bool Library = FD && FD->getASTContext().getSourceManager().isInSystemHeader(
                           FD->getLocation());
  for (const Expr *A : C->arguments())
    Library = Library && libraryArgument(A->getType());
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    Library = Library && libraryArgument(MC->getImplicitObjectArgument()->getType());
  bool Pure = FD && (FD->getBuiltinID() || FD->hasAttr<ConstAttr>() ||
                     FD->hasAttr<PureAttr>() || Library);
  if (!Pure)
    OpaqueCall = true;
  // An overloaded operator that is a member (`p(x)`, `v[i]`) is called on
  // its first argument: read by a const method, as object() says of a
  // member call.
  unsigned First = 0;
  if (auto *MD = dyn_cast_or_null<CXXMethodDecl>(FD);
      MD && !MD->isStatic() && isa<CXXOperatorCallExpr>(C) && C->getNumArgs() &&
      readsItsObject(MD)) {
    const Expr *Obj = C->getArg(0);
    if (Obj->isGLValue())
      lvalue(Obj, Read, {});
    else
      rvalue(Obj, Read, {});
    First = 1;
  }
  if (auto *MC = dyn_cast<CXXMemberCallExpr>(C))
    object(MC);
  else if (!FD)
    any(C->getCallee());
  // Arguments bound to references or passed as pointers escape. For the
  // stores of computed values, a pointer to const (`fwrite`, `memcmp`) lets
  // the callee read only, and `free` stores nothing.
  bool Frees = FD && FD->getIdentifier() &&
               (FD->getName() == "free" || FD->getName() == "cfree") &&
               FD->getASTContext().getSourceManager().isInSystemHeader(FD->getLocation());
  for (unsigned I = First; I < C->getNumArgs(); ++I) {
    const Expr *A = C->getArg(I);
    if (ValueStores && (Frees || (FD && I < FD->getNumParams() && readOnlyPointer(FD->getParamDecl(I)->getType())))) {
      rvalue(A, Frees ? Peek : Read, {});
      continue;
    }
    escape(A);
  }
}

/// Whether method MD can change the object it is called on only through
/// its pointers: a const method of a class without mutable members, or any
/// method of an empty class (no data members, no virtual functions or
/// bases: nothing in the object to write; a functor that only holds code,
/// HeCBench pool's `AvgPoolGrad::compute`).
static bool readsItsObject(const CXXMethodDecl *MD) {
  if (!MD || MD->isStatic())
    return false;
  const CXXRecordDecl *RD = MD->getParent();
  if (!RD || !RD->hasDefinition())
    return false;
  if (RD->isEmpty())
    return true;
  return MD->isConst() && !RD->hasMutableFields();
}

/// The object a member function is called on: read by a const method (what
/// its pointers reach goes along, as for a copy), else it escapes.
void Walker::object(const CXXMemberCallExpr *MC) {
  const Expr *Obj = MC->getImplicitObjectArgument();
  if (!Obj || !readsItsObject(MC->getMethodDecl()))
    return escape(Obj);
  if (Obj->isGLValue())
    return lvalue(Obj, Read, {});
  rvalue(Obj, Read, {}); // p->f(): what p points to
}

void Walker::rvalue(const Expr *E, Kind K, Suffix S) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (E->getType().isNull())
    return children(E); // dependent code (a template's body): ParenListExpr
  // A pointer's value used to reach what it points to, with no load in the
  // tree: a template's own body (dependent code has no implicit casts),
  // which a call summary reads when the instantiation has none yet.
  if (E->isGLValue() && K != None && E->isInstantiationDependent() &&
      E->getType()->isAnyPointerType()) {
    lvalue(E, Peek, {});
    return lvalue(E, K, prepend(StoragePath::deref(), S));
  }
  if (E->isGLValue())
    return lvalue(E, K == None ? None : K, S);
  bool Ptr = E->getType()->isAnyPointerType();
  if (auto *CE = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = CE->getSubExpr();
    switch (CE->getCastKind()) {
    case CK_LValueToRValue:
      if (Ptr && K != None) {
        lvalue(Sub, Peek, {});
        lvalue(Sub, K, prepend(StoragePath::deref(), S));
      } else if (Ptr) {
        lvalue(Sub, Read, {});
        lvalue(Sub, Escape, prepend(StoragePath::deref(), {}));
      } else {
        lvalue(Sub, Read, {});
      }
      return;
    case CK_ArrayToPointerDecay:
      return lvalue(Sub, K == None ? Escape : K, S);
    case CK_FunctionToPointerDecay:
    case CK_BuiltinFnToFnPtr:
      return;
    case CK_NoOp:
    case CK_BitCast:
    case CK_AddressSpaceConversion:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
      return rvalue(Sub, K, S);
    case CK_PointerToBoolean:
      if (ValueStores)
        return rvalue(Sub, Peek, {}); // `if (p)`: stores nothing through it
      return rvalue(Sub, None, {});
    default:
      return rvalue(Sub, None, {}); // a pointer turned into a number escapes
    }
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_AddrOf:
      return lvalue(UO->getSubExpr(), K == None ? Escape : K, S);
    case UO_PreInc:
    case UO_PreDec:
    case UO_PostInc:
    case UO_PostDec:
      return lvalue(UO->getSubExpr(), ReadWrite, {});
    default:
      return rvalue(UO->getSubExpr(),
                    ValueStores && UO->getOpcode() == UO_LNot && isPointer(UO->getSubExpr())
                        ? Peek
                        : None,
                    {});
    }
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Assign) {
      lvalue(BO->getLHS(), storeOf(BO->getLHS(), BO->getRHS()), {});
      return rvalue(BO->getRHS(), None, {});
    }
    if (BO->isCompoundAssignmentOp()) {
      lvalue(BO->getLHS(), ReadWrite, {});
      return rvalue(BO->getRHS(), None, {});
    }
    if (BO->getOpcode() == BO_Comma) {
      any(BO->getLHS());
      return rvalue(BO->getRHS(), K, S);
    }
    if (Ptr && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      // Pointer arithmetic stays within what the pointer points to.
      const Expr *L = BO->getLHS(), *R = BO->getRHS();
      if (isPointer(R))
        std::swap(L, R);
      rvalue(L, K, S);
      return rvalue(R, None, {});
    }
    // `p == NULL`, `p && n`: stores nothing through p.
    Kind Operand = ValueStores && (BO->isComparisonOp() || BO->isLogicalOp()) ? Peek : None;
    rvalue(BO->getLHS(), isPointer(BO->getLHS()) ? Operand : None, {});
    return rvalue(BO->getRHS(), isPointer(BO->getRHS()) ? Operand : None, {});
  }
  if (auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    rvalue(CO->getCond(), None, {});
    rvalue(CO->getTrueExpr(), K, S);
    return rvalue(CO->getFalseExpr(), K, S);
  }
  if (isa<CXXThisExpr>(E)) {
    if (K == None)
      return record(StoragePath::thisRoot(), prepend(StoragePath::deref(), {}),
                    Escape);
    record(StoragePath::thisRoot(), {}, Peek);
    return record(StoragePath::thisRoot(), prepend(StoragePath::deref(), S), K);
  }
  if (auto *C = dyn_cast<CallExpr>(E))
    return call(C);
  if (auto *DE = dyn_cast<CXXDeleteExpr>(E); DE && ValueStores)
    return rvalue(DE->getArgument(), Peek, {}); // stores nothing the program reads
  if (auto *CE = dyn_cast<CXXConstructExpr>(E)) {
    // An object passed or captured by value: a trivial copy (or move) reads
    // the source's bytes and nothing else, so the source is read, and what
    // its pointers point to goes along with the copy (the uses of storage
    // around an item reached through a pointer count as an escape). Any
    // other constructor may do anything with what it is given.
    const CXXConstructorDecl *Ctor = CE->getConstructor();
    if (Ctor && Ctor->isTrivial() && Ctor->isCopyOrMoveConstructor() &&
        CE->getNumArgs() == 1 && CE->getArg(0)->isGLValue()) {
      lvalue(CE->getArg(0), Read, {});
      return;
    }
    for (const Expr *A : CE->arguments())
      escape(A);
    return;
  }
  if (auto *LE = dyn_cast<LambdaExpr>(E)) {
    for (const Expr *Init : LE->capture_inits())
      if (Init)
        escape(Init);
    return;
  }
  if (isa<IntegerLiteral, FloatingLiteral, CharacterLiteral, StringLiteral,
          CXXBoolLiteralExpr, CXXNullPtrLiteralExpr, UnaryExprOrTypeTraitExpr,
          DeclRefExpr>(E))
    return; // constants, sizeof, enumerators
  children(E);
}

void Walker::lvalue(const Expr *E, Kind K, Suffix S) {
  if (!E)
    return;
  E = E->IgnoreParens();
  if (E->getType().isNull())
    return children(E);
  if (!E->isGLValue())
    return rvalue(E, K, S);
  if (auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (isa<VarDecl>(DRE->getDecl()))
      record(rootOf(DRE->getDecl()), S, K);
    return;
  }
  if (auto *ME = dyn_cast<MemberExpr>(E)) {
    auto *FD = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!FD)
      return any(ME->getBase());
    SmallVector<const void *, 4> Inner = prepend(rootOf(FD), S);
    if (ME->isArrow())
      return rvalue(ME->getBase(), K == None ? Peek : K, Inner);
    return lvalue(ME->getBase(), K, Inner);
  }
  if (auto *AE = dyn_cast<ArraySubscriptExpr>(E)) {
    rvalue(AE->getIdx(), None, {});
    // The array's record comes next (its decay leads straight to it).
    NextElem = StoragePath::pointerElement(AE);
    rvalue(AE->getBase(), K == None ? Peek : K, S);
    NextElem = -1;
    return;
  }
  if (auto *AS = dyn_cast<ArraySectionExpr>(E)) {
    for (const Expr *X :
         {AS->getLowerBound(), AS->getLength(), AS->getStride()})
      if (X)
        rvalue(X, None, {});
    const Expr *B = AS->getBase();
    if (isPointer(B->IgnoreParenImpCasts()))
      return rvalue(B, K, S);
    return lvalue(B->IgnoreParenImpCasts(), K, S);
  }
  if (auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Deref)
      return rvalue(UO->getSubExpr(), K == None ? Peek : K, S);
    if (UO->isIncrementDecrementOp())
      return lvalue(UO->getSubExpr(), ReadWrite, {});
    return any(UO->getSubExpr());
  }
  if (auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->isAssignmentOp()) {
      lvalue(BO->getLHS(),
             BO->getOpcode() == BO_Assign ? storeOf(BO->getLHS(), BO->getRHS()) : ReadWrite, {});
      return rvalue(BO->getRHS(), None, {});
    }
    if (BO->getOpcode() == BO_Comma) {
      any(BO->getLHS());
      return lvalue(BO->getRHS(), K, S);
    }
  }
  if (auto *CO = dyn_cast<AbstractConditionalOperator>(E)) {
    rvalue(CO->getCond(), None, {});
    lvalue(CO->getTrueExpr(), K, S);
    return lvalue(CO->getFalseExpr(), K, S);
  }
  if (auto *CE = dyn_cast<CastExpr>(E)) {
    // The same object as another type: `const T &` bound to a T, a base
    // class subobject.
    switch (CE->getCastKind()) {
    case CK_NoOp:
    case CK_DerivedToBase:
    case CK_UncheckedDerivedToBase:
    case CK_BaseToDerived:
      return lvalue(CE->getSubExpr(), K, S);
    default:
      break;
    }
  }
  if (auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return any(MT->getSubExpr());
  if (auto *OV = dyn_cast<OpaqueValueExpr>(E)) {
    if (OV->getSourceExpr())
      lvalue(OV->getSourceExpr(), K, S);
    return;
  }
  if (auto *C = dyn_cast<CallExpr>(E))
    return call(C); // returns a reference: who knows what to
  children(E);
}

void Walker::clauses(const OMPExecutableDirective *D) {
  for (const OMPClause *C : D->clauses()) {
    Kind K = None;
    if (isa<OMPReductionClause, OMPTaskReductionClause, OMPInReductionClause,
            OMPLinearClause, OMPCopyinClause, OMPCopyprivateClause>(C))
      K = ReadWrite;
    else if (isa<OMPLastprivateClause>(C))
      K = Write;
    else if (isa<OMPFirstprivateClause>(C))
      K = Read;
    else
      continue;
    for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
      if (auto *E = dyn_cast_or_null<Expr>(Child))
        // A pointer copied into the region only to be followed there: the
        // body's uses through it are recorded as they are.
        lvalue(E, K == Read && E->getType()->isAnyPointerType() ? Peek : K, {});
  }
}

void Walker::stmt(const Stmt *S) {
  if (!S)
    return;
  if (auto *E = dyn_cast<Expr>(S))
    return any(E);
  if (auto *CS = dyn_cast<CapturedStmt>(S))
    return stmt(CS->getCapturedStmt());
  if (Host && S == Skip)
    return;
  if (auto *D = dyn_cast<OMPExecutableDirective>(S); D && DeviceOnly && !InDevice) {
    llvm::omp::Directive K = D->getDirectiveKind();
    if (K == llvm::omp::OMPD_target_enter_data || K == llvm::omp::OMPD_target_exit_data ||
        K == llvm::omp::OMPD_target_update)
      return; // the host moves data; no device code runs
    if (isOpenMPTargetExecutionDirective(K)) {
      ++InDevice;
      clauses(D);
      if (D->hasAssociatedStmt())
        stmt(D->getAssociatedStmt());
      --InDevice;
      return;
    }
  }
  if (auto *D = dyn_cast<OMPExecutableDirective>(S); D && Host) {
    llvm::omp::Directive K = D->getDirectiveKind();
    if (isOpenMPTargetExecutionDirective(K))
      return; // device code
    if (NoMotion && (K == llvm::omp::OMPD_target_enter_data ||
                     K == llvm::omp::OMPD_target_exit_data ||
                     K == llvm::omp::OMPD_target_update))
      return;
    if (NoMotion && K == llvm::omp::OMPD_target_data) {
      if (D->hasAssociatedStmt())
        stmt(D->getAssociatedStmt());
      return;
    }
    if (K == llvm::omp::OMPD_target_enter_data ||
        K == llvm::omp::OMPD_target_exit_data ||
        K == llvm::omp::OMPD_target_update) {
      if (HostValues)
        return; // bytes the device had, not ones the host computed
      for (const OMPClause *C : D->clauses())
        if (isa<OMPMapClause, OMPToClause, OMPFromClause>(C))
          for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
            if (auto *E = dyn_cast_or_null<Expr>(Child))
              lvalue(E, ReadWrite, {});
      return;
    }
  }
  if (auto *D = dyn_cast<OMPExecutableDirective>(S)) {
    clauses(D);
    if (D->hasAssociatedStmt())
      stmt(D->getAssociatedStmt());
    return;
  }
  if (auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Dcl : DS->decls())
      if (auto *VD = dyn_cast<VarDecl>(Dcl); VD && VD->getInit()) {
        // Another name for (a part of) a buffer, whose stores the alias
        // below follows: the declaration itself stores nothing.
        if (ValueStores && VD->getType()->isAnyPointerType() && pointerBase(VD->getInit()))
          rvalue(VD->getInit(), Peek, {});
        else
          escape(VD->getInit());
        if (Definite && VD->getType()->isAnyPointerType())
          if (const void *Base = pointerBase(VD->getInit()))
            Alias[rootOf(VD)] = Base;
      }
    return;
  }
  children(S);
}

bool prefix(ArrayRef<const void *> A, ArrayRef<const void *> B) {
  return A.size() <= B.size() && std::equal(A.begin(), A.end(), B.begin());
}

/// Whether Var is a local pointer of its function that is the only name
/// of a buffer the function allocated (onlyNameOfBuffer), remembered.
bool ownBuffer(const VarDecl *Var) {
  static std::map<std::pair<const ASTContext *, const VarDecl *>, bool> Known;
  if (!Var->hasLocalStorage() || isa<ParmVarDecl>(Var) || !Var->getType()->isAnyPointerType())
    return false;
  auto Key = std::make_pair(&Var->getASTContext(), Var->getCanonicalDecl());
  if (auto It = Known.find(Key); It != Known.end())
    return It->second;
  const DeclContext *DC = Var->getDeclContext();
  while (DC && !isa<FunctionDecl>(DC))
    DC = DC->getParent();
  Known[Key] = false; // while it is worked out (a call back to here)
  bool Own = DC && ompdp::onlyNameOfBuffer(cast<FunctionDecl>(DC), Var->getCanonicalDecl());
  return Known[Key] = Own;
}

/// The OMPDP_ACCESS of each item, from what W saw (W.Definite: only
/// writes seen, no escapes or opaque calls, count as writes).
std::vector<uint32_t> classify(const Walker &W, ArrayRef<StoragePath> Items) {
  std::vector<uint32_t> Out(Items.size(), AC_UNKNOWN);
  for (size_t I = 0; I < Items.size(); ++I) {
    const StoragePath &P = Items[I];
    if (!P.Valid) {
      Out[I] = AC_READ_WRITE;
      continue;
    }
    bool R = false, Wr = false;
    auto Apply = [&](Kind K) {
      R |= K == Read || K == Peek || K == ReadWrite || K == Escape;
      Wr |= K == Write || K == ReadWrite || (K == Escape && (!W.Definite || W.ValueStores));
    };
    for (const Use &U : W.Uses) {
      if (U.Root != P.Root || otherElement(P, U.Elem))
        continue;
      if (prefix(P.Steps, U.Steps)) {
        // Inside the item's storage; beyond a pointer stored in it is
        // other storage (the pointer's load is a use of its own).
        if (std::find(U.Steps.begin() + P.Steps.size(), U.Steps.end(),
                      StoragePath::deref()) == U.Steps.end())
          Apply(U.K);
      } else if (prefix(U.Steps, P.Steps) && U.K != Peek) {
        // Storage around the item: the item goes with it; a copy of a
        // pointer on the way to it lets it be reached from elsewhere.
        bool ThroughPointer =
            std::find(P.Steps.begin() + U.Steps.size(), P.Steps.end(),
                      StoragePath::deref()) != P.Steps.end();
        // Stores of computed values: setting or copying the pointer stores
        // nothing where it points (an escape of that is recorded there).
        if (ThroughPointer && W.ValueStores)
          continue;
        Apply(ThroughPointer ? Escape : U.K);
      }
    }
    // A call the analysis cannot see into may reach globals and anything
    // behind a pointer.
    if (W.OpaqueCall && !W.Definite) {
      auto *Var = P.Root == StoragePath::thisRoot()
                      ? nullptr
                      : dyn_cast<VarDecl>(static_cast<const Decl *>(P.Root));
      bool Reachable = P.Root == StoragePath::thisRoot() ||
                       (Var && Var->hasGlobalStorage()) ||
                       std::find(P.Steps.begin(), P.Steps.end(),
                                 StoragePath::deref()) != P.Steps.end();
      // Not a buffer the function allocated whose address never left it
      // (the items' own pointer, and no pointer stored in the buffer
      // followed further).
      if (Reachable && Var && !P.Steps.empty() && P.Steps[0] == StoragePath::deref() &&
          std::find(P.Steps.begin() + 1, P.Steps.end(), StoragePath::deref()) == P.Steps.end() &&
          ownBuffer(Var))
        Reachable = false;
      if (Reachable)
        R = Wr = true;
    }
    Out[I] = R && Wr ? AC_READ_WRITE : R ? AC_READ : Wr ? AC_WRITE : AC_NONE;
  }
  return Out;
}

/// The pointer variable E is an offset from (`p`, `p + i`, `i + p`, `p - i`,
/// `&p[i]`), as a root, or null.
const void *Walker::pointerBase(const Expr *E) {
  const VarDecl *V = pointedVariable(E);
  return V && V->getType()->isAnyPointerType() ? rootOf(V) : nullptr;
}

/// The summaries of callees, per function and kind of walk (kept for the
/// translation unit: declarations do not move while the plugin runs).
using SummaryKey = std::tuple<const ASTContext *, const FunctionDecl *, unsigned>;
std::map<SummaryKey, CallSummary> &summaries() {
  static std::map<SummaryKey, CallSummary> M;
  return M;
}

constexpr size_t MaxCallDepth = 4;

Kind kindOf(uint32_t Access) {
  switch (Access) {
  case AC_NONE:
    return None;
  case AC_READ:
    return Read;
  case AC_WRITE:
    return Write;
  default:
    return ReadWrite;
  }
}

/// A direct call of a function whose body the translation unit has (not a
/// method: its object is not followed), bound to its arguments from the
/// callee's summary; false when there is none (the caller then assumes the
/// worst).
bool Walker::summarized(const CallExpr *C, const FunctionDecl *FD) {
  if (isa<CXXMemberCallExpr>(C))
    return false;
  if (auto *MD = dyn_cast<CXXMethodDecl>(FD); MD && !MD->isStatic())
    return false;
  if (FD->isVariadic())
    return false;
  // A template's instantiation whose body is not made yet (the plugin sees
  // a function as soon as it is instantiated, its callees' instantiations
  // come later): the template's own body says the same of the parameters.
  // For evidence (Definite) what it shows is what every instance does; for
  // a bound, what depends on the template's arguments there (a call or an
  // operator not resolved yet) is a call the walk cannot see into, which
  // may reach anything behind a pointer, as for any opaque call (HeCBench
  // histogram: run_smem_atomics<3, 256, uchar4> is walked before
  // DecodePixel<256, 3>'s instance has a body, and its image was taken to
  // be written).
  const FunctionDecl *Body = nullptr;
  if (!FD->hasBody(Body) || !Body || !Body->getBody()) {
    const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
    Body = nullptr;
    if (!Pattern || !Pattern->hasBody(Body) || !Body || !Body->getBody() ||
        Body->getNumParams() != FD->getNumParams())
      return false;
  }
  const SourceManager &SM = Body->getASTContext().getSourceManager();
  if (SM.isInSystemHeader(Body->getLocation()))
    return false; // the library's own code: its declaration is enough
  const FunctionDecl *Def = Body->getCanonicalDecl();
  if (llvm::is_contained(Stack, Def) || Stack.size() >= MaxCallDepth) {
    HitLimit = true;
    return false;
  }
  bool SubDevice = DeviceOnly && !InDevice;
  unsigned Mode = (Host ? 1u : 0u) | (SubDevice ? 2u : 0u) | (Definite ? 4u : 0u) |
                  (NoMotion ? 8u : 0u) | (HostValues ? 16u : 0u) | (ValueStores ? 32u : 0u);
  // Stores of computed values: which scalar arguments are constants here
  // (the first 20 parameters), a summary for each pattern.
  unsigned ConstArgs = 0;
  if (ValueStores)
    for (unsigned I = 0; I < C->getNumArgs() && I < Body->getNumParams() && I < 20; ++I)
      if (!Body->getParamDecl(I)->getType()->isAnyPointerType() && constantValue(C->getArg(I)))
        ConstArgs |= 1u << I;
  Mode |= ConstArgs << 6;
  SummaryKey Key{&Def->getASTContext(), Def, Mode};
  auto Found = summaries().find(Key);
  CallSummary Sum;
  if (Found != summaries().end()) {
    Sum = Found->second;
  } else {
    Walker Sub;
    Sub.Host = Host;
    Sub.NoMotion = NoMotion;
    Sub.DeviceOnly = SubDevice;
    Sub.Definite = Definite;
    Sub.HostValues = HostValues;
    Sub.ValueStores = ValueStores;
    Sub.ValueCtx = ValueCtx;
    for (unsigned I = 0; I < 20; ++I)
      if (ConstArgs >> I & 1u)
        Sub.ConstParams.insert(Body->getParamDecl(I));
    Sub.Stack = Stack;
    Sub.Stack.push_back(Def);
    Sub.stmt(Body->getBody());
    Sum.Opaque = Sub.OpaqueCall;
    std::vector<StoragePath> Paths;
    for (const ParmVarDecl *P : Body->parameters()) {
      StoragePath SP = StoragePath::ofVariable(P);
      QualType T = P->getType();
      if (T->isAnyPointerType())
        SP.Steps.push_back(StoragePath::deref());
      else if (!T->isReferenceType())
        SP.Valid = false; // a copy: nothing of the caller's
      Paths.push_back(SP);
    }
    std::vector<uint32_t> Access = classify(Sub, Paths);
    for (size_t I = 0; I < Paths.size(); ++I)
      Sum.Params.push_back(Paths[I].Valid ? kindOf(Access[I]) : None);
    for (const Use &U : Sub.Uses) {
      if (U.Root == StoragePath::thisRoot())
        continue;
      auto *V = dyn_cast<VarDecl>(static_cast<const Decl *>(U.Root));
      if (V && V->hasGlobalStorage())
        Sum.Globals.push_back(U);
    }
    HitLimit |= Sub.HitLimit;
    if (!Sub.HitLimit)
      summaries().emplace(Key, Sum);
  }
  if (Sum.Opaque)
    OpaqueCall = true;
  Uses.insert(Uses.end(), Sum.Globals.begin(), Sum.Globals.end());
  for (unsigned I = 0; I < C->getNumArgs(); ++I) {
    const Expr *A = C->getArg(I);
    if (I >= FD->getNumParams() || I >= Sum.Params.size()) {
      escape(A);
      continue;
    }
    QualType T = FD->getParamDecl(I)->getType();
    // A variable handed to a pointer the callee never follows: for the host
    // code around data kept on the device (NoMotion), which asks only what
    // the host does with the data, not a use; otherwise looked at (a read
    // of what it points to, to be safe).
    if (NoMotion && Sum.Params[I] == None && T->isAnyPointerType() &&
        isa<DeclRefExpr>(A->IgnoreParenImpCasts()))
      continue;
    Kind K = Sum.Params[I] == None ? Peek : Sum.Params[I];
    if (T->isReferenceType() && A->isGLValue()) {
      bool Was = Bind;
      Bind = true;
      lvalue(A, K, {});
      Bind = Was;
    } else if (T->isAnyPointerType()) {
      bool Was = Bind;
      Bind = true;
      rvalue(A, K, {});
      Bind = Was;
    } else {
      escape(A);
    }
  }
  return true;
}

} // namespace

std::vector<uint32_t> ompdp::analyzeAccesses(const OMPExecutableDirective *D,
                                             ArrayRef<StoragePath> Items) {
  if (!D->hasAssociatedStmt())
    return std::vector<uint32_t>(Items.size(), AC_UNKNOWN);
  Walker W;
  W.clauses(D);
  W.stmt(D->getInnermostCapturedStmt()->getCapturedStmt());
  return classify(W, Items);
}

std::vector<uint32_t> ompdp::analyzeHostAccesses(const Stmt *S,
                                                 const Stmt *Skip,
                                                 ArrayRef<StoragePath> Items,
                                                 bool MotionIsUse) {
  Walker W;
  W.Host = true;
  W.NoMotion = !MotionIsUse;
  W.Skip = Skip;
  W.stmt(S);
  return classify(W, Items);
}

std::vector<uint32_t> ompdp::analyzeDeviceAccesses(ArrayRef<const Stmt *> Stmts,
                                                   ArrayRef<StoragePath> Items,
                                                   bool Definite) {
  Walker W;
  W.DeviceOnly = true;
  W.Definite = Definite;
  for (const Stmt *S : Stmts)
    W.stmt(S);
  return classify(W, Items);
}

std::vector<bool> ompdp::analyzeHostWrites(ArrayRef<const Stmt *> Stmts, const Stmt *Skip,
                                           ArrayRef<StoragePath> Items) {
  Walker W;
  W.Host = true;
  W.Definite = true;
  W.HostValues = true;
  W.Skip = Skip;
  for (const Stmt *S : Stmts)
    W.stmt(S);
  std::vector<uint32_t> Access = classify(W, Items);
  std::vector<bool> Out(Items.size());
  for (size_t I = 0; I < Items.size(); ++I)
    Out[I] = Items[I].Valid && (Access[I] == AC_WRITE || Access[I] == AC_READ_WRITE);
  return Out;
}

/// Whether storage P overlaps T: one's path leads into the other's.
static bool overlaps(const StoragePath &P, const StoragePath &T) {
  return P.Root == T.Root && (prefix(T.Steps, P.Steps) || prefix(P.Steps, T.Steps));
}

/// Whether the walk W saw stores of computed values into P: a store of a
/// value it cannot evaluate, two different constants, or a copy into it
/// from storage with such stores (to a bounded depth: a file read into a
/// buffer, then copied).
static bool valueStored(const Walker &W, const StoragePath &P, unsigned Depth) {
  if (!P.Valid)
    return false;
  uint32_t A = classify(W, {P})[0];
  if (A == AC_WRITE || A == AC_READ_WRITE)
    return true;
  // Two different constants: which one it holds depends on which store ran
  // last (`if (argc > 1) b[i] = 2; else b[i] = 1;`).
  const uint64_t *First = nullptr;
  for (const auto &[To, Key] : W.ConstStores)
    if (overlaps(P, To)) {
      if (First && Key != *First)
        return true;
      First = &Key;
    }
  for (const auto &[To, From] : W.Copies)
    if (Depth < 3 && overlaps(P, To) && valueStored(W, From, Depth + 1))
      return true;
  return false;
}

std::vector<bool> ompdp::analyzeHostValueStores(ArrayRef<const Stmt *> Stmts,
                                                const ASTContext &Ctx,
                                                ArrayRef<StoragePath> Items) {
  Walker W;
  W.ValueCtx = &Ctx;
  W.Host = true;
  W.Definite = true;
  W.HostValues = true;
  W.ValueStores = true;
  for (const Stmt *S : Stmts)
    W.stmt(S);
  std::vector<bool> Out(Items.size());
  for (size_t I = 0; I < Items.size(); ++I)
    Out[I] = valueStored(W, Items[I], 0);
  return Out;
}

const VarDecl *ompdp::pointedVariable(const Expr *E) {
  for (;;) {
    E = E->IgnoreParenCasts();
    if (auto *BO = dyn_cast<BinaryOperator>(E);
        BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
      E = isPointer(BO->getLHS()->IgnoreParenImpCasts()) ? BO->getLHS() : BO->getRHS();
      continue;
    }
    if (auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
      if (auto *AE = dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens())) {
        E = AE->getBase();
        continue;
      }
    break;
  }
  auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

const FunctionDecl *ompdp::definition(const FunctionDecl *FD) {
  const FunctionDecl *Def = nullptr;
  if (FD->hasBody(Def) && Def && Def->getBody())
    return Def;
  if (const FunctionDecl *Pat = FD->getTemplateInstantiationPattern())
    if (Pat->hasBody(Def) && Def && Def->getBody())
      return Def;
  return nullptr;
}
