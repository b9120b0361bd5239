#!/usr/bin/env python3
"""site_overview.py SITE CASE: one named check over every project
overview of a built site (issue 20, item 2); prints what it found wrong
and exits 1, else exits 0.

Cases: disputed (what is disputed here, linked, and the open checks count), toc
(the contents link to heading ids), rows (facts as table rows with their
ids), svg (the diagram well-formed, linked only to the project's open
conflicts), words (plurals, no "*active*" beside "expired"), tables
(every Markdown table row has the header's cells). Used by
tests/e2e/t_site_overview.sh on the example and on a 10,000-fact bench
site.
"""
import glob, json, os, re, sys
import xml.etree.ElementTree as E
site, what = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_conflicts import conflicts as site_conflicts
from api_facts import facts as api_facts
conflicts = site_conflicts(site)
bad = []
for path in sorted(glob.glob(os.path.join(site, "projects", "*", "index.html"))):
    slug = path.split(os.sep)[-2]
    html = open(path, encoding="utf-8").read()
    md = open(path[:-5] + ".md", encoding="utf-8").read()
    d = json.load(open(os.path.join(site, "api", "projects", slug + ".json")))
    pid = d["project"]["id"]
    want = [c for c in conflicts if c["open"] and c["project"] == pid]
    facts = [f for f in api_facts(d) if f["layer"] != "relationship"]
    anchors = {f'{f["layer"]}-{f["slug"] or f["id"]}' for f in facts}
    # The diagram's nodes: its active systems, subsystems and components.
    arch = [f for f in facts if f["layer"] == "entity" and f["status"] == "active"
            and f["type"] in ("system", "subsystem", "component")]
    svgs = re.findall(r"<svg.*?</svg>", html, flags=re.S)
    if what == "disputed":
        # Each open conflict of the project, its name linked and its
        # sides, in the one form its own page says them (the name and
        # the sides as found, each with its value now where it
        # changed), in the queue's order; and only those.
        sec = md.split("## <a id=\"disputed\"></a>Disputed here", 1)
        if (len(sec) == 2) != bool(want):
            bad.append(f"{slug}: a 'Disputed here' section with {len(want)} open conflicts")
        got = re.findall(r'^- \[(.*)\]\(\.\./\.\./conflicts/([a-z0-9-]+)\.md\): (.*)$',
                         sec[-1].split("\n## ", 1)[0], flags=re.M) if len(sec) == 2 else []
        if [s for _, s, _ in got] != [c["slug"] for c in want]:
            bad.append(f"{slug}: disputed {[s for _, s, _ in got]} vs {[c['slug'] for c in want]}")
        for q, s, sides in got:
            c = {x["slug"]: x for x in conflicts}[s]
            if (q, sides) != ("**%s**" % c["name_md"], c["sides_md"]):
                bad.append(f"{slug}: {q!r}: {sides!r} is not the name and sides of {s}")
        n = len(d["project"]["open_checks"])
        # The Gaps are the project's open violations (doc/rules.md).
        words = "No gaps found." if n == 0 else f"[{n} open check{'s' if n != 1 else ''}](#gaps)"
        if words not in md.split("## <a id=\"state\">")[0]:
            bad.append(f"{slug}: no {words!r} at the top")
    elif what == "toc":
        # The contents (a nav of its own) link to exactly the ids of
        # the sections the page has: none empty, none missing.
        toc = re.search(r'^<nav class="toc" aria-label="Contents">\n(.*?)^</nav>$',
                        md, flags=re.M | re.S)
        ids = set(re.findall(r'<h2 id="([a-z-]+)">', html))
        frags = re.findall(r"\]\(#([a-z-]+)\)", toc.group(1)) if toc else []
        if not frags or set(frags) != ids or len(frags) != len(ids):
            bad.append(f"{slug}: contents {frags} vs heading ids {sorted(ids)}")
    elif what == "rows":
        # Every fact of the overview but the architecture list is a
        # table row with its id; every architecture item a list item.
        rows = set(re.findall(r'<tr id="([a-z0-9-]+)"', html))
        items = set(re.findall(r'<li id="([a-z0-9-]+)"', html))
        if rows | items != anchors or rows & items or \
                not {f'entity-{f["slug"] or f["id"]}' for f in arch} <= items:
            bad.append(f"{slug}: rows {len(rows)}, items {len(items)}, facts {len(anchors)}")
    elif what == "svg":
        if len(svgs) != (1 if arch else 0):
            bad.append(f"{slug}: {len(svgs)} diagrams for {len(arch)} nodes")
        for s in svgs:
            root = E.fromstring(s)
            ns = "{http://www.w3.org/2000/svg}"
            title = root.find(ns + "title")
            vb = root.get("viewBox", "").split()
            links = [a.get("href") for a in root.iter(ns + "a")]
            if title is None or root.get("aria-labelledby") != title.get("id") or \
                    not title.text.startswith("System architecture of "):
                bad.append(f"{slug}: the diagram has no title it is labelled by")
            if root.get("role") != ("group" if links else "img"):
                bad.append(f"{slug}: role {root.get('role')} with {len(links)} links")
            if len(vb) != 4 or vb[2:] != [root.get("width"), root.get("height")]:
                bad.append(f"{slug}: viewBox {vb}")
            opened = {f"../../conflicts/{c['slug']}.html" for c in want}
            if not set(links) <= opened:
                bad.append(f"{slug}: diagram links {set(links) - opened} are no open conflict of it")
            boxes = len(re.findall(r'rx="6"', s))
            if not 0 < boxes <= len(arch):
                bad.append(f"{slug}: {boxes} boxes for {len(arch)} nodes")
        if "<svg" in md or ("<!-- figure:diagram -->" in md) != bool(arch):
            bad.append(f"{slug}: the .md twin holds SVG, or its placeholder is wrong")
    elif what == "tables":
        cols = None
        for line in md.splitlines():
            if not line.startswith("| "):
                cols = None
                continue
            n = len(re.findall(r"(?<!\\)\|", line))
            cols = cols or n
            if n != cols:
                bad.append(f"{slug}.md: {n} cells, not {cols}: {line[:60]!r}")
    elif what == "words":
        for w in (r"\b1 memories", r"\b1 entities", r"\b1 trusted state facts",
                  r"\b1 open conflicts", r"\b1 gaps", r"referenced 1 times",
                  r"\*active\*"):
            for f, text in (("html", html), ("md", md)):
                if re.search(w, text):
                    bad.append(f"{slug}.{f}: {w}")
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
