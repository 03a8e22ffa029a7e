#!/usr/bin/env python3
# ===- check_profile.py - a profile that `ompdp calibrate` wrote ------------===#
#
# usage: check_profile.py PROFILE
#
# Checks the file as a reader other than ompdp would: the header line first,
# a name, every operation the helper measures present, sizes strictly
# increasing from 8 bytes, every time positive and finite. Prints one line
# per operation (points, first and last size) for FileCheck, and exits 1
# with the reason on anything else.
#
# ===----------------------------------------------------------------------===#
import math
import sys

OPS = ["h2d_pageable", "h2d_pinned", "d2h_pageable", "d2h_pinned", "d2d", "alloc", "free"]


def fail(msg):
    print("check_profile: " + msg)
    sys.exit(1)


lines = [l.rstrip("\n") for l in open(sys.argv[1])]
body = [l for l in lines if l.strip() and not l.startswith("#")]
if not body or body[0] != "ompdp-device-profile 1":
    fail("the first line is not the header")
names = [l.split()[1] for l in body if l.startswith("name ")]
if len(names) != 1:
    fail("not exactly one name")
points = {op: [] for op in OPS}
for l in body[1:]:
    f = l.split()
    if f[0] in ("name", "alias", "description"):
        continue
    if f[0] not in points or f[1] != "point" or len(f) != 4:
        fail("unexpected line: " + l)
    size, t = int(f[2]), float(f[3])
    if not (t > 0 and math.isfinite(t)):
        fail("a time that is not positive: " + l)
    points[f[0]].append(size)
for op in OPS:
    p = points[op]
    if not p:
        fail("no points for " + op)
    if any(b <= a for a, b in zip(p, p[1:])):
        fail("sizes do not increase for " + op)
    if p[0] != 8:
        fail("the first size of %s is %d, not 8" % (op, p[0]))
    print("%s: %d points, %d to %d bytes" % (op, len(p), p[0], p[-1]))
print("name: " + names[0])
