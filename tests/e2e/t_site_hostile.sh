#!/bin/sh
# Store text is inert (SPEC 5): every string of the hostile corpus
# (tests/data/hostile/*.txt) goes into every text field of every layer,
# of the project row and of a recorded open conflict, and the site must
# show it as text in both twins: no script, image, iframe, table,
# emphasis, heading, list, link or forged fact id / disputed marker, and
# the build stays linear: three times the store, three times the pages and
# bytes (counted; the time is measured by make bench). Invalid UTF-8 is
# bad input (exit 2).
. "$MIRROR_TOP/tests/e2e/lib.sh"
corpus="$MIRROR_TOP/tests/data/hostile"
linkcheck="$MIRROR_TOP/tests/tools/linkcheck.py"
export SOURCE_DATE_EPOCH=1700000000

new_store h.db || exit 1
# One project per corpus file; the file's text in every field.
python3 "$MIRROR_TOP/tests/tools/hostile_sql.py" "$corpus" h.sql || exit 1
sqlite3 -bail h.db < h.sql || exit 1
n=$(sqlite3 h.db 'SELECT count(*) FROM projects')

# capped ARGS...: mirror ARGS (as the mirror function) under a CPU-time
# cap, not a clock: the builds here take a second or two of CPU whatever
# the load; only a blow-up (say a quadratic path over the corpus's long
# strings) reaches the cap, and is killed by SIGXCPU (exit 152; a soft
# limit, as a hard one kills with SIGKILL and says nothing). Valgrind
# (make memcheck) is some thirty times slower.
cap=60
[ -n "$MIRROR_WRAP" ] && cap=1800
capped() {
	(ulimit -S -t "$cap" && exec $MIRROR_WRAP "$MIRROR" "$@") >"$T/out" 2>"$T/err"
	RC=$?
}
# expect_capped NAME: the last capped run succeeded within the cap.
expect_capped() {
	case $RC in
	0) ok "$1" ;;
	152) not_ok "$1" "killed by SIGXCPU at the CPU cap (ulimit -S -t $cap)" ;;
	*) not_ok "$1" "expected exit status 0" ;;
	esac
}
capped build --store h.db --out site --no-sweep
expect_capped "the hostile store ($n projects) builds within a CPU cap of $cap s"

# Checks on every page, both twins, in one Python pass that names what
# it found where.
cat > check.py <<'EOF'
import glob, html.parser, json, os, re, sys
sys.path.insert(0, os.path.join(os.environ["MIRROR_TOP"], "tests", "tools"))
from api_facts import facts as api_facts
sys.path.insert(0, os.path.join(os.environ["MIRROR_TOP"], "tests", "tools"))
from api_conflicts import conflicts as site_conflicts
from mdfence import outside_fences
site = sys.argv[1]
conflicts = {c["slug"]: c for c in site_conflicts(site)}
bad = []
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.attrs = []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs += attrs
allowed = {"html", "head", "body", "meta", "title", "link", "header", "nav",
           "main", "footer", "a", "p", "ul", "li", "strong", "em", "h1",
           "h2", "h3", "hr", "span", "div", "small"}
