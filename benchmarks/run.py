#!/usr/bin/env python3
# ===- run.py - ompdp overhead benchmark suite -----------------------------===#
#
# Builds the programs in benchmarks/programs/ for offload to the host, runs
# each one without a tool, with the null tool (benchmarks/nulltool: ompdp's
# callbacks with empty bodies, the floor any such tool pays) and with
# `ompdp run`, alternating the three, and prints per program: the median wall
# and CPU time and the ratios, peak RSS, the tool's memory per event, and the
# time spent after main returns (where ompdp analyses). Then it
# runs benchmarks/hashbench/ (XXH3 against memcpy per buffer size) and prints
# the goals met or missed. It also measures ompdp's bounded-memory mode
# (--option mode=stream) on 10^8 events, checks that the stream and full-log
# analyses agree (mode=check), and times the tool's own code without OpenMP
# (benchmarks/logbench: callbacks with 1-4 threads, analysis of 10^7
# events). Nothing here fails because something is slow: the
# exit status is non-zero only when a program cannot be built or does not run
# correctly (a non-zero exit, a missing report), so it also serves as a smoke
# test with --quick. The method is described in benchmarks/README.md.
#
# ===----------------------------------------------------------------------===#

import argparse
import datetime
import json
import math
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

# name, source, size for the full suite, size for --quick, what it measures.
# The sizes keep the full suite under a quarter of an hour on two cores,
# --quick under a minute (CI runs it); small_events_mem (10^7 events) is the
# row that the memory and analysis goals are read from.
PROGRAMS = [
    ("transfer_torture", "transfer_torture.c", 256 << 20, 16 << 20,
     "H2D+D2H transfers, 8 B .. max size (bytes)"),
    ("small_events", "small_events.c", 10**6, 10**5,
     "data ops of 8 B (count)"),
    ("small_events_mem", "small_events.c", 10**7, 3 * 10**5,
     "data ops of 8 B (count): memory and analysis"),
    ("kernel_bound", "kernel_bound.c", 1000, 100,
     "10 kernels, 2 transfers (rounds per element)"),
    ("patterns_S", "patterns.c", 1 << 10, 1 << 10,
     "the paper's patterns (doubles per array)"),
    ("patterns_M", "patterns.c", 1 << 15, 1 << 13,
     "the paper's patterns (doubles per array)"),
    ("patterns_L", "patterns.c", 1 << 20, 1 << 16,
     "the paper's patterns (doubles per array)"),
    ("threads_nowait", "threads_nowait.c", 1 << 20, 1 << 14,
     "4 threads x nowait x all devices (doubles/thread)"),
    ("lu", "lu.c", 768, 128,
     "LU, whole matrix mapped every step (order)"),
]

# The transfer-bound rows: their goal is a slowdown against the plain program
# (hashing every transferred byte is the cost there, which no null tool
# pays); every other row's goal is ompdp against the null tool.
TRANSFER_BOUND = ("transfer_torture", "lu")

# Programs of the published tool's evaluation (OMPDataPerf: bfs, hotspot, lud,
# nw, XSBench, RSBench, minifmm, BabelStream) that a HeCBench checkout
# (--hecbench) holds, built from that checkout into the temporary directory,
# never copied into the repository: row name, folder under src/, sources,
# include folders (siblings under src/), arguments full / quick. They do not
# print the end-of-main mark, so their "after main" columns stay empty. Only
# nw is in HeCBench; the others live in the published tool's repository,
# which the suite does not build from.
EXTERNAL = [
    ("nw", "nw-omp", ["nw.cpp"], ["nw-cuda"], ["2048", "10", "2"],
     ["256", "10", "1"]),
]

# Extra environment for some programs, on both sides of the comparison.
# threads_nowait: libomp 19's hidden helper threads make it abort now and then
# with or without a tool (see the program's banner).
PROGRAM_ENV = {"threads_nowait": {"LIBOMP_USE_HIDDEN_HELPER_TASK": "0"}}

END_MARK = "ompdp-bench-end "

# Goals of the issue; reported, never enforced.
GOAL_NULL_GEOMEAN = 1.01   # ompdp / null tool, rows not transfer-bound
GOAL_TRANSFER = 1.15       # ompdp / plain, the transfer-bound rows
GOAL_BYTES_PER_EVENT = 32
GOAL_ANALYSIS_S = 2.0
STREAM_CAP_MIB = 256  # --option memory_cap_mb for the stream-mode runs

# Stream mode: small_events at this many data ops (full / quick), with every
# value new, and with values repeating every STREAM_PERIOD updates.
STREAM_EVENTS = (10**8, 10**6)
STREAM_PERIOD = 4096
# mode=check runs (program, size full, size quick): one run analysed online
# and from the kept log, and the two JSON reports compared byte for byte.
# Reading reports back (`ompdp report`): a real report of a long run with
# every event in its timeline (small_events N --option timeline=full, about
# 58 bytes of JSON per event), and one with many findings (a real report's
# finding repeated at distinct lines), each at two sizes: full / quick
# events or findings of the larger one, the smaller half of it.
READ_EVENTS = (10**6, 10**5)
READ_FINDINGS = (10**5, 10**4)
READ_RUNS = 3
# Reading is linear: CPU time per byte of the larger report at most this
# many times that of the smaller, and peak memory growing by at most this
# many bytes per byte of report from the smaller to the larger (the
# driver's own few MiB aside).
GOAL_READ_SCALING = 1.25
GOAL_READ_RSS_PER_BYTE = 4.0
CHECK_RUNS = [("small_events", "small_events.c", 10**7, 10**5),
              ("patterns_M", "patterns.c", 1 << 15, 1 << 13),
              ("threads_nowait", "threads_nowait.c", 1 << 18, 1 << 14)]


def die(msg):
    print(f"run.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def machine():
    model = platform.processor() or "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model,
            "kernel": platform.release()}


def hash_isa_flags():
    """The compiler flags of the XXH3 variant the runtime picks by default
    (option hash_isa=auto, rt/hash.c; rt/CMakeLists.txt builds it): AVX-512
    on an AMD CPU that has it, else AVX2 where the CPU has it."""
    flags, amd = "", False
    try:
        with open("/proc/cpuinfo") as f:
            for l in f:
                if l.startswith("flags") and not flags:
                    flags = l + " "
                elif l.startswith("vendor_id") and ("AuthenticAMD" in l or "HygonGenuine" in l):
                    amd = True
    except OSError:
        return []
    if amd and " avx512f " in flags and " avx512dq " in flags:
        return ["-O3", "-mavx512f", "-mavx512dq"]
    return ["-mavx2"] if " avx2 " in flags else []


def compile_all(cc, outdir, names):
    base = [cc, "-O2", "-g", "-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu",
            "-Wl,-rpath,/usr/lib/llvm-19/lib"]
    built = {}
    for src in sorted({p[1] for p in PROGRAMS if p[0] in names}):
        exe = os.path.join(outdir, src[:-2])
        cmd = base + [os.path.join(HERE, "programs", src), "-o", exe]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            die(f"cannot build {src}:\n{' '.join(cmd)}\n{r.stderr}")
        built[src] = exe
    hb = os.path.join(outdir, "hashbench")
    cmd = [cc, "-O2"] + hash_isa_flags() + \
        [os.path.join(HERE, "hashbench", "hashbench.c"), "-o", hb, "-lpthread"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"cannot build hashbench:\n{' '.join(cmd)}\n{r.stderr}")
    return built, hb


def build_tool(cc, outdir, name, variant=None):
    """benchmarks/<name>/<name>.c as a shared library lib<name>.so: the
    null tool (the OMPT tool that registers ompdp's callbacks with empty
    bodies: the floor any such tool pays) or the floor tool (the least an
    exact tool does per event on the program's thread: clock, XXH3 of every
    copy, a record). variant: a macro the source knows (the floor tool's
    FLOOR_VARIANTS), built as lib<name>-<variant>.so."""
    so = os.path.join(outdir, f"lib{name}" +
                      (f"-{variant.lower()}" if variant else "") + ".so")
    cmd = [cc, "-O2", "-shared", "-fPIC"] + \
        ([f"-D{variant}"] if variant else []) + \
        [os.path.join(HERE, name, f"{name}.c"), "-o", so]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"cannot build {name}:\n{' '.join(cmd)}\n{r.stderr}")
    return so


