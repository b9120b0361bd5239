#!/bin/sh
# The open conflicts of every project in one paged list (issue 69,
# item 2): on a store of 12 one-fact projects with 330 open conflicts
# (dim_N of project N mod 12: a state value and a memory that says 9 mm),
# conflicts/index.open.md and index.open.page-2.md list each open
# conflict once, at most 300 a page, in columns Project, Conflict,
# Sides, Kind and Detected, oldest first, then by project and slot
# (numbers as numbers); each page links the previous and next page,
# every page, the review queue and the index; the queue's front page
# links the list; the list loads assets/sort.js; a conflict opened by a
# later build goes to the end and rewrites the last page alone; one
# closed leaves its page and rewrites that page alone (the pages are
# cut by the conflicts' ids: no page numbers its rows).
# And the open checks of every project, on the 10,000-fact bench store
# (tests/bench/store_gen.sql, 50 projects): checks/index.open.md and on,
# each open check once, oldest first then by project; the Checks page
# leads with its rules and links the list.
# The queue's front page and the Checks page do not grow with the
# number of projects (issue 69, items 1-2): on a store of 305 projects
# with 1 to 3 open conflicts each, conflicts/index.md names the 20 with
# the most, most first, and links conflicts/index.projects.md, every
# project's queue by name (numbers as numbers), 300 a page, sortable;
# one more conflict rewrites its project's page of the list, not the
# others. On the bench store the Checks page names at most 20 projects,
# the most open errors first, and links checks/index.projects.md, every
# project with checks once, by name, its counts those of the store.
# The promises of doc/site.md, "The open conflicts of every project".
# The promises of doc/site.md, "The open checks of every project".
# The promises of doc/site.md, "The projects of the queue and the checks".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

make_store() {
	new_store q.db || return 1
	{ echo "CREATE TEMP TABLE bench_projects(n);
	    INSERT INTO bench_projects VALUES(12);"
	  cat "$MIRROR_TOP/tests/bench/projects_gen.sql"
	  echo "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1
	    FROM c WHERE i < 329)
	    INSERT INTO project_state(id, project, category, key, value,
	    source, status, created_at, updated_at)
	    SELECT 'q-' || i, printf('p%06d', i % 12), 'fact', 'dim_' || i,
	    i || '.5 mm', 'test', 'active', '2024-01-01 00:00:00',
	    '2024-01-01 00:00:00' FROM c;
	    WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1
	    FROM c WHERE i < 329)
	    INSERT INTO memories(id, memory_type, content, project,
	    confidence, status, reference_count, domain_tags, created_at,
	    updated_at) SELECT 'qm-' || i, 'project', 'dim_' || i ||
	    ' is 9 mm', printf('p%06d', i % 12), 0.9, 'active', 0, '[]',
	    '2024-05-01 00:00:00', '2024-05-01 00:00:00' FROM c;"; } |
	    sqlite3 -bail q.db >/dev/null
}
expect "a store of 12 projects and 330 conflicts is made" make_store
mirror build --store q.db --out site --quiet
expect_status "it builds" 0
expect "the sweep found 330 open conflicts" test "$(sql q.db \
    "SELECT count(*) FROM conflicts WHERE status = 'open'")" = 330
sql q.db "SELECT id FROM conflicts WHERE status = 'open'" | sort >open.ids

check() { python3 - "$@" <<'PY'
import os, re, sys
site, case = "site", sys.argv[1]
def read(p): return open(os.path.join(site, p), encoding="utf-8").read()
def pages():
    out, f = [], "index.open.md"
    while f:
        out.append((f, read("conflicts/" + f)))
        m = re.search(r"\[next\]\(([^)]*)\)", out[-1][1])
        f = m.group(1) if m else None
    return out
ROW = re.compile(r"^\| \[([^\]]*)\]\(projects/([^)]*)\.md\) \| \[([^\]]*)\]\(([^)]*)\.md\) \| (.*) \| (.*) \| (\d{4}-\d\d-\d\d) \|$", re.M)
def rows(t): return ROW.findall(t)
def num(s): return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]
lst, bad = pages(), []
allrows = [r for f, t in lst for r in rows(t)]
if case == "columns":
    for f, t in lst:
        if "| Project | Conflict | Sides | Kind | Detected |" not in t:
            bad.append("%s: no heading row" % f)
    html = read("conflicts/index.open.html")
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", html)
    if heads != ["Project", "Conflict", "Sides", "Kind", "Detected"]:
        bad.append("html headings %r" % heads)
    r = [x for x in allrows if x[2] == "dim 7"]
    if len(r) != 1 or r[0][:2] != ("Project 7", "p000007") or \
            r[0][4:] != ("7.5 mm vs 9 mm", "across layers", "2026-11-01"):
        bad.append("dim 7: %r" % r)
