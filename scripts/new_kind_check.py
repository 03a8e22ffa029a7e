#!/usr/bin/env python3
# ===- new_kind_check.py - a new finding kind is three places, no more ----===#
#
# docs/architecture.md says that a new finding kind (a new kind of waste)
# touches three places: its rows in include/ompdp/OmpdpFormat.inc, its
# analysis/detect_<name>.c, and its line in analysis/detections.c. This
# checks it on a copy of the source tree:
#
#   1. copies the tree (the files git tracks and the untracked ones it does
#      not ignore) into a scratch directory;
#   2. adds a kind, "dummy_waste", in exactly those three places, builds
#      everything a kind reaches (the driver, the runtime, the compiler
#      plugin's objects that read kinds, the unit test of the table) with
#      -Werror=switch (CMakeLists.txt), runs that unit test, and renders a
#      report holding one such finding as text and SARIF;
#   3. takes each place out again in turn (and a row of the format's second
#      table alone) and checks that the build then fails.
#
# So a switch with no case for the kind, a table indexed by kind, a usage
# of the kind anywhere else fails step 2, and a place the doc names that is
# not needed fails step 3. Built at -O0 without debug information, only the
# targets named: a few minutes on two cores (ctest arch/new-kind). Python 3
# standard library only.
#
# ===----------------------------------------------------------------------===#

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

INC = "include/ompdp/OmpdpFormat.inc"
DETECTIONS = "analysis/detections.c"
DETECT = "analysis/detect_dummy.c"

# The new kind's rows, one per table of OmpdpFormat.inc that is keyed by
# finding kind, each added before the table's #undef.
ROWS = {
    "OMPDP_FINDING_KIND": 'OMPDP_FINDING_KIND(DUMMY_WASTE, "dummy_waste", "dummy_wastes", H2D,\n'
                          '                   "Dummy wastes", "a kind that only new_kind_check.py adds")\n',
    "OMPDP_FINDING_RULE": 'OMPDP_FINDING_RULE(DUMMY_WASTE, "DummyWaste", "ompdp-dummy-waste",\n'
                          '                   "Nothing to fix: the kind exists only in this test.")\n',
    "OMPDP_FINDING_TEXT": 'OMPDP_FINDING_TEXT(DUMMY_WASTE, "dummy waste", " is a dummy, ",\n'
                          '                   "dummy operation", "dummy operations", "related to",\n'
                          '                   "related operation")\n',
}

DETECT_SOURCE = r'''/*===- detect_dummy.c - a detection that finds nothing --------------*- C -*-===*\
|*
|* Added by scripts/new_kind_check.py to a copy of the tree: the least a
|* detection of a new kind is.
|*
\*===----------------------------------------------------------------------===*/
#include "detect.h"

#include <stdlib.h>

static void *dummy_create(const ompdp_engine_config_t *cfg) { return calloc(1, 1); }
static void dummy_destroy(void *d) { free(d); }
static size_t dummy_memory(const void *d) { return 1; }
static char *dummy_text(const ompdp_finding_t *f, const ompdp_region_info_t *item,
                        const ompdp_region_info_t *related, uint32_t rule,
                        const char *devices) {
  return ompdp_strdup("nothing to fix");
}

const ompdp_detection_t ompdp_detect_dummy = {
    .name = "dummy wastes",
    .kinds = {{.kind = OMPDP_FK_DUMMY_WASTE, .aux = OMPDP_AUX_NONE, .rewrite = OMPDP_RR_NONE}},
    .num_kinds = 1,
    .create = dummy_create,
    .memory = dummy_memory,
    .destroy = dummy_destroy,
    .text = dummy_text,
};
'''

DETECTION_LINE = "  D(dummy) K(dummy, DUMMY_WASTE)"

# A report (JSON, version 2) with one finding of the new kind.
REPORT = """{"ompdp_report_version": 2,
 "program": {"argv": ["./dummy"], "exit_status": 0, "wall_time_ns": 1000000},
 "summary": {"dummy_wastes": 3, "time_saved_ns": 3000},
 "findings": [
  {"kind": "dummy_waste", "count": 3, "bytes": 3072, "time_ns": 3000, "time_saved_ns": 3000,
   "devices": [0], "file": "dummy.c", "line": 7, "column": 1, "function": "main",
   "suggestion": "nothing to fix"}]}
"""


