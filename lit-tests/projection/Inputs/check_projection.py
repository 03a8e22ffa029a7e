#!/usr/bin/env python3
# ===- check_projection.py - what a projection must satisfy ----------------===#
#
# check_projection.py REPORT.json
#   The arithmetic that ties a projected JSON report together, recomputed
#   from its own numbers (docs/devices.md, "How a report is projected"):
#   the operations of each finding add up to its measured time, and those a
#   rewrite removes less those it adds to its measured saving; every finding
#   and rewrite has a projected saving; the projected wall is
#   the measured wall less the measured data time, plus the projected data
#   time and the kernels' change; the projected total is the measured total
#   scaled by projected over measured over the findings; the speedup follows.
#
# check_projection.py agree --runs N --lo LO --hi HI [--setup SHELL] -- COMMAND...
#   Runs COMMAND (which must write a projected JSON report to the path in
#   $OUT) N times, each time after SHELL (a calibration, so that profile and
#   run see the machine under the same load), and checks that the median,
#   over the runs, of projected over measured lies in [LO, HI] for the time
#   the fixes save and for the time of all data movement. On the device a
#   run was made on, with a profile of that device, the projection must
#   give back what was measured.
#
# Prints one line per check; exits 1 when one fails.
#
# ===----------------------------------------------------------------------===#
import json
import os
import statistics
import subprocess
import sys
import tempfile


def fail(msg):
    print("check_projection: " + msg)
    sys.exit(1)


def near(a, b, slack):
    return abs(a - b) <= slack


def arithmetic(path):
    r = json.load(open(path))
    p = r.get("projection")
    if not p:
        fail("no projection in " + path)
    findings = r["findings"]
    rewrites = [w for f in findings for w in f["rewrites"]]
    if any("projected_time_saved_ns" not in f for f in findings):
        fail("a finding without a projected saving")
    if any("projected_time_saved_ns" not in w for w in rewrites):
        fail("a rewrite without a projected saving")
    # The breakdown accounts for the measured times it breaks down (to a
    # few ns of rounding per class).
    for f in findings:
        if "ops" in f and abs(sum(c["time_ns"] for c in f["ops"].values()) - f["time_ns"]) > 10:
            fail("a %s finding's ops do not add up to its time_ns" % f["kind"])
        for w in f["rewrites"]:
            if "ops" not in w or not w["time_saved_ns"]:
                continue
            net = (sum(c["time_ns"] for c in w["ops"].values()) -
                   sum(c["time_ns"] for c in w["ops_added"].values()))
            if abs(net - w["time_saved_ns"]) > 10:
                fail("a %s rewrite's ops give %d ns, its saving is %d" %
                     (w["kind"], net, w["time_saved_ns"]))
    print("findings: %d, every one projected" % len(findings))
    print("rewrites: %d, every one projected" % len(rewrites))
    ops = r["observed"].get("ops")
    data = (sum(c["time_ns"] for c in ops.values()) if ops
            else r["observed"]["transfer_time_ns"])  # inferred: transfers only
    if p["data_time_ns"] != data:
        fail("data_time_ns %d is not the observed operations' %d" % (p["data_time_ns"], data))
    wall = (r["program"]["wall_time_ns"] - data + p["projected_data_time_ns"] +
            (p["kernel_scale"] - 1) * p["kernel_time_ns"])
    wall = max(wall, p["projected_data_time_ns"], 1)
    if not near(p["wall_time_ns"], wall, 2):
        fail("projected wall %d, expected %d" % (p["wall_time_ns"], wall))
    measured = sum(f["time_saved_ns"] for f in findings)
    projected = sum(f["projected_time_saved_ns"] for f in findings)
    saved = r["summary"]["time_saved_ns"] * projected / measured if measured else projected
    saved = min(saved, p["wall_time_ns"] - 1)
    if not near(p["time_saved_ns"], saved, 2 + len(findings)):
        fail("projected total %d, expected %d" % (p["time_saved_ns"], saved))
    speedup = p["wall_time_ns"] / (p["wall_time_ns"] - p["time_saved_ns"])
    if not near(p["predicted_speedup"], speedup, 1e-6 * speedup):
        fail("speedup %g, expected %g" % (p["predicted_speedup"], speedup))
    print("summary: consistent")


def agree(args):
    runs, lo, hi, setup = 3, 0.5, 2.0, None
    while args and args[0] != "--":
        if args[0] == "--runs":
            runs = int(args[1])
        elif args[0] == "--lo":
            lo = float(args[1])
        elif args[0] == "--hi":
            hi = float(args[1])
        elif args[0] == "--setup":
            setup = args[1]
        else:
            fail("unknown flag " + args[0])
        args = args[2:]
    cmd = args[1:]
    ratios = {"saved": [], "data": []}
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "r.json")
        for _ in range(runs):
            if setup:
                subprocess.run(setup, shell=True, check=True, stdout=subprocess.DEVNULL)
            subprocess.run(cmd, check=True, env=dict(os.environ, OUT=out),
                           stdout=subprocess.DEVNULL)
            r = json.load(open(out))
            p = r["projection"]
            if r["summary"]["time_saved_ns"] <= 0 or p["data_time_ns"] <= 0:
                fail("nothing measured to compare with")
            ratios["saved"].append(p["time_saved_ns"] / r["summary"]["time_saved_ns"])
            ratios["data"].append(p["projected_data_time_ns"] / p["data_time_ns"])
    ok = True
    for what, v in ratios.items():
        m = statistics.median(v)
        inside = lo <= m <= hi
        ok &= inside
        print("%s: median projected/measured %.2f over %d runs (%s %g..%g)" %
              (what, m, runs, "within" if inside else "OUTSIDE", lo, hi))
    if not ok:
        sys.exit(1)


if len(sys.argv) > 1 and sys.argv[1] == "agree":
    agree(sys.argv[2:])
else:
    arithmetic(sys.argv[1])
