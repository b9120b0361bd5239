#!/usr/bin/env python3
"""Print gen/git/git_pack_code.h: the symbol counts of a site's small files.

    python3 tests/tools/huffcounts.py build/example/site > gen/git/git_pack_code.h

The pack writer compresses objects under MGIT_PACK_SMALL bytes with
igzip's level 0 and one fixed Huffman code (git_pack.c); this counts,
with ISA-L's own isal_update_histogram, the literal/length and distance
symbols of every file under 64 KiB of DIR (in path order), the counts
that code is made from. Run it on `make example`'s site after a change of
the templates or themes has made their pages read differently; the pack
streams stay valid whatever the counts, only their size moves.
"""
import ctypes
import os
import sys

LIT_LEN, DIST, HASH = 286, 30, 8 * 1024


class Histogram(ctypes.Structure):
    _fields_ = [("lit_len", ctypes.c_uint64 * LIT_LEN),
                ("dist", ctypes.c_uint64 * DIST),
                ("hash_table", ctypes.c_uint16 * HASH)]


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: huffcounts.py SITE_DIR")
    isal = ctypes.CDLL("libisal.so.2")
    isal.isal_update_histogram.argtypes = [ctypes.c_char_p, ctypes.c_int,
                                           ctypes.POINTER(Histogram)]
    isal.isal_update_histogram.restype = None
    h = Histogram()
    paths = sorted(os.path.join(d, f) for d, _, fs in os.walk(sys.argv[1])
                   for f in fs)
    files = 0
    for p in paths:
        with open(p, "rb") as fp:
            data = fp.read()
        if 0 < len(data) < 64 * 1024:
            isal.isal_update_histogram(data, len(data), ctypes.byref(h))
            files += 1

    def rows(name, counts):
        out = ["static const uint64_t %s[%d] = {" % (name, len(counts))]
        line = "\t"
        for i, c in enumerate(counts):
            item = "%d," % c
            if len(line) + len(item) + 1 > 72:
                out.append(line.rstrip())
                line = "\t"
            line += item + " "
        out.append(line.rstrip())
        out.append("};")
        return out

    print("/*")
    print(" * git_pack_code.h: the symbol counts igzip's Huffman code for small")
    print(" * pack entries is made from (git_pack.c), counted by")
    print(" * tests/tools/huffcounts.py on the %d files under 64 KiB of the" % files)
    print(" * example's site. Data, not code: included by git_pack.c alone.")
    print(" */")
    print("#ifndef MIRROR_GIT_PACK_CODE_H")
    print("#define MIRROR_GIT_PACK_CODE_H")
    print()
    print("#include <stdint.h>")
    print()
    print("\n".join(rows("pack_code_lit_len", list(h.lit_len))))
    print()
    print("\n".join(rows("pack_code_dist", list(h.dist))))
    print()
    print("#endif")


if __name__ == "__main__":
    main()
