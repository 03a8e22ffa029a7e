#!/usr/bin/env python3
# ===- scripts/gpu_check.py - ompdp's checks on an NVIDIA GPU, one command --===#
#
# What must hold on a GPU and cannot be seen on host offload: the lit tests
# that need a GPU (lit-tests/gpu/), `ompdp calibrate` on the device, the
# overhead suite (plain, null tool, ompdp; ompdp with the host hashing of
# earlier versions for comparison; OMPDataPerf when given), hashing on the
# device against the host at each size, and real programs before and after
# `ompdp fix` with the saving ompdp predicted beside the one measured. It
# writes one table, benchmarks/results-gpu.md.
#
#   python3 scripts/gpu_check.py [--build B] [--realprogs WORK]
#       on a machine with an NVIDIA GPU and the toolchain: pack, run, table
#   python3 scripts/gpu_check.py pack DIR [--build B] [--realprogs WORK] [--closure]
#       here (no GPU needed): build everything the run needs into DIR; with
#       --closure also the LLVM 19 offload runtime and the libraries it needs,
#       for a GPU machine that has none (it then needs only python3 and the
#       NVIDIA driver)
#   python3 DIR/gpu_check.py run DIR OUT [--rounds N] [--steps "lit calibrate ..."]
#       on the GPU machine: the checks; results under OUT (results-gpu.md,
#       times.tsv, log.txt, reports.tgz)
#
# Programs are built with build/lib/ompdp-nvptx.cfg, whose CUDA tools
# scripts/setup.sh checked (OMPDP_NVPTX_ARCH): their cubins load with LLVM 19.
# WORK is a work directory of benchmarks/realprogs/run.py (run it on the
# programs to compare first); its fixed programs are rebuilt for the GPU
# from the harness's own compile commands.
#
# ===----------------------------------------------------------------------===#
import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tarfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
LLVM = "/usr/lib/llvm-19"
# The realprogs harness's table and output masking (timings differ from run
# to run): beside this script in a pack, in benchmarks/ in the repository.
for _p in (HERE, os.path.join(os.path.dirname(HERE), "benchmarks", "realprogs")):
    if os.path.exists(os.path.join(_p, "run.py" if _p != HERE else "realprogs_run.py")):
        sys.path.insert(0, _p)
        break
try:
    import realprogs_run as harness
except ImportError:
    import run as harness

# The overhead suite's rows: name, program, size (benchmarks/run.py's sizes).
SUITE = [("transfer_torture", "transfer_torture", 256 << 20),
         ("small_events", "small_events", 10**5),
         ("kernel_bound", "kernel_bound", 1000),
         ("patterns_S", "patterns", 1 << 10),
         ("patterns_M", "patterns", 1 << 15),
         ("patterns_L", "patterns", 1 << 20),
         ("threads_nowait", "threads_nowait", 1 << 20),
         ("lu", "lu", 768)]
# Sizes (doubles per array of patterns.c) at which the device hash is
# compared with the host's: 256 KiB to 32 MiB per array.
SWEEP = [1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 22]
# The libraries of the LLVM 19 offload runtime that a bare GPU machine lacks
# (the system's glibc, libstdc++ and libgcc are newer there and stay).
KEEP_SYSTEM = ("libc.so", "libm.so", "libstdc++", "libgcc_s", "ld-linux", "linux-vdso",
               "libpthread", "libdl.so", "librt.so")


def sh(cmd, **kw):
    return subprocess.run(cmd, shell=isinstance(cmd, str), **kw)


# ----------------------------------------------------------------- packing --

def nvptx_flags(build):
    """The NVIDIA offload flags of lib/ompdp-nvptx.cfg, without the plugin."""
    cfg = os.path.join(build, "lib", "ompdp-nvptx.cfg")
    if not os.path.exists(cfg):
        sys.exit("ompdp: %s is missing: build with OMPDP_NVPTX_ARCH=sm_XX bash scripts/setup.sh" % cfg)
    return [l.strip() for l in open(cfg) if l.strip() and not l.startswith(("#", "@"))], cfg


