//===- RegionCollector.cpp - find offload constructs and mark them -------===//
//
// A RecursiveASTVisitor (RegionCollectorImpl.h) keeps a stack of the loops
// around the current statement (reset at every function or lambda body,
// since a loop around a lambda's definition does not repeat the lambda's
// body), the function it is in, the innermost function-like context
// (function, lambda, OpenMP captured region) and the statements above it.
// Template instantiations are visited, not patterns: Sema adds the implicit
// map clauses only once types are known, and code generation only ever
// emits instantiations. This file records each construct, its items
// (explicit, implicit and uncovered captures), their source ranges and
// what a device-side fill of each needs; HostContext.cpp adds the
// construct's statement and the host code around it, Markers.cpp the
// markers the pass finds regions by (without debug info Clang's offload
// calls say nothing about where they come from, and turning it on makes
// OpenMP code generation quadratic in the number of constructs).
//
//===----------------------------------------------------------------------===//
#include "RegionCollectorImpl.h"

#include "AccessAnalysis.h"
#include "CopyOf.h"
#include "FreshHost.h"
#include "HostUnread.h"
#include "WritesAll.h"

#include <functional>

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

} // namespace

/// Text with every run of white space (and line continuation) made one
/// blank, none at either end, as text() records clauses.
std::string ompdp::collector::collapseSpace(StringRef T) {
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

const Expr *ompdp::collector::stripToVariable(const Expr *E) {
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

/// The file a construct (or call) beginning at B is written in (its
/// expansion), and the hash of its contents.
void RegionCollector::Impl::fillFile(Pending &P, SourceLocation B) {
  Region &R = P.R;
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
}

/// The function a construct (or call) is in, as the report names it, and
/// the innermost loop around it.
/// "total<double>", "Box<float>::sum": an instance as the report names it
/// (each instance is a region of its own), or the qualified name.
std::string RegionCollector::Impl::functionName(const FunctionDecl *FD) const {
  std::string Name;
  if (FD->isTemplateInstantiation()) {
    llvm::raw_string_ostream OS(Name);
    FD->getNameForDiagnostic(OS, Ctx.getPrintingPolicy(), /*Qualified=*/true);
    return Name;
  }
  return FD->getQualifiedNameAsString();
}

void RegionCollector::Impl::fillContext(Region &R) {
  if (Fn) {
    R.Function = functionName(Fn);
    for (const ParmVarDecl *PD : Fn->parameters()) {
      if (PD != Fn->parameters().front())
        R.FnParameters += '\n';
      R.FnParameters += PD->getName().str();
    }
    R.FnParamUses = fnParamUses(Fn);
    if (Fn->isTemplateInstantiation())
      R.Flags |= RF_IN_TEMPLATE;
  }
  if (!Loops.empty()) {
    const Stmt *L = Loops.back();
    R.LoopKind = loopKind(L);
    R.LoopBegin = pos(L->getBeginLoc());
    R.LoopEnd = endPos(L->getEndLoc());
  }
}

/// Where the directive's text is, and the key of the kernel's entry name:
/// Clang names a kernel after the unique ID (device, inode) of the presumed
/// file and the presumed line, or of the physical ones when the presumed
/// file does not exist (a #line to a name that is not a file).
void RegionCollector::Impl::fillSource(Pending &P, OMPExecutableDirective *D) {
  Region &R = P.R;
  SourceLocation B = D->getBeginLoc();
  fillFile(P, B);
  FileID F = P.File;
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
    P.Exprs.push_back(E);
    P.Storage.push_back(StoragePath::ofItem(E));
    // Firstprivate scalars are passed by value: no data to attribute. A
    // pointer is not: the kernel gets the device address of what it points
    // to (a zero-length section), the data a kernel in a function called
    // with mapped buffers uses.
    QualType T = E->getType();
    bool ByValue = Type == MT_FIRSTPRIVATE && !T->isArrayType() &&
                   !T->isRecordType() && !T->isAnyPointerType();
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
  fillContext(R);
  if (B.isMacroID())
    R.Flags |= RF_IN_MACRO;
  if (D->hasClausesOfKind<OMPNowaitClause>())
    R.Flags |= RF_NOWAIT;
  if (D->hasClausesOfKind<OMPDependClause>())
    R.Flags |= RF_DEPEND;
  fillSource(P, D);
  fillStatement(P, D);
  fillLoopExits(P);

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
  if (Kind == CK_TARGET_DATA && D->hasAssociatedStmt()) {
    // What the device code in the body (and in the functions it calls) may
    // do with the items: a `to` item it writes is not the host's copy at
    // the end of the region.
    std::vector<uint32_t> Access = analyzeDeviceAccesses(
        {D->getAssociatedStmt()}, P.Storage, /*Definite=*/false);
    // And its host code: one that at most reads an item leaves the host's
    // copy as it was sent (data motion of the item counts as a write).
    std::vector<uint32_t> Host = analyzeHostAccesses(D->getAssociatedStmt(), nullptr, P.Storage,
                                                     /*MotionIsUse=*/true);
    // The variables a kernel of the body reduces into (a reduction clause
    // of a target construct in it): the item is where the kernel's result
    // comes back, at every execution.
    llvm::SmallPtrSet<const Decl *, 8> Reduced;
    std::function<void(const Stmt *)> Reductions = [&](const Stmt *S) {
      if (!S)
        return;
      if (auto *K = dyn_cast<OMPExecutableDirective>(S);
          K && isOpenMPTargetExecutionDirective(K->getDirectiveKind()))
        addReduced(K, Reduced);
      // A captured statement's children are its captures' initializers:
      // its body is not among them.
      if (auto *CS = dyn_cast<CapturedStmt>(S)) {
        Reductions(CS->getCapturedStmt());
        return;
      }
      for (const Stmt *Child : S->children())
        Reductions(Child);
    };
    Reductions(D->getAssociatedStmt());
    for (size_t I = 0; I < R.Items.size() && I < P.Storage.size(); ++I) {
      const StoragePath &SP = P.Storage[I];
      if (SP.Valid && SP.Steps.empty() && SP.Root != StoragePath::thisRoot() &&
          Reduced.count(static_cast<const Decl *>(SP.Root)))
        R.Items[I].AccessFlags |= IA_REDUCTION;
    }
    for (size_t I = 0; I < R.Items.size() && I < Access.size(); ++I) {
      R.Items[I].Access = Access[I];
      if (I < Host.size() && I < P.Storage.size() && P.Storage[I].Valid &&
          (Host[I] == AC_NONE || Host[I] == AC_READ))
        R.Items[I].AccessFlags |= IA_BODY_HOST_READS;
      // Does the first kernel to use it overwrite what the copy in sent?
      uint32_t T = R.Items[I].MapType;
      if ((T == MT_TO || T == MT_TOFROM) && I < P.Exprs.size() && P.Exprs[I] &&
          firstUseOverwrites(D, P.Exprs[I], T == MT_TOFROM, Ctx))
        R.Items[I].AccessFlags |= IA_WRITES_FIRST;
    }
  }
  if (Kind == CK_TARGET_UPDATE) {
    // Device code that can run between two executions of the update and
    // writes an item: each `to` resets what a kernel changed.
    std::vector<const Stmt *> Between = runsBetween(D);
    std::vector<uint32_t> Access = analyzeDeviceAccesses(Between, P.Storage, /*Definite=*/true);
    for (size_t I = 0; I < R.Items.size() && I < Access.size(); ++I)
      if (R.Items[I].MapType == MT_UPDATE_TO &&
          (Access[I] == AC_WRITE || Access[I] == AC_READ_WRITE))
        R.Items[I].AccessFlags |= IA_DEVICE_WRITTEN;
  }
  {
    // Host code of the loops around the construct writes an item it sends
    // (in any iteration, in any loop level: a restore at the end of an
    // outer timing loop counts): each send may carry what the host wrote,
    // and equal bytes only say the host wrote the same values again (a
    // verdict, never a reason to move the send out of the loop).
    auto Sends = [&](size_t I) {
      uint32_t T = R.Items[I].MapType;
      return T == MT_TO || T == MT_TOFROM || T == MT_UPDATE_TO;
    };
    bool Any = false;
    for (size_t I = 0; I < R.Items.size(); ++I)
      Any |= Sends(I);
    std::vector<bool> W;
    if (Any)
      W = analyzeHostWrites(Loops.empty() ? runsBetween(D)
                                          : std::vector<const Stmt *>{Loops.front()},
                            D, P.Storage);
    for (size_t I = 0; I < R.Items.size() && I < W.size(); ++I)
      if (W[I] && Sends(I))
        R.Items[I].AccessFlags |= IA_HOST_WRITTEN;
  }
  if (Kind == CK_TARGET) {
    addUncoveredCaptures(P, D);
    std::vector<uint32_t> Access = analyzeAccesses(D, P.Storage);
    {
      // A pointer the region gets by value: does it write what it points
      // to? (The memory is found present; the run ties a launch's use of
      // it to this item.)
      std::vector<StoragePath> Pointees;
      std::vector<size_t> Of;
      for (size_t I = 0; I < R.Items.size() && I < P.Storage.size(); ++I) {
        uint32_t T = R.Items[I].MapType;
        const StoragePath &SP = P.Storage[I];
        auto *V = SP.Valid && SP.Steps.empty() && SP.Root != StoragePath::thisRoot()
                      ? dyn_cast<ValueDecl>(static_cast<const Decl *>(SP.Root))
                      : nullptr;
        if ((T == MT_FIRSTPRIVATE || T == MT_IS_DEVICE_PTR) && V &&
            V->getType()->isAnyPointerType()) {
          StoragePath Deref = SP;
          Deref.Steps.push_back(StoragePath::deref());
          Pointees.push_back(Deref);
          Of.push_back(I);
        }
      }
      if (!Pointees.empty()) {
        // Writes seen (an escape is none: this is evidence of a write).
        std::vector<uint32_t> PA =
            analyzeDeviceAccesses({D}, Pointees, /*Definite=*/true);
        for (size_t K = 0; K < Of.size() && K < PA.size(); ++K)
          if (PA[K] == AC_WRITE || PA[K] == AC_READ_WRITE)
            R.Items[Of[K]].AccessFlags |= IA_POINTEE_WRITTEN;
      }
    }
    for (size_t I = 0; I < R.Items.size() && I < Access.size(); ++I) {
      R.Items[I].Access = Access[I];
      // Written only: does it write every element (tofrom -> from)?
      if (Access[I] == AC_WRITE && I < P.Exprs.size() &&
          writesEveryElement(D, P.Exprs[I], Ctx))
        R.Items[I].AccessFlags |= IA_WRITES_ALL;
      // Does what a copy in sends go unread (written first, if read at all)?
      uint32_t T = R.Items[I].MapType;
      if ((T == MT_TO || T == MT_TOFROM) &&
          ((R.Items[I].AccessFlags & IA_WRITES_ALL) ||
           (Access[I] == AC_READ_WRITE && I < P.Exprs.size() && P.Exprs[I] &&
            writesBeforeReading(D, P.Exprs[I], Ctx))))
        R.Items[I].AccessFlags |= IA_WRITES_FIRST;
      // A section whose length was written as an end index (the loops
      // bound the region's elements by the section's bounds).
      if ((T == MT_TO || T == MT_FROM || T == MT_TOFROM) &&
          !(R.Items[I].Modifiers & MM_MAPPER) && I < P.Exprs.size() && P.Exprs[I] &&
          Access[I] != AC_NONE &&
          sectionEndBound(D, P.Exprs[I], Ctx, R.Items[I].SectionSkip, R.Items[I].SectionEnd))
        sectionFacts(R.Items[I], P.Exprs[I]);
    }
  }
  // Items behind a pointer that each call of the function allocates, and
  // items in the function's own automatic variables (no pointer followed).
  size_t FirstUnread = UnreadChecks.size();
  for (size_t I = 0; I < R.Items.size() && I < P.Storage.size(); ++I) {
    const StoragePath &SP = P.Storage[I];
    if (!SP.Valid || SP.Root == StoragePath::thisRoot())
      continue;
    auto *Var = dyn_cast<VarDecl>(static_cast<const Decl *>(SP.Root));
    if (llvm::find(SP.Steps, StoragePath::deref()) == SP.Steps.end()) {
      if (ownAutomaticStorage(Fn, Var))
        R.Items[I].AccessFlags |= IA_AUTOMATIC;
      continue;
    }
    if (SP.Steps[0] != StoragePath::deref())
      continue;
    uint32_t T = R.Items[I].MapType;
    bool CopiesBack = SP.Steps.size() == 1 &&
                      (T == MT_FROM || T == MT_TOFROM || T == MT_UPDATE_FROM) &&
                      hostOrderIsSource(D);
    SourceRange Outer = Loops.empty() ? SourceRange()
                                      : SourceRange(Loops.front()->getBeginLoc(),
                                                    Loops.front()->getEndLoc());
    if (freshHostBuffer(Fn, Var)) {
      R.Items[I].AccessFlags |= IA_FRESH_HOST;
      // A buffer allocated anew: a loop that holds the variable's
      // declaration gets another buffer in each iteration, so its later
      // iterations read that one, not what this copy brought back. The
      // loops that repeat the copy on one buffer are those inside the
      // variable's scope.
      SourceRange Own;
      SourceLocation Decl = SM.getExpansionLoc(Var->getLocation());
      for (const Stmt *L : Loops)
        if (SM.isBeforeInTranslationUnit(Decl, SM.getExpansionLoc(L->getBeginLoc()))) {
          Own = SourceRange(L->getBeginLoc(), L->getEndLoc());
          break;
        }
      // Decided at the end of the file, when the functions it calls
      // (template instances among them) have their bodies.
      if (CopiesBack)
        UnreadChecks.push_back({0, uint32_t(I), Fn, Var, stmtRange(D).getEnd(), Own});
      continue;
    }
    // One of pointers the function swaps (a time loop's `tmp = u; u = v;
    // v = tmp`): a stale buffer copied back after the swaps.
    if (!CopiesBack || !Fn)
      continue;
    auto [It, New] = Swaps.try_emplace(Fn);
    if (New)
      It->second = pointerSwaps(Fn);
    std::vector<PointerSwap> Moves;
    if (swappedFreshBuffer(Fn, Var, It->second, &Moves) &&
        hostNeverReadsBack(Fn, Var, stmtRange(D).getEnd(), Outer, SM, &Moves))
      R.Items[I].AccessFlags |= IA_HOST_UNREAD;
  }
  for (size_t I = 0; I < R.Items.size() && I < P.Storage.size(); ++I)
    if (copiedFromOther(Fn, P.Storage[I]))
      R.Items[I].AccessFlags |= IA_COPY_OF_OTHER;
  fillCallerFacts(P);
  fillHostAccesses(P, D);
  fillUseBounds(P, D);
  size_t NumItems = R.Items.size();
  bool Added = false;
  uint32_t Index = Table.add(std::move(R), Added);
  for (size_t K = FirstUnread; K < UnreadChecks.size(); ++K)
    UnreadChecks[K].Region = Index;
  if (!Added)
    UnreadChecks.resize(FirstUnread);
  // The same construct seen again in the same function (a macro that
  // expands to it twice at one place) shares its region.
  if (!Added)
    NumItems = std::min(NumItems, Table.regions()[Index].Items.size());
  else
    noteValueChecks(Index, P, D->getBeginLoc());
  if (Markers && !insertMarkers(D, Index, P.Addr, NumItems))
    warnUnmarked(D);
  return true;
}

/// The code that can run between two executions of D: the innermost loop
/// around it in its function (all of it), and the statements before D in
/// each block from D out to that loop; in no loop, every statement of the
/// function's blocks around D, before it (since an earlier execution in
/// the same call) and after it (until the next call runs it again).
std::vector<const Stmt *>
RegionCollector::Impl::runsBetween(const OMPExecutableDirective *D) const {
  std::vector<const Stmt *> Out;
  const Stmt *Loop = Loops.empty() ? nullptr : Loops.back();
  if (Loop)
    Out.push_back(Loop);
  const Stmt *Child = D;
  for (size_t I = Parents.size(); I-- > 0;) {
    const Stmt *P = Parents[I];
    if (P == D)
      continue;
    if (P == Loop)
      break;
    // By position, not identity: the markers may have rebuilt the block.
    SourceLocation B = SM.getExpansionLoc(Child->getBeginLoc());
    SourceLocation E = SM.getExpansionLoc(Child->getEndLoc());
    if (auto *CS = dyn_cast<CompoundStmt>(P))
      for (const Stmt *S : CS->body()) {
        bool Before = SM.isBeforeInTranslationUnit(SM.getExpansionLoc(S->getEndLoc()), B);
        bool After = !Loop && SM.isBeforeInTranslationUnit(E, SM.getExpansionLoc(S->getBeginLoc()));
        if (S != Child && (Before || After))
          Out.push_back(S);
      }
    Child = P;
  }
  return Out;
}

/// Variables a target region captures without naming them in any clause
/// (scalars passed by value, pointers, `this`): codegen maps them too.
/// Whether D runs once where it is written, on the thread that runs the
/// host code around it: no lambda, host parallel or task region between it
/// and its function (only `target data` bodies), so that the function's
/// source order is the order of the host's accesses around it.
bool RegionCollector::Impl::hostOrderIsSource(const OMPExecutableDirective *D) const {
  for (const DeclContext *C : Contexts)
    if (auto *M = dyn_cast<CXXMethodDecl>(C); M && M->getParent()->isLambda())
      return false;
  for (const Stmt *P : Parents) {
    if (isa<LambdaExpr>(P))
      return false;
    if (auto *OD = dyn_cast<OMPExecutableDirective>(P);
        OD && OD != D && OD->getDirectiveKind() != llvm::omp::OMPD_target_data)
      return false;
  }
  return true;
}

void RegionCollector::Impl::addReduced(const OMPExecutableDirective *D,
                                       llvm::SmallPtrSetImpl<const Decl *> &Out) const {
  for (const OMPClause *C : D->clauses())
    if (isa<OMPReductionClause>(C))
      for (const Stmt *Child : const_cast<OMPClause *>(C)->children())
        if (auto *E = dyn_cast_or_null<Expr>(Child))
          if (const ValueDecl *VD = baseDecl(E))
            Out.insert(VD->getCanonicalDecl());
}

void RegionCollector::Impl::addUncoveredCaptures(Pending &P,
                                                 OMPExecutableDirective *D) {
  if (!D->hasAssociatedStmt())
    return;
  const CapturedStmt *CS = D->getCapturedStmt(llvm::omp::OMPD_target);
  if (!CS)
    return;
  // Variables some clause already made an item of (a reduction variable,
  // say, is not one: codegen maps it as a capture).
  llvm::SmallPtrSet<const Decl *, 8> Covered, Reduced;
  addReduced(D, Reduced);
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
      if (Reduced.count(VD->getCanonicalDecl()))
        It.AccessFlags |= IA_REDUCTION;
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
    P.Exprs.push_back(nullptr);
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
/// elements, templates) gets no fill facts, but for one whole const
/// object, whose facts say CONST_WHOLE (for firstprivate, never a fill).
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
        std::string T = fileText(X->getSourceRange());
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
      Elem->isVariablyModifiedType() || Elem->isFunctionType())
    return;
  // A const object is never filled; one whole const object (a `const`
  // parameter passed by value) may still be passed as firstprivate.
  if (Elem.isConstQualified()) {
    if (Flags != FF_WHOLE || Count != 1)
      return;
    Flags = FF_CONST_WHOLE;
  }
  bool Enum = Elem->isEnumeralType();
  if ((Elem->isArithmeticType() && !(Enum && Ctx.getLangOpts().CPlusPlus)) ||
      Elem->isPointerType())
    Flags |= FF_SCALAR;
  if (Elem.isTriviallyCopyableType(Ctx))
    Flags |= FF_TRIVIAL;
  It.FillType = Elem.getUnqualifiedType().getAsString(Policy);
  It.FillElemSize = uint32_t(Ctx.getTypeSizeInChars(Elem).getQuantity());
  It.FillFlags = Flags;
  It.FillLower = std::move(Lower);
  It.FillLength = std::move(Length);
  It.FillCount = uint32_t(Count);
}

/// The facts a shrunk section needs beside SECTION_END (sectionEndBound
/// proved the item a one-dimensional section of a pointer or array): its
/// element's size and its bounds as written. None when the element has no
/// size (incomplete, variable-length) or a bound is not in the file.
void RegionCollector::Impl::sectionFacts(Item &It, const Expr *E) const {
  auto *AS = cast<ArraySectionExpr>(E->IgnoreParenImpCasts());
  QualType BT = AS->getBase()->IgnoreParenImpCasts()->getType(), Elem;
  if (const auto *PT = BT->getAs<PointerType>())
    Elem = PT->getPointeeType();
  else if (const ArrayType *AT = Ctx.getAsArrayType(BT))
    Elem = AT->getElementType();
  if (Elem.isNull() || Elem->isDependentType() || Elem->isIncompleteType() ||
      Elem->isVariablyModifiedType() || Elem->isFunctionType())
    return;
  std::string Lower = fileText(AS->getLowerBound()->getSourceRange());
  std::string Length = fileText(AS->getLength()->getSourceRange());
  int64_t Size = Ctx.getTypeSizeInChars(Elem).getQuantity();
  if (Lower.empty() || Length.empty() || Size <= 0 || Size > UINT32_MAX)
    return;
  It.AccessFlags |= IA_SECTION_END;
  It.SectionElemSize = uint32_t(Size);
  It.SectionLower = std::move(Lower);
  It.SectionLength = std::move(Length);
}

RegionCollector::RegionCollector(CompilerInstance &CI, TableBuilder &Table,
                                 bool Markers)
    : P(std::make_unique<Impl>(CI, Table, Markers)) {}

RegionCollector::~RegionCollector() = default;

void RegionCollector::handle(Decl *D) { P->handle(D); }

/// The facts that need every function of the file, decided once it is
/// all seen: which copies back the host never reads (HostUnread.cpp: the
/// functions they call may be template instances made only at the end)
/// and which items host code stores computed values into (HostValues.cpp:
/// every caller is seen then).
void RegionCollector::Impl::finish() {
  for (const UnreadCheck &C : UnreadChecks)
    if (hostNeverReadsBack(C.Fn, C.Var, C.CopyEnd, C.Loop, SM))
      Table.region(C.Region).Items[C.Item].AccessFlags |= IA_HOST_UNREAD;
  UnreadChecks.clear();
  for (const ValueCheck &C : ValueChecks)
    if (valuesVary(C.Fn, C.At, C.Storage, 0))
      Table.region(C.Region).Items[C.Item].FillFlags |= FF_HOST_VALUES;
  ValueChecks.clear();
}

void RegionCollector::finish() { P->finish(); }

FunctionDecl *RegionCollector::markerFunction() const { return P->MarkerFD; }
