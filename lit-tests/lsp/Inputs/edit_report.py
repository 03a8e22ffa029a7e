#!/usr/bin/env python3
# ===- edit_report.py - a report with other measured times ----------------===#
#
# usage: edit_report.py IN OUT [wall=NS] [KIND=NS]...
#
# Copies the JSON report IN to OUT with the run's wall time and the time
# saved of each finding of KIND set, so that a test gets the severities it
# asks for whatever the machine measured. The rest (file hashes, edits)
# stays as the run wrote it.
#
# ===----------------------------------------------------------------------===#
import json
import sys

src, dst, *sets = sys.argv[1:]
with open(src) as f:
    r = json.load(f)
for s in sets:
    key, _, value = s.partition("=")
    if key == "wall":
        r["program"]["wall_time_ns"] = int(value)
        continue
    for f in r["findings"]:
        if f["kind"] == key:
            f["time_saved_ns"] = int(value)
with open(dst, "w") as f:
    json.dump(r, f)
