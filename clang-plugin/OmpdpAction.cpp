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
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
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
        Markers(Markers), Collector(CI, Table, Markers) {}

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
    Collector.finish();
    if (!Markers)
      warnHostOnly();
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
  /// Without -fopenmp-targets, target regions are compiled for the host
  /// only: they run as plain host code, move no data and never start the
  /// OpenMP runtime, and `ompdp run` finds nothing. Said once per compile,
  /// at the first target construct.
  void warnHostOnly() {
    const Region *First = nullptr;
    unsigned N = 0;
    for (const Region &R : Table.regions())
      if (R.Kind == CK_TARGET || R.Kind == CK_TARGET_DATA || R.Kind == CK_TARGET_ENTER_DATA ||
          R.Kind == CK_TARGET_EXIT_DATA || R.Kind == CK_TARGET_UPDATE)
        First = First ? First : &R, ++N;
    if (!First)
      return;
    DiagnosticsEngine &D = CI.getDiagnostics();
    SourceLocation Loc;
    SourceManager &SM = CI.getSourceManager();
    if (auto FE = SM.getFileManager().getOptionalFileRef(First->File))
      Loc = SM.translateFileLineCol(*FE, First->Begin.Line, First->Begin.Column);
    D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Warning,
                                    "ompdp: %0 target construct%s0 of this file %plural{1:is|:are}0 "
                                    "compiled without -fopenmp-targets: %plural{1:it runs|:they "
                                    "run}0 on the host as plain code and %plural{1:moves|:move}0 no data, so "
                                    "ompdp has nothing to measure; add "
                                    "-fopenmp-targets=nvptx64-nvidia-cuda (or "
                                    "x86_64-pc-linux-gnu for offload to the host)"))
        << N;
  }

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
  bool Markers;
  TableBuilder Table;
  RegionCollector Collector;
  bool Emitting = false;
};

/// Without -fopenmp, `#pragma omp` lines are ignored (clang warns only
/// with -Wsource-uses-openmp): the first one the preprocessor handles (not
/// one in a skipped #if block) gets one warning saying that nothing is
/// offloaded or recorded.
class NoOpenMPPragmas : public PPCallbacks {
public:
  explicit NoOpenMPPragmas(CompilerInstance &CI) : CI(CI) {}
  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind) override {
    if (Warned)
      return;
    SourceManager &SM = CI.getSourceManager();
    bool Invalid = false;
    const char *P = SM.getCharacterData(SM.getSpellingLoc(Loc), &Invalid);
    if (Invalid || !P)
      return;
    llvm::StringRef T(P, strnlen(P, 256));
    T.consume_front("#");
    T = T.ltrim(" \t");
    if (!T.consume_front("pragma"))
      return;
    T = T.ltrim(" \t");
    if (!T.starts_with("omp") || (T.size() > 3 && isalnum(static_cast<unsigned char>(T[3]))))
      return;
    Warned = true;
    DiagnosticsEngine &D = CI.getDiagnostics();
    D.Report(Loc, D.getCustomDiagID(DiagnosticsEngine::Warning,
                                    "ompdp: this file is compiled without -fopenmp: its OpenMP "
                                    "pragmas are ignored, nothing is offloaded and ompdp records "
                                    "nothing; add -fopenmp -fopenmp-targets=<device triple>"));
  }

private:
  CompilerInstance &CI;
  bool Warned = false;
};

} // namespace

std::unique_ptr<ASTConsumer>
OmpdpAction::CreateASTConsumer(CompilerInstance &CI, llvm::StringRef) {
  const LangOptions &LO = CI.getLangOpts();
  // Only the host side of an OpenMP compile has anything to do.
  if (LO.OpenMPIsTargetDevice || LO.CUDAIsDevice)
    return std::make_unique<ASTConsumer>();
  if (!LO.OpenMP) {
    CI.getPreprocessor().addPPCallbacks(std::make_unique<NoOpenMPPragmas>(CI));
    return std::make_unique<ASTConsumer>();
  }
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
