#===- plan_calls.py - the calls each construct ran in, from a raw report -===#
#
# Reads the JSON report the runtime writes itself (its "plan", before any
# planning) and prints one line per site of a map item: the construct's
# function and line, then the calls it ran in (each one's callee, line and
# function, the first seen first), whether it also ran outside them
# ("other": in no tagged call, or in more than the run keeps), and how
# often the first call ran; "no call" for a construct the run saw run in no
# tagged call. Sorted, so that lit tests can check them in a fixed order.
#
#===----------------------------------------------------------------------===#
import json
import sys

report = json.load(open(sys.argv[1]))
plan = report.get("plan", {})
regions = {r["handle"]: r for r in plan.get("regions", [])}
lines = set()
for s in plan.get("sites", []):
    if s.get("item", -1) < 0:
        continue
    r = regions.get(s["region"])
    if not r:
        continue
    where = "%s %s:%d" % (r["construct"], r["function"], r["line"])
    other = " (other)" if s.get("call_mixed") else ""
    calls = [regions.get(s.get(k, 0)) for k in ("call", "call2", "call3", "call4")]
    calls = [c for c in calls if c]
    if not calls:
        lines.add("%s: no call%s" % (where, other))
        continue
    lines.add("%s: %s %s%s, %d calls" % (
        where, "call" if len(calls) == 1 else "calls",
        ", ".join("%s() at line %d in %s" % (c["callee"], c["line"], c["function"])
                  for c in calls),
        other, s.get("calls", 0)))
for line in sorted(lines):
    print(line)
