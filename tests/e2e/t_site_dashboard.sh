#!/bin/sh
# The index as a dashboard and the review queue (issue 20, items 1 and
# 3), on the example store: the headline in words, the projects table in
# reading order, counts that agree between the index, api/health.json,
# the project JSON and the conflicts, plurals, the chart of open
# conflicts over time (inline SVG with a text alternative, the same
# bytes from the same store), and the queue grouped by project with each
# conflict's question, its slot as the store wrote it, age, members and
# what the trust order favours.
. "$MIRROR_TOP/tests/e2e/lib.sh"
DAY=86400
EPOCH=1793491200        # 2026-11-01, the example's clock

new_store ex.db "$MIRROR_TOP/site-example/example.sql"
expect "the example store loads" test $? = 0
cp ex.db ex2.db
SOURCE_DATE_EPOCH=$EPOCH mirror build --store ex.db --out site --quiet
expect_status "the example builds" 0

# check.py SITE CASE: one named check on a built site, in Python; prints
# what it found wrong.
cat > check.py <<'EOF'
import glob, json, os, re, sys
site, case = sys.argv[1], sys.argv[2]
def read(p): return open(os.path.join(site, p), encoding="utf-8").read()
def js(p): return json.load(open(os.path.join(site, p), encoding="utf-8"))
conflicts = js("api/conflicts.json")["conflicts"]
health = js("api/health.json")
index = read("index.md")
queue = read("conflicts/index.md")
rows = [l for l in index.splitlines() if l.startswith("| [")]
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
    if "most first, then by name" not in index:
        bad.append("no caption states the order")
    keys = [(-int(cells(l)[4]), re.match(r"\[(.*?)\]", cells(l)[0]).group(1)) for l in rows]
    if keys != sorted(keys) or len(keys) < 2:
        bad.append("rows out of order: %r" % keys)
    if len({k[0] for k in keys}) < 2:
        bad.append("the example should have projects with different counts")
elif case == "counts":
    if len(rows) != health["projects"]:
        bad.append("%d table rows, health.json says %d projects" % (len(rows), health["projects"]))
    total = 0
    for l in rows:
        c = cells(l)
        slug = re.search(r"\(projects/([^/]+)/index\.md\)", c[0]).group(1)
        p = js("api/projects/%s.json" % slug)["project"]
        mine = sum(x["status"] == "open" and x["project"] == p["id"] for x in conflicts)
        got = [int(c[1]), int(c[2]), int(c[3]), int(c[4])]
        want = [p["state_rows"], p["entity_rows"], p["memory_rows"], mine]
        if got != want:
            bad.append("%s: row %r, JSON and conflicts say %r" % (slug, got, want))
        if not re.fullmatch(r"\d{4}-\d\d-\d\d", c[5]):
            bad.append("%s: latest change %r" % (slug, c[5]))
        total += int(c[4])
    loose = sum(x["status"] == "open" and x["project"] == "" for x in conflicts)
    if total + loose != open_n:
        bad.append("the table's open conflicts (%d) + %d of no project != %d" % (total, loose, open_n))
elif case == "plurals":
    for name, text in (("index.md", index), ("conflicts/index.md", queue)):
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
    alt = [l for l in index.splitlines() if l.startswith("Open conflicts after each day")]
    if not desc or not title or not alt:
        bad.append("no title, desc or text alternative")
    elif desc.group(1).replace("&#39;", "'") != alt[0]:
        bad.append("desc %r != the .md's sentence %r" % (desc.group(1), alt[0]))
    if "<script" in html or "currentColor" not in html:
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
    heads = re.findall(r"^## (Open|Resolved|Dismissed)", queue, re.M)
    if heads != ["Open", "Resolved", "Dismissed"]:
        bad.append("groups %r" % heads)
    opened = queue.split("## Resolved")[0]
    for c in conflicts:
        q = js("api/conflicts/%s.json" % c["id"])
        if c["status"] == "open" and "[%s](%s.md)" % (q["question"], c["id"]) not in opened:
            bad.append("%s: its question is not in the open group" % c["id"])
    projects = re.findall(r"^### (.*): (\d+) conflicts?$", opened, re.M)
    names = [p[0] for p in projects]
    if len(names) != len(set(names)) or not names:
        bad.append("projects not grouped: %r" % names)
    for name, n in projects:
        sect = opened.split("### %s:" % name)[1].split("###")[0]
        if sect.count("\n- [") != int(n):
            bad.append("%s: %d entries, heading says %s" % (name, sect.count("\n- ["), n))
elif case == "case":
    for want in ("slot: result first mode frequency of model Bench modal FEA ·",
                 "slot: layer count constraint on PCB stackup ·",
                 "slot: serdes_refclk_frequency ·"):
        if want not in queue:
            bad.append("missing %r" % want)
