#!/bin/sh
# t_site_search.sh: the search index (issue 57, item 3). The example
# site's search/ holds the manifest, term shards and record chunks, each
# bounded; the same store gives the same bytes (any MIRROR_JOBS); an
# incremental build after a fact's change holds what a full build does;
# every page's header links the search page, whose text without
# JavaScript points to the A-Z index; then a real browser types queries
# over HTTP and from file:// (tests/browser/search.test.js).
. "$MIRROR_TOP/tests/e2e/lib.sh"
export SOURCE_DATE_EPOCH=1793491200

new_store ex.db "$MIRROR_TOP/site-example/example.sql" || exit 1
mirror build --store ex.db --out site --quiet
expect_status "the example site builds" 0

files_there() {
	[ -f site/search/index.js ] && [ -f site/search/index.html ] &&
	    [ -f site/search/index.md ] && [ -f site/search/t-0.js ] &&
	    [ -f site/search/d-0.js ] && [ -f site/assets/search.js ]
}
expect "the manifest, a term shard, a record chunk, the page and the script are written" files_there

# Shards of about 24,000 bytes (one term's postings may pass it by its
# own length: at most 1,500 documents), chunks of 256 records.
bounded() {
	for f in site/search/t-*.js; do
		[ "$(wc -c <"$f")" -le 40000 ] || return 1
	done
	for f in site/search/d-*.js; do
		[ "$(grep -c '^\[' "$f")" -le 256 ] || return 1
		[ "$(wc -c <"$f")" -le 65536 ] || return 1
	done
}
expect "every shard and chunk is bounded" bounded

docs_counted() {
	n=$(sed -n 's/.*"docs":\([0-9]*\).*/\1/p' site/search/index.js)
	[ "$n" -gt 0 ] && [ "$(cat site/search/d-*.js | grep -c '^\[')" -eq "$n" ]
}
expect "the manifest counts every record" docs_counted

# Every fact of the store is a record, and every conflict and check.
all_there() {
	facts=$(sql ex.db "SELECT (SELECT count(*) FROM project_state) +
	    (SELECT count(*) FROM entities) + (SELECT count(*) FROM memories)
	    + (SELECT count(*) FROM conflicts) + (SELECT count(*) FROM
	    rule_violations)")
	[ "$(cat site/search/d-*.js | grep -c '^\[')" -eq "$facts" ]
}
expect "every fact, conflict and check is a record" all_there

MIRROR_JOBS=1 mirror build --store ex.db --out site1 --no-sweep --quiet
expect "the same store gives the same index with one job" \
    diff -r site/search site1/search

sql ex.db "UPDATE project_state SET value = '325 rpm' WHERE id = 'p06-st-spindle-max'"
mirror build --store ex.db --out site --no-sweep --quiet
mirror build --store ex.db --out full --no-sweep --quiet
changed() {
	grep -q '"325 rpm"' site/search/d-*.js && diff -r site/search full/search
}
expect "an incremental build after a change holds the full build's index" changed

links_search() {
	for p in index.html projects/p06-polisher/index.html keys/index.html \
	    conflicts/index.html; do
		grep -q 'href="[./]*search/index.html"' "site/$p" || return 1
	done
}
expect "every page kind's header links the search page" links_search
expect "without JavaScript the search page points to the A-Z index" \
    grep -q 'href="../keys/index.html"' site/search/index.html

if ! sh "$MIRROR_TOP/tests/browser/ensure.sh" 2>"$T/ensure.log"; then
	RC=1
	not_ok "chromium, node and playwright-core are installed" "$(tail -3 "$T/ensure.log")"
	exit 1
fi
node "$MIRROR_TOP/tests/browser/search.test.js" "$T/site1" > browser.log 2>&1
status=$?
awk -v base="$T_N" '/^(not )?ok [0-9]+ /{ sub(/ok [0-9]+ /, "ok " base + (++k) " ") } { print }' browser.log
T_N=$((T_N + $(grep -c '^\(not \)\{0,1\}ok' browser.log)))
if [ "$status" -ne 0 ] && ! grep -q '^not ok' browser.log; then
	RC=$status
	not_ok "the browser run ends cleanly" "$(tail -5 browser.log)"
fi
