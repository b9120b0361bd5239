#!/bin/sh
# The home page is bounded and the projects list is paged (issue 69,
# item 1): on a store of 650 one-fact projects (tests/bench/
# projects_gen.sql) with open conflicts in three of them, the index names
# those three, worst first, and links the list; projects/index.md and on
# list every project in numeric-aware order by name ("Project 2" before
# "Project 10"), at most 300 a page, and projects/index.conflicts.html
# and on by open conflicts, most first, in HTML alone (no Markdown twin:
# it reorders the rows of the list by name, as the decision log does the
# overview's); each page links the previous and next and the other order;
# numbers are right-aligned by the stylesheet and
# the list pages load assets/sort.js; a one-fact change rewrites only the
# page of the list its project is on.
# The promises of doc/site.md, "The projects list".
# The promises of doc/site.md, "The index tells the story".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

# mem ID PROJECT CONTENT: a project memory of PROJECT saying CONTENT.
mem() {
	echo "INSERT INTO memories(id, memory_type, content, project,
	    confidence, status, reference_count, domain_tags, created_at,
	    updated_at) VALUES ('$1', 'project', '$3', '$2', 0.9, 'active',
	    0, '[]', '2024-05-01 00:00:00', '2024-05-01 00:00:00');"
}
# state ID PROJECT KEY VALUE: an active trusted state fact.
state() {
	echo "INSERT INTO project_state(id, project, category, key, value,
	    source, status, created_at, updated_at) VALUES ('$1', '$2',
	    'fact', '$3', '$4', 'test', 'active', '2024-01-01 00:00:00',
	    '2024-01-01 00:00:00');"
}

make_store() {
	new_store p.db || return 1
	{ echo "CREATE TEMP TABLE bench_projects(n);
	    INSERT INTO bench_projects VALUES(650);"
	  cat "$MIRROR_TOP/tests/bench/projects_gen.sql"; } |
	    sqlite3 -bail p.db >/dev/null || return 1
	# Project 7: 3 open conflicts; Project 640: 2; Project 100: 1.
	{ state w7 p000007 width '4 mm'; state d7 p000007 depth '5 mm'
	  mem m7a p000007 'length is 99 mm'; mem m7b p000007 'width is 9 mm'
	  mem m7c p000007 'depth is 9 mm'
	  state w640 p000640 width '4 mm'
	  mem m640a p000640 'length is 99 mm'
	  mem m640b p000640 'width is 9 mm'
	  mem m100 p000100 'length is 99 mm'; } | sqlite3 -bail p.db
}
expect "a store of 650 projects, conflicts in three, is made" make_store
cp p.db p2.db
mirror build --store p.db --out site --quiet
expect_status "it builds" 0
mirror build --store p2.db --out again --quiet