def compile_ok(cmd, log):
    r = sh(cmd, capture_output=True, text=True)
    if r.returncode:
        log.write("FAILED: %s\n%s\n" % (shlex.join(cmd), r.stderr[-2000:]))
    return r.returncode == 0


def run_lines(path):
    """A lit test's RUN lines, continuations joined."""
    lines, cur = [], ""
    for l in open(path):
        m = re.match(r"\s*//\s*RUN:\s?(.*)$", l) or re.match(r"\s*#\s*RUN:\s?(.*)$", l)
        if not m:
            continue
        part = m.group(1).rstrip()
        if part.endswith("\\"):
            cur += part[:-1] + " "
            continue
        lines.append(cur + part)
        cur = ""
    return lines


def closure(libs, out):
    """The LLVM 19 offload runtime and its libraries (ldd), as one tar.xz."""
    seen = {}
    for lib in libs:
        seen[os.path.basename(lib)] = os.path.realpath(lib)
        for line in sh(["ldd", lib], capture_output=True, text=True).stdout.splitlines():
            m = re.match(r"\s*(\S+) => (\S+)", line)
            if m and not m.group(1).startswith(KEEP_SYSTEM):
                seen[m.group(1)] = os.path.realpath(m.group(2))
    with tarfile.open(out, "w:xz", preset=6) as t:
        for name, path in sorted(seen.items()):
            t.add(path, arcname=name)
    return sorted(seen)


