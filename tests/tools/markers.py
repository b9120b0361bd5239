#!/usr/bin/env python3
"""markers.py SITE: the disputed markers of a built site are exactly right.

From api/conflicts/projects/*.json it takes every OPEN conflict and its
members.
Then, on every HTML page and its Markdown twin (the A-Z pages, keys/,
a finder for browsers, each project's decision log and subsystems
page, which regroup its overview's facts, and the projects by open
conflicts, which reorder the list by name, are HTML only, with no twin
to compare):
  - every marker (a.disputed in HTML, a "[⚠ disputed](...conflicts/X.md)"
    link in Markdown) sits in the element of a fact (li or tr id / the
    list item's or table row's leading anchor) that is a member of that open conflict,
    or, in a list item of no id (the overview's Links), follows a link to
    such a fact (its #fragment) in the same item;
  - the HTML page and its twin carry the same (fact, conflict) pairs;
  - on the page where a member fact lives (its project's overview, or the
    index for rows of no project), the fact carries a marker.
Closed conflicts therefore show no marker. Prints what is wrong, exits 1.
"""
import html.parser
import json
import os
import re
import sys

from api_conflicts import conflicts as site_conflicts
from mdfence import outside_fences

site = sys.argv[1]
conflicts = site_conflicts(site)
open_of = {}        # fact anchor -> set of open conflict slugs
home = []           # (page, anchor) where a member of an open conflict lives
for c in conflicts:
    if not c["open"]:
        continue
    for m in c["members"]:
        open_of.setdefault(m["anchor"], set()).add(c["slug"])
        if m["page"] is not None:
            home.append((m["page"], m["anchor"]))


class Markers(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []     # [id, fragment of the last link] of open li/tr
        self.pairs = set()

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("li", "tr"):
            self.stack.append([a.get("id"), None])
        if tag == "a" and "disputed" in (a.get("class") or "").split():
            m = re.search(r"conflicts/([a-z0-9-]+)\.html$", a.get("href", ""))
            if self.stack and self.stack[-1][0] is None and self.stack[-1][1]:
                fact = self.stack[-1][1]
            else:
                fact = next((i for i, _ in reversed(self.stack) if i), None)
            self.pairs.add((fact, m.group(1) if m else a.get("href")))
        elif tag == "a" and self.stack and "#" in a.get("href", ""):
            self.stack[-1][1] = a["href"].rsplit("#", 1)[1]

    def handle_endtag(self, tag):
        if tag in ("li", "tr") and self.stack:
            self.stack.pop()


# A list item without an anchor: each marker marks the fact of the link
# before it. A link starts at a '[' no backslash escapes, and its text
# holds no unescaped bracket (store text on a page is escaped: "\[").
LINK = re.compile(r'(?<!\\)\[((?:\\.|[^\[\]\\])*)\]\(([^)\s]*)\)')
MD = re.compile(r'^\s*(?:- |\| )<a id="([a-z0-9-]+)"></a>.*\[⚠ disputed\]\([^)]*conflicts/([a-z0-9-]+)\.md\)')
bad = []
pages = {}
for d, _, files in os.walk(site):
    for f in files:
        if not f.endswith(".html"):
            continue
        path = os.path.join(d, f)
        rel = os.path.relpath(path, site)[:-5]
        p = Markers()
        p.feed(open(path, encoding="utf-8").read())
        pages[rel] = p.pairs
        md = set()
        mdpath = path[:-5] + ".md"
        if rel.startswith("keys/") or re.match(
                r"projects/([^/]+/(decisions|subsystems)|index\.conflicts"
                r"(\.page-[0-9]+)?)$", rel):
            if os.path.exists(mdpath):
                bad.append(f"{rel}.md: an HTML-only page has a Markdown twin")
            continue
        for _, line in outside_fences(open(mdpath, encoding="utf-8")):
            m = MD.match(line)
            if m:
                md.add((m.group(1), m.group(2)))
            elif re.match(r"^\s*- (?!<a id=)", line) and "[⚠ disputed](" in line:
                last = None
                for k in LINK.finditer(line):
                    c = re.search(r"conflicts/([a-z0-9-]+)\.md$", k.group(2))
                    if k.group(1) == "⚠ disputed" and c and last:
                        md.add((last, c.group(1)))
                    elif k.group(1) == "⚠ disputed":
                        bad.append(f"{rel}.md: a marker after no link: {line.strip()[:80]}")
                    elif "#" in k.group(2):
                        last = k.group(2).rsplit("#", 1)[1]
            elif "[⚠ disputed](" in line:
                bad.append(f"{rel}.md: a marker outside a fact item: {line.strip()[:80]}")
        if md != p.pairs:
            bad.append(f"{rel}: the twins differ: html {sorted(p.pairs)} md {sorted(md)}")
        for fact, slug in p.pairs:
            if fact is None or slug not in open_of.get(fact.removeprefix("member-"), set()):
                bad.append(f"{rel}: marker of {fact} to {slug} is not an open conflict of that fact")
for page, anchor in home:
    if not any(f == anchor for f, _ in pages.get(page, ())):
        bad.append(f"{page}: member {anchor} of an open conflict has no marker")
for b in bad[:20]:
    print(b)
print(f"markers: {sum(len(v) for v in pages.values())} markers, "
      f"{len(home)} member facts checked, {len(bad)} wrong")
sys.exit(1 if bad else 0)
