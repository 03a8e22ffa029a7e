#!/usr/bin/env python3
# ===- leftovers.py - run directories that kills leave, for leftovers.test -===#
#
# leftovers.py SHM OUT: in SHM (the test's $OMPDP_RUN_DIR), the directories
# that a kill of their remover or of a starting ompdp run leaves; a run file
# in them names OUT/report.json as the report's -o.
# ===------------------------------------------------------------------------===#
import os
import sys
import time

shm, out = sys.argv[1], sys.argv[2]
old = time.time() - 60


def make(name, files, age=None):
    d = os.path.join(shm, name)
    os.mkdir(d)
    for f, text in files.items():
        with open(os.path.join(d, f), "w") as h:
            h.write(text)
    if age:
        os.utime(d, (age, age))


run = ("ompdp-run 1\ndriver_pid 999999\nprogram_pid 999998\nformat json\n"
       "output " + os.path.join(out, "report.json") + "\nprogram ./prog\n")
# Renamed by a remover that was killed: a whole run file, a finished report
# and an event log; young.
make("ompdp.dying1-gone", {"run": run, "final.999998.0": "{}\n", "events.999998": "x" * 4096})
# Renamed, only a run file left; and an empty one.
make("ompdp.dying2-gone", {"run": run})
make("ompdp.dying3-gone", {})
# Stillborn: empty, and an unlocked run file that cannot be read, both old.
make("ompdp.empty1", {}, old)
make("ompdp.half1", {"run": "ompdp-r"}, old)
# Negatives: a young empty one (a starting ompdp run's), and an old one
# with an unreadable run file beside a report.
make("ompdp.fresh1", {})
make("ompdp.other1", {"run": "", "report.5.json": "{}\n"}, old)
