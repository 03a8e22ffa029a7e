#===- findings.py - one line per finding of a JSON report ----------------===#
#
# Usage: findings.py <report.json>
# Prints each finding as
#   <kind> <file name>:<line>:<column> in <function> devices=<list>
#       variable=<variable or -> clause=<clause or ->
# on one line, sorted by place, kind and devices, so that FileCheck can
# check which construct, variable and clause each finding names even where
# the report orders findings by measured time.
#
#===----------------------------------------------------------------------===#
import json
import os
import sys

with open(sys.argv[1]) as f:
    report = json.load(f)
lines = []
for x in report["findings"]:
    key = (os.path.basename(x.get("file") or "?"), x.get("line") or 0,
           x.get("column") or 0, x["kind"], x.get("devices") or [])
    lines.append((key, "%s %s:%d:%d in %s devices=%s variable=%s clause=%s" % (
        x["kind"], key[0], key[1], key[2], x.get("function") or "?",
        ",".join(str(d) for d in key[4]), x.get("variable") or "-",
        x.get("clause") or "-")))
for _, line in sorted(lines):
    print(line)
