#!/usr/bin/env python3
# ===- fail_alloc.py - ompdp's own allocations fail, one at a time ---------===#
#
# usage: fail_alloc.py OMPDP SPREAD [RUN-OPTION...] -- PROGRAM...
#
# Runs PROGRAM under `OMPDP run --format=json` once as it is, learning how
# many allocations the runtime makes (T, from --option verbose=1), then with
# --option test_fail_alloc=N (the N-th allocation of the runtime fails) for
# every N from 1 to 30 and SPREAD more up to T, and with
# test_fail_alloc_count=0 (every allocation from the N-th on fails) for a
# few N. RUN-OPTIONs (--option NAME=VALUE) go to every run. Each time:
#   - the program's standard output and exit status are those of the first
#     run, and ompdp run ends as the program did;
#   - there is a report (or, when every allocation from the N-th on fails,
#     a line on stderr saying it could not be written for lack of memory);
#   - the report is the first run's (timings aside), or it says what was
#     lost: it is partial, and a warning or a line on stderr says that
#     ompdp ran out of memory; if its counts differ, that events were
#     dropped or the analysis is incomplete.
# Prints one summary line, or what went wrong and exits 1.
# ===----------------------------------------------------------------------===#
import json
import os
import re
import subprocess
import sys
import tempfile

TIMINGS = {"wall_time_ns", "time_ns", "time_saved_ns", "transfer_time_ns", "kernel_time_ns",
           "predicted_speedup", "flushed_at_ns"}


def strip(v):
    """The report without what varies from run to run or says how it was made
    (findings are compared apart: their order follows measured time)."""
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items()
                if k not in TIMINGS and k not in ("warnings", "partial", "recovered", "findings")}
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


def findings_key(report):
    out = []
    for f in report.get("findings", []):
        g = strip(f)
        g["rewrites"] = sorted(json.dumps(rewrite_key(rw)) for rw in f.get("rewrites") or [])
        out.append(json.dumps(g, sort_keys=True))
    return sorted(out)


def run(ompdp, opts, program, report_path):
    if os.path.exists(report_path):
        os.unlink(report_path)
    p = subprocess.run([ompdp, "run", "--format=json", "-o", report_path] + opts + ["--"] +
                       program, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    report = None
    if os.path.exists(report_path):
        with open(report_path) as f:
            report = json.load(f)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace"), report


def main():
    sep = sys.argv.index("--")
    ompdp, spread = sys.argv[1], int(sys.argv[2])
    base = sys.argv[3:sep]
    program = sys.argv[sep + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        rpath = os.path.join(tmp, "r.json")
        rc0, out0, err0, ref = run(ompdp, base + ["--option", "verbose=1"], program, rpath)
        m = re.search(r"the runtime made (\d+) allocations, 0 failed", err0)
        if not m or ref is None:
            sys.exit("the first run gave no allocation count or no report:\n" + err0)
        total = int(m.group(1))
        cases = [(n, 1) for n in range(1, min(30, total) + 1)]
        cases += [(1 + (total - 1) * i // spread, 1) for i in range(1, spread + 1)]
        cases += [(n, 0) for n in (1, 2, total // 3, total // 2, total)]
        cases = sorted(set(cases))
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
                # With every allocation failing for good, no report can be
                # made; the runtime must have said so.
                if count == 0 and re.search(r"Cannot allocate memory|out of memory", err):
                    differed += 1
                    continue
                sys.exit("%s: no report\n%s" % (what, err))
            if strip(rep) == strip(ref) and findings_key(rep) == findings_key(ref):
                continue
            differed += 1
            said = " ".join(rep.get("warnings", [])) + " " + err
            if not rep.get("partial") or not re.search(
                    r"allocations of ompdp failed|out of memory", said):
                sys.exit("%s: the report differs from the first run's and does not say that "
                         "ompdp ran out of memory\n%s" % (what, err))
            if rep["observed"] != ref["observed"] and not any(
                    k in said for k in ("dropped", "incomplete", "out of memory during")):
                obs = strip(rep["observed"])  # timings aside, nested ones (ops) too
                ref_obs = strip(ref["observed"])
                if obs != ref_obs:
                    sys.exit("%s: the counts differ (%s, were %s) and the report does not say "
                             "why\n%s" % (what, obs, ref_obs, err))
        print("%d runs with an allocation of ompdp failing: the program's output and exit "
              "status unchanged, a report every time, and each report that differs says "
              "ompdp ran out of memory" % len(cases))
        print("(the runtime made %d allocations; %d reports differed)" % (total, differed),
              file=sys.stderr)


if __name__ == "__main__":
    main()