elif case == "paged":
    files = sorted(f for f in os.listdir(site + "/conflicts")
                   if f.startswith("index.open"))
    want = ["index.open.html", "index.open.md", "index.open.page-2.html",
            "index.open.page-2.md"]
    if files != want: bad.append("pages %r" % files)
    n = [len(rows(t)) for f, t in lst]
    if sum(n) != 330 or max(n) > 300 or min(n[:-1]) < 75:
        bad.append("rows a page %r" % n)
    for f, t in lst:
        if re.search(r"here \d+ to \d+", t): bad.append("%s numbers its rows" % f)
    ids = sorted(r[3] for r in allrows)
    want = open("open.ids").read().split()
    if ids != want: bad.append("not each open conflict once: %d rows, %d open" % (len(ids), len(want)))
elif case == "order":
    key = [(r[6], num(r[0]), num(r[2])) for r in allrows]
    if key != sorted(key): bad.append("not oldest first, by project, by slot")
    got = [r[0] for r in allrows[:28]]
    want = ["Project 0"] * 28
    if got != want: bad.append("first rows %r" % got[:3])
    slots = [r[2] for r in allrows if r[0] == "Project 0"][:4]
    if slots != ["dim 0", "dim 12", "dim 24", "dim 36"]: bad.append("slots %r" % slots)
    names = []
    for r in allrows:
        if not names or names[-1] != r[0]: names.append(r[0])
    if names != ["Project %d" % i for i in range(12)]: bad.append("projects %r" % names)
elif case == "links":
    for k, (f, t) in enumerate(lst):
        prev = re.search(r"\[previous\]\(([^)]*)\)", t)
        if (prev.group(1) if prev else None) != (lst[k - 1][0] if k else None):
            bad.append("%s: previous %r" % (f, prev and prev.group(1)))
        pl = re.search(r"^Pages: (.*)$", t, re.M)
        if not pl or len(re.findall(r"\[\d+\]|\*\*\d+\*\*", pl.group(1))) != 2:
            bad.append("%s: no link to every page" % f)
        if "[Review queue](index.md)" not in t or "[Index](../index.md)" not in t:
            bad.append("%s: no link to the queue or the index" % f)
        for target in set(re.findall(r"\]\(([^)#]*\.md)", t)):
            for ext in (".md", ".html"):
                p = os.path.normpath("conflicts/" + target[:-3] + ext)
                if not os.path.exists(os.path.join(site, p)):
                    bad.append("%s: %s missing" % (f, p))
    if "](index.open.md)" not in read("conflicts/index.md"):
        bad.append("the review queue does not link the list")
elif case == "html":
    for f in ("index.open", "index.open.page-2"):
        html = read("conflicts/%s.html" % f)
        if '<script src="../assets/sort.js" defer></script>' not in html:
            bad.append("%s: no sort.js" % f)
        if len(re.findall(r"<tr>", html)) > 301: bad.append("%s: over 300 rows" % f)
    if "sort.js" in read("conflicts/index.html"):
        bad.append("the queue's front page loads sort.js")
for b in bad[:10]: print("#   " + b)
sys.exit(1 if bad else 0)
PY
}
expect "columns: project, conflict, sides' values, kind, day detected" check columns
expect "330 open conflicts on two pages of at most 300 (a quarter of that at least but the last), each once, none numbered" check paged
expect "oldest first, then by project and by slot, numbers as numbers" check order
expect "each page links the previous and next, every page, the queue and the index; the queue links the list" check links
expect "the list pages load sort.js, at most 300 rows each" check html

