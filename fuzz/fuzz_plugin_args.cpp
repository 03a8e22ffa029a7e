//===- fuzz_plugin_args.cpp - libFuzzer target: the plugin's arguments ----===//
//
// ompdp::parsePluginArgs() (clang-plugin/PluginArgs.cpp) gets what build
// scripts put after -fplugin-arg-ompdp-: any bytes, control characters and
// huge arguments included. The input is split at NUL bytes into arguments.
// It must never crash, and its answer must be consistent: an error names
// the argument it refuses; a success took every argument (a dump argument
// sets Dump, the last profile= is the profile, each W<spec> is kept in
// order and is one of ompdp's warning options), and parsing is
// deterministic.
//
//===----------------------------------------------------------------------===//
#include "PluginArgs.h"

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

using namespace ompdp;

static bool startsWith(const std::string &S, const char *P) { return S.rfind(P, 0) == 0; }

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::vector<std::string> Args;
  std::string Cur;
  for (size_t I = 0; I < Size; ++I) {
    if (Data[I] == 0) {
      Args.push_back(Cur);
      Cur.clear();
    } else {
      Cur.push_back((char)Data[I]);
    }
  }
  if (Size)
    Args.push_back(Cur);

  PluginArgs Out, Again;
  std::string Err = parsePluginArgs(Args, Out);
  if (parsePluginArgs(Args, Again) != Err)
    __builtin_trap();
  if (!Err.empty()) {
    if (!startsWith(Err, "unknown plugin argument '") &&
        !startsWith(Err, "unknown warning option '-fplugin-arg-ompdp-W") &&
        Err.find("' needs a") == std::string::npos)
      __builtin_trap(); /* an error the plugin does not know how to say */
    return 0;
  }
  bool Dump = false;
  std::string Profile, DumpPath;
  std::vector<std::string> Specs;
  for (const std::string &A : Args) {
    if (A == "dump") {
      Dump = true;
    } else if (startsWith(A, "dump=")) {
      Dump = true;
      DumpPath = A.substr(5);
      if (DumpPath.empty())
        __builtin_trap();
    } else if (startsWith(A, "profile=")) {
      Profile = A.substr(8);
      if (Profile.empty())
        __builtin_trap();
    } else if (startsWith(A, "W")) {
      Specs.push_back(A.substr(1));
      if (!isOmpdpWarningSpec(Specs.back()))
        __builtin_trap();
    } else {
      __builtin_trap(); /* accepted an argument it does not know */
    }
  }
  if (Out.Dump != Dump || Out.DumpPath != DumpPath || Out.ProfilePath != Profile ||
      Out.WarningSpecs != Specs)
    __builtin_trap();
  return 0;
}
