//===- PluginArgs.h - the plugin's -fplugin-arg-ompdp-* arguments -*- C++ -*-===//
//
// What `-fplugin-arg-ompdp-<arg>` may say, parsed by a plain function with
// no Clang in it, so that it can be fuzzed (fuzz/fuzz_plugin_args.cpp) and
// OmpdpAction only turns its error into a diagnostic.
//
//===----------------------------------------------------------------------===//
#ifndef OMPDP_CLANG_PLUGIN_PLUGINARGS_H
#define OMPDP_CLANG_PLUGIN_PLUGINARGS_H

#include <string>
#include <string_view>
#include <vector>

namespace ompdp {

struct PluginArgs {
  bool Dump = false;
  std::string DumpPath;                  // empty: stdout
  std::string ProfilePath;               // profile=<report.json>; empty: none
  std::vector<std::string> WarningSpecs; // W<spec>, without the leading "W"
};

/// Parses the arguments in order into Out. Returns an empty string, or the
/// error for the first bad argument: one line, without the "ompdp: " prefix
/// (the argument is quoted as given; the caller's diagnostics escape it).
std::string parsePluginArgs(const std::vector<std::string> &Args, PluginArgs &Out);

/// True if Spec (a warning option without "-W") names ompdp's groups:
/// [no-|error=|no-error=] followed by `ompdp`, one of the groups of the
/// finding kinds (OmpdpFormat.inc), `ompdp-stale-profile` or `everything`.
bool isOmpdpWarningSpec(std::string_view Spec);

/// The warning group of stale profiles (the finding kinds' groups come from
/// OmpdpFormat.inc).
inline constexpr const char *StaleProfileGroup = "ompdp-stale-profile";

} // namespace ompdp

#endif
