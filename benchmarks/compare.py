#!/usr/bin/env python3
# ===- compare.py - one program, several ways of running it, alternated ----===#
#
# run.py measures the suite's fixed four sides (plain, null tool,
# OMPDataPerf, ompdp run). A design question is narrower: does option X pay
# on program Y, what does the runtime cost loaded directly rather than under
# the driver, what does KMP_BLOCKTIME do to both sides. This runs one program
# (a benchmarks/programs/ name, built as run.py builds it, or any executable
# path) several ways, alternated as run.py alternates its sides (one run of
# each per round, the order rotating and flipping from round to round), and
# prints for each way the median wall and CPU time (user + system of the
# process and the children it waited for: driver and program), and their
# ratios to the first way: the median of the per-round ratios and their
# range, which is the noise. Every figure that results-host.md quotes from
# such a comparison names the command that produced it.
#
#   python3 benchmarks/compare.py [--build DIR] [--runs N] [--env VAR=VALUE]
#       --way SPEC [--way SPEC ...] PROGRAM [ARG...]
#
# SPEC, one way of running the program (the first is the reference):
#   plain                 the program alone
#   null                  under the null tool (benchmarks/nulltool)
#   rt[:OPT=V,...]        ompdp's runtime loaded directly (OMP_TOOL_LIBRARIES,
#                         OMPDP_OPTIONS="OPT=V ...", the report to a file)
#   run[:OPT=V,...]       under `ompdp run --option OPT=V ...` (JSON report)
#   rt@DIR[:...], run@DIR[:...]  the same with the ompdp built in DIR (a build
#                         of another commit: a change against its parent)
# --env VAR=VALUE applies to every way (KMP_BLOCKTIME=0, ...).
#
# Example: python3 benchmarks/compare.py --runs 7 --way plain
#              --way rt:hash_helper=0 --way rt:hash_helper=2 lu 768
#
# Python 3 standard library only; run.py's building and timing.
# ===----------------------------------------------------------------------===#

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import run as suite  # noqa: E402  (benchmarks/run.py: building and timing)


