#!/bin/sh
# The site's corners (issue 20, point 4), on the example site and on a
# 10,000-fact bench site (the checks that hold on any site run on both,
# each case named with its site): a distinct <title> and a <meta
# name="description"> on every page; 404.html that works at any depth
# (absolute links with --base-url, else links from the server's root and
# no file of the site needed); the Atom feed's rel="self" link, valid
# against RFC 4287's grammar (tests/data/atom.rng), and its entries the
# 100 newest conflicts and checks; the A-Z index of every state key and
# entity name, each fact linked to its anchor.
# The promises of doc/site.md, "Base URL, sitemap and feed".
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
base=https://mirror.example.org/sub/
rng="$MIRROR_TOP/tests/data/atom.rng"

new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
sqlite3 -bail ex.db "INSERT INTO project_state(id, project, category, key,
    value, source) VALUES ('st-hostile', 'p05', 'fact',
    'Zz <img src=x onerror=alert(1)> \"q\" & [x](y)', 'v', 's'),
    ('st-hostile-2', 'p06-polisher', 'parameter',
    'Zz <img src=x onerror=alert(1)> \"q\" & [x](y)', 'w', 's'),
    ('st-empty', 'p06-polisher', 'fact', 'empty_value', '', 's');
    UPDATE projects SET description = 'Tests \"quoted\" <b>bold</b> & more'
    WHERE id = 'p04-gigabit';" || exit 1
mirror build --store ex.db --out site --quiet
expect_status "the example builds without a base URL" 0
mirror build --store ex.db --out site-based --quiet --base-url "$base" --no-sweep
expect_status "... and with a base URL" 0

bench_store b.db || exit 1
mirror build --store b.db --out bench10k --quiet
expect_status "the 10,000-fact bench site builds" 0
mirror build --store b.db --out bench10k-based --quiet --base-url "$base" --no-sweep
expect_status "... and with a base URL" 0

hrefs() { grep -o ' \(href\|src\)="[^"]*"' "$1" | sed 's/^ [a-z]*="//; s/"$//'; }

# served STORE NAME: mirror serve on STORE answers a missing page deep
# in the site with 404.html, and every link of that answer leads to a
# page (200), as GitHub Pages would serve it.
served() {
	rm -rf tmp && mkdir tmp
	# Emptied here, not by the background job's redirection: the loop
	# below could read the last call's URL (a server gone) before the
	# job has opened the file.
	: >serve.out
	TMPDIR="$T/tmp" "$MIRROR" serve --store "$1" --port 0 >serve.out 2>serve.err &
	pid=$!
	url="" i=0
	while [ $i -lt 600 ] && [ -z "$url" ]; do
		url=$(sed -n 's/^serving \(http:[^ ]*\) (Ctrl-C to stop)$/\1/p' serve.out)
		sleep 0.1
		i=$((i + 1))
	done
	deep=projects/$(ls "$3/projects" | head -1)/nope.html
	code=$(curl -s --max-time 20 -o deep.html -w '%{http_code}' "$url$deep")
	expect "$2: a missing page deep in the site is answered with 404.html" \
	    sh -c "test '$code' = 404 && grep -q 'Page not found' deep.html"
	python3 - "$url$deep" deep.html > deeplinks.log 2>&1 <<'PY'
import re, sys, urllib.parse, urllib.request
page, body = sys.argv[1], open(sys.argv[2], encoding="utf-8").read()
bad = 0
for href in re.findall(r' (?:href|src)="([^"]*)"', body):
    if href.startswith(("#", "data:")):
        continue
    target = urllib.parse.urljoin(page, href)
    try:
        urllib.request.urlopen(target, timeout=20).read()
    except Exception as e:
        print(f"{href} -> {target}: {e}")
        bad += 1
sys.exit(1 if bad else 0)
PY
	expect "$2: every link of 404.html served at depth 2 leads to a page (200)" \
	    test $? -eq 0
	sed -n '1,5s/^/#   /p' deeplinks.log
	kill -TERM "$pid" 2>/dev/null
	wait "$pid"
}

