//===- CompileCommand.cpp - the compile again, as a syntax check ----------===//
//
// A copy of the invocation with the action set to ParseSyntaxOnly and
// everything that names a file this compile writes or that only existed
// while the driver ran dropped: the output, dependency files, plugins (the
// check must not build a region table or read a profile), pass plugins,
// and the offload objects the new offload driver embeds into the host
// object (temporary files, gone by then). Everything that decides whether
// the source compiles stays: language and standard, macros, include paths,
// target, OpenMP options, warning options (-Werror included).
//
//===----------------------------------------------------------------------===//
#include "CompileCommand.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

void ompdp::syntaxCheckCommand(CompilerInstance &CI, std::string &Dir,
                               std::string &Args) {
  Dir.clear();
  Args.clear();
  CompilerInvocation Copy(CI.getInvocation());
  FrontendOptions &FO = Copy.getFrontendOpts();
  FO.ProgramAction = frontend::ParseSyntaxOnly;
  FO.OutputFile.clear();
  FO.Plugins.clear();
  FO.PluginArgs.clear();
  FO.AddPluginActions.clear();
  FO.ActionName.clear();
  FO.ShowStats = false;
  FO.StatsFile.clear();
  FO.TimeTracePath.clear();
  Copy.getCodeGenOpts().PassPlugins.clear();
  Copy.getCodeGenOpts().OffloadObjects.clear();
  Copy.getDependencyOutputOpts() = DependencyOutputOptions();
  std::string Exe = llvm::sys::fs::getMainExecutable(
      nullptr, reinterpret_cast<void *>(&ompdp::syntaxCheckCommand));
  if (Exe.empty())
    return;
  std::string Out = Exe; // the arguments start with -cc1
  for (const std::string &A : Copy.getCC1CommandLine()) {
    if (A.find('\n') != std::string::npos)
      return;
    Out += "\n" + A;
  }
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    return;
  Dir = std::string(Cwd);
  Args = std::move(Out);
}
