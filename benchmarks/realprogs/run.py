#!/usr/bin/env python3
# ===- run.py - ompdp on real programs (HeCBench's OpenMP offload ports) ----===#
#
# For each src/*-omp program of a HeCBench checkout (or the ones named):
#   1. copies the program's folder, and the sibling folders its Makefile
#      refers to (../X-cuda), into a scratch tree under the build directory
#      (HeCBench's code never enters the repository);
#   2. builds it by driving its Makefile with CC set to a wrapper that turns
#      icpx's flags into clang++-19 ones for offload to the host with the
#      ompdp plugin (falling back to compiling the sources directly);
#   3. runs it with small arguments, plain, then under
#      `ompdp run --format=json -o before.json`; every run with
#      uninitialised memory made the same (RUN_ENV: libomptarget's device
#      memory cache off, glibc's MALLOC_PERTURB_ on), and a second plain run
#      with another perturbation tells whether the output depends on it;
#   4. applies `ompdp fix --apply before.json` to a fresh copy, rebuilds,
#      reruns under ompdp (after.json) and compares: does it build, is the
#      output the same (timings masked), the exit status, the files it
#      writes, and did the transfers and allocations drop as predicted;
#   5. writes a table per program as markdown and JSON.
# See benchmarks/realprogs/README.md. Python 3 standard library only.
#
# ===----------------------------------------------------------------------===#

import argparse
import datetime
import difflib
import fnmatch
import hashlib
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
LLVM_LIB = "/usr/lib/llvm-19/lib"
CXX = "clang++-19"
OFFLOAD = ["-fopenmp", "-fopenmp-targets=x86_64-pc-linux-gnu"]
# Every run of a program: memory that nobody initialised reads the same in
# each. Programs that read device memory their kernels did not write (on
# host offload a kernel may get one thread where it asked for 256, and
# compute nothing) would otherwise print whatever an earlier allocation left
# there, and a rewrite that changes the order of allocations would change
# their output. libomptarget's cache of freed device blocks is turned off,
# so that each device allocation is a malloc that MALLOC_PERTURB_ fills.
RUN_ENV = {"LIBOMPTARGET_MEMORY_MANAGER_THRESHOLD": "0", "MALLOC_PERTURB_": "165"}
PERTURB_AGAIN = "90"  # the second plain run's: does the output depend on it?
# The exit status when there is nothing to check (no HeCBench checkout, none
# of the quick programs in it): ctest's SKIP_RETURN_CODE for realprogs/quick
# (CMakeLists.txt), so that ctest shows it skipped instead of passed.
SKIP_STATUS = 77

# ---------------------------------------------------------------------------
# Per-program settings. Keys (all optional):
#   args      the command line arguments (a list): small enough for a run of
#             a few seconds on host offload (HeCBench's are sized for a GPU)
#   exe       the program to run, relative to its folder (default: from the
#             Makefile's `run` target, `make -n run`)
#   target    the make target to build (default: the Makefile's first)
#   direct    the sources to compile directly when make fails (default:
#             every C/C++ source of the folder); direct_flags: their flags
#   make      extra make variables, e.g. {"OPTIMIZE": "no"}
#   cflags    compiler flags added after the Makefile's (e.g. -D to shrink a
#             problem size that the source leaves to a macro)
#   setup     shell commands run in the program's folder before each run
#   timeout   seconds for one run (default --timeout)
#   mask      extra regular expressions: numbers on matching lines are masked
#   drop      regular expressions: matching lines are left out of the
#             comparison altogether (e.g. lines that print a random seed)
#   files     glob patterns (relative to the folder) of the output files to
#             compare; default every file the run creates or changes
#   no_files  True: do not compare output files (e.g. they hold timings)
#   env       extra environment variables for the runs
#   siblings  more sibling folders to copy (the Makefile's ../X are copied anyway)
#   inputs    the name of a generator (INPUTS) of the input files that
#             HeCBench keeps outside its repository (DVC, other folders)
#   why       why it does not run here, or runs too long, as found out
#   skip      a reason not to try the program at all
# ---------------------------------------------------------------------------
PROGRAMS = {
    "aidw": {"args": ["2", "1", "5"]},
    "ans": {"args": ["1"], "timeout": 30,
            "why": "its decoder spins on flags that other blocks set: on host offload the "
                   "blocks do not run at the same time"},
    # Its atomicDec check fails on host offload (plain too), printing a
    # value that changes from run to run.
    "atomicIntrinsics": {"args": ["16", "2"], "mask": [r"atomicDec failed"]},
    # Its `k` answers are copied back from device memory that the kernel
    # leaves unwritten on host offload (2 threads per team find few keys):
    # output.txt changes whenever the allocations before it change.
    "b+tree": {"args": ["file", "mil.txt", "command", "command.txt"], "inputs": "btree"},
    "bsearch": {"args": ["16384", "3"]},
    "cfd": {"args": ["mesh.domn"], "inputs": "cfd"},
    "chacha20": {"args": ["2"]},
    "che": {"args": ["2"], "setup": ["mkdir -p out"]},
    "columnarSolver": {"why": "its bigram file (../columnarSolver-cuda/data) is kept in DVC, "
                              "not in the checkout"},
    "conversion": {"args": ["65536", "2"]},
    "damage": {"args": ["100000", "3"]},
    "deredundancy": {"args": ["i", "reads.fasta"], "inputs": "fasta"},
    "dslash": {"args": ["256"], "cflags": ["-DLDIM=8", "-DITERATIONS=3"]},
    "eigenvalue": {"args": ["256", "3"]},
    "extrema": {"args": ["1"], "timeout": 90},  # fixed sizes: about 30 s
    "f16sp": {"args": ["1"], "timeout": 30,
              "why": "fixed size: 1000 warm-up launches of 2^27 threads"},
    "feynman-kac": {"args": ["1"], "timeout": 30,
                    "why": "fixed size: 32k points x 1000 random walks"},
    "fpdc": {"args": ["32", "4", "2", "2"],
             "why": "its compressor indexes by thread number and expects 32 threads per warp "
                    "in a team; host offload gives 2, the offsets come out wrong (assertion)"},
    "frna": {"args": ["../frna-cuda/RD0260.seq", "rd0260.out"],
             "why": "reads its parameter tables from $DATAPATH, which are not in the checkout"},
    "fwt": {"args": ["3"]},
    "ga": {"args": ["100000", "100", "11", "1"]},
    "glu": {"args": ["3", "64", "2"]},
    "gmm": {"args": ["8", "data.csv", "result"], "inputs": "gmm"},
    "goulash": {"args": ["3", "0.05"]},
    "langevin": {"args": ["100000", "3"]},
    "laplace": {"timeout": 30, "why": "fixed size: SOR to 1e-6 on 1024^2 cells"},
    "layernorm": {"args": ["2", "64", "128", "3"]},
    "lda": {"args": ["3"]},
    "match": {"args": ["1"], "timeout": 30, "why": "fixed size: all pairs of 2^14 points"},
    "matern": {"args": ["100", "3"]},
    "maxFlops": {"args": ["1"], "timeout": 30, "why": "fixed size: 2^21 elements x 48 kernels"},
    "memcpy": {"args": ["10"]},
    "merge": {"args": ["10000", "1"], "timeout": 30,
              "why": "its merge-path kernel waits at barriers for 32-128 threads per team; "
                     "host offload gives 2"},
    "metropolis": {"args": ["-l", "32", "1", "-t", "4.7", "0.1", "-a", "2", "2", "2", "2",
                            "-h", "1.0", "-z", "7919"]},
    "moe": {"args": ["1024", "16", "1", "3"]},
    "moe-sum": {"args": ["256", "1024", "3"]},
    "mt": {"why": "its input ./data/MersenneTwister.dat is kept in DVC, not in the checkout"},
    "multimaterial": {"exe": "./multimat_FL", "args": ["100", "100", "0.3", "0.05", "0.05"]},
    "nms": {"args": ["../nms-cuda/detections.txt", "output.txt", "2"]},
    "nw": {"args": ["256", "10", "2"]},
    "page-rank": {"args": ["-n", "1000", "-i", "10"]},
    "prna": {"args": ["../frna-cuda/RD0260.seq"], "siblings": ["frna-cuda"],
             "why": "its parameter tables (../prna-cuda/data_tables) are kept in DVC, "
                    "not in the checkout"},
    "pso": {"args": ["30", "1000"]},
    "qrg": {"args": ["3"]},
    "radixsort": {"args": ["2"],
                  "why": "indexes team-local arrays by thread number for its thread_limit; host "
                         "offload gives 2 threads per team (SIGSEGV)"},
    "relu": {"args": ["100000", "3"]},
    "reverse": {"args": ["10"]},
    "rodrigues": {"args": ["100000", "3"]},
    "scan": {"args": ["262144", "3"]},
    "scatterAdd": {"args": ["10000", "32", "8", "3"]},
    "sort": {"args": ["1", "2"],
             "why": "indexes team-local arrays by thread number for its thread_limit; host "
                    "offload gives 2 threads per team (SIGSEGV)"},
    "sosfil": {"args": ["2"], "make": {"DEBUG": "yes"}},  # -DDEBUG: 2 signals of 257 samples
    "sph": {"timeout": 30, "why": "fixed size: 500 steps of an O(n^2) neighbour search"},
    "stddev": {"args": ["1024", "1024", "3"]},
    "threadcpy": {"args": ["1"], "timeout": 30, "why": "fixed size: 1 GiB copied 15 ways"},
    "tqs": {},
    "tsp": {"args": ["../tsp-cuda/d493.tsp", "2", "2"]},
    "vol2col": {"args": ["1"], "timeout": 60},  # fixed sizes: about 25 s
    # The 30 programs added for issue 27, sized for about a second here.
    "adjacent": {"args": ["100000", "3"]},
    "aligned-types": {"timeout": 30, "why": "fixed size: 1000 iterations over its buffers "
                                            "(over 30 s here)"},
    "attention": {"args": ["256", "64", "3"]},
    "attentionMergeState": {"why": "its reference.h is not in the checkout"},
    "channelSum": {"args": ["8", "8", "2"]},
    "entropy": {"args": ["256", "256", "3"]},
    "filter": {"args": ["100000", "256", "3"]},
    "gaussian": {"args": ["-q", "-t", "-s", "256"]},
    "gc": {"args": ["../mis-cuda/internet.egr", "16", "2"], "timeout": 20,
           "why": "its coloring kernel spins until other teams finish: on host offload the "
                  "teams do not run at the same time"},
    "haccmk": {"args": ["2"]},
    "hwt1d": {"args": ["65536", "3"]},
    "hypterm": {"args": ["1"], "timeout": 30, "why": "fixed size: one step takes about 37 s here"},
    "ldpc": {"timeout": 20, "why": "its decoder waits at barriers for 480 threads per team; host "
                                   "offload gives 2"},
    "logprob": {"args": ["64", "8", "512", "3"]},
    "mcpr": {"args": ["../mcpr-cuda/alphas.csv", "2"],
             "why": "its input is kept compressed (../mcpr-cuda/alphas.csv.bz2)"},
    "minmax": {"why": "does not compile with clang 19: ../minmax-cuda/utils.hpp uses "
                      "std::make_tuple without including <tuple>"},
    "mis": {"args": ["../mis-cuda/internet.egr", "2"], "timeout": 20,
            "why": "its kernel spins until other teams finish: on host offload the teams do not "
                   "run at the same time"},
    "particles": {"args": ["2"],
                  "why": "indexes team-local arrays by thread number for its thread_limit; host "
                         "offload gives 2 threads per team (SIGSEGV)"},
    "popcount": {"args": ["65536", "3"]},
    "s8n": {"args": ["64", "128", "3"]},
    "sad": {"why": "its bitmap_image.hpp is not in the checkout"},
    "simpleSpmv": {"args": ["65536", "1024", "3"]},
    "wyllie": {"args": ["100000", "1", "3"]},
}


