#!/usr/bin/env python3
"""check_fix.py - did applying a report's rewrites do what they predicted?

usage: check_fix.py [--bytes] [--partial] BEFORE.json AFTER.json

BEFORE is the report of the original program, AFTER the report of the
program rebuilt after `ompdp fix --apply BEFORE.json`. Checks that

  1. the transfers and device allocations the run observed dropped by
     exactly what the (distinct) rewrites of BEFORE predicted (the
     transfers by at least that much when a rewrite says its saving is a
     lower bound: updates it inserts under a condition);
  2. the peak of each device's memory in use dropped by what the rewrites
     that shorten how long memory is held (peak_saved_bytes) predicted:
     exactly, for one such rewrite on the device; at least the largest of
     them for several (together they lower it at least as much as any);
  3. with --bytes, the bytes transferred dropped by exactly the bytes the
     rewrites predicted (bytes_removed: a shorter section removes bytes,
     not transfers);
  4. every finding of BEFORE that had a rewrite is gone from AFTER (no
     finding of the same kind on the same variable in the same function
     with the same clause text: a rewrite that changed the clause leaves
     findings of other clauses of that variable, such as a necessary copy
     back at an exit data, to be told apart); with --partial, for
     rewrites that say they leave some of the operations as they were
     (the calls outside a kept loop), such a finding may stay, with a
     smaller count.

Prints one line per fact, then "OK" or the first failure (exit status 1).
"""
import json
import sys


def load(path):
    with open(path) as f:
        return json.load(f)


def edits_key(rw):
    return tuple((e["file"], e["line"], e["column"], e["end_line"], e["end_column"],
                  e["replacement"]) for e in rw["edits"])


def main():
    args = sys.argv[1:]
    check_bytes = "--bytes" in args
    partial = "--partial" in args
    args = [a for a in args if a not in ("--bytes", "--partial")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    before, after = load(args[0]), load(args[1])
    rewrites = {}
    for f in before["findings"]:
        for rw in f.get("rewrites", []):
            rewrites.setdefault(edits_key(rw), rw)
    fixed = [f for f in before["findings"] if f.get("rewrites")]
    print("rewrites: %d for %d finding(s)" % (len(rewrites), len(fixed)))
    failures = []
    lower = any(rw.get("lower_bound", False) for rw in rewrites.values())
    for what, member in (("transfers", "transfers_removed"), ("allocs", "allocs_removed")):
        predicted = sum(rw[member] for rw in rewrites.values())
        b, a = before["observed"][what], after["observed"][what]
        at_least = lower and what == "transfers"
        print("%s: %d -> %d (removed %d, predicted %s%d)"
              % (what, b, a, b - a, "at least " if at_least else "", predicted))
        if (b - a < predicted) if at_least else (b - a != predicted):
            failures.append("%s dropped by %d, not by %sthe predicted %d"
                            % (what, b - a, "at least " if at_least else "", predicted))
    if check_bytes:
        predicted = sum(rw["bytes_removed"] for rw in rewrites.values())
        b = before["observed"]["bytes_transferred"]
        a = after["observed"]["bytes_transferred"]
        print("bytes: %d -> %d (removed %d, predicted %d)" % (b, a, b - a, predicted))
        if b - a != predicted:
            failures.append("bytes dropped by %d, not by the predicted %d" % (b - a, predicted))
    peaks = {}
    for f in fixed:
        for rw in f.get("rewrites", []):
            if "peak_saved_bytes" in rw:
                for dev in f.get("devices", []):
                    peaks.setdefault(dev, {})[edits_key(rw)] = rw["peak_saved_bytes"]
    for dev, saved in sorted(peaks.items()):
        def peak(report):
            return max([m["peak_bytes"] for m in report.get("device_memory", [])
                        if m["device"] == dev and "rank" not in m] or [0])
        b, a = peak(before), peak(after)
        predicted = max(saved.values())
        exact = len(saved) == 1
        print("peak of device %d: %d -> %d (lowered by %d, predicted %s%d)"
              % (dev, b, a, b - a, "" if exact else "at least ", predicted))
        if (b - a != predicted) if exact else (b - a < predicted):
            failures.append("the peak of device %d dropped by %d, not by %sthe predicted %d"
                            % (dev, b - a, "" if exact else "at least ", predicted))
    for f in fixed:
        same = [g for g in after["findings"]
                if g["kind"] == f["kind"] and g.get("variable") == f.get("variable")
                and g.get("function") == f.get("function")
                and g.get("clause") == f.get("clause")]
        if partial and same and all(g["count"] < f["count"] for g in same):
            print("fewer: %s of %s: %d -> %d" % (f["kind"], f.get("variable"), f["count"],
                                                 max(g["count"] for g in same)))
            continue
        print("gone: %s of %s: %s" % (f["kind"], f.get("variable"), "yes" if not same else "no"))
        if same:
            failures.append("%s of %s is still found" % (f["kind"], f.get("variable")))
    if failures:
        print("FAILED: " + failures[0])
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
