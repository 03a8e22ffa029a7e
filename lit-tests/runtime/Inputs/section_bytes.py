#!/usr/bin/env python3
"""section_bytes.py - the shortened sections of a JSON report, one per line.

usage: section_bytes.py REPORT.json

For each overbroad_map finding with a shrink_section rewrite: the variable,
the transfers it counts, the bytes they moved that the region never touches,
the bytes the rewrite predicts it removes and the rewrite's kind, by
variable (lit-tests/runtime/section_end.c).
"""
import json
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
for finding in sorted(report["findings"], key=lambda f: f.get("variable") or ""):
    for rw in finding.get("rewrites", []):
        if finding["kind"] == "overbroad_map" and rw["kind"] == "shrink_section":
            print("%s: %d transfers, %d bytes, %d predicted, %s"
                  % (finding["variable"], finding["count"], finding["bytes"],
                     rw["bytes_removed"], rw["kind"]))