def pack(args):
    d = os.path.abspath(args.dir)
    b = os.path.abspath(args.build)
    src = os.path.dirname(HERE)
    flags, cfg = nvptx_flags(b)
    shutil.rmtree(d, ignore_errors=True)
    for sub in ("bin", "lib", "tools", "lit", "bench", "rp"):
        os.makedirs(os.path.join(d, sub))
    log = open(os.path.join(d, "pack.log"), "w")
    rpath = "-Wl,-rpath," + LLVM + "/lib"
    clang = LLVM + "/bin/clang"
    shutil.copy2(os.path.join(b, "bin", "ompdp"), os.path.join(d, "bin"))
    shutil.copy2(os.path.join(b, "lib", "libompdp-rt.so"), os.path.join(d, "lib"))
    shutil.copy2(os.path.abspath(__file__), os.path.join(d, "gpu_check.py"))
    shutil.copy2(os.path.join(src, "benchmarks", "realprogs", "run.py"),
                 os.path.join(d, "realprogs_run.py"))
    shutil.copy2(LLVM + "/bin/FileCheck", os.path.join(d, "tools"))
    # ompdp calibrate runs the helper next to ompdp: built for the GPU.
    compile_ok([clang] + flags + ["-O2", "-I" + src + "/report", "-I" + src + "/rt",
               "-I" + src + "/include", "-rdynamic", src + "/driver/calibrate_helper.c",
               "-o", os.path.join(d, "bin", "ompdp-calibrate"), rpath], log)
    # lit-tests/gpu: the compile lines here, the others there.
    for t in sorted(os.listdir(os.path.join(src, "lit-tests", "gpu"))):
        tsrc = os.path.join(src, "lit-tests", "gpu", t)
        if not os.path.isfile(tsrc):
            continue  # Inputs/: compiled here through %S
        td = os.path.join(d, "lit", t)
        os.makedirs(td)
        shutil.copy2(tsrc, td)
        for line in run_lines(tsrc):
            if "%clang" in line:
                arch = [f.split("=", 1)[1] for f in flags if f.startswith("--offload-arch=")]
                cmd = (line.replace("%clang", clang).replace("%nvptx-cfg", cfg)
                       .replace("%nvptx-arch", arch[0] if arch else "sm_90")
                       .replace("%llvm-libdir", LLVM + "/lib").replace("%S", os.path.dirname(tsrc))
                       .replace("%s", tsrc)
                       .replace("%t", os.path.join(td, "prog")))
                if sh(cmd, stdout=log, stderr=log).returncode:
                    log.write("FAILED lit compile %s\n" % t)
    # The overhead suite's programs as benchmarks/run.py builds them (-O2 -g,
    # no plugin), and the null tool.
    for prog in sorted({p for _, p, _ in SUITE}):
        compile_ok([clang] + flags + ["-O2", "-g", src + "/benchmarks/programs/%s.c" % prog,
                   "-o", os.path.join(d, "bench", prog), rpath], log)
    compile_ok([clang, "-O2", "-shared", "-fPIC", "-I" + LLVM + "/lib/clang/19/include",
                src + "/benchmarks/nulltool/nulltool.c", "-o",
                os.path.join(d, "bench", "libnulltool.so")], log)
    # Real programs: the harness's work dir has, per program, the sources
    # before and after `ompdp fix` and the compile commands it ran.
    progs = []
    if args.realprogs:
        for name in sorted(os.listdir(args.realprogs)):
            w = os.path.join(args.realprogs, name)
            res = os.path.join(w, "result.json")
            if not os.path.exists(res):
                continue
            r = json.load(open(res))
            cmd = r.get("command") or ""
            cmd = cmd if isinstance(cmd, list) else shlex.split(cmd)
            if not cmd:
                continue
            ok = True
            for v in ("before", "after"):
                cmds = os.path.join(w, "build-%s.cmds" % v)
                if not (os.path.isdir(os.path.join(w, v, "src")) and os.path.exists(cmds)):
                    ok = False
                    break
                o = os.path.join(d, "rp", name, v)
                shutil.copytree(os.path.join(w, v, "src"), o, symlinks=True)
                for root, _, files in os.walk(o):
                    for f in files:
                        if f.endswith(".o"):
                            os.remove(os.path.join(root, f))
                pdir = os.path.join(o, name)
                exe = os.path.join(pdir, cmd[0])
                if os.path.exists(exe):
                    os.remove(exe)
                host = "-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu --config=%s/lib/ompdp.cfg" % b
                text = open(cmds).read()
                if host not in text:
                    log.write("%s %s: no host offload flags in %s\n" % (name, v, cmds))
                    ok = False
                    break
                with open(os.path.join(pdir, "gpu.cmds"), "w") as f:
                    f.write(text.replace(host, "--config=%s -g" % cfg))
                r2 = sh(["bash", "-e", "gpu.cmds"], cwd=pdir, capture_output=True, text=True)
                if r2.returncode or not os.path.exists(exe):
                    log.write("FAILED %s %s:\n%s\n" % (name, v, r2.stderr[-1500:]))
                    ok = False
                    break
                for root, _, files in os.walk(o):
                    for f in files:
                        if f.endswith(".o"):
                            os.remove(os.path.join(root, f))
            if ok:
                progs.append({"name": name, "command": cmd,
                              "predicted_host": r.get("predicted"), "transfers": r.get("transfers")})
            else:
                shutil.rmtree(os.path.join(d, "rp", name), ignore_errors=True)
    json.dump(progs, open(os.path.join(d, "rp", "list.json"), "w"), indent=1)
    if args.closure:
        names = closure([LLVM + "/lib/libomptarget.so.19.1", LLVM + "/lib/libomp.so.5",
                         LLVM + "/bin/FileCheck", "/lib/x86_64-linux-gnu/libdw.so.1"],
                        os.path.join(d, "llvm19.tar.xz"))
        log.write("closure: %s\n" % " ".join(names))
    log.close()
    print(open(os.path.join(d, "pack.log")).read(), end="")
    size = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(d) for f in fs)
    print("ompdp: packed %s (%.1f MiB): %d GPU lit tests, %d suite programs, %d real programs"
          % (d, size / 2**20, len(os.listdir(os.path.join(d, "lit"))),
             len(os.listdir(os.path.join(d, "bench"))) - 1, len(progs)))


# ----------------------------------------------------------------- running --

