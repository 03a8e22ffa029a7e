#!/usr/bin/env python3
# ===- compare_counts.py - ompdp's event counts against a counting tool ----===#
#
# usage: compare_counts.py OMPDP COUNT_TOOL RUNS [NAME=VALUE...] -- PROGRAM...
#
# RUNS times: runs PROGRAM under COUNT_TOOL (count_tool.c), then under
# `OMPDP run --format=json`; both must exit 0 with the same output, and every
# count in ompdp's "observed" (transfers, allocs, deletes, kernels,
# bytes_transferred; each must be there) must equal the tool's. NAME=VALUE pins
# a count of the tool's to an exact value, so the program's own determinism
# is checked too. Prints one summary line, or what differed and exits 1.
# ===----------------------------------------------------------------------===#
import json
import os
import subprocess
import sys
import tempfile

KEYS = ("transfers", "allocs", "deletes", "kernels", "bytes_transferred")


def run(cmd, env, what):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    if p.returncode != 0:
        sys.exit("%s: exit status %d\n%s" % (what, p.returncode, p.stderr.decode(errors="replace")))
    return p.stdout


def main():
    sep = sys.argv.index("--")
    ompdp, tool, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    pinned = dict(a.split("=", 1) for a in sys.argv[4:sep])
    program = sys.argv[sep + 1:]
    with tempfile.TemporaryDirectory() as tmp:
        counts_path = os.path.join(tmp, "counts.txt")
        report_path = os.path.join(tmp, "report.json")
        for i in range(runs):
            env = dict(os.environ, OMP_TOOL_LIBRARIES=tool, COUNT_TOOL_OUTPUT=counts_path)
            out_ref = run(program, env, "run %d under the counting tool" % i)
            with open(counts_path) as f:
                ref = {k: int(v) for k, v in (line.split() for line in f)}
            for k, v in pinned.items():
                if ref.get(k) != int(v):
                    sys.exit("run %d: the counting tool saw %s=%s, not %s" % (i, k, ref.get(k), v))
            env = dict(os.environ)
            env.pop("OMP_TOOL_LIBRARIES", None)
            out = run([ompdp, "run", "--format=json", "-o", report_path, "--"] + program, env,
                      "run %d under ompdp" % i)
            if out != out_ref:
                sys.exit("run %d: the program's output differs under ompdp" % i)
            with open(report_path) as f:
                report = json.load(f)
            observed = report["observed"]
            diff = ["%s: ompdp %s, tool %s" % (k, observed.get(k, "nothing"), ref[k])
                    for k in KEYS if observed.get(k) != ref[k]]
            if report.get("partial"):
                diff.append("the report is partial")
            if diff:
                sys.exit("run %d: %s" % (i, "; ".join(diff)))
        print("%d runs, ompdp equals the counting tool: %s" % (
            runs, " ".join("%s=%d" % (k, ref[k]) for k in KEYS)))
        print("data operations per run: %d" % (ref["transfers"] + ref["allocs"] + ref["deletes"]))


if __name__ == "__main__":
    main()