for path in glob.glob(os.path.join(site, "**", "*.html"), recursive=True):
    text = open(path, encoding="utf-8").read()
    # A word the HTML writer keeps whole (gen/render/markdown.h, (i)): a
    # span of its class or a <time>, around one token of text and no
    # tag; taken out, its text left, so a span or time of store text
    # (with a space, a tag or any other attribute) would still show.
    text = re.sub(r'<span class="nobreak">([^<>\s]+)</span>', r"\1", text)
    text = re.sub(r"<time>(\d{4}-\d\d-\d\d)</time>", r"\1", text)
    # Every page's header search box and its "/" key script (the
    # layout's, no store text; issue 69), taken out by their exact text
    # before the page is parsed, so a form, input or script of store
    # text would still show.
    text = re.sub(r'<form class="site-search" role="search" '
                  r'action="(/|(\.\./)*)search/index\.html" method="get">\n'
                  r'<label for="site-q" class="visually-hidden">Search the '
                  r'mirror</label>\n<input type="search" id="site-q" '
                  r'name="q" placeholder="Search" autocomplete="off" '
                  r'spellcheck="false">\n<button type="submit">Search'
                  r'</button>\n</form>\n', "", text, count=1)
    text = re.sub(r'<script src="(\.\./)*assets/keys\.js" defer>'
                  r'</script>\n', "", text, count=1)
    p = P(); p.feed(text)
    rel = os.path.relpath(path, site)
    conflict_page = re.fullmatch(r"conflicts/([^/.]+)\.html", rel)
    if conflict_page and conflict_page.group(1) == "index":
        conflict_page = None
    # The open conflicts of every project: one table, a row each.
    open_list = re.fullmatch(r"conflicts/index\.open(\.page-(\d+))?\.html", rel)
    # The open checks of every project: one table, a row each.
    checks_list = re.fullmatch(r"checks/index\.open(\.page-(\d+))?\.html", rel)
    # Every project's queue and checks, by name (at most 300 a page).
    by_project = re.fullmatch(r"(conflicts|checks)/index\.projects(\.page-(\d+))?\.html", rel)
    project_page = re.fullmatch(r"projects/([^/]+)/index\.html", rel)
    # Counted against the conflict's (the project's) JSON below.
    page_allowed = allowed | ({"table", "thead", "tbody", "tr", "th", "td",
                               "pre", "code"} if conflict_page else set())
    # The index: the projects table, a row per project, and the chart
    # the generator draws (its text is escaped), both counted below.
    if rel == "index.html":
        page_allowed = page_allowed | {"table", "thead", "tbody", "tr",
                                       "th", "td", "figure", "svg", "desc",
                                       "g", "path", "circle", "text",
                                       "rect"}
    # The projects list: one table, a row per project, counted below.
    list_page = re.fullmatch(r"projects/index(\.[a-z0-9.-]+)?\.html", rel)
    if list_page or open_list or checks_list or by_project:
        page_allowed = page_allowed | {"table", "thead", "tbody", "tr",
                                       "th", "td"}
    if project_page:
        page_allowed |= {"table", "thead", "tbody", "tr", "th", "td",
                         "figure", "figcaption", "svg", "title", "rect",
                         "g", "path", "text", "tspan",
                         # The folds of "Not active" and "Links".
                         "details", "summary"}
    # The not-found page holds the theme's stylesheet inline.
    if rel == "404.html":
        page_allowed = page_allowed | {"style"}
    # The search page: the theme's form, results list and script (no
    # store text: the results come from search/*.js, as JavaScript
    # strings), taken out before the body is looked at.
    # A project's queue: the theme's filter script, its exact line taken
    # out before the body is looked at, where a <script> of store text
    # would still show (queue.js reads the page's text, writes no markup).
    if re.fullmatch(r"conflicts/projects/[^/]+\.html", rel):
        page_allowed = page_allowed | {"script"}
        text = text.replace('<script src="../../assets/queue.js" defer>'
                            '</script>', "")
    # The lists that sort (the projects list, the open conflicts and
    # checks of every project, every project's queue and checks): the
    # theme's sort script, its exact line taken out the same way
    # (sort.js moves the table's rows, writes no markup).
    if re.fullmatch(r"(projects/index|(conflicts|checks)/index\.(open|"
                    r"projects))(\.[a-z0-9.-]+)?\.html", rel):
        page_allowed = page_allowed | {"script"}
        text = text.replace('<script src="../assets/sort.js" defer>'
                            '</script>', "")
    # The recent changes: the theme's filter script, taken out the same
    # way (changes.js hides entries, writes no markup of the page's).
    if rel == "changes.html":
        page_allowed = page_allowed | {"script"}
        text = text.replace('<script src="assets/changes.js" defer>'
                            '</script>', "")
    # The queue's front page says once how to act on a conflict: its
    # three command lines are the template's code, taken out by text.
    if rel == "conflicts/index.html":
        n = len(re.findall(r"<code>mirror conflicts [^<]*</code>", text))
        if n != 3:
            bad.append(f"{rel}: {n} command lines of the template, not 3")
        text = re.sub(r"<code>mirror conflicts [^<]*</code>", "", text)
        page_allowed = page_allowed | {"code"} if n == 3 else page_allowed
    if rel == "search/index.html":
        page_allowed = page_allowed | {"form", "label", "input", "button",
                                       "fieldset", "legend", "select",
                                       "option", "ol", "script"}
        text = re.sub(r'<form class="search-form".*</script>', "", text,
                      flags=re.S)
    for t in set(p.tags) - page_allowed:
        bad.append(f"{rel}: element <{t}>")
    for k, v in p.attrs:
        if (k, v) == ("href", "data:,"):    # the layout's empty icon
            continue
        if k.startswith("on") or (v and re.match(r"\s*(javascript|data|vbscript):", v, re.I)):
            bad.append(f"{rel}: attribute {k}={v!r}")
        if k in ("href", "src") and v and re.match(r"[a-z]+:|//", v, re.I):
            bad.append(f"{rel}: link leaves the site: {v}")
    body = text.split("<main", 1)[-1]
    # The templates' own emphasis is the status word; any other <em> came
    # from store text.
    body = re.sub(r"<em>(active|superseded|candidate|invalid)</em>", "", body)
    # A table the templates write has its kind's class (cols-, 8 hex
    # digits: markdown.h (g); "in-section" after it on a section's: (h)),
    # taken out with the table's other tags.
    # A conflict page's template makes one table, a row per member, and
    # with the conflict open one <pre><code> block of commands: count
    # them against its JSON, then nothing else may be markup.
    if conflict_page:
        c = conflicts[conflict_page.group(1)]
        want = {"<table": 1, "<tr": 1 + len(c["members"]),
                "<pre": 1 if c["status"] == "open" else 0,
                "<code": 1 if c["status"] == "open" else 0}
        for tag, n in want.items():
            if body.count(tag) != n:
                bad.append(f"{rel}: {body.count(tag)} {tag}>, not {n}")
        body = re.sub(r"<pre>.*?</pre>|</?(table|thead|tbody|tr|th|td)>|<table class=\"cols-[0-9a-f]{8}( in-section)?\">|<tr id=\"[^\"]*\">", "", body, flags=re.S)
    if rel == "index.html":
        projects = json.load(open(os.path.join(site, "api", "health.json")))["projects"]
        figs = re.findall(r'<figure class="chart">.*?</figure>', body, flags=re.S)
        # "Where to look first": at most 12 projects.
        if len(figs) != 1 or body.count("<table") != 1 or \
                not 1 < body.count("<tr") <= 1 + min(12, projects):
            bad.append(f"{rel}: {len(figs)} charts, {body.count('<table')} tables, "
                       f"{body.count('<tr')} rows for {projects} projects")
        body = re.sub(r'<figure class="chart">.*?</figure>|</?(table|thead|tbody|tr|th|td)>|<table class=\"cols-[0-9a-f]{8}( in-section)?\">',
                      "", body, flags=re.S)
    if list_page:
        projects = json.load(open(os.path.join(site, "api", "health.json")))["projects"]
        if body.count("<table") != 1 or \
                body.count("<tr") != 1 + min(300, projects):
            bad.append(f"{rel}: {body.count('<table')} tables, "
                       f"{body.count('<tr')} rows for {projects} projects")
        body = re.sub(r'</?(table|thead|tbody|tr|th|td)>|<table class=\"cols-[0-9a-f]{8}\">',
                      "", body, flags=re.S)
    if by_project:
        n = len(json.load(open(os.path.join(site, "api", "conflicts.json")))["projects"]) \
            if by_project.group(1) == "conflicts" else None
        rows = body.count("<tr")
        # An empty list (no project with checks) says so and has none.
        if n is None and "No rule has flagged anything." in body and rows == 0:
            pass
        elif body.count("<table") != 1 or not 1 < rows <= 301 or \
                (n is not None and rows != 1 + min(300, n - 300 * (int(by_project.group(3) or 1) - 1))):
            bad.append(f"{rel}: {body.count('<table')} tables, {rows} rows")
        body = re.sub(r'</?(table|thead|tbody|tr|th|td)>|<table class=\"cols-[0-9a-f]{8}\">',
                      "", body, flags=re.S)
    if open_list or checks_list:
        if open_list:
            n = json.load(open(os.path.join(site, "api", "conflicts.json")))["open"]
        else:
            c = json.load(open(os.path.join(site, "api", "health.json")))["checks"]
            n = c["open_error"] + c["open_warn"]
        n -= 300 * (int((open_list or checks_list).group(2) or 1) - 1)
        # An empty list says so and has no table.
        if body.count("<table") != (n > 0) or \
                body.count("<tr") != (1 + min(300, n) if n > 0 else 0):
            bad.append(f"{rel}: {body.count('<table')} tables, "
                       f"{body.count('<tr')} rows for {n} open")
        body = re.sub(r'</?(table|thead|tbody|tr|th|td)>|<table class=\"cols-[0-9a-f]{8}\">',
                      "", body, flags=re.S)
    # A project overview's template makes tables whose rows are a
    # header each and then facts, each row's id the anchor of a fact its
    # JSON lists, and one figure when the project has a diagram, whose
    # links go only to conflicts: count them, then nothing else may be
    # markup.
    if project_page:
        d = json.load(open(os.path.join(site, "api", "projects", project_page.group(1) + ".json")))
        anchors = {f'{f["layer"]}-{f["slug"] or f["id"]}' for f in api_facts(d)
                   if f["layer"] != "relationship"}
        rows = re.findall(r'<tr id="([^"]*)"', body)
        if body.count("<tr") != body.count("<table") + len(rows) or \
                not set(rows) <= anchors:
            bad.append(f"{rel}: rows that are no fact of its JSON")
        if body.count("<figure") != body.count("<svg") or body.count("<svg") > 1:
            bad.append(f"{rel}: {body.count('<figure')} figures, {body.count('<svg')} svgs")
        svg = "".join(re.findall(r'<svg.*?</svg>', body, flags=re.S))
        hrefs = re.findall(r'<a href="([^"]*)"', svg)
        for h in hrefs:
            m = re.fullmatch(r"\.\./\.\./conflicts/([a-z0-9-]+)\.html", h)
            if not m or not os.path.exists(os.path.join(site, "conflicts", m.group(1) + ".md")):
                bad.append(f"{rel}: the diagram links {h}, no conflict")
        try:
            if svg:
                import xml.etree.ElementTree as E
                E.fromstring(svg)
        except E.ParseError as e:
            bad.append(f"{rel}: the diagram is not well-formed XML: {e}")
        body = re.sub(r'<figure class="diagram-figure">.*?</figure>|</?(table|thead|tbody|tr|th|td)>|<table class=\"cols-[0-9a-f]{8}( in-section)?\">|<tr id="[^"]*">', "", body, flags=re.S)
    if re.search(r"<em>|<del>|<blockquote|<table|<img|<code|<pre|<ol|<svg|<figure", body):
        bad.append(f"{rel}: store text became markup")
    if body.count("<h1") > 1:
        bad.append(f"{rel}: a second h1")
    ids = re.findall(r'<(?:li|tr) id="([^"]*)"', text)
    for i in ids:
        if not re.fullmatch(r"(state|entity|memory|member-(state|entity|memory))-h\d\d-[a-z0-9]+", i):
            bad.append(f"{rel}: unexpected fact id {i}")
    for m in re.finditer(r'<a class="disputed" href="([^"]*)"', text):
        if not re.search(r"conflicts/h\d\d-c\.html$", m.group(1)):
            bad.append(f"{rel}: forged marker to {m.group(1)}")