def build_floor_program(cc, outdir, name):
    """benchmarks/floortool/<name>.c, a program rather than a tool:
    neighbour (memory-bound work for another core, see bench_floor) or
    spawnwait (a process that only starts the program and waits for it,
    the floor of any driver, see bench_short)."""
    exe = os.path.join(outdir, name)
    cmd = [cc, "-O2", os.path.join(HERE, "floortool", f"{name}.c"), "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"cannot build {name}:\n{' '.join(cmd)}\n{r.stderr}")
    return exe


def bench_floor(rows, runs, ompdp, nulltool, floortools, neighbour, work):
    """Per event: the null tool, the floor tool (floortools: the library
    of each of its builds, FLOOR_VARIANTS), ompdp's runtime loaded alone
    (no driver) and `ompdp run`, alternated, on the event-bound programs
    (rows: (name, argv, cwd, mark)). Medians and per-round ranges of each
    against the null tool, and of the runtime against the floor of a tool
    that reads the kernel's clock and analyses beside the program."""
    rt = os.path.join(os.path.dirname(os.path.dirname(ompdp)), "lib",
                      "libompdp-rt.so")
    env = dict(os.environ)
    for k in ("OMP_TOOL_LIBRARIES", "OMP_TOOL", "OMPDP_OPTIONS"):
        env.pop(k, None)
    tool = lambda lib, **o: dict(env, OMP_TOOL="enabled",
                                 OMP_TOOL_LIBRARIES=lib, **o)
    out = []
    for name, argv, cwd, mark in rows:
        report = os.path.join(work, f"floor-{name}.txt")
        err = os.path.join(work, f"floor-{name}.err")
        # full: the runtime analysing at exit (no consumer thread beside
        # the program); neighbour: the null tool with memory-bound work on
        # the other core (benchmarks/floortool/neighbour.c).
        sides = [("null", argv, tool(nulltool))] + \
                [(k, argv, tool(floortools[k])) for k, _ in FLOOR_VARIANTS] + \
                [("runtime", argv, tool(rt, OMPDP_OPTIONS=f"output={report}")),
                 ("full", argv,
                  tool(rt, OMPDP_OPTIONS=f"mode=full journal_ms=0 "
                                      f"output={report}")),
                 ("neighbour", argv, tool(nulltool)),
                 ("run", [ompdp, "run", "-o", report, "--"] + argv, env)]
        wall = {k: [] for k, *_ in sides}
        cpu = {k: [] for k, *_ in sides}
        main = {k: [] for k, *_ in sides}  # start to the end of main
        for _ in range(runs):
            for k, a, e in sides:
                hog = subprocess.Popen([neighbour]) if k == "neighbour" else None
                try:
                    w, _, after, c = must(a, err, env=e, cwd=cwd, mark=mark)
                finally:
                    if hog:
                        hog.kill()
                        hog.wait()
                wall[k].append(w)
                cpu[k].append(c)
                if after is not None:
                    main[k].append(w - after)
        r = {"name": name,
             "wall_s": {k: statistics.median(v) for k, v in wall.items()},
             "cpu_s": {k: statistics.median(v) for k, v in cpu.items()},
             "main_s": {k: statistics.median(v) for k, v in main.items() if v}}
        for k in [v for v, _ in FLOOR_VARIANTS] + ["runtime", "run"]:
            r[f"{k}_over_null"] = spread(wall[k], wall["null"])
        # ompdp against the floor of a tool that can run anywhere: the
        # kernel's clock and an analysis beside the program.
        r["runtime_over_floor_consumer"] = spread(wall["runtime"],
                                                  wall["floor_consumer"])
        # `ompdp run` keeps every record where it outlives the program.
        r["run_over_floor_file"] = spread(wall["run"], wall["floor_file"])
        # Until the end of main, where the program's thread does its work:
        # the callbacks alone (full), with the consumer beside them
        # (runtime), and anybody's memory-bound work beside the null tool.
        for k in ("runtime", "full", "neighbour", "floor_clock",
                  "floor_consumer"):
            if main[k]:  # programs that print the end-of-main mark
                r[f"{k}_main_over_null"] = spread(main[k], main["null"])
        out.append(r)
    return out


def find_logbench(build):
    """benchmarks/logbench as the build made it (target `logbench` in
    rt/CMakeLists.txt, from the runtime's own callback sources and their
    per-file settings, so it cannot fall behind them). Its rows are part of
    the suite: a build without it is an error, never a table without them."""
    exe = os.path.join(os.path.abspath(build), "benchmarks", "logbench")
    if not os.access(exe, os.X_OK):
        die(f"{exe} not found: build the `logbench` target "
            f"(make -C {build} logbench)")
    return exe


def run_logbench(exe, args, runs):
    """Median over runs of each number logbench prints."""
    vals = {}
    for _ in range(runs):
        r = subprocess.run([exe] + [str(a) for a in args],
                           capture_output=True, text=True)
        if r.returncode != 0:
            die(f"logbench {' '.join(map(str, args))} failed:\n{r.stderr}")
        for f in r.stdout.split():
            k, v = f.split("=", 1)
            vals.setdefault(k, []).append(float(v))
    return {k: statistics.median(v) for k, v in vals.items()}


def bench_logbench(exe, quick, runs):
    n_cb = 4 * 10**5 if quick else 4 * 10**6
    n_an = 10**6 if quick else 10**7
    out = {"callbacks": []}
    for t in (1, 2, 4):
        print(f"running logbench callbacks ({t} threads) ...",
              file=sys.stderr, flush=True)
        out["callbacks"].append(run_logbench(exe, ["callbacks", n_cb, t],
                                             runs))
    print("running logbench analyze ...", file=sys.stderr, flush=True)
    out["analyze"] = run_logbench(exe, ["analyze", n_an], max(1, runs // 2))
    return out


class RunFailed(Exception):
    def __init__(self, msg, why=""):
        super().__init__(msg)
        self.why = why  # one line: the exit status and its last words


def run_once(argv, errpath, env=None, cwd=None, mark=True):
    """Runs argv; returns wall seconds, peak RSS in KiB, seconds after main
    (None when mark is False: a program that does not print the end-of-main
    mark), CPU seconds (user + system). Raises RunFailed when it fails.

    The peak RSS and CPU time come from wait4 on the direct child. Linux
    reports there the larger of the child's own peak and that of the children
    it reaped, so for `ompdp run` it is the program's peak, not the driver's;
    the CPU time is the child's plus that of the children it reaped (driver
    and program)."""
    with open(errpath, "w") as err:
        t0 = time.monotonic_ns()
        p = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                             stdout=subprocess.DEVNULL, stderr=err, env=env,
                             cwd=cwd)
        _, status, ru = os.wait4(p.pid, 0)
        t1 = time.monotonic_ns()
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(errpath, errors="replace") as f:
        text = f.read()
    if p.returncode != 0:
        last = ([l for l in text.splitlines() if l.strip()] or [""])[-1]
        how = (f"signal {-p.returncode}" if p.returncode < 0
               else f"exit status {p.returncode}")
        raise RunFailed(f"{' '.join(argv)} exited with {p.returncode}:\n"
                        f"{text[-2000:]}",
                        f"{how}, last line of stderr: '{last.strip()[:120]}'")
    end = None
    for line in text.splitlines():
        if line.startswith(END_MARK):
            end = int(line[len(END_MARK):])
    if mark and end is None:
        raise RunFailed(f"{' '.join(argv)} did not print its end-of-main "
                        f"time:\n{text[-2000:]}")
    # Both clocks are CLOCK_MONOTONIC (Python's monotonic clock on Linux).
    return ((t1 - t0) / 1e9, ru.ru_maxrss,
            (t1 - end) / 1e9 if end is not None else None,
            ru.ru_utime + ru.ru_stime)


def must(*args, **kw):
    try:
        return run_once(*args, **kw)
    except RunFailed as e:
        die(str(e))


def spread(num, den):
    """The per-round ratios num[i] / den[i] (one run of each side per round,
    next to each other in time): their median and range are the ratio's noise
    as this suite states it."""
    r = sorted(a / b for a, b in zip(num, den))
    return {"min": r[0], "max": r[-1], "median": statistics.median(r)}


# The sides of the comparison, in the order of the table's columns.
SIDES = ("without", "null", "odp", "with")


def bench_program(name, base, runs, ompdp, work, nulltool, odp, cwd=None,
                  mark=True):
    """Runs base (argv) plain, under the null tool, under OMPDataPerf (odp:
    its tool library, or None) and under `ompdp run`, alternated; returns the
    medians, every run, and the per-round ratios."""
    report = os.path.join(work, f"{name}.json")
    tool = [ompdp, "run", "--format=json", "-o", report, "--"] + base
    errpath = os.path.join(work, f"{name}.stderr")
    env = dict(os.environ, **PROGRAM_ENV.get(name, {}))
    # The null tool and OMPDataPerf are loaded the way ompdp run loads ompdp's
    # runtime (the OpenMP runtime's tool variables), without a driver.
    env_null = dict(env, OMP_TOOL="enabled", OMP_TOOL_LIBRARIES=nulltool)
    argv = {"without": base, "null": base, "odp": base, "with": tool}
    envs = {"without": env, "null": env_null, "with": env}
    note = None
    if odp:
        envs["odp"] = dict(env, OMP_TOOL="enabled", OMP_TOOL_LIBRARIES=odp)
    sides = [k for k in SIDES if k in envs]

    def one(k):
        return run_once(argv[k], errpath, envs[k], cwd=cwd, mark=mark)
    # One untimed run of each first: page cache, dynamic loader, CPU clocks.
    # A program that fails under OMPDataPerf loses that column, not the row.
    for k in sides:
        try:
            one(k)
        except RunFailed as e:
            if k != "odp":
                die(str(e))
            note = f"fails under OMPDataPerf ({e.why})"
            sides.remove("odp")
    acc = {k: [] for k in sides}
    for i in range(runs):
        # Alternated, and the order rotates and flips from one round to the
        # next, so a slow drift of the machine (another process, frequency)
        # falls on every side alike.
        order = sides[i % len(sides):] + sides[:i % len(sides)]
        if i % 2:
            order.reverse()
        for k in order:
            try:
                acc[k].append(one(k))
            except RunFailed as e:
                if k != "odp":
                    die(str(e))
                note = f"fails under OMPDataPerf ({e.why})"
    if "odp" in acc and len(acc["odp"]) < runs:
        del acc["odp"]
    try:
        with open(report) as f:
            observed = json.load(f)["observed"]
    except (OSError, ValueError, KeyError) as e:
        die(f"{name}: no usable JSON report from ompdp ({e})")
    events = observed["transfers"] + observed["allocs"] + observed["kernels"]

    def med(k, i):
        v = [r[i] for r in acc[k] if r[i] is not None]
        return statistics.median(v) if v else None

    def walls(k):
        return [r[0] for r in acc[k]]
    t0 = med("without", 0)
    rss0, rss1 = med("without", 1), med("with", 1)
    x0, x1 = med("without", 2), med("with", 2)
    out = {
        "name": name, "argv": base[1:], "runs": runs,
        "transfer_bound": name in TRANSFER_BOUND,
        "events": events, "observed": observed,
        "peak_rss_kib_without": rss0, "peak_rss_kib_with": rss1,
        "tool_bytes_per_event":
            (rss1 - rss0) * 1024 / events if events else None,
        "after_main_s_without": x0, "after_main_s_with": x1,
        "analysis_s": x1 - x0 if x0 is not None and x1 is not None else None,
        "odp_note": note,
    }
    suffix = {"without": "without", "null": "null", "odp": "odp",
              "with": "with"}
    for k in acc:
        sx = suffix[k]
        out[f"wall_s_{sx}"] = med(k, 0)
        out[f"wall_s_all_{sx}"] = walls(k)
        out[f"cpu_s_{sx}"] = med(k, 3)
        out[f"cpu_s_all_{sx}"] = [r[3] for r in acc[k]]
        out[f"peak_rss_kib_{sx}"] = med(k, 1)
        out[f"after_main_s_{sx}"] = med(k, 2)
    # Ratios of medians, each with the range of its per-round ratios.
    out["slowdown"] = out["wall_s_with"] / t0
    out["slowdown_rounds"] = spread(walls("with"), walls("without"))
    out["null_slowdown"] = out["wall_s_null"] / t0
    out["null_slowdown_rounds"] = spread(walls("null"), walls("without"))
    out["over_null"] = out["wall_s_with"] / out["wall_s_null"]
    out["over_null_rounds"] = spread(walls("with"), walls("null"))
    if "odp" in acc:
        out["odp_slowdown"] = out["wall_s_odp"] / t0
        out["odp_slowdown_rounds"] = spread(walls("odp"), walls("without"))
        out["over_odp"] = out["wall_s_with"] / out["wall_s_odp"]
        out["over_odp_rounds"] = spread(walls("with"), walls("odp"))
    return out


# Short runs (a test program, a CI job's smoke run): `ompdp run` against
# the program alone, in many alternated rounds, and where the difference
# goes, side by side: plain; the null tool (what loading any OMPT tool
# costs); ompdp's runtime loaded by hand, writing its report (what ompdp
# costs inside the program: start-up, callbacks, analysis and report at
# exit); `ompdp run` (adds the driver: its process, the run directory,
# reading the report back and printing it). /bin/true has no OpenMP, so
# only its plain and `ompdp run` sides are measured: the driver alone.
SHORT_ROUNDS = (200, 15)      # full, --quick
SHORT_SIZE = 16               # doubles in one_region's one region
GOAL_SHORT_MS = 1.0           # ompdp run over the program alone


# The runtime's verbose line (rt/tool.c, say_costs): wall time per part.
COST_RE = re.compile(r"time in the program: start-up (?P<startup>\d+) us, "
                     r"crash-log blocks (?P<blocks>\d+) us, analysis "
                     r"(?P<analysis>\d+) us \(of which source locations "
                     r"(?P<attribution>\d+) us\), report (?P<report>\d+) us")
COST_PARTS = (("startup", "start-up: options, callbacks, crash-log file, region tables"),
              ("blocks", "crash-log blocks (ompdp run's event log file), start-up's and later"),
              ("analysis", "at the end: analysis, findings, rewrites"),
              ("attribution", "  of which source locations (DWARF without the plugin)"),
              ("report", "writing the report (the runtime's, and the finished one)"))
# The driver's verbose line (driver/run.c): ompdp run's own time.
DRIVER_RE = re.compile(r"time in ompdp run: before the program (?P<before>\d+) us, "
                       r"reading and printing the report (?P<render>\d+) us, "
                       r"removing its directory (?P<remove>\d+) us")
DRIVER_PARTS = (("before", "ompdp run before it starts the program: options, run "
                 "directory, environment"),
                ("render", "ompdp run after the program: reading and printing the report"),
                ("remove", "ompdp run after the program: removing its run directory"))


# small_events for the per-event floor (full / quick).
FLOOR_EVENTS = (10**6, 10**5)
# The floor tool's builds (benchmarks/floortool/floortool.c): its name in
# the results, the macro it is built with.
FLOOR_VARIANTS = (("floor", None),
                  ("floor_clock", "FLOOR_KERNEL_CLOCK"),
                  ("floor_consumer", "FLOOR_CONSUMER"),
                  ("floor_file", "FLOOR_FILE"))
GOAL_PER_EVENT = 1.05  # ompdp runtime / null tool, event-bound programs


def bench_short(cc, ompdp, nulltool, work, quick):
    exe = os.path.join(work, "one_region")
    cmd = [cc, "-O2", "-g", "-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu",
           "-Wl,-rpath,/usr/lib/llvm-19/lib",
           os.path.join(HERE, "programs", "one_region.c"), "-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"cannot build one_region.c:\n{' '.join(cmd)}\n{r.stderr}")
    rt = os.path.join(os.path.dirname(os.path.dirname(ompdp)), "lib",
                      "libompdp-rt.so")
    true = shutil.which("true") or "/bin/true"
    report = os.path.join(work, "short-report.txt")
    err = os.path.join(work, "short.err")
    env = dict(os.environ)
    for k in ("OMP_TOOL_LIBRARIES", "OMP_TOOL", "OMPDP_OPTIONS"):
        env.pop(k, None)
    tool = lambda lib, **o: dict(env, OMP_TOOL="enabled",
                                 OMP_TOOL_LIBRARIES=lib, **o)
    prog = [exe, str(SHORT_SIZE)]
    spawnwait = build_floor_program(cc, work, "spawnwait")
    sides = [
        ("true_plain", [true], env, False),
        ("true_spawn", [spawnwait, true], env, False),
        ("true_run", [ompdp, "run", "-o", report, "--", true], env, False),
        ("plain", prog, env, True),
        ("spawn", [spawnwait] + prog, env, True),
        ("null", prog, tool(nulltool), True),
        ("runtime", prog, tool(rt, OMPDP_OPTIONS=f"output={report}"), True),
        ("run", [ompdp, "run", "-o", report, "--"] + prog, env, True),
    ]
    rounds = SHORT_ROUNDS[1] if quick else SHORT_ROUNDS[0]
    wall = {k: [] for k, *_ in sides}
    after = {k: [] for k, *_ in sides}
    cpu = {k: [] for k, *_ in sides}
    for _ in range(rounds):
        for k, argv, e, mark in sides:
            w, _, a, c = must(argv, err, env=e, mark=mark)
            wall[k].append(w)
            cpu[k].append(c)
            if a is not None:
                after[k].append(a)
    ms = lambda v: statistics.median(v) * 1e3
    def diff(a, b):
        """a - b per round (next to each other in time): median and the
        middle half of the rounds, in ms."""
        d = sorted((x - y) * 1e3 for x, y in zip(wall[a], wall[b]))
        q = lambda f: d[min(len(d) - 1, int(f * len(d)))]
        return {"median": statistics.median(d), "q1": q(0.25), "q3": q(0.75)}
    res = {"rounds": rounds, "size": SHORT_SIZE,
           "wall_ms": {k: ms(v) for k, v in wall.items()},
           "cpu_ms": {k: ms(v) for k, v in cpu.items()},
           "after_main_ms": {k: ms(v) for k, v in after.items() if v},
           "true_over_plain": diff("true_run", "true_plain"),
           "run_over_plain": diff("run", "plain"),
           # The floor of any driver: one more process that starts the
           # program and waits for it (benchmarks/floortool/spawnwait.c).
           "true_spawn_over_plain": diff("true_spawn", "true_plain"),
           "spawn_over_plain": diff("spawn", "plain"),
           "true_run_over_spawn": diff("true_run", "true_spawn"),
           "run_over_spawn": diff("run", "spawn"),
           "parts": [
               ("loading an OMPT tool (null tool - plain)",
                diff("null", "plain")),
               ("ompdp in the program: start-up, callbacks, analysis, "
                "report (runtime - null tool)", diff("runtime", "null")),
               ("the driver: its process, run directory, reading and "
                "printing the report (ompdp run - runtime)",
                diff("run", "runtime")),
               ("  of which any driver's floor: one more process that "
                "starts the program and waits (spawnwait - plain)",
                diff("spawn", "plain")),
           ]}
    # ompdp's own clocks in the program (option verbose: its time-in-the-
    # program line), under ompdp run, in runs of their own after the timed
    # rounds: the parts of "ompdp in the program" and of "after main".
    costs = {}
    vrep = os.path.join(work, "short-verbose.txt")
    for _ in range(max(5, rounds // 10)):
        must([ompdp, "run", "--option", "verbose=1", "-o", vrep, "--"] + prog,
             err, env=env, mark=True)
        with open(err, errors="replace") as f:
            text = f.read()
        m, d = COST_RE.search(text), DRIVER_RE.search(text)
        if not m or not d:
            die("ompdp run --option verbose=1 printed no time-in-the-program "
                "or time-in-ompdp-run line")
        for k, v in list(m.groupdict().items()) + list(d.groupdict().items()):
            costs.setdefault(k, []).append(int(v) / 1e3)
    res["runtime_parts"] = {k: statistics.median(v) for k, v in costs.items()}
    am = res["after_main_ms"]
    if "runtime" in am and "null" in am:
        res["parts"].append(
            ("  of which after main: analysis and report (runtime - null "
             "tool, after main)", {"median": am["runtime"] - am["null"],
                                  "q1": None, "q3": None}))
    return res


def stream_run(ompdp, exe, args, work, tag):
    """One run of small_events in stream mode: peak RSS, wall time and what
    the report says about forgotten hashes."""
    report = os.path.join(work, f"stream-{tag}.json")
    argv = [ompdp, "run", "--format=json", "-o", report,
            "--option", "mode=stream",
            "--option", f"memory_cap_mb={STREAM_CAP_MIB}", "--"] + \
        [exe] + [str(a) for a in args]
    wall, rss, after, _ = must(argv, os.path.join(work, "stream.stderr"))
    with open(report) as f:
        rep = json.load(f)
    forgot = [w for w in rep["warnings"] if "forgot" in w]
    obs = rep["observed"]
    return {"args": args, "wall_s": wall, "peak_rss_kib": rss,
            "after_main_s": after,
            "events": obs["transfers"] + obs["allocs"] + obs["kernels"],
            "forgotten_warning": forgot[0] if forgot else None,
            "summary": rep["summary"]}


def check_run(ompdp, exe, size, name, work):
    """mode=check: the same run analysed online and from the kept log."""
    report = os.path.join(work, f"check-{name}.json")
    argv = [ompdp, "run", "--format=json", "-o", report,
            "--option", "mode=check", "--", exe, str(size)]
    env = dict(os.environ, **PROGRAM_ENV.get(name, {}))
    must(argv, os.path.join(work, "check.stderr"), env)
    with open(report) as f:
        rep = json.load(f)
    differ = [w for w in rep["warnings"] if w.startswith("mode=check")]
    obs = rep["observed"]
    return {"name": name, "size": size,
            "events": obs["transfers"] + obs["allocs"] + obs["kernels"],
            "identical": not differ,
            "findings": len(rep["findings"])}


def findings_report(src, dst, n):
    """A report of n findings: src's first finding repeated at n distinct
    lines (no timeline), as a long run of many constructs would give.
    Written one finding at a time: the benchmark's own memory must not grow
    with it (a child forked from it starts with its pages, which its peak
    RSS would count)."""
    with open(src) as f:
        rep = json.load(f)
    f0 = rep["findings"][0]
    rep["findings"] = []
    rep.pop("timeline", None)
    head = json.dumps(rep, indent=1)
    cut = head.rindex('"findings": [')
    with open(dst, "w") as out:
        out.write(head[:cut] + '"findings": [\n')
        for i in range(n):
            f0["line"] = i + 1
            out.write((",\n" if i else "") + json.dumps(f0, indent=1))
        out.write(head[cut + len('"findings": ['):])


def read_report(ompdp, path, fmt, work):
    """Median wall and CPU seconds and peak RSS (KiB) of `ompdp report` over
    READ_RUNS runs."""
    runs = [must([ompdp, "report", f"--format={fmt}", "-o", os.devnull,
                  path], os.path.join(work, "read.stderr"), mark=False)
            for _ in range(READ_RUNS)]
    return {"wall_s": statistics.median(r[0] for r in runs),
            "cpu_s": statistics.median(r[3] for r in runs),
            "peak_rss_kib": statistics.median(r[1] for r in runs)}


def bench_read(ompdp, exe, work, quick):
    """`ompdp report` of large reports at two sizes each: time and memory
    must follow the report's size."""
    events = READ_EVENTS[1] if quick else READ_EVENTS[0]
    nfind = READ_FINDINGS[1] if quick else READ_FINDINGS[0]
    rows = []
    # The finding to repeat, from a short run (a small report to load).
    seed = os.path.join(work, "read-seed.json")
    must([ompdp, "run", "--format=json", "-o", seed, "--", exe, "1000"],
         os.path.join(work, "read.stderr"))
    for shape in ("timeline", "findings"):
        for scale in (2, 1):
            path = os.path.join(work, f"read-{shape}-{scale}.json")
            if shape == "timeline":
                n = events // scale
                must([ompdp, "run", "--format=json", "-o", path, "--option",
                      "timeline=full", "--", exe, str(n)],
                     os.path.join(work, "read.stderr"))
                label, fmt = f"{n} events, timeline=full", "html"
            else:
                n = nfind // scale
                findings_report(seed, path, n)
                label, fmt = f"{n} findings", "text"
            r = read_report(ompdp, path, fmt, work)
            r.update({"shape": shape, "label": label, "format": fmt,
                      "bytes": os.path.getsize(path)})
            rows.append(r)
    for shape in ("timeline", "findings"):
        for scale in (2, 1):
            os.unlink(os.path.join(work, f"read-{shape}-{scale}.json"))
    os.unlink(seed)
    return rows


def bench_hash(hb, quick):
    # Largest buffer, and the shortest timing a measurement may rest on.
    args = [hb, str(16 << 20), "0.01"] if quick else \
        [hb, str(256 << 20), "0.05"]
    r = subprocess.run(args, capture_output=True, text=True)
    if r.returncode != 0:
        die(f"hashbench failed:\n{r.stderr}")
    rows = []
    for line in r.stdout.split("\n"):
        kv = dict(f.split("=") for f in line.split())
        if kv:
            rows.append({"size": int(kv["size"]),
                         "hash_gbps": float(kv["hash_gbps"]),
                         "memcpy_gbps": float(kv["memcpy_gbps"]),
                         "read_gbps": float(kv["read_gbps"]),
                         "overlap_gbps": float(kv["overlap_gbps"])
                         if "overlap_gbps" in kv else None})
    return rows


def human(n):
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:g} {unit}" if unit == "B" else f"{n:.0f} {unit}"
        n /= 1024


def fmt_table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" if i == 0 else "---:"
                          for i in range(len(header))) + "|"]
    out += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(out)


def ratio(p, key):
    """'1.05 (1.02-1.09)': a ratio of medians and the range of its per-round
    ratios, or '-' where the side was not run."""
    if key not in p:
        return "-"
    r = p[key + "_rounds"]
    return f"{p[key]:.2f} ({r['min']:.2f}-{r['max']:.2f})"


def secs(v):
    return "-" if v is None else f"{v:.3f}"


def versus_odp(p):
    """ompdp against OMPDataPerf on one row: ahead or behind when every
    round says so, level (within noise) when the rounds disagree."""
    if "over_odp" not in p:
        return None
    r = p["over_odp_rounds"]
    if r["max"] < 1:
        return "ahead"
    if r["min"] > 1:
        return "behind"
    return "level"


def geo(v):
    return math.exp(sum(map(math.log, v)) / len(v)) if v else None


def render(res):
    lines = []
    m = res["machine"]
    lines.append(f"date: {res['date']}  ")
    lines.append(f"machine: {m['nproc']} cores, {m['cpu']}, "
                 f"Linux {m['kernel']}  ")
    lines.append(f"mode: {'quick' if res['quick'] else 'full'}, "
                 f"{res['runs']} alternated runs per side, medians; "
                 f"in parentheses the range of the per-round ratios  ")
    lines.append(f"OMPDataPerf: {res['odp'] or 'not measured'}  ")
    for n in res.get("notes", []):
        lines.append(f"note: {n}  ")
    lines.append("")
    rows = []
    for p in res["programs"]:
        vs = versus_odp(p)
        rows.append([
            p["name"] + (" (transfer-bound)" if p["transfer_bound"] else ""),
            " ".join(p["argv"]), str(p["events"]),
            secs(p["wall_s_without"]), secs(p["wall_s_null"]),
            secs(p.get("wall_s_odp")), secs(p["wall_s_with"]),
            ratio(p, "null_slowdown"), ratio(p, "odp_slowdown"),
            ratio(p, "slowdown"), ratio(p, "over_null"),
            ratio(p, "over_odp") + (f" {vs}" if vs else ""),
        ])
    lines.append(fmt_table(
        ["program", "size", "events", "wall s (no tool)",
         "wall s (null tool)", "wall s (OMPDataPerf)", "wall s (ompdp)",
         "null tool / plain", "OMPDataPerf / plain", "ompdp / plain",
         "ompdp / null tool", "ompdp / OMPDataPerf"], rows))
    for p in res["programs"]:
        if p.get("odp_note"):
            lines.append(f"\n{p['name']}: {p['odp_note']}")
    s = res["summary"]
    lines.append("")
    if s.get("geomean_slowdown") is not None:
        lines.append(f"slowdown (geometric mean, worst): ompdp "
                     f"{s['geomean_slowdown']:.3f}, {s['worst_slowdown']:.3f} "
                     f"({s['worst_program']}); null tool "
                     f"{s['geomean_null_slowdown']:.3f}, "
                     f"{s['worst_null_slowdown']:.3f} "
                     f"({s['worst_null_program']})" +
                     (f"; OMPDataPerf {s['geomean_odp_slowdown']:.3f}, "
                      f"{s['worst_odp_slowdown']:.3f} ({s['worst_odp_program']})"
                      f" over its {s['odp_rows']} rows (ompdp over the same: "
                      f"{s['geomean_slowdown_odp_rows']:.3f})"
                      if s.get("geomean_odp_slowdown") else ""))
    if s.get("geomean_over_null") is not None:
        lines.append(f"ompdp / null tool over the rows not transfer-bound: "
                     f"geometric mean {s['geomean_over_null']:.3f} "
                     f"(geometric mean of the per-round ranges' ends: "
                     f"{s['geomean_over_null_min']:.3f}-"
                     f"{s['geomean_over_null_max']:.3f})")
    lines.append("")
    rows = []
    for p in res["programs"]:
        bpe = p["tool_bytes_per_event"]
        am0, am1 = p["after_main_s_without"], p["after_main_s_with"]
        rows.append([
            p["name"],
            secs(p["cpu_s_without"]), secs(p["cpu_s_null"]),
            secs(p.get("cpu_s_odp")), secs(p["cpu_s_with"]),
            f"{p['peak_rss_kib_without'] / 1024:.1f}",
            f"{p['peak_rss_kib_odp'] / 1024:.1f}"
            if p.get("peak_rss_kib_odp") else "-",
            f"{p['peak_rss_kib_with'] / 1024:.1f}",
            # Below 10^4 events the tool's fixed cost (its code, its tables)
            # dominates and bytes per event says nothing; the JSON has it.
            "-" if bpe is None or p["events"] < 10**4 else f"{bpe:.0f}",
            "-" if am0 is None else f"{am0 * 1e3:.1f}",
            "-" if am1 is None else f"{am1 * 1e3:.1f}",
        ])
    lines.append(fmt_table(
        ["program", "CPU s (no tool)", "CPU s (null tool)",
         "CPU s (OMPDataPerf)", "CPU s (ompdp)", "peak RSS MiB (no tool)",
         "peak RSS MiB (OMPDataPerf)", "peak RSS MiB (ompdp)",
         "ompdp B/event", "after main ms (no tool)", "after main ms (ompdp)"],
        rows))
    lines.append("")
    hrows = [[human(h["size"]), f"{h['hash_gbps']:.2f}",
              f"{h['memcpy_gbps']:.2f}",
              f"{h['hash_gbps'] / h['memcpy_gbps']:.2f}",
              f"{h['read_gbps']:.2f}",
              f"{h['hash_gbps'] / h['read_gbps']:.2f}",
              f"{h['overlap_gbps']:.2f}" if h.get("overlap_gbps") else "-",
              f"{h['overlap_gbps'] / h['memcpy_gbps']:.2f}"
              if h.get("overlap_gbps") else "-"]
             for h in res["hash"]]
    lines.append(fmt_table(["buffer", "XXH3 GB/s", "memcpy GB/s",
                            "hash/memcpy", "read GB/s", "hash/read",
                            "copy while hashing GB/s",
                            "overlapped/memcpy"], hrows))
    lines.append("")
    lines.append("read: every byte read once and nothing else (the XOR of "
                 "the buffer's words), the floor of any hash on one thread. "
                 "Last columns: with --option hash_helper=1, ompdp hashes "
                 "buffers from 256 KiB on a helper thread during the copy; "
                 "that copy's speed.")
    st = res.get("stream")
    if st:
        lines.append("")
        lines.append(f"stream mode (--option mode=stream, memory_cap_mb="
                     f"{STREAM_CAP_MIB}), one run each; peak RSS of the "
                     f"program without ompdp: "
                     f"{st['baseline_rss_kib'] / 1024:.1f} MiB")
        lines.append("")
        srows = []
        for r in st["runs"]:
            srows.append([r["label"], str(r["events"]),
                          f"{r['wall_s']:.1f}",
                          f"{r['peak_rss_kib'] / 1024:.1f}",
                          f"{(r['peak_rss_kib'] - st['baseline_rss_kib']) / 1024:.1f}",
                          r["forgotten_warning"] or "none"])
        lines.append(fmt_table(["run", "events", "wall s", "peak RSS MiB",
                                "tool MiB", "forgotten hashes"], srows))
        lines.append("")
        crows = [[c["name"], str(c["size"]), str(c["events"]),
                  str(c["findings"]), "yes" if c["identical"] else "NO"]
                 for c in res.get("check", [])]
        lines.append("mode=check (stream and full-log reports of one run, "
                     "compared byte for byte):")
        lines.append("")
        lines.append(fmt_table(["program", "size", "events", "findings",
                                "identical"], crows))
    lb = res.get("logbench")
    if lb:
        lines.append("")
        lines.append("the tool alone (benchmarks/logbench: the real callbacks "
                     "and engine, no OpenMP runtime), medians:")
        lines.append("")
        lrows = [[str(int(c["threads"])), f"{c['updates_per_s'] / 1e6:.2f}",
                  f"{c['ns_per_update']:.1f}"] for c in lb["callbacks"]]
        lines.append(fmt_table(["threads", "M target updates/s (all threads)",
                                "ns per update per thread"], lrows))
        a = lb["analyze"]
        lines.append("")
        lines.append(f"analysis of {int(a['events'])} logged events: "
                     f"{a['analysis_s']:.2f} s wall, "
                     f"{a['analysis_cpu_s']:.2f} s CPU; log "
                     f"{a['log_bytes_per_event']:.1f} B/event, peak "
                     f"{a['peak_bytes_per_event']:.1f} B/event")
    rd = res.get("read")
    if rd:
        lines.append("")
        lines.append(f"reading a report back (`ompdp report`, the format "
                     f"shown; median of {READ_RUNS}):")
        lines.append("")
        rrows = [[r["label"], r["format"], f"{r['bytes'] / 2**20:.1f}",
                  f"{r['wall_s']:.2f}", f"{r['cpu_s']:.2f}",
                  f"{r['bytes'] / 2**20 / max(r['cpu_s'], 1e-9):.0f}",
                  f"{r['peak_rss_kib'] / 1024:.1f}"]
                 for r in rd]
        lines.append(fmt_table(["report", "format", "MiB", "wall s", "CPU s",
                                "MiB/CPU s", "peak RSS MiB"], rrows))
    sh = res.get("short")
    if sh:
        lines.append("")
        lines.append(f"short runs ({sh['rounds']} alternated rounds, medians "
                     f"of the per-round differences in ms, in parentheses "
                     f"the middle half of the rounds; one_region "
                     f"{sh['size']}: one target region, 4 events):")
        lines.append("")
        w = sh["wall_ms"]
        def dr(d):
            if d["q1"] is None:
                return f"{d['median']:.2f}"
            return f"{d['median']:.2f} ({d['q1']:.2f}..{d['q3']:.2f})"
        c = sh["cpu_ms"]
        srows = [["/bin/true", f"{w['true_plain']:.2f}", f"{w['true_run']:.2f}",
                  dr(sh["true_over_plain"]), dr(sh["true_spawn_over_plain"]),
                  dr(sh["true_run_over_spawn"]), f"{c['true_plain']:.2f}",
                  f"{c['true_run']:.2f}"],
                 ["one_region", f"{w['plain']:.2f}", f"{w['run']:.2f}",
                  dr(sh["run_over_plain"]), dr(sh["spawn_over_plain"]),
                  dr(sh["run_over_spawn"]), f"{c['plain']:.2f}",
                  f"{c['run']:.2f}"]]
        lines.append(fmt_table(["program", "wall ms (alone)",
                                "wall ms (ompdp run)", "ompdp run - alone, ms",
                                "any driver's floor: spawnwait - alone, ms",
                                "ompdp run - spawnwait, ms",
                                "CPU ms (alone)", "CPU ms (ompdp run)"],
                               srows))
        lines.append("")
        lines.append(fmt_table(["where one_region's difference goes", "ms"],
                               [[n, dr(d)] for n, d in sh["parts"]]))
        rp = sh.get("runtime_parts")
        if rp:
            lines.append("")
            lines.append("ompdp's own clocks in one_region under ompdp run "
                         "(option verbose, medians; wall time, some parts "
                         "overlap the program's own work; the driver's "
                         "process start, exec and dynamic loading, is in "
                         "neither):")
            lines.append("")
            lines.append(fmt_table(["part", "ms"],
                                   [[d, f"{rp[k]:.3f}"] for k, d in
                                    COST_PARTS + DRIVER_PARTS if k in rp]))
    fl = res.get("floor")
    if fl:
        lines.append("")
        lines.append("per event: the floor (wall time against the null tool, "
                     "medians, in parentheses the per-round range; floor: "
                     "benchmarks/floortool, the clock at every begin and "
                     "end of an operation or a kernel, XXH3 of every copy "
                     "and a 40-byte record, on the "
                     "program's thread, and nothing else, reading the TSC "
                     "on any machine; with the kernel's clock: the same, "
                     "reading the clock as ompdp does, rdtsc only where the "
                     "kernel's clocksource is the TSC; + a consumer: the "
                     "same, its records handed to a thread beside the "
                     "program that reads them, as ompdp's analysis runs; "
                     "+ a file: that, every record (24 bytes) kept in a "
                     "file in /dev/shm that outlives the process, as "
                     "ompdp run's crash log keeps them; "
                     "runtime: ompdp's runtime loaded alone, no driver):")
        lines.append("")
        rr = lambda d: f"{d['median']:.3f} ({d['min']:.3f}-{d['max']:.3f})"
        lines.append(fmt_table(
            ["program", "wall s (null tool)", "floor / null tool",
             "with the kernel's clock / null tool",
             "+ a consumer / null tool",
             "ompdp runtime / null tool", "ompdp runtime / floor with both",
             "+ a file / null tool",
             "ompdp run / null tool", "ompdp run / floor with a file",
             "CPU s null / floor / runtime"],
            [[f["name"], f"{f['wall_s']['null']:.3f}",
              rr(f["floor_over_null"]), rr(f["floor_clock_over_null"]),
              rr(f["floor_consumer_over_null"]),
              rr(f["runtime_over_null"]),
              rr(f["runtime_over_floor_consumer"]),
              rr(f["floor_file_over_null"]),
              rr(f["run_over_null"]), rr(f["run_over_floor_file"]),
              f"{f['cpu_s']['null']:.3f} / {f['cpu_s']['floor']:.3f} / "
              f"{f['cpu_s']['runtime']:.3f}"] for f in fl]))
        bm = [f for f in fl if "full_main_over_null" in f]
        if bm:
            lines.append("")
            lines.append("where the runtime's per-event cost goes (time from "
                         "the start to the end of main against the null "
                         "tool's; the callbacks: the runtime analysing at exit "
                         "(mode=full), nothing beside the program; with the "
                         "consumer: the default, the analysis on a thread of "
                         "its own beside it; any neighbour: the null tool "
                         "while benchmarks/floortool/neighbour.c, random "
                         "read-modify-writes of 1 MiB and no tool code, runs "
                         "on the other core):")
            lines.append("")
            lines.append(fmt_table(
                ["program", "the callbacks / null tool",
                 "callbacks + consumer / null tool",
                 "null tool + any neighbour / null tool",
                 "floor with the kernel's clock / null tool",
                 "+ a consumer / null tool"],
                [[f["name"], rr(f["full_main_over_null"]),
                  rr(f["runtime_main_over_null"]),
                  rr(f["neighbour_main_over_null"]),
                  rr(f["floor_clock_main_over_null"]),
                  rr(f["floor_consumer_main_over_null"])] for f in bm]))
    lines.append("")
    lines.append("goals (reported, not enforced):")
    for g in res["goals"]:
        lines.append(f"- {g['goal']}: {g['measured']} -> " +
                     {True: "met", False: "missed",
                      None: "not measured"}[g["met"]])
    return "\n".join(lines)


def goals(res):
    s = res["summary"]
    out = []
    sh = res.get("short")
    if sh:
        t, o = sh["true_over_plain"]["median"], sh["run_over_plain"]["median"]
        ft = sh["true_spawn_over_plain"]["median"]
        fo = sh["spawn_over_plain"]["median"]
        out.append({"goal": f"ompdp run costs at most {GOAL_SHORT_MS:g} ms "
                    "more than the program (/bin/true, one tiny region)",
                    "measured": f"/bin/true +{t:.2f} ms, one_region "
                    f"+{o:.2f} ms (the floor of any driver, spawnwait: "
                    f"+{ft:.2f} and +{fo:.2f} ms)",
                    "met": max(t, o) <= GOAL_SHORT_MS})
    fl = res.get("floor")
    if fl:
        # Met only against the null tool; the floor is said beside it, for
        # a machine where an exact tool cannot come within the goal.
        out.append({"goal": f"per event: ompdp runtime / null tool <= "
                    f"{GOAL_PER_EVENT} (event-bound programs)",
                    "measured": "; ".join(
                        f"{f['name']} {f['runtime_over_null']['median']:.3f} "
                        f"(the floor of an exact tool with the kernel's clock "
                        f"and a consumer: "
                        f"{f['floor_consumer_over_null']['median']:.3f}; "
                        f"ompdp over it "
                        f"{f['runtime_over_floor_consumer']['median']:.3f}; "
                        f"ompdp run {f['run_over_null']['median']:.3f}, "
                        f"over the floor with a file "
                        f"{f['run_over_floor_file']['median']:.3f})"
                        for f in fl),
                    "met": all(f["runtime_over_null"]["median"] <=
                               GOAL_PER_EVENT for f in fl)})
    if s.get("geomean_over_null") is not None:
        out.append({"goal": f"ompdp / null tool geomean <= "
                    f"{GOAL_NULL_GEOMEAN} (rows not transfer-bound)",
                    "measured": f"{s['geomean_over_null']:.3f} (noise "
                    f"{s['geomean_over_null_min']:.3f}-"
                    f"{s['geomean_over_null_max']:.3f})",
                    "met": s["geomean_over_null"] <= GOAL_NULL_GEOMEAN})
    tb = [p for p in res["programs"] if p["transfer_bound"]]
    if tb:
        bad = [p for p in tb if p["slowdown"] > GOAL_TRANSFER]
        out.append({"goal": f"ompdp / plain <= {GOAL_TRANSFER} "
                    "(transfer-bound rows)",
                    "measured": ", ".join(
                        f"{p['name']} {ratio(p, 'slowdown')}" for p in tb),
                    "met": not bad})
    vs = [(p["name"], versus_odp(p)) for p in res["programs"]]
    vs = [v for v in vs if v[1]]
    if vs:
        behind = [n for n, v in vs if v == "behind"]
        out.append({"goal": "ompdp ahead of OMPDataPerf wherever the "
                    "difference is above noise",
                    "measured": "ahead on " + (", ".join(
                        n for n, v in vs if v == "ahead") or "none") +
                    "; level on " + (", ".join(
                        n for n, v in vs if v == "level") or "none") +
                    "; behind on " + (", ".join(behind) or "none"),
                    "met": not behind})
    else:
        out.append({"goal": "ompdp ahead of OMPDataPerf wherever the "
                    "difference is above noise",
                    "measured": "OMPDataPerf not measured", "met": None})
    # The runtime hashes large transfers that run alone on its helper thread
    # by default (option hash_helper=2); the hash table's last columns
    # measure the helper's copy speed.
    slow = [h for h in res["hash"] if h["hash_gbps"] < h["memcpy_gbps"]]
    out.append({"goal": "XXH3 >= memcpy throughput at every size",
                "measured": "slower at " +
                ", ".join(human(h["size"]) for h in slow)
                if slow else "faster or equal at every size",
                "met": not slow})
    mem = [p for p in res["programs"] if p["name"].startswith("small_events")]
    if mem:
        p = max(mem, key=lambda p: p["events"])
        out.append({"goal": f"tool memory <= {GOAL_BYTES_PER_EVENT} B per "
                    "data-op event",
                    "measured": f"{p['tool_bytes_per_event']:.1f} B "
                    f"({p['name']}, {p['events']} events)",
                    "met": p["tool_bytes_per_event"] <= GOAL_BYTES_PER_EVENT})
        out.append({"goal":
                    f"analysis of the largest run < {GOAL_ANALYSIS_S} s",
                    "measured": f"{p['analysis_s']:.3f} s "
                    f"({p['name']}, {p['events']} events)",
                    "met": p["analysis_s"] < GOAL_ANALYSIS_S})
    st = res.get("stream")
    if st:
        worst = max(r["peak_rss_kib"] - st["baseline_rss_kib"]
                    for r in st["runs"]) / 1024
        most = max(r["events"] for r in st["runs"])
        out.append({"goal": f"stream mode: tool memory <= memory_cap_mb="
                    f"{STREAM_CAP_MIB} MiB",
                    "measured": f"{worst:.1f} MiB at most "
                    f"(up to {most} events)",
                    "met": worst <= STREAM_CAP_MIB})
        bad = [c["name"] for c in res.get("check", []) if not c["identical"]]
        out.append({"goal": "stream report identical to full-log report",
                    "measured": "identical in every mode=check run" if not bad
                    else "differ: " + ", ".join(bad),
                    "met": not bad})
    rd = res.get("read")
    if rd:
        scal, grow = [], []
        for shape in ("timeline", "findings"):
            small, big = [r for r in rd if r["shape"] == shape]
            scal.append((shape, (big["cpu_s"] / max(small["cpu_s"], 1e-9)) /
                         (big["bytes"] / small["bytes"])))
            grow.append((shape, (big["peak_rss_kib"] - small["peak_rss_kib"]) *
                         1024 / (big["bytes"] - small["bytes"])))
        out.append({"goal": "reading a report: time linear in its size (CPU "
                    "per byte at twice the size / at the size <= "
                    f"{GOAL_READ_SCALING})",
                    "measured": ", ".join(f"{n} {x:.2f}" for n, x in scal),
                    "met": max(x for _, x in scal) <= GOAL_READ_SCALING})
        out.append({"goal": "reading a report: peak memory grows by <= "
                    f"{GOAL_READ_RSS_PER_BYTE:.0f} bytes per byte of report",
                    "measured": ", ".join(f"{n} {x:.2f}" for n, x in grow),
                    "met": max(x for _, x in grow) <= GOAL_READ_RSS_PER_BYTE})
    lb = res.get("logbench")
    if lb:
        one = lb["callbacks"][0]["updates_per_s"]
        four = lb["callbacks"][-1]["updates_per_s"]
        cores = res["machine"]["nproc"] or 1
        want = 0.8 * min(4, cores)
        out.append({"goal": "no global lock per event: 4 threads scale",
                    "measured": f"4 threads {four / one:.2f}x the throughput "
                    f"of 1 ({cores} cores; >= {want:.1f}x expected)",
                    "met": four / one >= want})
    return out


def check_odp(path):
    """The OMPDataPerf tool library to measure, or None and the one line
    that says why not: none given, or it cannot be loaded as an OMPT tool."""
    if not path:
        return None, ("OMPDataPerf: none given (--ompdataperf PATH or "
                      "OMPDP_OMPDATAPERF): measuring three ways")
    path = os.path.abspath(path)
    r = subprocess.run(
        [sys.executable, "-c",
         "import ctypes, sys; ctypes.CDLL(sys.argv[1]).ompt_start_tool",
         path], capture_output=True, text=True)
    if r.returncode != 0:
        why = (r.stderr.strip().splitlines() or ["?"])[-1]
        return None, (f"OMPDataPerf: cannot load {path} as an OMPT tool "
                      f"({why}): measuring three ways")
    return path, None


def find_hecbench(arg):
    """A HeCBench checkout (a folder with src/): --hecbench, else
    $OMPDP_HECBENCH, else ../shared/realprogs/hecbench beside the repository
    (or beside its main checkout, from a git worktree); None if none."""
    cands = [arg] if arg else []
    if not arg and os.environ.get("OMPDP_HECBENCH"):
        cands.append(os.environ["OMPDP_HECBENCH"])
    if not cands:
        cands.append(os.path.join(REPO, "..", "shared", "realprogs",
                                  "hecbench"))
        r = subprocess.run(["git", "-C", REPO, "rev-parse",
                            "--path-format=absolute", "--git-common-dir"],
                           capture_output=True, text=True)
        if r.returncode == 0:
            main = os.path.dirname(r.stdout.strip())
            cands.append(os.path.join(main, "..", "shared", "realprogs",
                                      "hecbench"))
    for c in cands:
        if os.path.isdir(os.path.join(c, "src")):
            return os.path.abspath(c)
    return None


def compile_external(cc, outdir, hecbench, name, folder, sources, incs):
    """An EXTERNAL program built from the HeCBench checkout (read only) into
    outdir; its argv[0], or None and why not."""
    src = os.path.join(hecbench, "src", folder)
    if not os.path.isdir(src):
        return None, f"{name}: no {src}"
    cxx = cc.replace("clang-", "clang++-") if "clang-" in cc else cc + "++"
    exe = os.path.join(outdir, name)
    cmd = [cxx, "-std=c++17", "-O2", "-g", "-fopenmp",
           "-fopenmp-targets=x86_64-pc-linux-gnu",
           "-Wl,-rpath,/usr/lib/llvm-19/lib"] + \
        [f"-I{os.path.join(hecbench, 'src', i)}" for i in incs] + \
        [os.path.join(src, f) for f in sources] + ["-o", exe]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        return None, f"{name}: does not build ({' '.join(cmd)}): " + \
            (r.stderr.strip().splitlines() or ["?"])[-1]
    return exe, None


def main():
    ap = argparse.ArgumentParser(
        description="Measure what ompdp costs: time, memory, analysis, "
        "hashing.")
    ap.add_argument("--build", default=os.path.join(REPO, "build"),
                    help="ompdp build directory (default: build/ in the repo)")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes and 3 runs (a smoke test, ~1-2 min)")
    ap.add_argument("--runs", type=int,
                    help="alternated runs per side (default 5, 3 with --quick)")
    ap.add_argument("--json", metavar="FILE",
                    help="also write the results here")
    ap.add_argument("--only", metavar="NAME", action="append",
                    help="run only this program (repeatable)")
    ap.add_argument("--cc", default="clang-19",
                    help="compiler (default clang-19)")
    ap.add_argument("--ompdataperf", metavar="LIB",
                    default=os.environ.get("OMPDP_OMPDATAPERF"),
                    help="an already-built OMPDataPerf tool library "
                    "(libompdataperf.so) to measure as a fourth side "
                    "(default $OMPDP_OMPDATAPERF; none: three sides)")
    ap.add_argument("--hecbench", metavar="DIR",
                    help="a HeCBench checkout whose programs of the "
                    "published tool's evaluation are added as rows (default "
                    "$OMPDP_HECBENCH, else ../shared/realprogs/hecbench; "
                    "not with --quick)")
    a = ap.parse_args()

    ompdp = os.path.join(os.path.abspath(a.build), "bin", "ompdp")
    if not os.access(ompdp, os.X_OK):
        die(f"no ompdp at {ompdp}: build it first or pass --build")
    if not shutil.which(a.cc):
        die(f"compiler '{a.cc}' not found")
    runs = a.runs or (3 if a.quick else 5)
    if runs < 1:
        die("--runs must be at least 1")
    known = [p[0] for p in PROGRAMS] + [e[0] for e in EXTERNAL] + ["short", "floor"]
    names = a.only or known
    for n in names:
        if n not in known:
            die(f"unknown program '{n}' (known: {', '.join(known)})")

    odp, why = check_odp(a.ompdataperf)
    notes = []
    if why:
        print(f"run.py: {why}", file=sys.stderr, flush=True)
        notes.append(why)
    ext = [e for e in EXTERNAL if e[0] in names]
    hecbench = None
    if ext and a.quick and not a.only:
        ext = []
    elif ext:
        hecbench = find_hecbench(a.hecbench)
        if not hecbench:
            why = (f"no HeCBench checkout (--hecbench, OMPDP_HECBENCH): "
                   f"without {', '.join(e[0] for e in ext)}")
            print(f"run.py: {why}", file=sys.stderr, flush=True)
            notes.append(why)
            ext = []

    work = tempfile.mkdtemp(prefix="ompdp-bench-")
    try:
        built, hb = compile_all(a.cc, work, names + [c[0] for c in CHECK_RUNS] +
                                (["small_events"] if "floor" in names else []))
        nulltool = build_tool(a.cc, work, "nulltool")
        lb = find_logbench(a.build) if not a.only else None
        res = {"date": datetime.datetime.now().astimezone().isoformat(
                   timespec="seconds"),
               "machine": machine(), "quick": a.quick, "runs": runs,
               "ompdp": ompdp, "odp": odp, "hecbench": hecbench,
               "notes": notes, "programs": []}
        for name, src, full, quick, what in PROGRAMS:
            if name not in names:
                continue
            size = quick if a.quick else full
            print(f"running {name} ({size}) ...", file=sys.stderr, flush=True)
            r = bench_program(name, [built[src], str(size)], runs, ompdp,
                              work, nulltool, odp)
            r["size"] = size
            r["measures"] = what
            res["programs"].append(r)
        for name, folder, sources, incs, full, quick in ext:
            exe, why = compile_external(a.cc, work, hecbench, name, folder,
                                        sources, incs)
            if not exe:
                print(f"run.py: {why}", file=sys.stderr, flush=True)
                notes.append(why)
                continue
            args = quick if a.quick else full
            print(f"running {name} ({' '.join(args)}) ...", file=sys.stderr,
                  flush=True)
            r = bench_program(name, [exe] + args, runs, ompdp, work,
                              nulltool, odp, cwd=work, mark=False)
            r["measures"] = f"HeCBench src/{folder}, built from {hecbench}"
            res["programs"].append(r)
        if not a.only or "floor" in a.only:
            floortools = {k: build_tool(a.cc, work, "floortool", v)
                          for k, v in FLOOR_VARIANTS}
            neighbour = build_floor_program(a.cc, work, "neighbour")
            rows = [("small_events", [built["small_events.c"],
                                      str(FLOOR_EVENTS[1] if a.quick
                                          else FLOOR_EVENTS[0])], None, True)]
            for name, folder, sources, incs, full, quick in EXTERNAL:
                if name == "nw" and not a.quick and (not a.only or "nw" in a.only):
                    hb_dir = hecbench or find_hecbench(a.hecbench)
                    exe, why = (compile_external(a.cc, work, hb_dir, name, folder,
                                                 sources, incs)
                                if hb_dir else (None, "no HeCBench checkout"))
                    if exe:
                        rows.append((name, [exe] + full, work, False))
                    else:
                        notes.append(f"floor: without {name}: {why}")
            print("running the per-event floor ...", file=sys.stderr, flush=True)
            res["floor"] = bench_floor(rows, runs, ompdp, nulltool, floortools,
                                       neighbour, work)
        if not a.only or "short" in a.only:
            print("running the short runs ...", file=sys.stderr, flush=True)
            res["short"] = bench_short(a.cc, ompdp, nulltool, work, a.quick)
        print("running hashbench ...", file=sys.stderr, flush=True)
        res["hash"] = bench_hash(hb, a.quick)
        if not a.only:
            n = STREAM_EVENTS[1] if a.quick else STREAM_EVENTS[0]
            exe = built["small_events.c"]
            base = [p for p in res["programs"] if p["name"] == "small_events"]
            st = {"baseline_rss_kib": base[0]["peak_rss_kib_without"],
                  "runs": []}
            for label, args in (("every value new", [n]),
                                (f"values repeat every {STREAM_PERIOD}",
                                 [n, STREAM_PERIOD])):
                print(f"running small_events {n} in stream mode ({label}) ...",
                      file=sys.stderr, flush=True)
                r = stream_run(ompdp, exe, args, work, len(st["runs"]))
                r["label"] = f"small_events {n}, {label}"
                st["runs"].append(r)
            res["stream"] = st
            res["check"] = []
            for name, src, full, quick in CHECK_RUNS:
                size = quick if a.quick else full
                print(f"running {name} ({size}) with mode=check ...",
                      file=sys.stderr, flush=True)
                res["check"].append(check_run(ompdp, built[src], size, name,
                                              work))
            print("reading large reports back ...", file=sys.stderr,
                  flush=True)
            res["read"] = bench_read(ompdp, exe, work, a.quick)
            if lb:
                res["logbench"] = bench_logbench(lb, a.quick, runs)
    finally:
        shutil.rmtree(work, ignore_errors=True)

    progs = res["programs"]
    if not progs and (res.get("short") or res.get("floor")):
        res["summary"] = {}
        res["goals"] = goals(res)
        print(render(res))
        return 0
    if not progs:
        # --only named programs that could not be built here (nw without a
        # HeCBench checkout): said above, nothing to tabulate.
        print("run.py: no program was measured", file=sys.stderr)
        return 0
    worst = max(progs, key=lambda p: p["slowdown"])
    worst_n = max(progs, key=lambda p: p["null_slowdown"])
    res["summary"] = {
        "geomean_slowdown": geo([p["slowdown"] for p in progs]),
        "worst_slowdown": worst["slowdown"], "worst_program": worst["name"],
        "geomean_null_slowdown": geo([p["null_slowdown"] for p in progs]),
        "worst_null_slowdown": worst_n["null_slowdown"],
        "worst_null_program": worst_n["name"]}
    nt = [p for p in progs if not p["transfer_bound"]]
    if nt:
        res["summary"].update({
            "geomean_over_null": geo([p["over_null"] for p in nt]),
            "geomean_over_null_min":
                geo([p["over_null_rounds"]["min"] for p in nt]),
            "geomean_over_null_max":
                geo([p["over_null_rounds"]["max"] for p in nt])})
    od = [p for p in progs if "odp_slowdown" in p]
    if od:
        worst_o = max(od, key=lambda p: p["odp_slowdown"])
        res["summary"].update({
            "odp_rows": len(od),
            "geomean_odp_slowdown": geo([p["odp_slowdown"] for p in od]),
            "geomean_slowdown_odp_rows": geo([p["slowdown"] for p in od]),
            "worst_odp_slowdown": worst_o["odp_slowdown"],
            "worst_odp_program": worst_o["name"]})
    res["goals"] = goals(res)
    print(render(res))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