check() { python3 - "$@" <<'PY'
import os, re, sys
site, case = "site", sys.argv[1]
def read(p): return open(os.path.join(site, p), encoding="utf-8").read()
def pages(first, link=r"\[next\]\(([^)]*)\)"):
    """The pages of an order from first on, each (file, text), through
    its link to the next (Markdown's, or the HTML's)."""
    out, f = [], first
    while f:
        out.append((f, read("projects/" + f)))
        m = re.search(link, out[-1][1])
        f = m.group(1) if m else None
    return out
def rows(text):
    if text.startswith("<!"):
        return re.findall(r'<tr>\n<td><a href="[^"]*">([^<]*)</a></td>\n<td>(\d+)</td>', text)
    return re.findall(r"^\| \[([^\]]*)\]\([^)]*\) \| (\d+) \|", text, re.M)
name = pages("index.md")
worst = pages("index.conflicts.html", r'<a href="([^"]*)">next</a>')
bad = []
if case == "paged":
    files = sorted(f for f in os.listdir(site + "/projects") if "." in f)
    want = ["index.conflicts.html", "index.conflicts.page-2.html",
            "index.conflicts.page-3.html", "index.html", "index.md",
            "index.page-2.html", "index.page-2.md", "index.page-3.html",
            "index.page-3.md"]
    if files != want: bad.append("pages %r" % files)
    for order in (name, worst):
        n = [len(rows(t)) for f, t in order]
        if n != [300, 300, 50]: bad.append("rows a page %r" % n)
elif case == "by-name":
    got = [r[0] for f, t in name for r in rows(t)]
    if got != ["Project %d" % i for i in range(650)]:
        bad.append("order %r" % got[:15])
elif case == "by-conflicts":
    got = [(r[0], int(r[1])) for f, t in worst for r in rows(t)]
    want = [("Project 7", 3), ("Project 640", 2), ("Project 100", 1)]
    rest = [("Project %d" % i, 0) for i in range(650) if i not in (7, 100, 640)]
    if got != want + rest: bad.append("order %r" % got[:6])
elif case == "links":
    for k, (f, t) in enumerate(name):
        prev = re.search(r"\[previous\]\(([^)]*)\)", t)
        if (prev.group(1) if prev else None) != (name[k - 1][0] if k else None):
            bad.append("%s: previous %r" % (f, prev and prev.group(1)))
        if "(index.conflicts.html)" not in t or "[Index](../index.md)" not in t:
            bad.append("%s: no link to the other order or the index" % f)
        for target in re.findall(r"\]\(([^)#]*\.(?:md|html))", t):
            exts = (".md", ".html") if target.endswith(".md") else ("",)
            for ext in exts:
                p = "projects/" + (target[:-3] + ext if ext else target)
                if not os.path.exists(os.path.join(site, p)):
                    bad.append("%s: %s missing" % (f, p))
    for k, (f, t) in enumerate(worst):
        prev = re.search(r'<a href="([^"]*)">previous</a>', t)
        if (prev.group(1) if prev else None) != (worst[k - 1][0] if k else None):
            bad.append("%s: previous %r" % (f, prev and prev.group(1)))
        if '<a href="index.html">By name</a>' not in t or \
                '<a href="../index.html">Index</a>' not in t:
            bad.append("%s: no link to the other order or the index" % f)
        if ".md" in t: bad.append("%s: links Markdown" % f)
        for target in re.findall(r'href="([^"#:]+\.html)', t):
            if not os.path.exists(os.path.join(site, "projects", target)):
                bad.append("%s: %s missing" % (f, target))
elif case == "home":
    index = read("index.md")
    table = re.findall(r"^\| \[([^\]]*)\]\(projects/", index, re.M)
    if table != ["Project 7", "Project 640", "Project 100"]:
        bad.append("where to look first: %r" % table)
    if "(projects/index.md)" not in index or "(projects/index.conflicts.html)" not in index:
        bad.append("no link to the list")
    if "Project 649" in index or "Project 649" in read("index.html"):
        bad.append("the index lists every project")
    size = os.path.getsize(os.path.join(site, "index.html"))
    if size > 32768: bad.append("index.html is %d bytes" % size)
elif case == "html":
    html = read("projects/index.page-2.html")
    css = read("assets/style.css")
    cls = re.search(r'<table class="(cols-[0-9a-f]{8})', html)
    if not cls: bad.append("the table has no class")
    else:
        for k in (2, 3, 4, 6, 7, 8):
            if ".%s td:nth-child(%d), .%s th:nth-child(%d) { text-align: right; }" % (
                    cls.group(1), k, cls.group(1), k) not in css:
                bad.append("column %d is not right-aligned" % k)
    if " align=" in html: bad.append("an align attribute")
    if '<script src="../assets/sort.js" defer></script>' not in html:
        bad.append("no sort.js")
    if "sort.js" in read("projects/p000007/index.html"):
        bad.append("a project's overview loads sort.js")
    if not os.path.exists(os.path.join(site, "assets/sort.js")):
        bad.append("no assets/sort.js")
for b in bad[:10]: print("#   " + b)
sys.exit(1 if bad else 0)
PY
}
expect "by name and by open conflicts, three pages each of at most 300 projects" check paged
expect "by name, numbers as numbers: Project 0, 1, 2 ... 649" check by-name
expect "by open conflicts, most first, ties by name" check by-conflicts
expect "each page links the previous and next, the other order and the index; every link leads to a page" check links
expect "the index names the three projects with open conflicts, worst first, links the list and stays small" check home
expect "numbers right-aligned by the stylesheet (no align attribute), sort.js on the list alone" check html
expect "the same store gives the same list, byte for byte" \
    sh -c 'for f in site/projects/index*; do cmp "$f" "again/${f#site/}" || exit 1; done'

# A one-fact change in Project 500 (page 2 of both orders): its latest
# change moves; the other pages keep their files.
inodes() { stat -c %i site/projects/index.md site/projects/index.page-3.md \
    site/projects/index.conflicts.html \
    site/projects/index.conflicts.page-3.html; }
before=$(inodes)
# What an older build left: the ranking's Markdown twin.
cp site/projects/index.md site/projects/index.conflicts.md
cp site/projects/index.page-2.md page2.before
sql p.db "UPDATE project_state SET value = '7 mm', updated_at =
    '2025-03-01 00:00:00' WHERE id = 's-500'"
mirror build --store p.db --out site --quiet
expect "a one-fact change rewrites the page its project is on" sh -c '
    ! cmp -s page2.before site/projects/index.page-2.md &&
    grep -q "^| \[Project 500\](p000500/index.md) | 0 | 0 | 0 | 2025-03-01 |" \
        site/projects/index.page-2.md'
expect "... and keeps the pages of the list it is not on" test "$(inodes)" = "$before"
expect "... and leaves no Markdown twin of the ranking an older build wrote" \
    test ! -e site/projects/index.conflicts.md
