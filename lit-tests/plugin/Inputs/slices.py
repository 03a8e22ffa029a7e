#===- slices.py - the source text at the dump's byte ranges --------------===#
#
# Usage: slices.py <dump>
# For each region of a region-table dump (-fplugin-arg-ompdp-dump), prints
# the bytes of its source file at the directive's, the loop's (first line),
# each clause's and each item's byte range, and the recorded file hash, so
# that FileCheck can check that the ranges are exact.
#
#===----------------------------------------------------------------------===#
import re
import sys


def piece(path, span):
    off, length = (int(x) for x in span.split("+"))
    with open(path, "rb") as f:
        data = f.read()
    return data[off:off + length].decode()


region, items, loop = None, [], None
out = []


def flush(source, digest, directive):
    out.append("region %s directive=[%s] hash=%s" % (region, piece(source, directive), digest))
    if loop:
        out.append("  loop=[%s]" % piece(source, loop).split("\n")[0])
    for n, clause, item in items:
        out.append("  item %s clause=[%s] item=[%s]" % (
            n, piece(source, clause) if clause else "", piece(source, item) if item else ""))


with open(sys.argv[1]) as f:
    for line in f:
        m = re.match(r"region \S+ '.*' at (\S+) in", line)
        if m:
            region, items, loop = m.group(1).rsplit("/", 1)[-1], [], None
            continue
        m = re.match(r"  loop: .* bytes (\d+\+\d+)", line)
        if m:
            loop = m.group(1)
            continue
        m = re.match(r"  item (\d+): .*", line)
        if m:
            c = re.search(r" clause-bytes (\d+\+\d+)", line)
            i = re.search(r" item-bytes (\d+\+\d+)", line)
            items.append((m.group(1), c and c.group(1), i and i.group(1)))
            continue
        m = re.match(r"  source: '(.*)' hash (0x[0-9a-f]+) directive-bytes (\d+\+\d+)", line)
        if m:
            flush(m.group(1), m.group(2), m.group(3))
print("\n".join(out))