# A later build opens one more conflict in Project 0, first by name: it
# is the newest, so it goes to the end of the list, and the first page
# keeps its file.
inode() { stat -c %i site/conflicts/index.open.md site/conflicts/index.open.html; }
before=$(inode)
cp site/conflicts/index.open.page-2.md page2.before
sql q.db "INSERT INTO project_state(id, project, category, key, value,
    source, status, created_at, updated_at) VALUES ('q-new', 'p000000',
    'fact', 'dim_new', '1 mm', 'test', 'active', '2024-01-01 00:00:00',
    '2024-01-01 00:00:00');
    INSERT INTO memories(id, memory_type, content, project, confidence,
    status, reference_count, domain_tags, created_at, updated_at) VALUES
    ('qm-new', 'project', 'dim_new is 2 mm', 'p000000', 0.9, 'active', 0,
    '[]', '2024-05-01 00:00:00', '2024-05-01 00:00:00')"
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 2 * 86400)) \
    mirror build --store q.db --out site --quiet
expect "a conflict opened later is the last row of the last page" sh -c '
    ! cmp -s page2.before site/conflicts/index.open.page-2.md &&
    grep "^| \[" site/conflicts/index.open.page-2.md | tail -n 1 | grep -q \
    "^| \[Project 0\](projects/p000000.md) | \[dim new\](.*) | 1 mm vs 2 mm | across layers | 2026-11-03 |$"'
expect "... and the first page keeps its files" \
    sh -c "[ -n \"$before\" ] && [ \"$(inode)\" = \"$before\" ]"

# A later build closes a conflict of the first page (Project 0's dim 0:
# its memory says the state's value again): the list's pages are cut by
# the conflicts' ids, not every 300 rows, so the rows after it stay on
# their pages and the second page keeps its files (issue 68).
inode2() { stat -c %i site/conflicts/index.open.page-2.md \
    site/conflicts/index.open.page-2.html; }
before=$(inode2)
cp site/conflicts/index.open.md page1.before
sql q.db "UPDATE memories SET content = 'dim_0 is 0.5 mm' WHERE id = 'qm-0'"
SOURCE_DATE_EPOCH=$((SOURCE_DATE_EPOCH + 3 * 86400)) \
    mirror build --store q.db --out site --quiet
expect "a conflict of the first page closed leaves the first page" sh -c '
    ! cmp -s page1.before site/conflicts/index.open.md &&
    ! grep -q "\[dim 0\]" site/conflicts/index.open.md'
expect "... and the second page keeps its files" \
    sh -c "[ -n \"$before\" ] && [ \"$(inode2)\" = \"$before\" ]"

# The open checks of every project, on a bench store.
expect "the 10,000-fact bench store is made" bench_store b.db 10000
mirror build --store b.db --out bsite --quiet
expect_status "it builds" 0
sql b.db "SELECT id FROM rule_violations WHERE status = 'open'" | sort >checks.ids
checks() { python3 - "$@" <<'PY'
import os, re, sys
site, case = "bsite", sys.argv[1]
def read(p): return open(os.path.join(site, p), encoding="utf-8").read()
lst, f = [], "index.open.md"
while f:
    lst.append((f, read("checks/" + f)))
    m = re.search(r"\[next\]\(([^)]*)\)", lst[-1][1])
    f = m.group(1) if m else None
ROW = re.compile(r"^\| (.*) \| \[(.*)\]\(\.\./checks/projects/[^)#]*\.md#(chk-[0-9a-f]+)\) \| \[⚑ [^\]]*\]\(\.\./checks/rules/[^)]*\.md\) \| (error|warn) \| (\d{4}-\d\d-\d\d) \|$", re.M)
rows = [r for f, t in lst for r in ROW.findall(t)]
bad = []
def num(s): return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]
if case == "list":
    for f, t in lst:
        if "| Project | Check | Rule | Severity | Opened |" not in t:
            bad.append("%s: no heading row" % f)
        n = len(ROW.findall(t))
        if not 0 < n <= 300: bad.append("%s: %d rows" % (f, n))
    want = open("checks.ids").read().split()
    if sorted(r[2] for r in rows) != want or not want:
        bad.append("not each open check once: %d rows, %d open" % (len(rows), len(want)))
    key = [(r[4], num(r[0]), num(r[1])) for r in rows]
    if key != sorted(key): bad.append("not oldest first, by project, by message")
    if '<script src="../assets/sort.js" defer></script>' not in read("checks/index.open.html"):
        bad.append("no sort.js")