# --- inputs that HeCBench keeps out of its repository ------------------------
# Small synthetic inputs in the formats the programs read, written into the
# program's folder (of the scratch copy) before it runs. Deterministic.

def gen_btree(d):
    import random
    rng = random.Random(1)
    keys = list(range(1, 20001))
    rng.shuffle(keys)
    with open(os.path.join(d, "mil.txt"), "w") as f:
        f.write("%d\n" % len(keys) + "".join("%d\n" % k for k in keys))
    with open(os.path.join(d, "command.txt"), "w") as f:
        f.write("j 1000 1000\nk 1000\n")


def gen_cfd(d):
    """A chain of n cells: neighbours i-1 and i+1 (1-based), the two other
    faces a wall (0 in the file) and the far field (-1)."""
    import random
    rng = random.Random(2)
    n = 2000
    lines = ["%d" % n]
    for i in range(n):
        nb = [i if i > 0 else -1, i + 2 if i + 1 < n else -1, 0, -1]
        parts = ["%.6f" % (1.0 + rng.random() * 0.1)]
        for j, e in enumerate(nb):
            parts.append("%d" % e)
            parts += ["%.6f" % (rng.random() - 0.5) for _ in range(3)]
        lines.append(" ".join(parts))
    with open(os.path.join(d, "mesh.domn"), "w") as f:
        f.write("\n".join(lines) + "\n")


