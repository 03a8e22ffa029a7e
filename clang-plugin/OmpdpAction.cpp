//===- OmpdpAction.cpp - collect the region table and emit it -------------===//
//
// Runs before code generation's consumer in the same compile (the plugin is
// an AddBeforeMainAction), so by HandleTranslationUnit Sema is done and
// codegen has not yet finished the module. It then:
//   1. walks the AST for offload constructs (RegionCollector);
//   2. serializes the table and passes it to code generation as a synthesized
//      `static char __ompdp_region_table[]` in section ompdp_regions. In an
//      offload compile the host object is made from IR by a second cc1 run
//      where no AST exists; the table rides along in that IR, and the pass
//      finds it there.
// It also turns on location tracking (no DWARF is emitted) when no debug
// info was requested, so that Clang writes each directive's file, line and
// column into the ident_t of its __tgt_* call; the pass keys on those.
// The device compile is left untouched.
//
//===----------------------------------------------------------------------===//
#include "OmpdpAction.h"

#include "RegionCollector.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;
using namespace ompdp;

namespace {

class OmpdpConsumer : public ASTConsumer {
public:
  OmpdpConsumer(CompilerInstance &CI, bool Dump, std::string DumpPath)
      : CI(CI), Dump(Dump), DumpPath(std::move(DumpPath)) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    TableBuilder Table;
    collectRegions(Ctx, Table);
    if (Dump)
      dump(Table);
    if (!Table.empty())
      emit(Ctx, Table);
  }

private:
  void dump(const TableBuilder &Table) {
    if (DumpPath.empty()) {
      Table.dump(llvm::outs());
      llvm::outs().flush();
      return;
    }
    std::error_code EC;
    llvm::raw_fd_ostream OS(DumpPath, EC, llvm::sys::fs::OF_Text);
    if (EC) {
      DiagnosticsEngine &D = CI.getDiagnostics();
      D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                 "ompdp: cannot write the region table dump "
                                 "to '%0': %1"))
          << DumpPath << EC.message();
      return;
    }
    Table.dump(OS);
  }

  /// Hands `static char __ompdp_region_table[N] = "<table>"` with section,
  /// used and aligned(8) attributes to code generation.
  void emit(ASTContext &Ctx, const TableBuilder &Table) {
    std::string Bytes = Table.serialize();
    QualType ArrTy = Ctx.getConstantArrayType(
        Ctx.CharTy, llvm::APInt(64, Bytes.size()), nullptr,
        ArraySizeModifier::Normal, 0);
    auto *Init = StringLiteral::Create(Ctx, Bytes, StringLiteralKind::Ordinary,
                                       false, ArrTy, SourceLocation());
    TranslationUnitDecl *TU = Ctx.getTranslationUnitDecl();
    auto *VD = VarDecl::Create(Ctx, TU, SourceLocation(), SourceLocation(),
                               &Ctx.Idents.get(OMPDP_REGION_TABLE_VAR), ArrTy,
                               Ctx.getTrivialTypeSourceInfo(ArrTy), SC_Static);
    VD->setInit(Init);
    VD->addAttr(SectionAttr::CreateImplicit(Ctx, OMPDP_REGION_SECTION));
    VD->addAttr(UsedAttr::CreateImplicit(Ctx));
    auto *Align = IntegerLiteral::Create(Ctx, llvm::APInt(32, 8), Ctx.IntTy,
                                         SourceLocation());
    VD->addAttr(AlignedAttr::CreateImplicit(Ctx, true, Align));
    VD->setImplicit();
    TU->addDecl(VD);
    // The multiplexer reaches code generation (and us, which ignores it).
    CI.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(VD));
  }

  CompilerInstance &CI;
  bool Dump;
  std::string DumpPath;
};

} // namespace

std::unique_ptr<ASTConsumer>
OmpdpAction::CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) {
  const LangOptions &LO = CI.getLangOpts();
  // Only the host side of an OpenMP compile has anything to do.
  if (!LO.OpenMP || LO.OpenMPIsTargetDevice || LO.CUDAIsDevice)
    return std::make_unique<ASTConsumer>();
  // Code generation is created before plugins but builds its module (and
  // reads this option) only when parsing starts.
  CodeGenOptions &CGO = CI.getCodeGenOpts();
  if (CGO.getDebugInfo() == llvm::codegenoptions::NoDebugInfo)
    CGO.setDebugInfo(llvm::codegenoptions::LocTrackingOnly);
  return std::make_unique<OmpdpConsumer>(CI, Dump, DumpPath);
}

bool OmpdpAction::ParseArgs(const CompilerInstance &CI,
                            const std::vector<std::string> &Args) {
  DiagnosticsEngine &D = CI.getDiagnostics();
  for (const std::string &A : Args) {
    llvm::StringRef Arg(A);
    if (Arg == "dump") {
      Dump = true;
    } else if (Arg.consume_front("dump=")) {
      if (Arg.empty()) {
        D.Report(D.getCustomDiagID(DiagnosticsEngine::Error,
                                   "ompdp: '-fplugin-arg-ompdp-dump=' needs "
                                   "a file name"));
        return false;
      }
      Dump = true;
      DumpPath = Arg.str();
    } else {
      D.Report(D.getCustomDiagID(
          DiagnosticsEngine::Error,
          "ompdp: unknown plugin argument '%0' (valid: "
          "-fplugin-arg-ompdp-dump, -fplugin-arg-ompdp-dump=<file>)"))
          << A;
      return false;
    }
  }
  return true;
}