class Runner:
    def __init__(self, d, out, budget=None):
        self.d, self.out = d, out
        # Scratch space outside OUT: only the results go there.
        self.work = os.path.join("/tmp", "ompdp-gpu-work")
        shutil.rmtree(self.work, ignore_errors=True)
        os.makedirs(self.work, exist_ok=True)
        self.deadline = time.monotonic() + budget if budget else None
        self.log = open(os.path.join(out, "log.txt"), "a")
        self.tsv = open(os.path.join(out, "times.tsv"), "a")
        self.t0 = time.monotonic()
        self.ompdp = os.path.join(d, "bin", "ompdp")

    def say(self, msg):
        line = "[%4.0fs] %s" % (time.monotonic() - self.t0, msg)
        print(line, flush=True)
        self.log.write(line + "\n")
        self.log.flush()

    def timed(self, step, prog, side, rnd, cmd, cwd=None, timeout=120, env=None):
        """One run: its status and wall time in times.tsv; returns (rc, secs, stdout, stderr).
        Past the budget nothing runs (rc "skipped")."""
        t = time.monotonic()
        if self.deadline and t > self.deadline:
            return "skipped", 0.0, "", ""
        try:
            r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                               timeout=timeout, errors="replace")
            rc, so, se = r.returncode, r.stdout, r.stderr
        except subprocess.TimeoutExpired as e:
            rc, so, se = "timeout", "", str(e)
        s = time.monotonic() - t
        self.tsv.write("%s\t%s\t%s\t%s\t%s\t%.4f\n" % (step, prog, side, rnd, rc, s))
        self.tsv.flush()
        return rc, s, so, se


def setup_runtime(d, log):
    """LLVM 19's offload runtime where the binaries' RUNPATH looks, if the
    machine has none; libcuda.so for its CUDA plugin (which opens that
    unversioned name)."""
    deps = "/tmp/ompdp-deps"
    os.makedirs(deps, exist_ok=True)
    lib = LLVM + "/lib"
    if not os.path.exists(lib + "/libomptarget.so.19.1"):
        tarball = os.path.join(d, "llvm19.tar.xz")
        if not os.path.exists(tarball):
            sys.exit("ompdp: no LLVM 19 offload runtime here and none packed (pack --closure)")
        os.makedirs(lib, exist_ok=True)
        with tarfile.open(tarball) as t:
            t.extractall(deps)
        for n in ("libomptarget.so.19.1", "libomp.so.5", "libLLVM.so.19.1"):
            shutil.move(os.path.join(deps, n), os.path.join(lib, n))
        os.symlink("libomptarget.so.19.1", lib + "/libomptarget.so")
        os.symlink("libomp.so.5", lib + "/libomp.so")
    out = sh("ldconfig -p", capture_output=True, text=True).stdout
    m = re.search(r"libcuda\.so\.1 .*=> (\S+)", out)
    cuda = m.group(1) if m else None
    if not cuda:
        for root in ("/usr/local/nvidia", "/usr/lib/x86_64-linux-gnu", "/usr/lib64"):
            for r, _, fs in os.walk(root):
                if "libcuda.so.1" in fs:
                    cuda = os.path.join(r, "libcuda.so.1")
                    break
            if cuda:
                break
    if cuda and not os.path.exists(deps + "/libcuda.so"):
        os.symlink(cuda, deps + "/libcuda.so")
    paths = [lib, deps] + ([os.path.dirname(cuda)] if cuda else [])
    os.environ["LD_LIBRARY_PATH"] = ":".join(paths + [os.environ.get("LD_LIBRARY_PATH", "")])
    log("libcuda: %s" % cuda)


