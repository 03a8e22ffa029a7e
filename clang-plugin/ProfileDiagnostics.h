//===- ProfileDiagnostics.h - findings of a run as compiler warnings -*- C++ -*-===//
//
// With -fplugin-arg-ompdp-profile=<report.json>, the host compile reads a
// saved ompdp report and turns each finding whose construct is in this
// translation unit into a warning at the map item, in the finding's warning
// group (-Wompdp-round-trip, ...), with a note giving the measured cost and
// the report's rewrites as fix-it hints. A profile that no longer matches a
// file (the source changed since the run) gets one warning for that file
// and nothing placed on its lines. See docs/fixes.md, "Compiler warnings".
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_PROFILEDIAGNOSTICS_H
#define OMPDP_CLANG_PLUGIN_PROFILEDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class DiagnosticsEngine;
} // namespace clang

namespace ompdp {

class TableBuilder;

/// The plugin arguments that concern the profile: `profile=<file>` and
/// `W<spec>` (a warning option for ompdp's groups that does not make cc1
/// warn about an unknown warning option, see docs/fixes.md).
class ProfileOptions {
public:
  // Filled from the plugin arguments by parsePluginArgs (PluginArgs.h).
  bool enabled() const { return !Path.empty(); }

  std::string Path;
  std::vector<std::string> WarningSpecs; // without the leading "W"
};

/// Reads the profile and reports its findings against Table, the region
/// table of this translation unit. Errors (an unreadable profile) are one
/// error diagnostic.
void emitProfileDiagnostics(clang::CompilerInstance &CI,
                            const TableBuilder &Table,
                            const ProfileOptions &Opts);

} // namespace ompdp

#endif
