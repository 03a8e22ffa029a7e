#!/usr/bin/env python3
# ===- normalize_report.py - a JSON report without its run's timings -------===#
#
# Prints the report with the fields that are timings of one particular run
# removed (wall_time_ns, time_ns, time_saved_ns, excluded_time_ns, transfer_time_ns, kernel_time_ns,
# predicted_speedup, and in rewrites time_saved_ns), and the findings in an
# order that does not depend on them (the report sorts by time saved): by
# kind, location, variable, count and bytes. Device memory keeps its bytes
# without the times they were in use at (peak_time_ns, end_ns, the times of
# the series). The timeline keeps its
# operations without their times (and the counts of the rest without their
# time bins), with links to findings renumbered in that order. Two runs of a
# deterministic program, in whatever analysis mode, must then print the same
# text.
#
# ===----------------------------------------------------------------------===#
import json
import sys

TIMING = {"wall_time_ns", "time_ns", "time_saved_ns", "excluded_time_ns", "transfer_time_ns", "kernel_time_ns",
          "predicted_speedup"}


def strip(x):
    if isinstance(x, dict):
        return {k: strip(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [strip(v) for v in x]
    return x


with open(sys.argv[1]) as f:
    report = strip(json.load(f))
order = sorted(range(len(report["findings"])), key=lambda i: (
    lambda f: (f["kind"], f.get("file") or "", f.get("line") or 0, f.get("column") or 0,
               f.get("variable") or "", f["count"], f["bytes"]))(report["findings"][i]))
new_index = {old: new for new, old in enumerate(order)}
report["findings"] = [report["findings"][i] for i in order]
timeline = report.get("timeline")
if timeline:
    cols = timeline["columns"]
    keep = [i for i, c in enumerate(cols) if c not in ("start_ns", "dur_ns")]
    timeline["columns"] = [cols[i] for i in keep]
    for op in timeline["ops"]:
        for c in ("findings", "related"):
            op[cols.index(c)] = sorted(new_index[i] for i in op[cols.index(c)])
    timeline["ops"] = [[op[i] for i in keep] for op in timeline["ops"]]
    timeline["omitted"].pop("bin_ns", None)
    for lane in timeline["omitted"]["lanes"]:
        lane.pop("bins", None)
for mem in report.get("device_memory", []):
    mem.pop("peak_time_ns", None)
    mem.pop("end_ns", None)
    mem["series"] = [p[1] for p in mem.get("series", [])]
print(json.dumps(report, indent=1, sort_keys=True))
