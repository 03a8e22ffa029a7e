//===- OmpdpAction.h - the plugin's frontend action -------------*- C++ -*-===//
//
// The action that runs beside code generation in the host compile: it
// collects the region table and hands it to code generation as one more
// global, so the table travels in the host IR to wherever the pass runs.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_OMPDPACTION_H
#define OMPDP_CLANG_PLUGIN_OMPDPACTION_H

#include "ProfileDiagnostics.h"

#include "clang/Frontend/FrontendAction.h"

#include <string>

namespace ompdp {

class OmpdpAction : public clang::PluginASTAction {
public:
  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, llvm::StringRef) override;
  bool ParseArgs(const clang::CompilerInstance &CI,
                 const std::vector<std::string> &Args) override;
  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  bool Dump = false;
  std::string DumpPath; // empty: stdout
  ProfileOptions Profile; // profile=, W<spec> (ProfileDiagnostics.h)
};

} // namespace ompdp

#endif
