#!/usr/bin/env python3
# ===- closed_pipe.py - run a command whose stderr reader has gone --------===#
#
# usage: closed_pipe.py COMMAND...
#
# Runs COMMAND with stderr a pipe whose read end is already closed (as after
# `prog 2>&1 | head -1` once head has exited), SIGPIPE at its default, and
# prints how it ended the way a shell does: "rc=N", 128+N for signal N.
# ===----------------------------------------------------------------------===#
import os
import subprocess
import sys

r, w = os.pipe()
os.close(r)
rc = subprocess.call(sys.argv[1:], stderr=w, restore_signals=True)
print("rc=%d" % (128 - rc if rc < 0 else rc), flush=True)