# corners DIR NAME STORE: the checks that hold on any site DIR (built
# from STORE; DIR-based with --base-url), named with NAME.
corners() {
	find "$1" -name '*.html' ! -name 404.html | LC_ALL=C sort > pages
	# The head's <title>, the first of each page (an SVG figure has its own).
	for f in $(cat pages); do
		grep -m1 -o '<title>.*</title>' "$f" | sed 's:</*title>::g'
	done | LC_ALL=C sort > titles
	expect "$2: every page has one <title>, all $(wc -l < pages) distinct" \
	    sh -c "[ \$(wc -l < titles) = \$(wc -l < pages) ] &&
	        [ \$(uniq < titles | wc -l) = \$(wc -l < pages) ]"
	missing=$(for p in $(cat pages) "$1/404.html"; do
		grep -Eq '<meta name="description" content="[^"]+">' "$p" || echo "$p"
	done)
	expect "$2: every page has a non-empty <meta name=\"description\">" test -z "$missing"
	hrefs "$1/404.html" > h404
	expect "$2: 404.html without a base URL links only from the server's root" \
	    sh -c "! grep -v '^/' h404 | grep -vx -e '#main' -e 'data:,' &&
	        grep -qx '/index.html' h404 && grep -qx '/keys/index.html' h404"
	# Styled all the same: the theme's stylesheet is inline, once, in
	# its head (no link could find it at every depth without a base URL).
	expect "$2: 404.html without a base URL needs no file of the site (no stylesheet link, no src; the theme's CSS inline)" \
	    sh -c "! grep -q 'rel=\"stylesheet\"' $1/404.html &&
	        ! grep -q ' src=' $1/404.html &&
	        test \"\$(grep -c '<style' $1/404.html)\" = 1 &&
	        sed -n '/<head>/,/<\/head>/p' $1/404.html | grep -q 'a.disputed'"
	hrefs "$1-based/404.html" > hb404
	expect "$2: 404.html with a base URL links absolutely under it, stylesheet too" \
	    sh -c "! grep -v '^$base' hb404 | grep -vx -e '#main' -e 'data:,' &&
	        grep -qx '${base}assets/style.css' hb404 &&
	        grep -qx '${base}conflicts/index.html' hb404"
	expect "$2: every other page keeps relative links, also with a base URL" \
	    sh -c "! grep -h -o 'href=\"https:[^\"]*\"' $1-based/index.html $1-based/projects/*/index.html"
	served "$3" "$2" "$1"
	expect "$2: the feed has a self link: feed.xml, relative without a base URL" \
	    grep -q '<link rel="self" type="application/atom+xml" href="feed.xml"/>' "$1/feed.xml"
	expect "$2: and the absolute URL with one" \
	    grep -q "<link rel=\"self\" type=\"application/atom+xml\" href=\"${base}feed.xml\"/>" "$1-based/feed.xml"
	xmllint --noout --relaxng "$rng" "$1/feed.xml" "$1-based/feed.xml" > rng.log 2>&1
	expect "$2: both feeds are valid Atom (RFC 4287 grammar, xmllint)" test $? -eq 0
	n=$(sqlite3 "$3" "SELECT count(*) FROM (SELECT key FROM project_state
	    UNION SELECT name FROM entities)")
	listed=$(for f in "$1"/keys/*.html; do kept_text "$f"; done |
	    grep -o '^<li><strong>[^<]*</strong>\( (continued\)\{0,1\}' |
	    grep -vc '(continued')
	expect "$2: the A–Z pages list each of the $n distinct keys and names once" \
	    test "$listed" = "$n"
	python3 - "$1" "$3" > atoz.log 2>&1 <<'PY'
import glob, os, re, sqlite3, sys
site, store = sys.argv[1:]
db = sqlite3.connect(store)
facts = db.execute("SELECT (SELECT count(*) FROM project_state) + "
                   "(SELECT count(*) FROM entities)").fetchone()[0]
ids, links, bad = {}, [], []
for page in sorted(glob.glob(os.path.join(site, "keys", "*.html"))):
    links += re.findall(r'href="(\.\./projects/[^"#]+)#([^"]+)"',
                        open(page, encoding="utf-8").read())
for target, frag in links:
    path = os.path.normpath(os.path.join(site, "keys", target))
    if path not in ids:
        ids[path] = set(re.findall(r' id="([^"]+)"', open(path, encoding="utf-8").read())
                        if os.path.exists(path) else [])
    if frag not in ids[path]:
        bad.append(f"{target}#{frag}")
if len(set(links)) != facts:
    bad.append(f"{len(set(links))} facts linked, the store has {facts}")
for b in bad[:8]:
    print(b)
sys.exit(1 if bad else 0)
PY
	expect "$2: each state row and entity is linked once from the A–Z pages, to an anchor of its page" \
	    test $? -eq 0
	sed -n '1,5s/^/#   /p' atoz.log
	expect "$2: every page's nav links the A–Z index" \
	    sh -c "! grep -L 'keys/index.html\"[^>]*>A–Z</a>' \$(cat pages) | grep -q ."
	python3 "$MIRROR_TOP/tests/tools/linkcheck.py" "$1" > lc.log 2>&1
	expect "$2: every link and fragment of the site resolves (linkcheck)" test $? -eq 0
	python3 "$MIRROR_TOP/tests/tools/linkcheck.py" "$1-based" > lcb.log 2>&1
	expect "$2: also with a base URL (404.html's links from it)" test $? -eq 0
	tail -n 1 lc.log lcb.log | sed 's/^/#   /'
}
corners site example ex.db
corners bench10k bench10k b.db

expect "example: the index's title is the site title once, not 'X · X'" \
    grep -qx '<title>Human Mirror</title>' site/index.html
expect "example: a project page is titled by the project and the site" \
    grep -q '<title>P05 Interferometer: overview · Human Mirror</title>' \
    site/projects/p05-interferometer/index.html
expect "example: a description comes from the page's text (the project's own)" \
    grep -q '<meta name="description" content="Phase-shifting Fizeau' \
    site/projects/p05-interferometer/index.html
expect "example: store text in a description is escaped" \
    grep -q 'content="Tests &quot;quoted&quot; &lt;b&gt;bold&lt;/b&gt; &amp; more">' \
    site/projects/p04-gigabit/index.html
sed 's:<updated>[^<]*</updated>::' site/feed.xml > nodate.xml
xmllint --noout --relaxng "$rng" nodate.xml > /dev/null 2>&1
expect "a feed without its updated dates fails the grammar (it can fail)" \
    test $? -ne 0
# An A-Z entry: the name once as its heading, its layer and kind once
# after it when every fact of the name shares them, then each fact as a
# link whose text is its value alone (read in its list item, after the
# name), its marker, and its project right after.
expect "example: a name carried by several facts lists each (mass: 4 facts), its value the link's text, with its marker and project" \
    sh -c "grep '^<li><strong>mass</strong>' site/keys/m.html | grep -o 'href=\"../projects/' | wc -l | grep -qx 4 &&
    grep '^<li><strong>mass</strong> (entity, parameter): <a ' site/keys/m.html |
    grep -q '#entity-[a-z0-9-]*\">4.82 kg</a> <a class=\"disputed\" href=\"../conflicts/[a-z0-9-]*.html\"[^>]*>⚠ disputed</a> (P05 Interferometer)'"
# A name's facts in the order of their projects, numbers as numbers:
# the bench store's ids p0 ... p49 are not zero-padded, and bytes would
# list p1, p10, p11 ... p19, p2.
expect "bench10k: an A–Z name lists its projects numbers as numbers (Project 2 before Project 10)" \
    python3 -c '
import re, sys
line = [l for l in open("bench10k/keys/k.html", encoding="utf-8")
        if l.startswith("<li><strong>key_0</strong>")][0]
got = [int(n) for n in re.findall(r"\(Project ([0-9]+)\)", line)]
sys.exit(0 if len(got) > 20 and got == sorted(got) else 1)'
expect "example: no link's text on the A–Z pages repeats its name ('mass: 4.82 kg')" \
    sh -c "! grep -q '>mass: ' site/keys/m.html"
expect "example: a fact of no value links '(empty)', never an empty link" \
    grep -q '^<li><strong>empty_value</strong> (state, fact): <a href="../projects/p06-polisher/index.html#state-st-empty">(empty)</a> (P06 Polisher)</li>' site/keys/e.html
expect "example: facts of one name but of other layers or kinds each say theirs, after the project" \
    sh -c "grep -h '^<li><strong>[^<]*</strong>: <a ' site/keys/*.html | grep -q '(P0[0-9][^);]*; \(state\|entity\), [^)]*) · '"
expect "example: a key links to its fact's anchor on its project page" \
    grep -q 'href="../projects/p05-interferometer/index.html#state-p05-st-lateral-support-material"' \
    site/keys/l.html
expect "example: store text on the A–Z pages is text, never markup" \
    sh -c "! grep -q '<img' site/keys/z.html &&
        grep -q '&lt;img src=x onerror=alert(1)&gt;' site/keys/z.html"

# The feed holds the 100 newest conflicts and checks, newest first, ties
# conflicts first, then by id: here one check made the newest, then the
# conflicts (110, all of one date) by id; the 294 checks of that date
# and 10 of the conflicts are left out.
cp b.db feed.db
newest=$(sqlite3 -bail feed.db "SELECT min(id) FROM rule_violations
    WHERE status = 'open'")
sqlite3 -bail feed.db "UPDATE rule_violations SET detected_at =
    '2026-11-05 00:00:00' WHERE id = '$newest'" || exit 1
mirror build --store feed.db --out feed --quiet --no-sweep
expect_status "the bench site with one newer check builds" 0
grep -o '<id>urn:mirror:[a-z]*:[^<]*' feed/feed.xml |
    sed 's/<id>urn:mirror://' > entries
{ echo "check:$newest"
  sqlite3 -bail feed.db "SELECT 'conflict:' || id FROM conflicts
      ORDER BY id LIMIT 99"; } > want
expect "bench10k: the feed has 100 entries of $(sqlite3 feed.db "SELECT
    (SELECT count(*) FROM conflicts) + (SELECT count(*) FROM rule_violations)")" \
    sh -c "test \$(wc -l < entries) -eq 100"
expect "bench10k: the newest check first, then the conflicts by id" \
    cmp -s entries want
expect "bench10k: the feed is dated by its newest entry" \
    sh -c "grep -m1 '<updated>' feed/feed.xml | grep -q '>2026-11-05T00:00:00Z<'"

# A key renamed in one project: the incremental build's A–Z pages are
# those of a full build (the A–Z pages read every project's names).
sqlite3 -bail ex.db "UPDATE project_state SET key = 'aperture_renamed'
    WHERE id = 'p05-st-aperture'" 2>/dev/null ||
    sqlite3 -bail ex.db "UPDATE project_state SET key = 'aperture_renamed'
    WHERE id = (SELECT id FROM project_state WHERE project LIKE 'p05%' LIMIT 1)"
mirror build --store ex.db --out site --quiet
cp -R site incr
mirror build --store ex.db --out site --quiet --force
expect "after one renamed key the incremental A–Z pages equal a full build's" \
    sh -c "grep -q aperture_renamed incr/keys/a.html && diff -r incr/keys site/keys >/dev/null"
exit 0
