//===- OmpdpPassPlugin.cpp - registers the ompdp LLVM pass ----------------===//
//
// The one place the pass is registered (loaded with -fpass-plugin=ompdp.so).
// It runs at the start of every pipeline, -O0 included, so it sees the
// __tgt_* calls before inlining, and it can be named "ompdp-tag" in
// opt -passes=.
//
//===----------------------------------------------------------------------===//
#include "TagOffloadCalls.h"

#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

// Exported by hand: the module is built with hidden visibility.
extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default")))
::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ompdp", "0.1", [](PassBuilder &PB) {
            PB.registerPipelineStartEPCallback(
                [](ModulePassManager &MPM, OptimizationLevel Level) {
                  MPM.addPass(ompdp::TagOffloadCallsPass(
                      Level != OptimizationLevel::O0));
                });
            PB.registerPipelineParsingCallback(
                [](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
                  if (Name != "ompdp-tag")
                    return false;
                  MPM.addPass(ompdp::TagOffloadCallsPass());
                  return true;
                });
          }};
}
