#===- plan_calls.py - the calls each construct ran in, from a raw report -===#
#
# Reads the JSON report the runtime writes itself (its "plan", before any
# planning) and prints one line per site of a map item: the construct's
# function and line, then the call it ran in (the callee, the call's line
# and its function), whether it also ran in other calls ("mixed"), and how
# often that call ran; "no call" for a construct the run saw run in no
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
    c = regions.get(s.get("call", 0))
    if not c:
        lines.add("%s: no call%s" % (where, " (mixed)" if s.get("call_mixed") else ""))
        continue
    lines.add("%s: call %s() at line %d in %s%s, %d calls" % (
        where, c["callee"], c["line"], c["function"],
        " (mixed)" if s.get("call_mixed") else "", s.get("calls", 0)))
for line in sorted(lines):
    print(line)