elif case == "entry":
    want = ("- slot: lateral_support_material · %s · 2 members · the trust "
            "order favours the trusted project state row "
            "p05-st-lateral-support-material: GF-PTFE · " % sys.argv[3])
    if want not in queue:
        bad.append("no entry %r" % want)
    if "the trust order favours none: no member outranks the others" not in queue:
        bad.append("no entry favouring none")
for b in bad[:10]:
    print(b)
sys.exit(1 if bad else 0)
EOF

expect "the headline is the open-conflict count in words" python3 check.py site headline
expect "the browser tab names the page, not the site twice" python3 check.py site title
expect "the projects table is in reading order (most open first, then name), said in a caption" \
    python3 check.py site order
expect "table rows, health.json, the project JSON and the conflicts agree" \
    python3 check.py site counts
expect "plurals agree with their numbers (index and queue)" python3 check.py site plurals
expect "the chart is inline SVG (role=img, title, desc = the text alternative, currentColor)" \
    python3 check.py site chart

# The same store gives the same bytes (a second store, built apart).
SOURCE_DATE_EPOCH=$EPOCH mirror build --store ex2.db --out site2 --quiet
expect "the same store gives the same index and queue, chart included" \
    sh -c 'cmp site/index.html site2/index.html &&
        cmp site/conflicts/index.md site2/conflicts/index.md'

expect "the queue: open, resolved, dismissed; grouped by project; each question" \
    python3 check.py site queue
expect "the queue keeps the case of keys and names as the store wrote them" \
    python3 check.py site case
expect "an entry: slot, age ('detected today' on the build's day), members and what the trust order favours" \
    python3 check.py site entry "detected today"

# Three days later: a review closes one conflict, the next build sweeps;
# the chart has two points, the ages have grown.
id=$(sql ex.db "SELECT id FROM conflicts WHERE status = 'open' AND
    slot_key LIKE '%fpga_part%'")
SOURCE_DATE_EPOCH=$((EPOCH + 3 * DAY)) mirror conflicts dismiss "$id" \
    --store ex.db --reason 'checked: the part is the XC7A100T' --actor ada
SOURCE_DATE_EPOCH=$((EPOCH + 3 * DAY)) mirror build --store ex.db --out site --quiet
expect "after a review and a build three days on, the chart has two points" \
    python3 check.py site history 14
expect "... the ages are counted by the build's clock" \
    python3 check.py site entry "open for 3 days"
expect "... the dismissed conflict is in its group, open for 3 days" sh -c "
    sed -n '/^## Dismissed/,\$p' site/conflicts/index.md |
    grep -q 'slot: fpga_part · was open for 3 days'"
expect "... and the counts still agree" python3 check.py site counts

# A day later, the same store: the ages change, so the build is no
# no-op, and it equals a --force build.
SOURCE_DATE_EPOCH=$((EPOCH + 4 * DAY)) mirror build --store ex.db --out site --quiet
cp ex.db ex3.db
SOURCE_DATE_EPOCH=$((EPOCH + 4 * DAY)) mirror build --store ex3.db --out site3 --force --quiet
expect "a day later the same store shows the new ages" \
    grep -q "slot: lateral_support_material · open for 4 days ·" site/conflicts/index.md
expect "... as a --force build does, byte for byte" \
    sh -c 'cmp site/conflicts/index.md site3/conflicts/index.md &&
        cmp site/index.html site3/index.html'

# One open conflict: singular words.
new_store one.db
sql one.db "INSERT INTO projects(id, name, aliases, description) VALUES
  ('p07-telescope', 'P07 Telescope', '[\"p07\"]', 'a telescope');
INSERT INTO project_state(id, project, category, key, value) VALUES
  ('st-tube', 'p07', 'decision', 'Tube_Material', 'carbon fibre');
INSERT INTO entities(id, entity_type, name, project, properties) VALUES
  ('dec-tube', 'decision', 'Tube material', 'p07-telescope',
   '{\"target\": \"Tube\", \"field\": \"material\", \"value\": \"aluminium\"}');
INSERT INTO memories(id, memory_type, content, project) VALUES
  ('mem-a', 'knowledge', 'The aperture is 200 mm', 'p07');"
SOURCE_DATE_EPOCH=$EPOCH mirror build --store one.db --out one --quiet
expect "one open conflict: singular words ('1 open conflict', '1 conflict')" sh -c '
    grep -m1 "^## " one/index.md | grep -qx "## 1 open conflict" &&
    grep -q "^## Open: 1 conflict\$" one/conflicts/index.md &&
    grep -q "^### P07 Telescope: 1 conflict\$" one/conflicts/index.md &&
    grep -q "1 conflict recorded in all" one/index.md &&
    python3 check.py one plurals'
expect "... the state key keeps its case in the queue" \
    grep -q "slot: Tube_Material ·" one/conflicts/index.md
