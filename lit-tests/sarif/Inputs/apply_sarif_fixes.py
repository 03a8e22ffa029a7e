#!/usr/bin/env python3
"""apply_sarif_fixes.py - apply every fix of a SARIF log, as an editor would.

usage: apply_sarif_fixes.py LOG.sarif ROOT

Takes the replacements of all fixes of all results (a replacement that
several results share is made once), resolves each artifact against ROOT
(relative URIs) or as a file:// URI, and rewrites the files in place. Lines
and columns count from 1, columns in bytes of the line, the region's end is
exclusive. Used to check that ompdp's SARIF fixes and `ompdp fix --apply`
make the same change.
"""
import json
import os
import sys
from urllib.parse import unquote, urlparse


def path_of(loc, root):
    uri = loc["uri"]
    if uri.startswith("file://"):
        return unquote(urlparse(uri).path)
    return os.path.join(root, unquote(uri))


def offset(lines, line, col):
    return sum(len(l) for l in lines[:line - 1]) + col - 1


def main():
    log, root = sys.argv[1], sys.argv[2]
    with open(log) as f:
        sarif = json.load(f)
    edits = {}
    for run in sarif["runs"]:
        for res in run.get("results", []):
            for fix in res.get("fixes", []):
                for ch in fix["artifactChanges"]:
                    path = path_of(ch["artifactLocation"], root)
                    for rep in ch["replacements"]:
                        r = rep["deletedRegion"]
                        key = (r["startLine"], r["startColumn"], r["endLine"], r["endColumn"],
                               rep.get("insertedContent", {}).get("text", ""))
                        edits.setdefault(path, set()).add(key)
    for path, todo in edits.items():
        with open(path, "rb") as f:
            lines = f.read().decode("utf-8").splitlines(keepends=True)
        text = "".join(lines)
        spans = sorted(((offset(lines, a, b), offset(lines, c, d), t) for a, b, c, d, t in todo),
                       reverse=True)
        for start, end, t in spans:
            text = text[:start] + t + text[end:]
        with open(path, "wb") as f:
            f.write(text.encode("utf-8"))
        print("%s: %d replacement(s)" % (os.path.basename(path), len(spans)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
