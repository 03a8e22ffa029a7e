//===- TagOffloadCalls.h - tag offload calls with their regions -*- C++ -*-===//
//
// The module pass of ompdp: finds the region table the Clang plugin left in
// the host module, makes it findable at run time (an ELF note), and puts a
// call to the runtime's hook before every __tgt_* offloading call, passing
// the region's record and the call's map arguments.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_LLVM_PASS_TAGOFFLOADCALLS_H
#define OMPDP_LLVM_PASS_TAGOFFLOADCALLS_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class PassBuilder;
}

namespace ompdp {

/// Registers the pass with PB: at the start of every pipeline, and as
/// "ompdp-tag" for -passes= (OmpdpPassPlugin.cpp).
void registerOmpdpPasses(llvm::PassBuilder &PB);
/// For a compile that runs no pipeline (-disable-llvm-passes): tags the
/// module just before the first pass that runs on it (the output pass).
void registerOmpdpTagBeforeOutput(llvm::PassBuilder &PB, bool Optimizing);

/// The work, as a plain function. Optimizing: the module will be
/// optimized (not -O0). Returns whether M changed.
bool tagOffloadCalls(llvm::Module &M, bool Optimizing);

class TagOffloadCallsPass : public llvm::PassInfoMixin<TagOffloadCallsPass> {
public:
  explicit TagOffloadCallsPass(bool Optimizing = false)
      : Optimizing(Optimizing) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return tagOffloadCalls(M, Optimizing) ? llvm::PreservedAnalyses::none()
                                          : llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }

private:
  bool Optimizing;
};

} // namespace ompdp

#endif
