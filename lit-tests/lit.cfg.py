# -*- Python -*- ompdp lit configuration.
#
# Substitutions:
#   %clang, %clangxx        clang-19 for C and C++
#   %offload-flags          OpenMP offload to the host (x86_64) with the LLVM 19 runtime,
#                           linked with gold where binutils has it (see below)
#   %default-ld-flags       the same, linked with the system's default linker (ld.bfd)
#   %ompdp                  the driver (bin/ompdp)
#   %ompdp-rt               lib/libompdp-rt.so
#   %ompdp-so               lib/ompdp.so (compiler plugin + pass)
#   %ompdp-plugin-flags     what a user adds to compile with the plugin
#   %clang-ompdp            %clang with the plugin and offload flags
#   %clang-offload          %clang with offload flags only (no plugin)
#   %python                 the Python running lit
#   %src-root              the source tree (scripts/, samples/)
#   %omp-tools-include      the directory of omp-tools.h (for test-only OMPT tools)
#   %stress-runs            repetitions of the concurrency test ($OMPDP_STRESS_RUNS or 20)
#   %nvptx-cfg, %nvptx-arch  lib/ompdp-nvptx.cfg and the sm_XX it builds for
#   %mpirun, %mpi-cflags, %mpi-libs  Open MPI's launcher (any number of ranks on
#                           this machine, as root too) and how to compile and
#                           link an MPI program with clang-19 (feature mpi)
# Features: plugin (lib/ompdp.so was built), cuda (a CUDA toolkit for
# lib/ompdp-nvptx.cfg), gpu (an NVIDIA GPU is present),
# threads (always; marks the tests a ThreadSanitizer build runs), sanitizer,
# tsan (a ThreadSanitizer build), mpi (Open MPI's mpicc and mpirun).
import os
import platform
import shutil
import subprocess
import sys

import lit.formats

config.name = "ompdp"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in",
                   "threaded_only.py", "tsan.supp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.ompdp_obj_root, "lit-tests")

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_bindir, os.path.join(config.ompdp_obj_root, "bin"), config.environment.get("PATH", os.environ.get("PATH", ""))])
# Tests must not inherit a tool or options from the caller's shell.
for var in ("OMP_TOOL_LIBRARIES", "OMPDP_OPTIONS", "OMP_TOOL", "OMPDP_RUN_DIR"):
    config.environment.pop(var, None)
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS", "HOME", "TMPDIR",
            "OMPDP_CHECK_FINAL"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

# `ompdp run` makes its directories (event logs, reports) in a place of this
# build's own, as it would in /dev/shm: what runs of `ompdp run` that were
# killed left there (other users', other builds') is not this suite's, and
# `ompdp run` says when such wait (driver/recover_cmd.c). Tests of that set
# OMPDP_RUN_DIR themselves.
def run_dir_base():
    import hashlib
    tag = "ompdp-lit-%d-%s" % (os.getuid(), hashlib.sha1(config.ompdp_obj_root.encode()).hexdigest()[:8])
    try:
        st = os.statvfs("/dev/shm")
        if os.access("/dev/shm", os.W_OK | os.X_OK) and st.f_bavail * st.f_frsize >= 1 << 30:
            return os.path.join("/dev/shm", tag)
    except OSError:
        pass
    return os.path.join(config.ompdp_obj_root, "lit-tests", tag)


run_base = run_dir_base()
os.makedirs(run_base, exist_ok=True)
config.environment["OMPDP_RUN_DIR"] = run_base

bindir = os.path.join(config.ompdp_obj_root, "bin")
libdir = os.path.join(config.ompdp_obj_root, "lib")
offload_default_ld = "-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu -Wl,-rpath,%s" % config.llvm_libdir
# The host link of an offload program reads libomptarget's dependencies
# (libLLVM, some 100 MB): GNU ld takes about 0.9 s of the 1.4 s an offload
# compile of a test takes, gold about 0.3 s (0.85 s in all). The tests link with
# gold where binutils has it (it does on Debian bookworm); what ompdp finds
# in a binary (the region table's section, DWARF) does not depend on the
# linker, and setup/default-linker.c links with ld.bfd, as users do.
offload = offload_default_ld
if shutil.which("ld.gold"):
    offload += " -fuse-ld=gold"
# The plugin: this build's, or another build's (OMPDP_PLUGIN_DIR).
plugin_libdir = getattr(config, "plugin_libdir", "") or libdir
plugin_so = os.path.join(plugin_libdir, "ompdp.so")
plugin_cfg = os.path.join(plugin_libdir, "ompdp.cfg")
plugin_flags = "--config=%s" % plugin_cfg if os.path.exists(plugin_cfg) else "-fplugin=%s" % plugin_so

config.substitutions.append(("%clang-ompdp", "%s %s %s" % (config.clang, plugin_flags, offload)))
config.substitutions.append(("%clang-offload", "%s %s" % (config.clang, offload)))
config.substitutions.append(("%clangxx", config.clangxx))
config.substitutions.append(("%clang", config.clang))
config.substitutions.append(("%offload-flags", offload))
config.substitutions.append(("%default-ld-flags", offload_default_ld + " -fuse-ld=bfd"))
config.substitutions.append(("%ompdp-plugin-flags", plugin_flags))
config.substitutions.append(("%ompdp-rt", os.path.join(libdir, "libompdp-rt.so")))
config.substitutions.append(("%ompdp-so", plugin_so))
config.substitutions.append(("%ompdp", os.path.join(bindir, "ompdp")))
config.substitutions.append(("%logbench", os.path.join(config.ompdp_obj_root, "benchmarks", "logbench")))

