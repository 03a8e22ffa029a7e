#!/usr/bin/env python3
# ===- verdict_saving.py - the summary's saving leaves out no-saving findings ===#
#
# Reads a JSON report and checks what docs/report-format.md says of the
# verdicts: every finding has one; "excluded_time_ns" is the sum of the
# savings of the findings whose verdict is no saving (necessary,
# coincidence, repeated_computation); the summary's "time_saved_ns" is at
# most the sum of the others' (it is a union). Prints one line per verdict
# with how many findings have it, then "ok".
#
# ===----------------------------------------------------------------------===#
import collections
import json
import sys

NO_SAVING = {"necessary", "coincidence", "repeated_computation"}

r = json.load(open(sys.argv[1]))
s = r["summary"]
by = collections.Counter()
excluded = counted = 0
for f in r["findings"]:
    v = f["verdict"]
    by[v] += 1
    if v in NO_SAVING:
        excluded += f["time_saved_ns"]
    else:
        counted += f["time_saved_ns"]
assert s["excluded_time_ns"] == excluded, (s["excluded_time_ns"], excluded)
# Each figure is rounded to nanoseconds on its own: one per finding.
assert s["time_saved_ns"] <= counted + len(r["findings"]), (s["time_saved_ns"], counted)
for v in sorted(by):
    print("%s %d" % (v, by[v]))
print("ok")
