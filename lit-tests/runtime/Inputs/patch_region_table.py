"""patch_region_table.py - corrupt the region table of a built program.

usage: patch_region_table.py IN OUT pool|items|size

Copies IN to OUT with the first region table (found by its magic,
"OMPDPRT1" little endian) broken one way: `pool` overwrites the string
pool's last byte (a NUL), `items` sets the first region's FirstItem to
0xffffffff, `size` adds 8 to the header's ItemSize. Offsets come from the
header itself (field order of include/ompdp/OmpdpFormat.inc).
"""
import os
import struct
import sys

MAGIC = struct.pack("<Q", 0x4F4D504450525431)


def main():
    src, dst, how = sys.argv[1:4]
    data = bytearray(open(src, "rb").read())
    t = data.find(MAGIC)
    if t < 0:
        sys.exit("no region table in " + src)
    (version, header_size, region_size, item_size, num_regions, num_items, strings_size,
     total_size) = struct.unpack_from("<8I", data, t + 8)
    if how == "pool":
        data[t + total_size - 1] = ord("X")
    elif how == "items":
        # FirstItem: the record's fields are 4 uint64_t, then uint32_t
        # Kind, Flags, File, Function, Line, Column, EndLine, EndColumn,
        # LoopKind, LoopLine, LoopColumn, LoopEndLine, LoopEndColumn,
        # FirstItem.
        struct.pack_into("<I", data, t + header_size + 32 + 13 * 4, 0xFFFFFFFF)
    elif how == "size":
        struct.pack_into("<I", data, t + 20, item_size + 8)
    else:
        sys.exit("unknown corruption " + how)
    open(dst, "wb").write(data)
    os.chmod(dst, 0o755)


if __name__ == "__main__":
    main()
