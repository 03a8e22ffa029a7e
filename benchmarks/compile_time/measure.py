#!/usr/bin/env python3
#===- measure.py - time a compile with and without the ompdp plugin ------===#
#
# measure.py <clang> <ompdp.cfg> <source.c> <repetitions>
# Alternates plain and plugin compiles of the source (offload to the host,
# -c) at -O0 and -O2 and prints, per level, the best CPU time (user+sys of
# the compiler and all its children, from wait4) and the best wall time of
# each, and the plugin's overhead in percent.
#
#===----------------------------------------------------------------------===#
import os
import subprocess
import sys
import tempfile
import time


def run(cmd):
    """CPU seconds (children's user+sys) and wall seconds of cmd."""
    start = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("ompdp: compile failed: " + " ".join(cmd))
    return usage.ru_utime + usage.ru_stime, wall


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: measure.py <clang> <ompdp.cfg> <source.c> <repetitions>")
    cc, cfg, src, reps = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    offload = ["-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu"]
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "x.o")
        for opt in ("-O0", "-O2"):
            plain_cmd = [cc] + offload + [opt, "-c", src, "-o", obj]
            plug_cmd = [cc, "--config=" + cfg] + offload + [opt, "-c", src, "-o", obj]
            best = {"plain": [1e9, 1e9], "plugin": [1e9, 1e9]}
            for _ in range(reps):
                for name, cmd in (("plain", plain_cmd), ("plugin", plug_cmd)):
                    cpu, wall = run(cmd)
                    best[name][0] = min(best[name][0], cpu)
                    best[name][1] = min(best[name][1], wall)
            (pc, pw), (gc, gw) = best["plain"], best["plugin"]
            print("%s cpu: plain %.2fs plugin %.2fs overhead %+.1f%%   "
                  "wall: plain %.2fs plugin %.2fs overhead %+.1f%%"
                  % (opt, pc, gc, (gc - pc) * 100 / pc, pw, gw, (gw - pw) * 100 / pw))


if __name__ == "__main__":
    main()
