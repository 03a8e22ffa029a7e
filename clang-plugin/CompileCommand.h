//===- CompileCommand.h - the compile again, as a syntax check ------------===//
//
// `ompdp fix --apply` checks that every file it changed still compiles,
// with the flags it was built with (docs/fixes.md). The plugin runs inside
// that compile, so it records it in the region table (CompileDir,
// CompileArgs): this compiler's own front-end invocation, turned into a
// syntax and semantic check (-fsyntax-only) that loads no plugin, writes
// no output and no dependency file, and needs none of the offload driver's
// temporary files.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_COMPILECOMMAND_H
#define OMPDP_CLANG_PLUGIN_COMPILECOMMAND_H

#include <string>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace ompdp {

/// The working directory of CI's compile and its syntax check: the
/// compiler, `-cc1` and the arguments, one per line (both empty when an
/// argument holds a newline or the compiler cannot be found).
void syntaxCheckCommand(clang::CompilerInstance &CI, std::string &Dir,
                        std::string &Args);

} // namespace ompdp

#endif
