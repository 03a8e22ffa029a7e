#!/usr/bin/env python3
# ===- unused_findings.py - the unused findings of a report, and its saving ===#
#
# Prints "partial" or "complete", then one line "KIND VARIABLE" per
# unused_alloc and unused_transfer finding (the variable from the plugin,
# else the name DWARF gives the finding's line: the test's program maps one
# variable per line), then "saving ok" when the summary's saving is at most
# the sum of the findings' savings (what counts is among the findings).
#
# ===----------------------------------------------------------------------===#
import json
import re
import sys

r = json.load(open(sys.argv[1]))
print("partial" if r.get("partial") else "complete")
src = {}
for f in r["findings"]:
    if f["kind"] not in ("unused_alloc", "unused_transfer"):
        continue
    var = f.get("variable")
    if not var and f.get("file"):
        path = f["file"]
        if path not in src:
            try:
                src[path] = open(path).read().splitlines()
            except OSError:
                src[path] = []
        lines = src[path]
        line = lines[f["line"] - 1] if 0 < f.get("line", 0) <= len(lines) else ""
        m = re.search(r"(?:map\(\w+: |to\()(\w+)", line)
        var = m.group(1) if m else "?"
    print(f["kind"], var)
total = sum(f["time_saved_ns"] for f in r["findings"])
print("saving ok" if r["summary"]["time_saved_ns"] <= total else "saving too high")
