#!/usr/bin/env python3
#===- measure.py - time a compile with and without the ompdp plugin ------===#
#
# measure.py [--instructions] <clang> <ompdp.cfg> <source.c> <repetitions>
# Alternates plain and plugin compiles of the source (offload to the host,
# -c) at -O0 and -O2 and prints, per level, the best CPU time (user+sys of
# the compiler and all its children, from wait4) and the best wall time of
# each, and the plugin's overhead in percent. With --instructions it counts
# the instructions all processes of each compile execute instead (valgrind
# --tool=callgrind, once: the count does not depend on the machine's load,
# but takes about 50 times as long as the compile).
#
#===----------------------------------------------------------------------===#
import os
import re
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


def count(cmd):
    """Instructions executed by cmd and every process it starts."""
    proc = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
                           "--trace-children=yes"] + cmd, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit("ompdp: compile failed under valgrind: " + " ".join(cmd))
    counts = re.findall(r"Collected : ([0-9]+)", proc.stderr)
    if not counts:
        sys.exit("ompdp: valgrind reported no instruction counts")
    return sum(int(c) for c in counts)


def main():
    args = sys.argv[1:]
    instructions = bool(args) and args[0] == "--instructions"
    if instructions:
        args = args[1:]
    if len(args) != 4:
        sys.exit("usage: measure.py [--instructions] <clang> <ompdp.cfg> <source.c> <repetitions>")
    cc, cfg, src, reps = args[0], args[1], args[2], int(args[3])
    offload = ["-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu"]
    with tempfile.TemporaryDirectory() as tmp:
        obj = os.path.join(tmp, "x.o")
        for opt in ("-O0", "-O2"):
            plain_cmd = [cc] + offload + [opt, "-c", src, "-o", obj]
            plug_cmd = [cc, "--config=" + cfg] + offload + [opt, "-c", src, "-o", obj]
            if instructions:
                p, g = count(plain_cmd), count(plug_cmd)
                print("%s instructions: plain %d plugin %d overhead %+.1f%%"
                      % (opt, p, g, (g - p) * 100 / p))
                continue
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
