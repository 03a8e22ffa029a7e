#!/usr/bin/env python3
# ===- signal_run.py - start a command, signal it once it is ready ---------===#
#
# usage: signal_run.py PIDFILE SIGNAL WHOM -- COMMAND...
#
# Starts COMMAND (with SIGINT and SIGQUIT at their defaults: lit and shells
# may ignore them in background jobs), waits until the program under test
# has written its pid into PIDFILE, sends SIGNAL (TERM, INT, KILL...) to
# that program (WHOM=program) or to COMMAND itself (WHOM=command), and
# prints how COMMAND ended the way a shell does: "rc=N", 128+N for signal N.
# Everything is bounded in time: a test that goes wrong fails, never hangs.
# ===----------------------------------------------------------------------===#
import os
import signal
import subprocess
import sys
import time


def main():
    pidfile, signame, whom = sys.argv[1:4]
    assert sys.argv[4] == "--" and whom in ("program", "command")
    sig = getattr(signal, "SIG" + signame)

    def defaults():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)

    proc = subprocess.Popen(sys.argv[5:], preexec_fn=defaults)
    deadline = time.monotonic() + 60
    pid = None
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            with open(pidfile) as f:
                pid = int(f.read().strip())
            break
        except (OSError, ValueError):
            time.sleep(0.02)
    if pid is None:
        print("signal_run: the program never wrote its pid", file=sys.stderr)
        proc.kill()
        proc.wait()
        return 1
    os.kill(pid if whom == "program" else proc.pid, sig)
    try:
        rc = proc.wait(timeout=60)
    except subprocess.TimeoutExpired:
        print("signal_run: the command did not end", file=sys.stderr)
        proc.kill()
        proc.wait()
        return 1
    sys.stdout.flush()
    print("rc=%d" % (128 - rc if rc < 0 else rc), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
