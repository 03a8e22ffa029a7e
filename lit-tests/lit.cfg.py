# -*- Python -*- ompdp lit configuration.
#
# Substitutions:
#   %clang, %clangxx        clang-19 for C and C++
#   %offload-flags          OpenMP offload to the host (x86_64) with the LLVM 19 runtime
#   %ompdp                  the driver (bin/ompdp)
#   %ompdp-rt               lib/libompdp-rt.so
#   %ompdp-so               lib/ompdp.so (compiler plugin + pass)
#   %ompdp-plugin-flags     what a user adds to compile with the plugin
#   %clang-ompdp            %clang with the plugin and offload flags
#   %clang-offload          %clang with offload flags only (no plugin)
# Features: plugin (lib/ompdp.so was built), gpu (an NVIDIA GPU is present).
import os
import shutil
import subprocess

import lit.formats

config.name = "ompdp"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ompdp_obj_root, "lit-tests")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bindir, os.path.join(config.ompdp_obj_root, "bin"), config.environment.get("PATH", os.environ.get("PATH", ""))])
# Tests must not inherit a tool or options from the caller's shell.
for var in ("OMP_TOOL_LIBRARIES", "OMPDP_OPTIONS", "OMP_TOOL"):
    config.environment.pop(var, None)
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

bindir = os.path.join(config.ompdp_obj_root, "bin")
libdir = os.path.join(config.ompdp_obj_root, "lib")
offload = "-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -Wl,-rpath,%s" % config.llvm_libdir
plugin_so = os.path.join(libdir, "ompdp.so")
plugin_cfg = os.path.join(libdir, "ompdp.cfg")
plugin_flags = "--config=%s" % plugin_cfg if os.path.exists(plugin_cfg) else "-fplugin=%s" % plugin_so

config.substitutions.append(("%clang-ompdp", "%s %s %s" % (config.clang, plugin_flags, offload)))
config.substitutions.append(("%clang-offload", "%s %s" % (config.clang, offload)))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%offload-flags", offload))
config.substitutions.append(("%ompdp-plugin-flags", plugin_flags))
config.substitutions.append(("%ompdp-rt", os.path.join(libdir, "libompdp-rt.so")))
config.substitutions.append(("%ompdp-so", plugin_so))
config.substitutions.append(("%ompdp", os.path.join(bindir, "ompdp")))

if os.path.exists(plugin_so):
    config.available_features.add("plugin")
if shutil.which("nvidia-smi"):
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0:
            config.available_features.add("gpu")
    except (OSError, subprocess.TimeoutExpired):
        pass
if config.sanitize:
    config.available_features.add("sanitizer")