def log(msg):
    print(msg, flush=True)


def source_files(src):
    """The files git tracks and the untracked ones it does not ignore; out of
    a git checkout, every file but build directories and lit's Output."""
    r = subprocess.run(["git", "-C", src, "ls-files", "-z", "--cached", "--others",
                        "--exclude-standard"], capture_output=True)
    if r.returncode == 0:
        return sorted(set(p for p in r.stdout.decode().split("\0") if p))
    files = []
    for root, dirs, names in os.walk(src):
        rel_root = os.path.relpath(root, src)
        dirs[:] = [d for d in dirs if d not in (".git", "Output", "node_modules") and
                   not (rel_root == "." and d.startswith("build"))]
        files += [os.path.normpath(os.path.join(rel_root, n)) for n in names]
    return sorted(files)


def copy_tree(src, dst):
    for rel in source_files(src):
        s = os.path.join(src, rel)
        if not os.path.isfile(s):
            continue  # a file deleted in the working tree, or a submodule
        d = os.path.join(dst, rel)
        os.makedirs(os.path.dirname(d), exist_ok=True)
        shutil.copy2(s, d)


def add_rows(text, rows):
    for macro, row in rows.items():
        marker = "#undef %s\n" % macro
        if text.count(marker) != 1:
            raise SystemExit("new_kind_check: %s has no single '%s'" % (INC, marker.strip()))
        text = text.replace(marker, row + marker)
    return text


def add_detection(text):
    start = text.find("#define OMPDP_DETECTIONS(D, K)")
    if start < 0:
        raise SystemExit("new_kind_check: %s has no OMPDP_DETECTIONS list" % DETECTIONS)
    end = start
    while True:  # the list's last line is the first without a continuation
        nl = text.index("\n", end)
        if not text[end:nl].rstrip().endswith("\\"):
            break
        end = nl + 1
    return text[:nl] + " \\\n" + DETECTION_LINE + text[nl:]


class Tree:
    def __init__(self, root):
        self.root = root
        self.saved = {}

    def path(self, rel):
        return os.path.join(self.root, rel)

    def read(self, rel):
        with open(self.path(rel)) as f:
            return f.read()

    def write(self, rel, text):
        with open(self.path(rel), "w") as f:
            f.write(text)


