//===- OmpdpAction.cpp - collect the region table and emit it -------------===//
//
// Runs before code generation's consumer in the same compile (the plugin is
// an AddBeforeMainAction), so it sees every declaration just before code
// generation does:
//   1. each declaration handed over (top-level declarations, inline member
//      functions, template instantiations) is walked for offload constructs,
//      and each directive gets the pass's markers (RegionCollector);
//   2. at the end of the translation unit the table is serialized and passed
//      to code generation as a synthesized `static char
//      __ompdp_region_table[]` in section ompdp_regions. In an offload
//      compile the host object is made from IR by a second cc1 run where no
//      AST exists; the table and the markers ride along in that IR, and the
//      pass finds them there.
// Debug info is left as the user asked: the markers, not source locations,
// tie offload calls to regions. The device compile is left untouched.
//
// -fplugin=ompdp.so alone is enough: the host compile from source also
// registers the pass (CodeGenOptions::PassBuilderCallbacks). The offload
// driver's host compile from source runs no pipeline (-disable-llvm-passes),
// so there the tagging runs just before the bitcode is written, and the IR
// that the driver compiles again (where no frontend plugin runs) already has
// its calls tagged. When -fpass-plugin names this same module (ompdp.cfg
// passes both), the pass plugin does the work and nothing is added here.
//
//===----------------------------------------------------------------------===//
#include "OmpdpAction.h"

#include "CompileCommand.h"
#include "PluginArgs.h"
#include "RegionCollector.h"
#include "../llvm-pass/TagOffloadCalls.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Basic/CodeGenOptions.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <dlfcn.h>

using namespace clang;
using namespace ompdp;

namespace {

/// Whether -fpass-plugin= loads this very module (ompdp.cfg passes both
/// flags), which then registers the pass itself.
bool passPluginIsThisModule(const CodeGenOptions &CGO) {
  Dl_info Info;
  if (!dladdr(reinterpret_cast<void *>(&registerOmpdpPasses), &Info) ||
      !Info.dli_fname)
    return false;
  for (const std::string &Path : CGO.PassPlugins)
    if (llvm::sys::fs::equivalent(Path, Info.dli_fname))
      return true;
  return false;
}

class OmpdpConsumer : public ASTConsumer {
public:
  OmpdpConsumer(CompilerInstance &CI, bool Dump, std::string DumpPath,
                bool Markers, ProfileOptions Profile = {})
      : CI(CI), Dump(Dump), DumpPath(std::move(DumpPath)),
        Profile(std::move(Profile)),
        Collector(CI, Table, Markers) {}

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    if (!Emitting)
      for (Decl *D : DG)
        Collector.handle(D);
    return true;
  }
  // Member functions defined in their class arrive here first, and code
  // generation may emit them before the class reaches HandleTopLevelDecl.
  void HandleInlineFunctionDefinition(FunctionDecl *D) override {
    Collector.handle(D);
  }
  void HandleCXXImplicitFunctionInstantiation(FunctionDecl *D) override {
    Collector.handle(D);
  }

  void HandleTranslationUnit(ASTContext &Ctx) override {
    if (CI.getDiagnostics().hasErrorOccurred())
      return;
    emitProfileDiagnostics(CI, Table, Profile);
    if (Dump)
      dump(Table);
    if (!Table.empty()) {
      // How to compile this file again, for `ompdp fix` to check its edits.
      std::string Dir, Args;
      syntaxCheckCommand(CI, Dir, Args);
      Table.setCompile(std::move(Dir), std::move(Args));
      emit(Ctx, Table);
    }
    if (FunctionDecl *Marker = Collector.markerFunction()) {
      Emitting = true;
      CI.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(Marker));
      Emitting = false;
    }
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
    DiagnosticsEngine &D = CI.getDiagnostics();
    unsigned CannotWrite = D.getCustomDiagID(
        DiagnosticsEngine::Error,
        "ompdp: cannot write the region table dump to '%0': %1");
    if (EC) {
      D.Report(CannotWrite) << DumpPath << EC.message();
      return;
    }
    Table.dump(OS);
    // A failed write (a full disk) would otherwise be a fatal "IO failure"
    // when OS is destroyed.
    OS.close();
    if (OS.has_error()) {
      D.Report(CannotWrite) << DumpPath << OS.error().message();
      OS.clear_error();
    }
  }

  /// Hands `static char __ompdp_region_table[N] = "<packed table>"` with
  /// section, used and aligned(8) attributes to code generation; the pass
  /// unpacks it.
  void emit(ASTContext &Ctx, const TableBuilder &Table) {
    std::string Bytes = packTable(Table.serialize());
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
    Emitting = true;
    CI.getASTConsumer().HandleTopLevelDecl(DeclGroupRef(VD));
    Emitting = false;
  }

  CompilerInstance &CI;
  bool Dump;
  std::string DumpPath;
  ProfileOptions Profile;
  TableBuilder Table;
  RegionCollector Collector;
  bool Emitting = false;
};

} // namespace

std::unique_ptr<ASTConsumer>
OmpdpAction::CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) {
  const LangOptions &LO = CI.getLangOpts();
  // Only the host side of an OpenMP compile has anything to do.
  if (!LO.OpenMP || LO.OpenMPIsTargetDevice || LO.CUDAIsDevice)
    return std::make_unique<ASTConsumer>();
  // Without offload targets Clang emits no offload calls (target regions
  // run on the host), so there is nothing for markers to point at.
  bool Markers = !LO.OMPTargetTriples.empty();
  // The markers need the pass: register it unless -fpass-plugin did.
  CodeGenOptions &CGO = CI.getCodeGenOpts();
  if (Markers && !passPluginIsThisModule(CGO)) {
    if (CGO.DisableLLVMPasses) {
      bool Optimizing = CGO.OptimizationLevel > 0;
      CGO.PassBuilderCallbacks.push_back([Optimizing](llvm::PassBuilder &PB) {
        registerOmpdpTagBeforeOutput(PB, Optimizing);
      });
    } else {
      CGO.PassBuilderCallbacks.push_back(registerOmpdpPasses);
    }
  }
  return std::make_unique<OmpdpConsumer>(CI, Dump, DumpPath, Markers, Profile);
}

bool OmpdpAction::ParseArgs(const CompilerInstance &CI,
                            const std::vector<std::string> &Args) {
  PluginArgs Parsed;
  std::string Error = parsePluginArgs(Args, Parsed);
  if (!Error.empty()) {
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(D.getCustomDiagID(DiagnosticsEngine::Error, "ompdp: %0")) << Error;
    return false;
  }
  Dump = Parsed.Dump;
  DumpPath = std::move(Parsed.DumpPath);
  Profile.Path = std::move(Parsed.ProfilePath);
  Profile.WarningSpecs = std::move(Parsed.WarningSpecs);
  return true;
}
