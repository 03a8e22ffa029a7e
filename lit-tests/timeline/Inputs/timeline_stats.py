#!/usr/bin/env python3
# ===- timeline_stats.py - what a report's timeline holds, in lines ---------===#
#
# Reads a JSON report and prints, for FileCheck, what its "timeline" keeps:
#   timeline: none                                      (no section)
#   timeline kept=<all|bounded> events=E ops=K omitted=O total=K+O
#   ops by type: alloc=.. delete=.. h2d=.. d2h=.. kernel=..
#   threads=T max-thread=M
#   finding <i> <kind> <variable>: count=C linked=L related=R
#   check: ops in seq order, links name findings, every event accounted
# and exits 1 with "error: ..." when the section is inconsistent (links to
# findings that do not exist, seq not increasing, kept + omitted != events).
# ===------------------------------------------------------------------------===#
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
t = report.get("timeline")
if not t:
    print("timeline: none")
    sys.exit(0)
cols = t["columns"]
c = {name: i for i, name in enumerate(cols)}
ops = t["ops"]
omitted = sum(l["count"] for l in t["omitted"]["lanes"])
print("timeline kept=%s events=%d ops=%d omitted=%d total=%d" %
      (t["kept"], t["events"], len(ops), omitted, len(ops) + omitted))
types = {}
for op in ops:
    types[op[c["type"]]] = types.get(op[c["type"]], 0) + 1
print("ops by type: " + " ".join("%s=%d" % (k, types[k]) for k in sorted(types)))
print("threads=%d max-thread=%d" % (t["threads"], max([op[c["thread"]] for op in ops] or [-1])))
nf = len(report["findings"])
errors = []
prev = -1
for op in ops:
    if op[c["seq"]] <= prev:
        errors.append("seq %d after %d" % (op[c["seq"]], prev))
    prev = op[c["seq"]]
    for i in op[c["findings"]] + op[c["related"]]:
        if not 0 <= i < nf:
            errors.append("op %d links finding %d of %d" % (op[c["seq"]], i, nf))
if len(ops) + omitted != t["events"]:
    errors.append("kept %d + omitted %d != events %d" % (len(ops), omitted, t["events"]))
for i, f in enumerate(report["findings"]):
    linked = sum(1 for op in ops if i in op[c["findings"]])
    related = sum(1 for op in ops if i in op[c["related"]])
    print("finding %d %s %s: count=%d linked=%d related=%d" %
          (i, f["kind"], f.get("variable") or "-", f["count"], linked, related))
if errors:
    print("error: " + "; ".join(errors[:5]))
    sys.exit(1)
print("check: ops in seq order, links name findings, every event accounted")
