#!/usr/bin/env python3
"""The hosting budget of issue 59, scaled: from the sites of two bench
stores (A facts, then B facts, same generator), project the site of
1,000,000 and of 100,000 facts and check it against the hosts' limits.

    site_budget.py SITE_A FACTS_A SITE_B FACTS_B

The generator grows every part of the store in proportion (a project a
200 facts, a conflict for about 2% of the slots), so each measure of
the site is a line through the two sites: what a site of N facts holds
is A's + (N - FACTS_A) * (B's - A's) / (FACTS_B - FACTS_A). The largest
file is not a line (a page of bounded size fills, then stops growing):
each measured site's largest file must be within the limit scaled to
its facts, 25 MiB * FACTS / 1,000,000, which a list that grows with the
store would pass at 1M too. Prints the figures; exits 1 naming each
budget passed.
"""
import os
import sys

MIB = 1 << 20
# The line falls short of the 1M site the bench builds: on 417e574 it
# projected 981.7 MB where make bench BENCH=full counted 1,000.5 MB
# (1.9% more; on 0b28b4e 995.7 against 1,013.1, 1.75%). So the bytes a
# projection may reach are the hosts' 1 GB less 2%: a projection that
# passes is a 1M site that fits.
BYTES_SHORT = 0.02
# (facts, what, limit): issue 59's budgets, the hosts' limits.
BUDGETS = [
    (1000000, "files and folders", 100000),   # Cloudflare Pages (paid)
    (1000000, "bytes", int(1000 * 1000 * 1000 * (1 - BYTES_SHORT))),
                                               # GitHub Pages, GitLab Pages
    (100000, "files", 20000),                  # Cloudflare Pages (free)
]


def measure(site):
    """files, folders, bytes and each file's size of the site."""
    sizes, folders = {}, 0
    for root, dirs, files in os.walk(site):
        folders += len(dirs)
        for f in files:
            p = os.path.join(root, f)
            sizes[os.path.relpath(p, site)] = os.path.getsize(p)
    return {"files": len(sizes), "folders": folders,
            "bytes": sum(sizes.values()), "sizes": sizes}


def main():
    a, na, b, nb = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
    ma, mb = measure(a), measure(b)

    def at(n, key):
        return ma[key] + (n - na) * (mb[key] - ma[key]) / (nb - na)

    bad = []
    for n, what, limit in BUDGETS:
        if what == "files and folders":
            got = at(n, "files") + at(n, "folders")
        else:
            got = at(n, what)
        ok = got <= limit
        print("%s %d facts: %s %.0f (budget %d)" % (
            "ok" if ok else "OVER", n, what, got, limit))
        if not ok:
            bad.append("%s at %d facts: %.0f, over %d" % (what, n, got, limit))
    for m, n in ((ma, na), (mb, nb)):
        size, path = max((v, k) for k, v in m["sizes"].items())
        limit = 25 * MIB * n // 1000000          # Cloudflare Pages, scaled
        print("%s %d facts: %d files, %d folders, %d bytes, largest %d "
              "(%s; budget %d)" % ("ok" if size <= limit else "OVER", n,
                                   m["files"], m["folders"], m["bytes"],
                                   size, path, limit))
        if size > limit:
            bad.append("largest file at %d facts: %s, %d bytes, over %d"
                       % (n, path, size, limit))
    if bad:
        print("\n".join(bad), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
