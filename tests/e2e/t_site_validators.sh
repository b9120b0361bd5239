#!/bin/sh
# The validators, kept at zero: axe-core over every HTML page of the
# example site (default theme) and over the largest page of each kind of
# a 10,000-fact bench site, in light and dark mode, and no page that
# scrolls sideways at 390 or 1280 px, in one headless chromium a site
# (tests/browser/validators.test.js; screenshots of each page kind go to
# BUILD/screenshots/validators/ and validators-bench10k/); feed.xml and sitemap.xml against the
# schemas of Atom and of sitemaps (tests/data/schemas/, xmllint). The Nu
# HTML checker runs over the same pages in t_site_html.sh, in its one JVM.
# The promises of doc/site.md, "Accessibility and validity".
. "$MIRROR_TOP/tests/e2e/lib.sh"
# The example assumes a clock after 2026-06-30 (site-example/README.md).
export SOURCE_DATE_EPOCH=1793491200
shots="$(dirname "$MIRROR")/screenshots/validators"

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node, playwright-core, axe-core and xmllint are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
# With violations of made-up rules (tests/data/checks.sql): the check
# and Checks pages are page kinds too.
new_store ex.db "$MIRROR_TOP/site-example/example.sql" \
    "$MIRROR_TOP/tests/data/checks.sql" || exit 1
mirror build --store ex.db --out example --quiet
expect_status "the example site builds" 0
# The feed and the sitemap against their schemas (xmllint): Atom as RFC
# 4287's RELAX NG schema has it, with and without --base-url; the sitemap
# with --base-url only, since the protocol wants absolute URLs and
# without it mirror writes relative ones (doc/site.md).
schemas="$MIRROR_TOP/tests/data/schemas"
mirror build --store ex.db --out published --base-url https://example.org/mirror/ --quiet
expect_status "the example builds with --base-url" 0
# valid NAME XMLLINT_ARGS...: a case that passes when xmllint validates;
# else its first complaints follow the case.
valid() {
	name=$1
	shift
	if xmllint --noout "$@" 2>xmllint.log; then ok "$name"; else
		not_ok "$name" "xmllint --noout $*"
		sed -n '1,8s/^/#   /p' xmllint.log
	fi
}
valid "feed.xml is valid Atom (RFC 4287's schema), with and without --base-url" \
    --relaxng "$schemas/atom.rng" example/feed.xml published/feed.xml
valid "changes.xml, the recent changes, is valid Atom, with and without --base-url" \
    --relaxng "$schemas/atom.rng" example/changes.xml published/changes.xml
valid "sitemap.xml with --base-url is a valid sitemap (sitemaps.org 0.9)" \
    --schema "$schemas/sitemap.xsd" published/sitemap.xml
sed '0,/<id>urn:mirror:conflict:/{/<id>urn:mirror:conflict:/d}' example/feed.xml > noid.xml
expect "the schemas reject an entry without an id and a relative URL (the checks can fail)" \
    sh -c "! xmllint --noout --relaxng '$schemas/atom.rng' noid.xml 2>/dev/null &&
        ! xmllint --noout --schema '$schemas/sitemap.xsd' example/sitemap.xml 2>/dev/null"
bench_store b.db && sqlite3 -bail b.db < "$MIRROR_TOP/tests/data/checks.sql" ||
    exit 1
mirror build --store b.db --out bench10k --quiet
expect_status "the 10,000-fact bench site builds" 0
mirror build --store b.db --out bench10k-published --base-url https://example.org/mirror/ --quiet --no-sweep
valid "bench10k: feed.xml is valid Atom, with and without --base-url" \
    --relaxng "$schemas/atom.rng" bench10k/feed.xml bench10k-published/feed.xml
valid "bench10k: changes.xml is valid Atom, with and without --base-url" \
    --relaxng "$schemas/atom.rng" bench10k/changes.xml bench10k-published/changes.xml
valid "bench10k: sitemap.xml with --base-url is a valid sitemap" \
    --schema "$schemas/sitemap.xsd" bench10k-published/sitemap.xml
# browser SITE NAME SHOTS [PER_KIND]: validators.test.js on SITE, its
# numbering continuing after the cases above.
browser() {
	node "$MIRROR_TOP/tests/browser/validators.test.js" "$1" "$3" "$2" $4 \
	    > browser.log 2>&1
	status=$?
	awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ /, "ok " base + (++k) " ") } { print }' browser.log
	T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok' browser.log)))
	if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
		RC=$status
		not_ok "$2: the browser run ends cleanly" "$(tail -5 browser.log)"
	fi
}
browser example example "$shots"
# The bench site's 475 pages: the largest page of each kind (the most
# rows, the widest tables), kept fast.
browser bench10k bench10k "$shots-bench10k" 1