elif case == "index":
    t = read("checks/index.md")
    heads = re.findall(r"^## (?:<a id=\"[^\"]*\"></a>)?(.*)$", t, re.M)
    heads = [h for h in heads if h != "Rules that failed"]
    if heads[:2] != ["Rules", "Open checks"]:
        bad.append("sections %r" % heads[:4])
    if "](index.open.md)" not in t: bad.append("no link to the list")
elif case == "worst":
    t = read("checks/index.md")
    w = re.findall(r"^- \[([^\]]*)\]\(\.\./checks/projects/[^)]*\.md\): (\d+) open, \d+ closed(?: \((\d+) open errors\))?", t, re.M)
    if not 0 < len(w) <= 20: bad.append("%d projects named" % len(w))
    key = [(-int(e or 0), -int(o)) for n, o, e in w]
    if key != sorted(key): bad.append("not the most open errors first: %r" % w[:4])
    if "](index.projects.md)" not in t: bad.append("no link to the list by project")
    if len(t) > 8000: bad.append("Checks page over 8 kB")
    ROW = re.compile(r"^\| \[([^\]]*)\]\(\.\./checks/projects/[^)]*\.md\) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$", re.M)
    rows = ROW.findall(read("checks/index.projects.md"))
    names = [r[0] for r in rows]
    if sorted(names, key=num) != names: bad.append("list not by name, numbers as numbers")
    want = open("checks.projects").read().split("\n")[:-1]
    if sorted("%s|%s|%s" % (r[0], r[1], r[2]) for r in rows) != want:
        bad.append("list: %d rows, %d projects with checks, or counts not the store's" % (len(rows), len(want)))
    if '<script src="../assets/sort.js" defer></script>' not in read("checks/index.projects.html"):
        bad.append("list: no sort.js")
for b in bad[:10]: print("#   " + b)
sys.exit(1 if bad else 0)
PY
}
sql b.db "SELECT p.name || '|' || sum(v.status = 'open' AND
    v.severity = 'error') || '|' || sum(v.status = 'open' AND
    v.severity = 'warn') FROM rule_violations v JOIN projects p ON
    p.id = v.project GROUP BY p.id" | sort >checks.projects
expect "every open check once, at most 300 a page, oldest first, then by project and message; sort.js" checks list
expect "the Checks page leads with its rules and links the list" checks index

expect "the Checks page names at most 20 projects, the most open errors first, and links the list by project" checks worst

# The review queue by project, on 305 projects: project i has 1 + i % 3
# open conflicts (a state value and a memory that disagree).
make_many() {
	new_store m.db || return 1
	{ echo "CREATE TEMP TABLE bench_projects(n);
	    INSERT INTO bench_projects VALUES(305);"
	  cat "$MIRROR_TOP/tests/bench/projects_gen.sql"
	  echo "CREATE TEMP TABLE k(i, p, j);
	    WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1
	    FROM c WHERE i < 914) INSERT INTO k SELECT i, i % 305, i / 305
	    FROM c WHERE i / 305 < 1 + (i % 305) % 3;
	    INSERT INTO project_state(id, project, category, key, value,
	    source, status, created_at, updated_at)
	    SELECT 'm-' || i, printf('p%06d', p), 'fact', 'dim_' || j,
	    i || '.5 mm', 'test', 'active', '2024-01-01 00:00:00',
	    '2024-01-01 00:00:00' FROM k;
	    INSERT INTO memories(id, memory_type, content, project,
	    confidence, status, reference_count, domain_tags, created_at,
	    updated_at) SELECT 'mm-' || i, 'project', 'dim_' || j ||
	    ' is 9 mm', printf('p%06d', p), 0.9, 'active', 0, '[]',
	    '2024-05-01 00:00:00', '2024-05-01 00:00:00' FROM k;"; } |
	    sqlite3 -bail m.db >/dev/null
}
expect "a store of 305 projects with 1 to 3 conflicts each is made" make_many
mirror build --store m.db --out msite --quiet
expect_status "it builds" 0
sql m.db "SELECT p.name || '|' || count(c.id) FROM projects p JOIN
    conflicts c ON c.project = p.id AND c.status = 'open' GROUP BY p.id" |
    sort >m.open