for path in glob.glob(os.path.join(site, "**", "*.md"), recursive=True):
    rel = os.path.relpath(path, site)
    for _, line in outside_fences(open(path, encoding="utf-8")):
        rest = re.sub(r'^(\s*- |\| |#+ )?<a id="[a-z0-9-]+"></a>', "", line)
        # A template's figure line (the chart or the diagram of the HTML
        # twin).
        rest = re.sub(r'^<!-- figure:[a-z0-9-]+ -->$', "", rest.rstrip("\n"))
        # A template's fold or landmark line (gen/render/markdown.h (e)
        # and (f)): a whole line, exactly as the Markdown pass allows.
        rest = re.sub(r'^(<details><summary>[A-Za-z0-9 ,.\'():-]+</summary>|</details>|'
                      r'<nav class="(crumbs|toc)" aria-label="(Breadcrumbs|Contents)">|</nav>)$',
                      "", rest)
        # A bare '<' is text unless it could start a tag, comment,
        # declaration, processing instruction or autolink.
        if re.search(r"(?<!\\)<(?=[A-Za-z/!?]|[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@)", rest):
            bad.append(f"{rel}: raw '<' in {line[:80]!r}")
            break
for b in bad[:20]:
    print(b)
sys.exit(1 if bad else 0)
EOF
expect "every store string stays text in every HTML and Markdown page" python3 check.py site
expect "no link leaves the site and every link resolves" python3 "$linkcheck" site
expect "genuine markers only, the same in both twins" \
    python3 "$MIRROR_TOP/tests/tools/markers.py" site