def build(build_dir, targets, jobs, logfile):
    """cmake --build for targets (make's own names for object files); True
    when it succeeds. Output goes to logfile; the first error line is
    printed."""
    ok = True
    start = os.path.getsize(logfile)
    with open(logfile, "a") as lf:
        for t in targets:
            cmd = ["make", "-C", build_dir, "-j%d" % jobs, t]
            lf.write("\n$ %s\n" % " ".join(cmd))
            lf.flush()
            r = subprocess.run(cmd, stdout=lf, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                ok = False
                break
    if not ok:
        with open(logfile) as lf:
            lf.seek(start)
            lines = lf.read().splitlines()
        errs = [l for l in lines if "undefined reference" in l] + \
               [l for l in lines if "error" in l and "Error " not in l and "***" not in l]
        log("    first error: " + (errs[0].strip() if errs else "(see %s)" % logfile))
    return ok


def main():
    ap = argparse.ArgumentParser(description="a new finding kind, on a copy of the tree, "
                                 "builds in three places and in no fewer")
    ap.add_argument("--source", default=REPO, help="the source tree (default: this checkout)")
    ap.add_argument("--work", help="scratch directory (default: a new temporary one); "
                                   "removed at the end unless --keep")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()

    started = time.time()
    work = a.work or tempfile.mkdtemp(prefix="ompdp-new-kind-")
    src, bld = os.path.join(work, "src"), os.path.join(work, "build")
    logfile = os.path.join(work, "build.log")
    shutil.rmtree(src, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    open(logfile, "w").close()
    failures = []
    try:
        copy_tree(a.source, src)
        t = Tree(src)
        inc0, det0 = t.read(INC), t.read(DETECTIONS)
        if os.path.exists(t.path(DETECT)):
            raise SystemExit("new_kind_check: %s exists already" % DETECT)
        inc1, det1 = add_rows(inc0, ROWS), add_detection(det0)
        t.write(INC, inc1)
        t.write(DETECTIONS, det1)
        t.write(DETECT, DETECT_SOURCE)

        log("new_kind_check: configuring %s" % bld)
        with open(logfile, "a") as lf:
            r = subprocess.run(["cmake", "-S", src, "-B", bld, "-G", "Unix Makefiles",
                                "-DCMAKE_BUILD_TYPE=", "-DCMAKE_C_FLAGS=-O0",
                                "-DCMAKE_CXX_FLAGS=-O0",
                                # Two of the plugin's objects: precompiling
                                # Clang's headers for them costs more than
                                # it saves.
                                "-DOMPDP_PLUGIN_PCH=OFF"], stdout=lf, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            raise SystemExit("new_kind_check: cmake failed (%s)" % logfile)
        have_plugin = "clang-plugin/ProfileDiagnostics.o" in subprocess.run(
            ["make", "-C", bld, "help"], capture_output=True, text=True).stdout
        targets = ["ompdp", "ompdp-rt", "test_detections"]
        if have_plugin:
            targets += ["clang-plugin/ProfileDiagnostics.o", "clang-plugin/PluginArgs.o"]

        # 1. The three places: it builds, and the kind is complete.
        log("new_kind_check: a kind in the three places: building %s" % " ".join(targets))
        if not build(bld, targets, a.jobs, logfile):
            failures.append("the tree with the new kind does not build")
        else:
            r = subprocess.run([os.path.join(bld, "unittests", "test_detections")],
                               capture_output=True, text=True)
            if r.returncode != 0:
                failures.append("test_detections fails with the new kind:\n" + r.stderr)
            rep = os.path.join(work, "dummy.json")
            with open(rep, "w") as f:
                f.write(REPORT)
            ompdp = os.path.join(bld, "bin", "ompdp")
            for fmt, want in (("text", "Dummy wastes: a kind that only new_kind_check.py adds"),
                              ("sarif", '"name": "DummyWaste"')):
                r = subprocess.run([ompdp, "report", "--format=" + fmt, rep],
                                   capture_output=True, text=True)
                if r.returncode != 0 or want not in r.stdout:
                    failures.append("ompdp report --format=%s does not show the new kind "
                                    "(status %d): %s" % (fmt, r.returncode, r.stderr.strip()))
            if not failures:
                log("  ok: it builds, test_detections passes, text and SARIF show it")

        # 2. Each place left out: the build fails.
        variants = [
            ("its line in %s" % DETECTIONS, {DETECTIONS: det0}, False, ["ompdp-analysis"]),
            (DETECT, {}, True, ["test_detections"]),
            ("its rows in %s" % INC, {INC: inc0}, False, ["ompdp-analysis"]),
            ("its OMPDP_FINDING_RULE row alone",
             {INC: add_rows(inc0, {k: v for k, v in ROWS.items() if k != "OMPDP_FINDING_RULE"})},
             False, ["ompdp-report"]),
        ]
        for what, files, drop_detect, tgts in variants:
            log("new_kind_check: without %s: building %s" % (what, " ".join(tgts)))
            for rel, text in files.items():
                t.write(rel, text)
            if drop_detect:
                os.remove(t.path(DETECT))
            if build(bld, tgts, a.jobs, logfile):
                failures.append("the build passes without " + what)
            else:
                log("  ok: the build fails")
            t.write(INC, inc1)
            t.write(DETECTIONS, det1)
            t.write(DETECT, DETECT_SOURCE)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)

    for f in failures:
        log("new_kind_check: FAIL: " + f)
    log("new_kind_check: %s in %.0f s%s" % ("FAIL" if failures else "PASS",
                                            time.time() - started,
                                            " (work: %s)" % work if a.keep else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
