#!/usr/bin/env python3
"""spec_cites.py: which tests cite each section of doc/spec.md, and
each section of doc/*.md and the man page that makes a promise.

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

The same holds for the promises of the other docs (issue 71): a section
of doc/*.md (a "##" or "###" heading; not spec.md, done above, nor
development.md, which describes the tests themselves) or of the man
page doc/mirror.1 (".Sh" or ".Ss") makes a promise when a line of its
own text (up to the next heading) names a behaviour: "every", "never",
"at most", "exits N" / "exit status N", "names the/its/a/each ...". A
test cites such a section when it says 'doc/FILE, "TITLE"' (or
'doc/FILE ("TITLE"', a comment may break the line after the comma);
TITLE is the heading, or its start, case aside. doc/development.md
lists the promising sections no test cites under "### Doc promises no
test cites", one line '- doc/FILE "TITLE": why' a section, or "None.",
and --check keeps that list honest both ways too.
"""
import glob
import os
import re
import sys

TOP = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
CITE = re.compile(r"(?:SPEC(?: section)?|doc/spec\.md) (\d+(?:\.\d+)?)\b")
HEAD = re.compile(r"^(##|###) (\d+(?:\.\d+)?)\.? (.*)$")
LISTED = re.compile(r"^- (\d+(?:\.\d+)?) \(([^)]*)\): (\S.*)$")
PROMISE = re.compile(r"\b(every|never|at most|exits? (?:status )?\d|"
                     r"exit status \d|names (?:the|its|a|an|each|both|"
                     r"which|what)\b)", re.I)
DOC_CITE = re.compile(r"(doc/[A-Za-z0-9_-]+\.(?:md|1)),? \(?\"([^\"]{3,})\"")
DOC_LISTED = re.compile(r'^- (doc/\S+) "([^"]+)": (\S.*)$')
DOC_HEAD = "### Doc promises no test cites"
TESTS = ["tests/e2e/*.sh", "tests/unit/*.c", "tests/browser/*.js",
         "tests/golden/*.sh"]


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
    for pat in TESTS:
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


def doc_sections():
    """[(file, title, first promise line)] of the sections of doc/*.md
    (not spec.md nor development.md) and doc/mirror.1 whose own text
    holds a promise (see the module doc), in file order."""
    out = []
    files = sorted(glob.glob(os.path.join(TOP, "doc", "*.md")))
    files = [f for f in files if os.path.basename(f) not in
             ("spec.md", "development.md")]
    files.append(os.path.join(TOP, "doc", "mirror.1"))
    for path in files:
        rel = os.path.relpath(path, TOP)
        man = path.endswith(".1")
        title, first, fence = None, None, False
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if not man and line.startswith("```"):
                    fence = not fence
                m = (re.match(r"^\.S[hs] (.*)$", line) if man else
                     None if fence else re.match(r"^#{2,3} (.*)$", line))
                if m:
                    if title is not None and first is not None:
                        out.append((rel, title, first))
                    title, first = m.group(1).strip().strip('"'), None
                elif title is not None and first is None and \
                        PROMISE.search(line):
                    first = line.strip()
        if title is not None and first is not None:
            out.append((rel, title, first))
    return out


def doc_citations():
    """{(file, lower-case title as cited)}: every doc section a test
    cites; a comment's line break after the comma is joined."""
    out = set()
    for pat in TESTS:
        for path in sorted(glob.glob(os.path.join(TOP, pat))):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = re.sub(r"\n\s*(?:#|//|\*)\s*", " ", f.read())
            for doc, title in DOC_CITE.findall(text):
                out.add((doc, title.lower()))
    return out


def doc_uncited(secs, cited):
    """[(file, title)] of the promising sections no test cites."""
    out = []
    for doc, title, _ in secs:
        low = title.lower()
        if not any(d == doc and low.startswith(t) for d, t in cited):
            out.append((doc, title))
    return out


def doc_listed():
    """{(file, title): reason} of doc/development.md's doc list, or None
    when the heading is missing."""
    with open(os.path.join(TOP, "doc", "development.md"),
              encoding="utf-8") as f:
        lines = f.read().split("\n")
    try:
        i = lines.index(DOC_HEAD)
    except ValueError:
        return None
    out = {}
    for line in lines[i + 1:]:
        if line.startswith("#"):
            break
        m = DOC_LISTED.match(line)
        if m:
            out[(m.group(1), m.group(2))] = m.group(3)
    return out


def list_differs(missing, have, unlisted, stale):
    """1 with a line (unlisted % key, stale % key) for each key of
    missing not in have and each of have not in missing, else 0."""
    bad = 0
    for key in missing:
        if key not in have:
            print(unlisted % key)
            bad = 1
    for key in have:
        if key not in missing:
            print(stale % key)
            bad = 1
    return bad


def doc_check():
    """0 when the doc list is exactly the uncited promising sections,
    else 1 with a line a difference."""
    secs = doc_sections()
    missing = doc_uncited(secs, doc_citations())
    have = doc_listed()
    if have is None:
        print("spec_cites: doc/development.md has no heading '%s'"
              % DOC_HEAD)
        return 1
    bad = list_differs(missing, have,
                       'spec_cites: no test cites %s "%s" and '
                       "doc/development.md does not list it",
                       'spec_cites: doc/development.md lists %s "%s", '
                       "which a test now cites (or which makes no "
                       "promise): take it off")
    if not bad:
        print("spec_cites: %d doc sections make a promise, %d cited by "
              "tests, %d listed with a reason" % (len(secs), len(secs) -
                                                   len(missing),
                                                   len(missing)))
    return bad


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
        cited = doc_citations()
        for doc, title, _ in doc_sections():
            low = title.lower()
            ok = any(d == doc and low.startswith(t) for d, t in cited)
            print("%-20s %-45s %s" % (doc, title[:45],
                                      "cited" if ok else "NONE"))
        return 0
    if not secs:
        print("spec_cites: doc/spec.md has no numbered sections")
        return 1
    have = listed()
    if have is None:
        print("spec_cites: doc/development.md has no heading "
              "'### Spec sections no test cites'")
        return 1
    bad = list_differs(missing, have,
                       "spec_cites: no test cites SPEC %s and "
                       "doc/development.md does not list it",
                       "spec_cites: doc/development.md lists SPEC %s, "
                       "which a test now cites (or which is no section): "
                       "take it off")
    if not bad:
        print("spec_cites: %d sections, %d cited by tests, %d listed with "
              "a reason" % (len(secs), len(secs) - len(missing),
                            len(missing)))
    return bad | doc_check()


if __name__ == "__main__":
    sys.exit(main())