def gen_fasta(d):
    """Reads of 100-300 bases, a third of them near copies of others."""
    import random
    rng = random.Random(3)
    reads = []
    for i in range(600):
        if reads and rng.random() < 0.33:
            s = list(rng.choice(reads))
            for _ in range(len(s) // 50):
                s[rng.randrange(len(s))] = rng.choice("ACGT")
            s = "".join(s)
        else:
            s = "".join(rng.choice("ACGT") for _ in range(rng.randint(100, 300)))
        reads.append(s)
    with open(os.path.join(d, "reads.fasta"), "w") as f:
        for i, s in enumerate(reads):
            f.write(">read%d\n" % i)
            for k in range(0, len(s), 60):
                f.write(s[k:k + 60] + "\n")


def gen_gmm(d):
    """1024 events of 4 dimensions around 8 centres, as CSV."""
    import random
    rng = random.Random(4)
    centres = [[rng.uniform(-10, 10) for _ in range(4)] for _ in range(8)]
    with open(os.path.join(d, "data.csv"), "w") as f:
        for i in range(1024):
            c = centres[i % 8]
            f.write(",".join("%.5f" % (x + rng.gauss(0, 1)) for x in c) + "\n")


INPUTS = {"btree": gen_btree, "cfd": gen_cfd, "fasta": gen_fasta, "gmm": gen_gmm}

# The quick mode (ctest realprogs/quick): programs that build and run in a
# few seconds each and whose runs give findings with rewrites.
QUICK = ["lda", "nms", "rodrigues"]

# Lines that print timings, rates or sizes measured at run time: their
# numbers are masked before stdout is compared. Case-insensitive; a
# program's "mask" patterns are added to these.
TIMING_PATTERNS = [
    r"time", r"\bms\b", r"msec", r"\(ms\)", r"\bs\)", r"\(s\)", r"\bsec", r"second",
    r"\bus\b", r"\(us\)", r"usec", r"\bns\b", r"gflop", r"flop", r"gb/s", r"mb/s",
    r"gbytes", r"throughput", r"bandwidth", r"elapsed", r"speed", r"perf",
    r"\brate\b", r"clock", r"duration", r"latency", r"per second", r"/s\b", r"\btook\b",
    r"memory usage",
]
# Lines that say whether the program checked its own results.
VERDICT = re.compile(
    r"(?i)\b(pass(ed)?|fail(ed|s|ure)?|correct(ly)?|incorrect|mismatch(es)?|"
    r"error(s)?|verif\w*|wrong|success\w*|succeed\w*|valid\w*|match(es|ed)?|ok)\b")
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")

KINDS = ["duplicate_transfer", "round_trip", "repeated_alloc", "unused_alloc",
         "unused_transfer", "zero_transfer", "overbroad_map", "early_alloc", "late_release",
         "single_value_transfer"]
# A kind this table does not know (a newer report's) is shown by its name.
KIND_ABBR = {"duplicate_transfer": "dup", "round_trip": "rt", "repeated_alloc": "ralloc",
             "unused_alloc": "ualloc", "unused_transfer": "uxfer",
             "zero_transfer": "zero", "overbroad_map": "over", "early_alloc": "early",
             "late_release": "late", "single_value_transfer": "single"}


def log(msg):
    print(msg, flush=True)


# --- HeCBench's benchmarks.yaml (the subset this needs) ---------------------

def parse_benchmarks_yaml(path):
    """name -> {"args": [...], "timeout": int, "regex": str} from the
    benchmarks.yaml of HeCBench: top-level keys, and under `test:` the keys
    `args` (a flow list of quoted or bare strings), `timeout` and `regex`."""
    out = {}
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return out
    name = None
    in_test = False
    for line in lines:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = re.match(r"^([^\s#][^:]*):\s*$", line)
        if m:
            name, in_test = m.group(1).strip(), False
            continue
        if name is None:
            continue
        m = re.match(r"^(\s+)(\w+):\s*(.*?)\s*$", line)
        if not m:
            continue
        key, val = m.group(2), m.group(3)
        if key == "test" and val == "":
            in_test = True
            continue
        if not in_test:
            continue
        entry = out.setdefault(name, {})
        if key == "args":
            m2 = re.match(r"^\[(.*)\]$", val)
            if m2:
                items = re.findall(r'"((?:[^"\\]|\\.)*)"|\'([^\']*)\'|([^,\s][^,]*)', m2.group(1))
                entry["args"] = [a or b or c.strip() for a, b, c in items]
        elif key == "timeout":
            try:
                entry["timeout"] = int(val)
            except ValueError:
                pass
        elif key == "regex":
            entry["regex"] = val.strip("'\"")
    return out


# --- files ------------------------------------------------------------------

def make_writable(root):
    for d, dirs, files in os.walk(root):
        os.chmod(d, 0o755)
        for f in files:
            p = os.path.join(d, f)
            if not os.path.islink(p):
                os.chmod(p, 0o644 | (os.stat(p).st_mode & 0o111))


def siblings(src, name):
    """The folders next to the program's that its Makefile names (../X)."""
    found = set()
    for mk in ("Makefile",):
        p = os.path.join(src, name, mk)
        if os.path.exists(p):
            with open(p, errors="replace") as f:
                text = f.read()
            for m in re.finditer(r"\.\./([A-Za-z0-9_.+-]+)", text):
                found.add(m.group(1))
    return found


def copy_program(hec_src, name, extra, dest):
    """Copies src/<name> and the sibling folders into dest/src; returns the
    siblings that were named but are not in the checkout."""
    if os.path.exists(dest):
        make_writable(dest)
        shutil.rmtree(dest)
    os.makedirs(os.path.join(dest, "src"))
    missing = []
    for d in [name] + sorted((siblings(hec_src, name) | set(extra)) - {name}):
        s = os.path.join(hec_src, d)
        if os.path.isdir(s):
            shutil.copytree(s, os.path.join(dest, "src", d), symlinks=True)
        elif d != name:
            missing.append(d)
    make_writable(dest)
    return missing


def snapshot(root):
    snap = {}
    for d, dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(d, f)
            try:
                st = os.stat(p)
            except OSError:
                continue
            snap[os.path.relpath(p, root)] = (st.st_size, st.st_mtime_ns)
    return snap


def file_hash(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()[:16]


def written_files(root, before, patterns):
    """Files created or changed since the snapshot `before` -> their hash."""
    out = {}
    after = snapshot(root)
    for rel, st in after.items():
        if before.get(rel) == st:
            continue
        if rel.endswith(".o") or rel.endswith(".orig"):
            continue
        if patterns and not any(fnmatch.fnmatch(rel, p) for p in patterns):
            continue
        try:
            out[rel] = file_hash(os.path.join(root, rel))
        except OSError:
            pass
    return out


# --- the compiler wrapper ---------------------------------------------------

WRAPPER = r"""#!/bin/bash
# ompdp realprogs: icpx's command line -> clang++-19 for offload to the host
# with the ompdp plugin. Written by benchmarks/realprogs/run.py.
args=()
link=1
for a in "$@"; do
  case "$a" in
    -fiopenmp|-qopenmp|-fopenmp|-qnextgen|-fsycl) ;;
    -fopenmp-targets=*|-Xopenmp-target=*|-march=gfx*|--offload-arch=*) ;;
    -O|-O[0-9]|-Os|-Oz|-Ofast|-Og) ;;
    -c|-S|-E|-M|-MM) link=0; args+=("$a") ;;
    *) args+=("$a") ;;
  esac
done
extra=()
[ $link = 1 ] && extra=(-Wl,-rpath,@LLVM_LIB@)
# The harness's per-program flags come last, to override the Makefile's.
read -r -a late <<< "${OMPDP_REALPROGS_CFLAGS:-}"
echo "@CXX@ @FLAGS@ ${args[*]} ${late[*]} ${extra[*]}" >> "${OMPDP_REALPROGS_CMDLOG:-/dev/null}"
exec @CXX@ @FLAGS@ "${args[@]}" "${late[@]}" "${extra[@]}"
"""


def write_wrapper(path, build):
    cfg = os.path.join(build, "lib", "ompdp.cfg")
    flags = OFFLOAD + ["--config=" + cfg, "-O2"]
    text = (WRAPPER.replace("@LLVM_LIB@", LLVM_LIB).replace("@CXX@", CXX)
            .replace("@FLAGS@", " ".join(shlex.quote(f) for f in flags)))
    with open(path, "w") as f:
        f.write(text)
    os.chmod(path, 0o755)


# --- running things ---------------------------------------------------------

def run_cmd(cmd, cwd, timeout, env=None, stdout_path=None, stderr_path=None, shell=False):
    """Runs cmd in its own process group; returns a dict with rc, wall time,
    stdout and stderr (text) and whether it timed out (the group is killed)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, shell=shell, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True)
    timed_out = False
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except OSError:
            pass
        out, err = p.communicate()
    wall = time.monotonic() - t0
    out = out.decode("utf-8", "replace")
    err = err.decode("utf-8", "replace")
    if stdout_path:
        with open(stdout_path, "w") as f:
            f.write(out)
    if stderr_path:
        with open(stderr_path, "w") as f:
            f.write(err)
    rc = p.returncode
    if rc is not None and rc < 0:
        rc = 128 - rc
    return {"rc": None if timed_out else rc, "wall": round(wall, 3), "timeout": timed_out,
            "stdout": out, "stderr": err}


def first_error(text):
    """The first line of a compiler's or make's output that says error."""
    for line in text.splitlines():
        if re.search(r"\berror\b|Error \d|No rule to make|No such file", line):
            return line.strip()[:300]
    lines = [l for l in text.splitlines() if l.strip()]
    return lines[-1].strip()[:300] if lines else "unknown"


MAKE_VARS = {"OPTIMIZE": "yes", "DEBUG": "no", "DEVICE": "gpu", "LAUNCHER": ""}


def make_cmd(cfg, wrapper, target=None, extra=()):
    cmd = ["make", "-j2", "CC=" + wrapper, "CXX=" + wrapper]
    for k, v in {**MAKE_VARS, **cfg.get("make", {})}.items():
        cmd.append(f"{k}={v}")
    cmd += list(extra)
    if target:
        cmd.append(target)
    return cmd


def build(pdir, cfg, wrapper, logdir, tag, timeout):
    """Builds the program in pdir; returns (ok, reason, how, seconds)."""
    env = dict(os.environ, OMPDP_REALPROGS_CMDLOG=os.path.join(logdir, f"build-{tag}.cmds"),
               OMPDP_REALPROGS_CFLAGS=" ".join(cfg.get("cflags", [])))
    t0 = time.monotonic()
    r = run_cmd(make_cmd(cfg, wrapper, cfg.get("target")), pdir, timeout, env=env)
    with open(os.path.join(logdir, f"build-{tag}.log"), "w") as f:
        f.write(r["stdout"] + r["stderr"])
    if r["rc"] == 0:
        return True, "", "make", round(time.monotonic() - t0, 1)
    reason = "build timed out" if r["timeout"] else first_error(r["stdout"] + r["stderr"])
    if r["timeout"]:
        return False, reason, "make", round(time.monotonic() - t0, 1)
    # The Makefile did not work: compile the sources directly, all of them
    # in one command (the table's `direct` list, else every C/C++ source
    # of the folder), with the folder, its include/ and the siblings on the
    # include path, into the program the run target names.
    srcs = cfg.get("direct") or sorted(
        os.path.relpath(os.path.join(d, f), pdir) for d, dirs, files in os.walk(pdir)
        for f in files if f.endswith((".c", ".cc", ".cpp", ".cxx")))
    if not srcs:
        return False, reason, "make", round(time.monotonic() - t0, 1)
    incs = ["-I.", "-Iinclude"] + ["-I" + os.path.join("..", d)
                                   for d in sorted(os.listdir(os.path.dirname(pdir)))
                                   if d != os.path.basename(pdir)]
    exe = cfg.get("exe") or run_command_of(pdir, cfg, wrapper)[0] or "./main"
    cmd = [wrapper, "-std=c++17"] + incs + cfg.get("direct_flags", []) + srcs + ["-o", exe]
    r2 = run_cmd(cmd, pdir, timeout, env=env)
    with open(os.path.join(logdir, f"build-{tag}.log"), "a") as f:
        f.write("\n--- direct: " + " ".join(cmd) + "\n" + r2["stdout"] + r2["stderr"])
    if r2["rc"] == 0:
        return True, "", "direct", round(time.monotonic() - t0, 1)
    reason += "; compiled directly: " + first_error(r2["stdout"] + r2["stderr"])
    return False, reason, "make", round(time.monotonic() - t0, 1)


def run_command_of(pdir, cfg, wrapper):
    """The program and its arguments from the Makefile's run target."""
    r = run_cmd(make_cmd(cfg, wrapper, "run", ["-n", "-s"]), pdir, 60)
    for line in r["stdout"].splitlines():
        for part in line.split(";"):
            words = shlex.split(part.strip()) if part.strip() else []
            if words and words[0].startswith("./"):
                return words[0], words[1:]
    return None, []


def mask_lines(text, cfg):
    pats = [re.compile(p, re.I) for p in TIMING_PATTERNS + cfg.get("mask", [])]
    drops = [re.compile(p) for p in cfg.get("drop", [])]
    out = []
    for line in text.splitlines():
        if any(d.search(line) for d in drops):
            continue
        if any(p.search(line) for p in pats):
            line = NUMBER.sub("<N>", line)
        out.append(line.rstrip())
    return out


def verdict_lines(lines):
    return [l for l in lines if VERDICT.search(l)]


# --- reports ----------------------------------------------------------------

def load_report(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def edits_key(rw):
    return tuple((e["file"], e["line"], e["column"], e["end_line"], e["end_column"],
                  e["replacement"]) for e in rw["edits"])


def distinct_rewrites(rep):
    seen = {}
    for f in rep.get("findings", []):
        for rw in f.get("rewrites", []):
            seen.setdefault(edits_key(rw), (rw, f))
    return list(seen.values())


def yaml_unquote(s):
    s = s.strip()
    if not (s.startswith('"') and s.endswith('"')):
        return s
    s = s[1:-1]
    esc = {'"': '"', "\\": "\\", "n": "\n", "t": "\t", "r": "\r"}
    return re.sub(r'\\(x[0-9A-Fa-f]{2}|.)',
                  lambda m: chr(int(m.group(1)[1:], 16)) if m.group(1)[0] == "x" and len(m.group(1)) == 3
                  else esc.get(m.group(1), m.group(1)), s)


def yaml_diagnostics(text):
    """(message, [replacement texts]) per diagnostic of ompdp fix's YAML."""
    diags = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("- DiagnosticName:"):
            diags.append(["", []])
        elif s.startswith("Message:") and diags:
            diags[-1][0] = yaml_unquote(s[len("Message:"):])
        elif s.startswith("ReplacementText:") and diags:
            diags[-1][1].append(yaml_unquote(s[len("ReplacementText:"):]))
    return diags


def applied_rewrites(rewrites, yaml_text):
    """The rewrites (of distinct_rewrites) that ompdp fix chose to apply."""
    diags = yaml_diagnostics(yaml_text)
    chosen = []
    for rw, f in rewrites:
        key = (rw.get("description") or "", [e["replacement"] for e in rw["edits"]])
        # The YAML's message carries the assumption too (driver/fix.c).
        msg = key[0] + ("; it assumes " + rw["assumption"] if rw.get("assumption") else "")
        for i, d in enumerate(diags):
            # In a CRLF file ompdp fix writes the edits' newlines as CRLF.
            if d[0] == msg and [t.replace("\r\n", "\n") for t in d[1]] == key[1]:
                chosen.append((rw, f))
                del diags[i]
                break
    return chosen


def peak_of(rep):
    """The largest peak of device memory in use of the report's devices
    (bytes), or None for a report without device memory."""
    peaks = [m.get("peak_bytes", 0) for m in rep.get("device_memory", [])]
    return max(peaks) if peaks else None


def findings_by_kind(rep):
    counts = {k: 0 for k in KINDS}
    for f in rep.get("findings", []):
        counts[f["kind"]] = counts.get(f["kind"], 0) + 1
    return counts


# --- one program ------------------------------------------------------------

def program_run(pdir, exe, args, cfg, timeout, logdir, tag, ompdp=None, report=None,
                perturb=None):
    for c in cfg.get("setup", []):
        subprocess.run(c, shell=True, cwd=pdir, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    before = snapshot(pdir)
    cmd = [exe] + args
    if ompdp:
        cmd = [ompdp, "run", "--format=json", "-o", report, "--"] + cmd
    env = dict(os.environ, **RUN_ENV)
    if perturb:
        env["MALLOC_PERTURB_"] = perturb
    env.update(cfg.get("env", {}))
    r = run_cmd(cmd, pdir, timeout, env=env,
                stdout_path=os.path.join(logdir, f"{tag}.out"),
                stderr_path=os.path.join(logdir, f"{tag}.err"))
    r["files"] = {} if cfg.get("no_files") else written_files(pdir, before, cfg.get("files"))
    r["masked"] = mask_lines(r["stdout"], cfg)
    return r


def summarize_run(r):
    return {"rc": r["rc"], "timeout": r["timeout"], "wall": r["wall"],
            "files": r["files"]}


def check_program(name, a, hec, yaml_tests):
    """Everything for one program; returns its result record."""
    cfg = PROGRAMS.get(name[:-4], {})
    res = {"program": name, "built": False, "build_reason": "", "ran": False,
           "run_reason": "", "findings": {}, "rewrites_offered": 0, "rewrites_applied": 0,
           "fix_messages": [], "fixed_built": None, "fixed_reason": "",
           "output_kept": None, "output_diff": "", "exit_kept": None, "files_kept": None,
           "hang": False, "tool_hang": False, "rounds": [], "deterministic": None, "transfers": {}, "allocs": {},
           "prediction_ok": None, "lower_bound": False, "wall": {}, "notes": [],
           "ompdp_defects": [], "peak": {}}
    if cfg.get("skip"):
        res["build_reason"] = "skipped: " + cfg["skip"]
        return res
    base = os.path.join(a.work, name)
    os.makedirs(base, exist_ok=True)
    logdir = base
    src = os.path.join(hec, "src")
    extra = cfg.get("siblings", [])
    missing = copy_program(src, name, extra, os.path.join(base, "before"))
    if missing:
        res["notes"].append("missing sibling folder(s): " + ", ".join(missing))
    pdir = os.path.join(base, "before", "src", name)
    if cfg.get("inputs"):
        INPUTS[cfg["inputs"]](pdir)
    if cfg.get("why"):
        res["why"] = cfg["why"]
    wrapper = os.path.join(a.work, "cxx-ompdp")
    ok, reason, how, secs = build(pdir, cfg, wrapper, logdir, "before", a.build_timeout)
    res["build_how"], res["build_s"] = how, secs
    if not ok:
        res["build_reason"] = reason
        return res
    res["built"] = True

    # The command line: the table's, else benchmarks.yaml's, else the Makefile's.
    exe, margs = run_command_of(pdir, cfg, wrapper)
    exe = cfg.get("exe", exe) or "./main"
    if "args" in cfg:
        args = list(cfg["args"])
    elif "args" in yaml_tests.get(name[:-4], {}):
        args = yaml_tests[name[:-4]]["args"]
    else:
        args = margs
    res["command"] = " ".join([exe] + args)
    timeout = cfg.get("timeout", a.timeout)

    plain = program_run(pdir, exe, args, cfg, timeout, logdir, "plain")
    res["wall"]["plain"] = plain["wall"]
    res["plain"] = summarize_run(plain)
    if plain["timeout"]:
        res["run_reason"] = f"timed out after {timeout} s"
        return res
    if plain["rc"] != 0:
        res["run_reason"] = f"exit status {plain['rc']}: " + \
            (first_error(plain["stderr"] + plain["stdout"]) if (plain["stderr"] + plain["stdout"]).strip() else "no output")
        return res
    res["ran"] = True
    again = program_run(pdir, exe, args, cfg, timeout, logdir, "plain-perturbed",
                        perturb=PERTURB_AGAIN)
    res["uninitialized"] = (again["rc"] != plain["rc"] or again["masked"] != plain["masked"] or
                            again["files"] != plain["files"])
    # The lines that differ between the two plain runs (when both have as
    # many) are what that memory decides: held-out backprop's PASS or FAIL,
    # from team-local arrays its kernels leave mostly unwritten on host
    # offload (they assume 256 threads in a team that gets 2).
    res["uninit_lines"] = sorted(
        i for i, (x, y) in enumerate(zip(plain["masked"], again["masked"])) if x != y) \
        if len(plain["masked"]) == len(again["masked"]) else None
    if res["uninitialized"]:
        res["notes"].append("its output depends on memory nobody initialised (it differs with "
                            f"MALLOC_PERTURB_={PERTURB_AGAIN}); every run compared fills such "
                            "memory the same way")

    bjson = os.path.join(logdir, "before.json")
    if os.path.exists(bjson):
        os.remove(bjson)
    before = program_run(pdir, exe, args, cfg, timeout * a.tool_factor, logdir, "before",
                         ompdp=a.ompdp, report=bjson)
    if not before["timeout"] and before["rc"] != plain["rc"] and \
            plain_exits(pdir, exe, args, cfg, timeout, logdir, before["rc"]):
        # The program exits so by itself, without ompdp: run it under ompdp
        # again until it exits as its plain run did.
        for i in range(EXIT_RERUNS):
            if os.path.exists(bjson):
                os.remove(bjson)
            again = program_run(pdir, exe, args, cfg, timeout * a.tool_factor, logdir,
                                f"before-again{i + 1}", ompdp=a.ompdp, report=bjson)
            if again["timeout"] or again["rc"] == plain["rc"]:
                res["notes"].append(
                    f"the original program exits {before['rc']} in some plain runs too, as it "
                    f"did once under ompdp: it ran again under ompdp ({i + 1} more "
                    f"run{'s' if i else ''}) until it exited {plain['rc']}")
                before = again
                break
    res["wall"]["before"] = before["wall"]
    res["before"] = summarize_run(before)
    rep = load_report(bjson)
    if before["timeout"]:
        res["ompdp_defects"].append("under ompdp the original program hangs (timed out)")
        res["tool_hang"] = True
    elif before["rc"] != plain["rc"]:
        res["ompdp_defects"].append(f"under ompdp the original program exits {before['rc']}"
                                    f" (plain: {plain['rc']})")
    if rep is None:
        res["ompdp_defects"].append("no JSON report from the original program")
        return res
    # A region table the runtime refused (a plugin of another version: the
    # build changed under the run) turns every finding into one without
    # facts: the run says nothing about this build.
    try:
        with open(os.path.join(logdir, "before.err"), errors="replace") as f:
            refused = [l.strip() for l in f if "region table" in l and "ignored" in l]
    except OSError:
        refused = []
    if refused:
        res["ompdp_defects"].append(f"the runtime ignored the program's region table: "
                                    f"{refused[0][:200]}")
    if rep.get("partial"):
        res["notes"].append("before.json is partial")
    det = mask_lines(plain["stdout"], cfg) == before["masked"]
    res["deterministic"] = det and plain["files"] == before["files"]
    if not det:
        res["notes"].append("stdout differs between the plain run and the run under ompdp"
                            " (nondeterministic or unmasked): only verdict lines compared")
    res["findings"] = findings_by_kind(rep)
    res["findings_with_rewrite"] = findings_by_kind(
        {"findings": [f for f in rep.get("findings", []) if f.get("rewrites")]})
    rewrites = distinct_rewrites(rep)
    res["rewrites_offered"] = len(rewrites)
    obs = rep.get("observed", {})
    res["transfers"]["before"] = obs.get("transfers")
    res["allocs"]["before"] = obs.get("allocs")
    res["peak"]["before"] = peak_of(rep)
    res["time_saved_ns"] = rep.get("summary", {}).get("time_saved_ns")
    # What each finding is worth (docs/report-format.md, Verdicts), and the
    # time of those that are no saving, kept out of time_saved_ns.
    res["excluded_time_ns"] = rep.get("summary", {}).get("excluded_time_ns", 0)
    verdicts = {}
    for f in rep.get("findings", []):
        v = f.get("verdict", "fix" if f.get("rewrites") else "advice")
        verdicts[v] = verdicts.get(v, 0) + 1
    res["verdicts"] = verdicts
    if not rewrites:
        return res

    # The fix, in a fresh copy of the original folders; with --rounds N,
    # again on the fixed program with its own report, up to N times.
    ctx = {"src": src, "name": name, "extra": extra, "cfg": cfg, "wrapper": wrapper,
           "exe": exe, "args": args, "timeout": timeout, "base": base, "before": before,
           "det": det, "modified": set(), "notes": res["notes"],
           "uninitialized": res["uninitialized"], "plain_masked": plain["masked"],
           "uninit_lines": res["uninit_lines"]}
    res["rounds"] = []
    for rnd in range(1, a.rounds + 1):
        report = bjson if rnd == 1 else os.path.join(
            base, ("after" if rnd == 2 else f"after{rnd - 1}") + ".json")
        r = fix_round(a, ctx, rnd, report)
        if r is None:
            break
        res["rounds"].append(r)
        if rnd == 1:
            for k in ("fix_messages", "fixed_built", "fixed_reason", "output_kept",
                      "output_diff", "exit_kept", "files_kept", "prediction_ok", "lower_bound",
                      "rewrite_kinds"):
                res[k] = r[k]
            res["rewrites_applied"] = r["applied"]
            res["transfers"].update(r["transfers"])
            res["allocs"].update(r["allocs"])
            res["peak"].update(r["peak"])
            if "after" in r["wall"]:
                res["wall"]["after"] = r["wall"]["after"]
            res["findings_after"] = r.get("findings_after")
        if r["hang"]:
            res["hang"] = True
        for d in r["defects"]:
            res["ompdp_defects"].append(d if rnd == 1 else f"round {rnd}: {d}")
        if not r["applied"] or not r["fixed_built"] or r["hang"] or r["output_kept"] is False:
            break
    return res


# Plain runs of the original program made when a fixed program prints
# something else, to tell the program's own nondeterminism from a change.
VARIES_RUNS = 4


def same_but(a, b, lines):
    """Whether outputs a and b (lists of lines) are the same but at the
    line numbers (0-based) in lines."""
    skip = set(lines)
    return len(a) == len(b) and all(x == y for i, (x, y) in enumerate(zip(a, b))
                                    if i not in skip)


def plain_same(ctx, adir, tag):
    """Whether the fixed program in adir, run plain, prints what the
    original's plain run printed."""
    again = program_run(adir, ctx["exe"], ctx["args"], ctx["cfg"], ctx["timeout"],
                        ctx["base"], f"{tag}-plain")
    return not again["timeout"] and again["masked"] == ctx["plain_masked"]


def varies(ctx):
    """Whether the original program, run plain again (up to VARIES_RUNS
    times), prints something other than its run under ompdp did."""
    pdir = os.path.join(ctx["base"], "before", "src", ctx["name"])
    for i in range(VARIES_RUNS):
        again = program_run(pdir, ctx["exe"], ctx["args"], ctx["cfg"], ctx["timeout"],
                            ctx["base"], f"plain-again{i + 1}")
        if again["timeout"] or again["masked"] != ctx["before"]["masked"]:
            return True
    return False


def plain_exits(pdir, exe, args, cfg, timeout, logdir, rc):
    """Whether the original program in pdir, run plain again (up to
    VARIES_RUNS times), exits with status rc in some run: a program that
    crashes by itself (held-out aop segfaults in most runs on host offload,
    in a kernel that assumes more threads than a host team has)."""
    for i in range(VARIES_RUNS):
        again = program_run(pdir, exe, args, cfg, timeout, logdir, f"plain-exit{i + 1}")
        if not again["timeout"] and again["rc"] == rc:
            return True
    return False


def exits_so_too(ctx, rc):
    """plain_exits for the original of a fix round's context."""
    pdir = os.path.join(ctx["base"], "before", "src", ctx["name"])
    return plain_exits(pdir, ctx["exe"], ctx["args"], ctx["cfg"], ctx["timeout"], ctx["base"], rc)


# Runs of a fixed program, under ompdp, when the original itself exits as it
# did: enough that a program which crashes in most runs ends once.
EXIT_RERUNS = 8


def fix_round(a, ctx, rnd, report):
    """Applies the rewrites of `report` (the original program's, or the
    previous round's) to a fresh copy holding the previous rounds' changes,
    rebuilds, reruns under ompdp and compares with the original run. None
    when the report has no rewrite."""
    rep = load_report(report)
    if rep is None:
        return None
    rewrites = distinct_rewrites(rep)
    if not rewrites:
        return None
    name, cfg, base = ctx["name"], ctx["cfg"], ctx["base"]
    r = {"round": rnd, "offered": len(rewrites), "applied": 0, "fix_messages": [],
         "fixed_built": None, "fixed_reason": "", "output_kept": None, "output_diff": "",
         "exit_kept": None, "files_kept": None, "hang": False, "prediction_ok": None,
         "lower_bound": False, "rewrite_kinds": [], "transfers": {}, "allocs": {},
         "peak": {}, "wall": {}, "defects": []}
    tag = "after" if rnd == 1 else f"after{rnd}"
    adir_root = os.path.join(base, tag)
    copy_program(ctx["src"], name, ctx["extra"], adir_root)
    prev_root = os.path.join(base, "after" if rnd == 2 else f"after{rnd - 1}")
    for rel in ctx["modified"]:
        shutil.copyfile(os.path.join(prev_root, rel), os.path.join(adir_root, rel))
    adir = os.path.join(adir_root, "src", name)
    if cfg.get("inputs"):
        INPUTS[cfg["inputs"]](adir)
    yaml_path = os.path.join(base, f"fixes{'' if rnd == 1 else rnd}.yaml")
    # --root: the report records the compile directory (before/), where a
    # relative source name would otherwise be found first.
    run_cmd([a.ompdp, "fix", "--root", adir, "-o", yaml_path, report], adir, 120)
    ytext = open(yaml_path).read() if os.path.exists(yaml_path) else ""
    chosen = applied_rewrites(rewrites, ytext)
    fx = run_cmd([a.ompdp, "fix", "--apply", "--root", adir, report], adir, 120)
    with open(os.path.join(base, f"fix{'' if rnd == 1 else rnd}.log"), "w") as f:
        f.write(f"exit status {fx['rc']}\n" + fx["stdout"] + fx["stderr"])
    r["fix_messages"] = [l for l in fx["stderr"].splitlines() if l.strip()]
    r["applied"] = len(chosen)
    r["rewrite_kinds"] = sorted({rw["kind"] for rw, f in chosen})
    if len(diagnostics := yaml_diagnostics(ytext)) != len(chosen):
        r["fix_messages"].append(f"harness: {len(diagnostics)} rewrite(s) in the YAML, "
                                 f"{len(chosen)} matched in the report")
    # A rewrite left out because another one saves more is by design; an
    # edit that does not match the very file the program was built from is
    # a wrong rewrite.
    stale = [m for m in r["fix_messages"] if "does not match the report" in m]
    if stale:
        r["defects"].append("ompdp fix refuses the report's own edits: " + stale[0])
    # The patch of this round, for the record.
    diff = []
    for d, dirs, files in os.walk(adir_root):
        for fn in sorted(files):
            if fn.endswith(".orig"):
                new = os.path.join(d, fn[:-5])
                rel = os.path.relpath(new, adir_root)
                ctx["modified"].add(rel)
                with open(os.path.join(d, fn), errors="replace") as f1, \
                        open(new, errors="replace") as f2:
                    diff += difflib.unified_diff(f1.readlines(), f2.readlines(),
                                                 "a/" + rel, "b/" + rel)
    with open(os.path.join(base, f"fix{'' if rnd == 1 else rnd}.diff"), "w") as f:
        f.writelines(diff)
    if not chosen:
        return r
    obs = rep.get("observed", {})
    pred_t = sum(rw["transfers_removed"] for rw, f in chosen)
    pred_a = sum(rw["allocs_removed"] for rw, f in chosen)
    r["lower_bound"] = any(rw.get("lower_bound") for rw, f in chosen)
    r["transfers"] = {"before": obs.get("transfers"), "predicted": obs.get("transfers", 0) - pred_t}
    r["allocs"] = {"before": obs.get("allocs"), "predicted": obs.get("allocs", 0) - pred_a}
    # The peak of device memory: rewrites that shorten how long memory is
    # held predict how much lower (together, at least the most any of them
    # does); the others predict nothing about it (keeping data resident may
    # raise it).
    peak_saved = [rw["peak_saved_bytes"] for rw, f in chosen if "peak_saved_bytes" in rw]
    r["peak"] = {"before": peak_of(rep)}
    if peak_saved and r["peak"]["before"] is not None:
        r["peak"]["predicted"] = r["peak"]["before"] - max(peak_saved)

    ok, reason, how, secs = build(adir, cfg, ctx["wrapper"], base, tag, a.build_timeout)
    r["fixed_built"] = ok
    if not ok:
        r["fixed_reason"] = reason
        r["defects"].append("the fixed program does not build: " + reason)
        return r
    ajson = os.path.join(base, tag + ".json")
    if os.path.exists(ajson):
        os.remove(ajson)
    limit = ctx["timeout"] * a.tool_factor
    after = program_run(adir, ctx["exe"], ctx["args"], cfg, limit, base, tag,
                        ompdp=a.ompdp, report=ajson)
    before = ctx["before"]
    r["wall"]["after"] = after["wall"]
    r["run"] = summarize_run(after)
    if after["timeout"]:
        r["hang"] = True
        r["defects"].append(f"the fixed program hangs (no end in {limit} s)")
        return r
    if after["rc"] != before["rc"] and exits_so_too(ctx, after["rc"]):
        # The original exits so by itself: the status says nothing of the
        # rewrite. The fixed program runs again until it exits as the
        # original's run under ompdp did, and that run is compared.
        for i in range(EXIT_RERUNS):
            if os.path.exists(ajson):
                os.remove(ajson)
            again = program_run(adir, ctx["exe"], ctx["args"], cfg, limit, base,
                                f"{tag}-again{i + 1}", ompdp=a.ompdp, report=ajson)
            if again["timeout"] or again["rc"] == before["rc"]:
                ctx["notes"].append(
                    f"the original program itself exits {after['rc']} in some plain runs, as the "
                    f"fixed one did once: the fixed program ran again ({i + 1} more "
                    f"run{'s' if i else ''}) until it exited {before['rc']}, and that run is "
                    "compared")
                after = again
                r["wall"]["after"] = after["wall"]
                r["run"] = summarize_run(after)
                break
        if after["timeout"]:
            r["hang"] = True
            r["defects"].append(f"the fixed program hangs (no end in {limit} s)")
            return r
    r["exit_kept"] = after["rc"] == before["rc"]
    if ctx["det"] and after["masked"] != before["masked"] and varies(ctx):
        # The original program's own output changes from run to run (a
        # race in its kernels: reaction's minimum): a difference says
        # nothing about the rewrite, so compare as for such programs.
        ctx["notes"].append("the original program's output differs from run to run (seen in "
                            f"up to {VARIES_RUNS} more plain runs after a fixed program's "
                            "differed): only verdict lines compared")
        ctx["det"] = False
    if ctx["det"]:
        same = after["masked"] == before["masked"]
    elif verdict_lines(before["masked"]):
        same = verdict_lines(after["masked"]) == verdict_lines(before["masked"])
    else:  # nondeterministic and no verdict: nothing to compare
        same = None
    if same is False and ctx["uninitialized"] and plain_same(ctx, adir, tag):
        # A program that reads memory nobody initialised prints what that
        # memory held, and under ompdp the heap is laid out otherwise once
        # the fixed program allocates on the device differently (host
        # offload allocates "device" memory with malloc): held-out
        # backprop's PASS/FAIL. Run plain, with the same environment, the
        # fixed program prints what the original did: the rewrite kept it.
        ctx["notes"].append("the fixed program, run plain, prints what the original did; under "
                            "ompdp it printed something else, as a program that reads memory "
                            "nobody initialised does when the heap is laid out otherwise")
        same = True
    if same is False and ctx["uninitialized"] and ctx["uninit_lines"] and \
            same_but(before["masked"], after["masked"], ctx["uninit_lines"]):
        # What differs is only what differed between two plain runs of the
        # original with other fills of new memory: lines that memory nobody
        # initialised decides, which a rewrite that runs other code first
        # (a fill kernel, whose threads leave other values on their stacks)
        # may change as any run might. Every other line is the same.
        ctx["notes"].append(
            "the fixed program printed something else only in line(s) %s, which differ between "
            "two plain runs of the original too (with other fills of new memory): every other "
            "line is the same" % ", ".join(str(i + 1) for i in ctx["uninit_lines"]))
        same = True
    r["output_kept"] = same
    if same is False:
        d = list(difflib.unified_diff(before["masked"], after["masked"], "before", "after",
                                      lineterm="", n=0))
        r["output_diff"] = "\n".join(d[:40])
    if ctx["det"] and before["files"] is not None:
        r["files_kept"] = after["files"] == before["files"]
    else:
        r["files_kept"] = sorted(after["files"]) == sorted(before["files"])
    if not r["exit_kept"]:
        r["defects"].append(f"the fixed program exits {after['rc']} (was {before['rc']})")
    if same is False:
        r["defects"].append("the fixed program prints something else")
    if not r["files_kept"]:
        r["defects"].append("the fixed program writes other files")
    arep = load_report(ajson)
    if arep is None:
        r["defects"].append("no JSON report from the fixed program")
        return r
    aobs = arep.get("observed", {})
    r["transfers"]["after"] = aobs.get("transfers")
    r["allocs"]["after"] = aobs.get("allocs")
    r["peak"]["after"] = peak_of(arep)
    if r["peak"].get("predicted") is not None and r["peak"]["after"] is not None and \
            r["peak"]["after"] > r["peak"]["predicted"]:
        r["defects"].append(f"peak prediction missed: {r['peak']['after']} bytes after, predicted "
                            f"at most {r['peak']['predicted']}")
    r["findings_after"] = findings_by_kind(arep)
    r["rewrites_after"] = len(distinct_rewrites(arep))
    dt = obs.get("transfers", 0) - aobs.get("transfers", 0)
    da = obs.get("allocs", 0) - aobs.get("allocs", 0)
    t_ok = dt >= pred_t if r["lower_bound"] else dt == pred_t
    r["prediction_ok"] = t_ok and da == pred_a
    if not r["prediction_ok"]:
        r["defects"].append(
            f"prediction missed: transfers -{dt} (predicted -{pred_t}"
            f"{' at least' if r['lower_bound'] else ''}), allocations -{da} (predicted -{pred_a})")
    return r


# --- the table --------------------------------------------------------------

def yn(v):
    return "-" if v is None else ("y" if v else "**n**")


def round_ok(rd):
    """A round whose fixed program built, ran to its end and kept the output."""
    return (rd["fixed_built"] is True and not rd["hang"] and rd["output_kept"] is True
            and rd["exit_kept"] is True and rd["files_kept"] is not False)


def round_broken(rd):
    return (rd["fixed_built"] is False or rd["hang"] or rd["output_kept"] is False
            or rd["exit_kept"] is False or rd["files_kept"] is False)


def table_md(results):
    later = any(len(r.get("rounds", [])) > 1 for r in results)
    hdr = ["program", "builds", "runs", "findings", "rewrites offered/applied",
           "fixed builds", "output kept", "hang", "transfers before/after/pred",
           "allocs before/after/pred", "peak KiB before/after/pred", "wall s plain/before/after"]
    if later:
        hdr.append("later rounds offered/applied")
    rows = ["| " + " | ".join(hdr) + " |", "|" + "---|" * len(hdr)]
    for r in results:
        b = "y" if r["built"] else "**n**: " + md_escape(r["build_reason"])
        if not r["built"]:
            rn = "-"
        else:
            rn = "y" if r["ran"] else "**n**: " + md_escape(r["run_reason"])
        fnd = ", ".join(f"{KIND_ABBR.get(k, k)} {v}" for k, v in r["findings"].items() if v) \
            if r["findings"] else "-"
        if r["findings"] and not any(r["findings"].values()):
            fnd = "none"
        rw = f"{r['rewrites_offered']}/{r['rewrites_applied']}" if r["ran"] else "-"
        fb = yn(r["fixed_built"])
        if r["fixed_built"] is False:
            fb += ": " + md_escape(r["fixed_reason"])
        if r["output_kept"] is None:
            ok = "-"
            if r["fixed_built"] and r["exit_kept"] is not None:
                ok = "? (nondeterministic, prints no verdict)" if r["exit_kept"] else "**n**"
        else:
            ok = yn(r["output_kept"] and r["exit_kept"] and r["files_kept"] is not False)
            if not r.get("deterministic"):
                ok += " (verdicts)"
        if r.get("tool_hang"):
            hang = "**y** (under ompdp)"
        elif r["rounds"][:1] and r["rounds"][0]["hang"]:
            hang = "**y**"
        else:
            hang = "n" if r["fixed_built"] else "-"

        def tri(d, lower):
            if not d:
                return "-"
            p = d.get("predicted")
            ps = "-" if p is None else (("≤" if lower else "") + str(p))
            return f"{d.get('before', '-')}/{d.get('after', '-')}/{ps}"
        def kib(d):
            # The largest device's peak of memory in use; predicted only when
            # a rewrite that shortens how long memory is held was applied
            # (at most that much: together they lower it at least as much).
            if not d or d.get("before") is None:
                return "-"
            v = ["-" if d.get(k) is None else f"{d[k] / 1024:.0f}" for k in ("before", "after")]
            p = d.get("predicted")
            return "/".join(v + ["-" if p is None else f"≤{p / 1024:.0f}"])
        w = r["wall"]
        ws = "/".join("-" if w.get(k) is None else f"{w[k]:.2f}" for k in ("plain", "before", "after"))
        row = [r["program"], b, rn, fnd, rw, fb, ok, hang,
               tri(r["transfers"], r.get("lower_bound")), tri(r["allocs"], False),
               kib(r.get("peak")), ws]
        if later:
            parts = []
            for rd in r.get("rounds", [])[1:]:
                st = "ok" if round_ok(rd) else ("**broke**" if round_broken(rd) else "-")
                parts.append(f"r{rd['round']}: {rd['offered']}/{rd['applied']} {st}"
                             if rd["applied"] else f"r{rd['round']}: {rd['offered']}/0")
            row.append(", ".join(parts) or "-")
        rows.append("| " + " | ".join(row) + " |")
    return "\n".join(rows) + "\n"


def md_escape(s):
    return s.replace("|", "\\|").replace("\n", " ")[:160]


def summary(results):
    rounds = [rd for r in results for rd in r.get("rounds", [])]
    first = [r["rounds"][0] for r in results if r.get("rounds")]
    s = {"programs": len(results),
         "built": sum(r["built"] for r in results),
         "ran": sum(r["ran"] for r in results),
         "with_findings": sum(bool(r["findings"]) and any(r["findings"].values()) for r in results),
         "findings": sum(sum(r["findings"].values()) for r in results if r["findings"]),
         "with_rewrites": sum(r["rewrites_offered"] > 0 for r in results),
         "rewrites_offered": sum(r["rewrites_offered"] for r in results),
         "rewrites_applied": sum(r["rewrites_applied"] for r in results),
         "fixed_programs": sum(bool(rd["applied"]) for rd in first),
         "fixed_clean": sum(round_ok(rd) for rd in first),
         "fixed_broke_build": sum(rd["fixed_built"] is False for rd in first),
         "output_changed": sum(rd["output_kept"] is False or rd["exit_kept"] is False
                               or rd["files_kept"] is False for rd in first),
         "hung": sum(rd["hang"] for rd in first),
         "hung_under_ompdp": sum(bool(r.get("tool_hang")) for r in results),
         "read_uninitialized": sum(bool(r.get("uninitialized")) for r in results),
         "prediction_missed": sum(rd["prediction_ok"] is False for rd in first),
         "fix_refused_own_edits": sum(any("does not match the report" in m
                                          for m in rd["fix_messages"]) for rd in first)}
    # The goal of issue 20: of the programs with waste that is not
    # `necessary` (a finding whose verdict is fix or advice), how many get a
    # rewrite that applies, builds, keeps the output and removes what it
    # predicted (in any round).
    waste = [r for r in results
             if (r.get("verdicts") or {}).get("fix", 0) + (r.get("verdicts") or {}).get("advice", 0)]
    s["with_waste"] = len(waste)
    s["waste_fixed"] = sum(any(rd["applied"] and round_ok(rd) and rd["prediction_ok"] is not False
                               for rd in r.get("rounds", [])) for r in waste)
    s["findings_by_kind"] = {
        k: [sum(r["findings"].get(k, 0) for r in results if r["findings"]),
            sum(r.get("findings_with_rewrite", {}).get(k, 0) for r in results)] for k in KINDS}
    if any(rd["round"] > 1 for rd in rounds):
        s["later_rounds_applied"] = sum(rd["applied"] for rd in rounds if rd["round"] > 1)
        s["later_rounds_broken"] = sum(round_broken(rd) for rd in rounds if rd["round"] > 1)
    return s


def render_md(results, s):
    """The table, the summary, the findings by kind and the defects seen."""
    md = table_md(results)
    md += "\n" + ", ".join(f"{k}: {v}" for k, v in s.items() if k != "findings_by_kind") + "\n"
    if s.get("findings_by_kind"):
        md += "\nfindings by kind (of them with a rewrite): " + ", ".join(
            f"{k} {v[0]} ({v[1]})" for k, v in s["findings_by_kind"].items()) + "\n"
    defects = [(r["program"], d) for r in results for d in r["ompdp_defects"]]
    if defects:
        md += "\nompdp defects:\n\n" + "".join(f"- {p}: {d}\n" for p, d in defects)
    notrun = [r for r in results if not r["ran"]]
    if notrun:
        md += "\nnot built or not run here:\n\n" + "".join(
            f"- {r['program']}: {md_escape(r['build_reason'] or r['run_reason'])}"
            + (f" ({r['why']})" if r.get("why") else "") + "\n" for r in notrun)
    return md


def regressed(r):
    """A fix that broke the program (any round), or a hang under ompdp: the
    quick mode's failure condition."""
    return bool(r.get("tool_hang")) or any(round_broken(rd) for rd in r.get("rounds", []))


def main():
    ap = argparse.ArgumentParser(description=__doc__ or "ompdp on HeCBench programs")
    ap.add_argument("programs", nargs="*", help="program names (aidw or aidw-omp); default all")
    ap.add_argument("--hecbench", help="HeCBench checkout (default: $OMPDP_HECBENCH, "
                    "else ../shared/realprogs/hecbench from the repository root)")
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="ompdp build directory")
    ap.add_argument("--work", help="scratch directory (default BUILD/realprogs)")
    ap.add_argument("--quick", action="store_true", help="only the quick programs: "
                    + ", ".join(QUICK))
    ap.add_argument("--timeout", type=int, default=60, help="seconds per plain run")
    ap.add_argument("--tool-factor", type=int, default=3,
                    help="a run under ompdp may take this many times --timeout")
    ap.add_argument("--build-timeout", type=int, default=600)
    ap.add_argument("--rounds", type=int, default=1,
                    help="apply the fixed program's own rewrites again, up to this many rounds "
                         "in all (rewrites of one construct may conflict and wait for the next)")
    ap.add_argument("--out", help="where results.md and results.json go (default: the work dir; "
                    "--quick writes quick-results.*)")
    ap.add_argument("--render", metavar="RESULTS.json",
                    help="only write the markdown table of a results.json again (to stdout)")
    a = ap.parse_args()
    if a.render:
        with open(a.render) as f:
            data = json.load(f)
        sys.stdout.write(render_md(data["programs"], summary(data["programs"])))
        return 0

    hec = a.hecbench or os.environ.get("OMPDP_HECBENCH")
    if not hec:
        cands = [os.path.join(REPO, "..", "shared", "realprogs", "hecbench")]
        try:
            common = subprocess.run(["git", "-C", REPO, "rev-parse", "--git-common-dir"],
                                    capture_output=True, text=True).stdout.strip()
            if common:
                main_tree = os.path.dirname(os.path.abspath(os.path.join(REPO, common)))
                cands.append(os.path.join(main_tree, "..", "shared", "realprogs", "hecbench"))
        except OSError:
            pass
        hec = next((c for c in cands if os.path.isdir(os.path.join(c, "src"))), cands[0])
    hec = os.path.abspath(hec)
    if not os.path.isdir(os.path.join(hec, "src")):
        print(f"realprogs: SKIP: no HeCBench checkout at {hec} (no src/ folder); "
              "give one with --hecbench DIR or OMPDP_HECBENCH")
        return SKIP_STATUS
    a.build = os.path.abspath(a.build)
    a.ompdp = os.path.join(a.build, "bin", "ompdp")
    for need in (a.ompdp, os.path.join(a.build, "lib", "ompdp.cfg"),
                 os.path.join(a.build, "lib", "ompdp.so")):
        if not os.path.exists(need):
            print(f"realprogs: error: {need} is missing: build ompdp first", file=sys.stderr)
            return 2
    if not shutil.which(CXX):
        print(f"realprogs: error: {CXX} not found", file=sys.stderr)
        return 2
    a.work = os.path.abspath(a.work or os.path.join(a.build, "realprogs"))
    os.makedirs(a.work, exist_ok=True)
    write_wrapper(os.path.join(a.work, "cxx-ompdp"), a.build)

    allp = sorted(d for d in os.listdir(os.path.join(hec, "src")) if d.endswith("-omp"))
    if a.programs:
        names = []
        for p in a.programs:
            n = p if p.endswith("-omp") else p + "-omp"
            if n not in allp:
                print(f"realprogs: error: no program {n} in {hec}/src", file=sys.stderr)
                return 2
            names.append(n)
    elif a.quick:
        names = [p + "-omp" for p in QUICK if p + "-omp" in allp]
        if not names:
            print(f"realprogs: SKIP: none of the quick programs is in {hec}/src")
            return SKIP_STATUS
    else:
        names = allp
    yaml_tests = parse_benchmarks_yaml(os.path.join(hec, "benchmarks.yaml"))

    results = []
    t0 = time.monotonic()
    for i, n in enumerate(names):
        t1 = time.monotonic()
        try:
            r = check_program(n, a, hec, yaml_tests)
        except Exception as e:  # a harness bug must not lose the other programs
            r = check_program_error(n, e)
        results.append(r)
        with open(os.path.join(a.work, n, "result.json") if os.path.isdir(os.path.join(a.work, n))
                  else os.devnull, "w") as f:
            json.dump(r, f, indent=1)
        log(f"[{i + 1}/{len(names)}] {n}: {one_line(r)}  ({time.monotonic() - t1:.0f} s)")
    s = summary(results)
    out = a.out or a.work
    os.makedirs(out, exist_ok=True)
    meta = {"date": datetime.datetime.now().isoformat(timespec="seconds"),
            "hecbench": hec, "compiler": CXX + " " + " ".join(OFFLOAD) + " --config=ompdp.cfg -O2",
            "seconds": round(time.monotonic() - t0)}
    stem = "quick-results" if a.quick and not a.programs else "results"
    with open(os.path.join(out, stem + ".json"), "w") as f:
        json.dump({"meta": meta, "summary": s, "programs": results}, f, indent=1)
    md = render_md(results, s)
    with open(os.path.join(out, stem + ".md"), "w") as f:
        f.write(md)
    log("")
    log(md)
    log(f"results in {os.path.join(out, stem + '.md')} and {stem}.json ({meta['seconds']} s)")
    bad = [r for r in results if regressed(r)]
    if a.quick:
        bad += [r for r in results if not r["ran"] and r not in bad]
    if bad:
        log("FAILED: " + ", ".join(r["program"] for r in bad))
        return 1
    return 0


def check_program_error(n, e):
    import traceback
    return {"program": n, "built": False, "build_reason": "harness error: " + repr(e),
            "ran": False, "run_reason": "", "findings": {}, "rewrites_offered": 0,
            "rewrites_applied": 0, "fixed_built": None, "output_kept": None,
            "exit_kept": None, "files_kept": None, "hang": False, "tool_hang": False, "rounds": [], "transfers": {},
            "allocs": {}, "prediction_ok": None, "wall": {}, "notes": [traceback.format_exc()],
            "ompdp_defects": []}


def one_line(r):
    if not r["built"]:
        return "does not build: " + r["build_reason"]
    if not r["ran"]:
        return "does not run: " + r["run_reason"]
    parts = [f"findings {sum(r['findings'].values()) if r['findings'] else 0}",
             f"rewrites {r['rewrites_offered']}/{r['rewrites_applied']}"]
    if r["fixed_built"] is not None:
        parts.append("fixed " + ("builds" if r["fixed_built"] else "BREAKS: " + r["fixed_reason"]))
    if r["output_kept"] is not None:
        parts.append("output " + ("kept" if r["output_kept"] and r["exit_kept"] and
                                  r["files_kept"] is not False else "CHANGED"))
    if r["hang"]:
        parts.append("HANG")
    if r["prediction_ok"] is not None:
        parts.append("prediction " + ("ok" if r["prediction_ok"] else "MISSED"))
    return ", ".join(parts)


if __name__ == "__main__":
    sys.exit(main())