def lit_step(R, results):
    fc = os.path.join(R.d, "tools", "FileCheck")
    for t in sorted(os.listdir(os.path.join(R.d, "lit"))):
        td = os.path.join(R.d, "lit", t)
        tsrc = os.path.join(td, t)
        tmp = os.path.join(R.work, "lit-" + t)
        os.makedirs(tmp, exist_ok=True)
        for f in os.listdir(td):
            if f.startswith("prog"):
                shutil.copy2(os.path.join(td, f), os.path.join(tmp, f))
        ok, why = True, ""
        for line in run_lines(tsrc):
            if "%clang" in line:
                continue
            cmd = (line.replace("%ompdp", R.ompdp).replace("%python", sys.executable)
                   .replace("FileCheck", fc).replace("%s", tsrc)
                   .replace("%t", os.path.join(tmp, "prog")))
            r = sh(["bash", "-o", "pipefail", "-c", cmd], capture_output=True, text=True,
                   timeout=300, cwd=tmp, errors="replace")
            R.log.write("$ %s\n%s%s" % (cmd, r.stdout[-3000:], r.stderr[-3000:]))
            if r.returncode:
                text = (r.stderr + r.stdout).splitlines()
                errs = [l for l in text if "error" in l.lower()] or text[-1:] or ["?"]
                ok, why = False, errs[0].strip()[:300]
                break
        results["lit"].append({"test": t, "ok": ok, "why": why})
        R.say("lit %s: %s %s" % (t, "PASS" if ok else "FAIL", why))


def calibrate_step(R, results):
    prof = os.path.join(R.out, "gpu.prof")
    rc, s, so, se = R.timed("calibrate", "calibrate", "ompdp", 1,
                            [R.ompdp, "calibrate", "--reps", "7", "--name", "this-gpu", "-o", prof],
                            timeout=240)
    R.log.write(se)
    results["calibrate"] = {"rc": rc, "seconds": round(s, 1), "stderr": se[-4000:],
                            "profile": open(prof).read() if rc == 0 and os.path.exists(prof) else ""}
    R.say("calibrate: rc=%s in %.0f s" % (rc, s))


def suite_step(R, results, rounds, anchor, only=None):
    b = os.path.join(R.d, "bench")
    null = os.path.join(b, "libnulltool.so")
    def under(opts):
        return lambda exe, a, rep: ([R.ompdp, "run"] + sum((["--option", o] for o in opts), []) +
                                    ["--format=json", "-o", rep, "--", exe, str(a)])
    sides = [("plain", lambda exe, a, rep: [exe, str(a)], None),
             ("null", lambda exe, a, rep: [exe, str(a)], {"OMP_TOOL_LIBRARIES": null}),
             ("ompdp", under([]), None),
             ("ompdp-host-hash", under(["device_hash=0", "device_sync=0"]), None)]
    if anchor:
        sides.append(("ompdataperf", lambda exe, a, rep: [exe, str(a)],
                      {"OMP_TOOL_LIBRARIES": anchor}))
    for row, prog, arg in SUITE:
        exe = os.path.join(b, prog)
        if not os.path.exists(exe) or (only and row not in only):
            continue
        for r in range(1, rounds + 1):
            for side, mk, extra in sides:
                env = dict(os.environ, **(extra or {}))
                rep = os.path.join(R.work, "suite-%s-%s.json" % (row, side))
                rc, s, _, se = R.timed("suite", row, side, r, mk(exe, arg, rep), env=env,
                                       timeout=180)
                results["suite"].append({"row": row, "side": side, "round": r, "rc": rc,
                                         "s": round(s, 4)})
                if rc != 0:
                    R.log.write("%s %s: rc=%s %s\n" % (row, side, rc, se[-500:]))
        R.say("suite %s done" % row)


def sweep_step(R, results, rounds):
    exe = os.path.join(R.d, "bench", "patterns")
    for n in SWEEP:
        for r in range(1, rounds + 1):
            for side, opts in (("host", ["device_hash=0"]),
                               ("device", ["device_hash=2", "device_hash_min_kb=256"]),
                               ("plain", None)):
                cmd = [exe, str(n)] if opts is None else (
                    [R.ompdp, "run"] + sum((["--option", o] for o in opts), []) +
                    ["--format=json", "-o", os.path.join(R.work, "s.json"), "--", exe, str(n)])
                rc, s, _, _ = R.timed("sweep", str(n * 8), side, r, cmd, timeout=120)
                results["sweep"].append({"bytes": n * 8, "side": side, "round": r, "rc": rc,
                                         "s": round(s, 4)})
        R.say("sweep %d KiB done" % (n * 8 >> 10))