def die(msg):
    print(f"compare.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


suite.die = die  # run.py's helpers report through it too


def parse_way(spec):
    """(kind, options, build directory or None) of a way's SPEC."""
    kind, _, opts = spec.partition(":")
    kind, at, where = kind.partition("@")
    if at and (kind not in ("rt", "run") or not where):
        die(f"'{spec}': only rt and run take @BUILD_DIR")
    if kind not in ("plain", "null", "rt", "run"):
        die(f"unknown way '{spec}' (plain, null, rt[:OPT=V,...], run[:OPT=V,...])")
    options = [o for o in opts.split(",") if o] if opts else []
    if kind in ("plain", "null") and options:
        die(f"'{kind}' takes no options: {spec}")
    for o in options:
        if "=" not in o:
            die(f"option '{o}' of '{spec}' is not OPT=VALUE")
    return kind, options, os.path.abspath(where) if at else None


def check_report(path, spec):
    """A way that loads ompdp must have run it: its JSON report is there."""
    try:
        with open(path) as f:
            json.load(f)["observed"]
    except (OSError, ValueError, KeyError) as e:
        die(f"way '{spec}' left no usable ompdp report ({e}): the tool did not run")


def main():
    ap = argparse.ArgumentParser(
        description="One program run several ways, alternated: medians and ratios with "
        "their per-round range.")
    ap.add_argument("--build", default=os.path.join(suite.REPO, "build"),
                    help="ompdp build directory (default: build/ in the repository)")
    ap.add_argument("--runs", type=int, default=7, help="alternated rounds (default 7)")
    ap.add_argument("--cc", default="clang-19")
    ap.add_argument("--env", action="append", default=[], metavar="VAR=VALUE",
                    help="environment for every way (repeatable)")
    ap.add_argument("--way", action="append", required=True, metavar="SPEC",
                    help="plain, null, rt[:OPT=V,...] or run[:OPT=V,...] (repeatable; "
                    "the first is the reference)")
    ap.add_argument("program", help="a benchmarks/programs name (lu, patterns, "
                    "small_events, ...) or the path of an executable")
    ap.add_argument("args", nargs=argparse.REMAINDER, help="the program's arguments")
    a = ap.parse_args()
    if a.runs < 1:
        die("--runs must be at least 1")
    build = os.path.abspath(a.build)
    ways = [parse_way(w) for w in a.way]
    for k, _, where in ways:
        if k in ("rt", "run") and not os.access(os.path.join(where or build, "bin", "ompdp"),
                                                os.X_OK):
            die(f"no ompdp in {where or build}/bin: build it first or pass --build")
    env = dict(os.environ)
    for e in a.env:
        var, eq, val = e.partition("=")
        if not eq or not var:
            die(f"--env wants VAR=VALUE, not '{e}'")
        env[var] = val

    work = tempfile.mkdtemp(prefix="ompdp-compare-")
    try:
        srcs = {p[1][:-2]: p[1] for p in suite.PROGRAMS}
        if a.program in srcs:
            names = [p[0] for p in suite.PROGRAMS if p[1] == srcs[a.program]][:1]
            built, _ = suite.compile_all(a.cc, work, names)
            exe = built[srcs[a.program]]
            env.update(suite.PROGRAM_ENV.get(names[0], {}))
            mark = True
        else:
            exe = shutil.which(a.program) or a.program
            if not os.access(exe, os.X_OK):
                die(f"'{a.program}' is neither a benchmark program "
                          f"({', '.join(sorted(srcs))}) nor an executable")
            mark = False
        base = [exe] + a.args
        nulltool = suite.build_tool(a.cc, work, "nulltool") if any(w[0] == "null" for w in ways) else None
        argvs, envs = [], []
        for i, (kind, opts, where) in enumerate(ways):
            ompdp = os.path.join(where or build, "bin", "ompdp")
            rt = os.path.join(where or build, "lib", "libompdp-rt.so")
            report = os.path.join(work, f"report-{i}.json")
            e = dict(env)
            if kind == "plain":
                argv = base
            elif kind == "null":
                argv = base
                e.update(OMP_TOOL="enabled", OMP_TOOL_LIBRARIES=nulltool)
            elif kind == "rt":
                argv = base
                e.update(OMP_TOOL="enabled", OMP_TOOL_LIBRARIES=rt,
                         OMPDP_OPTIONS=" ".join(["format=json", f"output={report}"] + opts))
            else:
                argv = [ompdp, "run", "--format=json", "-o", report]
                for o in opts:
                    argv += ["--option", o]
                argv += ["--"] + base
            argvs.append(argv)
            envs.append(e)
        errpath = os.path.join(work, "stderr")

        def one(i):
            return suite.must(argvs[i], errpath, envs[i], mark=mark)
        for i in range(len(ways)):  # untimed: page cache, loader, clocks
            one(i)
            if mark and ways[i][0] in ("rt", "run"):
                check_report(os.path.join(work, f"report-{i}.json"), a.way[i])
        acc = [[] for _ in ways]
        idx = list(range(len(ways)))
        for r in range(a.runs):
            order = idx[r % len(idx):] + idx[:r % len(idx)]
            if r % 2:
                order.reverse()
            for i in order:
                acc[i].append(one(i))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def col(i, j):
        return [x[j] for x in acc[i]]
    print(f"program: {' '.join([a.program] + a.args)}; {a.runs} alternated rounds"
          + (f"; env {' '.join(a.env)}" if a.env else ""))
    ref = a.way[0]
    print(f"| way | wall ms (median) | wall ms (range) | wall / {ref} (median of rounds, "
          f"range) | CPU ms (median) | CPU / {ref} (median of rounds, range) |")
    print("|---|---:|---:|---:|---:|---:|")
    for i, w in enumerate(a.way):
        walls, cpus = col(i, 0), col(i, 3)
        s, c = suite.spread(walls, col(0, 0)), suite.spread(cpus, col(0, 3))
        print(f"| {w} | {statistics.median(walls) * 1e3:.2f} | "
              f"{min(walls) * 1e3:.2f}-{max(walls) * 1e3:.2f} | "
              f"{s['median']:.2f} ({s['min']:.2f}-{s['max']:.2f}) | "
              f"{statistics.median(cpus) * 1e3:.2f} | "
              f"{c['median']:.2f} ({c['min']:.2f}-{c['max']:.2f}) |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
