#!/usr/bin/env python3
# ===- alternate.py - whole commands, alternated: what one costs over another -===#
#
# compare.py runs one program several ways; some questions are about whole
# commands instead: what `ompdp --version` costs over a tiny program's start,
# `ompdp run -- /bin/true` over a process that only starts /bin/true and waits
# (benchmarks/floortool/spawnwait.c), one build's `ompdp run` over another's.
# Differences of a tenth of a millisecond need hundreds of rounds on a VM
# whose every run varies by more than that: this runs the commands one after
# the other in each round (the order flipping from round to round), each
# started with posix_spawn (no shell), its output to /dev/null and its stderr
# to a file, and prints for each command the median wall time and, against
# the first command, the median of the per-round differences with the middle
# half of the rounds (the noise), in wall time and in CPU time (user + system
# of the process and the children it waited for). A program that prints the
# benchmarks' end-of-main mark (`ompdp-bench-end <CLOCK_MONOTONIC ns>` on
# stderr, bench.h) has its difference split at the end of main: before it
# (start-up and the program's events), after it (analysis, report, exit).
#
#   python3 benchmarks/alternate.py [--rounds N] COMMAND [COMMAND ...]
#
# COMMAND is one argument, split as a shell would (shlex) but run without
# one; leading VAR=VALUE words set its environment. Two untimed rounds come
# first (page cache, loader). A command that exits non-zero is an error.
#
# Example: python3 benchmarks/alternate.py --rounds 400 /bin/true
#              "build/bin/ompdp --version"
#
# Python 3 standard library only.
# ===----------------------------------------------------------------------===#

import argparse
import os
import shlex
import statistics
import sys
import tempfile
import time

END_MARK = "ompdp-bench-end "
WARMUP = 2


def die(msg):
    print(f"alternate.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def parse(cmd):
    words = shlex.split(cmd)
    env = dict(os.environ)
    while words and "=" in words[0] and not words[0].startswith(("/", ".")):
        var, _, val = words.pop(0).partition("=")
        if not var.replace("_", "").isalnum():
            die(f"'{var}' is no environment variable name: {cmd}")
        env[var] = val
    if not words:
        die(f"no program in '{cmd}'")
    return words, env


def middle(d):
    """Median of the per-round differences and the middle half of them."""
    d = sorted(d)
    q = len(d) // 4
    return statistics.median(d), d[q], d[-q - 1]


def main():
    ap = argparse.ArgumentParser(
        description="Whole commands run alternated: median wall time and "
        "the per-round difference to the first, with its noise.")
    ap.add_argument("--rounds", type=int, default=100,
                    help="timed rounds (default 100)")
    ap.add_argument("command", nargs="+",
                    help="a command, one argument (VAR=VALUE words first)")
    a = ap.parse_args()
    if a.rounds < 2:
        die("--rounds must be at least 2")
    cmds = [parse(c) for c in a.command]
    for argv, _ in cmds:
        if "/" not in argv[0]:
            die(f"'{argv[0]}': give the program's path (no PATH search)")
        if not os.access(argv[0], os.X_OK):
            die(f"'{argv[0]}' is not an executable")
    null = os.open(os.devnull, os.O_WRONLY)
    fd, errpath = tempfile.mkstemp(prefix="ompdp-alternate-")
    os.close(fd)
    wall = [[] for _ in cmds]
    cpu = [[] for _ in cmds]
    before = [[] for _ in cmds]
    after = [[] for _ in cmds]
    try:
        for r in range(WARMUP + a.rounds):
            order = list(range(len(cmds)))
            if r % 2:
                order.reverse()
            for i in order:
                argv, env = cmds[i]
                err = os.open(errpath, os.O_WRONLY | os.O_TRUNC)
                t0 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
                pid = os.posix_spawn(argv[0], argv, env, file_actions=[
                    (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, err, 2)])
                _, status, ru = os.wait4(pid, 0)
                t1 = time.clock_gettime_ns(time.CLOCK_MONOTONIC)
                os.close(err)
                code = os.waitstatus_to_exitcode(status)
                if code != 0:
                    with open(errpath, errors="replace") as f:
                        last = (f.read().strip().splitlines() or [""])[-1]
                    die(f"'{a.command[i]}' exited with {code}: {last[:200]}")
                if r < WARMUP:
                    continue
                mark = None
                with open(errpath, errors="replace") as f:
                    for line in f:
                        if line.startswith(END_MARK):
                            mark = int(line[len(END_MARK):])
                wall[i].append((t1 - t0) / 1e6)
                cpu[i].append((ru.ru_utime + ru.ru_stime) * 1e3)
                before[i].append((mark - t0) / 1e6 if mark else None)
                after[i].append((t1 - mark) / 1e6 if mark else None)
    finally:
        os.unlink(errpath)
    split = all(x is not None for v in before for x in v)
    head = ["command", "wall ms (median)", "- first, ms (middle half)",
            "CPU - first, ms (middle half)"]
    if split:
        head += ["to the end of main - first, ms", "after main - first, ms"]
    print(f"{a.rounds} alternated rounds")
    print("| " + " | ".join(head) + " |")
    print("|---|" + "---:|" * (len(head) - 1))

    def fmt(v, ref):
        m, lo, hi = middle([x - y for x, y in zip(v, ref)])
        return f"{m:+.3f} ({lo:+.3f}..{hi:+.3f})"
    for i, c in enumerate(a.command):
        row = [c.replace("|", "\\|"), f"{statistics.median(wall[i]):.3f}",
               fmt(wall[i], wall[0]), fmt(cpu[i], cpu[0])]
        if split:
            row += [fmt(before[i], before[0]), fmt(after[i], after[0])]
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
