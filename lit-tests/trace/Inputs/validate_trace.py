#!/usr/bin/env python3
# ===- validate_trace.py - check a Chrome trace-event file ------------------===#
#
# The rules of the Trace Event Format (the Google document "Trace Event
# Format", JSON Object Format) that Perfetto UI and chrome://tracing rely on
# when they open a file, for the events ompdp writes:
#   - the file is an object with a "traceEvents" array (and optionally
#     "displayTimeUnit" of "ms" or "ns", and "otherData", an object);
#   - every event is an object with "ph" (a known phase), "name" (a string),
#     "pid" and "tid" (integers), "ts" (a number of microseconds, >= 0;
#     metadata events may leave it out), "args" an object if present;
#   - "X" has "dur" >= 0; "i"/"I" a scope "s" of g, p or t if present;
#   - "C" has args whose values are numbers;
#   - "s"/"t"/"f" have "id" and "cat", each flow id has one start and one
#     finish with the same cat and name, "bp" if present is "e", and the
#     finish lies inside a slice of its track;
#   - "M" is one of process_name, process_sort_index, thread_name,
#     thread_sort_index, process_labels, with args.name or args.sort_index;
#   - complete events on one track (pid, tid) nest or are disjoint: the
#     viewers drop slices that overlap partially.
# Prints "valid: N events, P processes, T tracks, F flows" or, for the
# first problem, "invalid: <where>: <what>" with exit status 1. With
# --summary it also prints the process and thread names, sorted.
# ===------------------------------------------------------------------------===#
import json
import sys

PHASES = set("BEXiICbnesStTfPOND") | {"M", "R", "(", ")", "c"}
META = {"process_name": "name", "process_labels": "labels", "process_sort_index": "sort_index",
        "thread_name": "name", "thread_sort_index": "sort_index"}


class Invalid(Exception):
    pass


def num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def check(doc):
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        raise Invalid("file: not an object with a traceEvents array")
    if "displayTimeUnit" in doc and doc["displayTimeUnit"] not in ("ms", "ns"):
        raise Invalid("displayTimeUnit: must be 'ms' or 'ns'")
    if "otherData" in doc and not isinstance(doc["otherData"], dict):
        raise Invalid("otherData: must be an object")
    slices, flows, names = {}, {}, {}
    for i, e in enumerate(doc["traceEvents"]):
        at = "traceEvents[%d]" % i
        if not isinstance(e, dict):
            raise Invalid(at + ": not an object")
        ph = e.get("ph")
        if ph not in PHASES:
            raise Invalid(at + ": unknown phase %r" % (ph,))
        if not isinstance(e.get("name"), str):
            raise Invalid(at + ": no name")
        for k in ("pid", "tid"):
            if not isinstance(e.get(k), int) or isinstance(e.get(k), bool):
                raise Invalid(at + ": %s must be an integer" % k)
        if ph != "M" and (not num(e.get("ts")) or e["ts"] < 0):
            raise Invalid(at + ": ts must be a number >= 0")
        if "args" in e and not isinstance(e["args"], dict):
            raise Invalid(at + ": args must be an object")
        track = (e["pid"], e["tid"])
        if ph == "X":
            if not num(e.get("dur")) or e["dur"] < 0:
                raise Invalid(at + ": an X event needs dur >= 0")
            slices.setdefault(track, []).append((e["ts"], e["ts"] + e["dur"], i))
        elif ph in "iI":
            if "s" in e and e["s"] not in ("g", "p", "t"):
                raise Invalid(at + ": scope must be g, p or t")
        elif ph == "C":
            if not e.get("args") or not all(num(v) for v in e["args"].values()):
                raise Invalid(at + ": a counter needs numeric args")
        elif ph in "stf":
            if "id" not in e or not isinstance(e.get("cat"), str):
                raise Invalid(at + ": a flow event needs id and cat")
            if "bp" in e and e["bp"] != "e":
                raise Invalid(at + ": bp must be 'e'")
            flows.setdefault((e["cat"], e["name"], e["id"]), []).append((ph, track, e["ts"], i))
        elif ph == "M":
            key = META.get(e["name"])
            if not key or key not in e.get("args", {}):
                raise Invalid(at + ": metadata %r needs args.%s" % (e["name"], key or "?"))
            if e["name"] == "process_name":
                names[("process", e["pid"])] = e["args"]["name"]
            elif e["name"] == "thread_name":
                names[("thread", e["pid"], e["tid"])] = e["args"]["name"]
    for track, ss in slices.items():
        ss.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for b, e, i in ss:
            while stack and stack[-1][1] <= b:
                stack.pop()
            if stack and e > stack[-1][1] + 1e-9:
                raise Invalid("traceEvents[%d]: overlaps traceEvents[%d] on track %s partially"
                              % (i, stack[-1][2], track))
            stack.append((b, e, i))
    for key, evs in flows.items():
        phs = sorted(p for p, _, _, _ in evs)
        if phs.count("s") != 1 or phs.count("f") != 1:
            raise Invalid("flow %r: needs one start and one finish, has %s" % (key, phs))
        for ph, track, ts, i in evs:
            if ph == "f" and not any(b <= ts <= e for b, e, _ in slices.get(track, [])):
                raise Invalid("traceEvents[%d]: the flow's finish is in no slice of its track" % i)
    return len(doc["traceEvents"]), names, len(slices), len(flows)


def main():
    path = [a for a in sys.argv[1:] if not a.startswith("--")][0]
    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        n, names, tracks, flows = check(doc)
    except (Invalid, ValueError) as e:
        print("invalid: %s" % e)
        return 1
    processes = sum(1 for k in names if k[0] == "process")
    print("valid: %d events, %d processes, %d tracks, %d flows" % (n, processes, tracks, flows))
    if "--summary" in sys.argv:
        for k in sorted(names, key=str):
            print("%s %s" % (k[0], names[k]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