config.substitutions.append(("%llvm-libdir", config.llvm_libdir))
config.substitutions.append(("%python", sys.executable))
config.substitutions.append(("%src-root", config.ompdp_src_root))
config.substitutions.append(("%omp-tools-include", config.ompt_include))
# Repetitions of the concurrency test (20; fewer where a sanitizer makes
# each run slow: OMPDP_STRESS_RUNS).
config.substitutions.append(("%stress-runs", os.environ.get("OMPDP_STRESS_RUNS", "20")))

if os.path.exists(plugin_so):
    config.available_features.add("plugin")
# cuda: a CUDA toolkit at the path lib/ompdp-nvptx.cfg names, so the NVIDIA
# offload build can be compiled (and run where there is a GPU).
nvptx_cfg = os.path.join(plugin_libdir, "ompdp-nvptx.cfg")
if os.path.exists(nvptx_cfg):
    config.substitutions.append(("%nvptx-cfg", nvptx_cfg))
    cuda = [l.split("=", 1)[1].strip() for l in open(nvptx_cfg) if l.startswith("--cuda-path=")]
    arch = [l.split("=", 1)[1].strip() for l in open(nvptx_cfg) if l.startswith("--offload-arch=")]
    if arch:
        config.substitutions.append(("%nvptx-arch", arch[0]))
    if cuda and cuda[0] and os.path.isdir(os.path.join(cuda[0], "bin")):
        config.available_features.add("cuda")
# mpi: Open MPI's mpicc and mpirun (Debian's openmpi-bin, libopenmpi-dev).
# Ranks may outnumber the cores (--oversubscribe) and the tests may run as
# root, which Open MPI refuses unless told.
if shutil.which("mpicc") and shutil.which("mpirun"):
    try:
        showme = [subprocess.run(["mpicc", "--showme:" + what], capture_output=True, text=True,
                                 timeout=20) for what in ("compile", "link")]
        if all(s.returncode == 0 for s in showme):
            config.available_features.add("mpi")
            config.substitutions.append(("%mpi-cflags", showme[0].stdout.strip()))
            config.substitutions.append(("%mpi-libs", showme[1].stdout.strip()))
            config.substitutions.append(("%mpirun", "mpirun --oversubscribe"))
            config.environment["OMPI_ALLOW_RUN_AS_ROOT"] = "1"
            config.environment["OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"] = "1"
    except (OSError, subprocess.TimeoutExpired):
        pass
# Every build runs the threaded tests; the feature marks them (see tsan below).
config.available_features.add("threads")
# x86_64: the runtime reads the ident_t of an offload call from its x86-64
# call site (attribution/attribution_linux.c).
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")
    # avx512: the CPU has AVX-512F and DQ (the runtime's hash_isa=avx512).
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("flags"):
                    if " avx512f " in line + " " and " avx512dq " in line + " ":
                        config.available_features.add("avx512")
                    break
    except OSError:
        pass
if shutil.which("nvidia-smi"):
    try:
        if subprocess.run(["nvidia-smi", "-L"], capture_output=True, timeout=20).returncode == 0:
            config.available_features.add("gpu")
    except (OSError, subprocess.TimeoutExpired):
        pass
if config.sanitize:
    config.available_features.add("sanitizer")
    # The runtime is loaded into test programs built without sanitizers, and
    # the plugin into clang-19: they get the sanitizer's runtime only from
    # LD_PRELOAD (ompdp links the shared one; see CMakeLists.txt).
    if getattr(config, "sanitizer_runtime", ""):
        config.environment["LD_PRELOAD"] = config.sanitizer_runtime
    # The sanitizer intercepts dlopen, so glibc sees the interceptor, not
    # libomptarget, as the caller and ignores libomptarget's RUNPATH: its
    # dlopen("libomp.so") for the OMPT connection would fail and no offload
    # event would reach the tool. Say where libomp is.
    config.environment["LD_LIBRARY_PATH"] = os.pathsep.join(
        [config.llvm_libdir] + [p for p in [os.environ.get("LD_LIBRARY_PATH", "")] if p])
    # A program keeps its own signals: ASan must not turn a segfault or an
    # abort into its own report and exit status. Leaks are checked by the
    # unit tests and the fuzzers: here every process (clang-19, FileCheck,
    # ld, libomp) would be checked, they free nothing at exit on purpose,
    # and suppressing them by library would also hide leaks in ompdp's
    # callbacks, which libomptarget calls.
    # ThreadSanitizer: libomp, libomptarget and libLLVM are not instrumented,
    # so their own synchronisation is invisible and what TSan sees of them
    # (their malloc, memcpy, mutex calls) are false reports: tsan.supp makes
    # TSan ignore the calls they make, not the ompdp code they call. The
    # report from a fatal signal allocates (documented, best effort), and
    # libomp's threads outlive main.
    # allow_user_poisoning=0: the plugin's inlined copies of LLVM's
    # allocators poison memory that clang-19's own, uninstrumented copies
    # then hand out unpoisoned-unaware (false use-after-poison in clang).
    signals = "handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_sigill=0:handle_abort=0"
    defaults = {
        "ASAN_OPTIONS": signals + ":detect_leaks=0:allow_user_poisoning=0",
        "UBSAN_OPTIONS": "print_stacktrace=1:halt_on_error=1",
        "TSAN_OPTIONS": signals + ":suppressions=%s:report_thread_leaks=0:report_mutex_bugs=0"
                        ":report_signal_unsafe=0:die_after_fork=0:halt_on_error=1"
                        % os.path.join(config.test_source_root, "tsan.supp"),
    }
    for var, value in defaults.items():
        user = os.environ.get(var, "")
        config.environment[var] = value + (":" + user if user else "")

    if "thread" in config.sanitize:
        config.available_features.add("tsan")

        sys.path.insert(0, config.test_source_root)
        import threaded_only

        config.test_format = threaded_only.ThreadedTestsOnly(execute_external=False)
