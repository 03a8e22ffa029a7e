//===- OmpdpPassPlugin.cpp - registers the ompdp LLVM pass ----------------===//
//
// The one place the pass is registered: registerOmpdpPasses, which both
// -fpass-plugin=ompdp.so (through llvmGetPassPluginInfo) and the Clang
// plugin loaded with -fplugin=ompdp.so alone (through CodeGenOptions::
// PassBuilderCallbacks, see OmpdpAction.cpp) call. The pass runs at the
// start of every pipeline, -O0 included, so it sees the __tgt_* calls
// before inlining, and it can be named "ompdp-tag" in opt -passes=.
//
// The offload driver's host compile from source runs no pipeline
// (-disable-llvm-passes: the IR is optimized later, from bitcode, in a
// compile where no frontend plugin runs). There the Clang plugin uses
// registerOmpdpTagBeforeOutput instead: the tagging runs on the module
// just before the first pass that still runs, the bitcode writer.
//
//===----------------------------------------------------------------------===//
#include "TagOffloadCalls.h"

#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

#include <memory>

using namespace llvm;

void ompdp::registerOmpdpPasses(PassBuilder &PB) {
  PB.registerPipelineStartEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel Level) {
        MPM.addPass(TagOffloadCallsPass(Level != OptimizationLevel::O0));
      });
  PB.registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "ompdp-tag")
          return false;
        MPM.addPass(TagOffloadCallsPass());
        return true;
      });
}

void ompdp::registerOmpdpTagBeforeOutput(PassBuilder &PB, bool Optimizing) {
  PassInstrumentationCallbacks *PIC = PB.getPassInstrumentationCallbacks();
  if (!PIC)
    return;
  auto Done = std::make_shared<bool>(false);
  PIC->registerBeforeNonSkippedPassCallback([Done, Optimizing](StringRef, Any IR) {
    const Module *const *M = llvm::any_cast<const Module *>(&IR);
    if (*Done || !M)
      return;
    *Done = true;
    // The pass managers hand instrumentation a const view; this module is
    // ours to change until the first pass (the writer) has run.
    tagOffloadCalls(const_cast<Module &>(**M), Optimizing);
  });
}

// Exported by hand: the module is built with hidden visibility.
extern "C" LLVM_ATTRIBUTE_WEAK __attribute__((visibility("default")))
::llvm::PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "ompdp", "0.1", ompdp::registerOmpdpPasses};
}
