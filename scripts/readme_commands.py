#!/usr/bin/env python3
# ===- readme_commands.py - every command line of README.md, run as written -===#
#
# A new user copies the README's command lines. This runs each one as
# written, with bash, from a directory that stands for the repository's
# root: build/, scripts/ and samples/ are the repository's (build/ the build
# directory given), prog.c is the paper's listings (samples/listings.c),
# the program `prog` and its reports are made as the README makes them.
# Every line must exit with status 0, or the run fails, naming the line and
# its output.
#
# Lines are taken from the README's fenced blocks; a block whose first line
# is not a command is a sample of output, and is skipped. Blocks run in the
# README's order (a line that merges the MPI ranks' reports, after the
# block that makes them); before each block, prog.c and prog are made again
# as they were (a block that applies fixes edits them). Lines that build in
# the repository (scripts/demo.sh, the configurations below) run from its
# root. An editor's session is fed to `ompdp lsp` on its
# standard input (initialize, shutdown, exit). Some lines cannot run here,
# each skipped with its reason on the output, never silently:
#   - `bash scripts/test.sh`: it runs the test suite that runs this script
#     (it is checked with bash -n);
#   - the sanitizer and fuzzing configurations (cmake -B build-asan,
#     build-tsan, scripts/fuzz.sh): minutes of building each; they run, from
#     the repository's root, with --long (scripts/test.sh runs the same
#     configurations in its asan, fuzz and tsan stages);
#   - the NVIDIA build without a CUDA toolkit, MPI lines without Open MPI
#     (mpicc, mpirun), `scripts/demo.sh` and `scripts/setup.sh` with a build
#     directory other than build/ (they build build/), or where packages
#     are missing (they would install them);
#   - `sudo` lines when not root and without sudo.
#
#   python3 scripts/readme_commands.py [--build DIR] [--long] [--keep]
#
# ===------------------------------------------------------------------------===#
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# A command line starts with a program (then a blank) or with a variable's
# assignment; "ompdp: ..." is output.
COMMAND = re.compile(r"^((ompdp|clang-19|bash|cmake|mpirun|python3|export|sudo)\s|[A-Z_]+=\S)")
LONG = (re.compile(r"^cmake .*build-(asan|tsan)"), re.compile(r"^bash scripts/fuzz\.sh"))
# Lines that build in the repository itself: run from its root.
BUILDS_ROOT = re.compile(r"(^|\s)bash scripts/(demo|setup)\.sh")
AT_ROOT = LONG + (BUILDS_ROOT, re.compile(r"^bash scripts/test\.sh"))


def blocks(readme):
    """The README's fenced blocks of commands: lists of lines."""
    out = []
    for b in re.findall(r"^```[a-z]*\n(.*?)^```", readme, re.S | re.M):
        lines = [l for l in b.splitlines() if l.strip()]
        if lines and COMMAND.match(lines[0]):
            out.append(lines)
    return out


def lsp_session():
    msgs = [{"jsonrpc": "2.0", "id": 1, "method": "initialize",
             "params": {"processId": None, "rootUri": None, "capabilities": {}}},
            {"jsonrpc": "2.0", "method": "initialized", "params": {}},
            {"jsonrpc": "2.0", "id": 2, "method": "shutdown"},
            {"jsonrpc": "2.0", "method": "exit"}]
    data = b""
    for m in msgs:
        body = json.dumps(m).encode()
        data += b"Content-Length: %d\r\n\r\n" % len(body) + body
    return data