def report_summary(path):
    try:
        j = json.load(open(path))
    except (OSError, ValueError):
        return None
    o = j.get("observed", {})
    return {"transfers": o.get("transfers"), "allocs": o.get("allocs"),
            "bytes": o.get("bytes_transferred"), "transfer_time_ns": o.get("transfer_time_ns"),
            "time_saved_ns": j.get("summary", {}).get("time_saved_ns"),
            "wall_time_ns": j.get("program", {}).get("wall_time_ns"),
            "warnings": j.get("warnings", [])[:3],
            "findings": len(j.get("findings", []))}


def realprogs_step(R, results, rounds, only=None):
    progs = [p for p in json.load(open(os.path.join(R.d, "rp", "list.json")))
             if not only or p["name"] in only or p["name"][:-4] in only]
    for p in progs:
        name, cmd = p["name"], p["command"]
        runs = {}
        for v in ("before", "after"):
            src = os.path.join(R.d, "rp", name, v)
            dst = os.path.join(R.work, "rp-%s-%s" % (name, v))
            shutil.rmtree(dst, ignore_errors=True)
            shutil.copytree(src, dst, symlinks=True)
            runs[v] = os.path.join(dst, name)
        outs = {}
        for r in range(1, rounds + 1):
            for v in ("before", "after"):
                rc, s, so, _ = R.timed("realprogs", name, v, r, cmd, cwd=runs[v], timeout=120)
                results["realprogs"].append({"program": name, "side": v, "round": r, "rc": rc,
                                             "s": round(s, 4)})
                outs.setdefault(v, so)
        rep = {}
        for v in ("before", "after"):
            path = os.path.join(R.work, "%s.%s.json" % (name, v))
            rc, s, _, se = R.timed("realprogs", name, "ompdp-" + v, 1,
                                   [R.ompdp, "run", "--option", "verbose=1", "--format=json",
                                    "-o", path, "--"] + cmd, cwd=runs[v], timeout=300)
            rep[v] = report_summary(path)
            if rep[v] is not None:
                rep[v]["seconds"] = round(s, 3)
                rep[v]["verbose"] = [l for l in se.splitlines() if "device_hash=" in l][:1]
        # What the device synchronisation and hashing cost there: the same
        # run with the host hashing every transfer and no synchronisation.
        path = os.path.join(R.work, "%s.before-nosync.json" % name)
        rc, s, _, _ = R.timed("realprogs", name, "ompdp-before-nosync", 1,
                              [R.ompdp, "run", "--option", "device_hash=0", "--option",
                               "device_sync=0", "--format=json", "-o", path, "--"] + cmd,
                              cwd=runs["before"], timeout=300)
        nosync = report_summary(path)
        if nosync is not None:
            nosync["seconds"] = round(s, 3)
        cfg = harness.PROGRAMS.get(name[:-4], {})
        mb = harness.mask_lines(outs.get("before", ""), cfg)
        ma = harness.mask_lines(outs.get("after", ""), cfg)
        diff = [l for l in difflib.unified_diff(mb, ma, lineterm="", n=0)][:12]
        results["realprogs_reports"].append({"program": name, "before": rep["before"],
                                             "after": rep["after"], "before_nosync": nosync,
                                             "same_stdout": mb == ma, "diff": diff})
        R.say("realprogs %s: before %s after %s, same output %s" %
              (name, (rep["before"] or {}).get("transfers"), (rep["after"] or {}).get("transfers"),
               mb == ma))


