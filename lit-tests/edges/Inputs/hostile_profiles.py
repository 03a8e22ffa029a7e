#!/usr/bin/env python3
# ===- hostile_profiles.py - the plugin given profiles nobody should give ---===#
#
# usage: hostile_profiles.py PROFILE.json OUTDIR SOURCE -- CLANG-COMMAND...
#
# From a real profile (a JSON report of SOURCE's run), writes variants that
# are corrupt in the ways a stale, edited or malicious file could be: map
# item indices, ranges and edit offsets out of every bound, edits in other
# files, huge strings, thousands of findings, unknown region IDs, truncated
# text, an old version. Compiles SOURCE with each as
# -fplugin-arg-ompdp-profile=<variant> (CLANG-COMMAND, -fsyntax-only) and
# checks that clang ends with status 0 or 1, prints no crash and no LLVM
# fatal error, and that every error is ompdp's one-line kind. Prints one
# line per variant, then "N profiles, no crash"; exits 1 otherwise.
# ===----------------------------------------------------------------------===#
import copy
import json
import os
import subprocess
import sys

BAD_SIGNS = ("Stack dump", "PLEASE submit", "error in backend", "LLVM ERROR",
             "Sanitizer", "runtime error:")


def variants(report):
    def each_finding(fn):
        r = copy.deepcopy(report)
        for f in r["findings"]:
            fn(f)
        return r

    def each_edit(fn):
        def on_finding(f):
            for rw in f.get("rewrites") or []:
                for e in rw.get("edits") or []:
                    fn(e)
        return each_finding(on_finding)

    big = 2**31 - 1
    yield "item-huge", each_finding(lambda f: f.update(item=big))
    yield "item-negative", each_finding(lambda f: f.update(item=-7))
    yield "range-past-file", each_finding(lambda f: f.update(range={
        "line": 4294967295, "column": 4294967295, "end_line": 4294967295,
        "end_column": 4294967295, "offset": 10**15, "end_offset": 10**15 + 5}))
    yield "range-backwards", each_finding(lambda f: f.update(range={
        "line": 7, "column": 30, "end_line": 1, "end_column": 1, "offset": 200,
        "end_offset": 3}))
    yield "line-zero", each_finding(lambda f: f.update(line=0, column=0))
    yield "edit-past-file", each_edit(lambda e: e.update(
        line=100000, column=5, end_line=100000, end_column=9, offset=10**12, end_offset=10**12 + 4))
    yield "edit-backwards", each_edit(lambda e: e.update(
        line=6, column=9, end_line=6, end_column=1, offset=50, end_offset=10))
    yield "edit-other-file", each_edit(lambda e: e.update(file="/etc/passwd"))
    yield "edit-no-file", each_edit(lambda e: e.update(file=""))
    yield "edit-huge-text", each_edit(lambda e: e.update(
        original="for" * 100000, replacement="x" * (1 << 20)))
    yield "edit-stale-hash", each_edit(lambda e: e.update(file_hash="0000000000000000"))
    yield "variable-huge", each_finding(lambda f: f.update(
        variable="v" * (1 << 20), clause="map(\x1b[31m" + "c" * 1000 + ")"))
    yield "region-unknown", each_finding(lambda f: f.update(region_id="0123456789abcdef"))
    # The two IDs LLVM's DenseMap keeps for itself (this one crashed clang).
    yield "region-all-ones", each_finding(lambda f: f.update(region_id="ffffffffffffffff"))
    yield "region-tombstone", each_finding(lambda f: f.update(region_id="fffffffffffffffe"))
    r = copy.deepcopy(report)
    r["findings"] = r["findings"] * 1000
    yield "many-findings", r
    r = copy.deepcopy(report)
    r["ompdp_report_version"] = 1
    yield "old-version", r
    yield "truncated", json.dumps(report)[: len(json.dumps(report)) // 2]


def main():
    profile, outdir, source = sys.argv[1:4]
    assert sys.argv[4] == "--"
    clang = sys.argv[5:]
    with open(profile) as f:
        report = json.load(f)
    if not report.get("findings"):
        sys.exit("the profile has no findings to corrupt")
    os.makedirs(outdir, exist_ok=True)
    n = 0
    for name, variant in variants(report):
        path = os.path.join(outdir, name + ".json")
        with open(path, "w") as f:
            f.write(variant if isinstance(variant, str) else json.dumps(variant))
        p = subprocess.run(clang + ["-fplugin-arg-ompdp-profile=" + path, "-fsyntax-only",
                                    source], capture_output=True, text=True, errors="replace",
                           timeout=300)
        errors = [line for line in p.stderr.splitlines() if "error:" in line]
        bad = [s for s in BAD_SIGNS if s in p.stderr]
        if p.returncode not in (0, 1) or bad or any("error: ompdp: " not in e for e in errors):
            sys.stderr.write(p.stderr[-4000:])
            sys.exit("%s: clang ended with %d%s" % (name, p.returncode,
                                                      " (%s)" % ", ".join(bad) if bad else ""))
        print("%s: status %d, %d errors" % (name, p.returncode, len(errors)))
        n += 1
    print("%d profiles, no crash" % n)


if __name__ == "__main__":
    main()
