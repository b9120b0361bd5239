#!/bin/sh
# The site's corners (issue 20, point 4): a distinct <title> and a
# <meta name="description"> on every page; 404.html that works at any
# depth (absolute links with --base-url, else links from the server's
# root and no file of the site needed); the Atom feed's rel="self" link,
# valid against RFC 4287's grammar (tests/data/atom.rng); the A-Z index
# of every state key and entity name, each linked to its fact.
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200
base=https://mirror.example.org/sub/
rng="$MIRROR_TOP/tests/data/atom.rng"

new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
sqlite3 -bail ex.db "INSERT INTO project_state(id, project, category, key,
    value, source) VALUES ('st-hostile', 'p05', 'fact',
    'Zz <img src=x onerror=alert(1)> \"q\" & [x](y)', 'v', 's');
    UPDATE projects SET description = 'Tests \"quoted\" <b>bold</b> & more'
    WHERE id = 'p04-gigabit';" || exit 1
mirror build --store ex.db --out site --quiet
expect_status "the example builds without a base URL" 0
mirror build --store ex.db --out based --quiet --base-url "$base" --no-sweep
expect_status "and with a base URL" 0

# ---- titles and descriptions
find site -name '*.html' ! -name 404.html | LC_ALL=C sort > pages
# The head's <title>, the first of each page (an SVG figure has its own).
for f in $(cat pages); do
	grep -m1 -o '<title>.*</title>' "$f" | sed 's:</*title>::g'
done | LC_ALL=C sort > titles
expect "every page has one <title>, all $(wc -l < pages) distinct" \
    sh -c "[ \$(wc -l < titles) = \$(wc -l < pages) ] &&
        [ \$(uniq < titles | wc -l) = \$(wc -l < pages) ]"
expect "the index's title is the site title once, not 'X · X'" \
    grep -qx '<title>Human Mirror</title>' site/index.html
expect "a project page is titled by the project and the site" \
    grep -q '<title>P05 Interferometer: overview · Human Mirror</title>' \
    site/projects/p05-interferometer/index.html
missing=$(for p in $(cat pages) site/404.html; do
	grep -Eq '<meta name="description" content="[^"]+">' "$p" || echo "$p"
done)
expect "every page has a non-empty <meta name=\"description\">" test -z "$missing"
expect "a description comes from the page's text (the project's own)" \
    grep -q '<meta name="description" content="Phase-shifting Fizeau' \
    site/projects/p05-interferometer/index.html
expect "store text in a description is escaped" \
    grep -q 'content="Tests &quot;quoted&quot; &lt;b&gt;bold&lt;/b&gt; &amp; more">' \
    site/projects/p04-gigabit/index.html

# ---- 404.html
hrefs() { grep -o ' \(href\|src\)="[^"]*"' "$1" | sed 's/^ [a-z]*="//; s/"$//'; }
hrefs site/404.html > h404
expect "404.html without a base URL links only from the server's root" \
    sh -c "! grep -v '^/' h404 | grep -vx -e '#main' -e 'data:,' &&
        grep -qx '/index.html' h404 && grep -qx '/keys/index.html' h404"
expect "404.html without a base URL needs no file of the site (no stylesheet, no inline style)" \
    sh -c "! grep -q 'rel=\"stylesheet\"' site/404.html &&
        ! grep -q '<style' site/404.html && ! grep -q ' src=' site/404.html"
hrefs based/404.html > hb404
expect "404.html with a base URL links absolutely under it, stylesheet too" \
    sh -c "! grep -v '^$base' hb404 | grep -vx -e '#main' -e 'data:,' &&
        grep -qx '${base}assets/style.css' hb404 &&
        grep -qx '${base}conflicts/index.html' hb404"
expect "every other page keeps relative links, also with a base URL" \
    sh -c "! grep -h -o 'href=\"https:[^\"]*\"' based/index.html based/projects/p05-interferometer/index.html"

# Served for a missing page deep in the site, as GitHub Pages and mirror
# serve do: every link of the answer resolves to a page that exists.
mkdir tmp
TMPDIR="$T/tmp" "$MIRROR" serve --store ex.db --port 0 >serve.out 2>serve.err &
pid=$!
url="" i=0
while [ $i -lt 600 ] && [ -z "$url" ]; do
	url=$(sed -n 's/^serving \(http:[^ ]*\) (Ctrl-C to stop)$/\1/p' serve.out)
	sleep 0.1
	i=$((i + 1))
done
deep=projects/p05-interferometer/nope.html
code=$(curl -s --max-time 20 -o deep.html -w '%{http_code}' "$url$deep")
expect "a missing page deep in the site is answered with 404.html" \
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
expect "every link of 404.html served at depth 2 leads to a page (200)" \
    test $? -eq 0
sed -n '1,5s/^/#   /p' deeplinks.log
kill -TERM "$pid" 2>/dev/null
wait "$pid"

# ---- the feed
expect "the feed has a self link: feed.xml, relative without a base URL" \
    grep -q '<link rel="self" type="application/atom+xml" href="feed.xml"/>' site/feed.xml
expect "and the absolute URL with one" \
    grep -q "<link rel=\"self\" type=\"application/atom+xml\" href=\"${base}feed.xml\"/>" based/feed.xml
xmllint --noout --relaxng "$rng" site/feed.xml based/feed.xml > rng.log 2>&1
expect "both feeds are valid Atom (RFC 4287 grammar, xmllint)" test $? -eq 0
sed 's:<updated>[^<]*</updated>::' site/feed.xml > nodate.xml
xmllint --noout --relaxng "$rng" nodate.xml > /dev/null 2>&1
expect "a feed without its updated dates fails the grammar (it can fail)" \
    test $? -ne 0

# ---- the A-Z index
n=$(sqlite3 ex.db "SELECT count(*) FROM (SELECT key FROM project_state
    UNION SELECT name FROM entities)")
listed=$(grep -h '^- \*\*' site/keys/*.md | grep -v '^- \*\*[^*]*\*\*: [0-9]' | wc -l)
expect "the A–Z pages list each of the $n distinct keys and names once" \
    test "$listed" = "$n"
expect "a key links to its fact's anchor on its project page" \
    grep -q 'href="../projects/p05-interferometer/index.html#state-p05-st-lateral-support-material"' \
    site/keys/l.html
expect "a name carried by several facts lists each (mass: 4 facts)" \
    sh -c "grep '^- \*\*mass\*\*' site/keys/m.md | grep -o '](' | wc -l | grep -qx 4"
expect "store text on the A–Z pages is text, never markup" \
    sh -c "! grep -q '<img' site/keys/z.html &&
        grep -q '&lt;img src=x onerror=alert(1)&gt;' site/keys/z.html"
expect "every page's nav links the A–Z index" \
    sh -c "! grep -L 'keys/index.html\"[^>]*>A–Z</a>' \$(cat pages) | grep -q ."
python3 "$MIRROR_TOP/tests/tools/linkcheck.py" site > lc.log 2>&1
expect "every link and fragment of the site resolves (linkcheck)" test $? -eq 0
python3 "$MIRROR_TOP/tests/tools/linkcheck.py" based > lcb.log 2>&1
expect "also with a base URL (404.html's links from it)" test $? -eq 0
tail -n 1 lc.log lcb.log | sed 's/^/#   /'

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
    sh -c "grep -q aperture_renamed incr/keys/a.md && diff -r incr/keys site/keys >/dev/null"
exit 0