class Runner:
    def __init__(self, build, work, long_lines):
        self.build = build
        self.work = work
        self.long = long_lines
        self.env = dict(os.environ)
        self.ran = self.skipped = self.failed = 0
        self.plugin = os.path.exists(os.path.join(build, "lib", "ompdp.cfg"))

    def skip(self, line, why):
        self.skipped += 1
        print("SKIP  %s\n      (%s)" % (line, why), flush=True)

    def reason_to_skip(self, line):
        cmd = line.split("#")[0].strip()
        if cmd.startswith("bash scripts/test.sh"):
            rc = subprocess.run(["bash", "-n", os.path.join(REPO, "scripts", "test.sh")]).returncode
            return "it runs the test suite that runs this check; bash -n: %s" % (
                "ok" if rc == 0 else "SYNTAX ERROR")
        if any(p.search(cmd) for p in LONG) and not self.long:
            return "builds a sanitizer or fuzzing configuration (minutes); --long runs it"
        if "ompdp-nvptx.cfg" in cmd:
            cfg = os.path.join(self.build, "lib", "ompdp-nvptx.cfg")
            cuda = [l.split("=", 1)[1].strip() for l in open(cfg)
                    if l.startswith("--cuda-path=")] if os.path.exists(cfg) else []
            if not cuda or not os.path.isdir(os.path.join(cuda[0], "bin")):
                return "no CUDA toolkit here (build/lib/ompdp-nvptx.cfg)"
        if ("mpicc" in cmd or cmd.startswith("mpirun")) and not (
                shutil.which("mpicc") and shutil.which("mpirun")):
            return "no Open MPI here (mpicc, mpirun)"
        if "--config=build/lib/ompdp.cfg" in cmd and not self.plugin:
            return "the compiler plugin was not built (build/lib/ompdp.cfg)"
        if cmd.startswith("ompdp merge") and not any(
                re.match(r"report\.\d+\.json$", f) for f in os.listdir(self.work)):
            return "DEFER"  # after the MPI block, which makes the ranks' reports
        if BUILDS_ROOT.search(cmd):
            if os.path.realpath(self.build) != os.path.realpath(os.path.join(REPO, "build")):
                return "it builds build/, and this check runs from %s" % self.build
            if subprocess.run(["bash", os.path.join(REPO, "scripts", "setup.sh"), "--check"],
                              capture_output=True).returncode:
                return "packages are missing: it would install them (scripts/setup.sh --check)"
        if cmd.startswith("sudo") and os.getuid() != 0 and not shutil.which("sudo"):
            return "not root, and no sudo"
        if "fresh-machine.sh" in cmd:
            return "it makes a whole Debian with debootstrap (network, minutes)"
        return None

    def reset(self):
        """prog.c and prog as the README's compile lines make them."""
        shutil.copy(os.path.join(REPO, "samples", "listings.c"), os.path.join(self.work, "prog.c"))
        flags = "--config=build/lib/ompdp.cfg " if self.plugin else ""
        with open(os.path.join(self.work, "Makefile"), "w") as f:
            f.write("prog: prog.c\n\tclang-19 %s-fopenmp -fopenmp-targets=x86_64-pc-linux-gnu "
                    "prog.c -o prog -Wl,-rpath,/usr/lib/llvm-19/lib\n" % flags)
        subprocess.run(["make", "-s", "-B", "prog"], cwd=self.work, check=True,
                       stdout=subprocess.DEVNULL)
        # `ompdp diff before.json after.json` in the usage list, before the
        # block that makes them: two runs of prog.
        for name in ("before.json", "after.json"):
            if not os.path.exists(os.path.join(self.work, name)):
                subprocess.run([os.path.join(self.build, "bin", "ompdp"), "run", "--format=json",
                                "-o", name, "--", "./prog"], cwd=self.work, check=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def run(self, line, deferred=None):
        why = self.reason_to_skip(line)
        if why == "DEFER" and deferred is not None:
            deferred.append(line)
            return
        if why:
            self.skip(line, why if why != "DEFER" else "no MPI reports to merge (no Open MPI)")
            return
        cmd = line.split("  #")[0].rstrip() if "  #" in line else line
        cwd = REPO if any(p.search(cmd) for p in AT_ROOT) else self.work
        stdin = lsp_session() if re.match(r"ompdp lsp\b", cmd) else b""
        if cmd.startswith("export "):
            # Its effect stays for the lines after it, as in a shell.
            p = subprocess.run(["bash", "-c", line + "\nenv -0"], cwd=cwd, env=self.env,
                               capture_output=True)
            if p.returncode == 0:
                self.env = dict(kv.split("=", 1) for kv in p.stdout.decode().split("\0") if "=" in kv)
        else:
            p = subprocess.run(["bash", "-c", line], cwd=cwd, env=self.env, input=stdin,
                               capture_output=True, timeout=3600)
        self.ran += 1
        if p.returncode == 0:
            print("OK    %s" % line, flush=True)
            return
        self.failed += 1
        out = (p.stdout + p.stderr).decode(errors="replace")
        print("FAIL  %s\n      exit status %d:\n%s" % (
            line, p.returncode, "\n".join("      | " + l for l in out.splitlines()[-25:])),
            flush=True)


def main():
    ap = argparse.ArgumentParser(description="Run every command line of README.md as written.")
    ap.add_argument("--build", default=os.path.join(REPO, "build"), help="the build directory")
    ap.add_argument("--long", action="store_true",
                    help="also build the sanitizer and fuzzing configurations")
    ap.add_argument("--keep", action="store_true", help="keep the working directory")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    if not os.path.exists(os.path.join(build, "bin", "ompdp")):
        print("readme_commands.py: no ompdp in %s/bin: build it first" % build, file=sys.stderr)
        return 2
    with open(os.path.join(REPO, "README.md")) as f:
        found = blocks(f.read())
    work = tempfile.mkdtemp(prefix="ompdp-readme-")
    for name, target in (("build", build), ("scripts", os.path.join(REPO, "scripts")),
                         ("samples", os.path.join(REPO, "samples")),
                         ("benchmarks", os.path.join(REPO, "benchmarks"))):
        os.symlink(target, os.path.join(work, name))
    r = Runner(build, work, a.long)
    deferred = []
    try:
        # In the README's order, as a reader goes; a line that needs what a
        # later block makes (the MPI ranks' reports) runs after it.
        for b in found:
            r.reset()
            for line in b:
                r.run(line, deferred)
        r.reset()
        for line in deferred:
            r.run(line)
    finally:
        if a.keep:
            print("kept: %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("README.md: %d command lines run, %d failed, %d skipped (reasons above)" % (
        r.ran, r.failed, r.skipped))
    return 1 if r.failed else 0


if __name__ == "__main__":
    sys.exit(main())