def run(args):
    d = os.path.abspath(args.dir)
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    R = Runner(d, out, args.budget)
    setup_runtime(d, R.say)
    os.environ.setdefault("OMP_TARGET_OFFLOAD", "MANDATORY")
    info = sh("nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,"
              "pcie.link.width.current --format=csv,noheader", capture_output=True,
              text=True).stdout.strip()
    cpu = ""
    try:
        cpu = [l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
               if l.startswith("model name")][0]
    except (OSError, IndexError):
        pass
    results = {"gpu": info, "cpu": cpu, "nproc": os.cpu_count(), "lit": [], "suite": [],
               "sweep": [], "realprogs": [], "realprogs_reports": [], "rounds": args.rounds}
    R.say("GPU: %s; CPU: %s x%s" % (info, cpu, os.cpu_count()))
    steps = args.steps.split()
    step_fns = {"lit": lambda: lit_step(R, results),
                "calibrate": lambda: calibrate_step(R, results),
                "suite": lambda: suite_step(R, results, args.rounds, args.ompdataperf,
                                            args.rows.split() if args.rows else None),
                "sweep": lambda: sweep_step(R, results, max(1, args.rounds // 2)),
                "realprogs": lambda: realprogs_step(R, results, args.rounds,
                                                    args.programs.split() if args.programs else None)}
    for st in steps:
        try:
            step_fns[st]()
        except Exception as e:  # one step's failure must not lose the others
            R.say("step %s failed: %r" % (st, e))
        json.dump(results, open(os.path.join(out, "results.json"), "w"), indent=1)
    with open(os.path.join(out, "results-gpu.md"), "w") as f:
        f.write(render(results))
    with tarfile.open(os.path.join(out, "reports.tgz"), "w:gz") as t:
        for f in sorted(os.listdir(R.work)):
            if f.endswith(".json"):
                t.add(os.path.join(R.work, f), arcname=f)
    R.say("done; results in %s" % out)


# --------------------------------------------------------------- the table --

def median(v):
    v = sorted(v)
    return (v[len(v) // 2] + v[(len(v) - 1) // 2]) / 2 if v else float("nan")


def render(res):
    L = ["# ompdp on an NVIDIA GPU", "",
         "Written by `scripts/gpu_check.py` (%s; CPU %s, %s cores). Medians of %s alternated "
         "rounds; ranges are the per-round ratios." % (res.get("gpu"), res.get("cpu"),
                                                       res.get("nproc"), res.get("rounds")), ""]
    if res["lit"]:
        L += ["## GPU lit tests", "", "| test | result |", "|---|---|"]
        L += ["| %s | %s |" % (t["test"], "pass" if t["ok"] else "FAIL: " + t["why"].replace("|", "/"))
              for t in res["lit"]]
        L.append("")
    c = res.get("calibrate")
    if c:
        L += ["## ompdp calibrate", "", "exit status %s in %s s; the profile:" % (c["rc"], c["seconds"]),
              "", "```", c["profile"].strip() or c["stderr"].strip()[-1500:], "```", ""]
    if res["suite"]:
        rows = []
        for row, _, _ in SUITE:
            t = {}
            for e in res["suite"]:
                if e["row"] == row and e["rc"] == 0:
                    t.setdefault(e["side"], {})[e["round"]] = e["s"]
            if "plain" not in t:
                continue
            def ratio(side, base):
                rs = [t[side][r] / t[base][r] for r in t.get(side, {}) if r in t.get(base, {})]
                return "%.2f (%.2f-%.2f)" % (median(rs), min(rs), max(rs)) if rs else "-"
            rows.append("| %s | %.3f | %s | %s | %s | %s |" % (
                row, median(list(t["plain"].values())), ratio("null", "plain"),
                ratio("ompdp", "plain"), ratio("ompdp-host-hash", "plain"),
                ratio("ompdataperf", "plain")))
        L += ["## Overhead", "",
              "Whole-program time over the plain program's (ompdp: device hashing and device "
              "synchronisation, the defaults; host hash: `device_hash=0 device_sync=0`, as ompdp "
              "hashed before).", "",
              "| row | plain s | null tool | ompdp | ompdp, host hash | OMPDataPerf |",
              "|---|---|---|---|---|---|"] + rows + [""]
    if res["sweep"]:
        L += ["## Hashing on the device against the host, by transfer size", "",
              "patterns.c (20 rounds of each pattern, 4 arrays): ompdp's time over plain with "
              "every transfer of 256 KiB or more hashed on the GPU, and with all hashed by the "
              "host.", "", "| bytes per array | plain s | device hash | host hash |",
              "|---|---|---|---|"]
        for n in SWEEP:
            t = {}
            for e in res["sweep"]:
                if e["bytes"] == n * 8 and e["rc"] == 0:
                    t.setdefault(e["side"], []).append(e["s"])
            if "plain" in t:
                p = median(t["plain"])
                L.append("| %d KiB | %.3f | %.2f | %.2f |" % (n * 8 >> 10, p, median(t.get("device", [0])) / p,
                                                               median(t.get("host", [0])) / p))
        L.append("")
    if res["realprogs_reports"]:
        L += ["## Real programs before and after `ompdp fix`", "",
              "Predicted: the saving the report of the run before the fix gives on this GPU; "
              "measured: the median time before less the median after.", "",
              "| program | before s | after s | measured saving ms | predicted ms | transfers "
              "before / after | same output |", "|---|---|---|---|---|---|---|"]
        for p in res["realprogs_reports"]:
            t = {}
            for e in res["realprogs"]:
                if e["program"] == p["program"] and e["rc"] == 0:
                    t.setdefault(e["side"], []).append(e["s"])
            b, a = median(t.get("before", [])), median(t.get("after", []))
            pred = ((p["before"] or {}).get("time_saved_ns") or 0) / 1e6
            L.append("| %s | %.3f | %.3f | %.1f | %.1f | %s / %s | %s |" % (
                p["program"], b, a, (b - a) * 1e3, pred, (p["before"] or {}).get("transfers"),
                (p["after"] or {}).get("transfers"), "yes" if p["same_stdout"] else "NO"))
        L.append("")
    return "\n".join(L)


def main():
    ap = argparse.ArgumentParser(description="ompdp's checks on an NVIDIA GPU")
    sub = ap.add_subparsers(dest="cmd")
    pk = sub.add_parser("pack")
    pk.add_argument("dir")
    pk.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    pk.add_argument("--realprogs", help="a work directory of benchmarks/realprogs/run.py")
    pk.add_argument("--closure", action="store_true")
    rn = sub.add_parser("run")
    rn.add_argument("dir")
    rn.add_argument("out")
    rn.add_argument("--rounds", type=int, default=5)
    rn.add_argument("--steps", default="lit calibrate suite sweep realprogs")
    rn.add_argument("--ompdataperf", help="OMPDataPerf's libompdataperf.so, as a fifth side")
    rn.add_argument("--budget", type=float, help="seconds after which no further run starts")
    rn.add_argument("--rows", help="only these rows of the overhead suite (names, space-separated)")
    rn.add_argument("--programs", help="only these real programs (names, space-separated)")
    rd = sub.add_parser("render")
    rd.add_argument("results_json")
    ap.add_argument("--build", default=os.path.join(os.path.dirname(HERE), "build"))
    ap.add_argument("--realprogs")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    if args.cmd == "pack":
        pack(args)
    elif args.cmd == "run":
        run(args)
    elif args.cmd == "render":
        print(render(json.load(open(args.results_json))))
    else:
        d = os.path.join(args.build, "gpu-check")
        pack(argparse.Namespace(dir=d, build=args.build, realprogs=args.realprogs, closure=False))
        out = os.path.join(args.build, "gpu-check-results")
        run(argparse.Namespace(dir=d, out=out, rounds=args.rounds, ompdataperf=None, budget=None,
                               rows=None, programs=None,
                               steps="lit calibrate suite sweep realprogs"))
        shutil.copy2(os.path.join(out, "results-gpu.md"),
                     os.path.join(os.path.dirname(HERE), "benchmarks", "results-gpu.md"))
        print("ompdp: benchmarks/results-gpu.md written")


if __name__ == "__main__":
    main()
