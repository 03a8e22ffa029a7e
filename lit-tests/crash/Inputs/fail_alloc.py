#!/usr/bin/env python3
# ===- fail_alloc.py - ompdp's own allocations fail, one at a time ---------===#
#
# usage: fail_alloc.py OMPDP [--concurrent] SPREAD [RUN-OPTION...] -- PROGRAM...
#
# --concurrent: PROGRAM's threads allocate on one device at once, so how
# much device memory is in use together (the peak, its holders, and the
# early allocations and late releases measured against it) follows their
# interleaving, which a failed allocation's slower path changes: those are
# left out of the comparison, as timings are.
#
# Runs PROGRAM alone, then under `OMPDP run --format=json` as it is, learning
# how many allocations the runtime makes (T, from --option verbose=1), then
# with --option test_fail_alloc=N (the N-th allocation of the runtime fails)
# for every N from 1 to 15 (start-up) and SPREAD more up to T (SPREAD 0:
# every N up to T), with test_fail_alloc_count=0 (every allocation from the N-th on fails)
# for a few N, and with N = 2T + 64, past the last allocation (the count
# varies a little from run to run, with the consumer thread's timing: nothing
# fails).
# RUN-OPTIONs (--option NAME=VALUE) go to every run. Each time:
#   - the program's standard output is byte for byte the one it prints
#     alone, and ompdp run exits with the program's status;
#   - there is a report, valid JSON that `ompdp report` reads;
#   - the report is the normal run's (timings aside), or it is partial and
#     carries a warning "ompdp ran out of memory: <what was lost>", which
#     the text report shows too; if its counts differ, the warning says
#     that events were dropped or the analysis stopped;
#   - past the last allocation, the report is the normal one, complete,
#     with no such warning.
# Prints one summary line, or what went wrong and exits 1.
# ===----------------------------------------------------------------------===#
import json
import os
import subprocess
import sys
import tempfile

TIMINGS = {"wall_time_ns", "time_ns", "time_saved_ns", "transfer_time_ns", "kernel_time_ns",
           "predicted_speedup", "flushed_at_ns", "bin_ns", "bins",
           # device memory: when the peak came, and the times of its series
           "peak_time_ns", "end_ns", "series"}
# Columns of the timeline's operations that are measured times.
TIMELINE_TIMES = {"start_ns", "dur_ns"}
OOM = "ompdp ran out of memory: "
LOST_EVENTS = ("events were dropped", "the analysis stopped")


# What follows the threads' interleaving (--concurrent).
CONCURRENT_KEYS = {"device_memory", "early_allocs", "late_releases"}
CONCURRENT_KINDS = {"early_alloc", "late_release"}
concurrent = False


def strip(v):
    """v without what varies from run to run or says how it was made."""
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if k not in TIMINGS and k not in ("warnings", "partial", "recovered") and
                not (concurrent and k in CONCURRENT_KEYS)}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v


def rewrite_key(rw):
    """A rewrite by what it changes where: the order in which it names the
    items it keeps resident follows the findings' order, hence time."""
    return (rw.get("kind"), rw.get("transfers_removed"), rw.get("allocs_removed"),
            rw.get("bytes_removed"),
            sorted((e.get("file"), e.get("line"), e.get("column"), e.get("end_line"),
                    e.get("end_column")) for e in rw.get("edits", [])))


def finding_key(f):
    g = strip({k: x for k, x in f.items() if k != "rewrites"})
    g["rewrites"] = sorted(json.dumps(rewrite_key(rw)) for rw in f.get("rewrites") or [])
    return json.dumps(g, sort_keys=True)


def normal(report):
    """The report as it must be in every run: timings aside, findings as a
    sorted list (their order follows measured time), and the timeline's
    operations naming their findings by content, not by position."""
    keys = [finding_key(f) for f in report.get("findings", [])
            if not (concurrent and f.get("kind") in CONCURRENT_KINDS)]
    out = strip({k: x for k, x in report.items() if k not in ("findings", "timeline")})
    out["findings"] = sorted(keys)
    tl = report.get("timeline")
    if tl is not None:
        cols = tl.get("columns", [])
        t = strip({k: x for k, x in tl.items() if k != "ops"})
        ops = []
        for row in tl.get("ops", []):
            op = {}
            for c, x in zip(cols, row):
                if c in TIMELINE_TIMES:
                    continue
                if c in ("findings", "related"):
                    x = sorted(keys[i] if 0 <= i < len(keys) else i for i in x)
                op[c] = x
            ops.append(op)
        t["ops"] = ops
        out["timeline"] = t
    return out


