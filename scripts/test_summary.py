#!/usr/bin/env python3
# ===- scripts/test_summary.py - what a test stage passed, failed, skipped --===#
#
# scripts/test.sh calls `stage` after each stage's tests, whether they
# passed or not, and `print` when it exits, however it exits, so that the
# last lines of the test command say, for every stage, how many tests
# passed, failed and were skipped, and why each was skipped. `stage` reads
# what the runners left:
#
#   --ctest FILE   ctest's JUnit file (--output-junit): a test whose exit
#                  status is its SKIP_RETURN_CODE is skipped, its reason the
#                  last line of its output that says SKIP;
#   --lit FILE     lit's results (-o, lit-tests/CMakeLists.txt): the suite is
#                  one ctest test ("lit"), so its tests are counted from
#                  here, one by one, UNSUPPORTED as skipped with lit's reason
#                  (the features a test requires and this machine lacks);
#   --fuzz FILE    scripts/fuzz.sh's results: "<target> passed|failed" lines;
#   --sanitizer-logs DIR  a stage's sanitizer reports: any file there fails
#                  the stage even if every test passed.
#
# A file that should be there and is not (a runner killed before it wrote
# it) is a failure, never an empty pass.
#
#   test_summary.py stage STAGE [--ctest F] [--lit F] [--fuzz F] [--sanitizer-logs D]
#       prints the stage's lines (appended by test.sh to its summary file)
#   test_summary.py print SUMMARY_FILE "STAGES" STATUS SECONDS
#       prints the summary file, a line for each stage of test.sh that did
#       not record one (not chosen, or not reached), and the verdict
#
# Exits 0.
#
# ===----------------------------------------------------------------------===#
import argparse
import json
import os
import sys
import xml.etree.ElementTree as ET

# lit's result codes (lit/Test.py): what each counts as.
LIT_PASSED = {"PASS", "FLAKYPASS", "XFAIL"}
LIT_SKIPPED = {"UNSUPPORTED", "SKIPPED", "EXCLUDED"}
# Reasons shared by more tests than this are printed once, with a count.
LIST_AT_MOST = 3


class Tally:
    def __init__(self, what):
        self.what = what
        self.passed = 0
        self.failed = []   # (name, why)
        self.skipped = []  # (name, why)
        self.missing = None

    def line(self):
        if self.missing:
            return "%s: no results (%s)" % (self.what, self.missing)
        return "%s: %d passed, %d failed, %d skipped" % (
            self.what, self.passed, len(self.failed), len(self.skipped))


def skip_reason(output):
    """The last line of a skipped test's output that says why."""
    lines = [l.strip() for l in (output or "").splitlines() if l.strip()]
    for l in reversed(lines):
        if "SKIP" in l or "skip" in l:
            return l
    return lines[-1] if lines else "(the test printed no reason)"


def read_results(t, path, parse, why_missing="was not written"):
    """parse(text) of the file at path, or None with t.missing saying why."""
    if not os.path.exists(path):
        t.missing = "%s %s" % (path, why_missing)
        return None
    try:
        with open(path, errors="replace") as f:
            return parse(f.read())
    except (OSError, ValueError, ET.ParseError) as e:
        t.missing = "%s: %s" % (path, e)
        return None


def read_ctest(path, lit_counted):
    t = Tally("ctest")
    root = read_results(t, path, ET.fromstring)
    if root is None:
        return t
    for case in root.iter("testcase"):
        name = case.get("name", "?")
        if name == "lit" and lit_counted:
            continue  # counted test by test from lit's own results
        status = case.get("status", "")
        out = case.findtext("system-out") or ""
        skipped = case.find("skipped")
        failure = case.find("failure")
        if status == "run" and failure is None:
            t.passed += 1
        elif status == "disabled":
            t.skipped.append((name, "disabled (ctest DISABLED property)"))
        elif status == "notrun" and skipped is not None and \
                skipped.get("message", "").startswith("SKIP_"):
            t.skipped.append((name, skip_reason(out)))
        else:
            why = failure.get("message") if failure is not None else None
            if not why and skipped is not None:
                why = skipped.get("message")
            t.failed.append((name, why or status or "failed"))
    return t


def read_lit(path):
    t = Tally("lit")
    data = read_results(t, path, json.loads, "was not written: lit did not finish")
    if data is None:
        return t
    for test in data.get("tests", []):
        name = test.get("name", "?").split(" :: ", 1)[-1]
        code = test.get("code", "")
        if code in LIT_PASSED:
            t.passed += 1
        elif code in LIT_SKIPPED:
            why = (test.get("output") or "").strip().splitlines()
            t.skipped.append((name, why[0] if why else code.lower()))
        else:
            t.failed.append((name, code))
    return t


