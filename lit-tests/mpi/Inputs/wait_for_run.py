#!/usr/bin/env python3
# ===- wait_for_run.py - wait until no process of an ompdp run dir is alive -===#
#
# wait_for_run.py DIR [SECONDS]: waits (30 s at most) until no process has
# DIR in its environment (OMPDP_RUN_DIR, OMPDP_OPTIONS): a program whose
# `ompdp run` mpirun killed may outlive it, and writes its own report when
# it ends. Prints "gone" or "still running: <pids>".
# ===------------------------------------------------------------------------===#
import glob
import sys
import time


def alive(d):
    pids = []
    for env in glob.glob("/proc/[0-9]*/environ"):
        try:
            with open(env, "rb") as f:
                if d.encode() in f.read():
                    pids.append(env.split("/")[2])
        except OSError:
            pass
    return pids


d = sys.argv[1]
limit = float(sys.argv[2]) if len(sys.argv) > 2 else 30.0
end = time.monotonic() + limit
while alive(d) and time.monotonic() < end:
    time.sleep(0.1)
left = alive(d)
print("still running: " + " ".join(left) if left else "gone")
