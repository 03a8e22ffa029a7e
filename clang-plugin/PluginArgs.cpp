//===- PluginArgs.cpp - the plugin's -fplugin-arg-ompdp-* arguments -------===//
//
// dump, dump=<file>, profile=<report.json> and W<warning option>; anything
// else, an empty file name or an ompdp warning group that does not exist is
// an error. The messages are what clang prints after "error: ompdp: ".
//
//===----------------------------------------------------------------------===//
#include "PluginArgs.h"

extern "C" {
#include "report.h"
}

using namespace ompdp;

static bool consumeFront(std::string_view &S, std::string_view Prefix) {
  if (S.substr(0, Prefix.size()) != Prefix)
    return false;
  S.remove_prefix(Prefix.size());
  return true;
}

bool ompdp::isOmpdpWarningSpec(std::string_view Spec) {
  if (!consumeFront(Spec, "no-error=") && !consumeFront(Spec, "error="))
    consumeFront(Spec, "no-");
  if (Spec == "everything" || Spec == "ompdp" || Spec == StaleProfileGroup)
    return true;
  for (int K = 0; K < OMPDP_FK_COUNT; ++K)
    if (Spec == ompdp_finding_kind_warning_group((ompdp_finding_kind_t)K))
      return true;
  return false;
}

static std::string validGroups() {
  std::string Valid;
  for (int K = 0; K < OMPDP_FK_COUNT; ++K)
    Valid += std::string(K ? ", " : "") +
             ompdp_finding_kind_warning_group((ompdp_finding_kind_t)K);
  return Valid + ", " + StaleProfileGroup;
}

std::string ompdp::parsePluginArgs(const std::vector<std::string> &Args, PluginArgs &Out) {
  for (const std::string &A : Args) {
    std::string_view Arg(A);
    if (Arg == "dump") {
      Out.Dump = true;
    } else if (consumeFront(Arg, "dump=")) {
      if (Arg.empty())
        return "'-fplugin-arg-ompdp-dump=' needs a file name";
      Out.Dump = true;
      Out.DumpPath = std::string(Arg);
    } else if (consumeFront(Arg, "profile=")) {
      if (Arg.empty())
        return "'-fplugin-arg-ompdp-profile=' needs a report file (ompdp run --format=json)";
      Out.ProfilePath = std::string(Arg);
    } else if (consumeFront(Arg, "W")) {
      if (!isOmpdpWarningSpec(Arg))
        return "unknown warning option '-fplugin-arg-ompdp-W" + std::string(Arg) +
               "' (groups: " + validGroups() + ", and ompdp for all of them)";
      Out.WarningSpecs.emplace_back(Arg);
    } else {
      return "unknown plugin argument '" + A +
             "' (valid: -fplugin-arg-ompdp-dump, -fplugin-arg-ompdp-dump=<file>, "
             "-fplugin-arg-ompdp-profile=<report.json>, "
             "-fplugin-arg-ompdp-W<ompdp warning option>)";
    }
  }
  return "";
}
