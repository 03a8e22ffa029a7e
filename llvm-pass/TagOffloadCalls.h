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

namespace ompdp {

/// The work, as a plain function. Returns whether M changed.
bool tagOffloadCalls(llvm::Module &M);

class TagOffloadCallsPass : public llvm::PassInfoMixin<TagOffloadCallsPass> {
public:
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
    return tagOffloadCalls(M) ? llvm::PreservedAnalyses::none()
                              : llvm::PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace ompdp

#endif
