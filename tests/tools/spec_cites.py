#!/usr/bin/env python3
"""spec_cites.py: which tests cite each section of doc/spec.md.

    python3 tests/tools/spec_cites.py            a table: section, title,
                                                 the test files citing it
    python3 tests/tools/spec_cites.py --check    exit 1 unless the sections
                                                 no test cites are exactly
                                                 those doc/development.md
                                                 lists, each with a reason

A test cites section N (or N.M) when a line of it says "SPEC N",
"SPEC section N" or "doc/spec.md N" (a test's comment or its case's
name). A section with subsections is cited when it is cited itself or
every subsection is. The files searched: tests/e2e/*.sh,
tests/unit/*.c, tests/browser/*.js, tests/golden/*.sh.

doc/development.md holds the list under the heading "### Spec sections
no test cites": one line "- N (title): why no test can check it" a
section, or the single line "None." The check keeps that list honest
both ways: a section that lost its last test must be listed, and a
listed section that a test now cites must leave the list.
"""
import glob
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CITE = re.compile(r"(?:SPEC(?: section)?|doc/spec\.md) (\d+(?:\.\d+)?)\b")
HEAD = re.compile(r"^(##|###) (\d+(?:\.\d+)?)\.? (.*)$")
LISTED = re.compile(r"^- (\d+(?:\.\d+)?) \(([^)]*)\): (\S.*)$")


def sections():
    """[(number, title)] of doc/spec.md's numbered headings, in order."""
    out = []
    with open(os.path.join(TOP, "doc", "spec.md"), encoding="utf-8") as f:
        for line in f:
            m = HEAD.match(line.rstrip("\n"))
            if m:
                out.append((m.group(2), m.group(3)))
    return out


def citations():
    """{number: sorted [test file]} of every section a test cites."""
    cited = {}
    pats = ["tests/e2e/*.sh", "tests/unit/*.c", "tests/browser/*.js",
            "tests/golden/*.sh"]
    for pat in pats:
        for path in sorted(glob.glob(os.path.join(TOP, pat))):
            rel = os.path.relpath(path, TOP)
            with open(path, encoding="utf-8", errors="replace") as f:
                for n in CITE.findall(f.read()):
                    cited.setdefault(n, set()).add(rel)
    return {n: sorted(files) for n, files in cited.items()}


def uncited(secs, cited):
    """The numbers of the sections no test cites (see the module doc)."""
    out = []
    for num, _ in secs:
        subs = [n for n, _ in secs if n.startswith(num + ".")]
        if num in cited:
            continue
        if subs and all(s in cited for s in subs):
            continue
        out.append(num)
    return out


def listed():
    """{number: reason} of doc/development.md's list, or None when the
    heading is missing."""
    path = os.path.join(TOP, "doc", "development.md")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        i = lines.index("### Spec sections no test cites")
    except ValueError:
        return None
    out = {}
    for line in lines[i + 1:]:
        if line.startswith("#"):
            break
        m = LISTED.match(line)
        if m:
            out[m.group(1)] = m.group(3)
    return out


def main():
    secs = sections()
    cited = citations()
    missing = uncited(secs, cited)
    if "--check" not in sys.argv[1:]:
        for num, title in secs:
            files = cited.get(num, [])
            print("%-5s %-45s %s" % (num, title[:45],
                                      ", ".join(files) if files else
                                      ("(its subsections)" if num not in
                                       missing else "NONE")))
        return 0
    if not secs:
        print("spec_cites: doc/spec.md has no numbered sections")
        return 1
    have = listed()
    if have is None:
        print("spec_cites: doc/development.md has no heading "
              "'### Spec sections no test cites'")
        return 1
    bad = 0
    for num in missing:
        if num not in have:
            print("spec_cites: no test cites SPEC %s and doc/development.md"
                  " does not list it" % num)
            bad = 1
    for num in have:
        if num not in missing:
            print("spec_cites: doc/development.md lists SPEC %s, which a "
                  "test now cites (or which is no section): take it off"
                  % num)
            bad = 1
    if not bad:
        print("spec_cites: %d sections, %d cited by tests, %d listed with "
              "a reason" % (len(secs), len(secs) - len(missing),
                            len(missing)))
    return bad


if __name__ == "__main__":
    sys.exit(main())