byproject() { python3 - "$@" <<'PY'
import os, re, sys
site, case = "msite", sys.argv[1]
def read(p): return open(os.path.join(site, p), encoding="utf-8").read()
def num(s): return [int(x) if x.isdigit() else x for x in re.split(r"(\d+)", s)]
lst, f = [], "index.projects.md"
while f:
    lst.append((f, read("conflicts/" + f)))
    m = re.search(r"\[next\]\(([^)]*)\)", lst[-1][1])
    f = m.group(1) if m else None
ROW = re.compile(r"^\| \[([^\]]*)\]\(projects/([^)]*)\.md\) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\S+) \| (\d+) \| (\d+) \|$", re.M)
rows = [r for f, t in lst for r in ROW.findall(t)]
bad = []
if case == "list":
    if [f for f, t in lst] != ["index.projects.md", "index.projects.page-2.md"]:
        bad.append("pages %r" % [f for f, t in lst])
    n = [len(ROW.findall(t)) for f, t in lst]
    if n != [300, 5]: bad.append("rows a page %r" % n)
    for f, t in lst:
        if "| Project | Open | Across layers | Between records | Between memories | Oldest open | Resolved | Dismissed |" not in t:
            bad.append("%s: no heading row" % f)
        if "[Review queue](index.md)" not in t: bad.append("%s: no link to the queue" % f)
        if not re.search(r"^Pages: .*\[next\]|^Pages: \[previous\]", t, re.M):
            bad.append("%s: no links to the other page" % f)
    names = [r[0] for r in rows]
    if names != ["Project %d" % i for i in range(305)]: bad.append("not by name, numbers as numbers: %r" % names[:12])
    got = sorted("%s|%s" % (r[0], r[2]) for r in rows)
    if got != open("m.open").read().split("\n")[:-1]: bad.append("open counts are not the store's")
    for r in rows:
        if not os.path.exists(os.path.join(site, "conflicts/projects/%s.md" % r[1])):
            bad.append("%s: no queue" % r[1]); break
    for f in ("index.projects", "index.projects.page-2"):
        if '<script src="../assets/sort.js" defer></script>' not in read("conflicts/%s.html" % f):
            bad.append("%s: no sort.js" % f)
elif case == "worst":
    t = read("conflicts/index.md")
    w = re.findall(r"^- \[([^\]]*)\]\(projects/[^)]*\.md\): (\d+) open conflicts?", t, re.M)
    if len(w) != 20: bad.append("%d projects named, not 20" % len(w))
    key = [(-int(c), num(n)) for n, c in w]
    if key != sorted(key): bad.append("not the most first, then by name: %r" % w[:4])
    if w[:2] != [("Project 2", "3"), ("Project 5", "3")]: bad.append("first %r" % w[:2])
    if "](index.projects.md)" not in t: bad.append("no link to the list")
    if "The 20 of the 305 projects with open conflicts" not in t: bad.append("no words for the 20")
    if len(read("conflicts/index.md")) > 8000: bad.append("front page over 8 kB")
for b in bad[:10]: print("#   " + b)
sys.exit(1 if bad else 0)
PY
}
expect "every project's queue by name, numbers as numbers, 300 a page, its open count the store's, sortable" byproject list
expect "the queue's front page names the 20 projects with the most open conflicts, most first, and links the list" byproject worst

inode2() { stat -c %i msite/conflicts/index.projects.page-2.md; }
before=$(inode2)
cp msite/conflicts/index.projects.md list1.before
sql m.db "INSERT INTO project_state(id, project, category, key, value,
    source, status, created_at, updated_at) VALUES ('m-new', 'p000000',
    'fact', 'dim_new', '1 mm', 'test', 'active', '2024-01-01 00:00:00',
    '2024-01-01 00:00:00');
    INSERT INTO memories(id, memory_type, content, project, confidence,
    status, reference_count, domain_tags, created_at, updated_at) VALUES
    ('mm-new', 'project', 'dim_new is 2 mm', 'p000000', 0.9, 'active', 0,
    '[]', '2024-05-01 00:00:00', '2024-05-01 00:00:00')"
mirror build --store m.db --out msite --quiet
expect "a conflict opened in Project 0 rewrites its row of the first page ..." sh -c '
    ! cmp -s list1.before msite/conflicts/index.projects.md &&
    grep -q "^| \[Project 0\](projects/p000000.md) | 2 | 2 |" msite/conflicts/index.projects.md'
expect "... and the second page keeps its file" \
    sh -c "[ -n \"$before\" ] && [ \"$(inode2)\" = \"$before\" ]"
