#!/usr/bin/env python3
# ===- library_map.py - what docs/architecture.md says each library holds --===#
#
# Reads the table of docs/architecture.md's section "What each library
# holds" (a file of the build directory per row, the symbols it holds and
# the symbols it never holds nor calls, each in backquotes, `name*` for a
# prefix) and checks every row with nm: a symbol it holds must be defined
# in the file, a symbol it never holds must not appear in it at all,
# defined or undefined. Every library the build made (lib/*.a, lib/*.so)
# must have its row, so that a new library is mapped too. Prints one line
# per row and exits 1 at the first file that does not match (after
# checking them all).
#
# usage: library_map.py ARCHITECTURE.md BUILD_DIR
#
# ===----------------------------------------------------------------------===#
import fnmatch
import os
import re
import shutil
import subprocess
import sys

SECTION = "## What each library holds"


def table_rows(doc):
    with open(doc) as f:
        lines = f.read().splitlines()
    try:
        start = lines.index(SECTION)
    except ValueError:
        sys.exit("library_map: %s has no section '%s'" % (doc, SECTION))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not line.startswith("|") or set(line) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3 or cells[0] == "file":
            continue
        names = [re.findall(r"`([^`]+)`", c) for c in cells]
        if len(names[0]) != 1:
            sys.exit("library_map: a row names no single file: %s" % line)
        rows.append((names[0][0], names[1], names[2]))
    if not rows:
        sys.exit("library_map: the section '%s' of %s has no table" % (SECTION, doc))
    return rows


def symbols(nm, path):
    """name -> set of nm types (U for undefined)."""
    out = subprocess.run([nm, "--no-demangle", path], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("library_map: %s %s failed: %s" % (nm, path, out.stderr.strip()))
    syms = {}
    for line in out.stdout.splitlines():
        parts = line.split()
        if len(parts) < 2 or line.endswith(":"):
            continue  # "member.o:" lines of an archive
        syms.setdefault(parts[-1], set()).add(parts[-2])
    return syms


def matching(syms, pattern):
    return [s for s in syms if fnmatch.fnmatchcase(s, pattern)]


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: library_map.py ARCHITECTURE.md BUILD_DIR")
    doc, build = sys.argv[1], os.path.normpath(sys.argv[2])  # lexically: lib/x.so/../..
    nm = shutil.which("llvm-nm") or shutil.which("llvm-nm-19") or shutil.which("nm")
    if not nm:
        sys.exit("library_map: no nm on PATH")
    rows = table_rows(doc)
    bad = 0
    mapped = set()
    for rel, holds, never in rows:
        mapped.add(rel)
        path = os.path.join(build, rel)
        if not os.path.exists(path):
            print("MISSING %s: the build has no such file" % rel)
            bad += 1
            continue
        syms = symbols(nm, path)
        problems = []
        for p in holds:
            if not any(t not in ("U", "w", "v") for s in matching(syms, p) for t in syms[s]):
                problems.append("does not hold %s" % p)
        for p in never:
            found = matching(syms, p)
            if found:
                problems.append("has %s (%s)" % (p, ", ".join(sorted(found)[:3])))
        if problems:
            print("WRONG %s: %s" % (rel, "; ".join(problems)))
            bad += 1
        else:
            print("ok %s: %d held, %d never" % (rel, len(holds), len(never)))
    libdir = os.path.join(build, "lib")
    for name in sorted(os.listdir(libdir)) if os.path.isdir(libdir) else []:
        rel = "lib/" + name
        if (name.endswith(".a") or name.endswith(".so")) and rel not in mapped:
            print("UNMAPPED %s: no row in %s" % (rel, doc))
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
