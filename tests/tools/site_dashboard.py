#!/usr/bin/env python3
"""site_dashboard.py SITE CASE [ARG]: one named check of the index as a
dashboard and of the review queue (issue 20, items 1 and 3) on a built
site; prints what it found wrong and exits 1, else exits 0.

Cases for any site: headline, title, order, counts, plurals, chart,
queue. Cases that know the example store (site-example/): history,
case, entry. Used by tests/e2e/t_site_dashboard.sh on the example and on
a 10,000-fact bench site.
"""
import glob, json, os, re, sys
site, case = sys.argv[1], sys.argv[2]
def read(p): return open(os.path.join(site, p), encoding="utf-8").read()
def js(p): return json.load(open(os.path.join(site, p), encoding="utf-8"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from api_conflicts import conflicts as site_conflicts
conflicts = site_conflicts(site)
health = js("api/health.json")
index = read("index.md")
queue = read("conflicts/index.md")
# Each project's own queue pages, conflicts/projects/*.md, by path.
pages = {os.path.relpath(f, site): open(f, encoding="utf-8").read()
         for f in sorted(glob.glob(os.path.join(site, "conflicts", "projects", "*.md")))}
queue_all = "".join(pages.values())
# Every project: the rows of the projects list by name, page after page
# (projects/index.md, index.page-2.md, ...); the index's own table is
# the bounded "Where to look first".
def list_pages(first):
    out, f = [], first
    while f:
        text = read("projects/" + f)
        out.append(text)
        m = re.search(r"\[next\]\(([^)]*)\)", text)
        f = m.group(1) if m else None
    return out
by_name = list_pages("index.md")
rows = [l.replace("](", "](projects/", 1) for t in by_name
        for l in t.splitlines() if l.startswith("| [")]
worst = [l for l in index.splitlines() if l.startswith("| [")]
def cells(l): return [c.strip() for c in re.split(r"(?<!\\)\|", l)[1:-1]]
bad = []
open_n = sum(c["status"] == "open" for c in conflicts)
if case == "headline":
    want = "## %d open conflict%s" % (open_n, "" if open_n == 1 else "s")
    first = [l for l in index.splitlines() if l.startswith("## ")][0]
    if first != want:
        bad.append("first heading %r, not %r" % (first, want))
    if "open_conflicts_count" in index:
        bad.append("a raw field name on the index")
    if health["open_conflicts_count"] != open_n:
        bad.append("health.json says %d open" % health["open_conflicts_count"])
elif case == "title":
    t = re.search(r"<title>(.*?)</title>", read("index.html")).group(1)
    a, _, b = t.partition(" · ")
    if a == b:
        bad.append("the tab says %r" % t)
elif case == "order":
    # By name, not by a count: a row does not move when a count changes;
    # numbers in names as numbers ("Project 2" before "Project 10").
    if not by_name[0].startswith("# Projects by name"):
        bad.append("no title states the order")
    keys = [re.match(r"\[(.*?)\]", cells(l)[0]).group(1) for l in rows]
    def numeric(k): return [(0, int(x), "") if x.isdigit() else (1, 0, x)
                            for x in re.findall(r"\d+|\D+", k)]
    if keys != sorted(keys, key=numeric) or len(keys) < 2:
        bad.append("rows out of order: %r" % keys[:20])
    # The index: at most 12, worst first (open conflicts and errors).
    score = [int(cells(l)[1]) + int(cells(l)[2]) for l in worst]
    if len(worst) > 12 or score != sorted(score, reverse=True) or 0 in score:
        bad.append("where to look first: %r" % score)
elif case == "counts":
    if len(rows) != health["projects"]:
        bad.append("%d table rows, health.json says %d projects" % (len(rows), health["projects"]))
    total = 0
    for l in rows:
        c = cells(l)
        slug = re.search(r"\(projects/([^/]+)/index\.md\)", c[0]).group(1)
        p = js("api/projects/%s.json" % slug)["project"]
        mine = sum(x["status"] == "open" and x["project"] == p["id"] for x in conflicts)
        checks = len(p["open_checks"])
        got = [int(c[5]), int(c[6]), int(c[7]), int(c[1]), int(c[3])]
        want = [p["state_rows"], p["entity_rows"], p["memory_rows"], mine, checks]
        if got != want:
            bad.append("%s: row %r, JSON and conflicts say %r" % (slug, got, want))
        if not re.fullmatch(r"\d{4}-\d\d-\d\d", c[4]):
            bad.append("%s: latest change %r" % (slug, c[4]))
        total += int(c[1])
    loose = sum(x["status"] == "open" and x["project"] == "" for x in conflicts)
    if total + loose != open_n:
        bad.append("the table's open conflicts (%d) + %d of no project != %d" % (total, loose, open_n))
elif case == "story":
    # Each project with open conflicts has its block under the
    # headline: its first three questions in the queue's order, linked,
    # then "and N more"; its open checks linked to its own list.
    # Only the projects of "Where to look first" have a block.
    head = index.split("\n## Projects", 1)[0]
    named = set(re.search(r"\(projects/([^/]+)/", cells(l)[0]).group(1)
                for l in worst)
    for l in rows:
        c = cells(l)
        slug = re.search(r"\(projects/([^/]+)/index\.md\)", c[0]).group(1)
        d = js("api/projects/%s.json" % slug)
        byid = {x["id"]: x for x in conflicts}
        want = [byid[i] for i in d["project"]["open_conflicts"]]
        block = head.split("(projects/%s/index.md#disputed)\n" % slug, 1)
        if not want or slug not in named:
            if len(block) == 2:
                bad.append("%s: a block with no open conflict" % slug)
            continue
        if len(block) != 2:
            bad.append("%s: no block under the headline" % slug)
            continue
        text = block[1].split("\n### ", 1)[0]
        got = re.findall(r"^- \[(.*)\]\(conflicts/([a-z0-9-]+)\.md\)$", text, re.M)
        if got != [(x["question"], x["slug"]) for x in want[:3]]:
            bad.append("%s: questions %r" % (slug, got))
        more = len(want) - 3
        if (more > 0) != ("- and %d more: [" % more in text):
            bad.append("%s: no 'and %d more'" % (slug, more))
        n = len(d["project"]["open_checks"])
        if ("[%d open check%s](checks/projects/%s.md)" % (n, "" if n == 1 else "s", slug)
                if n else " · no open check · ") not in text:
            bad.append("%s: its open checks are not counted and linked" % slug)
elif case == "plurals":
    for name, text in [("index.md", index), ("conflicts/index.md", queue)] + list(pages.items()):
        m = re.search(r"\b1 (memories|conflicts|open conflicts|members|days|projects|entities)\b|\(1 open conflicts\)|\b(?:[02-9]|\d\d+) (memory|conflict|open conflict|member|day|project)\b(?! (?:row|pressure))", text)
        if m:
            bad.append("%s: %r" % (name, m.group(0)))
elif case == "chart":
    html = read("index.html")
    figs = re.findall(r'<figure class="chart">\s*<svg [^>]*role="img"[^>]*aria-labelledby="([^"]*)".*?</svg>\s*</figure>', html, re.S)
    if len(figs) != 1:
        bad.append("%d charts with role=img" % len(figs))
    desc = re.search(r'<desc id="open-history-desc">(.*?)</desc>', html)
    title = re.search(r'<svg.*?<title id="open-history-title">([^<]+)</title>', html, re.S)
    alt = [l for l in index.splitlines() if l.startswith(
        ("Open conflicts after each day", "Open conflicts by project, worst first: "))]
    # One sweep or none: a bar a project (the line needs two days).
    bars = len(re.findall(r'<rect x="0" y="\d+" width="\d+" height="14"/>', html))
    if alt and alt[0].startswith("Open conflicts by project, worst first: ") and \
            bars != len(worst) + ("facts of no project" in alt[0]):
        bad.append("%d bars for %d projects" % (bars, len(worst)))
    if not desc or not title or not alt:
        bad.append("no title, desc or text alternative")
    elif desc.group(1).replace("&#39;", "'") != alt[0]:
        bad.append("desc %r != the .md's sentence %r" % (desc.group(1), alt[0]))
    # The layout's "/" key script (assets/keys.js) is on every page.
    if "<script" in html.replace('<script src="assets/keys.js" defer>'
                                 '</script>', "") or \
            "currentColor" not in html:
        bad.append("a script, or colours not from currentColor")
    if "<!-- figure:open-history -->" not in index or "figure:" in html:
        bad.append("the figure line is not where it belongs")
elif case == "history":
    alt = [l for l in index.splitlines() if l.startswith("Open conflicts after each day")]
    want = "Open conflicts after each day's sweeps: %s from 2026-11-01, %d from 2026-11-04." % (sys.argv[3], open_n)
    if alt != [want]:
        bad.append("history %r, not %r" % (alt, want))
    if not re.search(r'<path stroke-width="2" d="M\d+ \d+ H\d+ V\d+"/>', read("index.html")):
        bad.append("no step line of two points")
elif case == "queue":
    # The front page: a line per project with open conflicts, the most
    # first, at most 20, linked to its own pages; the list by project
    # (conflicts/index.projects and on): a row per project, by name.
    lines = re.findall(r"^- \[(.*)\]\(projects/([^)]*)\.md\): (\d+) open conflicts?", queue, re.M)
    projects = {c["project"] for c in conflicts}
    with_open = {c["project"] for c in conflicts if c["status"] == "open"}
    if len(lines) != min(20, len(with_open)):
        bad.append("front page: %d projects, the store %d with open conflicts" % (len(lines), len(with_open)))
    opens = [int(l[2]) for l in lines]
    if opens != sorted(opens, reverse=True):
        bad.append("front page not the most first: %r" % lines)
    for name, folder, n in lines:
        if "conflicts/projects/%s.md" % folder not in pages:
            bad.append("%s: no page projects/%s.md" % (name, folder))
    rows, f = [], "index.projects.md"
    while f:
        t = read("conflicts/" + f)
        rows += re.findall(r"^\| \[(.*)\]\(projects/([^)]*)\.md\) \| (\d+) \|", t, re.M)
        m = re.search(r"\[next\]\(([^)]*)\)", t)
        f = m.group(1) if m else None
    if len(rows) != len(projects):
        bad.append("list: %d projects, the store %d" % (len(rows), len(projects)))
    if sum(int(r[2]) for r in rows) != open_n:
        bad.append("list: %d open, the store %d" % (sum(int(r[2]) for r in rows), open_n))
    num = lambda s: [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]
    names = [r[0] for r in rows if r[1] != "_"]
    if names != sorted(names, key=num) or (len(names) < len(rows) and rows[-1][1] != "_"):
        bad.append("list not by name, no project last: %r" % rows[:5])
    # Each conflict: its slot and sides on exactly one project page.
    for c in conflicts:
        entry = "- [**%s**](../%s.md): %s\n" % (c["name_md"], c["slug"], c["sides_md"])
        if queue_all.count(entry) != 1:
            bad.append("%s: its entry is on %d project pages" % (c["id"], queue_all.count(entry)))
    for path, text in pages.items():
        n = len(re.findall(r"^- \[", text, re.M))
        if n > 300:
            bad.append("%s: %d entries" % (path, n))
        heads = re.findall(r"^## (Open|Resolved|Dismissed), [a-z ]+: (\d+) conflicts?$", text, re.M)
        order = [h[0] for h in heads]
        if order != sorted(order, key=["Open", "Resolved", "Dismissed"].index):
            bad.append("%s: groups %r" % (path, order))
elif case == "case":
    for want in ("[**result first mode frequency of model Bench modal FEA**](",
                 "[**layer count constraint on PCB stackup**](",
                 "[**serdes refclk frequency**]("):
        if want not in queue_all:
            bad.append("missing %r" % want)
elif case == "entry":
    want = ("): **GF-PTFE** (trusted state: design review 2025-11-04) vs "
            "**PEEK** (engineering record: mount FEA report; meeting "
            "2026-01-19)\n"
            "  - %s · the trust order favours GF-PTFE (trusted state)\n"
            % sys.argv[3])
    if want not in queue_all:
        bad.append("no entry %r" % want)
    if "favours none" in queue_all:
        bad.append("an entry says the trust order favours none")
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