def run(ompdp, opts, program, report_path):
    if os.path.exists(report_path):
        os.unlink(report_path)
    p = subprocess.run([ompdp, "run", "--format=json", "-o", report_path] + opts + ["--"] +
                       program, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    report = None
    if os.path.exists(report_path):
        with open(report_path) as f:
            report = json.load(f)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), report


def read_back(ompdp, report_path):
    """The text `ompdp report` renders from the file, or None."""
    p = subprocess.run([ompdp, "report", report_path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60)
    return p.stdout.decode(errors="replace") if p.returncode == 0 else None


def main():
    global concurrent
    args = sys.argv[1:]
    if len(args) > 1 and args[1] == "--concurrent":
        concurrent = True
        del args[1]
    sep = args.index("--")
    ompdp, spread = args[0], int(args[1])
    base = args[2:sep]
    program = args[sep + 1:]
    alone = subprocess.run(program, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           timeout=120)
    rc0, out0 = alone.returncode, alone.stdout
    with tempfile.TemporaryDirectory() as tmp:
        rpath = os.path.join(tmp, "r.json")
        rc, out, err0, ref = run(ompdp, base + ["--option", "verbose=1"], program, rpath)
        total = None
        for line in err0.splitlines():
            if line.startswith("ompdp: the runtime made ") and line.endswith(", 0 failed"):
                total = int(line.split()[4])
        if rc != rc0 or out != out0 or total is None or ref is None or ref.get("partial"):
            sys.exit("the normal run changed the program, or gave no allocation count or no "
                     "complete report:\n" + err0)
        ref_n = normal(ref)
        cases = [(n, 1) for n in range(1, min(15, total) + 1)]
        if spread > 0:
            cases += [(1 + (total - 1) * i // spread, 1) for i in range(1, spread + 1)]
        else:
            cases += [(n, 1) for n in range(1, total + 1)]
        cases += [(n, 0) for n in (1, 2, total // 4, total // 2, 3 * total // 4, total)]
        past = 2 * total + 64
        cases = sorted(set(cases)) + [(past, 1), (past, 0)]
        differed = 0
        for n, count in cases:
            what = "test_fail_alloc=%d test_fail_alloc_count=%d" % (n, count)
            opts = base + ["--option", "test_fail_alloc=%d" % n,
                           "--option", "test_fail_alloc_count=%d" % count]
            rc, out, err, rep = run(ompdp, opts, program, rpath)
            if rc != rc0 or out != out0:
                sys.exit("%s: the program's %s changed (%d, was %d)\n%s" %
                         (what, "exit status" if rc != rc0 else "output", rc, rc0, err))
            if rep is None:
                sys.exit("%s: no report\n%s" % (what, err))
            oom = [w for w in rep.get("warnings", []) if w.startswith(OOM)]
            if n == past:
                if oom or rep.get("partial") or normal(rep) != ref_n:
                    sys.exit("%s: past the last allocation, the report is not the normal one\n%s"
                             % (what, err))
                continue
            if not oom and normal(rep) == ref_n and not rep.get("partial"):
                continue
            differed += 1
            if not oom or not rep.get("partial"):
                sys.exit("%s: the report differs from the normal one and is not partial with a "
                         "warning '%s...'\n%s" % (what, OOM, err))
            text = read_back(ompdp, rpath)
            if text is None or not all("warning: " + w in text for w in oom):
                sys.exit("%s: ompdp report does not read the report back, or its text lacks "
                         "the warning\n%s" % (what, err))
            if strip(rep["observed"]) != strip(ref["observed"]) and not any(
                    k in w for w in oom for k in LOST_EVENTS):
                sys.exit("%s: the counts differ (%s, were %s) and no warning says why\n%s" %
                         (what, strip(rep["observed"]), strip(ref["observed"]), err))
        print("%d runs with an allocation of ompdp failing: the program's output and exit "
              "status unchanged, a report every time, and each report that differs says "
              "ompdp ran out of memory" % len(cases))
        print("(the runtime made %d allocations; %d reports differed)" % (total, differed),
              file=sys.stderr)


if __name__ == "__main__":
    main()
