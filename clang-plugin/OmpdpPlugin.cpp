//===- OmpdpPlugin.cpp - registers the ompdp Clang plugin -----------------===//
//
// The one place the frontend plugin is registered; the work is in
// OmpdpAction.cpp. Users load it with -fplugin=ompdp.so (or through
// ompdp.cfg) and pass options as -fplugin-arg-ompdp-<arg>.
//
//===----------------------------------------------------------------------===//
#include "OmpdpAction.h"

#include "clang/Frontend/FrontendPluginRegistry.h"

static clang::FrontendPluginRegistry::Add<ompdp::OmpdpAction>
    X("ompdp", "record OpenMP offload regions and map items for ompdp");