def read_fuzz(path):
    t = Tally("fuzz targets")
    lines = read_results(t, path, str.splitlines)
    if lines is None:
        return t
    for line in lines:
        parts = line.split()
        if len(parts) != 2:
            continue
        if parts[1] == "passed":
            t.passed += 1
        else:
            t.failed.append(("fuzz_" + parts[0], "see its log in fuzz-work/"))
    if not t.passed and not t.failed:
        t.missing = "%s lists no target" % path
    return t


def grouped(items):
    """(name, why) pairs as lines, one per reason; long groups counted."""
    by_why = {}
    for name, why in items:
        by_why.setdefault(why, []).append(name)
    out = []
    for why, names in by_why.items():
        if len(names) <= LIST_AT_MOST:
            out += ["%s: %s" % (n, why) for n in names]
        else:
            out.append("%d tests (%s, ...): %s" % (len(names), ", ".join(names[:LIST_AT_MOST]), why))
    return out


def stage(a):
    tallies = []
    lit = read_lit(a.lit) if a.lit else None
    if a.ctest:
        tallies.append(read_ctest(a.ctest, lit is not None and not lit.missing))
    if lit:
        tallies.append(lit)
    if a.fuzz:
        tallies.append(read_fuzz(a.fuzz))

    passed = sum(t.passed for t in tallies)
    failed = sum(len(t.failed) for t in tallies) + sum(1 for t in tallies if t.missing)
    skipped = sum(len(t.skipped) for t in tallies)
    reports = []
    if a.sanitizer_logs and os.path.isdir(a.sanitizer_logs):
        reports = sorted(os.listdir(a.sanitizer_logs))
        failed += len(reports)
    print("%s: %s: %d passed, %d failed, %d skipped (%s)" % (
        a.stage, "FAILED" if failed else "passed", passed, failed, skipped,
        "; ".join(t.line() for t in tallies)))
    for t in tallies:
        for l in grouped(t.failed):
            print("  failed: %s %s" % (t.what, l))
    if reports:
        print("  failed: %d sanitizer report(s) in %s (%s)" % (
            len(reports), a.sanitizer_logs, ", ".join(reports[:LIST_AT_MOST])))
    for t in tallies:
        for l in grouped(t.skipped):
            print("  skipped: %s %s" % (t.what, l))
    return 0


# test.sh's stages, in its order.
STAGES = ["normal", "asan", "fuzz", "tsan"]


def print_summary(a):
    chosen = a.stages.split()
    status = int(a.status)
    by_stage = {}
    current = None
    if os.path.exists(a.file):
        with open(a.file) as f:
            for l in f.read().splitlines():
                if l and not l.startswith(" "):
                    current = l.split(":", 1)[0]
                by_stage.setdefault(current, []).append(l)
    print("ompdp: test summary (OMPDP_TEST_STAGES: %s)" % " ".join(chosen))
    for s in STAGES + [c for c in chosen if c not in STAGES]:
        if s in by_stage:
            out = by_stage[s]
        elif s not in chosen:
            out = ["%s: not run (not in OMPDP_TEST_STAGES)" % s]
        elif s not in STAGES:
            out = ["%s: not run (test.sh has no such stage)" % s]
        elif status:
            out = ["%s: not run, or stopped before its tests: the script failed first "
                   "(exit status %d, in its build or an earlier stage)" % (s, status)]
        else:
            out = ["%s: not run" % s]
        for l in out:
            print("ompdp: " + l)
    if status:
        print("ompdp: FAILED (exit status %d) after %s s" % (status, a.seconds))
    else:
        print("ompdp: all stages passed in %s s" % a.seconds)
    return 0


def main():
    ap = argparse.ArgumentParser(description="test stages' passed/failed/skipped counts")
    sub = ap.add_subparsers(dest="cmd", required=True)
    st = sub.add_parser("stage", help="one stage's counts, from its runners' result files")
    st.add_argument("stage")
    st.add_argument("--ctest")
    st.add_argument("--lit")
    st.add_argument("--fuzz")
    st.add_argument("--sanitizer-logs")
    pr = sub.add_parser("print", help="the summary of every stage, at test.sh's end")
    pr.add_argument("file")
    pr.add_argument("stages")
    pr.add_argument("status")
    pr.add_argument("seconds")
    a = ap.parse_args()
    return stage(a) if a.cmd == "stage" else print_summary(a)


if __name__ == "__main__":
    sys.exit(main())