expect "a genuine marker still renders for each open conflict" sh -c "
    test \$(grep -l 'class=\"disputed\"' site/projects/*/index.html | wc -l) -eq $n"
expect "the script text is shown, escaped, in the HTML" \
    grep -q '&lt;script&gt;alert(&quot;xss&quot;)&lt;/script&gt;' site/projects/h01/index.html
expect "the script text is shown, escaped, in the Markdown" \
    grep -Fq '\<script>alert("xss")\</script>' site/projects/h01/index.md
expect "the forged anchor is text, not an id" sh -c "
    ! grep -q 'id=\"state-s1\"' site/projects/h21/index.html &&
    grep -q '&lt;a id=&quot;state-s1&quot;&gt;' site/projects/h21/index.html"
expect "JSON files carry the raw text, valid JSON" sh -c "
    jq -e '.project.name | startswith(\"<script>\")' site/api/projects/h01.json >/dev/null"
expect "the Atom feed stays well-formed" python3 -c "
import xml.etree.ElementTree as E; E.parse('site/feed.xml')"
expect "sitemap.xml stays well-formed" python3 -c "
import xml.etree.ElementTree as E; E.parse('site/sitemap.xml')"
mirror build --store h.db --out again --no-sweep
expect "the hostile site is deterministic" diff -r site again

# Linear: three times the hostile store gives three times the pages and
# the bytes, not nine (a page per pair of projects, every project's text
# on every page would show here). Counted, never timed: how long the
# build takes is make bench's ("hostile corpus x3", tests/bench/bench.py).
new_store h3.db || exit 1
python3 "$MIRROR_TOP/tests/tools/hostile_sql.py" "$corpus" h3.sql 3 &&
    sqlite3 -bail h3.db < h3.sql || exit 1
capped build --store h3.db --out lin3 --no-sweep --quiet
expect_capped "the store three times as big builds within the same CPU cap"
pages1=$(find site -name '*.html' | wc -l)
pages3=$(find lin3 -name '*.html' | wc -l)
expect "with three times the pages ($pages1, x3: $pages3)" test \
    "$pages3" -gt $((pages1 * 5 / 2)) -a "$pages3" -le $((pages1 * 3))
bytes() { find "$1" -type f -exec cat {} + | wc -c; }
bytes1=$(bytes site)
bytes3=$(bytes lin3)
expect "and three times the bytes ($bytes1, x3: $bytes3; at most 3.3 times)" \
    test "$bytes3" -gt $((bytes1 * 5 / 2)) -a $((bytes3 * 10)) -le $((bytes1 * 33))

# The sweep runs over the same text without trouble.
cp h.db swept.db
mirror build --store swept.db --out swept
expect_status "the sweep and build run on hostile text" 0

# --- invalid UTF-8 and invalid JSON are bad input, named -------------------
new_store u.db || exit 1
sqlite3 u.db "INSERT INTO memories(id, memory_type, content) VALUES('bad-utf8', 'knowledge', CAST(readfile('$corpus/31-invalid-utf8.txt') AS TEXT));"
mirror build --store u.db --out usite --no-sweep
expect_error "invalid UTF-8 names table, row and column" 2 "memories row 'bad-utf8': content is not valid UTF-8"
expect "and writes nothing" test ! -e usite
new_store j.db || exit 1
sqlite3 j.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES('e-json', 'component', 'x', 'p', '{\"a\":');"
mirror build --store j.db --out jsite --no-sweep
expect_error "invalid JSON in properties names table and row" 2 "entities row 'e-json': properties is not valid JSON"
new_store k.db || exit 1
sqlite3 k.db "INSERT INTO entities(id, entity_type, name, project, properties) VALUES('e-arr', 'component', 'x', 'p', '[1]');"
mirror build --store k.db --out ksite --no-sweep
expect_error "properties that are not an object are bad input" 2 "entities row 'e-arr': properties is not a JSON object"
new_store big.db || exit 1
python3 -c "print(\"INSERT INTO project_state(id, project, category, key, value) VALUES('big', 'p', 'fact', 'k', '\" + 'x' * 3000000 + \"');\")" | sqlite3 big.db
mirror build --store big.db --out bigsite --no-sweep
expect_status "a value megabytes long builds" 0
expect "and is cut on the page, with how much was cut" \
    grep -q 'bytes more' bigsite/projects/p/index.md
expect "the page stays small" test "$(wc -c < bigsite/projects/p/index.html)" -lt 100000
